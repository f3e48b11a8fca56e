"""Pachisi's help pages and About text, written for this project."""

from __future__ import annotations

RULES = """\
# The race
Two to four players race four pieces each round the cross-shaped board and \
into the centre. The first to bring all four home wins.

Each player starts in a corner. The black triangle on the start square \
points the way: play runs clockwise round the whole board, then up the \
middle of the player's own arm (the green home stretch) into the centre.

# Throwing
The six cowrie shells count the mouths that land up: none up is 25, one is \
10, and two to six count as they fall. There is no 1. (Preferences can swap \
the shells for a seven-sided die with the same numbers, all equally likely.)

A 6, 10 or 25 earns another throw, and so does sending an opponent home.

# Moving
One throw moves one piece exactly that many squares. In your first turn any \
throw brings a piece onto the board; after that only a 6, 10 or 25 does.

Two of your pieces on one square form a double (a black dot in the middle). \
Nothing may pass a double, your own pieces included, and a single may never \
land on an opponent's double. A double moves as one.

# Taking
Land on an opponent's single and it goes back to its corner; you throw \
again. Only a double can take a double.

The light green squares are safe: nobody is taken there, and players may \
share them. The home stretch is safe too.

# Finishing
A piece needs the exact number to reach the centre. Beware the square just \
before the centre: with no 1 to throw, a piece stopped there can never finish, \
so Pachisi asks before making that move.

From your second turn on you may pass, before or after throwing. When no \
piece can use a throw, the throw is lost.
"""

PLAYING = """\
# Your turn
Tap the die (or the shells), press Select, or tap Throw in the panel.

A yellow marker then sits on your most advanced piece that can move, and \
the square it would reach is marked too. Up and Down (or Left and Right), or \
a tap on another piece, move the marker; Select, or a tap on the marked piece or its target, \
makes the move. Every other piece that can move has yellow corner ticks. Tap \
a piece that cannot move to be told why.

A CAUTION box warns when the marker lands on a move to the square before the \
finish: with no 1 on the die that piece could never finish. Moving it anyway \
asks once more, and Select there means Cancel.

P (or Game > Pass, or the panel's Pass) gives up the rest of your turn, from \
your second turn on, before or after throwing. Game > Hint marks the move \
Silicon would make; Game > History shows the last round. Any key or tap \
clears a message box; Y and N answer yes/no questions.

# Computer players
Silicon, Silicon1 and Silicon2 play by themselves: they throw, show their \
choice and move, about half a second each (Preferences: Speed). Any key \
or tap finishes the computer's turn at once. Lost throws clear after two \
seconds, or at once with any key or tap. Open the menu at any time to stop \
and think.

# Setting up
Game > New Game asks how many people play (1 to 4), who joins them from the \
computer, which dice to use and everybody's names, in playing order. One \
person always has company: one or three computer players. Game > Play Again \
starts over with the same players.

The game is saved after every throw and move and goes on where you left it. \
Game > Statistics shows the games and wins of every player name.
"""

PLUGINS = """\
Plugins change Pachisi's looks and sounds: Board, Pieces and Sound, mixed \
freely. Each display configuration (Square, Tall, Wide) has its own choice in \
Options > Preferences; plugins for Wide have Wide in their names.

Pachisi comes with the Sandalwood and DOS boards, the Classic and \
High Contrast pieces (whose pieces differ in shape and pattern as well as \
colour) and the Shells sounds. Options > Plugin Manager lists them all and \
removes ones you installed. To make your own see docs/plugin-format.md: \
cells are 16x16 pixels (8x8 on a 160x160 screen), the board 304x304.
"""

ABOUT = """\
Pachisi for palmish: the cross-and-circle race game of India, after the \
1989 DOS game by G. J. Leotti. Two to four players, people or the computer \
players Silicon, Silicon1 and Silicon2. Art and sounds made for palmish.
"""

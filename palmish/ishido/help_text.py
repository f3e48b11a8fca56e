"""PalmIshido's help pages and About text, written for this project."""

from __future__ import annotations

GAME_PLAY = """\
The aim: put all 72 tiles on the 12 by 8 board.

Every tile has one of six colours and one of six shapes, and each of the 36 \
combinations is in the set twice. Six tiles start on the board: one in each \
corner and two in the middle.

The tile to play waits in the panel. Drag it onto the board, or tap the cell \
where it should go.

A tile must touch at least one tile above, below, left or right of it \
(diagonals do not count), and its neighbours must agree with it:
- one neighbour: same colour or same shape (or both);
- two neighbours: one shares its colour, the other its shape;
- three neighbours: two share one of the two (colour or shape) and the third \
shares the other;
- four neighbours: two share its colour and two its shape. That is a four-way.
A neighbour that matches in both colour and shape may count either way.

A tile that breaks these rules goes back to the panel with a buzz.

The game ends when the last tile is down, or when the tile in hand fits \
nowhere.

Stuck for a cell? The Up and Down keys walk through every cell where the tile \
fits and mark it; Select (the centre key) puts it there. Some call that \
cheating; it is up to you. Y and N answer a question (New Game? Restart?).

Tip: four-ways are worth far more than anything else.
"""

SCORING = """\
PalmIshido keeps two scores.

Ancient score: simply how many four-ways you made. It appears in Roman \
numerals once you have one.

Modern score (shown upright in the panel):
- A tile on the outer ring of the board earns nothing for its neighbours.
- Anywhere else it earns 1 point for one neighbour, 2 for two, 4 for three \
and 8 for four.
- Each four-way doubles all later neighbour points: after one four-way a \
two-neighbour tile earns 4, after two it earns 8.
- Four-ways also earn a bonus: 25 for the first, then 50, 100, 200, 400, \
600, 800, 1000, 5000, 10000, 25000 and 50000 (and 50000 for any after that).
- When the game ends: 1000 more if every tile is down, 500 if one is left, \
100 if two are left.

The Scored variant (Options > Preferences) counts the same way except that \
every four-way earns a flat 25.

Tip: early four-ways multiply everything that follows, so they matter more \
than placing every last tile.

The ten best scores of each kind are kept and shown when a game ends.
"""

PLUGINS = """\
Plugins change PalmIshido's looks and sounds. There are three kinds: Board, \
Pieces and Sound, and you can mix them freely.

The handheld has up to three display configurations: Square (input area \
open), Tall (input area closed) and Wide (turned on its side). Each one has \
its own Board, Pieces and Sound choice. Switch with the buttons in the status \
bar; the game follows at once, even in the middle of a move.

Options > Preferences lists a Board, Pieces and Sound choice for each \
configuration, the one you are in first; scroll down for the others (the \
classic 160x160 handheld has only Square). Each list offers only the plugins \
made for that configuration; plugins for the Wide configuration have 'Wide' in \
their names. A choice changes only its own configuration; tick Same plugins \
(under Every display) to use it in the others too, as its Wide version there.

To add a plugin, install its .prc file (palmish install FILE.prc). \
Options > Plugin Manager lists every plugin with its kind, configurations, \
version and author, and removes the ones you installed. The ? button in \
Preferences opens this page.

To make your own, draw PNG pictures and record WAV sounds, describe them in a \
manifest and build the file with prc-tools (see docs/plugin-format.md). \
Square and Tall tiles are 24x40 pixels, Wide tiles 34x40; a tile may be larger \
than its cell for a raised or shadowed look, and a plugin may supply separate \
'lifted' tiles that are shown while you drag.
"""

ABOUT = """\
PalmIshido for palmish: tile matching in the tradition of Ishido, after \
PalmIshido for Palm OS. Its tiles, boards and sounds were made for palmish.
"""

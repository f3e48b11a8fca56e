"""Sigmar's Garden's help pages and About text, written for this project."""

from __future__ import annotations

from palmish.sigmar.rules import CARDINALS, METAL_ORDER, Atom

# How each atom reacts, in the order the key lists them.
_PARTNERS: dict[Atom, str] = {
    **{a: f"with {a.title} or Salt" for a in CARDINALS},
    Atom.SALT: "with Salt, Air, Fire, Water or Earth",
    Atom.VITAE: "with Mors",
    Atom.MORS: "with Vitae",
    Atom.QUICKSILVER: "with the current metal (not gold)",
    **{m: "with quicksilver, once it is the current metal" for m in METAL_ORDER[:-1]},
    Atom.GOLD: "alone, once it is the current metal",
    Atom.SLAG: "never: it only blocks (grey, no letter)",
}


def atom_key() -> str:
    """One line per atom: its letter (as the Classic atoms show it), name, partners."""
    return "\n".join(f"{a.letter or '-'}  {a.title}: {partners}"
                     for a, partners in _PARTNERS.items())


RULES = """\
The aim: clear every atom from the board. Slag may stay.

Two gardens: the Game menu (or Options > Preferences) switches between \
Hexagonal (Opus Magnum), the original's hexagon of 91 cells, and Square \
(the remake). Each keeps its own game, statistics, levels and board \
numbers; the other garden's game waits until you come back to it.

Tap an atom to select it, then tap a partner: the two react and vanish. Tap \
the selection again to let it go, or tap another atom to select that one \
instead.

Only free atoms take part. On the square board an atom is free when at \
least two of its four sides (up, down, left, right) are empty; the edge of \
the board counts as empty, Slag does not. On the hexagon an atom is free \
when three of its six sides next to each other are empty (the edge counts \
as empty). Locked atoms are drawn dimmed (Options > Preferences \
turns that off).

Partners:
- Air, Fire, Water and Earth: the same element, or Salt.
- Salt: Salt, or any of the four elements.
- Vitae and Mors: each other.
- Quicksilver: the current metal.

The metals go in the Order of Projection: lead, tin, iron, copper, silver, \
gold. Only the first of them still on the board can be taken, with a \
quicksilver; the panel marks it, and the others are dimmed. Gold goes alone, \
with one tap, once it is the current metal. On the square board, after \
gold the order starts again at lead (a level may hold a metal more than \
once); the hexagon holds one of each metal and no Slag.

You may also drag from an atom to its partner.

A tap that cannot work buzzes and the panel says why in one line.

Keys: Up and Down walk the atoms you can select; Select selects the marked \
one, then Up and Down walk its partners and Select takes the pair. Y and N \
answer a question (New Game? Remove the level?).

Game menu:
- New Game: a random board (Options > Preferences picks how hard).
- Try Again: the same board from the start.
- Undo: takes back one reaction, as often as you like, even after a win or \
when stuck.
- Hint: marks the next two atoms of a solution; Select takes them. A board \
won after a hint counts as won, marked assisted.
- Levels: the bundled and installed levels; * marks the ones you cleared.
- Board Number: every random board has a number; share it and a friend gets \
the same board. The hexagon's numbers are its own: Hex Board 7 is not Board 7.
- Statistics: wins, losses, streaks and levels cleared, of this garden.
- Hexagonal (Opus Magnum), Square (the remake): play that garden.

A board is lost when atoms other than Slag remain and no pair can react. \
Undo and Try Again still work.

Tap the panel for the board's details.

# The atoms
The letters of the Classic atoms (Glyph atoms add a sign); metals have \
lower-case letters: S is Salt, s is silver.
""" + atom_key() + "\n"

LEVELS = """\
A level is a text file ending in .dat, as in the original ComputerCraft game.

The first line is the level's name. Every further line is one row of the \
board, one character per square:
0 Vitae, 1 copper, 2 lead, 3 Air, 4 gold, 6 silver, 7 Slag, 8 Salt, 9 iron, \
a quicksilver, b Water, c tin, d Earth, e Fire, f Mors.
5 and anything else (a space, a dot) is an empty square. Use lower case \
letters.

At most 12 rows and 12 columns. Rows may have different lengths; the game \
centres the board.

Example, the level Caution (7.dat):
Caution
aa
e e
9ec
 2e
7a
 7

The file name is the level's id: 7.dat is level 7, test.dat is level test.

Install a level on the device with
palmish install test.dat
and open it from Game > Levels, or start with
palmish --app sigmar --board test
(--board 7 opens level 7, --board ? a random board).

A folder of levels becomes one Levels database with prc-tools build (a \
manifest names it, type SgLv, creator PSgm, one resource per level); \
palmish install takes that .prc too. prc-tools new sigmar levels FOLDER \
makes such a folder with a sample level, and palmish preview FOLDER plays \
it again at every save.

Make sure a level can be cleared: every element needs a partner, metals need \
a quicksilver each (gold none), and an atom boxed in on all sides waits \
until its neighbours go.

# Hexagonal levels
A level of the hexagon is a text file ending in .hgl: the name on the first \
line, then the 11 rows of the hexagon (6, 7, 8, 9, 10, 11, 10, 9, 8, 7 and 6 \
cells), one character a cell: . empty, or an atom's letter (A F W E S V M q \
l t i c s g, as in the key of Help > Rules). Spaces only draw the shape; # \
starts a comment. At most one of each metal, no Slag.
palmish install ring.hgl
palmish --app sigmar --garden hexagonal --board ring
"""

PLUGINS = """\
Sigmar's Garden draws with four kinds of plugins, chosen in \
Options > Preferences for each screen shape (Square, Tall, Wide):
- Pieces: the atoms. Two sets come with the game: Classic (the original \
colours with letters; metals in lower case) and Glyphs (high contrast, with \
an alchemical sign on every atom, so colour is never the only clue).
- Board: the field, the cells, the marks and the panel. Two come with the game.
- Hex Board: the same for the hexagonal garden, with hexagonal cells and \
marks (26x30 at double density). Two come with the game. The atoms are the \
Pieces plugin's in both gardens.
- Sound: select, react, transmute, gold, illegal, win, stuck.

Cells are square (26x26 at double density) in every shape, so one plugin \
can serve all three. A choice changes only its own shape; tick Same plugins \
(under Every display) to use it in the others too. Options > Plugin Manager \
lists the plugins and deletes installed ones. palmish install FILE.prc installs a plugin.
"""

ABOUT = """\
Sigmar's Garden: Zachtronics' alchemy solitaire from Opus Magnum, as \
Trollbreeder's ComputerCraft remake plays it.

Engine, levels, art and sounds: the palmish project.
"""

"""The board of every atom that `palmish preview` shows a Pieces plugin on
(docs/making-plugins.md): each of the 15 atoms free, again selected, and again
locked, on the square garden's usual 11x11 field.

Rows 0 and 2 hold the atoms free (8 then 7, an empty row between, so each has
two empty neighbours), rows 4 and 6 the same atoms to be drawn selected, and
rows 8 to 10 a solid block of atoms, where every atom off the block's edge has
three or four neighbours and so is locked. Rows 8 and 9 alone hold every atom
locked (the middle row the first 11, row 8's inner cells the other 4), so the
showcase says it all where the preview's status strip covers the last row
(Wide). Built with the game's own constructor: the rules know nothing of it.
"""

from __future__ import annotations

from palmish.sigmar.atoms import Atom
from palmish.sigmar.game import Game

Cell = tuple[int, int]

SIDE = 11  # the field a random board has
NAME = "Every atom"
FIRST_ROW = 8  # atoms in the first row of a pair; the rest in the second
ATOMS: tuple[Atom, ...] = tuple(Atom)


def _pair(top: int) -> list[tuple[Cell, Atom]]:
    """Every atom on rows `top` and `top + 2`, centred."""
    first, rest = ATOMS[:FIRST_ROW], ATOMS[FIRST_ROW:]
    return ([((top, (SIDE - len(first)) // 2 + i), a) for i, a in enumerate(first)]
            + [((top + 2, (SIDE - len(rest)) // 2 + i), a) for i, a in enumerate(rest)])


FREE = _pair(0)
CHOSEN: tuple[Cell, ...] = tuple(cell for cell, _ in _pair(4))  # drawn selected
# The block's rows, each the atoms in turn from its own start.
BLOCK = [((row, col), ATOMS[(start + col) % len(ATOMS)])
         for row, start in ((8, SIDE - 1), (9, 0), (10, SIDE)) for col in range(SIDE)]


def showcase_game() -> Game:
    """A fresh game of the board of every atom (no seed, no level: it is not saved)."""
    return Game([*FREE, *_pair(4), *BLOCK], name=NAME, rows=SIDE, cols=SIDE)

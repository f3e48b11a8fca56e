"""The position `palmish preview` shows a Pachisi Pieces plugin on
(docs/making-plugins.md): four players, each in their own colour, with a piece
waiting, a piece finished and a double on the board; the view adds a tray of
every die face and both cowries over the board's middle (view.Scene.showcase).

Set up through the game's own Game.from_position: the rules know nothing of it.
"""

from __future__ import annotations

from palmish.pachisi.game import Game, Player
from palmish.pachisi.rules import COLOURS, FINISH, RING, SEATS, TRACK

# The rows of the grid the tray covers (and a row either side): no double there.
TRAY_ROWS = range(7, 12)
FIRST = 4  # a double's first try: off the board's edge rows (Wide's preview strip covers them)


def _double_square(seat: int, taken: set[tuple[int, int]]) -> int:
    """The first position of the seat's track from FIRST clear of the tray and of the
    other doubles."""
    for pos in range(FIRST, RING + 1):
        xy = TRACK[seat][pos]
        if xy is not None and xy[1] not in TRAY_ROWS and xy not in taken:
            taken.add(xy)
            return pos
    raise AssertionError(f"no square for seat {seat}'s double")  # the track has many


def showcase_game() -> Game:
    """Red, Gray, White and Magenta (all people: nobody moves by themselves), each with
    a pawn waiting, one home and a double on the track; Red to throw, with cowries."""
    seats = SEATS[len(COLOURS)]
    taken: set[tuple[int, int]] = set()
    positions = []
    for seat in seats:
        pos = _double_square(seat, taken)
        positions.append((0, FINISH, pos, pos))
    players = [Player(colour.capitalize()) for colour in COLOURS]
    return Game.from_position(players, positions, dice="cowrie")

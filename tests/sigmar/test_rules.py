"""Every rule of docs/sigmar-rules.md on small hand-made boards."""

from __future__ import annotations

import pytest

from palmish.sigmar import Atom, Game, IllegalMove, Take

CAUTION = "Caution\naa\ne e\n9ec\n 2e\n7a\n 7\n"


def board(*rows: str, name: str = "test") -> Game:
    return Game.from_level("\n".join([name, *rows]) + "\n", level="test")


# ---------------------------------------------------------------- free


def test_corner_atom_is_free_edge_needs_one_empty_interior_two() -> None:
    g = board("eee", "eee", "eee")
    assert g.is_free(0, 0) and g.is_free(2, 2)  # two sides off the board
    assert not g.is_free(0, 1)  # one side off, three atoms
    assert not g.is_free(1, 1)
    g2 = board("eee", "e e", "eee")
    assert g2.is_free(0, 1)  # off the board above, empty below
    assert g2.is_free(1, 0)  # off the board left, empty right: two non-atoms
    g3 = board("eee", "eee", "e e")
    assert not g3.is_free(1, 1)  # only the empty square below


def test_opposite_empty_sides_count() -> None:
    g = board(" e ", "eee", " e ")
    assert g.is_free(1, 1) is False  # four atoms around
    g2 = board("   ", "eee", "   ")
    assert g2.is_free(1, 1)  # empty above and below: not adjacent, still free


def test_slag_is_an_atom_and_blocks() -> None:
    g = board("7e7", " 7")
    assert not g.is_free(0, 1)  # off above, slag left, right and below
    assert g.is_free(0, 0)  # slag itself answers like any atom


def test_empty_and_off_board_cells_are_never_free() -> None:
    g = board("e e")
    assert not g.is_free(0, 1)
    assert not g.is_free(-1, 0) and not g.is_free(0, 40)
    assert g.atom_at(0, 1) is None and g.atom_at(99, 99) is None


def test_any_non_hex_character_is_empty() -> None:
    g = board("e5E.\tx e")
    assert [g.atom_at(0, c) for c in range(8)] == [Atom.FIRE] + [None] * 6 + [Atom.FIRE]
    assert g.cols == 8


# ---------------------------------------------------------------- reactions


@pytest.mark.parametrize(
    ("pair", "ok"),
    [
        ("33", True), ("bb", True), ("dd", True), ("ee", True),
        ("38", True), ("8e", True), ("88", True), ("0f", True), ("f0", True),
        ("3e", False), ("bd", False), ("00", False), ("ff", False), ("08", False),
        ("aa", False), ("a8", False), ("3a", False), ("77", False),
    ],
)
def test_reaction_table(pair: str, ok: bool) -> None:
    g = board(f"{pair[0]} {pair[1]}")
    assert (g.why_not((0, 0), (0, 2)) is None) is ok
    assert (Take((0, 0), (0, 2)) in g.legal_takes()) is ok


def test_quicksilver_pairs_only_with_the_current_metal() -> None:
    g = board("a 2 c a")  # lead and tin: lead first
    assert g.current_metal == Atom.LEAD
    assert g.legal_takes() == [Take((0, 0), (0, 2)), Take((0, 2), (0, 6))]
    assert g.why_not((0, 4), (0, 6)) == "metals go in order: lead first"
    g.take((0, 2), (0, 0))
    assert g.current_metal == Atom.TIN
    assert g.legal_takes() == [Take((0, 4), (0, 6))]


def test_missing_metals_are_skipped_and_the_order_loops() -> None:
    g = board("a 9 a 2")  # iron and lead only: the pointer starts at lead
    assert g.current_metal == Atom.LEAD
    g.take((0, 6), (0, 4))
    assert g.current_metal == Atom.IRON
    g2 = board("a 9 a 9")  # two irons: after one, the pointer loops back round to iron
    g2.take((0, 0), (0, 2))
    assert g2.current_metal == Atom.IRON
    assert g2.legal_takes() == [Take((0, 4), (0, 6))]


def test_gold_goes_alone_and_only_as_the_current_metal() -> None:
    g = board("a6 4 e e")
    assert g.why_not((0, 3)) == "metals go in order: silver first"
    assert g.why_not((0, 0), (0, 3)) == "metals go in order: silver first"
    g.take((0, 0), (0, 1))
    assert g.current_metal == Atom.GOLD
    assert Take((0, 3)) in g.legal_takes()
    assert g.why_not((0, 3), (0, 5)) == "gold goes alone: take it by itself"
    assert g.take((0, 3)) == Take((0, 3), None)
    assert g.current_metal is None


def test_gold_that_is_locked_cannot_go() -> None:
    g = board("ee ", "e4e", " ee")
    assert g.current_metal == Atom.GOLD
    assert g.why_not((1, 1)) == "gold is locked: it needs two empty sides"
    with pytest.raises(IllegalMove):
        g.take((1, 1))


def test_illegal_takes_raise_one_line_and_change_nothing() -> None:
    g = board("eeb", "e7 ", "   b8")
    cases = [
        (((0, 1), (0, 0)), "Fire is locked: it needs two empty sides"),
        (((0, 2), (2, 3)), None),
        (((1, 1),), "Slag never reacts: it only blocks"),
        (((1, 2), (0, 0)), "there is no atom on c2"),
        (((0, 0),), "Fire needs a partner"),
        (((0, 0), (0, 2)), "Fire does not react with Water"),
        (((0, 0), (0, 0)), "pick two different atoms"),
    ]
    before = (g.occupancy, g.moves, g.legal_takes())
    for args, message in cases:
        got = g.why_not(*args)
        if message is None:
            continue
        assert got == message, args
        with pytest.raises(IllegalMove, match=message) as info:
            g.take(*args)
        assert "\n" not in str(info.value)
        assert isinstance(info.value, ValueError)
    assert (g.occupancy, g.moves, g.legal_takes()) == before


def test_take_accepts_either_order_and_returns_the_sorted_take() -> None:
    g = board("e e")
    assert g.take((0, 2), (0, 0)) == Take((0, 0), (0, 2))
    assert g.moves == [Take((0, 0), (0, 2))]


def test_legal_takes_are_sorted_with_a_before_b() -> None:
    g = board("e8e", "   ", "e b", "  b")
    takes = g.legal_takes()
    assert takes == sorted(takes)
    assert all(t.b is None or t.a < t.b for t in takes)


# ---------------------------------------------------------------- end of game


def test_won_when_only_slag_is_left() -> None:
    g = board("e7e")
    assert g.remaining == 2 and not g.won
    g.take((0, 0), (0, 2))
    assert g.won and g.over and not g.stuck and g.remaining == 0
    assert g.legal_takes() == []


def test_stuck_when_no_reaction_is_possible() -> None:
    g = board("e b")
    assert g.stuck and g.over and not g.won


def test_undo_after_a_win_and_when_stuck_and_restart() -> None:
    g = board("e e b", "    b")
    g.take((0, 0), (0, 2))
    g.take((0, 4), (1, 4))
    assert g.won
    assert g.undo() == Take((0, 4), (1, 4))
    assert not g.won and len(g.moves) == 1
    g.restart()
    assert g.moves == [] and g.remaining == 4
    with pytest.raises(IllegalMove, match="nothing to undo"):
        g.undo()
    stuck = board("e b")
    with pytest.raises(IllegalMove):
        stuck.undo()


def test_undo_restores_the_metal_pointer() -> None:
    g = board("a2a c")
    g.take((0, 0), (0, 1))
    assert g.current_metal == Atom.TIN
    g.undo()
    assert g.current_metal == Atom.LEAD


# ---------------------------------------------------------------- Caution


def test_caution_has_three_first_takes_and_one_is_a_dead_end() -> None:
    from palmish.sigmar import solver

    g = Game.from_level(CAUTION, level="7")
    assert (g.name, g.rows, g.cols, g.level, g.seed) == ("Caution", 6, 3, "7", None)
    assert g.legal_takes() == [
        Take((1, 0), (1, 2)), Take((1, 0), (3, 2)), Take((1, 2), (3, 2)),
    ]
    g.take((1, 0), (1, 2))  # the two Fires of the second row
    assert solver.solve(g) is None
    g.undo()
    for first in (Take((1, 0), (3, 2)), Take((1, 2), (3, 2))):
        g.take(*first)
        assert solver.solve(g) is not None
        g.undo()


def test_caution_plays_to_a_win_with_the_metals_in_order() -> None:
    g = Game.from_level(CAUTION, level="7")
    assert g.current_metal == Atom.LEAD
    for a, b in [((1, 0), (3, 2)), ((0, 0), (3, 1)), ((0, 1), (2, 2)), ((2, 0), (4, 1)),
                 ((1, 2), (2, 1))]:
        g.take(a, b)
    assert g.won and g.counts()[Atom.SLAG] == 2


# ---------------------------------------------------------------- helpers for the app


def test_why_unselectable_reasons() -> None:
    g = board("e2e", " 7 ", "c a")
    assert g.why_unselectable((0, 1)) == "lead is locked: it needs two empty sides"
    assert g.why_unselectable((2, 0)) == "metals go in order: lead first"
    assert g.why_unselectable((1, 1)) == "Slag never reacts: it only blocks"
    assert g.why_unselectable((0, 0)) is None
    g2 = board("2 e", "   ", "a7a", " 7")
    assert g2.why_unselectable((0, 0)) is None
    g3 = board("2 e", "  e", "7a7", " 7")
    assert g3.why_unselectable((0, 0)) == "no free quicksilver"
    assert g3.why_unselectable((2, 1)) == "quicksilver is locked: it needs two empty sides"
    g4 = board("8 e b")
    assert g4.why_unselectable((0, 4)) is None
    g5 = board("0 e e")
    assert g5.why_unselectable((0, 0)) == "no free partner for Vitae"
    assert g.is_selectable(0, 0) and not g.is_selectable(1, 1)


def test_partners() -> None:
    g = board("e8e", "", "4")
    assert g.partners(0, 0) == [(0, 1), (0, 2)]
    assert g.partners(2, 0) == []

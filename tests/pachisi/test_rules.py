"""One test (or a few) per rule sentence of docs/pachisi-rules.md, on positions set up
directly with Game.from_position and forced throws."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence

import pytest

from palmish.pachisi import Game, IllegalMove, Move, Player, rules

START = [0, 0, 0, 0]


def names(n: int) -> list[Player]:
    return [Player(f"P{i}") for i in range(n)]


def setup(positions: Sequence[Sequence[int]], throws: Sequence[int] = (), *,
          first: bool | Sequence[bool] = False, current: int = 0) -> Game:
    return Game.from_position(names(len(positions)), positions, throws=throws,
                              first_turn=first, current=current)


def at(seat: int, south: int) -> int:
    """Seat's own position of the ring square South calls `south`."""
    return (south - 1 - 17 * seat) % 68 + 1


def thrown(game: Game) -> list[Move]:
    game.throw()
    return game.legal_moves()


def by_piece(game: Game, piece: int) -> Move:
    m = game.move_for(piece)
    assert m is not None, game.why_not(piece)
    return m


# ---------------------------------------------------------------- players


def test_two_to_four_players_any_mix_of_humans_and_computers() -> None:
    for n in (2, 3, 4):
        mix = [Player(f"P{i}", computer=i % 2 == 1) for i in range(n)]
        assert Game.new(seed=1, players=mix).players == tuple(mix)
    assert Game.new(seed=1, players=[Player("A", True), Player("B", True)]).players[0].computer
    for n in (1, 5):
        with pytest.raises(ValueError, match="2 to 4"):
            Game.new(seed=1, players=names(n))


def test_four_pieces_each_and_the_four_colours_by_seat() -> None:
    g = Game.new(seed=1, players=names(4))
    assert [g.positions(p) for p in range(4)] == [(0, 0, 0, 0)] * 4
    assert [g.colour(p) for p in range(4)] == ["red", "gray", "white", "magenta"]


def test_computers_are_named_silicon_silicon1_silicon2() -> None:
    assert rules.computer_names(3) == ("Silicon", "Silicon1", "Silicon2")


def test_turn_order_is_the_players_order_clockwise() -> None:
    g = setup([START] * 3, [3, 3, 3, 3], first=False)
    order = []
    for _ in range(4):
        order.append(g.current)
        g.throw()  # 3 cannot enter after the first turn: lost, next player
    assert order == [0, 1, 2, 0]
    assert g.seats == (0, 1, 2)


def test_two_players_sit_on_opposite_arms() -> None:
    assert Game.new(seed=1, players=names(2)).seats == (0, 2)
    assert Game.new(seed=1, players=names(4)).seats == (0, 1, 2, 3)
    assert [rules.SEAT_NAMES[s] for s in rules.SEATS[3]] == ["South", "West", "North"]


# ---------------------------------------------------------------- board


def test_the_track_is_68_ring_squares_7_home_squares_and_the_finish() -> None:
    for seat in range(4):
        track = rules.TRACK[seat]
        assert len(track) == 77 and track[0] is None and track[76] is None
        squares = track[1:76]
        assert len(set(squares)) == 75
        assert all(sq is not None and 0 <= sq[0] < 19 and 0 <= sq[1] < 19 for sq in squares)
        # every square is on an arm: outside the 8..10 x 8..10 centre in one axis only
        for sq in squares:
            assert sq is not None
            x, y = sq
            assert (8 <= x <= 10) != (8 <= y <= 10)
    rings = [set(rules.TRACK[s][1:69]) for s in range(4)]
    assert all(r == rings[0] for r in rings)
    homes = [set(rules.TRACK[s][69:76]) for s in range(4)]
    assert all(not (homes[a] & homes[b]) for a in range(4) for b in range(a))
    assert all(not (h & rings[0]) for h in homes)


def test_south_path_matches_the_design() -> None:
    t = rules.TRACK[0]
    assert t[1] == (8, 18) and t[8] == (8, 11)
    assert t[9] == (7, 10) and t[16] == (0, 10) and t[17] == (0, 9)
    assert t[18] == (0, 8) and t[25] == (7, 8) and t[26] == (8, 7) and t[33] == (8, 0)
    assert t[34] == (9, 0) and t[35] == (10, 0) and t[42] == (10, 7)
    assert t[43] == (11, 8) and t[50] == (18, 8) and t[51] == (18, 9)
    assert t[52] == (18, 10) and t[59] == (11, 10) and t[60] == (10, 11) and t[67] == (10, 18)
    assert t[68] == (9, 18) and t[69] == (9, 17) and t[75] == (9, 11)


def test_other_seats_are_south_turned_a_quarter_clockwise_per_seat() -> None:
    for seat in range(1, 4):
        for p in range(1, 76):
            prev = rules.TRACK[seat - 1][p]
            assert prev is not None
            assert rules.TRACK[seat][p] == (18 - prev[1], prev[0])


def test_seat_position_p_is_south_position_p_plus_17_s() -> None:
    for seat in range(4):
        for p in range(1, 69):
            assert rules.TRACK[seat][p] == rules.TRACK[0][(p - 1 + 17 * seat) % 68 + 1]


def test_twelve_safe_squares_three_per_arm() -> None:
    assert len(rules.SAFE_SQUARES) == 12
    assert {4, 13, 17, 21, 30, 34, 38, 47, 51, 55, 64, 68} == rules.SAFE_POSITIONS
    arms = Counter((x < 8) * 1 + (x > 10) * 2 + (y < 8) * 4 + (y > 10) * 8
                   for x, y in rules.SAFE_SQUARES)
    assert sorted(arms.values()) == [3, 3, 3, 3]
    for seat in range(4):  # the same squares in every player's own positions
        assert {rules.TRACK[seat][p] for p in rules.SAFE_POSITIONS} == rules.SAFE_SQUARES


def test_square_is_none_in_the_start_area_and_once_finished() -> None:
    g = setup([[0, 5, 76, 70], START])
    assert g.square(0, 0) is None and g.square(0, 2) is None
    assert g.square(0, 1) == rules.TRACK[0][5] and g.square(0, 3) == (9, 16)
    assert g.pieces_at(*rules.TRACK[0][5]) == [(0, 1)]  # type: ignore[misc]


# ---------------------------------------------------------------- the throw


class Bits(random.Random):
    """A generator whose getrandbits gives a set value: six shells' worth."""

    def __init__(self, value: int) -> None:
        super().__init__(0)
        self.value = value

    def getrandbits(self, k: int) -> int:
        return self.value


def test_cowrie_values_by_mouths_up_each_shell_a_fair_coin() -> None:
    counts = Counter(rules.draw(Bits(bits), "cowrie") for bits in range(64))
    assert counts == {25: 1, 10: 6, 2: 15, 3: 20, 4: 15, 5: 6, 6: 1}
    assert 1 not in counts
    assert rules.ODDS["cowrie"][3] == max(rules.ODDS["cowrie"].values())


def test_the_seven_faced_die_has_the_seven_values() -> None:
    rng = random.Random(5)
    seen = Counter(rules.draw(rng, "die7") for _ in range(7000))
    assert set(seen) == {2, 3, 4, 5, 6, 10, 25}
    assert all(800 < n < 1200 for n in seen.values())


def test_unknown_dice_is_refused() -> None:
    with pytest.raises(ValueError, match="dice"):
        Game.new(seed=1, players=names(2), dice="d6")


def test_throws_come_from_the_seeded_generator_in_order() -> None:
    rng = random.Random(42)
    expected = [rules.draw(rng, "cowrie") for _ in range(20)]
    g = Game.new(seed=42, players=[Player("A"), Player("B")])
    got = []
    while len(got) < 20:
        got.append(g.throw())
        assert g.last_throw == got[-1] and isinstance(got[-1], int)
        if g.phase == "move":
            g.move(g.legal_moves()[0])
    assert got == expected


# ---------------------------------------------------------------- grace


@pytest.mark.parametrize("grace", [6, 10, 25])
def test_a_grace_throw_throws_again(grace: int) -> None:
    g = setup([[20, 0, 0, 0], START], [grace])
    g.move(thrown(g)[0])
    assert g.current == 0 and g.phase == "throw"


def test_an_ordinary_throw_ends_the_turn() -> None:
    g = setup([[20, 0, 0, 0], START], [3])
    g.move(thrown(g)[0])
    assert g.current == 1


def test_a_grace_throw_that_cannot_be_used_still_throws_again() -> None:
    g = setup([[70, 76, 76, 76], START], [10])
    g.throw()
    assert g.phase == "throw" and g.current == 0 and g.history[-1].outcome == "lost"


def test_a_capture_throws_again_once_even_with_a_grace_throw() -> None:
    g = setup([[20, 0, 0, 0], [at(2, 23), at(2, 30), 0, 0]], [3])
    m = thrown(g)[0]
    assert m.captures == ((1, 0),)
    g.move(m)
    assert g.current == 0 and g.phase == "throw" and g.position(1, 0) == 0
    # a grace throw that also captures: one more throw, then the turn ends
    g2 = setup([[20, 0, 0, 0], [at(2, 26), 0, 0, 0]], [6, 2])
    g2.move(thrown(g2)[0])
    assert g2.current == 0
    g2.move(thrown(g2)[0])
    assert g2.current == 1


# ---------------------------------------------------------------- entering


def test_any_throw_enters_during_the_first_turn() -> None:
    g = setup([START, START], [3], first=True)
    moves = thrown(g)
    assert [(m.pieces, m.frm, m.to, m.enters) for m in moves] == [
        ((pc,), 0, 3, True) for pc in range(4)
    ]
    g.move(moves[0])
    assert g.positions(0) == (3, 0, 0, 0)


def test_every_throw_of_the_first_turn_enters() -> None:
    g = setup([START, START], [10, 3], first=True)
    g.move(thrown(g)[0])  # 10 enters, throw again, still the first turn
    assert g.first_turn
    moves = thrown(g)
    assert {(m.frm, m.to) for m in moves} == {(10, 13), (0, 3)}


def test_later_only_6_10_or_25_enter() -> None:
    for value in (2, 3, 4, 5):
        g = setup([START, START], [value])
        g.throw()
        assert g.phase == "throw" and g.current == 1
    for value in (6, 10, 25):
        g = setup([START, START], [value])
        assert [(m.frm, m.to) for m in thrown(g)] == [(0, value)] * 4


def test_each_waiting_piece_has_its_own_entering_move_in_move_order() -> None:
    g = setup([[10, 0, 30, 0], START], [6])
    moves = thrown(g)
    # highest frm first; the entering moves (equal frm) by piece index
    assert [(m.pieces, m.frm, m.to) for m in moves] == [
        ((2,), 30, 36), ((0,), 10, 16), ((1,), 0, 6), ((3,), 0, 6)
    ]
    assert g.default_move() == moves[0]
    assert g.move_for(1) == moves[2] and g.move_for(3) == moves[3]
    assert g.why_not(1) is None and g.why_not(3) is None
    g.move(by_piece(g, 3))  # the higher-numbered waiting piece enters
    assert g.positions(0) == (10, 0, 30, 6)
    assert g.events[-1].kind == "enter"


def test_the_default_move_with_only_entering_moves_is_the_lowest_waiting_piece() -> None:
    g = setup([[76, 0, 75, 0], START], [10])
    moves = thrown(g)
    assert [m.pieces for m in moves] == [(1,), (3,)]
    assert g.default_move() == moves[0]


def test_an_entering_move_takes_the_same_pieces_whichever_piece_enters() -> None:
    # East's single on South's 6 (not safe); South enters with a 6 onto it
    g = setup([[0, 20, 0, 0], START, START, [at(3, 6), 0, 0, 0]], [6])
    entering = [m for m in thrown(g) if m.enters]
    assert [m.pieces for m in entering] == [(0,), (2,), (3,)]
    assert {m.captures for m in entering} == {((3, 0),)}
    g.move(entering[1])
    assert g.positions(0) == (0, 20, 6, 0) and g.position(3, 0) == 0


def test_no_waiting_piece_enters_onto_an_opponents_double() -> None:
    opp = at(2, 10)
    g = setup([[0, 0, 40, 0], [opp, opp, 0, 0]], [10])
    assert [m.frm for m in thrown(g)] == [40]
    for pc in (0, 1, 3):
        assert g.why_not(pc) == "a single can't land on an opponent's double"
        assert g.move_for(pc) is None


def test_the_first_turn_ends_with_the_players_first_turn() -> None:
    g = setup([START, START], [3, 3, 3], first=True)
    g.move(thrown(g)[0])
    assert g.current == 1 and g.first_turn
    g.move(thrown(g)[0])
    assert g.current == 0 and not g.first_turn
    assert [(m.frm, m.to) for m in thrown(g)] == [(3, 6)]  # no entering on a 3


# ---------------------------------------------------------------- moving


def test_one_throw_moves_one_piece_exactly_its_value() -> None:
    g = setup([[10, 20, 0, 0], START], [4])
    moves = thrown(g)
    assert [(m.pieces, m.frm, m.to) for m in moves] == [((1,), 20, 24), ((0,), 10, 14)]
    g.move(moves[1])
    assert g.positions(0) == (14, 20, 0, 0)


def test_the_finish_needs_the_exact_throw() -> None:
    g = setup([[72, 76, 76, 20], START], [5])
    assert [m.frm for m in thrown(g)] == [20]
    assert g.why_not(0) == "needs an exact 4 to finish"
    g = setup([[72, 76, 76, 20], START], [4])
    m = thrown(g)[0]
    assert (m.frm, m.to, m.finishes) == (72, 76, True)


def test_a_move_ending_on_75_is_legal_but_a_caution_move() -> None:
    g = setup([[70, 0, 0, 0], START], [5])
    (m,) = thrown(g)
    assert m.to == 75 and m.caution
    g.move(m)
    assert g.position(0, 0) == 75


def test_a_piece_on_75_can_never_move() -> None:
    for value in rules.FACES:
        g = setup([[75, 76, 76, 76], START], [value])
        g.throw()
        assert g.phase == "throw" and g.current == (0 if value in rules.GRACE else 1)


# ---------------------------------------------------------------- taking


def test_landing_on_an_opponent_single_on_an_unsafe_square_sends_it_home() -> None:
    g = setup([[20, 0, 0, 0], [at(2, 25), 0, 0, 0]], [5])
    (m,) = thrown(g)
    assert m.captures == ((1, 0),)
    g.move(m)
    assert g.position(1, 0) == 0 and g.position(0, 0) == 25


def test_a_double_landing_on_an_opponent_double_sends_both_home() -> None:
    opp = at(2, 25)
    g = setup([[20, 20, 0, 0], [opp, opp, 0, 0]], [5])
    (m,) = thrown(g)
    assert m.pieces == (0, 1) and m.captures == ((1, 0), (1, 1))
    g.move(m)
    assert g.positions(1) == (0, 0, 0, 0) and g.positions(0)[:2] == (25, 25)


def test_a_double_takes_a_single() -> None:
    g = setup([[20, 20, 0, 0], [at(2, 25), 0, 0, 0]], [5])
    (m,) = thrown(g)
    assert m.captures == ((1, 0),)


# ---------------------------------------------------------------- doubles


def test_two_pieces_on_one_square_are_a_double_that_moves_as_one() -> None:
    g = setup([[20, 20, 0, 0], START], [3])
    (m,) = thrown(g)
    assert m.pieces == (0, 1) and m.frm == 20 and m.to == 23
    g.move(m)
    assert g.positions(0) == (23, 23, 0, 0)


def test_a_double_is_never_split() -> None:
    g = setup([[20, 20, 5, 0], START], [3])
    moves = thrown(g)
    assert all(m.pieces != (0,) and m.pieces != (1,) for m in moves)


def test_a_third_piece_may_not_join_a_double() -> None:
    g = setup([[20, 20, 17, 0], START], [3])
    assert [m.frm for m in thrown(g)] == [20]
    assert g.why_not(2) == "two of your pieces are already there"


def test_a_double_may_not_land_on_its_owners_single() -> None:
    g = setup([[20, 20, 23, 0], START], [3])
    assert [m.frm for m in thrown(g)] == [23]
    assert g.why_not(0) == "a double cannot join another of your pieces"


def test_no_piece_passes_its_owners_double() -> None:
    g = setup([[20, 20, 17, 0], START], [5])
    assert [m.frm for m in thrown(g)] == [20]
    assert g.why_not(2) == "a double blocks the way"


def test_no_piece_passes_an_opponents_double() -> None:
    opp = at(2, 22)
    g = setup([[20, 0, 0, 0], [opp, opp, 0, 0]], [5])
    g.throw()
    assert g.phase == "throw" and g.current == 1  # lost: blocked
    g = setup([[20, 30, 30, 0], [opp, opp, 0, 0]], [5])
    assert [m.frm for m in thrown(g)] == [30]
    assert g.why_not(0) == "a double blocks the way"


def test_a_double_may_not_pass_a_double() -> None:
    opp = at(2, 22)
    g = setup([[20, 20, 0, 0], [opp, opp, 0, 0]], [5])
    g.throw()
    assert g.phase == "throw"


def test_a_single_may_not_land_on_an_opponents_double_anywhere() -> None:
    for south in (25, 30):  # unsafe and safe
        opp = at(2, south)
        g = setup([[south - 5, 0, 0, 0], [opp, opp, 0, 0]], [5])
        g.throw()
        assert g.phase == "throw", south


# ---------------------------------------------------------------- safe squares


def test_nobody_is_taken_on_a_safe_square() -> None:
    g = setup([[25, 0, 0, 0], [at(2, 30), 0, 0, 0]], [5])
    (m,) = thrown(g)
    assert m.captures == ()
    g.move(m)
    assert g.position(1, 0) == at(2, 30) and g.position(0, 0) == 30


def test_any_number_of_players_share_a_safe_square() -> None:
    pos = [[25, 0, 0, 0]] + [[at(s, 30), 0, 0, 0] for s in (1, 2, 3)]
    g = setup(pos, [5])
    g.move(thrown(g)[0])
    assert len(g.pieces_at(*rules.TRACK[0][30])) == 4  # type: ignore[misc]


def test_a_double_lands_on_opponent_singles_on_a_safe_square_taking_nobody() -> None:
    g = setup([[25, 25, 0, 0], [at(2, 30), 0, 0, 0]], [5])
    (m,) = thrown(g)
    assert m.pieces == (0, 1) and m.captures == ()


def test_a_double_may_not_land_on_an_opponents_double_on_a_safe_square() -> None:
    opp = at(2, 30)
    g = setup([[25, 25, 0, 0], [opp, opp, 0, 0]], [5])
    g.throw()
    assert g.phase == "throw"
    g = setup([[25, 25, 3, 0], [opp, opp, 0, 0]], [5])
    thrown(g)
    assert g.why_not(0) == "a double can't land on an opponent's double on a safe square"


def test_a_single_may_not_land_on_a_safe_square_with_an_opponents_double() -> None:
    opp = at(2, 30)
    g = setup([[25, 3, 0, 0], [opp, opp, 0, 0]], [5])
    thrown(g)
    assert g.why_not(0) == "a single can't land on an opponent's double"


def test_the_home_stretch_is_private() -> None:
    # North's home stretch is not South's: both may sit on their own 70.
    g = setup([[68, 0, 0, 0], [68, 0, 0, 0]], [2])
    (m,) = thrown(g)
    assert m.to == 70 and m.captures == ()


# ---------------------------------------------------------------- passing


def test_passing_before_or_after_the_throw_from_the_second_turn_on() -> None:
    g = setup([[20, 0, 0, 0], START], [3, 3])
    assert g.can_pass
    g.pass_turn()
    assert g.current == 1 and g.history == []
    g = setup([[20, 0, 0, 0], START], [3])
    g.throw()
    g.pass_turn()
    assert g.current == 1 and g.position(0, 0) == 20 and g.history[-1].outcome == "passed"


def test_no_passing_in_the_first_turn() -> None:
    g = setup([START, START], [3], first=True)
    assert not g.can_pass
    with pytest.raises(IllegalMove, match="first turn"):
        g.pass_turn()
    g.throw()
    with pytest.raises(IllegalMove):
        g.pass_turn()


def test_with_no_legal_move_the_throw_is_lost() -> None:
    g = setup([START, START], [3])
    assert g.throw() == 3
    assert g.phase == "throw" and g.current == 1
    assert g.message == "P0 can't move any piece!"  # the player's name, never "You"
    assert g.history[-1].outcome == "lost"
    c = Game.from_position([Player("A"), Player("Silicon", True)], [START, START],
                           throws=[3, 3])
    c.throw()
    c.throw()
    assert c.message == "Silicon can't move any piece!"


# ---------------------------------------------------------------- end


def test_the_first_player_with_four_finished_pieces_wins() -> None:
    g = setup([[72, 76, 76, 76], [20, 0, 0, 0]], [4])
    g.move(thrown(g)[0])
    assert g.over and g.winner == 0 and g.phase == "over" and g.finished(0) == 4
    with pytest.raises(IllegalMove):
        g.throw()
    assert g.legal_moves() == [] and not g.can_pass


def test_the_game_ends_without_a_winner_when_nobody_can_win() -> None:
    g = setup([[70, 0, 0, 0], [75, 0, 0, 0]], [5])
    g.move(thrown(g)[0])
    assert g.over and g.winner is None


def test_the_game_goes_on_while_someone_can_still_win() -> None:
    g = setup([[70, 0, 0, 0], [20, 0, 0, 0], [75, 0, 0, 0]], [5])
    g.move(thrown(g)[0])
    assert not g.over


# ---------------------------------------------------------------- turns, precisely


def test_passing_ends_the_whole_turn_and_its_pending_throw() -> None:
    g = setup([[20, 0, 0, 0], START], [10])
    g.move(thrown(g)[0])
    assert g.current == 0 and g.phase == "throw"  # an extra throw waits
    g.pass_turn()
    assert g.current == 1


def test_an_entering_piece_is_blocked_by_a_double_on_its_way() -> None:
    opp = at(2, 3)
    g = setup([START, [opp, opp, 0, 0]], [6])
    g.throw()
    assert g.phase == "throw"  # lost: the double on 3 blocks 0 -> 6 for every piece
    g = setup([[0, 0, 30, 0], [opp, opp, 0, 0]], [6])
    assert [m.frm for m in thrown(g)] == [30]
    assert [g.why_not(pc) for pc in (0, 1, 3)] == ["a double blocks the way"] * 3


def test_a_double_on_the_target_square_is_not_passed() -> None:
    # Own double on 23 is not passed by 20 + 3: the landing rule forbids it instead.
    g = setup([[20, 23, 23, 0], START], [3])
    moves = thrown(g)
    assert [m.frm for m in moves] == [23]
    assert g.why_not(0) == "two of your pieces are already there"


def test_a_double_in_the_home_stretch_blocks_too() -> None:
    g = setup([[71, 71, 69, 0], START], [4])
    assert [m.frm for m in thrown(g)] == [71]
    assert g.why_not(2) == "a double blocks the way"


def test_no_piece_lands_where_its_owner_has_two_in_the_home_stretch() -> None:
    g = setup([[72, 72, 69, 0], START], [3])
    assert [m.frm for m in thrown(g)] == [72] or 69 not in [m.frm for m in g.legal_moves()]
    assert g.why_not(2) == "two of your pieces are already there"


# ---------------------------------------------------------------- precisely, for the engine


def test_default_move_is_the_legal_move_with_the_highest_frm() -> None:
    g = setup([[10, 40, 0, 30], START], [6])
    moves = thrown(g)
    assert [m.frm for m in moves] == [40, 30, 10, 0]
    assert g.default_move() == moves[0]
    assert all(m.player == 0 and isinstance(m.pieces, tuple) for m in moves)


def test_why_not_is_none_exactly_for_movable_pieces() -> None:
    g = setup([[10, 72, 0, 76], START], [5])
    thrown(g)
    assert g.why_not(0) is None
    assert g.why_not(1) == "needs an exact 4 to finish"
    assert g.why_not(2) == "enter with 6, 10 or 25"
    assert g.why_not(3) == "that piece has already finished"
    g = setup([[75, 10, 0, 0], START], [5])
    thrown(g)
    assert g.why_not(0) == "one square from the finish it needs a 1, and the die has none"
    g = setup([[10, 0, 0, 0], START], [5])
    assert g.why_not(0) == "throw first"


def test_a_stale_move_raises() -> None:
    g = setup([[10, 20, 0, 0], [50, 0, 0, 0]], [3, 3])
    m = thrown(g)[0]
    g.move(m)
    thrown(g)
    with pytest.raises(IllegalMove):
        g.move(m)


def test_move_in_the_throw_phase_raises() -> None:
    g = setup([[10, 20, 0, 0], START], [3])
    with pytest.raises(IllegalMove, match="throw first"):
        g.move(Move(0, (1,), 20, 23))
    assert isinstance(IllegalMove("x"), ValueError)


def test_throw_while_a_throw_waits_raises() -> None:
    g = setup([[10, 20, 0, 0], START], [3])
    g.throw()
    with pytest.raises(IllegalMove):
        g.throw()


def test_players_0_sits_south() -> None:
    g = setup([[1, 0, 0, 0], [1, 0, 0, 0]])
    assert g.square(0, 0) == (8, 18) and g.seats[0] == 0


def test_counts_for_the_app() -> None:
    g = setup([[0, 0, 76, 30], START])
    assert (g.waiting(0), g.finished(0), g.waiting(1), g.finished(1)) == (2, 1, 4, 0)


def test_bad_set_ups_are_refused() -> None:
    with pytest.raises(ValueError):
        setup([[20, 20, 20, 0], START])
    with pytest.raises(ValueError):
        setup([[20, 0, 0, 0], [at(2, 20), 0, 0, 0]])
    with pytest.raises(ValueError):
        setup([[77, 0, 0, 0], START])
    with pytest.raises(ValueError, match="name"):
        Game.new(seed=1, players=[Player("Ann Lee"), Player("B")])

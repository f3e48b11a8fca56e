"""Differential play: the engine against the plain reference of §8 in
independent.py. Random games (2-4 players, both dice, random legal moves and
passes) and random set-ups; at every step the two must agree on everything
the public API shows. Throws are the engine's; the reference is told them."""

from __future__ import annotations

import random
from collections.abc import Iterator
from math import comb, sqrt

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from palmish.pachisi import PASS, Game, IllegalMove, Move, Player, ai

from .independent import (
    FACES,
    FINISH,
    LAST,
    PIECES,
    RING,
    SAFE,
    SOUTH,
    Reference,
    RefMove,
    cowrie_value,
    grid,
    ring_as_south,
    turn,
)

MoveKey = tuple[tuple[int, ...], int, int, frozenset[tuple[int, int]], bool]


def key(m: Move | RefMove) -> MoveKey:
    return (tuple(m.pieces), m.frm, m.to, frozenset(m.captures), m.caution)


def agree(game: Game, ref: Reference, where: str) -> None:
    """Everything the API shows equals the reference's answer."""
    at = f"{where}: "
    assert game.phase == ref.phase, at + "phase"
    assert game.over == ref.over, at + "over"
    assert game.winner == ref.winner, at + "winner"
    assert tuple(game.seats) == ref.seats, at + "seats"
    for pl in range(ref.n):
        assert list(game.positions(pl)) == ref.pos[pl], at + f"positions of {pl}"
        for pc in range(PIECES):
            assert game.position(pl, pc) == ref.pos[pl][pc]
            assert game.square(pl, pc) == ref.square(pl, pc), at + f"square {pl}/{pc}"
        assert game.waiting(pl) == ref.pos[pl].count(0), at + "waiting"
        assert game.finished(pl) == ref.pos[pl].count(FINISH), at + "finished"
        assert game.in_first_turn(pl) == ref.first[pl], at + f"in_first_turn({pl})"
    cells: dict[tuple[int, int], set[tuple[int, int]]] = {}
    for pl in range(ref.n):
        for pc in range(PIECES):
            cell = ref.square(pl, pc)
            if cell is not None:
                cells.setdefault(cell, set()).add((pl, pc))
    for cell, who in cells.items():
        assert set(game.pieces_at(*cell)) == who, at + f"pieces_at{cell}"
    assert game.current == ref.current, at + "current"
    if ref.over:
        for action in (game.throw, game.pass_turn):
            with pytest.raises(IllegalMove):
                action()
        assert not game.can_pass and game.legal_moves() == [] and game.default_move() is None
        assert all(game.why_not(pc) is not None for pc in range(PIECES)), at + "why_not over"
        return
    assert game.first_turn == ref.first_turn, at + "first_turn"
    assert game.can_pass == ref.can_pass, at + "can_pass"
    moves = game.legal_moves()
    assert all(m.player == ref.current for m in moves), at + "Move.player"
    assert sorted(map(key, moves)) == sorted(map(key, ref.legal())), at + "legal moves"
    # move order: highest frm first; equal frm (entering moves) by piece index
    order = [(-m.frm, m.pieces[0]) for m in moves]
    assert order == sorted(order) and len(set(order)) == len(order), at + "order"
    dm, rdm = game.default_move(), ref.default_move()
    assert (dm and key(dm)) == (rdm and key(rdm)), at + "default_move"
    if ref.phase == "move":
        assert game.last_throw == ref.last_throw, at + "last_throw"
        with pytest.raises(IllegalMove):
            game.throw()  # the waiting throw needs its move or a pass first
    for pc in range(PIECES):
        says = game.why_not(pc)
        assert (says is None) == (ref.phase == "move" and ref.can_move(pc)), (
            at + f"why_not({pc}) = {says!r}"
        )
        if says is not None:
            assert "\n" not in says
        mine = [r for r in ref.legal() if pc in r.pieces]
        found = game.move_for(pc)
        assert (key(found) if found else None) == (key(mine[0]) if mine else None), (
            at + f"move_for({pc})"
        )


def illegal_probe(game: Game, ref: Reference, rng: random.Random) -> None:
    """A made-up move of a piece the reference says cannot move is refused."""
    me = ref.current
    for pc in rng.sample(range(PIECES), PIECES):
        p = ref.pos[me][pc]
        if ref.phase == "move" and ref.can_move(pc):
            continue
        to = p + (ref.last_throw or 2)
        fake = Move(me, (pc,), p, to, (), to == LAST)
        with pytest.raises(IllegalMove) as refused:
            game.move(fake)
        assert str(refused.value) and "\n" not in str(refused.value)
        return


def same_game(a: Game, b: Game) -> None:
    assert a.phase == b.phase and a.current == b.current and a.last_throw == b.last_throw
    assert a.first_turn == b.first_turn and a.winner == b.winner
    assert [a.positions(p) for p in range(len(a.players))] == [
        b.positions(p) for p in range(len(b.players))
    ]
    assert sorted(map(key, a.legal_moves())) == sorted(map(key, b.legal_moves()))


def drive(
    game: Game, ref: Reference, rng: random.Random, pass_rate: float, steps: int,
    records: bool,
) -> Iterator[str]:
    """Plays random legal decisions on both, checking after each; yields
    what happened (for coverage counts)."""
    shadow: Game | None = None
    agree(game, ref, "start")
    for step in range(steps):
        if game.over:
            break
        where = f"step {step}"
        if records and rng.random() < 0.02:
            text = game.record()
            copy = Game.from_record(text)
            agree(copy, ref, where + " replayed")
            assert copy.record() == text
            if shadow is None:
                shadow = copy  # from here on it must follow the same throws
        if ref.phase == "throw":
            if ref.first_turn:
                with pytest.raises(IllegalMove):
                    game.pass_turn()
            if rng.random() < 0.05:
                illegal_probe(game, ref, rng)
            if ref.can_pass and rng.random() < pass_rate / 4:
                game.pass_turn()
                ref.pass_turn()
                if shadow:
                    shadow.pass_turn()
                yield "pass-before"
            else:
                value = game.throw()
                assert value in FACES and game.last_throw == value
                if shadow:
                    assert shadow.throw() == value, where + " replayed throws"
                ref.throw(value)
                yield "lost" if ref.phase != "move" else "throw"
        else:
            if rng.random() < 0.1:
                illegal_probe(game, ref, rng)
            if ref.can_pass and rng.random() < pass_rate:
                game.pass_turn()
                ref.pass_turn()
                if shadow:
                    shadow.pass_turn()
                yield "pass-after"
            else:
                moves = game.legal_moves()
                m = rng.choice(moves)
                waiting = [pc for pc, p in enumerate(ref.pos[ref.current]) if p == 0]
                game.move(m)
                ref.move(next(r for r in ref.legal() if key(r) == key(m)))
                if shadow:
                    shadow.move(m)
                if m.frm == 0 and m.pieces[0] != waiting[0]:
                    yield "enter-not-lowest"  # any waiting piece may be the one to enter
                yield "capture" if m.captures else "caution" if m.caution else (
                    "double" if len(m.pieces) == 2 else "enter" if m.frm == 0 else "move"
                )
                with pytest.raises(IllegalMove):
                    game.move(m)  # stale
        agree(game, ref, where)
        if shadow:
            same_game(shadow, game)
    if records:
        text = game.record()
        replay = Game.from_record(text)
        agree(replay, ref, "final replay")
        assert replay.record() == text


# --- the reference's own reading of §8 ------------------------------------


def test_reference_board_is_consistent() -> None:
    """§8's two descriptions of the seats (ring offset 17 per seat, and a
    quarter turn per seat) name the same squares, and the engine's grid is
    the reference's."""
    cells = set(SOUTH.values())
    assert len(cells) == LAST
    for seat in range(4):
        for p in range(1, RING + 1):
            assert turn(SOUTH[p], seat) == SOUTH[ring_as_south(seat, p)]
    for p in SAFE:  # three safe squares per arm, the same for every seat
        assert all(ring_as_south(s, p) in SAFE for s in range(4))
    game = Game.new(seed=1, players=[Player(f"P{i}") for i in range(4)])
    assert tuple(game.seats) == (0, 1, 2, 3)
    for p in range(0, FINISH + 1):
        positions = [[p, 0, 0, 0] if pl == 0 else [0] * 4 for pl in range(4)]
        if p == LAST:
            continue
        g = Game.from_position([Player(f"P{i}") for i in range(4)], positions)
        assert g.square(0, 0) == grid(0, p)


# --- random games from the start ------------------------------------------


GAMES = st.tuples(
    st.integers(0, 2**32 - 1),
    st.sampled_from([2, 3, 4]),
    st.sampled_from(["cowrie", "die7"]),
    st.sampled_from([0.0, 0.05, 0.3]),
)


@pytest.mark.slow
@settings(max_examples=25, deadline=None)
@given(GAMES)
def test_random_games_agree_with_the_reference(setup: tuple[int, int, str, float]) -> None:
    seed, n, dice, pass_rate = setup
    game = Game.new(seed=seed, players=[Player(f"P{i}") for i in range(n)], dice=dice)
    ref = Reference.start(n)
    for _ in drive(game, ref, random.Random(seed), pass_rate, 2500, records=True):
        pass


# --- random set-ups: crowded boards, rare throws ---------------------------


def random_positions(rng: random.Random, n: int) -> list[list[int]]:
    """Positions the rules can reach, crowded round a few squares so that
    doubles, blocks, captures and shared safe squares come up often."""
    seats = {2: (0, 2), 3: (0, 1, 2), 4: (0, 1, 2, 3)}[n]
    hot = rng.randrange(68)
    pos = [[0] * PIECES for _ in range(n)]
    placed: dict[int, dict[int, int]] = {}  # South square -> player -> pieces
    for pl in range(n):
        for pc in range(PIECES):
            kind = rng.random()
            if kind < 0.15:
                p = 0
            elif kind < 0.25:
                p = FINISH
            elif kind < 0.4:
                p = rng.randint(62, 75)
            elif kind < 0.55:
                p = rng.randint(1, RING)
            else:  # near the hot square, in board-wide terms
                g = (hot + rng.randint(-8, 8)) % 68
                p = ((g - 17 * seats[pl]) % 68) + 1
            if 1 <= p <= LAST:
                mine = sum(1 for q in pos[pl][:pc] if q == p)
                if mine == 2:
                    p = 0
                elif p <= RING:
                    sq = ring_as_south(seats[pl], p)
                    others = {o: c for o, c in placed.get(sq, {}).items() if o != pl}
                    two_doubles = mine == 1 and any(c == 2 for c in others.values())
                    if (sq not in SAFE and others) or two_doubles:
                        p = 0
                    else:
                        placed.setdefault(sq, {})[pl] = mine + 1
            pos[pl][pc] = p
        if all(p == FINISH for p in pos[pl]):
            pos[pl][0] = 0
    return pos


SETUPS = st.tuples(
    st.integers(0, 2**32 - 1),
    st.sampled_from([2, 3, 4]),
    st.sampled_from(["cowrie", "die7"]),
)


@pytest.mark.slow
@settings(max_examples=150, deadline=None)
@given(SETUPS)
def test_random_setups_agree_with_the_reference(setup: tuple[int, int, str]) -> None:
    seed, n, dice = setup
    rng = random.Random(seed)
    positions = random_positions(rng, n)
    current = rng.randrange(n)
    first = [rng.random() < 0.25 for _ in range(n)]
    throws = [rng.choice(FACES) for _ in range(rng.randint(0, 30))]
    players = [Player(f"P{i}") for i in range(n)]
    game = Game.from_position(
        players, positions, dice=dice, current=current, first_turn=first, throws=throws,
        seed=seed,
    )
    ref = Reference.setup(positions, current, first)
    for _ in drive(game, ref, rng, 0.1, 60, records=False):
        pass


@pytest.mark.slow
def test_the_setups_reach_every_kind_of_event() -> None:
    """The set-up test is only worth something if it meets the rare cases."""
    seen: set[str] = set()
    for seed in range(80):
        rng = random.Random(seed)
        n = 2 + seed % 3
        positions = random_positions(rng, n)
        first = [rng.random() < 0.25 for _ in range(n)]
        throws = [rng.choice(FACES) for _ in range(30)]
        game = Game.from_position(
            [Player(f"P{i}") for i in range(n)], positions, current=0, first_turn=first,
            throws=throws, seed=seed,
        )
        ref = Reference.setup(positions, 0, first)
        seen.update(drive(game, ref, rng, 0.1, 60, records=False))
    assert seen >= {"capture", "caution", "double", "enter", "move", "lost", "pass-before",
                    "pass-after", "enter-not-lowest"}


# --- the computer players only ever choose what the rules allow -----------


def computer_plays(game: Game, ref: Reference, levels: list[str], steps: int,
                   rng: random.Random, records: bool) -> None:
    """Computer players at the given levels (by seat) play on; each choice is
    legal by the reference, made again the same, and never a needless
    caution move."""
    for step in range(steps):
        if game.over:
            break
        if ref.phase == "throw":
            ref.throw(game.throw())
        else:
            level = levels[ref.current % len(levels)]
            choice = ai.choose(game, level)
            assert ai.choose(game, level) == choice, f"step {step}: not deterministic"
            if records and rng.random() < 0.05:
                again = ai.choose(Game.from_record(game.record()), level)
                assert again == choice, f"step {step}: differs after a replay"
            if choice is PASS:
                assert ref.can_pass, f"step {step}: a pass in the first turn"
                game.pass_turn()
                ref.pass_turn()
            else:
                assert isinstance(choice, Move)
                legal = {key(m): m for m in ref.legal()}
                assert key(choice) in legal, f"step {step}: {choice} is not legal"
                if choice.caution:  # only when the first turn leaves nothing else
                    assert not ref.can_pass and all(m.caution for m in legal.values())
                game.move(choice)
                ref.move(legal[key(choice)])
        agree(game, ref, f"step {step}")


@pytest.mark.slow
@settings(max_examples=12, deadline=None)
@given(st.integers(0, 2**32 - 1), st.sampled_from([2, 3, 4]), st.sampled_from(["cowrie", "die7"]))
def test_computer_choices_are_legal_by_the_reference(seed: int, n: int, dice: str) -> None:
    game = Game.new(seed=seed, players=[Player(f"P{i}", computer=True) for i in range(n)],
                    dice=dice)
    order = ("easy", "normal", "hard", "hard")
    levels = [order[(seed + i) % 4] for i in range(4)]
    computer_plays(game, Reference.start(n), levels, 1500, random.Random(seed), records=True)


@pytest.mark.slow
@settings(max_examples=40, deadline=None)
@given(SETUPS, st.sampled_from(["easy", "normal", "hard"]))
def test_computer_choices_in_crowded_setups(setup: tuple[int, int, str], level: str) -> None:
    seed, n, dice = setup
    rng = random.Random(seed)
    positions = random_positions(rng, n)
    first = [rng.random() < 0.25 for _ in range(n)]
    throws = [rng.choice(FACES) for _ in range(30)]
    game = Game.from_position([Player(f"P{i}", computer=True) for i in range(n)], positions,
                              dice=dice, first_turn=first, throws=throws, seed=seed)
    computer_plays(game, Reference.setup(positions, 0, first), [level], 40, rng, records=False)


# --- the throw: six fair cowries, or seven equal faces ---------------------


@pytest.mark.parametrize("dice", ["cowrie", "die7"])
def test_throws_follow_the_odds(dice: str) -> None:
    if dice == "cowrie":
        odds = {v: 0.0 for v in FACES}
        for up in range(7):
            odds[cowrie_value(up)] += comb(6, up) / 64
    else:
        odds = {v: 1 / 7 for v in FACES}
    counts = dict.fromkeys(FACES, 0)
    total = 0
    seed = 0
    while total < 12_000:
        game = Game.new(seed=seed, players=[Player("A"), Player("B")], dice=dice)
        seed += 1
        for _ in range(300):
            if game.over:
                break
            counts[game.throw()] += 1
            total += 1
            if game.phase == "move":
                dm = game.default_move()
                assert dm is not None
                game.move(dm)
    for v, p in odds.items():
        sigma = sqrt(total * p * (1 - p))
        assert abs(counts[v] - total * p) < 5 * sigma, (v, counts[v], total * p)


# --- set-ups the differential play found the engine accepting -------------


def test_a_setup_with_all_four_home_is_a_game_won() -> None:
    players = [Player("A"), Player("B"), Player("C")]
    positions = [[5, 0, 0, 0], [76, 76, 76, 76], [75, 0, 0, 0]]
    game = Game.from_position(players, positions)
    agree(game, Reference.setup(positions, 0, [False] * 3), "set-up")
    assert game.over and game.winner == 1 and game.phase == "over"
    with pytest.raises(ValueError):
        Game.from_position(players[:2], [[76] * 4, [76] * 4])


def test_a_setup_with_two_players_doubles_on_one_square_is_refused() -> None:
    # South's 4 is a safe square; it is North's 38
    with pytest.raises(ValueError):
        Game.from_position([Player("A"), Player("B")], [[4, 4, 0, 0], [38, 38, 0, 0]])
    game = Game.from_position([Player("A"), Player("B")], [[4, 4, 0, 0], [38, 0, 0, 0]])
    assert len(game.pieces_at(*SOUTH[4])) == 3

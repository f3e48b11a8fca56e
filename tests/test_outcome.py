"""Every engine ends a game with the same `Outcome`: why it ended, who won, the score.
None while the game goes on."""

from __future__ import annotations

from palmish.ishido import Game as IshidoGame
from palmish.ishido import Tile
from palmish.outcome import Outcome, Termination
from palmish.pachisi import Game as PachisiGame
from palmish.pachisi import Player
from palmish.sigmar import Game as SigmarGame

TRAP = "Trap\n338e\n"  # Air, Air, Salt, Fire: Air + Salt strands the Fire
GOLD = "Gold\n4\n"  # one Gold: one take clears the board


def test_ishido_every_tile_placed_ends_with_its_score_and_no_winner() -> None:
    game = IshidoGame.from_position({(3, 3): Tile(0, 0)}, [Tile(0, 1)])
    assert game.outcome() is None
    game.place(3, 4)
    assert game.outcome() == Outcome(Termination.COMPLETED, winner=None, score=game.score)
    assert game.score > 1000  # the end bonus is in the outcome's score


def test_ishido_a_tile_without_a_cell_ends_stuck() -> None:
    game = IshidoGame.from_position({(3, 3): Tile(0, 0)}, [Tile(1, 1), Tile(0, 1)])
    assert game.outcome() == Outcome(Termination.STUCK, winner=None, score=game.score)


def test_ishido_a_dealt_game_has_no_outcome_until_over() -> None:
    game = IshidoGame.new(seed=7)
    while not game.over:
        assert game.outcome() is None
        game.place(*game.legal_moves()[0])
    outcome = game.outcome()
    assert outcome is not None and outcome.score == game.score
    assert (outcome.termination is Termination.COMPLETED) == (game.remaining == 0)


def test_sigmar_a_cleared_board_is_won_by_the_player() -> None:
    game = SigmarGame.from_level(GOLD)
    assert game.outcome() is None
    game.take((0, 0))
    assert game.outcome() == Outcome(Termination.COMPLETED, winner=0)


def test_sigmar_a_stuck_board_has_no_winner_and_undo_takes_it_back() -> None:
    game = SigmarGame.from_level(TRAP)
    game.take((0, 1), (0, 2))
    assert game.outcome() == Outcome(Termination.STUCK)
    game.undo()
    assert game.outcome() is None


def test_pachisi_the_player_home_with_four_pieces_wins() -> None:
    players = [Player("Ann"), Player("Bo", computer=True)]
    game = PachisiGame.from_position(players, [[0, 0, 0, 0], [76, 76, 76, 72]],
                                     current=1, throws=[4])
    assert game.outcome() is None
    game.throw()
    game.move(next(m for m in game.legal_moves() if m.pieces == (3,)))
    assert game.outcome() == Outcome(Termination.COMPLETED, winner=1)


def test_pachisi_everyone_stuck_before_the_finish_is_a_deadlock() -> None:
    players = [Player("Ann"), Player("Bo")]
    game = PachisiGame.from_position(players, [[75, 0, 0, 0], [73, 0, 0, 0]],
                                     current=1, throws=[2])
    game.throw()
    game.move(next(m for m in game.legal_moves() if m.pieces == (0,)))
    assert game.outcome() == Outcome(Termination.DEADLOCK, winner=None)

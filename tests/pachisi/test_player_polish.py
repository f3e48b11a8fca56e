"""What a new player noticed playing Pachisi in the window (the pachisiqa review):
each test failed before its fix."""

from __future__ import annotations

from palmish.pachisi import Game, Player

YOU, ANN, SILICON = Player("You"), Player("Ann"), Player("Silicon", True)


def test_messages_about_the_default_player_you_read_as_english() -> None:
    # "You" is the default name: the log said "You threw 10 and throws again".
    game = Game.from_position((YOU, SILICON), [[0] * 4, [0] * 4], throws=[10, 2],
                              first_turn=True)
    game.throw()
    assert game.message == "You threw 10 and throw again"
    move = game.default_move()
    assert move is not None
    game.move(move)
    assert game.message == "You enter a piece"
    game.throw()
    move = game.default_move()
    assert move is not None
    game.move(move)
    assert game.message == "You move a piece 2"
    later = Game.from_position((YOU, SILICON), [[0] * 4, [0] * 4], throws=[2])
    later.pass_turn()
    assert later.message == "You pass"


def test_messages_about_a_named_player_keep_the_third_person() -> None:
    game = Game.from_position((ANN, SILICON), [[0] * 4, [0] * 4], throws=[10],
                              first_turn=True)
    game.throw()
    assert game.message == "Ann threw 10 and throws again"
    move = game.default_move()
    assert move is not None
    game.move(move)
    assert game.message == "Ann enters a piece"

"""Silicon's `hard` search and the Hint run between frames, and choose what `ai.choose` does."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from palmish.device.events import Key, KeyDown, MenuCommand
from palmish.device.machine.system import Device
from palmish.pachisi import Game, Move, Player, ai
from palmish.pachisi import app as pachisi_app
from palmish.pachisi.app import SPEED_MS, PachisiApp
from tests.game_devices import run_timers_while

MakeDevice = Callable[..., tuple[Device, PachisiApp]]  # the make_device fixture (conftest.py)
PLAYERS = (Player("Ann"), Player("Silicon", True), Player("Silicon1", True),
           Player("Silicon2", True))
# Mid-game, four players: a throw of 10 earns another, so hard searches it deep
# (50-80 steps); its choice there is not the seed's marker.
POSITIONS = [[30, 10, 0, 0], [14, 5, 33, 0], [40, 22, 5, 0], [60, 3, 0, 0]]


@pytest.fixture(autouse=True)
def every_step_a_slice(monkeypatch: pytest.MonkeyPatch) -> None:
    """The thinking pauses after every step, whatever the machine's speed."""
    monkeypatch.setattr(pachisi_app, "TIMED_SLICE_MS", 0.0)


def set_up(app: PachisiApp, current: int, throw: int) -> Game:
    app.prefs["level"] = "hard"
    app.load_game(Game.from_position(PLAYERS, POSITIONS, throws=[throw], current=current))
    return app.game


def test_the_hint_thinks_between_frames_and_marks_hards_choice(make_device: MakeDevice) -> None:
    device, app = make_device()
    game = set_up(app, 0, 10)
    device.post(KeyDown(Key.SELECT))  # Ann throws 10
    assert game.phase == "move"
    expected = ai.choose(game, "hard")
    assert isinstance(expected, Move) and expected != game.default_move()
    device.post(MenuCommand("hint"))
    assert app.thinking is not None and app.scene.mark == game.default_move()
    assert run_timers_while(device, lambda: app.thinking is not None) > 20
    assert app.scene.mark == expected


def test_input_while_the_hint_thinks_stops_it(make_device: MakeDevice) -> None:
    device, app = make_device()
    game = set_up(app, 0, 10)
    device.post(KeyDown(Key.SELECT))
    device.post(MenuCommand("hint"))
    assert app.thinking is not None
    device.post(KeyDown(Key.DOWN))  # the player moves the marker on
    assert app.thinking is None
    moved_to = app.scene.mark
    device.advance(device.now_ms + 5000)
    assert app.scene.mark == moved_to and game.phase == "move"


def test_silicon_thinks_after_its_throw_and_marks_on_its_step(make_device: MakeDevice) -> None:
    device, app = make_device()
    game = set_up(app, 1, 10)
    step = SPEED_MS["normal"]
    device.advance(device.now_ms + step)  # Silicon throws 10
    assert game.phase == "move"
    expected = ai.choose(game, "hard")
    assert app.thinking is not None  # begun at once, between frames
    # 78 steps at a slice each, 10 ms apart: the marker's step comes first and
    # does the rest at once
    device.advance(device.now_ms + step)
    assert app.thinking is None and app.scene.mark == expected
    device.advance(device.now_ms + step)
    assert game.position(1, 3) == 10 and game.phase == "throw"  # moved; it throws again


def test_silicon_thought_of_ahead_is_the_move_it_marks(make_device: MakeDevice) -> None:
    device, app = make_device()
    app.prefs["speed"] = "slow"  # a second between steps: the thinking ends before
    game = set_up(app, 1, 10)
    step = SPEED_MS["slow"]
    device.advance(device.now_ms + step)
    expected = ai.choose(game, "hard")
    device.advance(device.now_ms + step - 1)
    assert app.thinking is None and app.scene.mark is None  # thought, not yet shown
    device.advance(device.now_ms + 1)
    assert app.scene.mark == expected


def test_a_key_while_silicon_thinks_finishes_its_turn_as_choose_plays_it(
        make_device: MakeDevice) -> None:
    device, app = make_device()
    game = set_up(app, 1, 10)
    device.advance(device.now_ms + SPEED_MS["normal"])
    assert app.thinking is not None
    expected = ai.choose(game, "hard")
    device.post(KeyDown(Key.SELECT))
    assert app.thinking is None and game.current != 1  # the whole turn at once
    assert game.history[0].move == expected

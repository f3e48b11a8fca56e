"""Issue 14, item 1: a late timer fires once; the demo never replays missed steps.

The window keeps device time with `set_clock` (input) and `catch_up` (timers);
scripts use `advance`, where every step happens on time. See also
tests/frontend/test_ishido_window.py for the same with the real window.
"""

from __future__ import annotations

from collections.abc import Callable

from palmish.device.events import Key, KeyDown, MenuCommand
from palmish.device.machine.system import Device
from palmish.ishido.app import DEMO_STEP_MS, IshidoApp

Make = Callable[..., tuple[Device, IshidoApp]]


def test_demo_after_a_long_idle_starts_from_now(make_ishido: Make) -> None:
    device, app = make_ishido()
    device.set_clock(60_000)  # a minute idle: no timer moved the clock
    device.post(MenuCommand("demo"))
    assert app.turns.pending("demo")
    device.catch_up(60_000 + DEMO_STEP_MS - 1)  # not already overdue
    assert len(app.game.moves) == 0
    device.catch_up(60_000 + DEMO_STEP_MS)
    assert len(app.game.moves) == 1


def test_an_overdue_demo_step_fires_once(make_ishido: Make) -> None:
    device, app = make_ishido()
    device.post(MenuCommand("demo"))
    device.catch_up(30 * DEMO_STEP_MS)  # the window could not run for a while
    assert len(app.game.moves) == 1  # one move, not thirty in a burst
    device.catch_up(31 * DEMO_STEP_MS - 1)  # the next counts from now
    assert len(app.game.moves) == 1
    device.catch_up(31 * DEMO_STEP_MS)
    assert len(app.game.moves) == 2


def test_input_between_demo_steps_stops_the_demo(make_ishido: Make) -> None:
    device, app = make_ishido()
    device.post(MenuCommand("demo"))
    device.catch_up(10 * DEMO_STEP_MS)
    device.set_clock(10 * DEMO_STEP_MS + 100)
    device.post(KeyDown(Key.DOWN))  # the player's key: handled at once, stops the demo
    assert not app.demo and device.next_timer_ms() is None
    device.catch_up(100 * DEMO_STEP_MS)
    assert len(app.game.moves) == 1


def test_a_script_wait_still_plays_every_step_on_time(make_ishido: Make) -> None:
    device, app = make_ishido()
    device.post(MenuCommand("demo"))
    device.advance(5 * DEMO_STEP_MS)  # `wait 3000` in an event script
    assert len(app.game.moves) == 5

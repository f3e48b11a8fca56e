"""The Device: configurations, routing of pen and keys, status bar, modals, timers, sounds."""

from __future__ import annotations

from typing import Any

import pytest

from palmish.device.display import CONFIGS, ConfigName
from palmish.device.events import (
    DisplayChanged,
    Key,
    KeyDown,
    MenuCommand,
    PenDown,
    PenMove,
    PenUp,
    Rotate,
    Tick,
    ToggleInputArea,
)
from palmish.device.geometry import Rect
from palmish.device.machine.statusbar import BAR_COLOUR, StatusButton, button_rects
from palmish.device.ui import Alert, MenuBar

APP_COLOUR = (200, 40, 40)


def centre(rect: Rect) -> tuple[int, int]:
    return rect.x + rect.w // 2, rect.y + rect.h // 2


def tap(device: Any, x: int, y: int) -> None:
    device.post(PenDown(x, y))
    device.post(PenUp(x, y))


def tap_button(device: Any, button: StatusButton) -> None:
    tap(device, *centre(button_rects(device.config)[button]))


@pytest.mark.parametrize("name", list(ConfigName))
def test_each_configuration_gives_the_app_its_bounds(make_device: Any, name: ConfigName) -> None:
    device = make_device(name.value)
    config = CONFIGS[name]
    assert (device.screen.width, device.screen.height) == (config.width, config.height)
    assert device.context.bounds == config.app_bounds
    b = config.app_bounds
    assert device.screen.image.getpixel((b.x, b.y)) == APP_COLOUR
    assert device.screen.image.getpixel((b.right - 1, b.bottom - 1)) == APP_COLOUR
    if config.status_bar is not None:
        bar = config.status_bar
        assert device.screen.image.getpixel((bar.x + bar.w // 2, bar.y + 1)) == BAR_COLOUR
    assert device.take_damage() == [device.screen.bounds]


def test_rotate_and_toggle_change_the_configuration_live(
    make_device: Any, recording_app: Any
) -> None:
    device = make_device("square")
    tap(device, 10, 10)
    device.take_damage()
    device.post(Rotate())
    assert device.config.name is ConfigName.WIDE
    assert (device.screen.width, device.screen.height) == (480, 320)
    changes = recording_app.of_type(DisplayChanged)
    assert changes == [DisplayChanged(CONFIGS[ConfigName.WIDE], Rect(0, 0, 460, 320))]
    assert device.take_damage() == [Rect(0, 0, 480, 320)]
    assert device.screen.image.getpixel((459, 319)) == APP_COLOUR
    device.post(ToggleInputArea())  # no input area in landscape: nothing happens
    assert device.config.name is ConfigName.WIDE
    device.post(Rotate())
    assert device.config.name is ConfigName.SQUARE  # back where the user came from
    device.post(ToggleInputArea())
    assert device.config.name is ConfigName.TALL
    assert [e.config.name for e in recording_app.of_type(DisplayChanged)] == [
        ConfigName.WIDE, ConfigName.SQUARE, ConfigName.TALL,
    ]
    assert recording_app.taps == 1 and recording_app.starts == 1  # state kept, no restart


@pytest.mark.parametrize("start", ["square", "tall"])
def test_rotating_back_from_wide_returns_to_the_configuration_left(
    make_device: Any, start: str
) -> None:
    device = make_device(start)
    device.post(Rotate())
    assert device.config.name is ConfigName.WIDE
    tap_button(device, StatusButton.ROTATE)  # the status bar's button, as a player does
    assert device.config.name.value == start
    device.post(Rotate())
    device.post(Rotate())
    assert device.config.name.value == start


def test_a_device_started_in_wide_turns_to_tall(make_device: Any) -> None:
    device = make_device("wide")
    device.post(Rotate())
    assert device.config.name is ConfigName.TALL


def test_square_low_neither_rotates_nor_toggles(make_device: Any, recording_app: Any) -> None:
    device = make_device("square-low")
    device.post(Rotate())
    device.post(ToggleInputArea())
    assert device.config.name is ConfigName.SQUARE_LOW
    assert recording_app.of_type(DisplayChanged) == []


def test_status_bar_buttons_work_by_tapping(make_device: Any, recording_app: Any) -> None:
    device = make_device("square")
    tap_button(device, StatusButton.INPUT_AREA)
    assert device.config.name is ConfigName.TALL
    tap_button(device, StatusButton.ROTATE)
    assert device.config.name is ConfigName.WIDE
    tap_button(device, StatusButton.MENU)
    assert isinstance(device.modals[-1], MenuBar)
    tap_button(device, StatusButton.MENU)  # the menu button again closes the menu
    assert device.modals == ()
    tap_button(device, StatusButton.HOME)
    assert device.running_app.name == "Applications"
    assert recording_app.of_type(PenDown) == []  # none of those taps reached the app


def test_status_button_acts_only_when_lifted_on_it(make_device: Any) -> None:
    device = make_device("square")
    rects = button_rects(device.config)
    device.post(PenDown(*centre(rects[StatusButton.ROTATE])))
    device.post(PenMove(*centre(rects[StatusButton.HOME])))
    device.post(PenUp(*centre(rects[StatusButton.HOME])))
    assert device.config.name is ConfigName.SQUARE
    assert device.running_app.name == "Recorder"


def test_pen_belongs_to_where_it_went_down(make_device: Any, recording_app: Any) -> None:
    device = make_device("square")
    device.post(PenDown(100, 100))
    device.post(PenMove(100, 400))  # into the input area: still the app's stroke
    device.post(PenUp(100, 470))
    assert recording_app.events == [PenDown(100, 100), PenMove(100, 400), PenUp(100, 470)]
    recording_app.events.clear()
    tap(device, 100, 400)  # the input area itself is decorative
    device.post(PenMove(5, 5))  # a move with no pen down
    device.post(PenUp(5, 5))
    assert recording_app.events == []


def test_keys_reach_the_app_and_menu_commands_come_back(
    make_device: Any, recording_app: Any
) -> None:
    device = make_device("square")
    device.post(KeyDown(Key.UP))
    device.post(KeyDown(Key.APP2))
    assert recording_app.of_type(KeyDown) == [KeyDown(Key.UP), KeyDown(Key.APP2)]
    device.post(KeyDown(Key.MENU))
    assert isinstance(device.modals[-1], MenuBar)
    device.post(KeyDown(Key.SELECT))  # it opens on the first item: Select chooses it
    assert device.modals == ()
    assert recording_app.of_type(MenuCommand) == [MenuCommand("new-game")]
    device.post(MenuCommand("undo"))  # a script's menu command goes straight to the app
    assert recording_app.of_type(MenuCommand)[-1] == MenuCommand("undo")


def test_menu_bar_by_pen(make_device: Any, recording_app: Any) -> None:
    device = make_device("square-low")
    device.post(KeyDown(Key.MENU))  # the classic device's silkscreen Menu button
    bar = device.modals[-1]
    assert isinstance(bar, MenuBar)
    before = device.screen.image.copy()
    undo = bar.item_rects(0)[1]
    tap(device, *centre(undo))
    assert recording_app.of_type(MenuCommand) == [MenuCommand("undo")]
    assert device.screen.image.getpixel((80, 10)) == APP_COLOUR  # save-behind restored
    assert before.getpixel((80, 10)) != APP_COLOUR


def test_modal_gets_pen_and_keys_first_and_restores_the_screen(
    make_device: Any, recording_app: Any
) -> None:
    device = make_device("square")
    results: list[object] = []
    alert = Alert("Hello", "A test.", buttons=("OK", "Cancel"))
    assert device.context is not None
    device.context.open_modal(alert, results.append)
    assert device.screen.image.getpixel(centre(alert.bounds)) != APP_COLOUR
    tap(device, 5, 5)  # outside the alert but in the app: swallowed by the modal
    device.post(KeyDown(Key.RIGHT))
    device.post(KeyDown(Key.SELECT))
    assert results == [1]
    assert device.modals == ()
    assert recording_app.events == []
    assert device.screen.image.getpixel(centre(alert.bounds)) == APP_COLOUR


def test_modals_survive_a_rotation(make_device: Any) -> None:
    device = make_device("tall")
    results: list[object] = []
    device.context.open_modal(Alert("Hi", "Still here?"), results.append)
    device.post(Rotate())
    alert = device.modals[-1]
    assert device.config.name is ConfigName.WIDE
    assert alert.bounds.intersect(device.config.app_bounds) == alert.bounds
    tap(device, *centre(alert.row.rects()[0]))  # the OK button where it now is
    assert results == [0]
    assert device.screen.image.getpixel(centre(alert.bounds)) == APP_COLOUR


def test_home_closes_dialogs_and_returns_to_the_launcher(make_device: Any) -> None:
    device = make_device("square")
    device.context.open_modal(Alert("Hi", "text"))
    device.post(KeyDown(Key.HOME))
    assert device.modals == () and device.running_app.name == "Applications"


def test_timers_run_on_device_time(make_device: Any, recording_app: Any) -> None:
    device = make_device("square")
    device.context.set_timer(100)
    assert device.next_timer_ms() == 100
    device.advance(99)
    assert recording_app.of_type(Tick) == []
    device.advance(150)
    assert recording_app.of_type(Tick) == [Tick(100)]  # fired at its due time
    assert device.now_ms == 150 and device.next_timer_ms() is None
    device.context.set_timer(10)
    device.context.open_modal(Alert("Wait", "Timers wait for dialogs."))
    device.advance(1000)
    assert len(recording_app.of_type(Tick)) == 1 and device.next_timer_ms() is None
    device.post(KeyDown(Key.SELECT))
    device.advance(1000)
    assert recording_app.of_type(Tick)[-1] == Tick(1000)


def test_a_timer_set_again_from_its_tick_fires_through_a_long_wait(
    make_device: Any, recording_app: Any
) -> None:
    device = make_device("square")
    original = recording_app.handle

    def handle_and_rearm(event: Any) -> None:
        original(event)
        if isinstance(event, Tick):
            device.context.set_timer(100)

    recording_app.handle = handle_and_rearm
    device.context.set_timer(100)
    device.advance(1050)
    assert recording_app.of_type(Tick) == [Tick(100 * k) for k in range(1, 11)]
    assert device.now_ms == 1050 and device.next_timer_ms() == 1100


def test_catching_up_with_real_time_fires_a_late_timer_once(
    make_device: Any, recording_app: Any
) -> None:
    """The window's clock: a timer that is late fires once, at the time reached, and
    one set again from its Tick counts from then (missed periods are dropped)."""
    device = make_device("square")
    original = recording_app.handle

    def handle_and_rearm(event: Any) -> None:
        original(event)
        if isinstance(event, Tick):
            device.context.set_timer(100)

    recording_app.handle = handle_and_rearm
    device.set_clock(5000)  # input arrives after a long idle: nothing fires
    assert device.now_ms == 5000 and recording_app.of_type(Tick) == []
    device.context.set_timer(100)
    assert device.next_timer_ms() == 5100  # counted from the input's time
    device.catch_up(9999)
    assert recording_app.of_type(Tick) == [Tick(9999)]
    assert device.next_timer_ms() == 10099
    device.set_clock(10)  # the clock never runs backwards
    assert device.now_ms == 9999


def test_sounds_are_queued_for_the_frontend(make_device: Any) -> None:
    device = make_device("square")
    device.context.play_sound(b"RIFF1")
    device.context.play_sound(b"RIFF2")
    assert device.take_sounds() == [b"RIFF1", b"RIFF2"]
    assert device.take_sounds() == []


def test_switching_apps_stops_and_starts_keeping_state(
    make_device: Any, recording_app: Any, app_class: Any, tmp_path: Any
) -> None:
    from palmish.launcher import LauncherApp

    other = app_class("Other", "TOth")
    device = make_device("square", apps=[LauncherApp(), recording_app, other])
    old_context = device.context
    tap(device, 10, 10)
    tap(device, 10, 10)
    device.switch_to("Other")
    assert recording_app.stops == 1 and other.starts == 1
    old_context.set_timer(5)  # a stopped app's context is inert
    assert device.next_timer_ms() is None
    device.post(KeyDown(Key.HOME))
    assert device.running_app.name == "Applications"
    device.switch_to("recorder")  # names are case-insensitive
    assert recording_app.taps == 2 and recording_app.starts == 2
    device.shutdown()
    again = app_class()
    device = make_device("wide", apps=[LauncherApp(), again])
    assert again.taps == 2  # resumed from storage by a new device
    with pytest.raises(ValueError, match="no app named"):
        device.switch_to("Nope")


def test_unknown_start_app_is_refused(make_device: Any) -> None:
    with pytest.raises(ValueError, match="no app named 'Nope'"):
        make_device("square", start="Nope")


def test_home_on_the_launcher_closes_its_dialogs(make_device: Any) -> None:
    device = make_device("square", start="Applications")
    device.post(MenuCommand("about"))
    assert device.modals
    device.post(KeyDown(Key.HOME))
    assert device.modals == () and device.running_app.name == "Applications"


def test_input_area_is_drawn_only_when_open(make_device: Any) -> None:
    from palmish.device.machine.inputarea import AREA_COLOUR, BOX_COLOUR, writing_boxes

    device = make_device("square")
    area = device.config.input_area
    assert area is not None
    assert device.screen.image.getpixel((area.x + 2, area.y + 2)) == AREA_COLOUR
    letters, numbers = writing_boxes(area)
    for box in (letters, numbers):
        assert device.screen.image.getpixel((box.x + 20, box.y + 20)) == BOX_COLOUR
    device.post(ToggleInputArea())
    assert device.config.input_area is None
    assert device.screen.image.getpixel((area.x + 2, area.y + 2)) == APP_COLOUR


def test_a_pressed_status_button_is_highlighted(make_device: Any) -> None:
    from palmish.device.machine.statusbar import PRESSED_COLOUR

    device = make_device("wide")
    rect = button_rects(device.config)[StatusButton.HOME]
    device.post(PenDown(rect.x + 2, rect.y + 2))
    assert device.screen.image.getpixel((rect.x + 2, rect.y + 2)) == PRESSED_COLOUR
    device.post(PenMove(rect.x - 100, rect.y + 2))  # slid off: released without acting
    assert device.screen.image.getpixel((rect.x + 2, rect.y + 2)) == BAR_COLOUR
    device.post(PenUp(rect.x - 100, rect.y + 2))
    assert device.running_app.name == "Recorder"


def test_shutdown_stops_once_and_the_device_can_start_again(
    make_device: Any, recording_app: Any
) -> None:
    device = make_device("square")
    device.shutdown()
    device.shutdown()
    device.post(PenDown(5, 5))  # ignored while nothing runs
    assert recording_app.stops == 1 and recording_app.events == []
    device.switch_to("Recorder")
    assert recording_app.starts == 2 and recording_app.stops == 1


def test_a_menu_command_over_a_dialog_does_what_the_menu_key_would(
    make_device: Any, recording_app: Any
) -> None:
    """A scripted `menu X` with a dialog open opens nothing on top (issue 22 item 7)."""
    device = make_device()
    device.open_modal(Alert("Note", "a dialog"))
    for _ in range(50):
        device.post(MenuCommand("new-game"))
    assert len(device.modals) == 1 and isinstance(device.modals[0], Alert)
    assert recording_app.of_type(MenuCommand) == []
    device.modals[0].close(None)
    device.post(KeyDown(Key.MENU))
    assert isinstance(device.modals[-1], MenuBar)
    device.post(MenuCommand("new-game"))  # the Menu key closes an open menu bar
    assert device.modals == () and recording_app.of_type(MenuCommand) == []
    device.post(MenuCommand("new-game"))
    assert recording_app.of_type(MenuCommand) == [MenuCommand("new-game")]

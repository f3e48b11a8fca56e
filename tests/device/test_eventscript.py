"""Event scripts: parsing every kind of line, strict errors, running against a device."""

from __future__ import annotations

from typing import Any

import pytest

from palmish.device.events import (
    CharKey,
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
from palmish.device.scripting.eventscript import (
    ScriptError,
    SwitchApp,
    Wait,
    check_script,
    numbered_steps,
    parse_script,
    run_script,
)


def test_every_kind_of_line() -> None:
    text = """
        # comment lines and blank lines are skipped
        pen-down 1 2
        pen-move 3 4   # trailing comments too
        pen-up 3 4
        tap 10 20
        drag 0 0 10 20 2
        KEY Select
        menu new-game
        rotate
        input-area
        toggle-input-area
        wait 250
        app PalmIshido
    """
    assert parse_script(text) == [
        PenDown(1, 2), PenMove(3, 4), PenUp(3, 4),
        PenDown(10, 20), PenUp(10, 20),
        PenDown(0, 0), PenMove(5, 10), PenMove(10, 20), PenUp(10, 20),
        KeyDown(Key.SELECT), MenuCommand("new-game"), Rotate(), ToggleInputArea(),
        ToggleInputArea(), Wait(250), SwitchApp("PalmIshido"),
    ]


@pytest.mark.parametrize(
    ("line", "problem"),
    [
        ("tap", "'tap' takes 2 numbers, got 0"),
        ("tap 1 x", "whole numbers"),
        ("drag 1 2 3 4 0", "steps must be 1..1000"),
        ("key", "one key name"),
        ("key fly", "unknown key 'fly'"),
        ("menu", "one command name"),
        ("rotate now", "'rotate' takes no arguments"),
        ("wait", "'wait' takes 1 numbers"),
        ("wait -1", "0 ms or more"),
        ("app", "an app name"),
        ("jump 1", "unknown event 'jump'"),
        ("char", "one character"),
        ("char 12", "a letter, a digit, one of - _ . : [ ], backspace or enter, not '12'"),
        ("char !", "not '!'"),
        ("command", "one letter"),
        ("command 7", "one letter"),
    ],
)
def test_bad_lines_name_file_and_line(line: str, problem: str) -> None:
    with pytest.raises(ScriptError) as info:
        parse_script(f"tap 1 1\n{line}\n", "my.events")
    assert str(info.value).startswith("my.events:2: ")
    assert problem in str(info.value)


def test_running_a_script(make_device: Any, recording_app: Any) -> None:
    device = make_device("square")
    device.context.set_timer(100)
    run_script(device, parse_script("tap 5 5\nkey up\nwait 120\nrotate\napp Applications\n"))
    assert recording_app.of_type(PenDown) == [PenDown(5, 5)]
    assert recording_app.of_type(Tick) == [Tick(100)]  # at its due time, within the wait
    assert device.config.name.value == "wide"
    assert device.running_app.name == "Applications"


def test_typed_characters_command_strokes_and_cancel() -> None:
    steps = parse_script("char 7\nchar Backspace\nchar enter\ncommand N\nkey cancel\n")
    assert steps == [CharKey("7"), CharKey("\b"), CharKey("\n"), CharKey("n", command=True),
                     KeyDown(Key.CANCEL)]


def test_menu_commands_and_apps_are_checked_before_running(
    make_device: Any, recording_app: Any
) -> None:
    device = make_device("square")
    text = "tap 1 1\nmenu undo\napp Applications\nmenu about\nmenu bogus\n"
    steps = numbered_steps(text, "s.events")
    with pytest.raises(ScriptError) as info:
        check_script(steps, "s.events", device.running_app, device.find_app, device.apps)
    # The line, the command, and the commands of the app running at that line.
    assert str(info.value) == ("s.events:5: unknown menu command 'bogus' "
                               "(Applications's: about, beam, prefs)")
    with pytest.raises(ScriptError, match=r"^s\.events:2: no app named 'Elsewhere'$"):
        check_script(numbered_steps("key up\napp Elsewhere\n"), "s.events",
                     device.running_app, device.find_app, device.apps)
    check_script(steps[:-1], "s.events", device.running_app, device.find_app, device.apps)
    assert recording_app.events == []  # checking runs nothing

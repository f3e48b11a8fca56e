"""Event scripts: a text file of device events, one per line (docs/events-format.md).

    # a comment
    tap 100 120            pen down and up at one point
    drag 10 10 200 120 8   pen down, 8 moves along the line, pen up
    pen-down 5 5 / pen-move 6 7 / pen-up 6 7
    key up                 up down left right select app1..app4 menu home
    menu new-game          a menu command straight to the app
    rotate / input-area    the status bar's rotate and input-area buttons
    wait 500               let 500 ms of device time pass (timers fire)
    app PalmIshido         switch to an app

Parsing is strict: a bad line is a ScriptError naming the file and line.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from palmish.device.events import (
    Event,
    Key,
    KeyDown,
    MenuCommand,
    PenDown,
    PenMove,
    PenUp,
    Rotate,
    ToggleInputArea,
)
from prc_tools.files import FileProblem, read_regular

# Limits that keep a hostile script cheap (docs/events-format.md, "Limits").
MAX_SCRIPT_BYTES = 1024 * 1024
MAX_SCRIPT_EVENTS = 200_000  # after expanding taps and drags


class ScriptError(ValueError):
    """A line of an event script that cannot be understood (message: FILE:LINE: problem)."""


class ScriptTarget(Protocol):
    now_ms: int

    def post(self, event: Event) -> None: ...

    def advance(self, now_ms: int) -> None: ...

    def switch_to(self, name: str) -> None: ...


@dataclass(frozen=True)
class Wait:
    ms: int


@dataclass(frozen=True)
class SwitchApp:
    name: str


Step = Event | Wait | SwitchApp


def _ints(args: list[str], count: int, what: str) -> list[int]:
    if len(args) != count:
        raise ValueError(f"'{what}' takes {count} numbers, got {len(args)}")
    try:
        return [int(a) for a in args]
    except ValueError:
        raise ValueError(f"'{what}' takes whole numbers, not {' '.join(args)!r}") from None


Parser = Callable[[list[str], str], list[Step]]


def _pen(cls: type[PenDown] | type[PenMove] | type[PenUp]) -> Parser:
    def parse(args: list[str], word: str) -> list[Step]:
        x, y = _ints(args, 2, word)
        return [cls(x, y)]

    return parse


def _tap(args: list[str], word: str) -> list[Step]:
    x, y = _ints(args, 2, word)
    return [PenDown(x, y), PenUp(x, y)]


def _drag(args: list[str], word: str) -> list[Step]:
    if len(args) == 4:
        args = [*args, "8"]
    x0, y0, x1, y1, steps = _ints(args, 5, word)
    if not 1 <= steps <= 1000:
        raise ValueError("drag steps must be 1..1000")
    return [*drag_events(x0, y0, x1, y1, steps)]


def drag_events(x0: int, y0: int, x1: int, y1: int, steps: int) -> list[Event]:
    """A pen stroke in a straight line: down, `steps` evenly spaced moves, up."""
    moves = [
        PenMove(x0 + (x1 - x0) * i // steps, y0 + (y1 - y0) * i // steps)
        for i in range(1, steps + 1)
    ]
    return [PenDown(x0, y0), *moves, PenUp(x1, y1)]


def _key(args: list[str], word: str) -> list[Step]:
    if len(args) != 1:
        raise ValueError("'key' takes one key name")
    try:
        return [KeyDown(Key(args[0].lower()))]
    except ValueError:
        names = " ".join(k.value for k in Key)
        raise ValueError(f"unknown key {args[0]!r} (keys: {names})") from None


def _menu(args: list[str], word: str) -> list[Step]:
    if len(args) != 1:
        raise ValueError("'menu' takes one command name")
    return [MenuCommand(args[0])]


def _wait(args: list[str], word: str) -> list[Step]:
    (ms,) = _ints(args, 1, word)
    if ms < 0:
        raise ValueError("'wait' needs a time of 0 ms or more")
    return [Wait(ms)]


def _bare(event: Event) -> Parser:
    def parse(args: list[str], word: str) -> list[Step]:
        if args:
            raise ValueError(f"'{word}' takes no arguments")
        return [event]

    return parse


def _app(args: list[str], word: str) -> list[Step]:
    if not args:
        raise ValueError("'app' takes an app name")
    return [SwitchApp(" ".join(args))]


_PARSERS: dict[str, Parser] = {
    "pen-down": _pen(PenDown),
    "pen-move": _pen(PenMove),
    "pen-up": _pen(PenUp),
    "tap": _tap,
    "drag": _drag,
    "key": _key,
    "menu": _menu,
    "wait": _wait,
    "rotate": _bare(Rotate()),
    "input-area": _bare(ToggleInputArea()),
    "toggle-input-area": _bare(ToggleInputArea()),
    "app": _app,
}


def parse_script(text: str, source: str = "<events>") -> list[Step]:
    """All steps of a script; ScriptError('SOURCE:LINE: problem') for a bad line."""
    steps: list[Step] = []
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        word, *args = line.split()
        parser = _PARSERS.get(word.lower())
        if parser is None:
            known = ", ".join(sorted(_PARSERS))
            raise ScriptError(f"{source}:{number}: unknown event {word!r} (known: {known})")
        try:
            steps.extend(parser(args, word.lower()))
        except ValueError as exc:
            raise ScriptError(f"{source}:{number}: {exc}") from None
        if len(steps) > MAX_SCRIPT_EVENTS:
            raise ScriptError(
                f"{source}:{number}: the script expands to more than {MAX_SCRIPT_EVENTS} events"
            )
    return steps


def read_script(path: Path) -> list[Step]:
    """The steps of the script file at `path` (a regular UTF-8 file, BOM allowed)."""
    try:
        text = read_regular(path, MAX_SCRIPT_BYTES).decode("utf-8-sig")
    except FileProblem as exc:
        raise ScriptError(f"{path}: {exc}") from None
    except UnicodeDecodeError:
        raise ScriptError(f"{path}: not a UTF-8 text file") from None
    return parse_script(text, str(path))


def run_script(target: ScriptTarget, steps: list[Step]) -> None:
    """Feed the steps to a device in order; ValueError for an unknown app name."""
    for step in steps:
        if isinstance(step, Wait):
            target.advance(target.now_ms + step.ms)
        elif isinstance(step, SwitchApp):
            target.switch_to(step.name)
        else:
            target.post(step)

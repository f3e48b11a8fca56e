"""Event scripts: a text file of device events, one per line (docs/events-format.md).

    # a comment
    tap 100 120            pen down and up at one point
    drag 10 10 200 120 8   pen down, 8 moves along the line, pen up
    pen-down 5 5 / pen-move 6 7 / pen-up 6 7
    key up                 up down left right select app1..app4 menu home cancel
    char 7                 a typed character: a letter, a digit, - _ . :, backspace or enter
    command n              the command stroke + a letter: the menu item with that shortcut
    menu new               a menu command straight to the app
    rotate / input-area    the status bar's rotate and input-area buttons
    wait 500               let 500 ms of device time pass (timers fire)
    app PalmIshido         switch to an app
    net 0 {"t":"ping"}     a line from network peer 0 (docs/network.md)
    net-closed 0           the link to network peer 0 closed
    beam-offer 1 46080 plugin Kitchen | Jade Board | Board plugin for PalmIshido
    beam-progress receive 1 2048 46080       bytes of a beam sent or received
    beam-done send 1 code wrong pairing code  how a beam ended

Parsing is strict: a bad line is a ScriptError naming the file and line, and
`check_script` tells, before anything runs, of an app or menu command the
device does not have.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Protocol

from palmish.device.events import (
    TYPED_MARKS,
    BeamDone,
    BeamOffered,
    BeamProgress,
    CharKey,
    Event,
    Key,
    KeyDown,
    MenuCommand,
    NetworkClosed,
    NetworkLine,
    PenDown,
    PenMove,
    PenUp,
    Rotate,
    ToggleInputArea,
    coalesce_moves,
    coalesce_toggles,
)
from palmish.device.exchange import BeamItem, Checked
from palmish.device.machine.app import App
from prc_tools.files import FileProblem, read_regular
from prc_tools.frozen import Frozen

# Limits that keep a hostile script cheap (docs/events-format.md, "Limits").
MAX_SCRIPT_BYTES = 1024 * 1024
MAX_SCRIPT_EVENTS = 200_000  # after expanding taps and drags
# Lines that lay the screen out again (rotate and input-area, after a run of them
# is cut to its parity, and app): each costs a layout and a repaint, 5-20 ms, so a
# script of them alone would run for many minutes within the events bound.
MAX_SCRIPT_LAYOUTS = 1_000


class ScriptError(ValueError):
    """A line of an event script that cannot be understood (message: FILE:LINE: problem)."""


class ScriptFileError(ScriptError):
    """The script file itself cannot be read (message: FILE: problem)."""


class ScriptTarget(Protocol):
    now_ms: int

    def post(self, event: Event) -> None: ...

    def advance(self, now_ms: int) -> None: ...

    def switch_to(self, name: str) -> None: ...


class Wait(Frozen):
    ms: int


class SwitchApp(Frozen):
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


CHAR_NAMES = {"backspace": "\b", "enter": "\n"}
TAKES = "a letter, a digit, one of - _ . : [ ], backspace or enter"


def _char(args: list[str], word: str) -> list[Step]:
    if len(args) != 1:
        raise ValueError(f"'char' takes one character ({TAKES})")
    text = args[0]
    char = CHAR_NAMES.get(text.lower(), text)
    if len(char) != 1 or not (char.isalnum() or char in TYPED_MARKS or char in CHAR_NAMES.values()):
        raise ValueError(f"'char' takes {TAKES}, not {text!r}")
    return [CharKey(char)]


def _command(args: list[str], word: str) -> list[Step]:
    if len(args) != 1 or len(args[0]) != 1 or not args[0].isalpha():
        raise ValueError("'command' takes one letter (a menu shortcut)")
    return [CharKey(args[0].lower(), command=True)]


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


def _peer(text: str) -> int:
    if not text.isdigit() or len(text) > 6:
        raise ValueError(f"a network peer is a number, not {text!r}")
    return int(text)


def _net(args: list[str], word: str) -> list[Step]:
    if len(args) < 2:
        raise ValueError("'net' takes a peer number and the line it sent")
    return [NetworkLine(_peer(args[0]), " ".join(args[1:]))]


def _net_closed(args: list[str], word: str) -> list[Step]:
    if len(args) != 1:
        raise ValueError("'net-closed' takes a peer number")
    return [NetworkClosed(_peer(args[0]))]


def _number(text: str, what: str) -> int:
    if not text.isdigit() or len(text) > 9:
        raise ValueError(f"{what} is a number, not {text!r}")
    return int(text)


def _beam_offer(args: list[str], word: str) -> list[Step]:
    parts = " ".join(args[3:]).split(" | ")
    if len(args) < 4 or len(parts) != 3:
        raise ValueError("'beam-offer' takes a beam number, a size, a kind and "
                         "SENDER | TITLE | WHAT")
    sender, title, what = parts
    item = BeamItem(args[2], number=0 if _number(args[1], "a size") == 0 else None)
    return [BeamOffered(_number(args[0], "a beam"), sender, item, Checked(title, what),
                        _number(args[1], "a size"))]


def _direction(text: str) -> bool:
    if text not in ("send", "receive"):
        raise ValueError(f"a beam goes 'send' or 'receive', not {text!r}")
    return text == "send"


def _beam_progress(args: list[str], word: str) -> list[Step]:
    if len(args) != 4:
        raise ValueError("'beam-progress' takes send or receive, a beam number, bytes done"
                         " and bytes in all")
    return [BeamProgress(_number(args[1], "a beam"), _direction(args[0]),
                         _number(args[2], "bytes done"), _number(args[3], "a size"))]


def _beam_done(args: list[str], word: str) -> list[Step]:
    if len(args) < 4:
        raise ValueError("'beam-done' takes send or receive, a beam number, how it ended"
                         " (accepted, declined, refused, code, busy, failed) and a line")
    return [BeamDone(_number(args[1], "a beam"), _direction(args[0]), args[2] == "accepted",
                     " ".join(args[3:]), args[2])]


_PARSERS: dict[str, Parser] = {
    "pen-down": _pen(PenDown),
    "pen-move": _pen(PenMove),
    "pen-up": _pen(PenUp),
    "tap": _tap,
    "drag": _drag,
    "key": _key,
    "char": _char,
    "command": _command,
    "menu": _menu,
    "wait": _wait,
    "rotate": _bare(Rotate()),
    "input-area": _bare(ToggleInputArea()),
    "toggle-input-area": _bare(ToggleInputArea()),
    "app": _app,
    "net": _net,
    "net-closed": _net_closed,
    "beam-offer": _beam_offer,
    "beam-progress": _beam_progress,
    "beam-done": _beam_done,
}


def parse_script(text: str, source: str = "<events>") -> list[Step]:
    """All steps of a script; ScriptError('SOURCE:LINE: problem') for a bad line."""
    return [step for _, step in numbered_steps(text, source)]


def numbered_steps(text: str, source: str = "<events>") -> list[tuple[int, Step]]:
    """Each step of a script with the number of the line it came from."""
    steps: list[tuple[int, Step]] = []
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
            steps.extend((number, step) for step in parser(args, word.lower()))
        except ValueError as exc:
            raise ScriptError(f"{source}:{number}: {exc}") from None
        if len(steps) > MAX_SCRIPT_EVENTS:
            raise ScriptError(
                f"{source}:{number}: the script expands to more than {MAX_SCRIPT_EVENTS} events"
            )
    _check_layouts(steps, source)
    return steps


def _check_layouts(steps: Sequence[tuple[int, Step]], source: str) -> None:
    """ScriptError, naming the line, once the lines that lay the screen out again
    (rotate and input-area as they reach the device after `coalesce_toggles`, and
    app lines) pass MAX_SCRIPT_LAYOUTS."""
    count = 0
    for number, step in coalesce_toggles(steps, lambda item: item[1]):
        if isinstance(step, (Rotate, ToggleInputArea, SwitchApp)):
            count += 1
            if count > MAX_SCRIPT_LAYOUTS:
                raise ScriptError(
                    f"{source}:{number}: the script lays the screen out again (rotate, "
                    f"input-area, app) more than {MAX_SCRIPT_LAYOUTS} times")


def read_script(path: Path) -> list[Step]:
    return [step for _, step in read_numbered(path)]


def read_numbered(path: Path) -> list[tuple[int, Step]]:
    """The steps of the script file at `path` (a regular UTF-8 file, BOM allowed), with
    their line numbers."""
    try:
        text = read_regular(path, MAX_SCRIPT_BYTES).decode("utf-8-sig")
    except FileProblem as exc:
        raise ScriptFileError(f"{path}: {exc}") from None
    except UnicodeDecodeError:
        raise ScriptFileError(f"{path}: not a UTF-8 text file") from None
    return numbered_steps(text, str(path))


def check_script(
    steps: Sequence[tuple[int, Step]], source: str, first: App,
    find_app: Callable[[str], App | None], apps: Sequence[App],
) -> None:
    """Before a script runs: every `app` line names an installed app and every `menu`
    command is one that an installed app understands; ScriptError names the line."""
    known = frozenset().union(*(app.commands() for app in apps))
    current = first
    for line, step in steps:
        if isinstance(step, SwitchApp):
            found = find_app(step.name)
            if found is None:
                raise ScriptError(f"{source}:{line}: no app named {step.name!r}")
            current = found
        elif isinstance(step, MenuCommand) and step.command not in known:
            names = ", ".join(sorted(current.commands()))
            raise ScriptError(f"{source}:{line}: unknown menu command {step.command!r}"
                              f" ({current.name}'s: {names})")


def run_script(target: ScriptTarget, steps: list[Step]) -> None:
    """Feed the steps to a device in order; ValueError for an unknown app name.

    Consecutive pen moves reach the device as the last of them (`coalesce_moves`):
    a drag's points between the same two waits are one burst, as in the window.
    Consecutive rotations (and input-area toggles) reach it as their parity
    (`coalesce_toggles`).
    """
    for step in coalesce_toggles(coalesce_moves(steps)):
        if isinstance(step, Wait):
            target.advance(target.now_ms + step.ms)
        elif isinstance(step, SwitchApp):
            target.switch_to(step.name)
        else:
            target.post(step)

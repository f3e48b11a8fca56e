"""What the command line's options take, each checked by one function in one wording,
and how it exits.

Each check is an argparse `type=`: the value, or `ArgumentTypeError` with one line,
which argparse prints after the option's name as a usage error (exit 2). The
address and port rules are the device's (palmish/device/addresses.py), which
the games' dialogs and the network read too; a handheld's name is the beam
wire's. This module is imported at every start: what it needs of the network
is imported only when a name is checked.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from palmish.device.addresses import parse_address, parse_port
from palmish.device.disk.storage import default_data_dir
from palmish.device.display import DisplayConfig, config_by_name

EXIT_OK, EXIT_FAILED, EXIT_USAGE = 0, 1, 2  # done; a bad file, name or peer; a bad option
EXIT_INTERRUPTED = 130  # Ctrl+C, as a shell reports an interrupted program

HIGHEST_NUMBER = (1 << 31) - 1  # a board or deal number (as the beam wire carries it)
CODE_DIGITS = 4  # a join code, a beam receiver's pairing code
LONGEST_WAIT_S = 24 * 3600
DEFAULT_DATA_DIR = "<default data folder>"  # named only when help is shown (main.py)

T = TypeVar("T")


def _one_line(check: Callable[[str], T], text: str) -> T:
    """`check(text)`, its ValueError said as argparse says a bad option's value."""
    try:
        return check(text)
    except ValueError as err:
        raise argparse.ArgumentTypeError(str(err)) from None


def display_config(text: str) -> DisplayConfig:
    """--config C: a display configuration by name."""
    return _one_line(config_by_name, text)


def positive(text: str) -> int:
    """A count: a whole number, 1 or more (--zoom, gremlins' --events)."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"{value} must be 1 or more")
    return value


def seed(text: str) -> int:
    """A random seed: any whole number, in decimal or with a 0x, 0o or 0b prefix."""
    try:
        return int(text, 0)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None


def listen_port(text: str) -> int:
    """A port to listen on: 1-65535, or 0 for a free one."""
    return _one_line(lambda t: parse_port(t, listening=True), text)


def address(text: str) -> tuple[str, int]:
    """HOST:PORT (an IPv6 host in brackets) to connect to."""
    return _one_line(parse_address, text)


def code(text: str) -> str:
    """A four-digit code: a network game's join code, a beam receiver's pairing code."""
    if not (len(text) == CODE_DIGITS and text.isascii() and text.isdigit()):
        raise argparse.ArgumentTypeError(f"{text!r} is not a four-digit code")
    return text


def seconds(text: str) -> float:
    """A wait in seconds, 0 to a day."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if not 0 <= value <= LONGEST_WAIT_S:
        raise argparse.ArgumentTypeError(f"{text} seconds is out of range (0-{LONGEST_WAIT_S})")
    return value


def number(text: str) -> int:
    """A board's or a deal's number, or a count of items: 0 to 2147483647."""
    if not (text.isascii() and text.isdigit()) or len(text) > 10 or int(text) > HIGHEST_NUMBER:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number (0 to {HIGHEST_NUMBER})")
    return int(text)


def handheld_name(text: str) -> str:
    """A handheld's name as a beam sender or receiver shows it (the wire's rule)."""
    from palmish.network.beam.wire import device_name  # the network: only when a name is given

    if not device_name(text):
        raise argparse.ArgumentTypeError(
            f"{text!r} is not a handheld's name (1-40 characters, no control characters)")
    return text


def add_data_dir(parser: argparse.ArgumentParser, dest: str = "command_data_dir",
                 help: str | None = None) -> None:
    """--data-dir DIR: a command's storage folder (given before the command word, it
    counts too: data_dir)."""
    parser.add_argument("--data-dir", type=Path, metavar="DIR", dest=dest, help=help)


def data_dir(args: argparse.Namespace) -> Path:
    """The storage folder: --data-dir after the command word, else before it, else the
    default (looked up only then: finding it may import platformdirs)."""
    given: Path | None = args.command_data_dir or args.data_dir
    return given if given is not None else default_data_dir()


def add_no_discovery(parser: argparse.ArgumentParser) -> None:
    """--no-discovery after the word of a command that opens a window (preview, join):
    the same as before it (no_discovery)."""
    parser.add_argument("--no-discovery", action="store_true", dest="command_no_discovery",
                        help="the window neither announces nor looks for other handhelds"
                             " (no multicast), as before the command word")


def no_discovery(args: argparse.Namespace) -> bool:
    """--no-discovery before the command word or after it."""
    return bool(args.no_discovery or args.command_no_discovery)

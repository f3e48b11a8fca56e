"""What the commands print: results on standard output, log lines and a one-line
problem on standard error. Names from files, peers and the command line are
escaped (prc_tools.text.printable), so nothing printed can move the terminal."""

from __future__ import annotations

import sys
from collections.abc import Callable

from palmish.commands.args import EXIT_FAILED
from prc_tools.text import plain_message, printable


def fail(message: str, status: int = EXIT_FAILED) -> int:
    """`palmish: message` on standard error; the exit status to return."""
    # Names may come from files; Python's wording is said in the user's terms.
    print(f"palmish: {printable(plain_message(message))}", file=sys.stderr, flush=True)
    return status


def say(line: str) -> None:
    """A result line on standard output, at once (a script may be waiting for it)."""
    print(printable(line), flush=True)


def logger(command: str) -> Callable[[str], None]:
    """What `palmish COMMAND` logs: `palmish COMMAND: line` on standard error."""
    return lambda line: print(f"palmish {command}: {printable(line)}", file=sys.stderr,
                              flush=True)

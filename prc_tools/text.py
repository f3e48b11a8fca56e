"""Text from a file, made safe to print on a terminal.

A database name, a plugin's author or a file name may hold terminal escapes
(colours, OSC titles and hyperlinks), C1 controls, BEL or bidirectional
overrides that reorder what follows. Every command that prints text taken
from a file (prc-tools, `palmish install` and `palmish plugins`) passes it
through `printable`, and JSON output through `json_text`.
"""

from __future__ import annotations

import functools
import re


@functools.cache
def _wording() -> tuple[re.Pattern[str], re.Pattern[str]]:
    """Python's own wording that means nothing to a user: an object's address in a
    message (Pillow names the BytesIO it read), and the hint to raise a limit from
    Python code. Compiled when first needed: only a failing command needs them."""
    return re.compile(r"\s*<[\w.]+ object at 0x[0-9a-fA-F]+>"), re.compile(
        r"Exceeds the limit \((\d+) digits\) for integer string conversion"
        r"(?:: value has (\d+) digits)?; use sys\.set_int_max_str_digits\(\) to increase the limit"
    )


def printable(text: str) -> str:
    """`text` with every character that is not printable (control characters, format
    characters such as U+202E, separators other than the space) written as a visible
    escape: \\n, \\x1b, \\u202e."""
    if text.isprintable():
        return text
    return "".join(
        ch if ch.isprintable() else ch.encode("unicode_escape").decode("ascii") for ch in text
    )


def plain_message(message: str) -> str:
    """A message from Python or Pillow as a user can read it: without object
    addresses (`<_io.BytesIO object at 0x...>`) or the `sys.set_int_max_str_digits()`
    hint, which say nothing about the file."""
    objects, digits = _wording()
    return digits.sub(_digits, objects.sub("", message))


def _digits(match: re.Match[str]) -> str:
    found = f" of {match.group(2)} digits" if match.group(2) else ""
    return f"a number{found} is too long (at most {match.group(1)} digits)"


def json_text(value: object, indent: int | None = 2) -> str:
    """`value` as JSON that is safe on a terminal: letters of any script stay as they
    are, but every character that is not printable is a \\u escape (JSON itself
    escapes only U+0000 to U+001F)."""
    import json  # only `--json` and the callers that write JSON load it

    text = json.dumps(value, indent=indent, ensure_ascii=False, default=str)
    if text.isprintable():
        return text
    return "".join(ch if ch.isprintable() or ch == "\n" else _json_escape(ch) for ch in text)


def _json_escape(ch: str) -> str:
    code = ord(ch)
    if code < 0x10000:
        return f"\\u{code:04x}"
    code -= 0x10000  # a surrogate pair, as JSON writes characters beyond the BMP
    return f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}"

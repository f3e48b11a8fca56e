"""A strict reader for the plain YAML that `build` writes into a 'pINF', without PyYAML.

Importing PyYAML costs a quick command about 13 ms (most of it PyYAML compiling
its own expressions), a third of `verify` or `info` on a small plugin. A header
as `build` writes it is a flat mapping, one `field: value` line each, lists as
`- item` lines under their field, every value a whole number, true, false,
null, [] or a text on one line, plain or in single quotes. `read` takes exactly
that and gives what PyYAML's safe loader gives; for anything else (comments,
blank lines, floats, dates, nested mappings, flow lists, continued lines, tabs,
a word PyYAML reads as a boolean such as `yes`) it answers None, and the caller
asks PyYAML (tests/prc_tools/test_plain_yaml.py compares the two on generated
documents).
"""

from __future__ import annotations

# Not `from typing import TYPE_CHECKING`: typing costs a quick command 3 ms to load.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

# Words PyYAML's resolver reads as booleans or null, not as text.
_WORDS = frozenset([
    "yes", "Yes", "YES", "no", "No", "NO", "true", "True", "TRUE", "false", "False", "FALSE",
    "on", "On", "ON", "off", "Off", "OFF", "null", "Null", "NULL",
])
_CONSTANTS: dict[str, Any] = {"true": True, "false": False, "null": None}
_DECLINE = object()


def read(data: bytes, max_bytes: int) -> dict[str, Any] | None:
    """The mapping in `data` if it is in the plain subset above, else None.

    None also for anything PyYAML would refuse or read otherwise (not UTF-8,
    larger than `max_bytes`): the caller's PyYAML path then says what is wrong.
    """
    if len(data) > max_bytes:
        return None
    try:
        text = str(data, "utf-8-sig")  # bytes or a view of them
    except UnicodeDecodeError:
        return None
    lines = text.split("\n")
    if lines[-1] == "":
        lines.pop()  # the final newline
    found: dict[str, Any] = {}
    index = 0
    while index < len(lines):
        key, colon, rest = lines[index].partition(":")
        index += 1
        if not colon or not _is_key(key) or key in _WORDS or key in found:
            return None
        if rest:  # `key: value`
            if rest[0] != " ":
                return None
            value = _scalar(rest[1:])
        else:  # `key:`, then its list's `- item` lines
            items = []
            while index < len(lines) and lines[index].startswith("- "):
                items.append(_scalar(lines[index][2:]))
                index += 1
            if not items or _DECLINE in items:
                return None
            value = items
        if value is _DECLINE:
            return None
        found[key] = value
    return found or None


def _scalar(text: str) -> Any:
    """The value of one scalar on its line, or _DECLINE if outside the subset."""
    if not text or not text.isprintable() or text[-1] == " ":
        return _DECLINE
    first = text[0]
    if first == "'":
        inner = text[1:-1]
        if len(text) < 2 or text[-1] != "'" or "'" in inner.replace("''", ""):
            return _DECLINE
        return inner.replace("''", "'")
    if first.isalpha():
        if text in _CONSTANTS:
            return _CONSTANTS[text]
        if text in _WORDS or ":" in text or "#" in text:
            return _DECLINE
        return text
    if text == "[]":
        return []
    digits = text[1:] if first == "-" else text
    # Decimal only: no sign +, no leading 0 (octal to YAML), no _, no 0x; 18 digits at most.
    if digits.isascii() and digits.isdigit() and len(digits) <= 18 and (
        digits == "0" or digits[0] != "0"
    ):
        return int(text)
    return _DECLINE


def _is_key(key: str) -> bool:
    """A field name: an ASCII letter, then letters, digits or _, 64 at most."""
    return (0 < len(key) <= 64 and key.isascii() and key[0].isalpha()
            and key.replace("_", "").isalnum())

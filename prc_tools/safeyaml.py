"""YAML from files a stranger may have written: manifests, 'pINF' headers, skins.

PyYAML's safe loader still expands aliases (a few hundred bytes of
"billion laughs" become gigabytes) and recurses once per nesting level. This
loader refuses anchors and aliases outright (none of our formats needs them),
bounds the text's size and the nesting depth, and turns every failure into
one line. `brief` shows an unchecked value in an error without ever printing
more than a few dozen characters of it.
"""

from __future__ import annotations

from typing import Any

import yaml

from prc_tools.errors import PrcError

MAX_DEPTH = 32  # far deeper than any manifest, pINF or skin; shallow enough for recursion
BRIEF_CHARS = 40


class YamlError(PrcError):
    """YAML that is malformed, too big, too deep or uses anchors/aliases (one line)."""


class _BoundedLoader(yaml.SafeLoader):
    """The safe loader, minus anchors and aliases, with a nesting limit."""

    def __init__(self, stream: str, max_depth: int) -> None:
        super().__init__(stream)
        self._depth = 0
        self._max_depth = max_depth

    def compose_node(self, parent: Any, index: Any) -> Any:
        event = self.peek_event()  # type: ignore[no-untyped-call]
        if isinstance(event, yaml.AliasEvent) or getattr(event, "anchor", None) is not None:
            raise YamlError(_at(event, "anchors and aliases (& and *) are not allowed"))
        self._depth += 1
        try:
            if self._depth > self._max_depth:
                raise YamlError(_at(event, f"nested more than {self._max_depth} levels deep"))
            return super().compose_node(parent, index)
        finally:
            self._depth -= 1


def _at(event: Any, problem: str) -> str:
    mark = getattr(event, "start_mark", None)
    return f"YAML error at line {mark.line + 1}: {problem}" if mark else f"YAML error: {problem}"


def load(text: str | bytes, max_bytes: int, max_depth: int = MAX_DEPTH) -> Any:
    """The document in `text` as plain data; YamlError (one line) on any problem.

    Bytes must be UTF-8 (a leading BOM is accepted). Larger than `max_bytes`
    is refused before parsing.
    """
    if isinstance(text, bytes):
        if len(text) > max_bytes:
            raise YamlError(f"YAML of {len(text)} bytes is too big (at most {max_bytes})")
        try:
            text = text.decode("utf-8-sig")
        except UnicodeDecodeError:
            raise YamlError("not UTF-8 text") from None
    elif len(text) > max_bytes:
        raise YamlError(f"YAML of {len(text)} characters is too big (at most {max_bytes})")
    loader = _BoundedLoader(text, max_depth)
    try:
        return loader.get_single_data()
    except YamlError:
        raise
    except RecursionError:
        raise YamlError("YAML error: nested too deeply") from None
    except (yaml.YAMLError, ValueError, OverflowError) as exc:
        # PyYAML raises ValueError for impossible dates (2001-13-45) and for
        # integers past Python's digit limit.
        raise YamlError(describe_error(exc)) from None
    finally:
        loader.dispose()


def describe_error(exc: BaseException) -> str:
    """One line for a YAML problem, with the line number when PyYAML knows it."""
    if isinstance(exc, RecursionError):
        return "YAML error: nested too deeply"
    mark = getattr(exc, "problem_mark", None)
    where = f" at line {mark.line + 1}" if mark is not None else ""
    problem = getattr(exc, "problem", None) or str(exc) or "not valid YAML"
    return " ".join(f"YAML error{where}: {problem}".split())[:200]


def brief(value: object, limit: int = BRIEF_CHARS) -> str:
    """`repr(value)` cut to about `limit` characters, never building the whole of a big one.

    Containers are summarised by type and length, so a huge structure in an
    error message costs nothing to describe.
    """
    if isinstance(value, dict):
        return f"a mapping of {len(value)} entries"
    if isinstance(value, (list, tuple, set)):
        return f"a list of {len(value)} items"
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 128:
        return "a very large number"
    if isinstance(value, (str, bytes)) and len(value) > limit:
        value = value[:limit]
        return repr(value)[: limit + 2] + "..."
    text = repr(value)
    return text if len(text) <= limit else text[:limit] + "..."

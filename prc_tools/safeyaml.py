"""YAML from files a stranger may have written: manifests, 'pINF' headers, skins.

PyYAML's safe loader still expands aliases (a few hundred bytes of
"billion laughs" become gigabytes) and recurses once per nesting level. This
loader refuses anchors and aliases outright (none of our formats needs them),
bounds the text's size and the nesting depth, and turns every failure into
one line. `brief` shows an unchecked value in an error without ever printing
more than a few dozen characters of it.

PyYAML itself (~9 ms to import) is imported the first time YAML is read or
written, not with this module: a warm start of the emulator reads none.
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING, Any

from prc_tools.errors import PrcError

if TYPE_CHECKING:
    from types import ModuleType

MAX_DEPTH = 32  # far deeper than any manifest, pINF or skin; shallow enough for recursion
BRIEF_CHARS = 40


class YamlError(PrcError):
    """YAML that is malformed, too big, too deep or uses anchors/aliases (one line)."""


@functools.cache
def _yaml() -> ModuleType:
    import yaml

    return yaml


def _loader() -> Any:
    # libyaml when PyYAML was built with it: a 3 MB manifest (65,535 resources)
    # parses in seconds instead of a minute.
    yaml = _yaml()
    return getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def _at(event: Any, problem: str) -> str:
    mark = getattr(event, "start_mark", None)
    return f"YAML error at line {mark.line + 1}: {problem}" if mark else f"YAML error: {problem}"


def _check_events(text: str, max_depth: int) -> None:
    """A first pass over the parser's events: no anchor or alias, nesting bounded.

    The parser streams events without building anything, so this costs no
    memory; only a document that passes is then constructed.
    """
    yaml = _yaml()
    depth = 0
    for event in yaml.parse(text, Loader=_loader()):
        if isinstance(event, yaml.AliasEvent) or getattr(event, "anchor", None) is not None:
            raise YamlError(_at(event, "anchors and aliases (& and *) are not allowed"))
        if isinstance(event, (yaml.SequenceStartEvent, yaml.MappingStartEvent)):
            depth += 1
            if depth > max_depth:
                raise YamlError(_at(event, f"nested too deeply (more than {max_depth} levels)"))
        elif isinstance(event, (yaml.SequenceEndEvent, yaml.MappingEndEvent)):
            depth -= 1


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
            raise YamlError("cannot read: not UTF-8 text") from None
    elif len(text) > max_bytes:
        raise YamlError(f"YAML of {len(text)} characters is too big (at most {max_bytes})")
    yaml = _yaml()
    try:
        _check_events(text, max_depth)
        return yaml.load(text, Loader=_loader())  # a safe loader (C or Python)
    except YamlError:
        raise
    except RecursionError:
        raise YamlError("YAML error: nested too deeply") from None
    except (yaml.YAMLError, ValueError, OverflowError) as exc:
        # PyYAML raises ValueError for impossible dates (2001-13-45) and for
        # integers past Python's digit limit.
        message = describe_error(exc)
        if "nesting depth" in message:  # libyaml's own limit, said our way
            message = message.split(":")[0] + f": nested too deeply (more than {max_depth} levels)"
        raise YamlError(message) from None


@functools.cache
def _dumper() -> Any:
    yaml = _yaml()
    base: Any = getattr(yaml, "CSafeDumper", yaml.SafeDumper)

    class Dumper(base):  # type: ignore[misc]
        """The safe dumper that writes a value used twice in full, never as an alias
        (which `load` refuses, and which nobody editing a manifest expects)."""

        def ignore_aliases(self, data: Any) -> bool:
            return True

    return Dumper


def dump(data: Any, allow_unicode: bool = True) -> str:
    """`data` as block-style YAML in the given key order, without anchors or aliases.

    Non-ASCII text is written as is unless `allow_unicode` is False (then escaped).
    """
    text: str = _yaml().dump(data, Dumper=_dumper(), sort_keys=False, allow_unicode=allow_unicode,
                          width=100)
    return text


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

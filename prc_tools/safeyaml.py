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

from prc_tools.errors import PrcError
from prc_tools.text import plain_message

# Not `from typing import TYPE_CHECKING`: typing costs a quick command 3 ms to load.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from types import ModuleType
    from typing import Any

MAX_DEPTH = 32  # far deeper than any manifest, pINF or skin; shallow enough for recursion
BRIEF_CHARS = 40


class YamlError(PrcError):
    """YAML that is malformed, too big, too deep or uses anchors/aliases (one line)."""


@functools.cache
def _yaml() -> ModuleType:
    import yaml

    return yaml


def libyaml_or_python(name: str) -> Any:
    """PyYAML's class `name` (SafeLoader, SafeDumper) in its libyaml version
    (`C` + name) when PyYAML was built with libyaml, else the pure-Python one:
    a 3 MB manifest (65,535 resources) parses in seconds instead of a minute."""
    yaml = _yaml()
    return getattr(yaml, "C" + name, getattr(yaml, name))


def _loader() -> Any:
    return libyaml_or_python("SafeLoader")


def _at(event: Any, problem: str) -> str:
    mark = getattr(event, "start_mark", None)
    return f"YAML error at line {mark.line + 1}: {problem}" if mark else f"YAML error: {problem}"


def _read_events(text: str, max_depth: int) -> tuple[bool, Any]:
    """One pass over the parser's events: no anchor or alias, nesting bounded.

    The parser streams events, so a document refused here costs no memory. The
    same pass builds the document when it holds only untagged mappings, lists
    and the plain scalars of the safe loader (str, int, float, bool, null,
    timestamps), as manifests do: (True, value), several times faster than
    PyYAML's constructor. Anything else (tags, merge keys, a list or mapping
    as a key, not exactly one document) gives (False, None), and PyYAML's own
    constructor decides exactly as before.
    """
    yaml = _yaml()
    resolver, scalars = _plain_scalars()
    depth = 0
    simple = True
    documents = 0
    root: list[Any] = []  # holds the document once read
    open_: list[Any] = [root]  # the lists and mappings being filled, innermost last
    keys: list[Any] = [_NO_KEY]  # per open mapping: the key awaiting its value
    plain: dict[str, Any] = {}  # plain scalars' values by their text (all immutable)

    def place(value: Any) -> None:
        top = open_[-1]
        if type(top) is list:
            top.append(value)
        elif keys[-1] is _NO_KEY:
            keys[-1] = value
        else:
            top[keys[-1]] = value
            keys[-1] = _NO_KEY

    events: Any = yaml.parse(text, Loader=_loader())
    for event in events:
        if isinstance(event, yaml.AliasEvent) or getattr(event, "anchor", None) is not None:
            raise YamlError(_at(event, "anchors and aliases (& and *) are not allowed"))
        kind = type(event)
        if kind is yaml.ScalarEvent:
            if not simple:
                continue
            if event.tag is not None and event.tag != "!":
                simple = False
                continue
            value = event.value
            if event.implicit[0]:  # plain: what it reads as depends on its text
                if value in plain:
                    value = plain[value]
                else:
                    tag = resolver.resolve(yaml.ScalarNode, value, event.implicit)
                    construct = scalars.get(tag, _UNSUPPORTED)
                    if construct is _UNSUPPORTED:
                        simple = False
                        continue
                    if construct is not None:
                        value = construct(yaml.ScalarNode(tag, value))
                    plain[event.value] = value
            place(value)
        elif kind is yaml.SequenceStartEvent or kind is yaml.MappingStartEvent:
            depth += 1
            if depth > max_depth:
                raise YamlError(_at(event, f"nested too deeply (more than {max_depth} levels)"))
            if not simple:
                continue
            if (event.tag is not None and event.tag != "!") or (
                type(open_[-1]) is dict and keys[-1] is _NO_KEY  # a list or mapping as a key
            ):
                simple = False
                continue
            container: Any = [] if kind is yaml.SequenceStartEvent else {}
            place(container)
            open_.append(container)
            keys.append(_NO_KEY)
        elif kind is yaml.SequenceEndEvent or kind is yaml.MappingEndEvent:
            depth -= 1
            if simple:
                open_.pop()
                keys.pop()
        elif kind is yaml.DocumentStartEvent:
            documents += 1
    if not simple or documents != 1 or len(root) != 1:
        return False, None
    return True, root[0]


_NO_KEY = object()
_UNSUPPORTED = object()


@functools.cache
def _plain_scalars() -> tuple[Any, dict[str, Any]]:
    """The resolver giving plain scalars the tags PyYAML's safe loaders give them, and
    the scalar tags built here, each as the safe loader builds it (None: the text)."""
    yaml = _yaml()
    constructor = yaml.constructor.SafeConstructor()
    return yaml.resolver.Resolver(), {
        "tag:yaml.org,2002:str": None,
        "tag:yaml.org,2002:null": constructor.construct_yaml_null,
        "tag:yaml.org,2002:bool": constructor.construct_yaml_bool,
        "tag:yaml.org,2002:int": constructor.construct_yaml_int,
        "tag:yaml.org,2002:float": constructor.construct_yaml_float,
        "tag:yaml.org,2002:timestamp": constructor.construct_yaml_timestamp,
    }


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
        built, value = _read_events(text, max_depth)
        if built:
            return value
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
    base: Any = libyaml_or_python("SafeDumper")

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
    return " ".join(f"YAML error{where}: {plain_message(problem)}".split())[:200]


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

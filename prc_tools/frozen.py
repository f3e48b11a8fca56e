"""Records: a class declares its fields once, as annotations, and gets the rest.

One base for every record of prc_tools and palmish (docs/prc-tools.md, "Records").
A subclass of `Frozen` lists its fields as annotations, in order, with defaults as
class attributes (or `field(default_factory=...)` for a fresh list or dict per
record, `field(compare=False)` for one that equality leaves out), and gets what
`@dataclass(frozen=True, slots=True)` gives: construction by position or keyword,
equality and hashing by class and values, a repr, no assignment after
construction, `replace`, matching by position (`case Header(width, height)`),
pickling and copying. Type checkers read it as a frozen dataclass
(`dataclass_transform`).

Nothing is compiled per class: `dataclasses` runs exec() for every class it
makes (about half a millisecond each, and importing it loads `inspect`, `ast`
and `dis`), so the methods here are written once for every record, and a class
costs only reading its annotations. This module imports nothing, so a quick
`prc-tools` command loads neither `dataclasses` nor `typing` for its records.

Class options, as keywords of the class statement:
- `frozen=False`: fields may be assigned (then records are not hashable);
- `slots=False`: records keep a `__dict__` (for a class that also stores
  attributes that are not fields);
- a `__slots__` in the class body lists extra, non-field slots;
- a data descriptor as a field's class attribute (one with `__set__`) stores that
  field, as with dataclasses: the field gets no slot of its own;
- a `__post_init__` runs after the fields are set (to check or complete them);
- an `__init__` in the class body replaces the generated construction (it must
  take the fields in order, as `replace` and pickling call it that way).
"""

from __future__ import annotations

from operator import attrgetter

# Not `from typing import ...`: typing costs a quick command 3 ms to load.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any, ClassVar, Protocol, TypeVar, overload

    from typing_extensions import Self, dataclass_transform

    T = TypeVar("T")

    class _Values(Protocol):
        """A getter of a record's compared values (an attrgetter)."""

        def __call__(self, record: Any, /) -> object: ...

else:
    def dataclass_transform(**_options: object) -> object:
        return lambda cls: cls


class _Missing:
    __slots__ = ()

    def __repr__(self) -> str:
        return "MISSING"


MISSING = _Missing()  # no default given


class Field:
    """What `field(...)` declares of one field; read when the class is made."""

    __slots__ = ("compare", "default", "default_factory")

    def __init__(self, default: object, default_factory: Callable[[], object] | None,
                 compare: bool) -> None:
        self.default = default
        self.default_factory = default_factory
        self.compare = compare


if TYPE_CHECKING:
    @overload
    def field(*, default: T, compare: bool = True) -> T: ...
    @overload
    def field(*, default_factory: Callable[[], T], compare: bool = True) -> T: ...
    @overload
    def field(*, compare: bool = True) -> Any: ...
    def field(*, default: Any = ..., default_factory: Callable[[], Any] | None = None,
              compare: bool = True) -> Any: ...
else:
    def field(*, default: object = MISSING, default_factory: Callable[[], object] | None = None,
              compare: bool = True) -> Any:
        """A field's default made fresh for each record (`default_factory`), or a field
        that equality and hashing leave out (`compare=False`)."""
        if default is not MISSING and default_factory is not None:
            raise ValueError("a field has a default or a default_factory, not both")
        return Field(default, default_factory, compare)


_CLASS_VARIABLE = ("ClassVar", "typing.ClassVar")
# Whether a class of default values defines __set__ (a descriptor field); the
# common ones known, the others looked up once.
_DESCRIPTORS: dict[type, bool] = dict.fromkeys(
    (int, str, bytes, bool, float, tuple, frozenset, type(None)), False)


def _annotations(namespace: dict[str, Any]) -> dict[str, Any]:
    """A class body's annotations where it has no `__annotations__`: none, or (Python
    3.14 without `from __future__ import annotations`) those its `__annotate__` gives."""
    annotate = namespace.get("__annotate__")
    return annotate(1) if annotate is not None else {}


def _field_names(annotations: dict[str, Any]) -> list[str]:
    """The annotated names less class variables, each annotation looked at."""
    return [key for key, kind in annotations.items()
            if not (kind if kind.__class__ is str else repr(kind)).startswith(_CLASS_VARIABLE)]


def _no_values(record: object) -> tuple[()]:
    return ()


def _layout(parent: Any, namespace: dict[str, Any], names: list[str], slots: bool) -> tuple[
        list[str], list[str], list[str], dict[str, object], dict[str, Callable[[], object]],
        set[str]]:
    """A record class's fields as its class body declares them, on top of its parent's:
    (fields, those kept in a slot of their own, those a descriptor stores, defaults,
    default factories, fields equality leaves out). Takes the defaults out of the
    namespace where they would clash with slots."""
    inherited = parent._fields
    fields = list(inherited)
    stored: list[str] = []
    descriptors: list[str] = []
    defaults = dict(parent._defaults)
    factories = dict(parent._factories)
    uncompared = set(parent._uncompared)
    for key in names:
        value = namespace.get(key, MISSING)
        if key in inherited:  # declared again: as if new, in its old place
            defaults.pop(key, None)
            factories.pop(key, None)
            uncompared.discard(key)
        elif value.__class__ is Field or value is MISSING or not _descriptor(value):
            fields.append(key)
            stored.append(key)
        else:
            fields.append(key)  # a descriptor stores this field (as with dataclasses)
            descriptors.append(key)
            continue
        if value is MISSING:
            continue
        if isinstance(value, Field):
            del namespace[key]
            if not value.compare:
                uncompared.add(key)
            if value.default_factory is not None:
                factories[key] = value.default_factory
            elif value.default is not MISSING:
                defaults[key] = value.default
            continue
        defaults[key] = value
        if slots:
            del namespace[key]
    return fields, stored, descriptors, defaults, factories, uncompared


def _descriptor_defaults(cls: type, keys: list[str]) -> None:
    """Defaults of fields a descriptor stores, as dataclasses find them: what the
    descriptor gives on the class, unless that is an AttributeError."""
    defaults: dict[str, object] = dict(cls._defaults)  # type: ignore[attr-defined]
    for key in keys:
        try:
            defaults[key] = cls.__dict__[key].__get__(None, cls)
        except AttributeError:
            continue
    type.__setattr__(cls, "_defaults", defaults)


def _descriptor(value: object) -> bool:
    kind = value.__class__
    found = _DESCRIPTORS.get(kind)
    if found is None:
        found = _DESCRIPTORS[kind] = hasattr(kind, "__set__")
    return found


class _RecordType(type):
    """Reads a record class's fields from its annotations before the class is made,
    so that they can be slots (which a class cannot gain afterwards). Every class
    made at start-up passes here: the usual one (new fields, plain defaults) in a
    few steps, anything else (`field(...)`, descriptors, a parent's field declared
    again) in `_layout`."""

    def __new__(mcls, name: str, bases: tuple[type, ...], namespace: dict[str, Any],
                frozen: bool | None = None, slots: bool = True, **options: Any) -> _RecordType:
        parent: Any = None
        for base in bases:
            if isinstance(base, _RecordType):
                parent = base
                break
        if parent is None:  # Frozen itself, whose body gives every table
            return type.__new__(mcls, name, bases, namespace, **options)
        if frozen is None:
            frozen = parent._frozen
        elif parent._fields and frozen != parent._frozen:
            raise TypeError(f"{name}: a record is frozen exactly when its parent is")
        annotations = namespace.get("__annotations__")
        if annotations is None:
            annotations = _annotations(namespace)
        try:  # the usual class, in one look: every annotation text, none a class variable
            usual = "ClassVar" not in " ".join(annotations.values())
        except TypeError:  # not all text (a module without `from __future__ import annotations`)
            usual = False
        names = list(annotations) if usual else _field_names(annotations)
        inherited = parent._fields
        if inherited:
            usual = set(inherited).isdisjoint(names)
        given = namespace.keys() & names  # fields with a default
        own: dict[str, object] = {}
        if given and usual:
            for key in given:
                value = own[key] = namespace[key]
                kind = value.__class__
                if kind is Field or _DESCRIPTORS.get(kind, True):
                    usual = False  # a field(...), a descriptor, or a class to look up
                    break
        # Class attributes go in the namespace (setting them on the made class costs
        # more), and only those that differ from the parent's.
        if usual:
            stored = names  # new fields kept in a slot of their own
            namespace["_fields"] = namespace["__match_args__"] = (*inherited, *names)
            if own:
                if slots:
                    for key in own:
                        del namespace[key]  # a slot and a class attribute cannot share a name
                defaults = parent._defaults
                namespace["_defaults"] = {**defaults, **own} if defaults else own
        else:
            fields, stored, descriptors, defaults, factories, uncompared = _layout(
                parent, namespace, names, slots)
            namespace["_fields"] = namespace["__match_args__"] = tuple(fields)
            namespace["_defaults"] = defaults
            namespace["_factories"] = factories
            namespace["_uncompared"] = frozenset(uncompared)
        if slots:
            extra = namespace.get("__slots__", ())
            namespace["__slots__"] = (*stored, *((extra,) if extra.__class__ is str else extra))
        if frozen != parent._frozen:
            namespace["_frozen"] = frozen
            if not frozen:
                namespace.setdefault("__setattr__", object.__setattr__)
                namespace.setdefault("__delattr__", object.__delattr__)
                namespace.setdefault("__hash__", None)
        namespace["_compared"] = _COMPARED  # made when first used (most classes never are)
        if "__post_init__" in namespace and "__init__" not in namespace:
            namespace["__init__"] = _init_then_check
        cls = type.__new__(mcls, name, bases, namespace, **options)
        if not usual and descriptors:
            _descriptor_defaults(cls, descriptors)
        return cls


class _ComparedValues:
    """A record class's `_compared` until first used: then the class's own getter of
    the compared fields' values, (a, b) for two, the value for one, () for none."""

    def __get__(self, record: object, cls: type[Frozen]) -> _Values:
        names = [key for key in cls._fields if key not in cls._uncompared]
        if not names:  # a function, unlike an attrgetter, binds to a record: not this one
            type.__setattr__(cls, "_compared", staticmethod(_no_values))
            return _no_values
        getter = attrgetter(*names)
        type.__setattr__(cls, "_compared", getter)
        return getter


_COMPARED = _ComparedValues()


@dataclass_transform(frozen_default=True, field_specifiers=(field,))
class Frozen(metaclass=_RecordType):
    """Base class of a record; see the module docstring."""

    __slots__ = ()
    # Each record class's own, set by _RecordType: its fields in order, their
    # defaults and default factories, the fields equality leaves out, whether it is
    # frozen, and the compared fields' values of a record ((a, b) for two, the
    # value for one).
    _fields: ClassVar[tuple[str, ...]] = ()
    __match_args__: ClassVar[tuple[str, ...]] = ()
    _defaults: ClassVar[dict[str, object]] = {}
    _factories: ClassVar[dict[str, Callable[[], object]]] = {}
    _uncompared: ClassVar[frozenset[str]] = frozenset()
    _frozen: ClassVar[bool] = True
    _compared: ClassVar[_Values] = _COMPARED  # type: ignore[assignment]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        fields = self._fields
        values = args if not kwargs and len(args) == len(fields) else _arguments(
            type(self), args, kwargs)
        put = object.__setattr__
        # Of one length, checked above; zip with a keyword (strict=) costs 0.2 us a record.
        for key, value in zip(fields, values):  # noqa: B905
            put(self, key, value)

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        compared = self._compared
        return bool(compared(self) == compared(other))

    def __hash__(self) -> int:
        return hash(self._compared(self))

    def __repr__(self) -> str:
        shown = ", ".join(f"{key}={getattr(self, key)!r}" for key in self._fields)
        return f"{type(self).__qualname__}({shown})"

    def __setattr__(self, key: str, value: object) -> None:
        raise _frozen_error(f"cannot assign to field {key!r}")

    def __delattr__(self, key: str) -> None:
        raise _frozen_error(f"cannot delete field {key!r}")

    def __reduce__(self) -> tuple[type[Self], tuple[object, ...]]:
        # Pickles and copies are made by __init__ (slots have no __dict__ to copy).
        return type(self), tuple(getattr(self, key) for key in self._fields)

    def replace(self, **changes: Any) -> Self:
        """A copy with some fields changed (as `dataclasses.replace`)."""
        values = [changes.pop(key) if key in changes else getattr(self, key)
                  for key in self._fields]
        if changes:
            raise TypeError(f"{type(self).__name__} has no field {next(iter(changes))!r}")
        return type(self)(*values)

    __replace__ = replace  # copy.replace (Python 3.13)


def _init_then_check(self: Any, *args: Any, **kwargs: Any) -> None:
    """`__init__` of a record class with a `__post_init__`: that runs after the fields
    are set (as with dataclasses)."""
    Frozen.__init__(self, *args, **kwargs)
    self.__post_init__()


def _arguments(cls: type[Frozen], args: tuple[Any, ...], kwargs: dict[str, Any]) -> list[Any]:
    """Every field's value, in order, from a call by keyword or with defaults left out
    (`kwargs` is the call's own dict: taken apart here); TypeError in Python's words
    for a call that does not fit."""
    fields = cls._fields
    if len(args) > len(fields):
        raise TypeError(f"{cls.__qualname__}() takes {len(fields)} positional arguments"
                        f" but {len(args)} were given")
    values = list(args)
    defaults = cls._defaults
    missing = MISSING
    for key in fields[len(args):]:
        value = kwargs.pop(key, missing)
        if value is missing:
            value = defaults.get(key, missing)
            if value is missing:
                factory = cls._factories.get(key)
                if factory is None:
                    _refuse(cls, len(args), kwargs)
                    raise TypeError(f"{cls.__qualname__}() missing required argument: {key!r}")
                value = factory()
        values.append(value)
    if kwargs:
        _refuse(cls, len(args), kwargs)
    return values


def _refuse(cls: type[Frozen], given: int, left: dict[str, Any]) -> None:
    """TypeError for the first keyword left that is not a field or was given by position."""
    for key in left:
        if key in cls._fields[:given]:
            raise TypeError(f"{cls.__qualname__}() got multiple values for argument {key!r}")
        if key not in cls._fields:
            raise TypeError(f"{cls.__qualname__}() got an unexpected keyword argument {key!r}")


def _frozen_error(message: str) -> AttributeError:
    """dataclasses' FrozenInstanceError, loaded only on this path (a bug's)."""
    from dataclasses import FrozenInstanceError

    return FrozenInstanceError(message)

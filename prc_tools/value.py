"""Small value classes without ``dataclasses``, for the types every command reads.

Importing ``dataclasses`` (it imports ``inspect``, which imports ``ast`` and
``dis``) costs a quick command about 10 ms, a quarter of `prc-tools info`
(docs/prc-tools.md, "Quick commands"). So the database, bitmap and sound
types are plain classes: each lists its fields in ``__slots__`` and takes them,
in order, as its ``__init__``'s parameters; equality, ``repr``, copying and
(when frozen) hashing come from here, as a dataclass would have them.
"""

from __future__ import annotations

# Not `from typing import TYPE_CHECKING`: typing costs a quick command 3 ms to load.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import TypeVar

    _Frozen = TypeVar("_Frozen", bound="FrozenValue")


_FIELDS: dict[type[Value], tuple[str, ...]] = {}


class Value:
    """Equal to a value of the same class with equal fields; shown as Class(field=value, ...)."""

    __slots__ = ()
    # Fields equality leaves out (a dataclass's compare=False).
    _not_compared: frozenset[str] = frozenset()

    def _fields(self) -> tuple[str, ...]:
        """The fields in the order of ``__init__``'s parameters (``__slots__`` is sorted)."""
        cls = type(self)
        found = _FIELDS.get(cls)
        if found is None:
            code = cls.__init__.__code__
            found = _FIELDS[cls] = code.co_varnames[1 : code.co_argcount]
        return found

    def _compared(self) -> tuple[object, ...]:
        skip = self._not_compared
        return tuple(getattr(self, name) for name in self._fields() if name not in skip)

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        assert isinstance(other, Value)
        return self._compared() == other._compared()

    def __repr__(self) -> str:
        shown = ", ".join(f"{name}={getattr(self, name)!r}" for name in self._fields())
        return f"{type(self).__qualname__}({shown})"

    def __reduce__(self) -> tuple[type[Value], tuple[object, ...]]:
        # Copies and pickles are made by __init__ (slots have no __dict__ to copy).
        return type(self), tuple(getattr(self, name) for name in self._fields())


class FrozenValue(Value):
    """A Value whose fields cannot change once ``__init__`` has set them all, by
    ``self._init(locals())`` (its parameters are the fields)."""

    __slots__ = ()

    def _init(self, arguments: dict[str, object]) -> None:
        for name in self._fields():
            object.__setattr__(self, name, arguments[name])

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"cannot assign to field {name!r} of a {type(self).__name__}")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"cannot delete field {name!r} of a {type(self).__name__}")

    def __hash__(self) -> int:
        return hash(self._compared())

    def replace(self: _Frozen, **changes: object) -> _Frozen:
        """A copy with some fields changed (as ``dataclasses.replace``)."""
        unknown = set(changes) - set(self._fields())
        if unknown:
            raise TypeError(f"{type(self).__name__} has no field {sorted(unknown)[0]!r}")
        copy = object.__new__(type(self))
        for name in self._fields():
            object.__setattr__(copy, name, changes.get(name, getattr(self, name)))
        return copy

"""Small immutable records, made without `dataclasses`.

`@dataclass(frozen=True)` compiles its generated methods with exec() when the class
is created: about half a millisecond a class, and a warm start created dozens
(issue 27, docs/architecture.md "Start-up"). A subclass of `Frozen` declares its
fields as annotations, with defaults as class attributes, and gets what those
dataclasses gave, from methods written once here: construction by position or
keyword, equality and hashing by class and values, a repr, no assignment after
construction, and matching by position (`case PenDown(x, y)`). Type checkers read
it as a frozen dataclass (`dataclass_transform`).
"""

from __future__ import annotations

from dataclasses import FrozenInstanceError
from typing import TYPE_CHECKING, Any, ClassVar

if TYPE_CHECKING:  # typing has it from Python 3.11 on; palmish runs on 3.10 too
    from typing_extensions import dataclass_transform
else:
    def dataclass_transform(**_options: object) -> Any:
        return lambda cls: cls


@dataclass_transform(frozen_default=True)
class Frozen:
    """Base class of a frozen record; see the module docstring."""

    __slots__ = ()
    _fields: ClassVar[tuple[str, ...]] = ()
    _defaults: ClassVar[dict[str, object]] = {}

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        # The class's own annotations (strings), read without importing inspect.
        own = [name for name, kind in cls.__dict__.get("__annotations__", {}).items()  # noqa: RUF063
               if not str(kind).startswith("ClassVar")]
        cls._fields = (*cls._fields, *(name for name in own if name not in cls._fields))
        cls._defaults = {**cls._defaults,
                         **{name: cls.__dict__[name] for name in own if name in cls.__dict__}}
        cls.__match_args__ = cls._fields  # type: ignore[attr-defined,misc]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        fields = self._fields
        name = type(self).__name__
        if len(args) > len(fields):
            raise TypeError(f"{name}() takes {len(fields)} positional arguments"
                            f" but {len(args)} were given")
        values = dict(zip(fields, args, strict=False))
        for key, value in kwargs.items():
            if key not in fields:
                raise TypeError(f"{name}() got an unexpected keyword argument {key!r}")
            if key in values:
                raise TypeError(f"{name}() got multiple values for argument {key!r}")
            values[key] = value
        put = object.__setattr__
        for key in fields:
            if key in values:
                put(self, key, values[key])
            elif key in self._defaults:
                put(self, key, self._defaults[key])
            else:
                raise TypeError(f"{name}() missing required argument: {key!r}")

    def _values(self) -> tuple[object, ...]:
        return tuple(getattr(self, key) for key in self._fields)

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        assert isinstance(other, Frozen)
        return self._values() == other._values()

    def __hash__(self) -> int:
        return hash(self._values())

    def __repr__(self) -> str:
        shown = ", ".join(f"{key}={getattr(self, key)!r}" for key in self._fields)
        return f"{type(self).__qualname__}({shown})"

    def __setattr__(self, key: str, value: object) -> None:
        raise FrozenInstanceError(f"cannot assign to field {key!r}")

    def __delattr__(self, key: str) -> None:
        raise FrozenInstanceError(f"cannot delete field {key!r}")

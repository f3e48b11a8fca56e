"""Records (prc_tools/frozen.py) behave as the frozen dataclasses they stand for."""

from __future__ import annotations

import copy
import pickle
import subprocess
import sys
from dataclasses import FrozenInstanceError
from typing import ClassVar

import pytest

from prc_tools.frozen import Frozen, field


class Point(Frozen):
    x: int
    y: int
    z: int = 0
    unit: ClassVar[str] = "px"

    def length(self) -> int:
        return abs(self.x) + abs(self.y) + abs(self.z)


class Named(Point):
    name: str = ""


class Other(Frozen):
    x: int
    y: int


class Tagged(Frozen):
    label: str
    tags: list[str] = field(default_factory=list)
    note: str = field(default="", compare=False)


class Counter(Frozen, frozen=False):
    count: int = 0


class Loose(Frozen, slots=False):
    value: int


class _AsText:
    """A descriptor that keeps a number as text in the slot `_stored`."""

    def __get__(self, record: object, owner: type | None = None) -> int:
        if record is None:
            raise AttributeError("no default")
        return int(record._stored)  # type: ignore[attr-defined]

    def __set__(self, record: object, value: int) -> None:
        object.__setattr__(record, "_stored", str(value))


class WithDescriptor(Frozen):
    __slots__ = ("_stored",)
    number: int = _AsText()  # type: ignore[assignment]
    plain: int = 1


class Custom(Frozen):
    low: int
    high: int

    def __init__(self, low: int, high: int) -> None:
        if low > high:
            raise ValueError("low above high")
        object.__setattr__(self, "low", low)
        object.__setattr__(self, "high", high)


def test_construction_by_position_keyword_and_default() -> None:
    assert Point(1, 2) == Point(x=1, y=2) == Point(1, y=2) == Point(1, 2, 0)
    assert (Point(1, 2).x, Point(1, 2).y, Point(1, 2).z) == (1, 2, 0)
    assert Point(1, 2).length() == 3 and Point.unit == "px"
    assert Named(1, 2, 3, "n") == Named(x=1, y=2, z=3, name="n")
    assert Named(1, 2).name == "" and Named._fields == ("x", "y", "z", "name")


def test_a_default_factory_makes_a_fresh_value_each_time() -> None:
    first, second = Tagged("a"), Tagged("a")
    assert first.tags == [] and first.tags is not second.tags
    assert Tagged("a", ["t"]).tags == ["t"]


@pytest.mark.parametrize(("make", "message"), [
    (lambda: Point(1), "Point() missing required argument: 'y'"),
    (lambda: Point(y=1), "Point() missing required argument: 'x'"),
    (lambda: Point(1, 2, 3, 4), "Point() takes 3 positional arguments but 4 were given"),
    (lambda: Point(1, 2, w=2), "Point() got an unexpected keyword argument 'w'"),
    (lambda: Point(w=2), "Point() got an unexpected keyword argument 'w'"),
    (lambda: Point(1, x=2), "Point() got multiple values for argument 'x'"),
])
def test_wrong_arguments_are_type_errors_in_pythons_words(make: object, message: str) -> None:
    with pytest.raises(TypeError) as raised:
        make()  # type: ignore[operator]
    assert str(raised.value) == message


class Empty(Frozen):
    pass


class Uncompared(Frozen):
    note: str = field(default="", compare=False)


def test_equality_and_hash_by_class_and_compared_values() -> None:
    for _ in range(2):  # the first comparison makes the class's getter, the second uses it
        assert Empty() == Empty() and hash(Empty()) == hash(Empty()) and Empty() != Point(1, 2)
        assert Uncompared("a") == Uncompared("b") and hash(Uncompared("a")) == hash(Uncompared())
    assert Point(1, 2) != Other(1, 2)
    assert Point(1, 2) != Point(2, 1)
    assert Point(1, 2) != (1, 2, 0)
    assert len({Point(1, 2), Point(1, 2), Other(1, 2)}) == 2
    assert Tagged("a", note="one") == Tagged("a", note="two")
    assert Tagged("a") != Tagged("b")


def test_repr_names_every_field() -> None:
    assert repr(Point(1, 2)) == "Point(x=1, y=2, z=0)"
    assert repr(Tagged("a")) == "Tagged(label='a', tags=[], note='')"


def test_assignment_is_refused_as_by_a_frozen_dataclass() -> None:
    point = Point(1, 2)
    with pytest.raises(FrozenInstanceError):
        point.x = 5  # type: ignore[misc]
    with pytest.raises(FrozenInstanceError):
        del point.y  # type: ignore[misc]
    assert point == Point(1, 2)


def test_replace_makes_a_changed_copy() -> None:
    point = Named(1, 2, name="a")
    assert point.replace(y=5) == Named(1, 5, name="a")
    assert point == Named(1, 2, name="a")
    with pytest.raises(TypeError, match="no field 'w'"):
        point.replace(w=1)


def test_matching_by_position() -> None:
    match Other(4, 5):
        case Point(x, y):
            found = ("point", x, y)
        case Other(x, y):
            found = ("other", x, y)
    assert found == ("other", 4, 5)


@pytest.mark.parametrize("record", [Point(1, 2, 3), Named(1, 2, name="n"), Tagged("a", ["b"]),
                                    Counter(4), Loose(3), WithDescriptor(5)])
def test_pickles_and_copies_are_equal(record: object) -> None:
    assert pickle.loads(pickle.dumps(record)) == record
    assert copy.copy(record) == record
    assert copy.deepcopy(record) == record


def test_fields_are_slots_unless_asked_otherwise() -> None:
    assert not hasattr(Point(1, 2), "__dict__") and Point.__slots__ == ("x", "y", "z")
    assert Named.__slots__ == ("name",)
    assert Loose(3).__dict__ == {"value": 3}


def test_a_mutable_record_takes_assignments_and_is_not_hashable() -> None:
    counter = Counter()
    counter.count += 1
    assert counter == Counter(1)
    with pytest.raises(TypeError):
        hash(counter)
    with pytest.raises(TypeError, match="frozen exactly when its parent is"):
        class Broken(Point, frozen=False):
            pass


def test_a_descriptor_stores_its_field_and_extra_slots_are_kept() -> None:
    record = WithDescriptor(5)
    assert record.number == 5 and record._stored == "5" and record.plain == 1
    assert WithDescriptor._fields == ("number", "plain")
    assert WithDescriptor.__slots__ == ("plain", "_stored")


def test_an_init_of_its_own_replaces_the_generated_one() -> None:
    assert Custom(1, 2).replace(high=3) == Custom(1, 3)
    with pytest.raises(ValueError, match="low above high"):
        Custom(2, 1)


@pytest.mark.process
def test_making_records_loads_neither_dataclasses_nor_typing() -> None:
    script = (
        "from __future__ import annotations\n"
        "import sys\n"
        "from prc_tools.frozen import Frozen, field\n"
        "class R(Frozen):\n"
        "    a: int\n"
        "    b: list[int] = field(default_factory=list)\n"
        "assert R(1) == R(1) and hash(R(1, ())) == hash(R(1, ()))\n"
        "print(' '.join(sorted(sys.modules)))\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          check=True)
    loaded = set(done.stdout.split())
    assert not loaded & {"dataclasses", "typing", "inspect"}

"""Frozen records (palmish/device/frozen.py) behave as the frozen dataclasses they replace."""

from __future__ import annotations

from dataclasses import FrozenInstanceError
from typing import ClassVar

import pytest

from palmish.device.events import CharKey, NetworkClosed, PenDown, PenUp, Rotate
from palmish.device.frozen import Frozen


class Point3(Frozen):
    x: int
    y: int
    z: int = 0
    unit: ClassVar[str] = "px"


class Named(Point3):
    name: str = ""


def test_construction_by_position_keyword_and_default() -> None:
    assert PenDown(1, 2) == PenDown(x=1, y=2) == PenDown(1, y=2)
    assert (Point3(1, 2).x, Point3(1, 2).y, Point3(1, 2).z) == (1, 2, 0)
    assert CharKey("a").command is False
    assert NetworkClosed(3).reason == ""
    assert Rotate() == Rotate()


def test_equality_and_hash_by_class_and_values() -> None:
    assert PenDown(1, 2) != PenUp(1, 2)
    assert PenDown(1, 2) != PenDown(2, 1)
    assert PenDown(1, 2) != (1, 2)
    assert len({PenDown(1, 2), PenDown(1, 2), PenUp(1, 2)}) == 2


def test_repr_names_the_fields() -> None:
    assert repr(CharKey("a")) == "CharKey(char='a', command=False)"
    assert repr(Rotate()) == "Rotate()"


def test_assignment_is_refused() -> None:
    event = PenDown(1, 2)
    with pytest.raises(FrozenInstanceError):
        event.x = 5  # type: ignore[misc]
    with pytest.raises(FrozenInstanceError):
        del event.y
    assert event == PenDown(1, 2)


@pytest.mark.parametrize("make", [
    lambda: PenDown(1),  # type: ignore[call-arg]
    lambda: PenDown(1, 2, 3),  # type: ignore[call-arg]
    lambda: PenDown(1, z=2),  # type: ignore[call-arg]
    lambda: PenDown(1, x=2),  # type: ignore[call-arg,misc]
])
def test_wrong_arguments_are_type_errors(make: object) -> None:
    with pytest.raises(TypeError):
        make()  # type: ignore[operator]


def test_matching_by_position() -> None:
    match PenUp(4, 5):
        case PenDown(x, y):
            found = ("down", x, y)
        case PenUp(x, y):
            found = ("up", x, y)
    assert found == ("up", 4, 5)


def test_class_variables_are_not_fields_and_subclasses_extend_fields() -> None:
    assert Point3._fields == ("x", "y", "z")
    assert Named(1, 2, 3, "n") == Named(x=1, y=2, z=3, name="n")
    assert Named(1, 2).name == "" and Named(1, 2).unit == "px"

"""The field checks of a plugin folder's manifest (plugin/manifest.py and the exact
rebuild's fields, plugin/manifest_exact.py): each problem is a PluginError
that starts with the manifest's path and says where in it, and what is wrong.
"""

from __future__ import annotations

from pathlib import Path, PurePosixPath
from typing import Any

from prc_tools.errors import PluginError
from prc_tools.safeyaml import brief


class FieldChecker:
    """Field checks that report `manifest.yaml: where: problem`."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def fail(self, where: str, problem: str) -> PluginError:
        return PluginError(f"{self.path}: {where}: {problem}")

    def mapping(self, value: Any, where: str, allowed: set[str]) -> dict[str, Any]:
        if not isinstance(value, dict):
            raise self.fail(where, "must be a mapping of field: value")
        unknown = sorted(str(k) for k in value if k not in allowed)
        if unknown:
            raise self.fail(where, f"unknown field {brief(unknown[0])}")
        return value

    def text(self, value: Any, where: str) -> str:
        if not isinstance(value, str) or not value:
            raise self.fail(where, "must be a non-empty text")
        return value

    def integer(self, value: Any, where: str, low: int, high: int) -> int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise self.fail(where, f"must be an integer, not {brief(value)}")
        if not low <= value <= high:
            raise self.fail(where, f"{value} is outside {low}..{high}")
        return value

    def code(self, value: Any, where: str) -> str:
        if not isinstance(value, str) or len(value) != 4 or any(ord(c) > 255 for c in value):
            raise self.fail(where, f"must be a four-character code, not {brief(value)}")
        return value

    def pair(self, value: Any, where: str, low: int, high: int) -> tuple[int, int]:
        if not isinstance(value, list) or len(value) != 2:
            raise self.fail(where, "must be a list of two integers, e.g. [24, 40]")
        return (
            self.integer(value[0], where, low, high),
            self.integer(value[1], where, low, high),
        )

    def choices(self, value: Any, where: str, allowed: tuple[Any, ...]) -> tuple[Any, ...]:
        if not isinstance(value, list) or not value:
            raise self.fail(where, f"must be a non-empty list of {listed(allowed)}")
        for item in value:
            if isinstance(item, bool) or item not in allowed:
                raise self.fail(where, f"{brief(item)} is not one of {listed(allowed)}")
        if len(set(value)) != len(value):
            raise self.fail(where, "lists a value twice")
        return tuple(value)

    def choice(self, value: Any, where: str, allowed: tuple[Any, ...]) -> Any:
        if isinstance(value, bool) or value not in allowed:
            raise self.fail(where, f"{brief(value)} is not one of {listed(allowed)}")
        return value

    def flag(self, value: Any, where: str) -> bool:
        if not isinstance(value, bool):
            raise self.fail(where, "must be true or false")
        return value

    def file(self, value: Any, where: str) -> str:
        name = self.text(value, where)
        pure = PurePosixPath(name.replace("\\", "/"))
        if pure.is_absolute() or ".." in pure.parts or ":" in name:
            raise self.fail(where, f"{brief(name)} must be a path inside the plugin folder")
        return pure.as_posix()


def listed(values: tuple[Any, ...]) -> str:
    """The values as words for a message: `a, b, c`."""
    return ", ".join(str(v) for v in values)

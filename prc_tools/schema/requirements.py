"""A schema's `required:` rules, checked on a plugin folder (build) or database (verify).

Only what the schema says: which bitmap and sound ids a kind of plugin must
carry and the size of some pictures, either fixed or a number of the plugin's
cells. Messages name the resource and, for a numbered run of bitmaps, which one.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from pathlib import Path

from prc_tools.errors import PluginError
from prc_tools.schema import BitmapRule, Schema

# Not `from typing import TYPE_CHECKING`: typing costs a quick command 3 ms to load.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Protocol

    class MemberSize(Protocol):
        """What the size check reads of a member: a decoded Member or just its header."""

        @property
        def width(self) -> int: ...

        @property
        def height(self) -> int: ...

        @property
        def density(self) -> int: ...


DENSITY = 144  # sizes in schemas and manifests are double-density pixels


def index_label(schema: Schema, rule: BitmapRule, n: int) -> str:
    """Which member of a run: `colour 1, shape 1` by the schema's placeholders, else `n 7`."""
    if schema.placeholders and rule.count == schema.placeholder_count:
        return ", ".join(f"{k} {v}" for k, v in schema.placeholder_values(n).items())
    return f"number {n}"


def wanted_size(rule: BitmapRule, cell: tuple[int, int] | None) -> tuple[int, int] | None:
    """The size (144 dpi) a rule asks for, or None when it asks for none."""
    if rule.size is not None:
        return rule.size
    if rule.cells is not None and cell is not None:
        return rule.cells[0] * cell[0], rule.cells[1] * cell[1]
    return None


def largest_size(rule: BitmapRule, cell: tuple[int, int] | None) -> tuple[int, int] | None:
    """The largest size (144 dpi) a rule allows, or None when it sets no bound."""
    if rule.max_cells is not None and cell is not None:
        return rule.max_cells[0] * cell[0], rule.max_cells[1] * cell[1]
    return None


def _too_big(size: tuple[int, int], limit: tuple[int, int] | None) -> bool:
    return limit is not None and (size[0] > limit[0] or size[1] > limit[1])


def rule_for(schema: Schema, kind: str, id_: int) -> BitmapRule | None:
    for rule in schema.rules(kind).bitmaps:
        if rule.id <= id_ < rule.id + rule.count:
            return rule
    return None


# ---------------------------------------------------------------- build


def check_folder_ids(
    schema: Schema, kind: str, bitmap_ids: Collection[int], sound_ids: Collection[int],
    path: Path,
) -> None:
    """Before any slow work: every bitmap and sound the schema requires is in the manifest."""
    rules = schema.rules(kind)
    for rule in rules.bitmaps:
        missing = [i for i in range(rule.id, rule.id + rule.count) if i not in bitmap_ids]
        if not missing:
            continue
        if rule.count == 1:
            raise PluginError(f"{path}: {rule.label()} (Tbmp {rule.id}) is missing")
        first = missing[0]
        raise PluginError(
            f"{path}: {len(missing)} of the {rule.count} {rule.label()} are missing"
            f" (first: Tbmp {first}, {index_label(schema, rule, first - rule.id)})"
        )
    for sound in rules.sounds:
        if sound.id not in sound_ids:
            what = f"the {sound.name} sound" if sound.name else "a sound"
            raise PluginError(f"{path}: {what} ('wave' {sound.id}) is missing")


def check_picture_size(
    schema: Schema, kind: str, id_: int, cell: tuple[int, int] | None,
    size: tuple[int, int], path: Path,
) -> None:
    """A source picture (before density scaling) has the size the schema asks for."""
    rule = rule_for(schema, kind, id_)
    if rule is not None and _too_big(size, largest := largest_size(rule, cell)):
        assert largest is not None and rule.max_cells is not None and cell is not None
        raise PluginError(
            f"{path}: {rule.label()} is {size[0]}x{size[1]}, at most {largest[0]}x{largest[1]}"
            f" ({rule.max_cells[0]}x{rule.max_cells[1]} cells of {cell[0]}x{cell[1]})")
    want = wanted_size(rule, cell) if rule is not None else None
    if rule is None or want is None or size == want:
        return
    why = ""
    if rule.cells is not None and cell is not None:
        why = f" ({rule.cells[0]}x{rule.cells[1]} cells of {cell[0]}x{cell[1]})"
    raise PluginError(f"{path}: {rule.label()} is {size[0]}x{size[1]},"
                      f" must be {want[0]}x{want[1]}{why}")


# ---------------------------------------------------------------- verify


def check_database(
    schema: Schema, kind: str, cell: tuple[int, int] | None,
    bitmaps: Mapping[int, Sequence[MemberSize]], sound_ids: Collection[int],
) -> None:
    """A built plugin carries what the schema requires, at the sizes it asks for."""
    rules = schema.rules(kind)
    runs = [(rule, id_) for rule in rules.bitmaps for id_ in range(rule.id, rule.id + rule.count)]
    for rule, id_ in runs:  # everything there first, then the sizes
        if id_ not in bitmaps:
            raise PluginError(f"Tbmp {id_} ({_what(schema, rule, id_)}) is missing")
    for rule, id_ in runs:
        largest = largest_size(rule, cell)
        for member in bitmaps[id_] if largest is not None else []:
            assert largest is not None
            bound = (largest[0] * member.density // DENSITY,
                     largest[1] * member.density // DENSITY)
            if _too_big((member.width, member.height), bound):
                raise PluginError(
                    f"Tbmp {id_} ({_what(schema, rule, id_)}) is {member.width}x{member.height}"
                    f" at {member.density} dpi, at most {bound[0]}x{bound[1]}"
                )
        want = wanted_size(rule, cell)
        for member in bitmaps[id_] if want is not None else []:
            assert want is not None
            scaled = (want[0] * member.density // DENSITY, want[1] * member.density // DENSITY)
            if (member.width, member.height) != scaled:
                raise PluginError(
                    f"Tbmp {id_} ({_what(schema, rule, id_)}) is {member.width}x{member.height}"
                    f" at {member.density} dpi, must be {scaled[0]}x{scaled[1]}"
                )
    for sound in rules.sounds:
        if sound.id not in sound_ids:
            raise PluginError(f"'wave' {sound.id} ({sound.name or 'a sound'}) is missing")


def _what(schema: Schema, rule: BitmapRule, id_: int) -> str:
    if rule.count == 1:
        return rule.label()
    return f"{rule.name or rule.label()} {index_label(schema, rule, id_ - rule.id)}"

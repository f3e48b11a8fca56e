"""A schema's `required:` rules, checked on a plugin folder (build) or database (verify).

Only what the schema says: which bitmap and sound ids a kind of plugin must
carry, which it may leave out (said at build time), and the sizes of its
pictures (judged by prc_tools/schema/sizes.py). Messages name the resource and,
for a numbered run of bitmaps, which one.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from pathlib import Path

from prc_tools.errors import PluginError
from prc_tools.schema import BitmapRule, Schema
from prc_tools.schema.sizes import judge, member_name, odd_halving, run_outliers

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


def rule_for(schema: Schema, kind: str, id_: int) -> BitmapRule | None:
    """The rule (required or optional) that speaks of bitmap `id_` of a kind of plugin."""
    rules = schema.rules(kind)
    for rule in (*rules.bitmaps, *rules.optional):
        if rule.id <= id_ < rule.id + rule.count:
            return rule
    return None


# ---------------------------------------------------------------- build

OPTIONAL_ART = "optional art not given"  # prc_tools/cli.py prints such lines as notes


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
            f"{path}: {member_name(schema, rule, first)} (Tbmp {first}) is missing"
            f" ({len(missing)} of the {rule.count} {rule.label()} are;"
            f" {schema.title} needs them all)"
        )
    for sound in rules.sounds:
        if sound.id not in sound_ids:
            what = f"the {sound.name} sound" if sound.name else "a sound"
            raise PluginError(f"{path}: {what} ('wave' {sound.id}) is missing")


def missing_optional(schema: Schema, kind: str, bitmap_ids: Collection[int]) -> list[str]:
    """One line for each optional picture the plugin leaves out, saying what the game
    does without it (so that it is said at build time, not found on the device)."""
    lines = []
    for rule in schema.rules(kind).optional:
        missing = [i for i in range(rule.id, rule.id + rule.count) if i not in bitmap_ids]
        if not missing:
            continue
        if rule.count == 1:
            what = f"{rule.label()} (Tbmp {rule.id})"
        elif len(missing) == rule.count:
            what = f"{rule.label()} (Tbmp {rule.id}..{rule.id + rule.count - 1})"
        else:
            what = (f"{len(missing)} of the {rule.count} {rule.label()} (first: Tbmp"
                    f" {missing[0]}, {member_name(schema, rule, missing[0])})")
        note = f": {rule.note}" if rule.note else ""
        lines.append(f"{OPTIONAL_ART}: {what}{note}")
    return lines


def check_picture_size(
    schema: Schema, kind: str, id_: int, cell: tuple[int, int] | None,
    size: tuple[int, int], path: Path, configs: Sequence[str] = (),
) -> list[str]:
    """A source picture (before density scaling) has a size the schema allows for the
    slots the plugin serves: PluginError if not, else the warnings about it."""
    rule = rule_for(schema, kind, id_)
    if rule is None:
        return []
    problem, warnings = judge(schema, rule, id_, cell, configs, size)
    if problem is not None:
        hint = f" — see the template (prc-tools new {schema.game} {kind})"
        raise PluginError(f"{path}: {problem}{hint}")
    half = odd_halving(size) if "square" in configs else None
    if half is not None and (rule.cells is not None or rule.usual_cells is not None):
        warnings.append(half)
    return [f"{path}: {warning}" for warning in warnings]


def run_warnings(schema: Schema, kind: str,
                 sizes: Mapping[int, tuple[str, tuple[int, int]]]) -> list[str]:
    """A picture of a run (the 36 tiles) whose size differs from most of the run's."""
    lines = []
    rules = schema.rules(kind)
    for rule in (*rules.bitmaps, *rules.optional):
        if rule.count < 3:
            continue
        run = {i: sizes[i] for i in range(rule.id, rule.id + rule.count) if i in sizes}
        for name, size, common in run_outliers(run):
            lines.append(f"{name}: {size[0]}x{size[1]} pixels, but the other {rule.label()}"
                         f" are {common[0]}x{common[1]}")
    return lines


# ---------------------------------------------------------------- verify


def check_database(
    schema: Schema, kind: str, cell: tuple[int, int] | None,
    bitmaps: Mapping[int, Sequence[MemberSize]], sound_ids: Collection[int],
    configs: Sequence[str] = (),
) -> list[str]:
    """A built plugin carries what the schema requires, at the sizes it allows for the
    slots it serves: PluginError at the first problem, else the warnings."""
    rules = schema.rules(kind)
    runs = [(rule, id_) for rule in rules.bitmaps for id_ in range(rule.id, rule.id + rule.count)]
    for rule, id_ in runs:  # everything there first, then the sizes
        if id_ not in bitmaps:
            raise PluginError(f"Tbmp {id_} ({_what(schema, rule, id_)}) is missing")
    runs += [(rule, id_) for rule in rules.optional
             for id_ in range(rule.id, rule.id + rule.count) if id_ in bitmaps]
    warnings: list[str] = []
    for rule, id_ in runs:
        for member in bitmaps[id_]:
            problem, said = judge(schema, rule, id_, cell, configs,
                                  (member.width, member.height), member.density)
            if problem is not None:
                raise PluginError(f"Tbmp {id_} ({_what(schema, rule, id_)}): {problem}")
            warnings += [f"Tbmp {id_} ({_what(schema, rule, id_)}): {line}" for line in said]
    for sound in rules.sounds:
        if sound.id not in sound_ids:
            raise PluginError(f"'wave' {sound.id} ({sound.name or 'a sound'}) is missing")
    return list(dict.fromkeys(warnings))  # once, not once per depth


def _what(schema: Schema, rule: BitmapRule, id_: int) -> str:
    return member_name(schema, rule, id_)

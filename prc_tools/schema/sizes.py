"""Picture sizes judged against a game's schema: refused, warned about, or fine.

A rule (prc_tools/schema/__init__.py, `BitmapRule`) gives an exact size
(`cells`, `size`), bounds (`min_cells`, `max_cells`) or the size the game's own
art has (`usual_cells`). A picture off an exact size, outside the bounds, or the
usual size of another display slot (a Wide tile in a Square plugin) is refused;
one within the bounds but off the usual size builds with a warning. Sizes are
144-dpi pixels; `density` scales them for a database's lower-density members.
Messages say the size found, what is expected, in which slots and why.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from prc_tools.schema import BitmapRule, Schema

DENSITY = 144  # sizes in schemas and manifests are double-density pixels
Size = tuple[int, int]


def slots_text(slots: Iterable[str]) -> str:
    """`square, tall` -> `Square and Tall` (how the docs and the device name slots)."""
    names = [slot.title() for slot in slots]
    return " and ".join(names) if len(names) <= 2 else ", ".join(names[:-1]) + " and " + names[-1]


def member_name(schema: Schema, rule: BitmapRule, id_: int) -> str:
    """What one picture of a rule is: `fire`, `tile colour 1, shape 2`, `the board`."""
    if rule.count == 1:
        return rule.label()
    n = id_ - rule.id
    if schema.placeholders and rule.count == schema.placeholder_count:
        values = schema.placeholder_values(n).items()
        if all(k in schema.placeholder_names for k, _ in values):
            return " ".join([rule.name or "Tbmp", *(schema.placeholder_names[k][v]
                                                    for k, v in values)])
        digits = ", ".join(f"{k} {v}" for k, v in values)
        return f"{rule.name or 'Tbmp'} {digits}"
    if rule.like is not None:
        word = (rule.what or rule.name or "Tbmp").split()[0]
        return f"{word} {_named(schema, rule.like + n) or n}"
    return _named(schema, id_) or f"{rule.name or 'Tbmp'} {n}"


def file_stem(name: str) -> str:
    """A file-name-safe form of a picture's name: `tile red star` -> `tile-red-star`,
    `tile colour 1, shape 2` -> `tile-1-2`, `the board` -> `board`."""
    name = re.sub(r"\b(colour|shape|the)\b", "", name.lower())
    return re.sub(r"[^a-z0-9]+", "-", name).strip("-") or "picture"


def _named(schema: Schema, id_: int) -> str | None:
    names = [name for name, value in schema.bitmaps.items() if value == id_]
    return max(names, key=len) if names else None  # `vitae`, not `atom`; `pawn_red`


def _scaled(size: Size, density: int) -> Size:
    return size[0] * density // DENSITY, size[1] * density // DENSITY


def _times(cells: Size, cell: Size) -> Size:
    return cells[0] * cell[0], cells[1] * cell[1]


def _text(size: Size) -> str:
    return f"{size[0]}x{size[1]}"


def _other_slot(schema: Schema, cells: Size | None, configs: Sequence[str], size: Size,
                density: int) -> str | None:
    """The slot (not served) whose cell would make `size` right for `cells`, if any."""
    if cells is None:
        return None
    for slot, cell in schema.cell_sizes.items():
        if slot not in configs and _scaled(_times(cells, cell), density) == size:
            return slot.title()
    return None


def judge(
    schema: Schema, rule: BitmapRule, id_: int, cell: Size | None, configs: Sequence[str],
    size: Size, density: int = DENSITY,
) -> tuple[str | None, list[str]]:
    """(why the picture is refused or None, warnings) for picture `id_` of `rule`.

    `cell` is the plugin's cell (144 dpi), `configs` the slots it serves, `size`
    the picture's at `density`.
    """
    what = member_name(schema, rule, id_)
    be = "are" if rule.count > 1 and what == rule.label() else "is"
    where = f" in {slots_text(configs)}" if configs and cell is not None else ""
    found = f"{_text(size)} pixels"
    dpi = f" at {density} dpi" if density != DENSITY else ""
    exact = rule.size if rule.size is not None else (
        _times(rule.cells, cell) if rule.cells is not None and cell is not None else None)
    if exact is not None:
        want = _scaled(exact, density)
        if size == want:
            return None, []
        why = ""
        if rule.cells is not None and cell is not None:
            why = f" ({rule.cells[0]}x{rule.cells[1]} cells of {_text(cell)})"
        other = _other_slot(schema, rule.cells, configs, size, density)
        hint = f" ({_text(size)} is the {other} size)" if other else ""
        return f"{found}; {what} {be} {_text(want)}{dpi}{where}{why}{hint}", []
    if cell is None:
        return None, []
    if rule.max_cells is not None:
        largest = _scaled(_times(rule.max_cells, cell), density)
        if size[0] > largest[0] or size[1] > largest[1]:
            return (f"{found}; {what} {be} at most {_text(largest)}{dpi}{where}"
                    f" ({rule.max_cells[0]}x{rule.max_cells[1]} cells of {_text(cell)})"), []
    if rule.min_cells is not None:
        smallest = _scaled(_times(rule.min_cells, cell), density)
        if size[0] < smallest[0] or size[1] < smallest[1]:
            return (f"{found}; {what} {be} at least {_text(smallest)}{dpi}{where}"
                    " (a smaller picture leaves gaps between the cells)"), []
    if rule.usual_cells is None:
        return None, []
    usual = _scaled(_times(rule.usual_cells, cell), density)
    if size == usual:
        return None, []
    other = _other_slot(schema, rule.usual_cells, configs, size, density)
    if other is not None:
        return (f"{found} is the {other} size; {what} {be} {_text(usual)}{dpi}{where}"
                " (draw the other slot's pictures in a plugin of their own)"), []
    return None, [f"{found}, not the usual {_text(usual)}{dpi}{where}: it covers part of the"
                  " neighbouring cells (fine for a shadow or a raised edge; `anchor` places it)"]


def odd_halving(size: Size) -> str | None:
    """Why a 144-dpi size halves badly for the 160x160 screen, or None."""
    if size[0] % 2 == 0 and size[1] % 2 == 0:
        return None
    return (f"{_text(size)} pixels halve to {_text((size[0] // 2, size[1] // 2))} for the"
            " 160x160 screen (72 dpi), losing a row or column: prefer even sizes")


def run_outliers(sizes: dict[int, tuple[str, Size]]) -> list[tuple[str, Size, Size]]:
    """(file, its size, the others' size) for each picture of a run whose size is not
    the one most of the run has (one 25x41 tile among 24x40 ones)."""
    if len(sizes) < 3:
        return []
    counts: dict[Size, int] = {}
    for _, size in sizes.values():
        counts[size] = counts.get(size, 0) + 1
    common = max(counts, key=lambda s: counts[s])
    if counts[common] * 2 <= len(sizes):
        return []
    return [(name, size, common) for _, (name, size) in sorted(sizes.items())
            if size != common]

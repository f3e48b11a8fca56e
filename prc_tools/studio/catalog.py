"""Every picture and sound a kind of plugin has, as its game's schema describes them:
names, files, sizes in each display slot, required or not. `prc-tools new` draws
templates from it, `extract` names files by it, the docs' tables are checked
against it.
"""

from __future__ import annotations

from prc_tools.frozen import Frozen
from prc_tools.plugin.pinf import GRID_KINDS, LANDSCAPE
from prc_tools.schema import BitmapRule, Schema
from prc_tools.schema.sizes import file_stem, member_name

Size = tuple[int, int]
DEFAULT_CELLS = (2, 2)  # a template for art the game repeats to fill (panel, field)


class Picture(Frozen):
    """One bitmap of a kind of plugin."""

    id: int
    name: str  # what it is: `fire`, `tile colour 1, shape 2`, `the board`
    stem: str  # its file name without `.png`: `fire`, `tile-1-2`, `board`
    rule: BitmapRule
    required: bool
    folder: str  # the sub-folder a run's files go in ('' for single pictures)

    def size(self, cell: Size | None) -> Size | None:
        """Its size (144 dpi) for the plugin's cell: the exact or usual one, else the
        smallest allowed, else a small repeated tile; None without a cell or size."""
        if self.rule.size is not None:
            return self.rule.size
        cells = (self.rule.cells or self.rule.usual_cells or self.rule.min_cells
                 or DEFAULT_CELLS)
        return None if cell is None else (cells[0] * cell[0], cells[1] * cell[1])

    @property
    def exact(self) -> bool:
        """Whether the game takes this size only (else a range, or any size)."""
        return self.rule.size is not None or self.rule.cells is not None


class SoundItem(Frozen):
    id: int
    name: str
    required: bool


def slug(text: str) -> str:
    """A file-name-safe form (prc_tools/schema/sizes.py `file_stem`)."""
    return file_stem(text)


def pictures(schema: Schema, kind: str) -> list[Picture]:
    """The kind's pictures, required ones first, in id order within each rule."""
    rules = schema.rules(kind)
    found = []
    for required, group in ((True, rules.bitmaps), (False, rules.optional)):
        for rule in group:
            word = (rule.what or rule.name or "pictures").split()[0]  # `tiles`, `atoms`
            folder = slug(word) if rule.count > 1 else ""
            for id_ in range(rule.id, rule.id + rule.count):
                name = member_name(schema, rule, id_)
                stem = slug(rule.name) if rule.count == 1 and rule.name else slug(name)
                for prefix in (folder, slug(rule.name) if rule.name else ""):
                    if prefix and stem.startswith(prefix + "-"):
                        stem = stem[len(prefix) + 1:]
                found.append(Picture(id=id_, name=name, stem=stem or str(id_), rule=rule,
                                     required=required, folder=folder))
    return found


def sounds(schema: Schema, kind: str) -> list[SoundItem]:
    """The sounds a kind of plugin carries: every sound the game names for a sound kind
    (the required ones marked), none for the others."""
    required = {rule.id for rule in schema.rules(kind).sounds}
    if kind != "sound" and not required:
        return []
    return [SoundItem(id=id_, name=name, required=id_ in required)
            for name, id_ in schema.sounds.items()]


def kinds(schema: Schema) -> list[str]:
    """The kinds `prc-tools new` can make for a game: those with sounds, or pictures whose
    sizes the schema gives (a kind without a cell and without sizes has no template),
    or sample files (a kind of data, such as levels)."""
    made = []
    for kind in schema.types:
        if kind in schema.samples:
            made.append(kind)
            continue
        cell = cell_for(schema, kind, default_configs(schema, kind))
        drawn = pictures(schema, kind)
        sized = all(p.size(cell) is not None for p in drawn if p.required)
        if (drawn and sized) or sounds(schema, kind):  # else the schema gives no size
            made.append(kind)
    return made


def cell_for(schema: Schema, kind: str, configs: tuple[str, ...]) -> Size | None:
    """The cell a Board or Pieces plugin serving `configs` gives (None for other kinds)."""
    if kind not in GRID_KINDS or not schema.cell_sizes:
        return None
    return schema.cell_sizes.get(configs[0])


def default_configs(schema: Schema, kind: str, asked: tuple[str, ...] = ()) -> tuple[str, ...]:
    """The slots a new folder serves: those asked for, else every slot whose cell is the
    first slot's (a game whose wide cell differs gets the portrait slots), else all."""
    if asked:
        return asked
    if kind not in GRID_KINDS:
        return schema.configs
    first = schema.configs[0]
    same = tuple(s for s in schema.configs
                 if schema.cell_sizes.get(s) == schema.cell_sizes.get(first)
                 and (schema.one_cell_shape or (s in LANDSCAPE) == (first in LANDSCAPE)))
    return same or (first,)

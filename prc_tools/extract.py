"""Plugin databases back into folders: `extract`, and `equivalent` to check the trip.

`extract` writes any database as a folder that `plugin.build_folder` turns
back into an equivalent database: bitmaps as PNG (plus exact member PNGs where
re-encoding the main one would not reproduce a member), plain 'wave' sounds
as WAV, everything else as .bin, and a manifest.yaml. docs/prc-tools.md
defines "equivalent".
"""

from __future__ import annotations

import contextlib
import shutil
import tempfile
from pathlib import Path
from typing import Any

from PIL import Image

from prc_tools import bitmap, safeyaml, sound
from prc_tools.database import ATTR_RESOURCE, Database, Resource
from prc_tools.errors import PluginError, PrcError
from prc_tools.manifest import BITMAP_TYPES, BitmapSpec
from prc_tools.pinf import INFO_ID, INFO_TYPE, MAX_INFO_BYTES
from prc_tools.pinf import read as read_header
from prc_tools.plugin import WAVE_TYPE, MemberKey, encode_bitmap, yaml_text
from prc_tools.schema import registry


def extract(db: Database, out: Path) -> Path:
    """Write `db` as a plugin folder at `out` (which must not exist or be empty).

    The folder is assembled beside `out` and renamed into place, so a failure
    leaves nothing half-written. File names come from resource types and ids,
    sanitised, so no name in the database can point outside `out`.
    """
    out = Path(out)
    if out.exists() and (not out.is_dir() or any(out.iterdir())):
        raise PluginError(f"{out}: exists and is not an empty folder")
    out.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{out.name}.", dir=out.parent))
    try:
        _Extractor(db, staging).run()
        if out.exists():
            out.rmdir()
        staging.rename(out)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    return out


def safe_code(code: str) -> str:
    """A type code as a file-name part: letters and digits kept, anything else %XX."""
    return "".join(
        c if c.isascii() and c.isalnum() else f"%{ord(c) & 0xFF:02X}" for c in code
    )


class _Extractor:
    def __init__(self, db: Database, folder: Path) -> None:
        self.db = db
        self.folder = folder
        self.used: set[str] = set()
        self.made: set[str] = set()  # sub-folders already created
        # Bitmaps past the per-file decode budget are kept as raw .bin resources.
        self.budget = bitmap.DecodeBudget()
        self.manifest: dict[str, Any] = {}

    def file_name(self, subdir: str, stem: str, suffix: str) -> str:
        """A unique relative path (unique even on case-insensitive file systems)."""
        candidate = f"{subdir}/{stem}{suffix}"
        number = 2
        while candidate.lower() in self.used:
            candidate = f"{subdir}/{stem}-{number}{suffix}"
            number += 1
        self.used.add(candidate.lower())
        if subdir not in self.made:
            (self.folder / subdir).mkdir(exist_ok=True)
            self.made.add(subdir)
        return candidate

    def write(self, subdir: str, stem: str, suffix: str, data: bytes) -> str:
        name = self.file_name(subdir, stem, suffix)
        (self.folder / name).write_bytes(data)
        return name

    def run(self) -> None:
        db = self.db
        m = self.manifest
        m["name"] = db.name
        info = self.plugin_info()
        if info is not None:
            m.update(info)
        m["type"] = db.type
        m["creator"] = db.creator
        extra_attributes = db.attributes & ~ATTR_RESOURCE
        if extra_attributes:
            m["attributes"] = extra_attributes
        if info is None:
            m["version"] = db.version
        if db.is_resource:
            self.resources(skip_info=info is not None)
        else:
            self.records()
        text = yaml_text(m)
        (self.folder / "manifest.yaml").write_text(
            "# Written by prc-tools extract; `prc-tools build` turns it back into a database.\n"
            + text,
            encoding="utf-8",
        )

    def plugin_info(self) -> dict[str, Any] | None:
        """Manifest fields from a 'pINF' that `build` can regenerate, else None."""
        if not self.db.is_resource:
            return None
        try:  # codes included: a header its game's schema refuses stays a raw resource
            info = read_header(self.db, registry()).fields
        except PluginError:
            return None
        fields = ("game", "kind", "version", "author", "configs", "cell", "anchor",
                  "lifted_anchor")
        out = {key: info[key] for key in fields if key in info}
        extra = {k: v for k, v in info.items() if k not in fields}
        if extra.get("name") == self.db.name:
            del extra["name"]
        if extra:
            out["info"] = extra
        return out

    def resources(self, skip_info: bool) -> None:
        bitmaps: list[dict[str, Any]] = []
        sounds: list[dict[str, Any]] = []
        raws: list[dict[str, Any]] = []
        for res in self.db.resources:
            if skip_info and res.type == INFO_TYPE and res.id == INFO_ID:
                continue
            stem = f"{safe_code(res.type)}-{res.id}"
            entry: dict[str, Any] | None = None
            if res.type in BITMAP_TYPES:
                entry = self.bitmap_entry(res, stem)
                if entry is not None:
                    bitmaps.append(entry)
            elif res.type == WAVE_TYPE:
                entry = self.sound_entry(res, stem)
                if entry is not None:
                    sounds.append(entry)
            if entry is None:
                name = self.write("resources", stem, ".bin", res.data)
                raws.append({"file": name, "type": res.type, "id": res.id})
        for key, entries in (("bitmaps", bitmaps), ("sounds", sounds), ("resources", raws)):
            if entries:
                self.manifest[key] = entries

    def sound_entry(self, res: Resource, stem: str) -> dict[str, Any] | None:
        try:
            wav = sound.read_wave_resource(res.data)
        except PrcError:
            return None
        name = self.write("sounds", stem, ".wav", res.data)
        return {"file": name, "id": res.id, "rate": wav.rate, "bits": wav.bits}

    def bitmap_entry(self, res: Resource, stem: str) -> dict[str, Any] | None:
        """A bitmap as a PNG (plus exact member PNGs where needed), or None for raw."""
        try:
            members = bitmap.decode(res.data, self.budget)
        except PrcError:
            return None
        densities = sorted({m.density for m in members}, reverse=True)
        depths = sorted({m.depth for m in members}, reverse=True)
        keys = [(m.density, m.depth) for m in members]
        if len(set(keys)) != len(keys) or len(keys) != len(densities) * len(depths):
            return None  # not a full density x depth grid: a manifest cannot say it
        codecs = {m.compression for m in members}
        spec = BitmapSpec(
            file="", type=res.type, id=res.id, densities=tuple(densities),
            depths=tuple(depths), compression=codecs.pop() if len(codecs) == 1 else "best",
            dither=False,
        )
        top = max(members, key=lambda m: (m.density, m.depth))
        overrides: dict[MemberKey, Image.Image] = {}
        for _attempt in range(2):
            try:
                rebuilt = bitmap.decode(encode_bitmap(top.image, spec, overrides))
            except PrcError:
                return None
            wrong = _differing_members(members, rebuilt)
            if not wrong:
                break
            for key in wrong:
                overrides[key] = next(m.image for m in members if (m.density, m.depth) == key)
        else:
            return None  # even exact member pictures do not reproduce it
        entry: dict[str, Any] = {"file": self.write_png(stem, top.image), "id": res.id}
        if res.type != "Tbmp":
            entry["type"] = res.type
        entry["densities"] = densities
        entry["depths"] = depths
        entry["compression"] = spec.compression
        if overrides:
            entry["members"] = {
                f"{density}x{depth}": self.write_png(f"{stem}@{density}x{depth}", image)
                for (density, depth), image in sorted(overrides.items(), reverse=True)
            }
        return entry

    def write_png(self, stem: str, image: Image.Image) -> str:
        name = self.file_name("bitmaps", stem, ".png")
        image.save(self.folder / name, format="PNG")
        return name

    def records(self) -> None:
        db = self.db
        if db.app_info is not None:
            self.manifest["app_info"] = self.write(".", "app_info", ".bin", db.app_info)
        if db.sort_info is not None:
            self.manifest["sort_info"] = self.write(".", "sort_info", ".bin", db.sort_info)
        self.manifest["records"] = [
            {"file": self.write("records", f"{index:04d}", ".bin", rec.data),
             "attributes": rec.attributes, "unique_id": rec.unique_id}
            for index, rec in enumerate(db.records)
        ]


def pixels(image: Image.Image) -> bytes:
    """RGBA bytes with every fully transparent pixel zeroed (its colour is meaningless)."""
    rgba = image.convert("RGBA")
    alpha = rgba.getchannel("A")
    clear = Image.new("RGBA", rgba.size, (0, 0, 0, 0))
    return Image.composite(rgba, clear, alpha.point(lambda a: 255 if a else 0)).tobytes()


def _differing_members(
    original: list[bitmap.Member], rebuilt: list[bitmap.Member]
) -> list[MemberKey]:
    by_key = {(m.density, m.depth): m for m in rebuilt}
    wrong = []
    for m in original:
        other = by_key.get((m.density, m.depth))
        if other is None or other.image.size != m.image.size or pixels(other.image) != pixels(
            m.image
        ):
            wrong.append((m.density, m.depth))
    return wrong


def equivalent(a: Database, b: Database) -> list[str]:
    """How two databases differ as `extract`+`build` must preserve them ([] = equivalent).

    Same name, type, creator, kind and items; 'pINF' compared parsed; bitmaps
    compared by members' pixels; 'wave' by format and samples; the rest by bytes.
    """
    problems = [
        f"{what}: {x!r} != {y!r}"
        for what, x, y in (
            ("name", a.name, b.name), ("type", a.type, b.type),
            ("creator", a.creator, b.creator), ("resource database", a.is_resource, b.is_resource),
            ("attributes", a.attributes, b.attributes),
        )
        if x != y
    ]
    if not a.is_resource:
        if [(r.data, r.attributes, r.unique_id) for r in a.records] != [
            (r.data, r.attributes, r.unique_id) for r in b.records
        ]:
            problems.append("records differ")
        if (a.app_info, a.sort_info) != (b.app_info, b.sort_info):
            problems.append("appInfo/sortInfo differ")
        return problems
    left = {(r.type, r.id): r.data for r in a.resources}
    right = {(r.type, r.id): r.data for r in b.resources}
    if left.keys() != right.keys():
        problems.append(f"resources differ: {sorted(left.keys() ^ right.keys())}")
    for key in sorted(left.keys() & right.keys()):
        if not _same_resource(key, left[key], right[key]):
            problems.append(f"{key[0]} {key[1]} differs")
    return problems


def _same_resource(key: tuple[str, int], x: bytes, y: bytes) -> bool:
    if x == y:
        return True
    type_, id_ = key
    with contextlib.suppress(PrcError):  # safeyaml's YamlError is one
        if type_ == INFO_TYPE and id_ == INFO_ID:
            return bool(safeyaml.load(x, MAX_INFO_BYTES) == safeyaml.load(y, MAX_INFO_BYTES))
        if type_ in BITMAP_TYPES:
            mx, my = bitmap.decode(x), bitmap.decode(y)
            return len(mx) == len(my) and not _differing_members(mx, my)
        if type_ == WAVE_TYPE:
            sx, sy = sound.read_wav(x), sound.read_wav(y)
            return (sx.rate, sx.bits, sx.channels, sx.data) == (sy.rate, sy.bits, sy.channels,
                                                                 sy.data)
    return False

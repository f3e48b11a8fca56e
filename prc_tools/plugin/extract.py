"""Plugin databases back into folders: `extract`, and `equivalent` to check the trip.

`extract` writes any database as a folder that `plugin.build_folder` turns
back into the same bytes: bitmaps as one PNG per member (plus the original
bytes, from which unedited members are kept), plain 'wave' sounds as WAV,
everything else as .bin, and a manifest.yaml holding the header fields, the
resource order and any odd layout. docs/prc-tools.md gives the promise;
`equivalent` checks the weaker one for databases edited in between.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import tempfile
from collections import Counter
from pathlib import Path
from typing import Any

from prc_tools import bitmap, safeyaml
from prc_tools.bitmap.splice import visible_pixels
from prc_tools.database import ATTR_RESOURCE, GAP, NAME_FIELD_SIZE, Database
from prc_tools.errors import PluginError, PrcError
from prc_tools.plugin.build import build_files, info_bytes, yaml_text
from prc_tools.plugin.folder import MemoryFiles
from prc_tools.plugin.manifest import DEFAULT_IF_NAMED
from prc_tools.plugin.manifest_exact import DATE_FIELDS, FlowPair, date_value
from prc_tools.plugin.pinf import INFO_ID, INFO_TYPE, MAX_INFO_BYTES, find
from prc_tools.plugin.pinf import read as read_header
from prc_tools.plugin.resource_codes import GAME_BITMAP_TYPE
from prc_tools.plugin.resources import PLUGIN_INFO, RAW, handler_for, sections
from prc_tools.schema import registry

MANIFEST_NAME = "manifest.yaml"


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
    # The folder must build back to the same bytes (docs/prc-tools.md). Should
    # plugin fields not give the same 'pINF' back (or break a game rule), the
    # 'pINF' stays raw; should anything else fail, every resource does. Each try
    # is built from the bytes it would write, so only the one kept is written.
    expected = db.to_bytes()
    staging = Path(tempfile.mkdtemp(prefix=f".{out.name}.", dir=out.parent))
    try:
        attempt = _Extractor(db, staging, as_plugin=True, decoded=True)
        attempt.run()
        for as_plugin, decoded in [(False, True)] * attempt.as_plugin + [(False, False)]:
            if attempt.rebuilds(expected):
                break
            attempt = _Extractor(db, staging, as_plugin, decoded)
            attempt.run()
        attempt.save()
        if out.exists():
            out.rmdir()
        staging.rename(out)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    return out


def write_new_files(folder: Path, files: list[tuple[str, bytes]]) -> None:
    """Create each (relative name, bytes) in the empty `folder`, sub-folders as needed.

    Through one open descriptor per sub-folder where the platform allows it:
    thousands of files, and each path looked up again costs measurably.
    """
    opened: dict[str, int] = {}  # sub-folder -> descriptor (or -1: write by path)
    try:
        for name, data in files:
            parent, _, base = name.rpartition("/")
            if parent not in opened:
                (folder / parent).mkdir(exist_ok=True)
                opened[parent] = -1
                if os.open in os.supports_dir_fd:
                    opened[parent] = os.open(folder / parent, os.O_RDONLY | os.O_DIRECTORY)
            if opened[parent] < 0:
                (folder / name).write_bytes(data)
                continue
            fd = os.open(base, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666, dir_fd=opened[parent])
            try:
                view = memoryview(data)
                while view:
                    view = view[os.write(fd, view):]
            finally:
                os.close(fd)
    finally:
        for fd in opened.values():
            if fd >= 0:
                os.close(fd)


def safe_code(code: str) -> str:
    """A type code as a file-name part: letters and digits kept, anything else %XX."""
    return "".join(
        c if c.isascii() and c.isalnum() else f"%{ord(c) & 0xFF:02X}" for c in code
    )


class _Extractor:
    def __init__(self, db: Database, folder: Path, as_plugin: bool, decoded: bool) -> None:
        self.db = db
        self.folder = folder
        self.as_plugin = as_plugin  # 'pINF' as manifest fields
        self.decoded = decoded  # bitmaps as PNG, sounds as WAV (else all raw)
        self.used: set[str] = set()
        # Bitmaps past the per-file decode budget are kept as raw .bin resources.
        self.budget = bitmap.DecodeBudget()
        self.manifest: dict[str, Any] = {}
        self.files: dict[str, bytes] = {}  # relative name -> bytes, written by `save`
        self.members_of: dict[str, list[bitmap.Member]] = {}  # an original's members, by name
        self.manifest_text = ""
        self.info: dict[str, Any] | None = None  # the 'pINF' as manifest fields, once read

    def rebuilds(self, expected: bytes) -> bool:
        """Whether `build` of the folder this would write gives `expected` back."""
        files = MemoryFiles(self.folder, self.files, (MANIFEST_NAME, self.manifest_text),
                            self.members_of)
        try:
            return build_files(files).to_bytes() == expected
        except PrcError:
            return False

    def save(self) -> None:
        """Write the folder's files (the folder exists and is empty)."""
        manifest = self.manifest_text.encode("utf-8")
        write_new_files(self.folder, [*self.files.items(), (MANIFEST_NAME, manifest)])

    def file_name(self, subdir: str, stem: str, suffix: str) -> str:
        """A unique relative path (unique even on case-insensitive file systems)."""
        candidate = f"{subdir}/{stem}{suffix}"
        number = 2
        while candidate.lower() in self.used:
            candidate = f"{subdir}/{stem}-{number}{suffix}"
            number += 1
        self.used.add(candidate.lower())
        return candidate

    def write(self, subdir: str, stem: str, suffix: str, data: bytes) -> str:
        name = self.file_name(subdir, stem, suffix)
        self.files[name] = data
        return name

    def run(self) -> None:
        db = self.db
        m = self.manifest
        m["name"] = db.name
        info = self.plugin_info() if self.as_plugin else None
        self.as_plugin = info is not None
        self.info = info
        if info is not None:
            m.update(info)
        m["type"] = db.type
        m["creator"] = db.creator
        extra_attributes = db.attributes & ~ATTR_RESOURCE
        if extra_attributes:
            m["attributes"] = extra_attributes
        if info is None:
            m["version"] = db.version
        self.header()
        if db.is_resource:
            self.resources(skip_info=info is not None)
            if db.app_info is not None or db.sort_info is not None:
                m["attributes"] = db.attributes  # 0x0001 keeps it a resource database
                self.blocks()
        else:
            self.records()
        self.manifest_text = (
            "# Written by prc-tools extract; `prc-tools build` turns it back into a database.\n"
            + yaml_text(m)
        )

    def header(self) -> None:
        """The header fields `build` would otherwise set itself, and odd layout bytes."""
        db = self.db
        m = self.manifest
        for which in DATE_FIELDS:
            value = date_value(db, which)
            if which != "backed_up" or value != 0:
                m[which] = value
        for key in ("modification_number", "unique_id_seed", "next_record_list"):
            if getattr(db, key):
                m[key] = getattr(db, key)
        layout = {}
        if db.gap != GAP:
            layout["gap"] = db.gap.hex()
        if db.name_field is not None:
            layout["name_field"] = db.name_field.hex()
        elif not db.name:
            layout["name_field"] = bytes(NAME_FIELD_SIZE).hex()  # lets the manifest's name be ""
        if layout:
            m["layout"] = layout

    def plugin_info(self) -> dict[str, Any] | None:
        """Manifest fields from a 'pINF' that `build` regenerates byte for byte, else None."""
        keys = [(res.type, res.id) for res in self.db.resources]
        if not self.db.is_resource or keys.count((INFO_TYPE, INFO_ID)) != 1:
            return None
        try:  # codes included: a header its game's schema refuses stays a raw resource
            info = read_header(self.db, registry()).fields
            stored = find(self.db)
            # Defaults filled in on reading: what was read must also be what was written.
            if stored is None or safeyaml.load(stored, MAX_INFO_BYTES) != info:
                return None
        except PrcError:  # PluginError, and safeyaml's YamlError
            return None
        if info.get("version") != self.db.version or info_bytes(info) != stored:
            return None
        fields = ("game", "kind", "version", "author", "configs", "cell", "anchor",
                  "lifted_anchor")
        out = {key: info[key] for key in fields if key in info}
        extra = {k: v for k, v in info.items() if k not in fields}
        if extra.get("name") == self.db.name:
            del extra["name"]
        if extra.get("default") is True:
            # Not copied as it is: a remix under another name must not claim to be the
            # default. Kept in its place, for the exact rebuild of an unrenamed folder.
            extra = {(DEFAULT_IF_NAMED if k == "default" else k):
                     (self.db.name if k == "default" else v) for k, v in extra.items()}
        if extra:
            out["info"] = extra
        return out

    def picture_stem(self, type_: str, id_: int) -> str | None:
        """A game bitmap's file name by what it is (`tile-red-star`), where its game's
        schema knows it; None for anything else."""
        from prc_tools.schema.requirements import rule_for
        from prc_tools.schema.sizes import file_stem, member_name

        info = self.info
        if info is None or type_ != GAME_BITMAP_TYPE:
            return None
        schema = registry().get(info.get("game"))
        rule = rule_for(schema, info.get("kind", ""), id_) if schema is not None else None
        if schema is None or rule is None:
            return None
        return file_stem(member_name(schema, rule, id_))

    def resources(self, skip_info: bool) -> None:
        """Each resource as its type writes it into a folder (else raw), in the manifest
        list of its type, and `order:` when `build` would not give this order."""
        lists: dict[str, list[dict[str, Any]]] = {h.section: [] for h in sections()}
        seen = Counter((res.type, res.id) for res in self.db.resources)  # not list.count: O(n)
        for res in self.db.resources:
            handler = handler_for(res.type, res.id)
            if skip_info and handler is PLUGIN_INFO:
                continue  # the manifest's fields say it
            stem = f"{safe_code(res.type)}-{res.id}"
            entry: dict[str, Any] | None = None
            # The same type and id twice: only raw entries (and `order`) say that.
            if seen[(res.type, res.id)] == 1 and self.decoded:
                entry = handler.folder_entry(res, self.picture_stem(res.type, res.id) or stem,
                                             self)
            if entry is None or not handler.section:
                handler = RAW
                entry = RAW.folder_entry(res, stem, self)
            assert entry is not None
            lists[handler.section].append(entry)
        for key, entries in lists.items():
            if entries:
                self.manifest[key] = entries
        # build adds the 'pINF', then each list in turn: say so if not that.
        built = [(INFO_TYPE, INFO_ID)] if skip_info else []
        for handler in sections():
            built += [(e.get("type", handler.default_type), e["id"])
                      for e in self.manifest.get(handler.section, [])]
        actual = [(res.type, res.id) for res in self.db.resources]
        if built != actual or len(set(actual)) != len(actual):  # duplicates need it too
            self.manifest["order"] = [FlowPair(key) for key in actual]

    def blocks(self) -> None:
        """The appInfo and sortInfo blocks, as files."""
        db = self.db
        if db.app_info is not None:
            self.manifest["app_info"] = self.write(".", "app_info", ".bin", db.app_info)
        if db.sort_info is not None:
            self.manifest["sort_info"] = self.write(".", "sort_info", ".bin", db.sort_info)

    def records(self) -> None:
        db = self.db
        self.blocks()
        self.manifest["records"] = [
            {"file": self.write("records", f"{index:04d}", ".bin", rec.data),
             "attributes": rec.attributes, "unique_id": rec.unique_id}
            for index, rec in enumerate(db.records)
        ]


pixels = visible_pixels  # RGBA bytes with every fully transparent pixel zeroed


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
    with contextlib.suppress(PrcError):  # safeyaml's YamlError is one
        return handler_for(*key).same(x, y)
    return False

"""Plugin folders (manifest.yaml + PNG + WAV) <-> plugin databases.

`build_folder` makes the database a folder describes (docs/plugin-format.md),
`read_info` parses and checks a plugin's 'pINF', `extract` turns any database
back into a folder that builds an equivalent database, and `verify` checks
that everything in a database decodes.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import tempfile
from collections.abc import Callable
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import yaml
from PIL import Image

from prc_tools import bitmap, sound
from prc_tools.database import ATTR_RESOURCE, Database, Record, Resource
from prc_tools.errors import PluginError, PrcError
from prc_tools.manifest import (
    BITMAP_TYPES,
    CONFIGS,
    GAMES,
    INFO_ID,
    INFO_TYPE,
    KINDS,
    YAML_ERRORS,
    BitmapSpec,
    Manifest,
    describe_yaml_error,
    load,
)

Progress = Callable[[int, int], None]
MemberKey = tuple[int, int]  # (density, depth)

BOARD_COLUMNS = 12
BOARD_ROWS = 8
TILE_COUNT = 36
MAX_SOURCE_PIXELS = 4096 * 4096  # far beyond any Palm screen, still cheap to hold
WAVE_TYPE = "wave"


# ---------------------------------------------------------------- building


def build_folder(folder: Path, progress: Progress | None = None) -> Database:
    """The database a plugin folder describes; PluginError naming the file on any problem.

    `progress(done, total)` is called after each picture, sound or file.
    """
    folder = Path(folder)
    manifest = load(folder)
    _check_game_rules(manifest)
    total = (len(manifest.bitmaps) + len(manifest.sounds) + len(manifest.resources)
             + len(manifest.records))
    done = 0

    def step() -> None:
        nonlocal done
        done += 1
        if progress is not None:
            progress(done, total)

    now = _build_time()
    db = Database(
        name=manifest.name,
        type=manifest.type,
        creator=manifest.creator,
        attributes=manifest.attributes | (0 if manifest.is_records else ATTR_RESOURCE),
        version=manifest.version,
        created=now,
        modified=now,
    )
    try:
        db.to_bytes()  # checks the name and codes before any slow work
    except PrcError as exc:
        raise PluginError(f"{manifest.path}: {exc}") from None

    if manifest.is_records:
        if manifest.app_info is not None:
            db.app_info = _read_file(folder, manifest.app_info)
        if manifest.sort_info is not None:
            db.sort_info = _read_file(folder, manifest.sort_info)
        for record in manifest.records:
            db.records.append(Record(_read_file(folder, record.file), record.attributes,
                                     record.unique_id))
            step()
        return db

    _check_sources(folder, manifest)

    def add(type_: str, id_: int, data: bytes) -> None:
        db.resources.append(Resource(type_, id_, data))

    if manifest.info is not None:
        add(INFO_TYPE, INFO_ID, info_bytes(manifest.info))
    for spec in manifest.bitmaps:
        add(spec.type, spec.id, _build_bitmap(folder, manifest, spec))
        step()
    for sound_spec in manifest.sounds:
        path = folder / sound_spec.file
        data = _read_file(folder, sound_spec.file)
        try:
            wave = sound.convert(data, sound_spec.rate, sound_spec.bits)
        except PrcError as exc:
            raise PluginError(f"{path}: {exc}") from None
        add(WAVE_TYPE, sound_spec.id, wave)
        step()
    for raw in manifest.resources:
        add(raw.type, raw.id, _read_file(folder, raw.file))
        step()
    return db


def _check_sources(folder: Path, manifest: Manifest) -> None:
    """Before any slow work: no resource twice, and every file named is there."""
    seen: dict[tuple[str, int], str] = {}
    if manifest.info is not None:
        seen[(INFO_TYPE, INFO_ID)] = "the plugin info"
    items = (
        [(s.type, s.id, s.file) for s in manifest.bitmaps]
        + [(WAVE_TYPE, s.id, s.file) for s in manifest.sounds]
        + [(r.type, r.id, r.file) for r in manifest.resources]
    )
    for type_, id_, source in items:
        key = (type_, id_)
        if key in seen:
            raise PluginError(
                f"{manifest.path}: {source} and {seen[key]} are both resource {type_} {id_}"
            )
        seen[key] = source
    files = [source for _, _, source in items]
    files += [name for spec in manifest.bitmaps for name in spec.members.values()]
    for name in files:
        if not (folder / name).is_file():
            raise PluginError(f"{folder / name}: no such file")


def info_bytes(info: dict[str, Any]) -> bytes:
    """The 'pINF' resource: the info mapping as UTF-8 YAML."""
    return yaml_text(info).encode("utf-8")


def yaml_text(data: Any) -> str:
    """YAML with readable non-ASCII text, escaped when that would not read back equal.

    (PyYAML's emitter mangles a few characters, such as U+0085, when it writes
    them unescaped.)
    """
    text: str = yaml.safe_dump(data, sort_keys=False, allow_unicode=True, width=100)
    if yaml.safe_load(text) != data:
        text = yaml.safe_dump(data, sort_keys=False, allow_unicode=False, width=100)
    return text


def _build_time() -> datetime:
    """Now, or SOURCE_DATE_EPOCH (reproducible builds) when set."""
    epoch = os.environ.get("SOURCE_DATE_EPOCH", "")
    if epoch.isdigit():
        return datetime.fromtimestamp(int(epoch), timezone.utc).replace(tzinfo=None)
    return datetime.now().replace(microsecond=0)


def _read_file(folder: Path, name: str) -> bytes:
    path = folder / name
    try:
        return path.read_bytes()
    except FileNotFoundError:
        raise PluginError(f"{path}: no such file") from None
    except OSError as exc:
        raise PluginError(f"{path}: cannot read: {exc.strerror or exc}") from None


def _load_image(folder: Path, name: str) -> Image.Image:
    path = folder / name
    if not path.is_file():
        raise PluginError(f"{path}: no such file")
    try:
        with Image.open(path) as image:
            width, height = image.size
            if width * height > MAX_SOURCE_PIXELS:  # checked before decoding the pixels
                raise PluginError(
                    f"{path}: {width}x{height} is too big for a plugin picture"
                    f" (at most {MAX_SOURCE_PIXELS} pixels)"
                )
            image.load()
            rgba: Image.Image = image.convert("RGBA")
            return rgba
    except (OSError, ValueError, Image.DecompressionBombError) as exc:
        raise PluginError(f"{path}: not a picture that can be read ({exc})") from None


def _build_bitmap(folder: Path, manifest: Manifest, spec: BitmapSpec) -> bytes:
    path = folder / spec.file
    image = _load_image(folder, spec.file)
    if spec.size is not None and image.size != spec.size:
        image = image.resize(spec.size, Image.Resampling.LANCZOS)
    _check_bitmap_size(manifest, spec, image, path)
    members = {key: _load_image(folder, name) for key, name in spec.members.items()}
    try:
        return encode_bitmap(image, spec, members)
    except PrcError as exc:
        raise PluginError(f"{path}: {exc}") from None


def encode_bitmap(
    image: Image.Image, spec: BitmapSpec, members: dict[MemberKey, Image.Image] | None = None
) -> bytes:
    """A bitmap family as `spec` asks, with optional exact pictures for single members."""
    options: dict[str, Any] = {
        "densities": spec.densities,
        "depths": spec.depths,
        "compression": spec.compression,
        "dither": spec.dither,
    }
    if members:
        options["members"] = members
    return bitmap.encode_family(image, **options)


def _check_game_rules(manifest: Manifest) -> None:
    """What the PalmIshido app relies on (docs/plugin-format.md, 'PalmIshido resources')."""
    if manifest.game is None or manifest.game.key != "ishido":
        return
    ids = {spec.id for spec in manifest.bitmaps if spec.type == "Tbmp"}
    if manifest.kind == "pieces":
        missing = [i for i in range(1000, 1000 + TILE_COUNT) if i not in ids]
        if missing:
            raise PluginError(
                f"{manifest.path}: {len(missing)} of the 36 tiles are missing"
                f" (first: Tbmp {missing[0]}, colour {(missing[0] - 1000) // 6},"
                f" shape {(missing[0] - 1000) % 6})"
            )
    elif manifest.kind == "board":
        for needed, what in ((2000, "board"), (2001, "cell_mark")):
            if needed not in ids:
                raise PluginError(f"{manifest.path}: the {what} picture (Tbmp {needed}) is missing")


def _check_bitmap_size(
    manifest: Manifest, spec: BitmapSpec, image: Image.Image, path: Path
) -> None:
    if (manifest.game is None or manifest.game.key != "ishido" or manifest.kind != "board"
            or spec.id != 2000 or spec.type != "Tbmp" or manifest.info is None):
        return
    cell_w, cell_h = manifest.info["cell"]
    want = (BOARD_COLUMNS * cell_w, BOARD_ROWS * cell_h)
    if image.size != want:
        raise PluginError(
            f"{path}: the board is {image.width}x{image.height}, must be {want[0]}x{want[1]}"
            f" (12x8 cells of {cell_w}x{cell_h})"
        )


# ---------------------------------------------------------------- plugin info


def read_info(db: Database) -> dict[str, Any]:
    """The parsed and checked 'pINF' of a plugin database; PluginError if absent or bad."""
    res = db.resource(INFO_TYPE, INFO_ID)
    if res is None:
        raise PluginError("no 'pINF' resource: not a plugin")
    try:
        info = yaml.safe_load(res.data.decode("utf-8"))
    except UnicodeDecodeError:
        raise PluginError("'pINF' is not UTF-8 YAML") from None
    except YAML_ERRORS as exc:
        raise PluginError(f"'pINF' {describe_yaml_error(exc)}") from None
    if not isinstance(info, dict):
        raise PluginError("'pINF' is not a mapping of field: value")

    def need(key: str, kinds: tuple[type, ...], what: str) -> Any:
        value = info.get(key)
        if not isinstance(value, kinds) or isinstance(value, bool):
            raise PluginError(f"'pINF' {key}: missing or not {what}")
        return value

    need("game", (str,), "a text")
    if need("kind", (str,), "a text") not in KINDS:
        raise PluginError(f"'pINF' kind: {info['kind']!r} is not one of {', '.join(KINDS)}")
    need("name", (str,), "a text")
    need("version", (int,), "an integer")
    need("author", (str,), "a text")
    configs = need("configs", (list,), "a list")
    if not configs or any(c not in CONFIGS for c in configs):
        raise PluginError(f"'pINF' configs: {configs!r} is not a list of {', '.join(CONFIGS)}")
    if info["kind"] in ("board", "pieces"):
        _pair(info, "cell", positive=True)
    if info["kind"] == "pieces":
        info.setdefault("anchor", [0, 0])
        _pair(info, "anchor", positive=False)
        info.setdefault("lifted_anchor", list(info["anchor"]))
        _pair(info, "lifted_anchor", positive=False)
    return info


def _pair(info: dict[str, Any], key: str, positive: bool) -> None:
    value = info.get(key)
    ok = (isinstance(value, list) and len(value) == 2
          and all(isinstance(v, int) and not isinstance(v, bool) for v in value)
          and (not positive or all(v > 0 for v in value)))
    if not ok:
        kind = "positive integers" if positive else "integers"
        raise PluginError(f"'pINF' {key}: missing or not a list of two {kind}")


# ---------------------------------------------------------------- verifying


def verify(db: Database) -> list[str]:
    """Check every bitmap decodes and every 'wave' reads (plus 'pINF' for plugins).

    Returns one line per resource; raises PrcError naming the first bad one.
    """
    lines: list[str] = []
    plugin = db.resource(INFO_TYPE, INFO_ID) is not None or _is_known_plugin_type(db)
    if plugin:
        info = read_info(db)
        lines.append(f"pINF {INFO_ID}: {info['game']} {info['kind']} plugin {info['name']!r}")
    for res in db.resources:
        where = f"{res.type} {res.id}"
        try:
            if res.type in BITMAP_TYPES:
                members = bitmap.decode(res.data)
                sizes = ", ".join(f"{m.width}x{m.height}@{m.density}/{m.depth}" for m in members)
                lines.append(f"{where}: bitmap {sizes}")
            elif res.type == WAVE_TYPE:
                wav = sound.read_wave_resource(res.data) if plugin else sound.read_wav(res.data)
                lines.append(f"{where}: sound {wav.rate} Hz {wav.bits}-bit, {wav.seconds:.2f} s")
        except PrcError as exc:
            raise type(exc)(f"{where}: {exc}") from None
    if plugin and info["game"] == "ishido":
        _check_ishido_database(db, info)
    return lines


def _check_ishido_database(db: Database, info: dict[str, Any]) -> None:
    """The resources the PalmIshido app needs are there, at the sizes it draws them."""
    if info["kind"] == "pieces":
        for tile in range(TILE_COUNT):
            if db.resource("Tbmp", 1000 + tile) is None:
                raise PluginError(
                    f"Tbmp {1000 + tile} (tile colour {tile // 6}, shape {tile % 6}) is missing"
                )
    elif info["kind"] == "board":
        for needed, what in ((2000, "board"), (2001, "cell mark")):
            if db.resource("Tbmp", needed) is None:
                raise PluginError(f"Tbmp {needed} (the {what}) is missing")
        board = db.resource("Tbmp", 2000)
        assert board is not None
        cell_w, cell_h = info["cell"]
        for member in bitmap.decode(board.data):
            want = (BOARD_COLUMNS * cell_w * member.density // 144,
                    BOARD_ROWS * cell_h * member.density // 144)
            if (member.width, member.height) != want:
                raise PluginError(
                    f"Tbmp 2000 (the board) is {member.width}x{member.height} at"
                    f" {member.density} dpi, must be {want[0]}x{want[1]}"
                )


def _is_known_plugin_type(db: Database) -> bool:
    return any(
        game.creator == db.creator and db.type in game.types.values() for game in GAMES.values()
    )


# ---------------------------------------------------------------- extracting


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
        self.manifest: dict[str, Any] = {}

    def file_name(self, subdir: str, stem: str, suffix: str) -> str:
        """A unique relative path (unique even on case-insensitive file systems)."""
        candidate = f"{subdir}/{stem}{suffix}"
        number = 2
        while candidate.lower() in self.used:
            candidate = f"{subdir}/{stem}-{number}{suffix}"
            number += 1
        self.used.add(candidate.lower())
        (self.folder / subdir).mkdir(exist_ok=True)
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
        try:
            info = read_info(self.db)
        except PluginError:
            return None
        if info["game"] not in GAMES:
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
            members = bitmap.decode(res.data)
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
    with contextlib.suppress(PrcError, UnicodeDecodeError, *YAML_ERRORS):
        if type_ == INFO_TYPE and id_ == INFO_ID:
            return bool(yaml.safe_load(x.decode("utf-8")) == yaml.safe_load(y.decode("utf-8")))
        if type_ in BITMAP_TYPES:
            mx, my = bitmap.decode(x), bitmap.decode(y)
            return len(mx) == len(my) and not _differing_members(mx, my)
        if type_ == WAVE_TYPE:
            sx, sy = sound.read_wav(x), sound.read_wav(y)
            return (sx.rate, sx.bits, sx.channels, sx.data) == (sy.rate, sy.bits, sy.channels,
                                                                 sy.data)
    return False

"""Plugin databases: discovery, validation, the user's choice per slot, fallback.

A plugin is a resource database whose 'pINF' id 0 resource is a YAML mapping
(game, kind, name, version, author, configs, ...; see docs/plugin-format.md).
Bundled plugins are source folders under skins/plugins/ built by the packer
into <data-dir>/cache/bundled/; installed ones are databases in storage. An
installed plugin replaces a bundled one of the same game, kind and name: the
lists show it once, as installed, and it is the one used. The user's choice per
(kind, slot) is kept in the app's prefs database; a missing or broken choice
falls back to the default bundled plugin with a one-line message, and a choice
whose plugin is gone (deleted, or no longer serving the slot) is then cleared,
so the message comes once.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING

from PIL import Image

from palmish.device.storage import Reporter, Storage, safe_file_stem
from prc_tools import Database, PrcError, pinf
from prc_tools.atomic import write_atomic
from prc_tools.pinf import KINDS, SLOTS
from prc_tools.schema import registry

if TYPE_CHECKING:
    from prc_tools.bitmap import Member

__all__ = ["SLOTS", "InvalidPlugin", "LoadedPlugin", "PluginInfo", "PluginRegistry", "describe"]


class InvalidPlugin(ValueError):
    """A database that is not a usable plugin; the message is one line."""


@dataclass(frozen=True)
class PluginInfo:
    """What a plugin says about itself (its pINF), and where it lives."""

    name: str
    game: str
    kind: str
    configs: tuple[str, ...]
    version: int
    author: str
    creator: str
    db_type: str
    path: Path
    bundled: bool
    default: bool = False  # pINF `default: true`: preferred among bundled fallbacks
    fields: Mapping[str, object] = field(default_factory=dict, compare=False, hash=False)

    def serves(self, slot: str) -> bool:
        return slot in self.configs

    @property
    def source(self) -> str:
        return "bundled" if self.bundled else "installed"


def describe(db: Database, path: Path, bundled: bool = False) -> PluginInfo:
    """Check a database's plugin header (pINF) and return what it declares.

    The checks are prc_tools' (the same `build` and `verify` make), against the
    installed game schemas.
    """
    try:
        header = pinf.read(db, registry())
    except PrcError as exc:
        raise InvalidPlugin(_one_line(exc)) from None
    return PluginInfo(
        name=header.name.strip(),
        game=header.game.strip(),
        kind=header.kind,
        configs=header.configs,
        version=header.version,
        author=header.author.strip(),
        creator=db.creator,
        db_type=db.type,
        path=path,
        bundled=bundled,
        default=header.default,
        fields=header.fields,
    )


def check_contents(db: Database) -> dict[int, list[Member]]:
    """Every bitmap decodes and every sound reads (prc_tools' verify); InvalidPlugin if not.

    Returns the decoded 'Tbmp' members by id, for drawing without decoding again.
    """
    from prc_tools import plugin  # the codecs are only needed once a plugin is used

    decoded: dict[int, list[Member]] = {}
    try:
        plugin.verify(db, decoded)
    except PrcError as exc:
        raise InvalidPlugin(_one_line(exc)) from None
    return decoded


class LoadedPlugin:
    """A validated plugin database with its bitmaps decoded on demand."""

    def __init__(
        self, info: PluginInfo, db: Database, decoded: dict[int, list[Member]] | None = None
    ) -> None:
        self.info = info
        self.database = db
        self._members = decoded if decoded is not None else {}  # 'Tbmp' id -> members
        self._bitmaps: dict[tuple[int, int], Image.Image | None] = {}

    def resource(self, type_: str, id_: int) -> bytes | None:
        res = self.database.resource(type_, id_)
        return None if res is None else res.data

    def sound(self, id_: int) -> bytes | None:
        """A 'wave' resource's RIFF bytes, or None when the plugin has none (silence)."""
        return self.resource("wave", id_)

    def bitmap(self, id_: int, density: int = 144) -> Image.Image | None:
        """The 'Tbmp' `id_` as RGBA at `density` (72 or 144), deepest member first.

        A family without a member of that density is scaled from the nearest one
        (nearest-neighbour, as Palm OS does).
        """
        key = (id_, density)
        if key not in self._bitmaps:
            self._bitmaps[key] = self._decode(id_, density)
        return self._bitmaps[key]

    def _decode(self, id_: int, density: int) -> Image.Image | None:
        from prc_tools import bitmap

        members = self._members.get(id_)
        if members is None:
            data = self.resource("Tbmp", id_)
            if data is None:
                return None
            members = bitmap.decode(data)
        exact = [m for m in members if m.density == density]
        if exact:
            return max(exact, key=lambda m: m.depth).image.convert("RGBA")
        best = min(members, key=lambda m: (abs(m.density - density), -m.depth))
        image = best.image.convert("RGBA")
        w = max(1, image.width * density // best.density)
        h = max(1, image.height * density // best.density)
        return image.resize((w, h), Image.Resampling.NEAREST)


class PluginRegistry:
    """All plugins the device knows: bundled (built on demand) and installed."""

    def __init__(self, storage: Storage, bundled_root: Path | None, report: Reporter) -> None:
        self.storage = storage
        self.bundled_root = bundled_root
        self.report = report
        self._plugins: list[PluginInfo] | None = None
        self._bundled: list[PluginInfo] | None = None
        # Bundled data folders (no pINF, e.g. Sigmar's levels) and where they are built.
        self._data: list[tuple[Path, Path]] = []
        self._loaded: dict[tuple[Path, int], LoadedPlugin] = {}

    @property
    def bundled_cache(self) -> Path:
        return self.storage.cache_dir / "bundled"

    # ------------------------------------------------------------ discovery

    def refresh(self, bundled: bool = True) -> None:
        """Rescan installed plugins and (unless `bundled` is False) rebuild stale bundled ones."""
        if bundled or self._bundled is None:
            self._bundled = self._scan_bundled()
        # One row per (game, kind, name): of two installed files the newer version wins
        # (by_name would pick it too), and either replaces a bundled plugin of that name.
        newest: dict[tuple[str, str, str], PluginInfo] = {}
        for info in sorted(self._scan_installed(), key=lambda p: (p.version, p.path.name)):
            newest[(info.creator, info.kind, info.name)] = info
        installed = list(newest.values())
        shadowed = set(newest)
        plugins = [*(p for p in self._bundled if (p.creator, p.kind, p.name) not in shadowed),
                   *installed]
        self._plugins = sorted(plugins, key=lambda p: (p.game, p.kind, p.name.lower(), p.bundled))

    def all(self) -> list[PluginInfo]:
        if self._plugins is None:
            self.refresh()
        assert self._plugins is not None
        return list(self._plugins)

    def find(
        self, creator: str | None = None, kind: str | None = None, slot: str | None = None
    ) -> list[PluginInfo]:
        """Plugins for a game's creator, of a kind, serving a slot (None: any)."""
        return [
            p
            for p in self.all()
            if (creator is None or p.creator == creator)
            and (kind is None or p.kind == kind)
            and (slot is None or p.serves(slot))
        ]

    def by_name(self, creator: str, kind: str, name: str) -> PluginInfo | None:
        """The plugin of that name (the lists hold one per name; installed wins)."""
        matches = [p for p in self.find(creator, kind) if p.name == name]
        matches.sort(key=lambda p: p.bundled)
        return matches[0] if matches else None

    def _scan_bundled(self) -> list[PluginInfo]:
        root = self.bundled_root
        if root is None or not root.is_dir():
            return []
        found = []
        self._data = []
        for folder in sorted(p for p in root.iterdir() if p.is_dir()):
            if not _has_manifest(folder):
                continue
            target = self.bundled_cache / f"{safe_file_stem(folder.name)}.prc"
            try:
                db = self._bundled_database(folder, target)
                if db.is_resource and db.resource(pinf.INFO_TYPE, pinf.INFO_ID) is None:
                    self._data.append((folder, target))  # data (Sigmar's levels), not a plugin
                    continue
                found.append(describe(db, target, bundled=True))
            except (PrcError, InvalidPlugin, OSError) as exc:
                problem = _one_line(exc).replace(f"{folder}{os.sep}", "")
                self.report(f"bundled plugin {folder.name}: {problem}; skipped")
        return found

    def bundled_data(self, creator: str, db_type: str) -> list[Database]:
        """The bundled data databases (not plugins) of a creator and type, built if stale."""
        if self._bundled is None:
            self.refresh()
        found = []
        for folder, target in self._data:
            try:
                db = self._data_database(folder, target)
            except (PrcError, OSError) as exc:
                self.report(f"bundled data {folder.name}: {_one_line(exc)}; skipped")
                continue
            if db.creator == creator and db.type == db_type:
                found.append(db)
        return found

    def _data_database(self, folder: Path, target: Path) -> Database:
        """A data folder's whole database: the cached build, rebuilt when a file is newer."""
        if target.exists() and target.stat().st_mtime >= _newest_mtime(folder):
            with contextlib.suppress(PrcError):
                return Database.read(target)
        from prc_tools import plugin

        db = plugin.build_folder(folder)
        target.parent.mkdir(parents=True, exist_ok=True)
        write_atomic(target, db.to_bytes(), self.storage.durable)
        return db

    def _bundled_database(self, folder: Path, target: Path) -> Database:
        """The cached build of `folder`, rebuilt when any file in it is newer."""
        if target.exists() and target.stat().st_mtime >= _newest_mtime(folder):
            try:
                return Database.read(target)
            except PrcError:
                pass  # a damaged cache is simply rebuilt
        from prc_tools import plugin

        db = plugin.build_folder(folder)
        target.parent.mkdir(parents=True, exist_ok=True)
        write_atomic(target, db.to_bytes(), self.storage.durable)
        return db

    def _scan_installed(self) -> list[PluginInfo]:
        found = []
        for path in self.storage.database_paths():
            if path.suffix.lower() != ".prc":
                continue
            db = self.storage.read_database(path, then="plugin ignored")
            if db is None:
                continue
            try:
                found.append(describe(db, path))
            except InvalidPlugin as exc:
                self.report(f"{path}: {exc}; ignored")
        return found

    # -------------------------------------------------------------- loading

    def load(self, info: PluginInfo) -> LoadedPlugin:
        """Read and fully check a plugin (every bitmap decodes); InvalidPlugin if broken."""
        try:
            stamp = info.path.stat().st_mtime_ns
            key = (info.path, stamp)
            if key in self._loaded:
                return self._loaded[key]
            db = Database.read(info.path)
            fresh = describe(db, info.path, info.bundled)
            decoded = check_contents(db)
        except OSError as exc:
            raise InvalidPlugin(f"cannot read {info.path}: {exc.strerror or exc}") from None
        except PrcError as exc:
            raise InvalidPlugin(_one_line(exc)) from None
        loaded = LoadedPlugin(fresh, db, decoded)
        self._loaded[key] = loaded
        return loaded

    def default_for(self, creator: str, kind: str, slot: str) -> PluginInfo | None:
        """The plugin used when nothing (usable) is chosen: the default bundled one, or the
        installed plugin that replaces it (same name) if that serves the slot."""
        self.all()
        bundled = [p for p in self._bundled or [] if p.creator == creator and p.kind == kind
                   and p.serves(slot)]
        bundled.sort(key=lambda p: (not p.default, p.path.name))
        if not bundled:
            return None
        shadow = self.by_name(creator, kind, bundled[0].name)
        return shadow if shadow is not None and shadow.serves(slot) else bundled[0]

    def chosen(self, creator: str, kind: str, slot: str) -> LoadedPlugin | None:
        """The user's plugin for (kind, slot), else the bundled default (with a message)."""
        name = self.choice(creator, kind, slot)
        if name is not None:
            info = self.by_name(creator, kind, name)
            if info is None or not info.serves(slot):
                why = "is missing" if info is None else f"does not serve {slot}"
                self.report(f"{kind} plugin {name!r} {why}; using the bundled one")
                self.choose(creator, kind, slot, None)  # said once, not at every start
            else:
                try:
                    return self.load(info)
                except InvalidPlugin as exc:
                    self.report(f"{kind} plugin {name!r} is broken ({exc}); using the bundled one")
        tried: set[Path] = set()
        while True:
            fallback = self.default_for(creator, kind, slot)
            if fallback is None or fallback.path in tried:
                return None
            tried.add(fallback.path)
            try:
                return self.load(fallback)
            except InvalidPlugin as exc:
                self.report(f"{fallback.source} {kind} plugin {fallback.name!r} is broken: {exc}")
                self._plugins = [p for p in self.all() if p.path != fallback.path]
                self._bundled = [p for p in self._bundled or [] if p.path != fallback.path]

    # --------------------------------------------------------------- choices

    def choice(self, creator: str, kind: str, slot: str) -> str | None:
        choices = self.storage.load_plugin_choices(creator)
        per_slot = choices.get(slot)
        if isinstance(per_slot, dict):
            name = per_slot.get(kind)
            if isinstance(name, str):
                return name
        return None

    def choose(self, creator: str, kind: str, slot: str, name: str | None) -> None:
        """Remember the user's plugin for (kind, slot); None returns to the default."""
        if slot not in SLOTS or kind not in KINDS:
            raise ValueError(f"no plugin slot {kind}/{slot}")
        if name is not None:
            info = self.by_name(creator, kind, name)
            if info is None or not info.serves(slot):
                raise ValueError(f"no {kind} plugin {name!r} for {slot}")
        choices = self.storage.load_plugin_choices(creator)
        per_slot = choices.get(slot)
        table: dict[str, object] = dict(per_slot) if isinstance(per_slot, dict) else {}
        if name is None:
            table.pop(kind, None)
        else:
            table[kind] = name
        choices[slot] = table
        self.storage.save_plugin_choices(creator, choices)

    # ------------------------------------------------- install and delete

    def install(self, source: Path) -> PluginInfo:
        """Validate a .prc fully and copy it into storage (like a HotSync)."""
        try:
            data = source.read_bytes()
        except OSError as exc:
            raise InvalidPlugin(f"cannot read: {exc.strerror or exc}") from None
        try:
            db = Database.read(data)
            info = describe(db, source)
            check_contents(db)
        except PrcError as exc:
            raise InvalidPlugin(_one_line(exc)) from None
        target = self.storage.databases_dir / f"{safe_file_stem(info.name)}.prc"
        target.parent.mkdir(parents=True, exist_ok=True)
        write_atomic(target, data, self.storage.durable)
        self._plugins = None
        return replace(info, path=target)

    def delete(self, info: PluginInfo) -> None:
        """Remove an installed plugin from storage (bundled ones cannot be deleted).

        Where it was the user's choice, the choice returns to the default, unless a
        plugin of the same name (the bundled one it replaced) still serves that slot.
        """
        if info.bundled:
            raise ValueError(f"{info.name!r} is bundled and cannot be deleted")
        with contextlib.suppress(FileNotFoundError):
            os.remove(info.path)
        self._plugins = None
        remaining = self.by_name(info.creator, info.kind, info.name)
        for slot in SLOTS:
            if self.choice(info.creator, info.kind, slot) != info.name:
                continue
            if remaining is None or not remaining.serves(slot):
                self.choose(info.creator, info.kind, slot, None)


def _has_manifest(folder: Path) -> bool:
    return any((folder / name).is_file() for name in ("manifest.yaml", "manifest.yml"))


def _newest_mtime(folder: Path) -> float:
    stamps: Iterable[float] = (p.stat().st_mtime for p in folder.rglob("*") if p.is_file())
    return max(stamps, default=0.0)


def _one_line(exc: BaseException) -> str:
    text = str(exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__

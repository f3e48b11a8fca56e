"""Plugin databases: discovery, validation, the user's choice per slot, fallback.

A plugin is a resource database whose 'pINF' id 0 resource is a YAML mapping
(game, kind, name, version, author, configs, ...; see docs/plugin-format.md).
Bundled plugins are source folders in each game's plugins/ folder, built by the
packer when palmish is packaged (skins/prebuilt/, palmish.device.store.prebuilt) or, where
there is no usable prebuilt file, into <data-dir>/cache/bundled/; installed
ones are databases in storage. An installed plugin replaces a bundled one of
the same game, kind and name: the lists show it once, as installed, and it is
the one used. The user's choice per (kind, slot) is kept in the app's prefs
database; a missing or broken choice falls back to the default bundled plugin
with a one-line message, and a choice whose plugin is gone (deleted, or no
longer serving the slot) is then cleared, so the message comes once.

Speed: a plugin's description is kept across runs (plugin_descriptions), so a
warm start neither parses headers nor loads the schema registry, and so are
its decoded bitmaps (pixel_cache), so it decodes none it drew before; a bundled
folder whose cache is stale is described from its manifest
and built only when a plugin of it is first loaded, and loading reads the
resource table and each bitmap's member headers only; a bitmap member is
decoded the first time it is drawn, then kept. The full check (every member
decodes, the game's required sizes) runs when a plugin is installed and in
`prc-tools verify`, not on every start.
"""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
import time
from collections.abc import Iterable
from pathlib import Path

from palmish.device.disk import kept
from palmish.device.disk.resources import Bundled, packaged
from palmish.device.disk.storage import Reporter, Storage, installed_file_name, safe_file_stem
from palmish.device.store.info import (
    InvalidPlugin,
    NotADatabase,
    PluginInfo,
    check_contents,
    check_structure,
    describe,
    one_line,
)
from palmish.device.store.loaded import LoadedPlugin
from palmish.device.store.pixel_cache import PixelCache
from palmish.device.store.plugin_descriptions import DescriptionCache
from palmish.device.store.plugin_index import InstalledIndex
from palmish.device.store.prebuilt import prebuilt_name, read_headers
from palmish.device.store.shipped_pixels import ShippedPixels
from prc_tools import Database, PrcError, Resource
from prc_tools.atomic import write_atomic
from prc_tools.database import ATTR_RESOURCE
from prc_tools.files import MAX_INPUT_BYTES, FileProblem, read_regular
from prc_tools.plugin import pinf
from prc_tools.plugin_words import KINDS, SLOTS
from prc_tools.schema import registry

# The longest a load waits for the background build to write the plugin it needs
# (one build takes a tenth of a second; a stuck process is not waited for longer).
BACKGROUND_WAIT_S = 5.0
__all__ = ["SLOTS", "PluginRegistry"]


class PluginRegistry:
    """All plugins the device knows: bundled (built on demand) and installed."""

    def __init__(self, storage: Storage, bundled: Bundled | Path | None, report: Reporter
                 ) -> None:
        """`bundled`: where the bundled plugins are (a single folder of source folders
        has its builds in the `prebuilt` folder beside it), None for none."""
        self.storage = storage
        self.bundled = Bundled.of(bundled)
        # The packaging step's builds (palmish.device.store.prebuilt). Inside the installed
        # package they are used as they are; beside a source tree, only while no
        # source file is newer (someone may be editing the art).
        self.prebuilt_root = self.bundled.prebuilt if self.bundled is not None else None
        self._prebuilt_trusted = self.prebuilt_root is not None and packaged(self.prebuilt_root)
        self._prebuilt: dict[Path, Path] = {}  # each prebuilt file in use -> its folder
        self._refused: set[Path] = set()  # prebuilt files found damaged when read
        self._headers: dict[str, tuple[int, Database]] | None = None  # prebuilt.HEADERS
        self.report = report
        self._plugins: list[PluginInfo] | None = None
        self._bundled: list[PluginInfo] | None = None
        # Bundled data folders (no pINF, e.g. Sigmar's levels) and where they are built.
        self._data: list[tuple[Path, Path]] = []
        self._loaded: dict[tuple[Path, int], LoadedPlugin] = {}
        self.index = InstalledIndex(storage)
        self.descriptions = DescriptionCache(storage.cache_dir)
        # Before any game imports its schema: the kept copies of unchanged ones.
        self.descriptions.preload_schemas()
        # What each installed file (by path and mtime) declared, or why it is not a plugin.
        self._described: dict[tuple[Path, int], PluginInfo | None] = {}
        self._unbuilt: dict[Path, Path] = {}  # stale cache -> its bundled folder
        self._folders: dict[Path, Path] = {}  # every bundled build -> its folder
        self._cache_refused = False  # a build could not be kept (said once)
        self._prebuilding: subprocess.Popen[bytes] | None = None  # kept while it runs
        self._prebuild_targets: set[Path] = set()  # what that process builds

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
        self.descriptions.save()

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
        if self.bundled is None:
            return []
        found = []
        self._data = []
        for folder in self.bundled.folders():
            target = self._cache_target(folder)
            self._folders[target] = folder
            try:
                newest = None if self._prebuilt_trusted else _newest_mtime(folder)
                prebuilt = self._prebuilt_database(folder, newest)
                db: Database | None = None
                if prebuilt is not None:
                    target, db = prebuilt
                else:
                    newest = _newest_mtime(folder) if newest is None else newest
                    db = self._cached_database(folder, target, newest)
                if db is None:  # built when first loaded; described by its header now
                    db = self._header_database(folder, target.with_suffix(".pinf"), newest)
                    self._unbuilt[target] = folder
                if db.is_resource and db.resource(pinf.INFO_TYPE, pinf.INFO_ID) is None:
                    self._data.append((folder, target))  # data (Sigmar's levels), not a plugin
                    continue
                found.append(self._describe(db, target, bundled=True))
            except (PrcError, InvalidPlugin, OSError) as exc:
                problem = one_line(exc).replace(f"{folder}{os.sep}", "")
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
                self.report(f"bundled data {folder.name}: {one_line(exc)}; skipped")
                continue
            if db.creator == creator and db.type == db_type:
                found.append(db)
        return found

    def _data_database(self, folder: Path, target: Path) -> Database:
        """A data folder's whole database: the prebuilt one, or the kept build, rebuilt
        when a file is newer or the build is damaged."""
        if target in self._prebuilt:
            data = kept.read_beside(target, MAX_INPUT_BYTES)
            if data is not None:
                return Database.read(data)
            self._refuse_prebuilt(target)
        if target in self._refused:
            target = self._cache_target(folder)
        return Database.read(self._bundled_bytes(folder, target)[0])

    def _cache_target(self, folder: Path) -> Path:
        """Where a bundled folder is built when it has no usable prebuilt file."""
        return self.bundled_cache / f"{safe_file_stem(folder.name)}.prc"

    def _prebuilt_database(self, folder: Path, newest: float | None
                           ) -> tuple[Path, Database] | None:
        """The packaging step's build of `folder` (its header only: the file is read,
        and its seal checked, when it is loaded) and where it is, when usable: listed
        in the prebuilt headers with its present size and (outside the installed
        package) no source file newer. Anything else is built into cache/ as before."""
        if self.prebuilt_root is None:
            return None
        path = self.prebuilt_root / prebuilt_name(folder)
        if path in self._refused:
            return None
        if self._headers is None:
            self._headers = read_headers(self.prebuilt_root)
        entry = self._headers.get(path.name)
        if entry is None or (not self._prebuilt_trusted and not _is_fresh(folder, path, newest)):
            return None
        try:
            if path.stat().st_size != entry[0]:
                return None
        except OSError:
            return None
        self._prebuilt[path] = folder
        return path, entry[1]

    def _refuse_prebuilt(self, path: Path) -> None:
        """A prebuilt file turned out damaged: its folder is built into cache/ instead
        (silently, as a damaged cache is), from the next scan on."""
        self._refused.add(path)
        self._prebuilt.pop(path, None)
        self._bundled = self._plugins = None

    def _load_instead(self, info: PluginInfo) -> LoadedPlugin:
        """Load what replaces a damaged prebuilt plugin: its folder built into cache/."""
        self._refuse_prebuilt(info.path)
        again = self.by_name(info.creator, info.kind, info.name)
        if again is None or again.path == info.path:
            raise InvalidPlugin(f"{info.path.name} is damaged")
        return self.load(again)

    def _bundled_bytes(self, folder: Path, target: Path) -> tuple[bytes, os.stat_result | None]:
        """The build of a bundled folder and the stat of the kept file (None: it could
        not be kept, the bytes are this run's). A build that is older than a file of
        its folder, or whose bytes its checksum does not vouch for, is made anew."""
        self._await_background(folder, target)
        data = kept.read_beside(target, MAX_INPUT_BYTES) if _is_fresh(folder, target) else None
        if data is None:
            from prc_tools import plugin

            data = plugin.build_folder(folder).to_bytes()
            if not self._keep(target, data):
                return data, None
        self._unbuilt.pop(target, None)
        return data, target.stat()

    def _keep(self, target: Path, data: bytes, sealed: bool = False) -> bool:
        """Keep a build under cache/ (a plain database with its seal beside it, or
        `sealed` in one file); when that cannot be done, say so once a run (the
        device goes on with what it built in memory)."""
        if (kept.write(target, data, target.name) if sealed
                else kept.write_beside(target, data, self.storage.durable)):
            return True
        if not self._cache_refused and self.storage.read_only is None:
            self.report(f"{self.storage.cache_dir}: cannot be written; built plugins are"
                        " kept for this run only")
        self._cache_refused = True
        return False

    def _cached_database(
        self, folder: Path, target: Path, newest: float | None = None, sealed: bool = False
    ) -> Database | None:
        """The kept build of `folder`; None when missing, damaged or older than a file.
        `newest`: the folder's newest file time, when the caller has it already."""
        if not _is_fresh(folder, target, newest):
            return None
        if sealed:
            found = kept.read(target, target.name, MAX_INPUT_BYTES)
            data = found[0] if found is not None else None
        else:
            data = kept.read_beside(target, MAX_INPUT_BYTES)
        if data is None:
            return None  # damaged (its checksum differs): simply rebuilt
        try:
            return Database.read(data)
        except PrcError:
            return None

    def _header_database(self, folder: Path, header: Path, newest: float | None = None
                         ) -> Database:
        """The 'pINF' alone of a folder not built yet, kept beside the builds.

        Reading a manifest (pure-Python YAML) costs more than reading this back.
        Only palmish reads it, so it is sealed whole (one file to open, not two).
        """
        db = self._cached_database(folder, header, newest, sealed=True)
        if db is None:
            db = _header_only(folder)
            self._keep(header, db.to_bytes(), sealed=True)
        return db

    def prebuild(self, first: Iterable[Path] = ()) -> subprocess.Popen[bytes] | None:
        """Start building, in another process, the bundled plugins not built yet,
        those in `first` (the turned configuration's) before the others.

        For after the first frame: a later turn of the device then loads them
        from the cache. None when there is nothing to build (with the packaging
        step's builds there never is).
        """
        wanted = set(first)
        pending = sorted((target for target, folder in self._unbuilt.items()
                          if not _is_fresh(folder, target)),
                         key=lambda target: (target not in wanted, target.name))
        if not pending or self._cache_refused:
            return None
        self._prebuild_targets = set(pending)
        self._prebuilding = subprocess.Popen(
            [sys.executable, "-m", "palmish.device.store.prebuild",
             *(str(p) for target in pending for p in (self._unbuilt[target], target))],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )
        return self._prebuilding

    def _await_background(self, folder: Path, target: Path) -> None:
        """Wait while the background build has `target` still to write, so that a
        plugin is never built twice at once (its turn comes early: `prebuild`'s
        `first`). The process writes the seal last; a build it gave up on is made here."""
        process = self._prebuilding
        if process is None or target not in self._prebuild_targets:
            return
        deadline = time.monotonic() + BACKGROUND_WAIT_S
        seal = kept.sum_path(target)
        while process.poll() is None and time.monotonic() < deadline:
            if _is_fresh(folder, target) and _is_fresh(folder, seal):
                break
            time.sleep(0.002)
        self._prebuild_targets.discard(target)

    def _scan_installed(self) -> list[PluginInfo]:
        """Installed plugins from the index: only new or changed files are read and checked
        (and a file that is not a plugin is reported once, not at every rescan)."""
        found = []
        described: dict[tuple[Path, int], PluginInfo | None] = {}
        for path, mtime_ns, header in self.index.headers():
            key = (path, mtime_ns)
            if key in self._described:
                info = self._described[key]
            else:
                try:
                    info = self._describe(header, path)
                except InvalidPlugin as exc:
                    info = None
                    self.report(f"{path}: {exc}; ignored")
            described[key] = info
            if info is not None:
                found.append(info)
        self._described = described
        return found

    def _describe(self, db: Database, path: Path, bundled: bool = False) -> PluginInfo:
        """`describe`, served from the kept descriptions when the header was seen before."""
        info = self.descriptions.get(db, path, bundled)
        if info is None:
            info = describe(db, path, bundled)
            schema = registry().get(info.game)
            self.descriptions.put(db, info, schema.source if schema is not None else None)
        return info

    def database_bytes(self, info: PluginInfo) -> bytes:
        """The plugin's database as its file holds it, a bundled one built first if
        need be (what a beam sends: docs/network.md, "Beam"). OSError, PrcError."""
        folder = self._folders.get(info.path) if info.bundled else None
        if folder is not None:
            return self._bundled_bytes(folder, info.path)[0]
        return read_regular(info.path)

    # -------------------------------------------------------------- loading

    def load(self, info: PluginInfo) -> LoadedPlugin:
        """Read a plugin and check its header and bitmap chains; InvalidPlugin if broken.

        A bundled plugin not built yet is built now (see the module docstring).
        """
        folder = self._folders.get(info.path) if info.bundled else None
        if (info.path, 0) in self._loaded:  # built this run, but the cache refused it
            return self._loaded[(info.path, 0)]
        try:
            with contextlib.suppress(OSError):
                before = info.path.stat()
                loaded = self._loaded.get((info.path, before.st_mtime_ns))
                if loaded is not None and (folder is None or _is_fresh(folder, info.path)):
                    return loaded
            stat: os.stat_result | None
            prebuilt = info.path in self._prebuilt
            found: bytes | None
            if folder is not None:
                found, stat = self._bundled_bytes(folder, info.path)
            else:
                stat = info.path.stat()
                found = (kept.read_beside(info.path, MAX_INPUT_BYTES) if prebuilt
                         else read_regular(info.path))
            if found is None:  # a prebuilt file whose seal does not vouch for it
                return self._load_instead(info)
            db = Database.read(found)
            fresh = self._describe(db, info.path, info.bundled)
            members = None
            # A prebuilt file's seal vouches for what the packer wrote: not checked again.
            if not prebuilt and (stat is None or not self.descriptions.checked(info.path, stat)):
                members = check_structure(db)
                if stat is not None:
                    self.descriptions.mark_checked(info.path, stat)
            self.descriptions.save()
        except OSError as exc:
            raise InvalidPlugin(f"cannot read {info.path}: {exc.strerror or exc}") from None
        except PrcError as exc:
            problem = one_line(exc)
            if folder is not None:
                problem = problem.replace(f"{folder}{os.sep}", "")
            raise InvalidPlugin(problem) from None
        shipped = (ShippedPixels(self.prebuilt_root, info.path.name, found)
                   if prebuilt and self.prebuilt_root is not None else None)
        pixels = (PixelCache(self.storage.cache_dir, info.path, stat, shipped)
                  if stat is not None else None)
        loaded = LoadedPlugin(fresh, db, members, pixels)
        self._loaded[(info.path, stat.st_mtime_ns if stat is not None else 0)] = loaded
        return loaded

    def in_use(self, creator: str, slot: str) -> list[LoadedPlugin]:
        """The plugins `chosen` would give for each kind in `slot`, where that needs no
        fallback (so nothing is reported): for getting a slot ready ahead of time."""
        found = []
        for info in self.in_use_infos(creator, slot):
            with contextlib.suppress(InvalidPlugin):
                found.append(self.load(info))
        return found

    def in_use_infos(self, creator: str, slot: str) -> list[PluginInfo]:
        """What `in_use` loads, not loaded (nothing is built or read)."""
        found = []
        for kind in sorted({p.kind for p in self.find(creator, slot=slot)}):
            name = self.choice(creator, kind, slot)
            info = (self.by_name(creator, kind, name) if name is not None
                    else self.default_for(creator, kind, slot))
            if info is not None and info.serves(slot):
                found.append(info)
        return found

    def keep_pixels(self, limit: int | None = 1) -> bool:
        """Write up to `limit` (None: all) of the pictures decoded since the last call
        into the pixel cache, for idle time; whether any are still waiting."""
        for loaded in self._loaded.values():
            if loaded.pixels is None or limit == 0:
                continue
            written = loaded.pixels.write_pending(limit)
            limit = None if limit is None else limit - written
        return any(p.pixels is not None and p.pixels.pending for p in self._loaded.values())

    @property
    def building(self) -> bool:
        """Whether the background build (prebuild) is still running."""
        return self._prebuilding is not None and self._prebuilding.poll() is None

    def default_for(self, creator: str, kind: str, slot: str) -> PluginInfo | None:
        """The plugin used when nothing (usable) is chosen: the default bundled one, or the
        installed plugin that replaces it (same name) if that serves the slot; for a game
        that bundles none, the first installed one (as its Preferences show)."""
        serving = self.find(creator, kind, slot)  # fills self._bundled on first use
        bundled = [p for p in self._bundled or [] if p.creator == creator and p.kind == kind
                   and p.serves(slot)]
        bundled.sort(key=lambda p: (not p.default, p.path.name))
        if not bundled:
            return serving[0] if serving else None
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
        if slot not in SLOTS or (kind not in KINDS and not self.find(creator, kind)):
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

    def install(self, source: Path, replaced: list[PluginInfo] | None = None) -> PluginInfo:
        """Validate a .prc fully and copy it into storage (like a HotSync).

        One file per (name, type, creator): an installed plugin with all three
        equal is replaced (and appended to `replaced`, so the caller can say
        so); any other plugin, even of the same name, is left alone.
        """
        try:
            data = read_regular(source)
        except FileProblem as exc:
            raise InvalidPlugin(str(exc)) from None
        try:
            db = Database.read(data)
        except PrcError as exc:
            raise NotADatabase(one_line(exc)) from None
        try:
            info = describe(db, source)
            check_contents(db)
        except PrcError as exc:
            raise InvalidPlugin(one_line(exc)) from None
        identity = (info.name, info.db_type, info.creator)
        self.refresh(bundled=False)  # what is installed now (cheap: the index)
        same = [p for p in self.all()
                if not p.bundled and (p.name, p.db_type, p.creator) == identity]
        target = self._install_target(info, {p.path for p in same})
        target.parent.mkdir(parents=True, exist_ok=True)
        write_atomic(target, data, self.storage.durable)
        for old in same:
            if old.path != target:  # an older file name of the same plugin
                with contextlib.suppress(FileNotFoundError):
                    os.remove(old.path)
        if replaced is not None:
            replaced.extend(same)
        self._plugins = None
        return info.replace(path=target)

    def _install_target(self, info: PluginInfo, own: set[Path]) -> Path:
        """The plugin's file name, numbered when another plugin holds it (a file
        system that ignores case can make two different names meet)."""
        folder = self.storage.databases_dir
        stem = installed_file_name(info.name, info.db_type, info.creator)[: -len(".prc")]
        target = folder / f"{stem}.prc"
        number = 2
        while target.exists() and target not in own:
            target = folder / f"{stem}-{number}.prc"
            number += 1
        return target

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


def _header_only(folder: Path) -> Database:
    """A database holding just the 'pINF' that building `folder` would give (no pixels)."""
    from prc_tools import plugin
    from prc_tools.plugin import manifest

    found = manifest.load(folder)
    kind = 0 if found.is_records else ATTR_RESOURCE
    header = Database(found.name, found.type, found.creator, attributes=found.attributes | kind)
    if found.info is not None:  # none: a data database, which the scan passes over
        header.resources.append(
            Resource(pinf.INFO_TYPE, pinf.INFO_ID, plugin.info_bytes(found.info))
        )
    return header


def _is_fresh(folder: Path, target: Path, newest: float | None = None) -> bool:
    """Whether `target` was built from `folder` as it is now (no file in it is newer)."""
    try:
        built = target.stat().st_mtime
    except OSError:
        return False
    return built >= (_newest_mtime(folder) if newest is None else newest)


def _newest_mtime(folder: Path) -> float:
    """The newest modification time of the files under `folder` (0 when none).

    Walked with scandir, which knows an entry's kind without a stat of its own:
    this runs for every bundled folder at every start.
    """
    newest = 0.0
    pending = [str(folder)]
    while pending:
        try:
            with os.scandir(pending.pop()) as entries:
                for entry in entries:
                    if entry.is_dir(follow_symlinks=False):
                        pending.append(entry.path)
                    elif entry.is_file():
                        with contextlib.suppress(OSError):
                            newest = max(newest, entry.stat().st_mtime)
        except OSError:
            continue
    return newest

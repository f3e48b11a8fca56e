"""`Preview`: a plugin folder kept built and shown on a device (`palmish preview`).

Each build goes through `prc_tools` as `prc-tools build` does, is installed into
the device's storage as `palmish install` does, chosen for every configuration it
serves, and the device is told (`PluginsChanged`), so the running game lays out
again with it. A build that fails changes nothing on the device: the last good
build stays on screen and the strip draws the problem over it.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from pathlib import Path
from typing import Protocol, runtime_checkable

from palmish.apps import install_game_file, real_app
from palmish.boardgame import BoardGameApp
from palmish.boardgame.beam_send import beam
from palmish.device.display import config_by_name
from palmish.device.events import PluginsChanged
from palmish.device.exchange import PLUGIN, BeamItem
from palmish.device.machine.system import Device
from palmish.device.store.info import InvalidPlugin, one_line
from palmish.device.store.watched_folder import WatchedFolder
from palmish.device.ui.status_strip import StatusStrip
from prc_tools import Database, PrcError
from prc_tools.atomic import write_atomic
from prc_tools.cli import input_errors
from prc_tools.errors import PluginError
from prc_tools.plugin import build_folder
from prc_tools.schema import registry

BEAM = "Beam"
NEXT = "Next"  # a data folder of several items (levels): the next one
POLL_S = 0.2  # how often the window asks whether the folder changed (benchmarks/studio_preview.py)


def sound_names(game: str, db: Database) -> list[tuple[str, int]]:
    """The schema's names of the sounds `db` holds, by id (a 'wave' the schema does not
    name is called by its id)."""
    schema = registry().get(game)
    named = {id_: name for name, id_ in (schema.sounds.items() if schema else ())}
    return [(named.get(r.id, str(r.id)), r.id) for r in db.resources if r.type == "wave"]


@runtime_checkable
class ShowsData(Protocol):
    """A game that shows its own data (Sigmar's levels) in a preview: item `index`
    (wrapped) of the database `data`, already installed; the number of items, and a
    warning about the item shown (a level that cannot be cleared) or None.
    ValueError (one line) for data it cannot show."""

    def show_data(self, kind: str, data: bytes, index: int) -> tuple[int, str | None]: ...


class Preview:
    """The folder, the device it shows on, and the strip over the game."""

    interval_s = POLL_S

    def __init__(self, device: Device, folder: Path, game: str, kind: str,
                 say: Callable[[str], None],
                 clock: Callable[[], time.struct_time] = time.localtime) -> None:
        self.device = device
        self.folder = WatchedFolder(folder)
        self.game, self.kind = game, kind
        self._schema = registry().get(game)
        sample = self._schema.samples.get(kind) if self._schema is not None else None
        self._item_word = sample.what if sample is not None else "item"  # "level 1 of 2"
        self.say = say  # a line for the terminal (a problem in full)
        self.clock = clock
        self.data: bytes | None = None  # the last good build
        self.name: str | None = None
        self.builds = 0
        self.problem: str | None = None
        self._sounds: list[tuple[str, int]] = []  # a Sounds plugin's: (name, 'wave' id)
        self.configs: tuple[str, ...] = ()  # the slots the last good build serves
        self.is_data = False  # the last good build is a game's data (levels), no plugin
        self.index = 0  # the data's item shown (Next), of `items`
        self.items = 0
        self._stamp = ""  # the last good build's time, and its first warning
        self._warning: str | None = None
        self._shown_note: str | None = None  # the game's warning on the data item shown
        self._installed: Path | None = None  # the file the last data install wrote
        self._status = ""
        self._short: str | None = None  # the status for a narrow strip
        self._slot = device.config.plugin_slot  # the slot the strip was drawn for
        self.strip = StatusStrip(self._button)
        device.set_overlay(self.strip)

    # -- the window's Watcher --------------------------------------------------------

    def poll(self) -> bool:
        """One cheap scan; rebuild when the folder changed and settled. True when the
        screen changed."""
        if self.device.config.plugin_slot != self._slot:  # turned: the strip says so
            self._show_again()
            return True
        if not self.folder.due():
            return False
        self.rebuild()
        return True

    def rebuild(self) -> None:
        """Build, install and show the folder; a problem is drawn over the last build."""
        self.folder.mark_built()
        warnings: list[str] = []
        try:
            db = build_folder(self.folder.folder, schemas=registry(), warn=warnings.append)
            data = db.to_bytes()
        except PluginError as exc:
            return self._failed(one_line(exc))
        except PrcError as exc:
            return self._failed(f"{self.folder.folder}: {one_line(exc)}")
        except input_errors() as exc:
            return self._failed(f"{self.folder.folder}: {one_line(exc)}")
        except Exception as exc:  # the window outlives any one save, whatever it holds
            return self._failed(f"{self.folder.folder}: cannot be built"
                                f" ({type(exc).__name__}: {one_line(exc)})")
        try:
            self._install(db, data)
        except (InvalidPlugin, ValueError, OSError) as exc:
            return self._failed(one_line(exc))
        self.builds += 1
        self.problem = None
        self._stamp = time.strftime("%H:%M:%S", self.clock())
        if self._shown_note is not None:  # the data's own (a level that cannot be cleared)
            warnings.append(self._shown_note)
        self._warning = warnings[0] if warnings else None
        self._built_status()
        if self.is_data:
            self.device.draw_overlay()  # the game shows the data: nothing to lay out
        else:
            self.device.post(PluginsChanged())  # the game lays out again with it
            if self.builds == 1:
                self._show_plugin()
        for warning in warnings:
            self.say(f"warning: {warning}")

    def _show_plugin(self) -> None:
        """The game set up where the plugin is seen: a Pieces plugin on a position with
        every piece where the game has one, a Sigmar Hex Board in the hexagonal garden."""
        app = real_app(self.device.running_app)
        if isinstance(app, BoardGameApp) and app.show_plugin(self.kind):
            self.device.draw_overlay()

    def _built_status(self) -> None:
        shown = f"; {self._item_word} {self.index + 1} of {self.items}" if self.items > 1 else ""
        note = f"; {self._warning}" if self._warning else ""
        # Square's strip, with a turn button, Next and Beam, has room for some eight
        # letters: the item's number matters more there than "built" or the seconds
        short = f"{self.index + 1}/{self.items} {self._stamp}{note}" if shown else None
        self._show(f"built {self._stamp}{shown}{note}", None, draw=False, short=short)

    def _install(self, db: Database, data: bytes) -> None:
        staged = self.device.storage.cache_dir / "preview" / f"{self.folder.folder.name}.prc"
        staged.parent.mkdir(parents=True, exist_ok=True)
        write_atomic(staged, data)
        if db.resource("pINF", 0) is None:  # a game's data (levels): its own installer
            self._install_data(staged, db, data)
            return
        info = self.device.plugins.install(staged)
        self.is_data, self.items, self._shown_note = False, 0, None
        for slot in info.configs:
            self.device.plugins.choose(info.creator, info.kind, slot, info.name)
        self.data, self.name, self.configs = data, info.name, info.configs
        self._sounds = sound_names(self.game, db) if info.kind == "sound" else []

    def _install_data(self, staged: Path, db: Database, data: bytes) -> None:
        """Install a data database as `palmish install` does (the game's installer),
        then let the game show item `index` of it; ValueError (one line) naming the
        folder, not the staged copy, when either refuses it."""
        files = self.device.storage.files_dir(db.creator)
        before = _stamps(files)
        try:
            done = install_game_file(staged, self.device.storage)
            if done is None:
                raise ValueError(f"{staged}: no game installs this database (not a plugin"
                                 " either: no 'pINF')")
            self._forget_renamed(files, before)
            app = real_app(self.device.running_app)
            if not isinstance(app, ShowsData):
                raise ValueError(f"{staged}: {app.name} shows no {self.kind} in a preview")
            self.items, self._shown_note = app.show_data(self.kind, data, self.index)
        except ValueError as exc:
            raise ValueError(str(exc).replace(str(staged), str(self.folder.folder))) from None
        self.index %= self.items
        self.is_data = True
        self.data, self.name = data, db.name
        self.configs = self._schema.configs if self._schema is not None else ()
        self._sounds = []

    def _forget_renamed(self, files: Path, before: dict[Path, tuple[int, int]]) -> None:
        """The file this install wrote (the one new or rewritten); the one the last
        build wrote is removed when it is another (the database was renamed), so the
        game's lists hold no stale copy of the folder."""
        written = [p for p, stamp in _stamps(files).items() if before.get(p) != stamp]
        if len(written) != 1:
            return
        old, self._installed = self._installed, written[0]
        if old is not None and old != written[0]:
            old.unlink(missing_ok=True)

    def _failed(self, problem: str) -> None:
        self.problem = problem
        self.say(problem)
        stamp = time.strftime("%H:%M:%S", self.clock())
        # On the screen the files are named inside the folder (the terminal has it all).
        inside = problem.replace(f"{self.folder.folder}{os.sep}", "")
        self._show(f"failed {stamp}", inside)

    def _show(self, status: str, problem: str | None, draw: bool = True,
              short: str | None = None) -> None:
        self._status, self._short = status, short
        slot = self._slot = self.device.config.plugin_slot
        note = f"; not for {slot}" if self.configs and slot not in self.configs else ""
        following = (NEXT,) if self.items > 1 else ()
        self.strip.show(status + note, problem, buttons=(*self._turns(), *following, BEAM),
                        pads=[name for name, _ in self._sounds],
                        short=None if short is None else short + note)
        if draw:
            self.device.draw_overlay()

    def _show_again(self) -> None:
        """The last status and problem, drawn for the configuration now."""
        self._show(self._status, self.problem, short=self._short)

    def _turns(self) -> tuple[str, ...]:
        """The button to the next configuration the build serves (none for one)."""
        if len(self.configs) < 2:
            return ()
        slot = self.device.config.plugin_slot
        at = self.configs.index(slot) if slot in self.configs else -1
        return (self.configs[(at + 1) % len(self.configs)].capitalize(),)

    # -- buttons -----------------------------------------------------------------

    def _button(self, label: str) -> None:
        if label == BEAM:
            self.beam()
            return
        if label == NEXT:
            self.next_item()
            return
        if label.lower() in self.configs:
            self.device.change_config(config_by_name(label.lower()))
            self._show_again()
            return
        for name, id_ in self._sounds:
            if name == label and self.data is not None:
                found = Database.read(self.data).resource("wave", id_)
                if found is not None:
                    self.device.queue_sound(found.data)

    def next_item(self) -> None:
        """Next: a data folder's next item (level) from its start; after the last, the
        first. A game that refuses it now (a file changed since) leaves the screen as it
        was, the problem said over it."""
        if self.data is None or not self.is_data or self.items < 2:
            return
        self.index = (self.index + 1) % self.items
        app = real_app(self.device.running_app)
        try:
            if isinstance(app, ShowsData):
                self.items, self._shown_note = app.show_data(self.kind, self.data, self.index)
        except ValueError as exc:
            return self._failed(one_line(exc))
        self._warning = self._shown_note
        if self._shown_note is not None:
            self.say(f"warning: {self._shown_note}")
        if self.problem is None:
            self._built_status()
        self.device.draw_overlay()

    def beam(self) -> None:
        """Beam the last good build (the Beam dialogs every game's Beam uses)."""
        if self.data is None or self.name is None:
            self.device.notify("Nothing to beam: the folder has not built yet")
            return
        beam(BeamItem(PLUGIN, data=self.data), self.name,
             lambda modal, on_close: self.device.open_modal(modal, on_close, system=True),
             self.device.beam_service())


def _stamps(folder: Path) -> dict[Path, tuple[int, int]]:
    """(inode, mtime) of each file in `folder` (an atomic write makes a new inode)."""
    try:
        with os.scandir(folder) as entries:
            return {Path(e.path): (e.inode(), e.stat().st_mtime_ns) for e in entries
                    if e.is_file()}
    except OSError:
        return {}

"""The emulated handheld: routes events, owns the screen, switches apps, keeps time.

Pen events go to the topmost modal if there is one, else to the status bar or
the app, by where the pen went down (the pen stays with that owner until it is
lifted). Keys go to the modal, else the app; Menu opens the app's menu bar and
Home returns to the launcher; Cancel (Escape) closes the topmost modal, or with
none open is Home. Typed characters go to a modal that wants text; a command
stroke + letter runs the app's menu item with that shortcut. Rotation and the
input-area toggle change the configuration live: a new framebuffer, the OS
parts redrawn, DisplayChanged to the app. No pyglet here: a frontend or a
script drives the device by `post`.
"""

from __future__ import annotations

import queue
import subprocess
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from palmish.device.beam.beaming import BeamDesk, BeamService
from palmish.device.disk import resources
from palmish.device.disk.datalock import DataDirLock
from palmish.device.disk.resources import Bundled
from palmish.device.disk.storage import Reporter, Storage, report_to_stderr
from palmish.device.display import DisplayConfig, input_area_toggled, rotated
from palmish.device.events import (
    BeamDone,
    BeamOffered,
    BeamProgress,
    CharKey,
    DisplayChanged,
    Event,
    Key,
    KeyDown,
    MenuCommand,
    NetworkClosed,
    NetworkLine,
    NetworkNews,
    PenDown,
    PenMove,
    PenUp,
    PluginsChanged,
    Rotate,
    Tick,
    ToggleInputArea,
)
from palmish.device.geometry import Rect
from palmish.device.graphics.screen import WHITE, Framebuffer
from palmish.device.machine.app import App
from palmish.device.machine.context import DeviceContext
from palmish.device.machine.inputarea import draw_input_area
from palmish.device.machine.overlay import Overlay
from palmish.device.machine.services import NetworkService
from palmish.device.machine.statusbar import (
    StatusButton,
    button_at,
    button_enabled,
    draw_status_bar,
)
from palmish.device.store.plugins import PluginRegistry
from palmish.device.ui.alert import Alert
from palmish.device.ui.menubar import MenuBar, shortcut_command
from prc_tools.frozen import Frozen

if TYPE_CHECKING:
    from palmish.device.ui.modal import Modal

LAUNCHER_CREATOR = "lnch"
HARD_BUTTON_KEYS = (Key.APP1, Key.APP2, Key.APP3, Key.APP4)
MAX_TICKS_PER_ADVANCE = 1000  # a timer of 0 ms cannot starve the caller


def find_app(apps: Sequence[App], name: str) -> App | None:
    """The app with this id, name or creator code (exact first, then in any case)."""
    for app in apps:
        if name in (app.id, app.name, app.creator):
            return app
    folded = name.casefold()
    for app in apps:
        if folded in (app.id.casefold(), app.name.casefold(), app.creator.casefold()):
            return app
    return None


def app_list(apps: Sequence[App]) -> str:
    """The apps as `id (Name)`, for messages."""
    return ", ".join(f"{a.id} ({a.name})" for a in apps)


class Services(Frozen):
    """What the command line offers the apps beyond the device (the window's network
    games and Beam): factories the device calls with itself when an app first asks,
    as PyBoy hands its plugins the emulator; None: not offered (tests, screenshots,
    scripts), and nothing opens a socket."""

    network: Callable[[Device], NetworkService] | None = None
    beam: Callable[[Device], BeamService] | None = None


NO_SERVICES = Services()


class _OpenModal(Frozen):
    """A modal on screen and who gets its result."""

    modal: Modal
    on_close: Callable[[object], None] | None
    system: bool = False  # a system dialog (Beam's): it stays when the app changes


class Device:
    """One handheld: a display configuration, storage, plugins and the installed apps."""

    def __init__(
        self,
        config: DisplayConfig,
        data_dir: Path,
        apps: Sequence[App],
        start_app: str | None = None,
        *,
        report: Reporter = report_to_stderr,
        durable: bool = True,
        bundled_plugins: Bundled | Path | None = None,
        cache_dir: Path | None = None,
        alerts: bool = True,
        exclusive: bool = False,
        buttons: Sequence[str] = (),
        services: Services = NO_SERVICES,
    ) -> None:
        """`exclusive`: take the data directory's lock (DeviceInUse, a ValueError, if
        another process holds it) and clear leftovers of interrupted saves.
        `services`: what the command line offers the apps beyond the device (the
        window's network games and Beam), each made when first asked for."""
        self.services = services
        self._network: NetworkService | None = None
        self._beam: BeamService | None = None
        if not apps:
            raise ValueError("a device needs at least one app")
        self._lock: DataDirLock | None = None
        if exclusive:
            self._lock = DataDirLock(data_dir)
            self._lock.acquire()
        try:
            self._setup(config, data_dir, apps, start_app, report, durable, bundled_plugins,
                        cache_dir, alerts, buttons)
        except BaseException:
            self._release_lock()
            raise

    def _setup(
        self,
        config: DisplayConfig,
        data_dir: Path,
        apps: Sequence[App],
        start_app: str | None,
        report: Reporter,
        durable: bool,
        bundled_plugins: Bundled | Path | None,
        cache_dir: Path | None,
        alerts: bool,
        buttons: Sequence[str],
    ) -> None:
        self.apps: list[App] = list(apps)
        # App ids (or names) the hard buttons APP1..APP4 launch; an absent one does nothing.
        # Without this table the app buttons reach the running app as keys.
        self.buttons = tuple(buttons)
        self.config = config
        self.now_ms = 0
        self.messages: list[str] = []
        self._report = report
        self._alerts = alerts
        self._shown: set[str] = set()
        self._pending_notices: list[str] = []
        self.storage = Storage(data_dir, self.notify, durable, cache_dir)
        if self._lock is not None:
            lock = self._lock
            self.storage.lock_lost = lambda: not lock.still_ours()
            if lock.read_only is None:
                self.storage.remove_stale_temporaries()
            else:  # a read-only disk: the device runs, and says once that it saves nothing
                self.storage.refuse_saves(f"cannot be written ({lock.read_only}):"
                                          " running without saving")
        root = bundled_plugins if bundled_plugins is not None else resources.bundled_plugins()
        self.plugins = PluginRegistry(self.storage, root, self.notify)
        self.screen = Framebuffer(config.width, config.height, config.density)
        self._modals: list[_OpenModal] = []
        # Events from other threads (the network's): the window's clock polls
        # them in (post_waiting) while `polled` is set; nothing else is shared.
        self.inbox: queue.SimpleQueue[Event] = queue.SimpleQueue()
        self.polled = False
        self._sounds: list[bytes] = []
        self._timer_due: int | None = None
        self._aside = False  # the dialogs stepped aside while the app handles an event
        self._pen_owner: str | None = None  # "modal", "status", "app", "ignore"
        self._pressed: StatusButton | None = None
        self._portrait: DisplayConfig | None = None  # what a rotation from landscape returns to
        self._switch_to: str | None = None
        self._running = False
        self._warming: Iterator[bool] | None = None  # warm_up()'s steps
        self.beams = BeamDesk(self)  # the Accept dialog and progress of beams
        self.overlay: Overlay | None = None  # a strip over the app (palmish preview's)
        first = self.find_app(start_app) if start_app is not None else self._default_app()
        if first is None:
            raise ValueError(f"no app named {start_app!r} (installed: {self.app_list()})")
        self.running_app = first
        self._context = DeviceContext(self, first)
        self._draw_system_areas()
        self._start(first)
        self._after_event()

    # ------------------------------------------------------------ public API

    @property
    def modals(self) -> tuple[Modal, ...]:
        """The open modals, bottom first."""
        return tuple(m.modal for m in self._modals)

    @property
    def context(self) -> DeviceContext:
        """The running app's context."""
        return self._context

    def post(self, event: Event) -> None:
        """Feed one event (pen in LCD pixels, keys, rotate, input-area toggle, menu command)."""
        if not self._running:
            return
        if isinstance(event, (PenDown, PenMove, PenUp)):
            self._pen(event)
        elif isinstance(event, KeyDown):
            self._key(event.key)
        elif isinstance(event, CharKey):
            self._char(event)
        elif isinstance(event, Rotate):
            self._rotate()
        elif isinstance(event, ToggleInputArea):
            self.change_config(input_area_toggled(self.config))
        elif isinstance(event, MenuCommand):
            for entry in [m for m in self._modals if m.modal.closed]:
                self._close_modal(entry, notify=True)  # closed since the last event
            if self._modals:  # no menu bar opens over a dialog: the Menu key's doing
                self._key(Key.MENU)
            else:
                self.running_app.handle(event)
        elif isinstance(event, NetworkNews) and event.beam:
            self.beams.news(event.text)
        elif isinstance(event, (NetworkLine, NetworkClosed, NetworkNews)):
            # Past any open dialog (another device's move never waits for this
            # one's menus).
            self._behind_dialogs(event)
        elif isinstance(event, BeamOffered | BeamProgress | BeamDone):
            self.beams.handle(event)
        elif isinstance(event, PluginsChanged):
            self.plugins.refresh(bundled=False)  # the installed index: cheap
            self._behind_dialogs(event)
        # DisplayChanged, AppStart, AppStop and Tick are the device's own to send.
        self._after_event()

    def wants_text(self) -> bool:
        """True when typed characters have a taker: the topmost modal reads them."""
        return bool(self._modals) and self._modals[-1].modal.wants_text

    def takes_enter(self) -> bool:
        """True when Enter is a typed character for the topmost modal (one that reads
        text, or a form whose default button it presses), not the Select button."""
        return bool(self._modals) and (
            self._modals[-1].modal.wants_text or self._modals[-1].modal.takes_enter)

    def take_damage(self) -> list[Rect]:
        """The changed regions of the screen since the last call (merged, on screen)."""
        return self.screen.take_damage()

    def take_sounds(self) -> list[bytes]:
        """The RIFF WAVE sounds apps asked for since the last call, in order."""
        sounds, self._sounds = self._sounds, []
        return sounds

    def _behind_dialogs(self, event: Event) -> None:
        """The app handles `event` under the open dialogs: they step aside while it
        paints, then are drawn again over it, saving what is now behind them."""
        before = list(self._modals)
        for entry in reversed(before):
            entry.modal.erase(self.screen)
        self._aside = True
        try:
            self.running_app.handle(event)
        finally:
            self._aside = False
        # A dialog the app opened meanwhile was drawn over the bare board: it steps
        # aside too, so that every dialog is drawn again in its order on the stack.
        for entry in reversed([e for e in self._modals if e not in before]):
            entry.modal.erase(self.screen)
        for entry in self._modals:
            entry.modal.draw(self.screen)

    def _timer_waits(self) -> bool:
        """A dialog is open and the app is not one whose clock runs on behind it."""
        return bool(self._modals) and not self.running_app.runs_behind_dialogs()

    def advance(self, now_ms: int) -> None:
        """Move device time forward to `now_ms`, firing the app's timer each time it falls due.

        The clock steps to each due time, so a timer the app sets again from its
        Tick fires again within the same stretch (a demo playing through a long
        `wait`). While a modal is open the app's timer waits (the app is not in front),
        unless the app runs behind dialogs (a network game).
        """
        target = max(self.now_ms, int(now_ms))
        for _ in range(MAX_TICKS_PER_ADVANCE):
            due = self._timer_due
            if not self._running or due is None or due > target or self._timer_waits():
                break
            self.now_ms = max(self.now_ms, due)
            self._timer_due = None
            self._behind_dialogs(Tick(self.now_ms))
            self._after_event()
        self.now_ms = target

    def set_clock(self, now_ms: int) -> None:
        """Real time has reached `now_ms` (a window's clock): device time moves there
        without firing anything, so input is handled at the time it happens and a
        timer the app sets from it counts from now, not from the last timer that fired."""
        self.now_ms = max(self.now_ms, int(now_ms))

    def post_waiting(self) -> bool:
        """Post the events other threads left in the inbox; True if there were any."""
        posted = False
        while True:
            try:
                event = self.inbox.get_nowait()
            except queue.Empty:
                return posted
            self.post(event)
            posted = True

    def catch_up(self, now_ms: int) -> None:
        """Real time has reached `now_ms`: the clock moves there and a timer that is due
        fires once, however late; missed periods are dropped, not replayed in a burst
        (a window that was busy or idle does not owe the app every tick since).
        `advance` is the scripted clock instead: there, every tick is on time."""
        self.set_clock(now_ms)
        due = self._timer_due
        if self._running and due is not None and due <= self.now_ms and not self._timer_waits():
            self._timer_due = None
            self._behind_dialogs(Tick(self.now_ms))
            self._after_event()

    def next_timer_ms(self) -> int | None:
        """When the next timer is due (device time), None if none can fire now."""
        if self._timer_waits():
            return None
        return self._timer_due

    def find_app(self, name: str) -> App | None:
        """An installed app by id, name or creator code (exact first, then in any case)."""
        return find_app(self.apps, name)

    def app_list(self) -> str:
        """The installed apps as `id (Name)`, for messages."""
        return app_list(self.apps)

    def switch_to(self, name: str) -> None:
        """Stop the running app (it saves) and start another; ValueError for an unknown one."""
        app = self.find_app(name)
        if app is None:
            raise ValueError(f"no app named {name!r}")
        if app is self.running_app and self._running:
            return
        if self._running:
            self._stop_running()
        self.screen.fill(self.config.app_bounds, WHITE)
        self._start(app)
        self._after_event()

    def go_home(self) -> None:
        """Home: back to the launcher; on the launcher itself, just close any dialogs."""
        launcher = self._launcher()
        if launcher is None or launcher is self.running_app:
            self._close_all_modals()
        else:
            self.switch_to(launcher.name)

    def prepare_in_background(self) -> subprocess.Popen[bytes] | None:
        """Build, in another process, the bundled plugins the first screen did not need.

        The window calls this once its first frame is up, so that a later turn
        finds the other configurations' plugins built (the turned one's first).
        The process, or None.
        """
        turned = rotated(self.config).plugin_slot
        first = self.plugins.in_use_infos(self.running_app.creator, turned)
        return self.plugins.prebuild(info.path for info in first)

    def warm_up(self) -> bool:
        """One small step of getting the turned configuration ready; False when done.

        For idle time once the first frame is up: after the background build,
        each step decodes one bitmap of the running app's plugins for the slot
        and density the device has when turned, so the turn itself finds them
        decoded; then each step writes one decoded picture to the pixel cache.
        Nothing is reported from here (a broken choice is left for the turn to
        report).
        """
        if self._warming is None:
            self._warming = self._warm_steps()
        return next(self._warming, False) or self.plugins.keep_pixels()

    def _warm_steps(self) -> Iterator[bool]:
        while self.plugins.building:
            yield True
        turned = rotated(self.config)
        for loaded in self.plugins.in_use(self.running_app.creator, turned.plugin_slot):
            for id_ in loaded.bitmap_ids():
                loaded.bitmap(id_, turned.density)
                yield True

    def shutdown(self) -> None:
        """Stop the running app so that it saves its state; the device is then idle.

        The data directory's lock (if taken) is released after the last save.
        """
        try:
            if self._running:
                self._stop_running()
            self.plugins.keep_pixels(None)  # what idle time did not write yet
        finally:
            self._release_lock()

    def _release_lock(self) -> None:
        if self._lock is not None:
            self._lock.release()
            self._lock = None

    def change_config(self, config: DisplayConfig) -> None:
        """Switch to another display configuration live (rotate, input-area toggle)."""
        if config == self.config:
            return
        self.config = config
        self.screen = Framebuffer(config.width, config.height, config.density)
        self._pressed = None
        self._draw_system_areas()
        if self._running:
            self.running_app.handle(DisplayChanged(config, config.app_bounds))
        self._relayout_modals()

    # --------------------------------------------- services for the context

    def network(self) -> NetworkService | None:
        """The network game service, made on first use; None where none is offered."""
        if self.services.network is None:
            return None
        if self._network is None:
            self._network = self.services.network(self)
        return self._network

    def beam_service(self) -> BeamService | None:
        """The Beam service, made on first use; None where none is offered."""
        if self.services.beam is None:
            return None
        if self._beam is None:
            self._beam = self.services.beam(self)
        return self._beam

    def set_timer(self, delay_ms: int | None) -> None:
        self._timer_due = None if delay_ms is None else self.now_ms + delay_ms

    def queue_sound(self, wave: bytes) -> None:
        self._sounds.append(wave)

    def request_switch(self, name: str) -> None:
        if self.find_app(name) is None:
            raise ValueError(f"no app named {name!r}")
        self._switch_to = name

    def open_modal(self, modal: Modal, on_close: Callable[[object], None] | None = None,
                   system: bool = False) -> None:
        """Show a modal on top; `system`: it stays open when the app changes."""
        self._modals.append(_OpenModal(modal, on_close, system))
        modal.layout(self.config.app_bounds, self.config.density)
        modal.draw(self.screen)

    def redraw_modal(self, modal: Modal) -> None:
        """An open modal changed (a progress bar moved): draw it again."""
        if any(entry.modal is modal for entry in self._modals):
            modal.draw(self.screen)

    def close_modal(self, modal: Modal) -> None:
        """Close an open modal from outside (its beam ended, the question no longer
        applies) without its result; the modals above it step aside meanwhile, so what
        it covered is put back under them (behind the dialogs they are aside already,
        and drawn again once the app has painted)."""
        for entry in [e for e in self._modals if e.modal is modal]:
            above = [] if self._aside else self._modals[self._modals.index(entry) + 1:]
            for other in reversed(above):
                other.modal.erase(self.screen)
            modal.close(None)
            self._close_modal(entry, notify=False)
            for other in above:
                other.modal.draw(self.screen)

    def notify(self, message: str) -> None:
        """A one-line message for the user: logged, and shown in an alert once per session."""
        self.messages.append(message)
        self._report(message)
        if self._alerts and message not in self._shown:
            self._shown.add(message)
            self._pending_notices.append(message)

    # ---------------------------------------------------------------- events

    def _pen(self, event: PenDown | PenMove | PenUp) -> None:
        if isinstance(event, PenDown):
            if self._modals and self._modal_event(event):
                self._pen_owner = "modal"
                return
            self._pen_owner = self._pen_target(event.x, event.y)
            if self._pen_owner == "status":
                self._press(button_at(self.config, event.x, event.y))
            self._pen_to_owner(event, self._pen_owner)
            return
        owner = self._pen_owner
        if isinstance(event, PenUp):
            self._pen_owner = None
        if owner is None:
            return  # a move or lift without a pen-down
        if owner == "modal":
            if self._modals:
                self._modal_event(event)
            return
        self._pen_to_owner(event, owner)

    def _pen_to_owner(self, event: PenDown | PenMove | PenUp, owner: str) -> None:
        if owner == "overlay" and self.overlay is not None:
            self.overlay.pen(event)
            self.draw_overlay()
        elif owner == "status":
            self._status_pen(event)
        elif owner == "app":
            self.running_app.handle(event)

    def _pen_target(self, x: int, y: int) -> str:
        bar = self.config.status_bar
        if bar is not None and bar.contains(x, y):
            return "status"
        if self.overlay is not None and not self._modals and self.overlay.contains(x, y):
            return "overlay"
        if self.config.app_bounds.contains(x, y) and not self._modals:
            return "app"
        return "ignore"  # the input area, or off the LCD

    def _status_pen(self, event: PenDown | PenMove | PenUp) -> None:
        under = button_at(self.config, event.x, event.y)
        if isinstance(event, PenMove):
            if under is not self._pressed and self._pressed is not None:
                self._press(None)
            return
        if isinstance(event, PenUp):
            pressed = self._pressed
            self._press(None)
            if pressed is not None and under is pressed:
                self._status_button(pressed)

    def _press(self, button: StatusButton | None) -> None:
        if button is not None and not button_enabled(self.config, button):
            button = None
        if button is not self._pressed:
            self._pressed = button
            draw_status_bar(self.screen, self.config, button)

    def _status_button(self, button: StatusButton) -> None:
        if button is StatusButton.HOME:
            self._key(Key.HOME)
        elif button is StatusButton.MENU:
            self._key(Key.MENU)
        elif button is StatusButton.INPUT_AREA:
            self.change_config(input_area_toggled(self.config))
        elif button is StatusButton.ROTATE:
            self._rotate()

    def _rotate(self) -> None:
        # Back from landscape to the portrait configuration the user came from.
        if not self.config.landscape:
            self._portrait = self.config
        self.change_config(rotated(self.config, self._portrait))

    def _key(self, key: Key) -> None:
        if self._modals and self._modal_event(KeyDown(key)):
            return
        if key in (Key.HOME, Key.CANCEL):  # Cancel with nothing open to cancel is Home
            self.go_home()
            return
        if self._modals:
            return
        if key is Key.MENU:
            self._open_menu_bar()
            return
        if key in HARD_BUTTON_KEYS and self.buttons:
            self._hard_button(HARD_BUTTON_KEYS.index(key))
            return
        self.running_app.handle(KeyDown(key))

    def _char(self, event: CharKey) -> None:
        if self._modals:
            self._modal_event(event)
            return
        if event.command:
            command = shortcut_command(self.running_app.menus(), event.char)
            if command is not None:
                self.running_app.handle(MenuCommand(command))
            return
        self.running_app.handle(event)  # a game may read letters (Pachisi's P passes)

    def _hard_button(self, index: int) -> None:
        """Launch the button's app, as a Palm's hard buttons do; nothing if it is absent."""
        if index < len(self.buttons):
            app = self.find_app(self.buttons[index])
            if app is not None:
                self.switch_to(app.name)

    def _open_menu_bar(self) -> None:
        menus = self.running_app.menus()
        if not menus:
            return
        def chosen(result: object) -> None:
            if isinstance(result, str) and self._running:
                self.running_app.handle(MenuCommand(result))

        self.open_modal(MenuBar(menus, self.config), chosen)

    # ---------------------------------------------------------------- modals

    def _modal_event(self, event: Event) -> bool:
        """Offer an event to the topmost modal; False if it left the event alone."""
        entry = self._modals[-1]
        consumed = entry.modal.handle(event)
        if entry.modal.closed:
            self._close_modal(entry, notify=True)
        elif consumed:
            entry.modal.draw(self.screen)
        return consumed

    def _close_modal(self, entry: _OpenModal, notify: bool) -> None:
        if entry in self._modals:
            self._modals.remove(entry)
        entry.modal.erase(self.screen)
        if notify and entry.on_close is not None:
            entry.on_close(entry.modal.result)

    def _close_all_modals(self) -> None:
        """Close the app's modals; system dialogs stay (drawn again over the next app)."""
        for entry in reversed(self._modals):
            entry.modal.erase(self.screen)
        self._modals = [entry for entry in self._modals if entry.system]
        self._relayout_modals()

    def _relayout_modals(self) -> None:
        """Every open modal re-places itself and is drawn again (after a display change,
        or over the app under it now)."""
        for entry in self._modals:
            entry.modal.layout(self.config.app_bounds, self.config.density)
            entry.modal.draw(self.screen)

    # ------------------------------------------------------------- apps

    def _default_app(self) -> App:
        return self._launcher() or self.apps[0]

    def _launcher(self) -> App | None:
        return next((a for a in self.apps if a.creator == LAUNCHER_CREATOR), None)

    def _start(self, app: App) -> None:
        self.running_app = app
        self._context = DeviceContext(self, app)
        self._running = True
        app.start(self._context)
        self._relayout_modals()  # system dialogs kept from the app before

    def _stop_running(self) -> None:
        self._close_all_modals()
        self._context.active = False
        self._timer_due = None
        self._pen_owner = None
        self._running = False
        self.running_app.stop()

    def _draw_system_areas(self) -> None:
        draw_status_bar(self.screen, self.config, self._pressed)
        draw_input_area(self.screen, self.config)

    def _after_event(self) -> None:
        """Work that must wait until the app has returned: switches, then notices."""
        for _ in range(8):
            target, self._switch_to = self._switch_to, None
            if target is None:
                break
            self.switch_to(target)
        if self._pending_notices and not self._modals and self._running:
            text = "\n".join(self._pending_notices)
            self._pending_notices.clear()
            self._show_alert(text)
        self.draw_overlay()

    def set_overlay(self, overlay: Overlay | None) -> None:
        """Show `overlay` over the app from now on (None: none; the app repaints)."""
        self.overlay = overlay
        if overlay is None and self._running:
            self.running_app.handle(DisplayChanged(self.config, self.config.app_bounds))
        self.draw_overlay()

    def draw_overlay(self) -> None:
        """Draw the overlay again over the app (after every event; or when it changed)."""
        if self.overlay is not None and not self._modals:
            self.overlay.draw(self.screen, self.config.app_bounds, self.config.input_area)

    def _show_alert(self, text: str) -> None:
        self.open_modal(Alert("Note", text))

"""A small app that records what reaches it, and a device factory for the device tests."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from palmish.device.display import CONFIGS, ConfigName
from palmish.device.events import DisplayChanged, Event, PenDown
from palmish.device.machine.app import App, AppContext
from palmish.device.machine.system import Device
from palmish.device.menus import Menu, MenuItem
from palmish.launcher import LauncherApp

FIXTURE_PLUGINS = Path(__file__).parent / "fixtures" / "plugins"
APP_COLOUR = (200, 40, 40)


class RecordingApp(App):
    """Records events; counts pen-downs (its 'state'), saved on stop and restored on start."""

    def __init__(self, name: str = "Recorder", creator: str = "TRec") -> None:
        self.name = name
        self.creator = creator
        self.events: list[Event] = []
        self.taps = 0
        self.starts = 0
        self.stops = 0
        self.ctx: AppContext | None = None

    def start(self, ctx: AppContext) -> None:
        self.ctx = ctx
        self.starts += 1
        saved = ctx.load_state()
        self.taps = int(saved.decode()) if saved else 0
        self.draw()

    def stop(self) -> None:
        assert self.ctx is not None
        self.ctx.save_state(str(self.taps).encode())
        self.stops += 1
        self.ctx = None

    def handle(self, event: Event) -> None:
        self.events.append(event)
        if isinstance(event, PenDown):
            self.taps += 1
        if isinstance(event, DisplayChanged):
            self.draw()

    def menus(self) -> tuple[Menu, ...]:
        return (Menu("Game", (MenuItem("New Game", "new-game", "N"), MenuItem("Undo", "undo"))),)

    def draw(self) -> None:
        assert self.ctx is not None
        self.ctx.screen.fill(self.ctx.bounds, APP_COLOUR)

    def of_type(self, kind: type) -> list[Event]:
        return [e for e in self.events if isinstance(e, kind)]


@pytest.fixture
def recording_app() -> RecordingApp:
    return RecordingApp()


@pytest.fixture
def app_class() -> type[RecordingApp]:
    return RecordingApp


MakeDevice = Callable[..., Device]


@pytest.fixture
def make_device(tmp_path: Path, recording_app: RecordingApp) -> MakeDevice:
    """Device(config name, apps=[launcher, recording_app], start=recording app) in tmp_path."""

    def make(
        config: str = "square",
        apps: list[App] | None = None,
        start: str | None = "Recorder",
        data_dir: Path | None = None,
        **options: object,
    ) -> Device:
        options.setdefault("bundled_plugins", FIXTURE_PLUGINS)
        options.setdefault("report", lambda message: None)
        return Device(
            CONFIGS[ConfigName(config)],
            data_dir or tmp_path / "data",
            apps if apps is not None else [LauncherApp(), recording_app],
            start,
            **options,  # type: ignore[arg-type]
        )

    return make


@pytest.fixture(scope="session")
def shared_cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A plugin cache shared by the tests that run the real apps (built once)."""
    return tmp_path_factory.mktemp("plugin-cache")


@pytest.fixture
def bundled(tmp_path: Path) -> Path:
    """A private copy of the fixture plugin folders (tests touch their files)."""
    root = tmp_path / "bundled"
    shutil.copytree(FIXTURE_PLUGINS, root)
    return root

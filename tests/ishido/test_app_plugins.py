"""PalmIshido's Preferences and Plugin Manager with an installed plugin, through the Device."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
import yaml

from palmish.device.disk.resources import bundled_plugins
from palmish.device.display import CONFIGS, ConfigName
from palmish.device.events import CharKey, Key, KeyDown, MenuCommand, PenDown, PenUp
from palmish.device.geometry import Rect
from palmish.device.machine.system import Device
from palmish.device.ui.alert import Alert
from palmish.device.ui.form import Form, PopupList
from palmish.device.ui.textview import TextViewer
from palmish.ishido.app import IshidoApp
from prc_tools import plugin

PLUGINS = bundled_plugins()


@pytest.fixture(scope="module")
def extra_pieces(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """'Test Pieces': the high-contrast folder under another name, built to a .prc."""
    folder = tmp_path_factory.mktemp("src") / "test-pieces"
    shutil.copytree(PLUGINS.folder("ishido-pieces-contrast"), folder)
    manifest = yaml.safe_load((folder / "manifest.yaml").read_text())
    manifest["name"] = "Test Pieces"
    manifest["author"] = "A. Tester"
    manifest["version"] = 3
    (folder / "manifest.yaml").write_text(yaml.safe_dump(manifest))
    out = folder.parent / "TestPieces.prc"
    out.write_bytes(plugin.build_folder(folder).to_bytes())
    return out


def tap(device: Device, r: Rect) -> None:
    x, y = r.x + r.w // 2, r.y + r.h // 2
    device.post(PenDown(x, y))
    device.post(PenUp(x, y))


@pytest.fixture
def data(tmp_path: Path, built_plugins: Path) -> Path:
    shutil.copytree(built_plugins, tmp_path / "cache")  # copy2 keeps the mtimes
    return tmp_path


def start(data: Path, config: ConfigName = ConfigName.SQUARE) -> tuple[Device, IshidoApp]:
    app = IshidoApp()
    device = Device(CONFIGS[config], data, [app], start_app="PalmIshido",
                    bundled_plugins=PLUGINS, durable=False, alerts=False)
    return device, app


def test_choose_then_delete_an_installed_plugin(data: Path, extra_pieces: Path) -> None:
    device, app = start(data)
    device.plugins.install(extra_pieces)
    # Preferences offers it for Square and Tall (it serves both), and picking it shows it.
    device.post(MenuCommand("prefs"))
    form = device.modals[-1]
    assert isinstance(form, Form)
    fields = {f.key: f for f in form.fields if isinstance(f, PopupList)}
    assert "Test Pieces" in fields["square/pieces"].options
    assert "Test Pieces" in fields["tall/pieces"].options
    assert "Test Pieces" not in fields["wide/pieces"].options
    field = fields["square/pieces"]
    field.selected = field.options.index("Test Pieces")
    tap(device, form.row.buttons[0].rect)
    assert device.context.plugin_choice("pieces", "square") == "Test Pieces"
    assert app.view is not None
    in_use = app.view.art.tiles[(1, 1)].tobytes()

    # The Plugin Manager shows what it is, then deletes it after a confirmation.
    device.post(MenuCommand("plugins"))
    manager = device.modals[-1]
    assert isinstance(manager, Form)
    choice = manager.fields[0]
    assert isinstance(choice, PopupList)
    index = next(i for i, o in enumerate(choice.options) if o.startswith("Test Pieces"))
    choice.selected = index
    tap(device, manager.row.buttons[0].rect)  # Info
    info = device.modals[-1]
    assert isinstance(info, TextViewer)
    first = info.text.split("\n\n")[0]  # the chosen plugin comes first
    for fact in ("# Test Pieces", "pieces", "Square, Tall", "Version: 3", "A. Tester",
                 "installed"):
        assert fact in first
    assert "# Jade Board" in info.text  # and then every other plugin
    tap(device, info.row.buttons[0].rect)  # Done: back to the manager
    manager = device.modals[-1]
    assert isinstance(manager, Form)
    manager.fields[0].selected = index  # type: ignore[union-attr]
    tap(device, manager.row.buttons[2].rect)  # Delete
    confirm = device.modals[-1]
    assert isinstance(confirm, Alert) and "Test Pieces" in confirm.message
    tap(device, confirm.row.buttons[0].rect)
    assert not any(p.name == "Test Pieces" for p in device.context.plugins())
    # The game now falls back to the bundled pieces and redraws with them; the choice
    # went with the plugin (issue 14 item 2), so nothing warns, now or at the next start.
    assert app.view.art.tiles[(1, 1)].tobytes() != in_use
    assert device.context.plugin_choice("pieces", "square") is None
    assert device.context.plugin_choice("pieces", "tall") is None  # it had followed
    device.shutdown()
    again, _ = start(data)
    assert not any("Test Pieces" in m for m in device.messages + again.messages)


def test_bundled_plugins_cannot_be_deleted(data: Path) -> None:
    device, _ = start(data)
    before = len(device.context.plugins())
    device.post(MenuCommand("plugins"))
    manager = device.modals[-1]
    assert isinstance(manager, Form)
    tap(device, manager.row.buttons[2].rect)  # Delete on the first (bundled) plugin
    refusal = device.modals[-1]
    assert isinstance(refusal, Alert) and "cannot be deleted" in refusal.message
    assert len(device.context.plugins()) == before


def test_wide_gets_its_own_plugins(data: Path) -> None:
    _, app = start(data, ConfigName.WIDE)
    assert app.view is not None and app.layout is not None
    tile = app.view.art.tiles[(0, 0)]
    assert tile.size == (34, 40)
    assert app.view.art.board is not None and app.view.art.board.size == (408, 320)


@pytest.mark.parametrize(("key", "deleted"), [("y", True), ("d", True), ("n", False),
                                              ("c", False), ("escape", False)])
def test_y_and_n_answer_delete_plugin(data: Path, extra_pieces: Path, key: str,
                                      deleted: bool) -> None:
    """Issue 41: "Delete Test Pieces?" (Delete, Cancel) answers Y and N like every
    yes/no question; N and Escape keep it and the manager comes back."""
    device, _app = start(data)
    device.plugins.install(extra_pieces)
    device.post(MenuCommand("plugins"))
    manager = device.modals[-1]
    assert isinstance(manager, Form) and isinstance(manager.fields[0], PopupList)
    manager.fields[0].selected = next(i for i, o in enumerate(manager.fields[0].options)
                                      if o.startswith("Test Pieces"))
    tap(device, manager.row.buttons[2].rect)  # Delete
    confirm = device.modals[-1]
    assert isinstance(confirm, Alert) and confirm.message == "Delete Test Pieces?"
    device.post(KeyDown(Key.CANCEL) if key == "escape" else CharKey(key))
    assert device.modals[-1] is not confirm and isinstance(device.modals[-1], Form)
    kept = any(p.name == "Test Pieces" for p in device.context.plugins())
    assert kept is not deleted
    device.shutdown()

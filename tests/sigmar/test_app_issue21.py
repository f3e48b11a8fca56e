"""What new players found in issue 21 (Sigmar's Garden): the old selection frame,
metals not yet current, and the other rough edges. Each test failed before its fix."""

from __future__ import annotations

from pathlib import Path

import pytest
from PIL import Image

from palmish.device.display import ConfigName
from palmish.device.events import Key, KeyDown, MenuCommand
from palmish.device.machine.system import Device
from palmish.device.ui.form import Form, PopupList
from palmish.sigmar import Atom
from palmish.sigmar.app import SigmarApp
from tests.sigmar.conftest import PLUGINS, Make, press, tap_cell
from tests.sigmar.test_app_play import install_levels
from tests.sigmar.test_app_polish import drawn_texts


def cell_pixels(app: SigmarApp, cell: tuple[int, int]) -> bytes:
    assert app.ctx is not None and app.layout is not None
    r = app.layout.cell_rect(*cell)
    return app.ctx.screen.image.crop((r.x, r.y, r.right, r.bottom)).tobytes()


@pytest.mark.parametrize("config", [ConfigName.SQUARE_LOW, ConfigName.TALL])
def test_selecting_another_atom_takes_the_old_frame_away(config: ConfigName,
                                                         make: Make) -> None:
    device, app = make(config)
    game = app.game
    free = sorted({c for t in game.legal_takes() for c in (t.a, t.b) if c})
    a, b = next((a, b) for a in free for b in free
                if a != b and game.why_not(a, b) is not None)
    tap_cell(device, app, a)
    tap_cell(device, app, b)
    assert app.scene.selected == b
    partial = {c: cell_pixels(app, c) for c in free}
    app._paint_all()  # a full repaint shows what the screen should be
    assert {c: cell_pixels(app, c) for c in free} == partial
    device.shutdown()


def test_free_metals_not_yet_current_are_dimmed(make: Make, tmp_path: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    install_levels(tmp_path / "device", {"metals": "Metals\n2a\nc\n"})  # lead, quicksilver, tin
    device, app = make(board="metals")
    assert app.view is not None
    drawn: dict[Atom, bool] = {}
    atom = app.view.art.atom

    def recording(kind: Atom, locked: bool = False, selected: bool = False) -> object:
        drawn[kind] = locked
        return atom(kind, locked, selected)

    monkeypatch.setattr(app.view.art, "atom", recording)
    app._paint_all()
    assert drawn == {Atom.LEAD: False, Atom.QUICKSILVER: False, Atom.TIN: True}
    drawn.clear()
    tap_cell(device, app, (0, 0))
    tap_cell(device, app, (0, 1))  # lead goes: tin is current now, and drawn so at once
    assert drawn.get(Atom.TIN) is False
    # Tin alone is stuck: the Stuck dialog is up, and a menu command does not reach the
    # game under a dialog (as with the Menu key), so the dialog's own Undo is pressed.
    press(device, "Undo")
    assert drawn.get(Atom.TIN) is True
    device.shutdown()


@pytest.mark.parametrize("config", [ConfigName.SQUARE_LOW, ConfigName.SQUARE],
                         ids=lambda n: n.value)
@pytest.mark.parametrize("level", ["11", "12"])
def test_twelve_column_levels_keep_the_metal_order(config: ConfigName, level: str, make: Make,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    device, app = make(config, board=level)
    assert app.game.cols == 12 and app.view is not None
    rows: list[tuple[int, int]] = []
    real = app.view._metal_row

    def record(fb: object, scene: object, x: int, y: int, size: int, *rest: object) -> int:
        rows.append((x, y))
        return real(fb, scene, x, y, size, *rest)  # type: ignore[arg-type]

    monkeypatch.setattr(app.view, "_metal_row", record)
    app._paint_all()
    assert rows, "no metal order drawn"
    device.shutdown()


def test_wide_shows_the_number_of_atoms_left_on_twelve_columns(
        make: Make, monkeypatch: pytest.MonkeyPatch) -> None:
    device, app = make(ConfigName.WIDE, board="12")
    assert app.layout is not None
    shown = drawn_texts(device, app, monkeypatch, app.layout.panel)
    assert any(t.endswith(f": {app.game.remaining}") for t in shown), shown
    device.shutdown()


def levels_popup(device: Device) -> PopupList:
    form = device.modals[-1]
    assert isinstance(form, Form)
    field = form.fields[0]
    assert isinstance(field, PopupList)
    return field


def test_a_level_installed_while_running_shows_and_can_be_removed(make: Make,
                                                                  tmp_path: Path) -> None:
    device, _app = make()
    install_levels(tmp_path / "device", {"7": "My Caution\n33\n"})  # after the start
    device.post(MenuCommand("levels"))
    popup = levels_popup(device)
    index = next(i for i, label in enumerate(popup.options) if "My Caution" in label)
    popup.selected = index
    press(device, "Remove")
    assert "Remove the installed level 7. My Caution?" in device.modals[-1].message  # type: ignore[attr-defined]
    press(device, "Remove")
    assert not (tmp_path / "device" / "files" / "PSgm" / "7.dat").exists()
    popup = levels_popup(device)  # the list again, with the bundled level back
    assert "7. Caution" in popup.options
    popup.selected = popup.options.index("7. Caution")
    press(device, "Remove")  # a bundled level cannot be removed: said, nothing lost
    assert "comes with the game" in device.modals[-1].message  # type: ignore[attr-defined]
    press(device, "OK")
    assert "7. Caution" in levels_popup(device).options
    device.post(KeyDown(Key.CANCEL))
    assert not device.modals
    device.shutdown()


def test_escape_on_levels_plays_nothing(make: Make) -> None:
    device, app = make()
    before = app.game.record()
    device.post(MenuCommand("levels"))
    device.post(KeyDown(Key.CANCEL))
    assert not device.modals and app.game.record() == before
    device.shutdown()


def test_help_keys_every_atom_and_about_credits_the_makers(make: Make) -> None:
    device, _app = make()
    device.post(MenuCommand("help-rules"))
    rules = device.modals[-1].text  # type: ignore[attr-defined]
    for atom in Atom:
        assert f"{atom.letter or '-'}  {atom.title}: " in rules, atom
    assert "S is Salt, s is silver" in rules and "again at lead" in rules
    device.post(KeyDown(Key.CANCEL))
    device.post(MenuCommand("about"))
    about = device.modals[-1].message  # type: ignore[attr-defined]
    assert "Trollbreeder" in about and "Zachtronics" in about
    device.shutdown()


@pytest.mark.parametrize("suffix", ["-low", ""])
def test_glyph_atoms_differ_in_shape_alone(suffix: str) -> None:
    """Without colour (each picture reduced to light and dark) every atom is its own."""
    folder = PLUGINS.folder("sigmar-pieces-glyphs")
    shapes = {}
    for atom in Atom:
        picture = Image.open(folder / f"{atom.name.lower()}{suffix}.png").convert("RGBA")
        grey = Image.new("RGBA", picture.size, (0, 0, 0, 255))
        grey.alpha_composite(picture)
        shapes[atom] = grey.convert("L").point(lambda v: 255 if v >= 60 else 0).tobytes()
    assert len(set(shapes.values())) == len(shapes)


def test_the_160_strip_counts_atoms_by_letter(make: Make,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    device, app = make(ConfigName.SQUARE_LOW)
    assert app.layout is not None
    shown = drawn_texts(device, app, monkeypatch, app.layout.panel)
    left = app.game.counts()
    assert shown and all(t[0].isalpha() for t in shown), shown
    assert f"{Atom.AIR.letter}{left[Atom.AIR]}" in shown
    device.shutdown()


def test_preferences_change_only_the_display_being_edited(make: Make) -> None:
    device, _app = make(ConfigName.TALL)
    for choice, share, others in (("Parchment Board", False, None), ("Slate Board", False, None),
                                  ("Parchment Board", True, "Parchment Board")):
        device.post(MenuCommand("prefs"))
        form = device.modals[-1]
        assert isinstance(form, Form)
        rows = {getattr(f, "key", None): f for f in form.fields}
        board = rows["tall/board"]
        assert isinstance(board, PopupList)
        board.selected = board.options.index(choice)
        rows["share_plugins"].checked = share  # type: ignore[union-attr]
        press(device, "OK")
        assert device.context.plugin_choice("board", "tall") == choice
        for other in ("square", "wide"):  # untouched unless "Every display: Same plugins"
            assert device.context.plugin_choice("board", other) == others, (choice, other)
    device.shutdown()

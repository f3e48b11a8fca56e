"""What players found in issue 41 (Sigmar's Garden, "Each game on one device"): stars
and messages of installed levels, the Levels pop-up's focus, the Board Number keypad.
Each test failed before its fix."""

from __future__ import annotations

from pathlib import Path

import pytest
from PIL import Image, ImageChops

from palmish.device.display import ConfigName
from palmish.device.events import Key, KeyDown, MenuCommand
from palmish.device.graphics.screen import GREY
from palmish.device.ui.form import Form
from palmish.sigmar.app import SigmarApp
from palmish.sigmar.catalog import cleared_key
from tests.sigmar.conftest import Make, press, tap_cell
from tests.sigmar.test_app_issue21 import levels_popup
from tests.sigmar.test_app_play import install_levels


def message(device: object) -> str:
    return device.modals[-1].message  # type: ignore[attr-defined,no-any-return]


def test_a_level_installed_over_a_cleared_one_is_not_cleared(make: Make,
                                                             tmp_path: Path) -> None:
    device, app = make()
    app.prefs["cleared"] = ["3"]  # the bundled level 3 was cleared
    install_levels(tmp_path / "device", {"3": "My Projection\n33\n"})
    device.post(MenuCommand("levels"))
    popup = levels_popup(device)
    assert "3. My Projection" in popup.options  # no star inherited
    assert device.modals[-1].title.startswith("Levels (0/")  # type: ignore[attr-defined]
    popup.selected = popup.options.index("3. My Projection")
    press(device, "Play")
    tap_cell(device, app, (0, 0))
    tap_cell(device, app, (0, 1))
    assert app.game.won
    entry = next(e for e in app.levels if e.id == "3")
    assert app.prefs["cleared"] == ["3", cleared_key(entry)] and cleared_key(entry) != "3"
    press(device, "OK")
    device.post(MenuCommand("levels"))
    assert "3. My Projection *" in levels_popup(device).options  # its own star now
    popup = levels_popup(device)
    popup.selected = popup.options.index("3. My Projection *")
    press(device, "Remove")
    assert message(device).endswith("The bundled level 3. Projection comes back.")
    press(device, "Remove")
    assert "3. Projection *" in levels_popup(device).options  # the bundled one's star
    device.shutdown()


def test_removing_a_level_without_a_number_promises_nothing_back(make: Make,
                                                                 tmp_path: Path) -> None:
    device, _app = make()
    install_levels(tmp_path / "device", {"mine": "Mine\n33\n"})
    device.post(MenuCommand("levels"))
    popup = levels_popup(device)
    popup.selected = popup.options.index("Mine")
    press(device, "Remove")
    assert message(device) == "Remove the installed level Mine?"
    device.shutdown()


@pytest.mark.parametrize("config", [ConfigName.SQUARE_LOW, ConfigName.SQUARE])
def test_the_keys_focus_on_the_level_pop_up_shows(config: ConfigName, make: Make) -> None:
    """The form's only row: its focus ring was left out for not fitting the field area."""
    device, _app = make(config)
    device.post(MenuCommand("levels"))
    form = device.modals[-1]
    assert isinstance(form, Form) and form.focus == 0
    trigger = form.control_rects("level")[0]
    image = device.screen.image.convert("RGB")
    s = device.screen.scale
    ring = {image.getpixel((x, y)) for x in range(trigger.x - 2 * s, trigger.right + 2 * s)
            for y in (trigger.y - 2 * s, trigger.y - s, trigger.bottom, trigger.bottom + s)
            if 0 <= y < image.height}
    assert GREY in ring
    device.post(KeyDown(Key.RIGHT))  # the level moves on, in sight: the trigger says it
    assert "2. " in form.trigger_text(0)
    device.shutdown()


def test_ok_on_an_empty_board_number_says_so_and_board_0_is_a_board(make: Make) -> None:
    from palmish.device.events import CharKey
    from palmish.device.ui.number_entry import NumberEntry

    device, app = make()
    device.post(MenuCommand("board"))
    entry = device.modals[-1]
    assert isinstance(entry, NumberEntry)
    device.post(CharKey("\b"))  # the number shown goes
    device.post(CharKey("\n"))
    assert device.modals[-1] is entry and entry.note == "type a number"
    device.post(CharKey("0"))
    device.post(CharKey("\n"))
    # Board 0 is a board like any other (docs/sigmar-app.md, "Board numbers").
    assert not device.modals and app.game.seed == 0 and app.title() == "Board 0"
    device.shutdown()


def cell_image(app: SigmarApp, cell: tuple[int, int]) -> Image.Image:
    assert app.ctx is not None and app.layout is not None
    r = app.layout.cell_rect(*cell)
    return app.ctx.screen.image.convert("RGB").crop((r.x, r.y, r.right, r.bottom))


@pytest.mark.parametrize("config", [ConfigName.SQUARE_LOW, ConfigName.SQUARE])
@pytest.mark.parametrize("which", ["square", "hexagonal"])
def test_partner_dots_keep_off_the_letters_and_the_frames_differ(
        config: ConfigName, which: str, make: Make) -> None:
    device, app = make(config)
    device.post(MenuCommand(f"garden-{which}"))
    take = next(t for t in app.game.legal_takes() if t.b is not None)
    assert take.b is not None
    app.scene.selected = take.a
    app.focus = take.b  # the keys' cursor on a partner: both marks there
    app._paint_all()
    assert take.b in app.scene.partners and app.scene.focus == take.b
    # Each mark alone, on a scene without the selection: a hexagon's box overlaps its
    # neighbours', so the selected partner's mark would reach into this cell's box
    # when the two are neighbours (a random board made that happen now and then).
    assert app.view is not None and app.ctx is not None
    bare = app.scene.replace(selected=None, focus=None, partners=[])

    def drawn(**marks: object) -> Image.Image:
        assert app.view is not None and app.ctx is not None
        app.view.paint(app.ctx.screen, bare.replace(**marks))
        return cell_image(app, take.b)  # type: ignore[arg-type]

    plain = drawn()
    focus_only = drawn(focus=take.b)
    marked = drawn(focus=take.b, partners=[take.b])
    w, h = plain.size
    # The dot: only in the bottom-right corner, clear of the letter in the middle.
    changed = ImageChops.difference(marked, focus_only).getbbox()
    assert changed is not None and changed[0] >= w * 0.7 and changed[1] >= h * 0.6, changed
    # The focus frame: white, never the selection's yellow.
    ring = ImageChops.difference(focus_only, plain).getbbox()
    assert ring is not None
    colours = {focus_only.getpixel((x, y)) for x in range(w) for y in range(h)
               if focus_only.getpixel((x, y)) != plain.getpixel((x, y))}
    assert (255, 255, 255) in colours
    assert app.view.art.mark_colour not in colours
    device.shutdown()


@pytest.mark.parametrize("folder", ["sigmar-pieces-classic", "sigmar-pieces-glyphs"])
def test_a_locked_atom_looks_dimmed_iron_included(folder: str) -> None:
    """Locked atoms go mostly grey: a locked Iron kept a live teal (saturation 69 of
    255) beside its greyed neighbours."""
    from PIL import ImageStat

    from palmish.sigmar import Atom
    from tests.sigmar.conftest import PLUGINS

    for atom in Atom:
        for suffix in ("", "-low"):
            stem = PLUGINS.folder(folder) / f"{atom.name.lower()}"
            live = Image.open(f"{stem}{suffix}.png").convert("RGBA")
            locked = Image.open(f"{stem}-locked{suffix}.png").convert("RGBA")

            def saturation(img: Image.Image) -> float:
                hsv = img.convert("RGB").convert("HSV").getchannel("S")
                return float(ImageStat.Stat(hsv, img.getchannel("A")).mean[0])

            assert live.size == locked.size
            assert saturation(locked) <= 50, (atom, suffix, saturation(locked))

"""What players found in issue 41 (Sigmar's Garden, "Each game on one device"): stars
and messages of installed levels, the Levels pop-up's focus, the Board Number keypad.
Each test failed before its fix."""

from __future__ import annotations

from pathlib import Path

from palmish.device.events import MenuCommand
from palmish.sigmar.level import cleared_key
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

"""The installed apps: ids, and the four hard app buttons launching them (palmish/apps.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from palmish.apps import GAMES, HARD_BUTTONS, installed_apps
from palmish.device.display import CONFIGS, ConfigName
from palmish.device.events import Key, KeyDown
from palmish.device.system import Device

PLUGINS = Path(__file__).resolve().parent.parent / "skins" / "plugins"


def test_every_app_has_a_unique_short_lowercase_id() -> None:
    apps = installed_apps()
    ids = [a.id for a in apps]
    assert ids[0] == "launcher" and "ishido" in ids
    assert len(set(ids)) == len(ids)
    assert all(i.isascii() and i.isalpha() and i.islower() for i in ids)
    assert [g[0] for g in GAMES] == [a.id for a in apps[1:]]


@pytest.fixture
def device(tmp_path: Path) -> Device:
    return Device(CONFIGS[ConfigName.SQUARE], tmp_path, installed_apps(), "launcher",
                  bundled_plugins=PLUGINS, durable=False, alerts=False, buttons=HARD_BUTTONS)


def test_hard_buttons_launch_the_games_and_the_applications_screen(device: Device) -> None:
    assert HARD_BUTTONS == ("ishido", "sigmar", "pachisi", "launcher")
    device.post(KeyDown(Key.APP1))
    assert device.running_app.id == "ishido"
    device.post(KeyDown(Key.APP4))
    assert device.running_app.id == "launcher"


def test_a_button_without_its_app_does_nothing(device: Device) -> None:
    device.post(KeyDown(Key.APP1))
    device.take_damage()
    installed = {a.id for a in device.apps}
    for key, app_id in zip((Key.APP1, Key.APP2, Key.APP3, Key.APP4), HARD_BUTTONS, strict=True):
        if app_id in installed:
            continue
        device.post(KeyDown(key))
        assert device.running_app.id == "ishido"
        assert device.take_damage() == [] and device.modals == ()


def test_find_app_by_id_name_or_creator_in_any_case(device: Device) -> None:
    for name in ("ishido", "ISHIDO", "PalmIshido", "palmishido", "PIsh"):
        app = device.find_app(name)
        assert app is not None and app.id == "ishido"
    assert device.find_app("nope") is None

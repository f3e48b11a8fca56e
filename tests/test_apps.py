"""The installed apps: ids, and the four hard app buttons launching them (palmish/apps.py),
all read from the game registry (palmish/games.py)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from palmish.apps import LazyApp, hard_buttons, installed_apps
from palmish.device.disk.resources import bundled_plugins
from palmish.device.display import CONFIGS, ConfigName
from palmish.device.events import Key, KeyDown
from palmish.device.machine.app import App
from palmish.device.machine.system import Device
from palmish.games import GameDescriptor, games

PLUGINS = bundled_plugins()


def test_every_app_has_a_unique_short_lowercase_id() -> None:
    apps = installed_apps()
    ids = [a.id for a in apps]
    assert ids[0] == "launcher" and "ishido" in ids
    assert len(set(ids)) == len(ids)
    assert all(i.isascii() and i.isalpha() and i.islower() for i in ids)
    assert [g.id for g in games()] == [a.id for a in apps[1:]]


@pytest.fixture
def device(tmp_path: Path) -> Device:
    return Device(CONFIGS[ConfigName.SQUARE], tmp_path, installed_apps(), "launcher",
                  bundled_plugins=PLUGINS, durable=False, alerts=False, buttons=hard_buttons())


def test_hard_buttons_launch_the_games_and_the_applications_screen(device: Device) -> None:
    assert hard_buttons() == ("ishido", "sigmar", "pachisi", "launcher")
    device.post(KeyDown(Key.APP1))
    assert device.running_app.id == "ishido"
    device.post(KeyDown(Key.APP4))
    assert device.running_app.id == "launcher"


def test_a_button_without_its_app_does_nothing(device: Device) -> None:
    device.post(KeyDown(Key.APP1))
    device.take_damage()
    installed = {a.id for a in device.apps}
    for key, app_id in zip((Key.APP1, Key.APP2, Key.APP3, Key.APP4), hard_buttons(), strict=True):
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


@pytest.mark.process
def test_listing_the_apps_imports_no_game() -> None:
    """Only the game a start shows is imported (issue 17, start); the others wait:
    of each game, only its package (whose engine is imported lazily) and descriptor."""
    code = (
        "import sys\n"
        "from palmish.apps import installed_apps\n"
        "from palmish.device.machine.system import find_app\n"
        "apps = installed_apps()\n"
        "from palmish.games import games\n"
        "assert [a.id for a in apps] == ['launcher', *(g.id for g in games())], apps\n"
        "assert [a.id for a in apps[1:4]] == ['ishido', 'sigmar', 'pachisi'], apps\n"
        "assert find_app(apps, 'psgm').name == \"Sigmar's Garden\"\n"  # by creator, any case
        "assert find_app(apps, 'PACHISI').id == 'pachisi'\n"
        "assert apps[2].icon_name == 'Sigmar'\n"
        "ids = [a.id for a in apps[1:]]\n"
        "games = [m for m in sys.modules if m.split('.')[1:2] in [[i] for i in ids]\n"
        "         and m.split('.')[2:] not in ([], ['descriptor'])]\n"
        "assert games == [], games\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=60, check=False)
    assert done.returncode == 0, done.stderr


def test_each_game_agrees_with_its_entry_and_opens(tmp_path: Path) -> None:
    device = Device(CONFIGS[ConfigName.SQUARE], tmp_path, installed_apps(), "ishido",
                    bundled_plugins=PLUGINS, durable=False, alerts=False)
    for game in games():
        app = device.find_app(game.id)
        # Made when first started (the launcher's icons would make them all).
        assert isinstance(app, LazyApp) and (app.imported is None) == (game.id != "ishido")
        device.switch_to(game.name)
        assert device.running_app is app and app.imported is not None
        real = app.imported
        assert (f"{type(real).__module__}:{type(real).__name__}", real.id, real.name,
                real.creator, real.icon_name) == (
            game.app, game.id, game.name, game.creator, game.icon_name)
        assert type(real).descriptor is game  # the class is declared from it
        assert app.menus() == real.menus() and app.menus()
        assert app.media is vars(real)["media"]  # an attribute of the app's own, passed on
    device.go_home()
    assert device.running_app.id == "launcher"


def test_an_app_class_declared_from_a_descriptor_takes_its_identity() -> None:
    game = GameDescriptor("dots", "Dots and Boxes", "PDot", "x:DotsApp", Path("x.yaml"),
                          icon_name="Dots")

    class DotsApp(App, descriptor=game):
        pass

    assert (DotsApp.id, DotsApp.name, DotsApp.creator, DotsApp.icon_name) == (
        "dots", "Dots and Boxes", "PDot", "Dots")
    assert DotsApp.descriptor is game and DotsApp().name == "Dots and Boxes"
    assert App.descriptor is None and App.id == "app"  # the base is left as it was


def test_a_descriptor_that_does_not_match_its_class_is_refused() -> None:
    sigmar = games()[1]
    wrong = LazyApp(GameDescriptor("ishido", "Ishido", "PIsh", "palmish.ishido.app:IshidoApp",
                                   sigmar.schema))
    with pytest.raises(TypeError, match="not the App its descriptor lists"):
        wrong.app()
    untaken = LazyApp(GameDescriptor("ishido", "PalmIshido", "PIsh",
                                     "palmish.ishido.app:IshidoApp", sigmar.schema,
                                     options=sigmar.options))
    with pytest.raises(TypeError, match="does not take the options"):
        untaken.app()

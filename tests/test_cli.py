"""`palmish ...`: screenshots, event scripts, gremlins, install, plugins and the error paths."""

from __future__ import annotations

import shutil
import subprocess
import sys
import types
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from palmish import cli
from palmish.device.disk.resources import bundled_plugins
from palmish.device.display import config_by_name
from palmish.device.machine import inputarea, statusbar
from prc_tools.plugin import build_folder

FIXTURES = Path(__file__).parent / "device" / "fixtures" / "plugins"


@pytest.fixture(scope="module")
def data_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One storage folder for the module, so the bundled plugins are built only once."""
    return tmp_path_factory.mktemp("palmish-data")


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = cli.main(argv)
    out, err = capsys.readouterr()
    return code, out, err


def usage_error(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    with pytest.raises(SystemExit) as exit_info:
        cli.main(argv)
    assert exit_info.value.code == 2
    return capsys.readouterr().err


@pytest.mark.parametrize(
    "argv",
    [
        ["--zoom", "0"],
        ["--zoom", "two"],
        ["--config", "round"],
        ["fly"],
        ["gremlins", "--events", "10"],
        ["gremlins", "--events", "-1", "--seed", "1"],
        ["--events", "x.txt"],
        ["install"],
    ],
)
def test_bad_options_are_usage_errors(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    err = usage_error(argv, capsys)
    assert "usage: palmish" in err and "Traceback" not in err


@pytest.mark.parametrize(
    ("config", "size"),
    [
        ("square-low", (160, 160)),
        ("square", (320, 480)),
        ("tall", (320, 480)),
        ("wide", (480, 320)),
    ],
)
def test_screenshot_of_each_configuration(
    config: str, size: tuple[int, int], data_dir: Path, tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    out = tmp_path / f"{config}.png"
    code, _, err = run(["--screenshot", str(out), "--config", config, "--data-dir", str(data_dir)],
                       capsys)
    assert code == 0, err
    with Image.open(out) as image:
        assert image.size == size
        rgb = image.convert("RGB")
    display = config_by_name(config)
    if display.status_bar is not None:  # the OS parts are drawn where the config says
        bar = display.status_bar
        assert rgb.getpixel((bar.x + bar.w // 2, bar.y + bar.h // 2)) == statusbar.BAR_COLOUR
    if display.input_area is not None:
        area = display.input_area
        assert rgb.getpixel((area.x + 2, area.y + 2)) == inputarea.AREA_COLOUR
    app = display.app_bounds
    assert rgb.getpixel((app.x + app.w // 2, app.bottom - 1)) != statusbar.BAR_COLOUR


def test_screenshot_after_an_event_script(
    data_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    script = tmp_path / "events.txt"
    script.write_text("# go to the launcher, then rotate\nkey home\nwait 100\nrotate\n")
    out = tmp_path / "shot.png"
    code, _, err = run(
        ["--screenshot", str(out), "--events", str(script), "--data-dir", str(data_dir)], capsys
    )
    assert code == 0, err
    with Image.open(out) as image:
        assert image.size == (480, 320)
        assert image.convert("RGB").getpixel((10, 5)) == (0, 0, 0)  # the launcher's title tab


@pytest.mark.parametrize(
    ("script", "problem"),
    [
        ("tap 1\n", "events.txt:1: 'tap' takes 2 numbers, got 1"),
        ("\n\nfly 1 2\n", "events.txt:3: unknown event 'fly'"),
        ("key jump\n", "events.txt:1: unknown key 'jump'"),
        ("wait -5\n", "events.txt:1:"),
        ("key up\napp Nowhere\n", "events.txt:2: no app named 'Nowhere'"),
        ("key up\nmenu bogus\n", "events.txt:2: unknown menu command 'bogus'"),
        ("menu new-game\n", "events.txt:1: unknown menu command 'new-game'"),
    ],
)
def test_bad_event_scripts_are_one_line_errors(
    script: str, problem: str, data_dir: Path, tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    path = tmp_path / "events.txt"
    path.write_text(script)
    argv = ["--screenshot", str(tmp_path / "x.png"), "--events", str(path), "--data-dir",
            str(data_dir)]
    code, _, err = run(argv, capsys)
    assert code == 2  # a usage error, like a bad option
    assert problem in err and err.count("\n") == 1
    assert not (tmp_path / "x.png").exists()


def test_the_documented_example_script_runs(
    data_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    doc = (Path(__file__).resolve().parents[1] / "docs" / "events-format.md").read_text()
    example = doc.split("```")[1]
    path = tmp_path / "example.events"
    path.write_text(example)
    out = tmp_path / "x.png"
    code, _, err = run(["--screenshot", str(out), "--events", str(path), "--data-dir",
                        str(data_dir)], capsys)
    assert code == 0, err
    assert out.exists()


def test_other_bad_input_is_a_one_line_error(
    data_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cases = [
        (["--screenshot", str(tmp_path / "a.png"), "--events", str(tmp_path / "none.txt")],
         "cannot read"),
        (["--screenshot", str(tmp_path / "a.jpg")], "name it .png"),
        (["--screenshot", str(tmp_path / "no" / "dir" / "a.png")], "cannot write"),
    ]
    for argv, problem in cases:
        code, _, err = run([*argv, "--data-dir", str(data_dir)], capsys)
        assert code == 1, argv
        assert problem in err and err.count("\n") == 1, err
    blocker = tmp_path / "file"
    blocker.write_text("")
    code, _, err = run(["--screenshot", str(tmp_path / "a.png"), "--data-dir", str(blocker)],
                       capsys)
    assert code == 1 and "not a folder" in err


def test_gremlins_runs_and_reports(data_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(["gremlins", "--events", "300", "--seed", "7", "--config", "wide",
                          "--data-dir", str(data_dir)], capsys)
    assert code == 0, err
    assert "seed 7: 300 events" in out


def test_gremlins_failure_prints_seed_and_event(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from palmish.device.events import Event, KeyDown
    from palmish.device.machine.app import App
    from palmish.launcher import LauncherApp

    class Fragile(App):
        name = "Fragile"
        creator = "Frag"

        def handle(self, event: Event) -> None:
            if isinstance(event, KeyDown):
                raise RuntimeError("key handling is broken")

    monkeypatch.setattr("palmish.commands.gremlins.installed_apps",
                        lambda: [LauncherApp(), Fragile()])
    code, _, err = run(["gremlins", "--events", "500", "--seed", "3", "--app", "Fragile"], capsys)
    assert code == 1
    assert err.startswith("palmish gremlins: seed 3, event ")
    assert "RuntimeError: key handling is broken" in err and "Traceback" not in err


def test_install_and_list_plugins(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    plugin = tmp_path / "TestBoard.prc"
    plugin.write_bytes(build_folder(FIXTURES / "test-board").to_bytes())
    store = tmp_path / "store"
    code, out, err = run(["install", str(plugin), "--data-dir", str(store)], capsys)
    assert code == 0, err
    assert "installed 'Test Board' (ishido board, square, tall)" in out
    installed = store / "databases" / "Test Board [IsBd-PIsh].prc"
    assert installed.read_bytes() == plugin.read_bytes()
    code, out, _ = run(["--data-dir", str(store), "plugins"], capsys)  # either place works
    assert code == 0
    lines = out.splitlines()
    assert lines[0].split() == ["NAME", "GAME", "KIND", "CONFIGS", "VERSION", "AUTHOR", "WHERE"]
    mine = [line for line in lines if line.startswith("Test Board")]
    assert len(mine) == 1 and mine[0].split()[-1] == "installed"
    assert any(line.endswith("bundled") for line in lines)


def test_a_rebuilt_bundled_plugin_is_listed_once_as_installed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 14 item 5: installing a rebuilt "Ceramic Pieces" gives one row, not two."""
    import yaml

    folder = tmp_path / "rebuilt"
    shutil.copytree(bundled_plugins().folder("ishido-pieces"), folder)
    manifest = yaml.safe_load((folder / "manifest.yaml").read_text())
    manifest["version"] = 2
    (folder / "manifest.yaml").write_text(yaml.safe_dump(manifest))
    plugin = tmp_path / "Ceramic.prc"
    plugin.write_bytes(build_folder(folder).to_bytes())
    store = tmp_path / "store"
    code, _, err = run(["install", str(plugin), "--data-dir", str(store)], capsys)
    assert code == 0, err
    code, out, _ = run(["plugins", "--data-dir", str(store)], capsys)
    rows = [line.split() for line in out.splitlines()
            if line.startswith("Ceramic Pieces ") and "Wide" not in line]
    assert len(rows) == 1
    assert rows[0][-1] == "installed" and "2" in rows[0]


def test_install_refuses_bad_files(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    junk = tmp_path / "junk.prc"
    junk.write_bytes(b"\0" * 90)
    for path in (junk, tmp_path / "missing.prc", tmp_path):
        code, _, err = run(["install", str(path), "--data-dir", str(tmp_path / "s")], capsys)
        assert code == 1 and err.count("\n") == 1 and str(path) in err, err
    assert not (tmp_path / "s" / "databases").exists() or not any(
        (tmp_path / "s" / "databases").iterdir()
    )


def test_window_mode_hands_the_device_to_the_frontend(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    seen: dict[str, Any] = {}

    def fake_run(device: Any, skin: str | None = None, zoom: int = 1,
                 cache_dir: Path | None = None, watchers: Any = ()) -> int:
        seen.update(config=device.config.name.value, skin=skin, zoom=zoom,
                    app=device.running_app.name, cache=cache_dir,
                    watchers=[type(w).__name__ for w in watchers])
        return 0

    fake = types.ModuleType("palmish.frontend.window")
    fake.run = fake_run  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "palmish.frontend.window", fake)
    argv = ["--device", "classic", "--zoom", "3", "--app", "Applications",
            "--data-dir", str(tmp_path)]
    code, _, _ = run(argv, capsys)
    assert code == 0
    assert seen == {"config": "square-low", "skin": "classic", "zoom": 3, "app": "Applications",
                    "cache": tmp_path / "cache",  # the skin read is kept in the data folder
                    # a plugin installed while it runs is shown at once
                    "watchers": ["InstalledWatch"]}


@pytest.mark.process
def test_no_traceback_from_the_real_command(tmp_path: Path) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "palmish", "install", str(tmp_path / "nothing.prc"),
         "--data-dir", str(tmp_path)],
        capture_output=True, text=True, timeout=60,
    )
    assert result.returncode == 1
    assert result.stderr.startswith("palmish: ") and "Traceback" not in result.stderr


@pytest.mark.parametrize("name", ["ishido", "PalmIshido", "palmishido", "ISHIDO"])
def test_app_is_chosen_by_id_or_name_in_any_case(
    name: str, data_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # The whole screen, pixel for pixel, is PalmIshido's as `--app PIsh` (its creator
    # code) shows it from the same saved game, and not the Applications screen.
    shots = {}
    for chosen in (name, "PIsh", "launcher"):
        out = tmp_path / f"{chosen}.png"
        code, _, err = run(
            ["--screenshot", str(out), "--app", chosen, "--data-dir", str(data_dir)], capsys
        )
        assert code == 0, err
        with Image.open(out) as image:
            shots[chosen] = image.convert("RGB").tobytes()
    assert shots[name] == shots["PIsh"]
    assert shots[name] != shots["launcher"]


def test_an_unknown_app_lists_the_ids_and_names(
    data_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for argv in (["--screenshot", str(tmp_path / "a.png"), "--app", "nope"],
                 ["gremlins", "--events", "5", "--seed", "1", "--app", "nope"]):
        code, _, err = run([*argv, "--data-dir", str(data_dir)], capsys)
        assert code == 2
        assert err.count("\n") == 1
        assert "'nope'" in err and "ishido (PalmIshido)" in err and "launcher (Applications)" in err
    assert not (tmp_path / "a.png").exists()


def test_default_data_folder_is_found_only_when_needed(monkeypatch: pytest.MonkeyPatch) -> None:
    # Finding it may import platformdirs: a start given --data-dir does not pay for
    # it, and --help still names it.
    def not_needed() -> Path:
        raise AssertionError("the default data folder was looked up")

    from palmish.commands import args, main

    monkeypatch.setattr(args, "default_data_dir", not_needed)
    monkeypatch.setattr(main, "default_data_dir", not_needed)
    parser = cli.build_parser()
    given = parser.parse_args(["--data-dir", "given", "plugins"])
    assert args.data_dir(given) == Path("given")
    assert args.data_dir(parser.parse_args(["plugins", "--data-dir", "here"])) == Path("here")
    monkeypatch.setattr(main, "default_data_dir", lambda: Path("/some/where%s"))
    assert "(default: /some/where%s)" in " ".join(parser.format_help().split())
    monkeypatch.setattr(args, "default_data_dir", lambda: Path("/some/where%s"))
    assert args.data_dir(parser.parse_args([])) == Path("/some/where%s")


def test_version_is_one_line_that_says_whether_the_c_speedups_run(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from prc_tools import speedups

    monkeypatch.setattr(speedups, "chosen", lambda: None)
    monkeypatch.setattr(speedups, "built", lambda: None)
    monkeypatch.setenv("COLUMNS", "40")
    with pytest.raises(SystemExit) as done:
        cli.main(["--version"])
    out = capsys.readouterr().out
    assert done.value.code == 0 and out.count("\n") == 1
    assert out.startswith("palmish ") and "C speedups are not built" in out

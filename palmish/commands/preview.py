"""`palmish preview DIR`: the handheld showing the plugin a folder builds, on its game,
rebuilt and shown again at every save (docs/making-plugins.md).

    palmish preview DIR [--config C] [--zoom N] [--data-dir D] [--no-discovery]
    palmish preview DIR --screenshot OUT.png [--events FILE]

The device is one of its own (a fresh storage folder, removed at the end, unless
--data-dir names one), started on the plugin's game in the first configuration the
manifest serves (or --config). The window's clock asks the folder a few times a
second whether it changed (preview_session.Preview); a build that fails leaves the
window up with the last good build and the problem drawn over it. With
--screenshot the first build is shown, the event script runs, and the screen is
written as a PNG; exit status 1 when the build failed (the picture shows why).

A folder of a game's data (a Levels database: its type is a kind of the game's
schema that is no plugin) is installed as `palmish install` installs it, and the
game shows its first item (`ShowsData`); Next on the strip shows the others.
"""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path

from palmish.apps import hard_buttons, installed_apps
from palmish.commands import screenshot
from palmish.commands.args import (
    EXIT_FAILED,
    EXIT_USAGE,
    add_data_dir,
    add_no_discovery,
    display_config,
    positive,
)
from palmish.commands.output import fail, logger
from palmish.commands.preview_session import Preview
from palmish.device.disk.storage import usable_dir
from palmish.device.display import DisplayConfig, config_by_name
from palmish.device.machine.system import NO_SERVICES, Device, Services, find_app
from palmish.device.scripting.eventscript import (
    ScriptError,
    ScriptFileError,
    Step,
    check_script,
    read_numbered,
)
from prc_tools.errors import PluginError
from prc_tools.plugin.manifest import Manifest
from prc_tools.plugin.manifest import load as load_manifest
from prc_tools.schema import registry


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.description = ("Open the handheld on the plugin FOLDER builds, applied to its game;"
                          " every save in FOLDER rebuilds it and shows it within a second.")
    parser.add_argument("folder", metavar="FOLDER", type=Path,
                        help="a plugin folder (manifest.yaml, PNG and WAV files)")
    parser.add_argument("--config", dest="preview_config", type=display_config, metavar="C",
                        help="the configuration to start in (default: the first the"
                             " plugin serves); a button on the strip shows the others")
    parser.add_argument("--zoom", dest="preview_zoom", type=positive, metavar="N",
                        help="window scale")
    parser.add_argument("--screenshot", dest="preview_screenshot", type=Path,
                        metavar="OUT.png", help="no window: write the screen as a PNG")
    parser.add_argument("--events", dest="preview_events", type=Path, metavar="FILE",
                        help="with --screenshot: events to feed first")
    add_data_dir(parser, help="a storage folder to use (default: a fresh one, removed at"
                              " the end)")
    add_no_discovery(parser)


def _first_config(configs: tuple[str, ...]) -> DisplayConfig:
    for slot in ("square", "tall", "wide"):
        if slot in configs:
            return config_by_name(slot)
    return config_by_name("square")


def run(args: argparse.Namespace) -> int:
    folder: Path = args.folder
    if not folder.is_dir():
        return fail(f"{folder}: not a folder (give the folder prc-tools new made)")
    try:
        manifest = load_manifest(folder, registry())
    except PluginError as exc:
        return fail(str(exc))
    shown = _game_and_kind(manifest)
    if isinstance(shown, str):
        return fail(shown)
    game, kind, configs = shown
    apps = installed_apps()
    if find_app(apps, game) is None:
        return fail(f"{manifest.path}: no game {game!r} on this device")
    config = args.preview_config or args.config or _first_config(configs)
    out = args.preview_screenshot or args.screenshot
    events = args.preview_events or args.events
    if events is not None and out is None:
        return fail("--events needs --screenshot", EXIT_USAGE)
    given = args.command_data_dir or args.data_dir
    with tempfile.TemporaryDirectory(prefix="palmish-preview-") as fresh:
        data_dir = Path(given) if given is not None else Path(fresh)
        problem = usable_dir(data_dir)
        if problem:
            return fail(problem)
        if out is not None:
            return _screenshot(args, folder, game, kind, config, data_dir, out, events)
        return _window(args, folder, game, kind, config, data_dir)


def _game_and_kind(manifest: Manifest) -> tuple[str, str, tuple[str, ...]] | str:
    """The game, kind and slots of a plugin folder, or of a game's data (a Levels
    database: its codes are its game's, of a kind that is no plugin; every slot);
    else the problem in one line."""
    if manifest.game is not None and manifest.kind is not None and manifest.info is not None:
        return (manifest.game, manifest.kind,
                tuple(str(c) for c in manifest.info.get("configs") or ()))
    schema = registry().by_codes(manifest.creator, manifest.type)
    kind = schema.data_kind(manifest.type) if schema is not None else None
    if schema is None or kind is None:
        return (f"{manifest.path}: not a game's plugin or data (no game: and kind:, and"
                f" type {manifest.type} creator {manifest.creator} is no game's data)")
    return schema.game, kind, schema.configs


def _device(args: argparse.Namespace, config: DisplayConfig, data_dir: Path, game: str,
            durable: bool, services: Services = NO_SERVICES) -> Device | int:
    try:
        return Device(config, data_dir, installed_apps(), game, durable=durable,
                      exclusive=True, buttons=hard_buttons(), services=services)
    except ValueError as exc:
        return fail(str(exc))


def _screenshot(args: argparse.Namespace, folder: Path, game: str, kind: str,
                config: DisplayConfig, data_dir: Path, out: Path, events: Path | None) -> int:
    if out.suffix.lower() != ".png":
        return fail(f"{out}: the screenshot is written as PNG; name it .png")
    numbered: list[tuple[int, Step]] = []
    if events is not None:
        try:
            numbered = read_numbered(events)
        except ScriptFileError as exc:
            return fail(str(exc))
        except ScriptError as exc:
            return fail(str(exc), EXIT_USAGE)
    device = _device(args, config, data_dir, game, durable=False)
    if isinstance(device, int):
        return device
    preview = Preview(device, folder, game, kind, _say)
    preview.rebuild()
    try:
        check_script(numbered, str(events), device.running_app, device.find_app, device.apps)
    except ScriptError as exc:
        device.shutdown()
        return fail(str(exc), EXIT_USAGE)
    steps = [step for _, step in numbered]
    status = screenshot.shoot(device, steps, out, settle=preview.poll)  # the strip follows a turn
    return status if status or preview.problem is None else EXIT_FAILED


def _window(args: argparse.Namespace, folder: Path, game: str, kind: str,
            config: DisplayConfig, data_dir: Path) -> int:
    from palmish.commands.window import open_window, window_services

    services, close_services = window_services(args)
    device = _device(args, config, data_dir, game, durable=False, services=services)
    if isinstance(device, int):
        return device
    preview = Preview(device, folder, game, kind, _say)
    preview.rebuild()
    args.zoom = args.preview_zoom or args.zoom
    return open_window(device, args, close_services, watchers=(preview,))

_say = logger("preview")

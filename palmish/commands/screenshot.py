"""`palmish --screenshot OUT.png [--events FILE]`: the device without a window runs
an event script (docs/events-format.md) and writes its screen as a PNG.

A bad script is a usage error (exit 2): a line it cannot read, or an app or
menu command the device does not have, found before anything runs.
"""

from __future__ import annotations

import argparse
import io
from collections.abc import Callable
from pathlib import Path

from palmish.commands import start
from palmish.commands.args import EXIT_OK, EXIT_USAGE, data_dir
from palmish.commands.output import fail
from palmish.device.disk.storage import usable_dir
from palmish.device.machine.system import Device
from palmish.device.scripting.eventscript import (
    ScriptError,
    ScriptFileError,
    Step,
    check_script,
    read_numbered,
    run_script,
)
from prc_tools.atomic import write_atomic


def run(args: argparse.Namespace) -> int:
    out: Path = args.screenshot
    if out.suffix.lower() != ".png":
        return fail(f"{out}: the screenshot is written as PNG; name it .png")
    folder = data_dir(args)
    problem = usable_dir(folder)
    if problem:
        return fail(problem)
    numbered: list[tuple[int, Step]] = []
    if args.events is not None:
        try:
            numbered = read_numbered(args.events)
        except ScriptFileError as exc:
            return fail(str(exc))
        except ScriptError as exc:
            return fail(str(exc), EXIT_USAGE)
    device = start.device(args, folder, durable=False)
    if isinstance(device, int):
        return device
    try:  # checked before anything runs
        check_script(numbered, str(args.events), device.running_app, device.find_app,
                     device.apps)
    except ScriptError as exc:
        device.shutdown()
        return fail(str(exc), EXIT_USAGE)
    return shoot(device, [step for _, step in numbered], out)


def shoot(device: Device, steps: list[Step], out: Path,
          settle: Callable[[], object] | None = None) -> int:
    """Run `steps` on `device`, shut it down and write its screen to `out`; the status.
    `settle` is called once the steps ran, before the picture (a window's watcher
    catching up with them, as its clock would)."""
    run_script(device, steps)
    if settle is not None:
        settle()
    image = device.screen.image.copy()
    device.shutdown()
    encoded = io.BytesIO()
    image.save(encoded, format="PNG")
    try:  # atomically, like every database: a full disk leaves the old picture whole
        write_atomic(out, encoded.getvalue())
    except OSError as exc:
        return fail(f"{out}: cannot write: {exc.strerror or exc}")
    return EXIT_OK

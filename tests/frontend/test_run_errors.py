"""window.run refuses bad options with one line and status 1, before opening anything."""

from __future__ import annotations

import pytest

from palmish.device.display import CONFIGS, ConfigName, DisplayConfig
from palmish.frontend.window import run


class Unopened:
    """Enough of a device for run() to reject its options (it never gets further)."""

    def __init__(self, config: DisplayConfig) -> None:
        self.config = config


@pytest.mark.parametrize(
    ("config", "skin", "zoom", "message"),
    [
        (ConfigName.SQUARE, None, 0, "palmish: --zoom must be 1 or more, not 0"),
        (ConfigName.SQUARE, "nope", 1, "palmish: unknown device skin 'nope' (available: "),
        (
            ConfigName.TALL,
            "classic",
            1,
            "palmish: skin 'classic' does not offer the tall configuration (it offers square-low)",
        ),
        (ConfigName.SQUARE_LOW, "t3", 1, "palmish: skin 't3' does not offer the square-low"),
        (ConfigName.SQUARE, "/nowhere/skin.yaml", 1, "palmish: /nowhere/skin.yaml: no such skin"),
    ],
)
def test_bad_options_end_in_one_line(
    capsys: pytest.CaptureFixture[str],
    config: ConfigName,
    skin: str | None,
    zoom: int,
    message: str,
) -> None:
    status = run(Unopened(CONFIGS[config]), skin, zoom)  # type: ignore[arg-type]
    err = capsys.readouterr().err
    assert status == 1
    assert err.startswith(message)
    assert err.count("\n") == 1


@pytest.mark.process
def test_no_display_is_one_line_not_a_traceback(tmp_path: object) -> None:
    import os
    import subprocess
    import sys

    code = (
        "import sys\n"
        "from palmish.device.display import CONFIGS, ConfigName\n"
        "from palmish.frontend.window import run\n"
        "class D:\n"
        "    config = CONFIGS[ConfigName.SQUARE]\n"
        "sys.exit(run(D(), None, 1))\n"
    )
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    done = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 1
    assert done.stderr.startswith("palmish: cannot open a window, no usable display")
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr

"""`palmish preview DIR` as a person runs it: a real window and its event loop in a
child process. A broken save is one line on standard error and the window stays up;
a good save after it builds again quietly."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from pathlib import Path
from queue import Empty, Queue

import pytest
from PIL import Image

from prc_tools.cli import main as prc_tools

from .conftest import needs_display

pytestmark = [pytest.mark.window, pytest.mark.process, needs_display]
WAIT_S = 30  # the most any step may take on a loaded machine


def _lines(stream: object, into: Queue[str]) -> None:
    for line in stream:  # type: ignore[attr-defined]
        into.put(line.rstrip("\n"))


def _save(path: Path, size: tuple[int, int], colour: tuple[int, int, int]) -> None:
    Image.new("RGB", size, colour).save(path)
    later = time.time_ns() + 10_000_000_000
    os.utime(path, ns=(later, later))


def test_a_broken_save_is_one_line_and_the_window_stays(tmp_path: Path) -> None:
    folder = tmp_path / "board"
    assert prc_tools(["new", "ishido", "board", "--config", "square", str(folder)]) == 0
    child = subprocess.Popen(
        [sys.executable, "-m", "palmish", "--no-discovery", "preview", str(folder),
         "--data-dir", str(tmp_path / "data")],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    errors: Queue[str] = Queue()
    threading.Thread(target=_lines, args=(child.stderr, errors), daemon=True).start()
    try:
        board = folder / "board.png"
        size = Image.open(board).size
        _save(board, (size[0] + 3, size[1]), (0, 0, 0))
        line = errors.get(timeout=WAIT_S)
        assert "board.png" in line and f"{size[0] + 3}x{size[1]}" in line, line
        assert child.poll() is None  # the window is still up
        board.write_bytes(b"\x89PNG\r\n\x1a\n half written")
        line = errors.get(timeout=WAIT_S)
        assert "board.png" in line and "Traceback" not in line, line
        _save(board, size, (0, 128, 0))  # fixed: built again, nothing said
        with pytest.raises(Empty):
            errors.get(timeout=3)
        assert child.poll() is None
    finally:
        child.terminate()
        child.wait(timeout=WAIT_S)

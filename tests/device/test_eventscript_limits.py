"""Hostile event scripts (issue 15 item 10): bounded size and expansion, regular files, BOM."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from palmish.device.events import PenDown, PenUp
from palmish.device.scripting.eventscript import (
    MAX_SCRIPT_BYTES,
    MAX_SCRIPT_EVENTS,
    ScriptError,
    parse_script,
    read_script,
)


def test_repeated_long_drags_stop_at_the_event_bound() -> None:
    # The reported case: `drag 0 0 300 300 1000` repeated (4.4 MB, 200 M events).
    line = "drag 0 0 300 300 1000\n"
    text = line * (MAX_SCRIPT_EVENTS // 1002 + 2)
    with pytest.raises(ScriptError, match=f"more than {MAX_SCRIPT_EVENTS} events"):
        parse_script(text, "big.txt")


def test_a_script_just_within_the_bound_is_read() -> None:
    steps = parse_script("tap 1 2\n" * (MAX_SCRIPT_EVENTS // 2))
    assert len(steps) == MAX_SCRIPT_EVENTS


def test_a_script_file_over_the_size_bound_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "events.txt"
    path.write_text("drag 0 0 300 300 1000\n" * (MAX_SCRIPT_BYTES // 22 + 1))
    with pytest.raises(ScriptError, match="too big"):
        read_script(path)


@pytest.mark.parametrize("device", ["/dev/zero", "/dev/null"])
def test_a_device_file_is_not_read(device: str) -> None:
    if not Path(device).exists():
        pytest.skip(f"no {device}")
    with pytest.raises(ScriptError, match="not a regular file"):
        read_script(Path(device))


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
def test_a_fifo_does_not_hang(tmp_path: Path) -> None:
    fifo = tmp_path / "events"
    os.mkfifo(fifo)
    with pytest.raises(ScriptError, match="not a regular file"):
        read_script(fifo)


def test_a_folder_is_not_read(tmp_path: Path) -> None:
    with pytest.raises(ScriptError, match=r"not a regular file|cannot read"):
        read_script(tmp_path)


def test_a_utf8_bom_at_the_start_is_accepted(tmp_path: Path) -> None:
    path = tmp_path / "events.txt"
    path.write_bytes(b"\xef\xbb\xbftap 3 4\n")
    assert read_script(path) == [PenDown(3, 4), PenUp(3, 4)]

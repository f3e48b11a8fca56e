"""A rematch at the same table, answered by keys in a real window (docs/network.md,
"At the table"): `palmish host --games 2` (no window) with Bob's open seat and
Silicon's; a window joins by Game > Network Game... > Join > Other... (address,
port, code, Sit, name typed) and plays the first game to its end: Space in his
first turn (throw, then move the marked piece), Game > Pass (Ctrl+P) after, while
Silicon plays its pieces home. At Game Over the host proposes the rematch; the
window asks it over its own Game Over, and Y answers (had Y come before the
proposal, it would have said yes to it on Game Over all the same).
The new game starts at the table, and nothing of the last one is left open on
the window: Game > Table Message... sends "Good luck!" (a Game Over still open
would have taken those keys). Loopback only, --no-discovery, every
wait bounded; the state is read from the host's save, written after every step."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from palmish.pachisi.game import Game
from tests.network.processes import host

from .conftest import needs_display
from .test_ishido_window import built_cache, fresh_device, wait_for, xdo
from .test_network_host_window import join_by_typing, window

pytestmark = [pytest.mark.window, pytest.mark.process, needs_display]
__all__ = ["built_cache"]  # the fixture, shared with the PalmIshido window test

BOB = 0  # --seats remote,computer: Bob first, Silicon second


def saved(data: Path) -> dict[str, object]:
    """The host's saved table (written after every step), or {} between writes."""
    try:
        kept = json.loads((data / "network" / "keys" / "host-pachisi.json").read_text())
    except (OSError, ValueError):
        return {}
    return kept if isinstance(kept, dict) else {}


def game(data: Path) -> Game | None:
    record = saved(data).get("record")
    return Game.from_record(record) if isinstance(record, str) else None


def moved_on(data: Path, record: object, seconds: float) -> bool:
    """Wait until the host's record changes (a key took effect), at most `seconds`."""
    return wait_for(lambda: saved(data).get("record") not in (None, record), seconds)


def press(wid: str, key: str) -> None:
    xdo("windowfocus", "--sync", wid)
    xdo("key", "--clearmodifiers", key)


def test_a_rematch_answered_by_y_in_a_window_starts_at_the_table(
        tmp_path: Path, built_cache: Path) -> None:
    server, port, code = host(tmp_path / "host", "--seats", "remote,computer", "--games", "2",
                              "--wait", "600", "--seed", "3")
    err = tmp_path / "bob.err"
    joiner, wid = window(fresh_device(tmp_path / "bob", built_cache), err, [])
    try:
        join_by_typing(wid, "127.0.0.1", str(port), code, "bob")
        server.wait_for_log("the game starts", timeout=60)
        deadline = time.monotonic() + 600  # Silicon's whole game, generously
        while time.monotonic() < deadline:
            now = game(tmp_path / "host")
            if now is not None and now.over:
                break
            if now is None or now.current != BOB:
                time.sleep(0.1)
                continue
            record = saved(tmp_path / "host").get("record")
            if now.in_first_turn(BOB):  # no passing yet: throw, then move the marked piece
                press(wid, "space")
                moved_on(tmp_path / "host", record, 3)  # else a notice took it: again
                continue
            # Game > Pass (Ctrl+P) after: it clears a notice on the board as it passes, and
            # no question takes it (a key there might answer Game Over before the test).
            press(wid, "ctrl+p")
            if not moved_on(tmp_path / "host", record, 5):
                press(wid, "space")  # "It is Silicon's turn": the window was a step behind
        over = game(tmp_path / "host")
        assert over is not None and over.over, saved(tmp_path / "host")
        server.wait_for_log("The host proposes a rematch", timeout=60)
        time.sleep(2)  # the proposal reaches the window: its question is on top
        press(wid, "y")
        server.wait_for_log("The rematch is on", timeout=60)
        server.wait_for_log(r"Bob: yes", timeout=5)

        def started() -> bool:
            now = game(tmp_path / "host")
            return now is not None and not now.over and len(now.history) < len(over.history)

        assert wait_for(started, 60), saved(tmp_path / "host")  # a new game at the table
        # Game > Table Message... (the eighth item), Send "Good luck!": only with no
        # question of the last game left open (it would take M, the arrows and Enter).
        for key in ("m", *["Down"] * 7, "Return", "Return"):
            press(wid, key)
            time.sleep(0.15)
        assert wait_for(lambda: any(line.endswith("Bob: Good luck!")
                                    for line in server.err_lines), 30), (
            "a question of the last game was still open on the window", server.err_lines)
        assert joiner.poll() is None, err.read_text()  # the window is still up
        assert "is away" not in "\n".join(server.err_lines), server.err_lines
    finally:
        server.kill()
        joiner.kill()
        joiner.wait(timeout=10)

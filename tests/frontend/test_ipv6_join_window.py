"""A window joins a game hosted on the IPv6 loopback address, typed with the
desktop keyboard: Game > Network Game... > Join > Other..., "::1" (its colons
typed as text: pyglet drops a second ":" key press when Shift is let go first, as
xdotool does), the port, the join code, Sit, a name. The host is `palmish host
--listen ::1` (no window, no discovery); it says when the name sits. Loopback
only, every wait bounded (docs/network.md, "Join")."""

from __future__ import annotations

import re
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from .conftest import needs_display
from .test_ishido_window import built_cache, fresh_device, wait_for
from .test_network_host_window import join_by_typing, window

pytestmark = [pytest.mark.window, needs_display]
__all__ = ["built_cache"]  # the fixture, shared with the PalmIshido window test

LISTENING = re.compile(r"listening on \[::1\]:(\d+) code (\d{4})")


def ipv6_loopback() -> bool:
    try:
        with socket.socket(socket.AF_INET6) as probe:
            probe.bind(("::1", 0))
    except OSError:
        return False
    return True


@pytest.mark.skipif(not ipv6_loopback(), reason="this machine has no IPv6 loopback (::1)")
def test_a_window_joins_a_host_at_a_typed_ipv6_address(tmp_path: Path, built_cache: Path) -> None:
    out = tmp_path / "host.out"
    with out.open("wb") as log:
        host = subprocess.Popen(
            [sys.executable, "-m", "palmish", "host", "--app", "pachisi", "--listen", "::1",
             "--port", "0", "--seats", "remote,computer", "--data-dir", str(tmp_path / "host")],
            stdout=log, stderr=subprocess.STDOUT)
    children = [host]
    try:
        assert wait_for(lambda: LISTENING.search(out.read_text()) is not None, 30), \
            out.read_text()
        found = LISTENING.search(out.read_text())
        assert found is not None
        port, code = found.groups()
        joiner, wid = window(fresh_device(tmp_path / "b", built_cache), tmp_path / "b.err", [])
        children.append(joiner)
        join_by_typing(wid, "::1", port, code, "bob")
        assert wait_for(lambda: "Bob sits in seat 1" in out.read_text(), 20), (
            out.read_text() + (tmp_path / "b.err").read_text())
    finally:
        for child in children:
            child.kill()
            child.wait(timeout=10)

"""Magic Wormhole's own servers, started on 127.0.0.1 for a test: the mailbox
(rendezvous) and the transit relay, each a `twist` process (the servers'
packages' own command), every wait bounded."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.network.processes import free_port

START_S = 20.0


def _wait_listening(port: int, proc: subprocess.Popen[bytes], prefix: tuple[str, ...] = (),
                    interface: str = "127.0.0.1") -> None:
    deadline = time.monotonic() + START_S
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise AssertionError(f"the server on port {port} exited: {proc.returncode}")
        if prefix:  # in a namespace: ask there
            probe = subprocess.run([*prefix, sys.executable, "-c",
                                    "import socket,sys; s=socket.socket(); s.settimeout(0.5);"
                                    f"sys.exit(s.connect_ex(({interface!r}, {port})))"],
                                   check=False, timeout=10)
            if probe.returncode == 0:
                return
        else:
            with socket.socket() as s:
                s.settimeout(0.5)
                if s.connect_ex(("127.0.0.1", port)) == 0:
                    return
        time.sleep(0.05)
    raise AssertionError(f"no server listening on 127.0.0.1:{port} after {START_S} s")


class Server:
    """One `twist PLUGIN --port tcp:PORT:interface=127.0.0.1` process."""

    def __init__(self, plugin: str, folder: Path, port: int | None = None,
                 *options: str, prefix: tuple[str, ...] = (),
                 interface: str = "127.0.0.1") -> None:
        self.plugin, self.folder, self.options = plugin, folder, options
        self.prefix, self.interface = prefix, interface
        self.port = port or free_port()
        self.proc: subprocess.Popen[bytes] | None = None
        self.start()

    def start(self) -> None:
        self.folder.mkdir(parents=True, exist_ok=True)
        log = (self.folder / f"{self.plugin}.log").open("ab")
        self.proc = subprocess.Popen(
            [*self.prefix, sys.executable, "-m", "twisted", self.plugin,
             f"--port=tcp:{self.port}:interface={self.interface}", *self.options],
            cwd=self.folder, stdout=log, stderr=subprocess.STDOUT)
        log.close()
        _wait_listening(self.port, self.proc, self.prefix, self.interface)

    def kill(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(timeout=10)


class Servers:
    """A rendezvous and a relay on loopback, and the environment that names them."""

    def __init__(self, folder: Path) -> None:
        self.mailbox = Server("wormhole-mailbox", folder / "mailbox")
        self.relay = Server("transitrelay", folder / "relay")

    @property
    def rendezvous_url(self) -> str:
        return f"ws://127.0.0.1:{self.mailbox.port}/v1"

    def env(self, direct: str = "off", relay_port: int | None = None,
            lan: str = "off") -> dict[str, str]:
        """For palmish: these servers; direct and LAN hints only on loopback (or none:
        never the machine's own outside addresses)."""
        return dict(os.environ, PALMISH_RENDEZVOUS=self.rendezvous_url,
                    PALMISH_RELAY=f"tcp:127.0.0.1:{relay_port or self.relay.port}",
                    PALMISH_DIRECT=direct, PALMISH_LAN=lan)

    def close(self) -> None:
        self.relay.kill()
        self.mailbox.kill()


@pytest.fixture
def servers(tmp_path: Path) -> Iterator[Servers]:
    """A rendezvous and a relay of the test's own, closed after it."""
    started = Servers(tmp_path / "servers")
    try:
        yield started
    finally:
        started.close()

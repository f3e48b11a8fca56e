"""Hosts and joiners as separate processes on loopback, every wait bounded."""

from __future__ import annotations

import queue
import re
import subprocess
import sys
import threading
import time
from pathlib import Path

TIMEOUT_S = 90.0  # no process of these tests lives longer


class Process:
    """A `palmish` subprocess whose stdout and stderr lines are read as they come."""

    def __init__(self, *args: str, module: str = "palmish",
                 env: dict[str, str] | None = None, prefix: tuple[str, ...] = ()) -> None:
        self.proc = subprocess.Popen(
            [*prefix, sys.executable, "-m", module, *args], stdout=subprocess.PIPE,
            stderr=subprocess.PIPE, text=True, encoding="utf-8", errors="replace", env=env)
        self.out: queue.Queue[str] = queue.Queue()
        self.err_lines: list[str] = []
        self.out_lines: list[str] = []
        self._started = time.monotonic()
        self._pumps = [
            threading.Thread(target=self._pump, args=(stream, into), daemon=True)
            for stream, into in ((self.proc.stdout, self.out_lines),
                                 (self.proc.stderr, self.err_lines))
        ]
        for pump in self._pumps:
            pump.start()

    def _pump(self, stream: object, into: list[str]) -> None:
        for line in stream:  # type: ignore[attr-defined]
            into.append(line.rstrip("\n"))
            if into is self.out_lines:
                self.out.put(line.rstrip("\n"))

    def next_line(self, timeout: float = 20.0) -> str:
        return self.out.get(timeout=timeout)

    def wait_for_log(self, pattern: str, timeout: float = 30.0) -> str:
        """The first stderr line matching `pattern`, waiting up to `timeout` seconds."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for line in list(self.err_lines):
                if re.search(pattern, line):
                    return line
            time.sleep(0.02)
        raise AssertionError(f"no log line like {pattern!r} in {self.err_lines}")

    def finish(self, timeout: float = 60.0) -> int:
        try:
            status = self.proc.wait(timeout=min(timeout, TIMEOUT_S))
        finally:
            self.kill()
        for pump in self._pumps:  # every line read before anyone looks
            pump.join(timeout=10)
        return status

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(timeout=10)

    def record(self) -> str:
        lines = [line for line in self.out_lines if line.startswith("record: ")]
        assert len(lines) == 1, (self.out_lines, self.err_lines)
        return lines[0].removeprefix("record: ")


def host(data_dir: Path, *options: str) -> tuple[Process, int, str]:
    """A host on 127.0.0.1: the process, its port and its code."""
    process = Process("host", "--app", "pachisi", "--data-dir", str(data_dir), *options)
    line = process.next_line()
    match = re.fullmatch(r"listening on 127\.0\.0\.1:(\d+) code (\d{4})", line)
    assert match, line
    return process, int(match.group(1)), match.group(2)


def join(port: int, code: str, name: str, data_dir: Path, *options: str) -> Process:
    return Process("join", f"127.0.0.1:{port}", "--code", code, "--name", name, "--auto",
                   "--data-dir", str(data_dir), *options)


def free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def idle_joiner(port: int, code: str, name: str, data_dir: Path) -> Process:
    """A joiner that sits and never acts (tests/network/idle_joiner.py)."""
    return Process(str(port), code, name, str(data_dir), module="tests.network.idle_joiner")

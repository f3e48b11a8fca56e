"""A joiner written from docs/network.md alone: the standard library's socket
and json, no palmish code. It plays its seat by the host's `turn` messages
against a real host process and ends with the host's record."""

from __future__ import annotations

import json
import socket
import time
from pathlib import Path

import pytest

from tests.network.processes import host

pytestmark = pytest.mark.process  # every test here starts another program


def play(port: int, code: str, name: str, limit_s: float = 60.0) -> tuple[str, list[str]]:
    """The record at the end and the kinds of message seen."""
    seen: list[str] = []
    with socket.create_connection(("127.0.0.1", port), timeout=5) as s:
        s.settimeout(0.5)
        hello = {"t": "hello", "v": 1, "app": "pachisi", "code": code, "name": name,
                 "token": "ab" * 16}
        s.sendall(json.dumps(hello).encode() + b"\n")
        seat = None
        buffer = b""
        last_ping = time.monotonic()
        deadline = time.monotonic() + limit_s
        while time.monotonic() < deadline:
            if time.monotonic() - last_ping > 1.0:
                s.sendall(b'{"t":"ping"}\n')
                last_ping = time.monotonic()
            try:
                chunk = s.recv(65536)
            except TimeoutError:
                continue
            assert chunk, "the host closed before the end"
            buffer += chunk
            while b"\n" in buffer:
                line, buffer = buffer.split(b"\n", 1)
                msg = json.loads(line)
                seen.append(msg["t"])
                if msg["t"] == "welcome":
                    seat = msg["seat"]
                elif msg["t"] == "end":
                    return msg["record"], seen
                elif msg["t"] == "turn" and msg["seat"] == seat:
                    if msg["phase"] == "throw":
                        s.sendall(b'{"t":"throw"}\n')
                    elif msg["phase"] == "move":
                        intent = {"t": "move", "piece": msg["pieces"][0]}
                        s.sendall(json.dumps(intent).encode() + b"\n")
    raise AssertionError("the game did not end in time")


def test_a_client_from_the_docs_plays_a_whole_game(tmp_path: Path) -> None:
    server, port, code = host(tmp_path, "--seats", "computer,remote,computer")
    try:
        record, seen = play(port, code, "Doc")
        assert server.finish() == 0
        assert record == server.record()
        assert {"welcome", "seats", "game", "turn", "step", "end"} <= set(seen)
        assert "error" not in seen
    finally:
        server.kill()

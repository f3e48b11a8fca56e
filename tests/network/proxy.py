"""A logging and rewriting TCP proxy on loopback, as someone between a host and
its joiners would run one: it knows only version 2's framing (a first line,
then frames of a 4-byte length and that many bytes), logs every byte both
ways, and may change a frame on its way (`rewrite`). Threads, every socket
with a timeout: it ends with the connections it serves."""

from __future__ import annotations

import contextlib
import socket
import struct
import threading
from collections.abc import Callable
from dataclasses import dataclass, field

# (connection number, "up" from the joiner or "down" from the host, frame number
# from 0 after the first line, the frame's payload) -> the payload to send on
Rewrite = Callable[[int, str, int, bytes], bytes]
TIMEOUT_S = 60.0


@dataclass
class Captured:
    up: bytearray = field(default_factory=bytearray)
    down: bytearray = field(default_factory=bytearray)


class Proxy:
    def __init__(self, target_port: int, rewrite: Rewrite | None = None) -> None:
        self.target_port = target_port
        self.rewrite = rewrite
        self.captured: list[Captured] = []
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.listener.settimeout(0.2)
        self.port = int(self.listener.getsockname()[1])
        self._stop = threading.Event()
        self._threads: list[threading.Thread] = []
        self._lock = threading.Lock()
        accepting = threading.Thread(target=self._accept, daemon=True)
        accepting.start()
        self._threads.append(accepting)

    def _accept(self) -> None:
        while not self._stop.is_set():
            try:
                joiner, _ = self.listener.accept()
            except (TimeoutError, OSError):
                continue
            try:
                host = socket.create_connection(("127.0.0.1", self.target_port), timeout=5)
            except OSError:
                joiner.close()
                continue
            with self._lock:
                number = len(self.captured)
                self.captured.append(Captured())
            for source, sink, way in ((joiner, host, "up"), (host, joiner, "down")):
                pump = threading.Thread(target=self._pump, args=(number, source, sink, way),
                                        daemon=True)
                pump.start()
                self._threads.append(pump)

    def _pump(self, number: int, source: socket.socket, sink: socket.socket, way: str) -> None:
        source.settimeout(TIMEOUT_S)
        log = getattr(self.captured[number], way)
        buffer = b""
        line_done = False
        frames = 0
        try:
            while not self._stop.is_set():
                chunk = source.recv(65536)
                if not chunk:
                    break
                log.extend(chunk)
                buffer += chunk
                out = b""
                if not line_done and b"\n" in buffer:
                    line, buffer = buffer.split(b"\n", 1)
                    out += line + b"\n"
                    line_done = True
                while line_done and len(buffer) >= 4:
                    (length,) = struct.unpack(">I", buffer[:4])
                    if len(buffer) < 4 + length:
                        break
                    payload, buffer = buffer[4:4 + length], buffer[4 + length:]
                    if self.rewrite is not None:
                        payload = self.rewrite(number, way, frames, payload)
                    frames += 1
                    out += struct.pack(">I", len(payload)) + payload
                if out:
                    sink.sendall(out)
        except OSError:
            pass
        finally:
            for s in (source, sink):
                with contextlib.suppress(OSError):
                    s.shutdown(socket.SHUT_RDWR)
                s.close()

    def everything(self) -> bytes:
        with self._lock:
            return b"".join(bytes(c.up) + bytes(c.down) for c in self.captured)

    def close(self) -> None:
        self._stop.set()
        self.listener.close()
        for thread in self._threads:
            thread.join(timeout=5)

"""A beam sender written from docs/network.md ("Beam", "Messages") with nothing but
`socket` and `json`, run as its own process by the tests: it offers SIZE bytes,
sends CHUNKS chunks of them, then keeps the connection (pinging) until killed or
until HOLD seconds pass. Every line it receives is printed as it came.

    python -m tests.network.raw_beam_sender PORT CODE SIZE CHUNKS HOLD
"""

from __future__ import annotations

import base64
import json
import socket
import sys
import time


def main() -> int:
    port, code, size, chunks, hold = (int(sys.argv[1]), sys.argv[2], int(sys.argv[3]),
                                      int(sys.argv[4]), float(sys.argv[5]))
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        lines = sock.makefile("rb")

        def send(message: dict[str, object]) -> None:
            sock.sendall(json.dumps(message).encode("ascii") + b"\n")

        def answer() -> dict[str, object]:
            while True:
                line = lines.readline()
                if not line:
                    print("closed", flush=True)
                    raise SystemExit(0)
                print(line.decode("ascii").rstrip("\n"), flush=True)
                message: dict[str, object] = json.loads(line)
                if message["t"] != "ping":
                    return message

        send({"t": "hello", "v": 1, "app": "beam", "name": "Raw", "key": "0" * 32,
              "code": code})
        if answer()["t"] != "welcome":
            return 1
        send({"t": "offer", "kind": "plugin", "app": "", "name": "", "number": None,
              "size": size})
        if answer()["t"] != "ready":
            return 1
        for n in range(chunks):
            send({"t": "data", "n": n, "bytes": base64.b64encode(b"\xa5" * 32768).decode()})
            answer()
        print("sent", flush=True)
        end = time.monotonic() + hold
        while time.monotonic() < end:  # bounded: the test kills it long before
            send({"t": "ping"})
            time.sleep(1.0)
    return 0


if __name__ == "__main__":
    sys.exit(main())

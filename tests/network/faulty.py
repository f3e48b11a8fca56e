"""`palmish` with one fault put in, run as a program by the fault tests
(tests/network/test_faults.py):

    python -m tests.network.faulty FAULT N -- palmish arguments...

FAULT is one of
- `host-full N`: the host's save after its N-th refuses with ENOSPC (the disk is
  full), and every later one too;
- `host-stall N`: the host's N-th save stops between its temporary file and the
  rename, says `STALLED <temporary>` on standard error and waits to be killed;
- `install-stall N`: an accepted plugin waits in its private folder, says
  `STALLED <file>` and waits to be killed (N is unused);
- `storage-full N`: every database the device writes refuses with ENOSPC (N unused).
"""

from __future__ import annotations

import errno
import os
import sys
import time
from pathlib import Path
from typing import Any

WAIT_S = 60.0  # a stalled process waits this long for its kill, then exits


def _stall(what: str) -> None:
    print(f"STALLED {what}", file=sys.stderr, flush=True)
    time.sleep(WAIT_S)
    raise SystemExit(3)


def _full(*_args: Any, **_kwargs: Any) -> None:
    raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))


def install(fault: str, n: int) -> None:
    if fault in ("host-full", "host-stall"):
        from palmish.network import keep

        real = keep.write_atomic
        saves = [0]

        def write(path: Path, data: bytes, *args: Any, **kwargs: Any) -> None:
            if not path.name.startswith("host-"):
                real(path, data, *args, **kwargs)
                return
            saves[0] += 1
            if fault == "host-full" and saves[0] > n:
                _full()
            if fault == "host-stall" and saves[0] == n:
                real_replace = os.replace

                def stalled(source: Any, target: Any) -> None:
                    os.replace = real_replace
                    _stall(str(source))

                os.replace = stalled  # type: ignore[assignment]
            real(path, data, *args, **kwargs)

        keep.write_atomic = write  # type: ignore[assignment]
    elif fault == "install-stall":
        from palmish.network.beam import items

        def game_file(path: Path, storage: Any) -> None:
            _stall(str(path))

        items.install_game_file = game_file  # type: ignore[assignment]
    elif fault == "storage-full":
        from palmish.device.disk import storage

        storage.write_atomic = _full  # type: ignore[assignment]
    else:
        raise SystemExit(f"no fault {fault!r}")


def main(argv: list[str]) -> int:
    fault, n, dashes, *rest = argv
    assert dashes == "--", argv
    install(fault, int(n))
    from palmish.cli import main as palmish

    return palmish(rest)


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))

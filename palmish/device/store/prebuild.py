"""Build bundled plugin folders into the device's cache, in a process of its own.

    python -m palmish.device.store.prebuild FOLDER TARGET [FOLDER TARGET ...]

The window starts this once its first frame is drawn, for the bundled plugins
the first screen did not need, so that turning the device later finds the
other configurations' plugins built instead of building them mid-turn. A
process of its own keeps the work off the window's thread (and its GIL).
Each database is written atomically with its checksum beside it
(palmish.device.disk.kept); a folder that fails to build is left alone, and the
device says why when it loads that plugin itself.
"""

from __future__ import annotations

import sys
from pathlib import Path


def main(argv: list[str]) -> int:
    from palmish.device.disk import kept
    from prc_tools import PrcError, plugin

    for folder, target in zip(argv[0::2], argv[1::2], strict=False):
        try:
            db = plugin.build_folder(Path(folder))
        except (PrcError, OSError):
            continue
        kept.write_beside(Path(target), db.to_bytes())  # with its checksum, as the device
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))

"""Files written atomically get the usual permissions (issue 15 item 13: build wrote 0600)."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from prc_tools.atomic import write_atomic


@pytest.mark.skipif(os.name != "posix", reason="POSIX permissions")
@pytest.mark.parametrize(("umask", "mode"), [(0o022, 0o644), (0o077, 0o600), (0o002, 0o664)])
def test_new_files_follow_the_umask(tmp_path: Path, umask: int, mode: int) -> None:
    old = os.umask(umask)
    try:
        write_atomic(tmp_path / "out.prc", b"data", durable=False)
    finally:
        os.umask(old)
    assert stat.S_IMODE((tmp_path / "out.prc").stat().st_mode) == mode

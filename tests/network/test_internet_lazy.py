"""Twisted and Magic Wormhole load only when the internet is used (--internet,
--code CODE): never with the command line, nor with the commands' own modules."""

from __future__ import annotations

import subprocess
import sys

import pytest

pytestmark = pytest.mark.process  # starts another program

CHECK = """
import sys
import palmish.cli
import palmish.commands.host, palmish.commands.join, palmish.commands.beam
import palmish.commands.receive
import palmish.network.internet.settings, palmish.network.internet.meeting
loaded = sorted(m for m in ("twisted", "wormhole", "autobahn") if m in sys.modules)
print(",".join(loaded) or "none")
"""


def test_the_lan_commands_load_no_twisted() -> None:
    done = subprocess.run([sys.executable, "-c", CHECK], capture_output=True, text=True,
                          timeout=60, check=True)
    assert done.stdout.strip() == "none", done.stdout + done.stderr

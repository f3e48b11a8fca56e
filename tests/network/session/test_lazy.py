"""The crypto libraries load with the first handshake, never at start: neither
the command line nor any session module imports them when imported."""

from __future__ import annotations

import subprocess
import sys

import pytest

pytestmark = pytest.mark.process  # every test here starts another program

MODULES = ["channel", "crypto", "dice", "frames", "guesses", "handshake", "identity", "kinds",
           "peers", "records", "secretfiles"]
CHECK = """
import sys
import palmish.cli
{imports}
loaded = sorted(m for m in ("cryptography", "spake2") if m in sys.modules)
print(",".join(loaded) or "none")
"""


def test_a_start_without_networking_loads_no_crypto_library() -> None:
    imports = "\n".join(f"import palmish.network.session.{m}" for m in MODULES)
    done = subprocess.run([sys.executable, "-c", CHECK.format(imports=imports)],
                          capture_output=True, text=True, timeout=60, check=True)
    assert done.stdout.strip() == "none", done.stdout + done.stderr


def test_importtime_of_the_command_line_names_neither() -> None:
    done = subprocess.run([sys.executable, "-X", "importtime", "-c", "import palmish.cli"],
                          capture_output=True, text=True, timeout=60, check=True)
    assert "palmish.cli" in done.stderr
    assert "cryptography" not in done.stderr and "spake2" not in done.stderr

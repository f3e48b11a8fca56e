"""Fuzzing verify (what the device runs before using a plugin) over mutated plugin files:
it either passes or raises a PrcError, never anything else."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from PIL import Image

from prc_tools import Database, PrcError, Resource, bitmap, plugin, sound

INFO = {"game": "ishido", "kind": "sound", "name": "Fuzz", "version": 1, "author": "a",
        "configs": ["square", "tall", "wide"]}
PLUGIN = Database("Fuzz", "IsSd", "PIsh", resources=[
    Resource("pINF", 0, plugin.info_bytes(INFO)),
    Resource("Tbmp", 2002, bitmap.encode_family(Image.new("RGBA", (6, 4), (200, 10, 10, 255)),
                                                densities=(144, 72), depths=(16, 8))),
    Resource("wave", 3000, sound.wav_bytes(bytes(range(0, 120, 3)), 11025, 8)),
]).to_bytes()


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_mutated_plugins_verify_or_raise_prc_errors(data: st.DataObject) -> None:
    body = bytearray(PLUGIN)
    for _ in range(data.draw(st.integers(1, 6))):
        body[data.draw(st.integers(0, len(body) - 1))] = data.draw(st.integers(0, 255))
    try:
        db = Database.read(bytes(body))
        plugin.verify(db)
    except PrcError as exc:
        assert "\n" not in str(exc)

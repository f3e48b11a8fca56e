"""The sender's chunk size (docs/network.md, "Beam"): an item of a few KB crosses
in steps a progress bar can show; a large one in the protocol's largest chunks."""

from __future__ import annotations

from palmish.network.beam import wire


def test_a_few_kb_cross_in_steps_and_a_large_item_in_the_largest_chunks() -> None:
    assert wire.chunk_bytes(0) == wire.SHOWN_BYTES
    assert wire.chunk_bytes(20 * 1024) == wire.SHOWN_BYTES  # five steps for 20 KB
    assert wire.chunk_bytes(100 * 1024) == -(-100 * 1024 // wire.PIECES)
    assert wire.chunk_bytes(wire.MAX_ITEM_BYTES) == wire.CHUNK_BYTES
    for size in (1, 4097, 9000, 70_001, 300_000, wire.MAX_ITEM_BYTES):
        step = wire.chunk_bytes(size)
        assert wire.SHOWN_BYTES <= step <= wire.CHUNK_BYTES
        assert -(-size // step) <= wire.MAX_ITEM_BYTES // wire.CHUNK_BYTES + 1  # `n` fits

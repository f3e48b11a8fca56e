"""Bit-mask helpers the games' bitboard rules share (pure: no device, no game)."""

from __future__ import annotations


def bits_of(mask: int) -> list[int]:
    """The bit indices set in a mask, ascending (row-major order on a bitboard)."""
    out: list[int] = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out

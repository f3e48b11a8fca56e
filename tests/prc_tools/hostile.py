"""Builders of hostile databases from the reliability probe (issue 15), for several tests."""

from __future__ import annotations

import struct

from prc_tools import Database, Resource

# Just under the per-member cap (1 << 25 pixels): 5792 x 5792 = 33,547,264.
BOMB_SIDE = 5792


def rle_member(width: int, height: int, value: int = 7) -> bytes:
    """A version 3, 8-bit, RLE bitmap of one colour: tiny to store, big to decode."""
    header = struct.pack(">hhHHBB", width, height, width, 0x8000, 8, 3)
    header += struct.pack(">BBBBHII", 24, 0, 0, 1, 144, 0, 0)
    runs = bytearray()
    left = width
    while left:
        count = min(255, left)
        runs += bytes((count, value))
        left -= count
    body = bytes(runs) * height
    return header + struct.pack(">I", len(body) + 4) + body


def memory_bomb_pieces(tiles: int = 36, side: int = BOMB_SIDE) -> Database:
    """The reported 9.6 MB Pieces plugin: 36 tiles, each one member just under the cap."""
    pinf = (
        b"game: ishido\nkind: pieces\nname: Bomb Pieces\nversion: 1\nauthor: probe\n"
        b"configs: [square, tall]\ncell: [24, 40]\n"
    )
    member = rle_member(side, side)
    resources = [Resource("pINF", 0, pinf)]
    resources += [Resource("Tbmp", 1000 + n, member) for n in range(tiles)]
    return Database(name="Bomb Pieces", type="IsPc", creator="PIsh", attributes=1,
                    resources=resources)


def empty_resources(count: int = 65_535) -> Database:
    """A database of `count` empty resources (extract once took 110 s on it)."""
    return Database(
        name="Empty", type="DATA", creator="test", attributes=1,
        resources=[Resource("DATA", n, b"") for n in range(count)],
    )

"""Files kept under cache/: each says what it was made from and carries a checksum.

Every start-up cache (built bundled plugins, plugin descriptions, the installed
index, decoded bitmaps, the skin) is derived data. A kept file is used only
when it reads back exactly as written and was made from what the caller has
now; anything else (missing, damaged by a flipped bit, cut short, a FIFO or
a huge file in its place, written by another palmish version, made from
another source) reads as None and the caller makes it anew, silently.

Two shapes:

- `write`/`read`: the file is sealed: a first line `palmish-kept 1`, a JSON
  line (the palmish version, the caller's `source`, the payload's size, any
  `meta` the caller wants back, and the CRC-32 of meta and payload), then the
  payload.
- `write_beside`/`read_beside`: the file stays as others read it (a built
  bundled plugin is a plain Palm database) and its seal, with an empty payload,
  is kept beside it as `NAME.sum`.

A CRC-32 finds every flipped bit and burst of up to 32 bits; the caches guard
against damage, not against someone forging a file (they could as well edit
the source). Writes are atomic and never durable (a lost cache costs one
slower start); a write that fails returns False and the caller decides
whether to say so (at most once: docs/storage.md).
"""

from __future__ import annotations

import json
import zlib
from pathlib import Path

from palmish import __version__
from palmish.device.disk.storage import parse_json
from prc_tools.atomic import write_atomic
from prc_tools.files import FileProblem, read_regular

MAGIC = b"palmish-kept 1\n"
MAX_HEADER = 4096  # the seal's JSON line: bounded before it is parsed
OVERHEAD = len(MAGIC) + MAX_HEADER  # the most a seal adds to a payload
SUM_SUFFIX = ".sum"


def seal(payload: bytes, source: object, meta: dict[str, object] | None = None) -> bytes:
    """`payload` with the line that lets `unseal` check it (`source` and `meta`: JSON)."""
    meta = meta or {}
    header = {"palmish": __version__, "from": source, "size": len(payload),
              "crc32": _crc(payload, meta), "meta": meta}
    return MAGIC + json.dumps(header, sort_keys=True).encode("utf-8") + b"\n" + payload


def unseal(data: bytes, source: object) -> tuple[bytes, dict[str, object]] | None:
    """The payload and meta of sealed `data` made from `source`; None if anything differs."""
    if not data.startswith(MAGIC):
        return None
    end = data.find(b"\n", len(MAGIC), len(MAGIC) + MAX_HEADER)
    if end < 0:
        return None
    try:  # a few hundred bytes at most from palmish; anything else fails here
        header = json.loads(data[len(MAGIC):end])
        wanted = json.loads(json.dumps(source))  # as JSON gives it back (tuples are lists)
    except (TypeError, ValueError, RecursionError):
        return None
    payload = data[end + 1:]
    if not isinstance(header, dict):
        return None
    meta = header.get("meta")
    if (header.get("palmish") != __version__ or header.get("from") != wanted
            or header.get("size") != len(payload) or not isinstance(meta, dict)
            or header.get("crc32") != _crc(payload, meta)):
        return None
    return payload, meta


def _crc(payload: bytes, meta: dict[str, object]) -> int:
    """The CRC-32 of the payload and of what the caller gets back with it."""
    return zlib.crc32(payload, zlib.crc32(json.dumps(meta, sort_keys=True).encode("utf-8")))


def read(path: Path, source: object, limit: int) -> tuple[bytes, dict[str, object]] | None:
    """The payload and meta kept at `path` (a file of at most `limit` bytes), or None."""
    try:
        data = read_regular(path, limit)
    except FileProblem:
        return None
    return unseal(data, source)


def read_json(path: Path, source: object, limit: int) -> dict[str, object] | None:
    """The JSON object kept at `path` (parsed with storage.parse_json's bounds), or None."""
    found = read(path, source, limit)
    try:
        raw = parse_json(found[0], limit) if found is not None else None
    except ValueError:
        return None
    return raw if isinstance(raw, dict) else None


def write(path: Path, payload: bytes, source: object,
          meta: dict[str, object] | None = None) -> bool:
    """Keep `payload` sealed at `path`; False when the cache cannot be written."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        write_atomic(path, seal(payload, source, meta), durable=False)
    except OSError:
        return False
    return True


def sum_path(path: Path) -> Path:
    return path.with_name(path.name + SUM_SUFFIX)


def read_beside(path: Path, limit: int) -> bytes | None:
    """The plain file at `path` if its seal beside it vouches for every byte, else None."""
    try:
        data = read_regular(path, limit)
    except FileProblem:
        return None
    stamp = read(sum_path(path), [path.name, len(data), zlib.crc32(data)], OVERHEAD)
    return data if stamp is not None else None


def write_beside(path: Path, data: bytes, durable: bool = False) -> bool:
    """Write the plain file `path` and its seal; False when the cache cannot be written.

    The seal goes second: a crash between the two leaves a file whose seal does
    not match, which reads as missing."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        write_atomic(path, data, durable)
    except OSError:
        return False
    return write(sum_path(path), b"", [path.name, len(data), zlib.crc32(data)])

"""Swap single members of an encoded bitmap family, keeping every other byte.

An extracted bitmap is rebuilt from its original bytes: members whose
pictures were not edited stay exactly as they were (padding, reserved fields
and compressed data included), and an edited one is replaced by a new
encoding. Chain offsets are relative to each member's own start, so only the
replaced member's own link needs writing.
"""

from __future__ import annotations

from collections.abc import Mapping

from PIL import Image

from prc_tools import bitmap
from prc_tools.bitmap.encoding import MemberEncoding, chain, encode
from prc_tools.bitmap.header import read_header
from prc_tools.bitmap.lookup import look_up

MemberKey = tuple[int, int]  # (density, depth)


_ANY_ALPHA = bytes([0] + [255] * 255)  # a mask of the pixels with any alpha


def visible_pixels(image: Image.Image) -> bytes:
    """RGBA bytes with every fully transparent pixel zeroed (its colour is meaningless)."""
    rgba = image.convert("RGBA")
    alpha = rgba.getchannel("A")
    clear = Image.new("RGBA", rgba.size, (0, 0, 0, 0))
    return Image.composite(rgba, clear, look_up(alpha, _ANY_ALPHA)).tobytes()


def rebuild(
    original: bytes,
    main: Image.Image,
    pictures: Mapping[MemberKey, Image.Image],
    encodings: Mapping[MemberKey, MemberEncoding],
    dither: bool = False,
    decoded: list[bitmap.Member] | None = None,
) -> bytes:
    """The family `original` with only the members whose pictures changed re-encoded.

    A member's picture is ``pictures[(density, depth)]``, else ``main`` (scaled
    from the top density when the member is smaller). A changed member is
    encoded with ``encodings[key]``, else as the original member was stored.
    ``decoded``: ``bitmap.decode(original)`` when the caller has it already.
    """
    members = bitmap.decode(original) if decoded is None else decoded
    top = max(m.density for m in members)
    replacements: dict[int, bytes] = {}
    for index, member in enumerate(members):
        key = (member.density, member.depth)
        picture = pictures.get(key)
        if picture is None:
            picture = main if member.density == top else _scaled(main, member.density / top)
        if picture.size == member.image.size and _same_visible(picture, member.image):
            continue
        how = encodings.get(
            key, MemberEncoding(member.version, member.compression, member.has_colour_table)
        )
        args = (member.depth, member.density, how.compression, how.colour_table, dither)
        data = encode(picture, *args, how.version)
        if data[9] == 0 and read_header(original, member.offset).next_offset:
            data = encode(picture, *args, 1)  # version 0 has no field to chain a next member
        replacements[index] = data
    if not replacements:
        return original
    return splice(original, [m.offset for m in members], replacements)


def _same_visible(a: Image.Image, b: Image.Image) -> bool:
    # The same bytes in the same mode (an unedited extracted member) need no masking.
    if a.mode == b.mode and a.tobytes() == b.tobytes():
        return True
    return visible_pixels(a) == visible_pixels(b)


def _scaled(image: Image.Image, factor: float) -> Image.Image:
    size = (max(1, round(image.width * factor)), max(1, round(image.height * factor)))
    # Premultiplied alpha, so transparent pixels' hidden colours do not bleed in.
    return image.convert("RGBa").resize(size, Image.Resampling.LANCZOS).convert("RGBA")


def member_spans(data: bytes, starts: list[int]) -> list[tuple[int, int]]:
    """Each member's byte range: from its start to the next thing the family holds.

    ``starts`` are the members' offsets as ``bitmap.decode`` reports them; a
    member ends where the member (or dummy header) it points to begins, and
    the last one at the end of the data, so padding stays with its member.
    """
    boundaries = set(starts) | {len(data)}
    for start in starts:
        following = read_header(data, start).next_offset
        if following:
            boundaries.add(start + following)
    ordered = sorted(boundaries)
    return [(start, min(b for b in ordered if b > start)) for start in starts]


def splice(data: bytes, starts: list[int], replacements: Mapping[int, bytes]) -> bytes:
    """``data`` with member ``i`` (by position in ``starts``) replaced by ``replacements[i]``.

    A replacement is one unchained encoded member; it is linked to what
    follows when the member it replaces was.
    """
    spans = member_spans(data, starts)
    out = bytearray()
    position = 0
    for index, (start, end) in enumerate(spans):
        if index not in replacements:
            continue
        out += data[position:start]
        new = replacements[index]
        out += chain(new) if read_header(data, start).next_offset else new
        position = end
    out += data[position:]
    return bytes(out)

"""Bitmap resources ('Tbmp', 'tAIB') between a plugin folder and a database: a
manifest's bitmap entry built into a family, a family written back as one PNG
per member, and two families compared by their pixels. Their entry in the
resource-type table is prc_tools/plugin/resources.py.
"""

from __future__ import annotations

from pathlib import Path

from PIL import Image

from prc_tools import bitmap
from prc_tools.bitmap import splice
from prc_tools.bitmap.png import png_bytes
from prc_tools.errors import PluginError, PrcError
from prc_tools.plugin.resource_codes import BITMAP_TYPES, GAME_BITMAP_TYPE
from prc_tools.plugin.sources import MAX_SOURCE_PIXELS, read_source

# Not `from typing import TYPE_CHECKING`: typing costs a quick command 3 ms to load.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

    from prc_tools.database import Resource
    from prc_tools.plugin.folder import FolderFiles, FolderWriter
    from prc_tools.plugin.manifest import BitmapSpec, Manifest

STALE_AFTER_S = 2.0  # a member picture this much older than its main picture is stale
MemberKey = tuple[int, int]  # (density, depth)


def build(files: FolderFiles, manifest: Manifest, spec: BitmapSpec,
          warn: Callable[[str], None] | None = None) -> bytes:
    """The family a manifest's bitmap entry describes; PluginError naming the PNG."""
    path = files.folder / spec.file
    image = files.png(spec.file)
    if spec.size is not None and image.size != spec.size:
        image = image.resize(spec.size, Image.Resampling.LANCZOS)
    said = _check_size(manifest, spec, image, path)
    members = {key: files.png(name) for key, name in spec.members.items()}
    files.sizes[spec.id] = (str(path), image.size)
    if warn is not None:
        from prc_tools.plugin.hints import depth_hints

        said += [f"{path}: {hint}" for hint in depth_hints(image, spec.depths, spec.dither)]
        for message in [*said, *stale_members(files.folder, spec, image, members)]:
            warn(message)
    try:
        if spec.original is not None:
            original = files.read(spec.original)
            return splice.rebuild(original, image, members, spec.encodings, spec.dither,
                                  files.decoded(spec.original))
        return encode_bitmap(image, spec, members)
    except PrcError as exc:
        raise PluginError(f"{path}: {exc}") from None


def stale_members(folder: Path, spec: BitmapSpec, image: Image.Image,
                  members: dict[MemberKey, Image.Image]) -> list[str]:
    """Why low-density member pictures (the 160x160 screen's) may not show what the main
    picture now does: unchanged since `extract` although the main one was edited, or
    (in a folder without the original bytes) older than the main picture."""
    top = max(spec.densities)
    low = {key: name for key, name in spec.members.items() if key[0] < top}
    if not low:
        return []
    main = folder / spec.file
    stale: dict[str, str] = {}
    if spec.original is not None:
        try:
            original = {(m.density, m.depth): m for m in bitmap.decode(
                read_source(folder, spec.original))}
        except PrcError:
            return []
        first = max(original.values(), key=lambda m: (m.density, m.depth))
        if first.image.size == image.size and splice.visible_pixels(
                first.image) == splice.visible_pixels(image):
            return []  # the main picture is as extracted
        for key, name in low.items():
            was = original.get(key)
            if was is not None and splice.visible_pixels(
                    was.image) == splice.visible_pixels(members[key]):
                stale[name] = f"was not edited although {main} was"
    else:
        main_time = main.stat().st_mtime
        for name in low.values():
            if (folder / name).stat().st_mtime < main_time - STALE_AFTER_S:
                stale[name] = f"is older than {main}"
    return [f"{folder / name}: {why}: this low-density member (what a 160x160"
            " screen shows) keeps the old picture; edit it too, or drop it from the bitmap's"
            " members so that build derives it from the main picture"
            for name, why in stale.items()]


def encode_bitmap(
    image: Image.Image, spec: BitmapSpec, members: dict[MemberKey, Image.Image] | None = None
) -> bytes:
    """A bitmap family as `spec` asks, with optional exact pictures for single members."""
    return bitmap.encode_family(
        image,
        densities=spec.densities,
        depths=spec.depths,
        compression=spec.compression,
        dither=spec.dither,
        members=members,
        version=spec.version,
        encodings=spec.encodings,
    )


def _check_size(
    manifest: Manifest, spec: BitmapSpec, image: Image.Image, path: Path
) -> list[str]:
    """PluginError if the schema refuses the picture's size, else the warnings about it."""
    from prc_tools.schema.requirements import check_picture_size

    if manifest.schema is None or manifest.kind is None or spec.type != GAME_BITMAP_TYPE:
        return []
    info = manifest.info or {}
    cell = info.get("cell")
    return check_picture_size(manifest.schema, manifest.kind, spec.id,
                              tuple(cell) if isinstance(cell, list) else None, image.size, path,
                              tuple(info.get("configs", ())))


def folder_entry(res: Resource, stem: str, folder: FolderWriter) -> dict[str, Any] | None:
    """A bitmap as one PNG per member plus its original bytes, or None for raw.

    `build` keeps every member whose PNG still shows the same pixels
    exactly as it was, and re-encodes an edited one with the settings
    recorded here.
    """
    try:
        members = bitmap.decode(res.data, folder.budget)
    except PrcError:
        return None
    keys = [(m.density, m.depth) for m in members]
    if len(set(keys)) != len(keys) or any(
        0 in m.image.size or m.width * m.height > MAX_SOURCE_PIXELS for m in members
    ):
        return None  # two members a manifest cannot tell apart, or a picture build refuses
    top = max(members, key=lambda m: (m.density, m.depth))
    entry: dict[str, Any] = {"file": _write_png(folder, stem, top.image), "id": res.id}
    if res.type != BITMAP_TYPES[0]:
        entry["type"] = res.type
    entry["densities"] = sorted({m.density for m in members}, reverse=True)
    entry["depths"] = sorted({m.depth for m in members}, reverse=True)
    entry["original"] = folder.write("bitmaps", stem, ".bin", res.data)
    folder.members_of[entry["original"]] = members
    described: dict[str, Any] = {}
    for m in members:
        how: dict[str, Any] = {}
        if m is not top:
            how["file"] = _write_png(folder, f"{stem}@{m.density}x{m.depth}", m.image)
        how["version"] = m.version
        how["compression"] = m.compression
        if m.has_colour_table:
            how["colour_table"] = True
        described[f"{m.density}x{m.depth}"] = how
    entry["members"] = described
    return entry


def _write_png(folder: FolderWriter, stem: str, image: Image.Image) -> str:
    return folder.write("bitmaps", stem, ".png", png_bytes(image))


def same(x: bytes, y: bytes) -> bool:
    """Whether two families have the same members showing the same pixels."""
    mx, my = bitmap.decode(x), bitmap.decode(y)
    return len(mx) == len(my) and not differing_members(mx, my)


def differing_members(
    original: list[bitmap.Member], rebuilt: list[bitmap.Member]
) -> list[MemberKey]:
    """The members of `original` that `rebuilt` lacks or shows otherwise (fully
    transparent pixels compare equal whatever colour they hide)."""
    pixels = splice.visible_pixels
    by_key = {(m.density, m.depth): m for m in rebuilt}
    wrong = []
    for m in original:
        other = by_key.get((m.density, m.depth))
        if other is None or other.image.size != m.image.size or pixels(other.image) != pixels(
            m.image
        ):
            wrong.append((m.density, m.depth))
    return wrong

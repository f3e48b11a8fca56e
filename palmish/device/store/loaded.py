"""A plugin as the device draws from it: its resources, and its bitmaps decoded when
first drawn, then kept (in memory, and across runs in the pixel cache)."""

from __future__ import annotations

from PIL import Image

from palmish.device.store.info import MemberHeaders, PluginInfo, one_line
from palmish.device.store.pixel_cache import PixelCache
from prc_tools import Database, PrcError
from prc_tools.plugin.resource_codes import GAME_BITMAP_TYPE, SOUND_TYPE


class LoadedPlugin:
    """A plugin database whose bitmap members are decoded when first drawn, then kept.

    A member that turns out not to decode is drawn as missing (None), and the
    reason is kept in `problems`.
    """

    def __init__(
        self, info: PluginInfo, db: Database, members: dict[int, MemberHeaders] | None = None,
        pixels: PixelCache | None = None,
    ) -> None:
        self.info = info
        self.database = db
        self.pixels = pixels  # decoded pictures kept across runs, if any
        # 'Tbmp' id -> member headers; read when first needed for a plugin loaded
        # without the check (its unchanged file was checked on an earlier run).
        self._members = members if members is not None else {}
        self._bitmaps: dict[tuple[int, int], Image.Image | None] = {}
        self.problems: list[str] = []

    def bitmap_ids(self) -> list[int]:
        """The ids of the plugin's 'Tbmp' resources."""
        resources = self.database.resources
        return list(dict.fromkeys(r.id for r in resources if r.type == GAME_BITMAP_TYPE))

    def resource(self, type_: str, id_: int) -> bytes | None:
        res = self.database.resource(type_, id_)
        return None if res is None else res.data

    def sound(self, id_: int) -> bytes | None:
        """A 'wave' resource's RIFF bytes, or None when the plugin has none (silence)."""
        return self.resource(SOUND_TYPE, id_)

    def bitmap(self, id_: int, density: int = 144) -> Image.Image | None:
        """The 'Tbmp' `id_` as RGBA at `density` (72 or 144), deepest member first.

        A family without a member of that density is scaled from the nearest one
        (nearest-neighbour, as Palm OS does).
        """
        key = (id_, density)
        if key not in self._bitmaps:
            image = self.pixels.get(id_, density) if self.pixels is not None else None
            if image is None:
                image = self._decode(id_, density)
                if image is not None and self.pixels is not None:
                    self.pixels.put(id_, density, image)
            self._bitmaps[key] = image
        return self._bitmaps[key]

    def _decode(self, id_: int, density: int) -> Image.Image | None:
        from prc_tools import bitmap

        data = self.resource(GAME_BITMAP_TYPE, id_)
        if data is None:
            return None
        try:
            members = self._members.get(id_)
            if members is None:
                members = self._members[id_] = bitmap.headers(data)
            return decode_bitmap(data, members, density)
        except PrcError as exc:
            self.problems.append(f"Tbmp {id_}: {one_line(exc)}")
            return None


def decode_bitmap(data: bytes, members: MemberHeaders, density: int) -> Image.Image:
    """A 'Tbmp' family's picture as RGBA at `density`, deepest member of that density
    first, else scaled from the nearest one (nearest-neighbour, as Palm OS does)."""
    from prc_tools import bitmap

    exact = [m for m in members if m[1].density == density]
    if exact:
        pos, header = max(exact, key=lambda m: m[1].depth)
    else:
        pos, header = min(
            members, key=lambda m: (abs(m[1].density - density), -m[1].depth)
        )
    image = bitmap.decode_member(data, pos).image.convert("RGBA")
    if header.density == density:
        return image
    w = max(1, image.width * density // header.density)
    h = max(1, image.height * density // header.density)
    return image.resize((w, h), Image.Resampling.NEAREST)


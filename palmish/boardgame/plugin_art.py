"""What a game's art takes from a loaded Board or Pieces plugin, and small
helpers every game's art uses to read it (a bitmap fitted to a size, a colour
field, a text colour that reads on a picture)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Protocol

from PIL import Image

RGB = tuple[int, int, int]


class PluginInfoLike(Protocol):
    @property
    def fields(self) -> Mapping[str, object]: ...


class PluginLike(Protocol):
    """What art needs of a loaded plugin (palmish.device.plugins.LoadedPlugin)."""

    @property
    def info(self) -> PluginInfoLike: ...

    def bitmap(self, id_: int, density: int = 144) -> Image.Image | None: ...


def colour_value(value: object) -> RGB | None:
    """A pINF colour field ([r, g, b], each 0..255), None if it is not one."""
    if (isinstance(value, list) and len(value) == 3
            and all(isinstance(v, int) and not isinstance(v, bool) and 0 <= v <= 255
                    for v in value)):
        return (value[0], value[1], value[2])
    return None


def fit(img: Image.Image | None, size: tuple[int, int]) -> Image.Image | None:
    """The picture stretched to `size` (nearest neighbour) unless it has it already."""
    if img is None or img.size == size:
        return img
    return img.resize(size, Image.Resampling.NEAREST)


def readable_on(img: Image.Image) -> RGB:
    """Black or white, whichever reads better on the picture's average colour."""
    r, g, b = img.convert("RGB").resize((1, 1), Image.Resampling.BOX).getpixel((0, 0))  # type: ignore[misc]
    return (0, 0, 0) if 0.3 * r + 0.59 * g + 0.11 * b > 128 else (255, 255, 255)

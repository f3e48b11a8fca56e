"""What a game's art takes from a loaded Board or Pieces plugin, and small
helpers every game's art uses to read it (a bitmap fitted to a size, a colour
field, a text colour that reads on a picture)."""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterator, Mapping
from typing import Protocol, TypeVar

from PIL import Image

RGB = tuple[int, int, int]
K = TypeVar("K", bound=Hashable)


class PluginInfoLike(Protocol):
    @property
    def fields(self) -> Mapping[str, object]: ...


class PluginLike(Protocol):
    """What art needs of a loaded plugin (palmish.device.store.loaded.LoadedPlugin)."""

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


class LazyPictures(Mapping[K, Image.Image]):
    """Pictures made the first time they are asked for, then kept.

    `makers` gives, per key, how to make its picture (None: the plugin lacks
    it, and the key is then not in the mapping). Looking a key up, or asking
    whether it is there, makes that picture only; iterating makes them all.
    For art a first frame does not show (Ishido's lifted tiles, drawn only
    while a tile is dragged): a start then decodes none of it.
    """

    def __init__(self, makers: Mapping[K, Callable[[], Image.Image | None]]) -> None:
        self._makers = dict(makers)
        self._made: dict[K, Image.Image | None] = {}

    def _get(self, key: K) -> Image.Image | None:
        if key not in self._made:
            maker = self._makers.get(key)
            self._made[key] = maker() if maker is not None else None
        return self._made[key]

    def __getitem__(self, key: K) -> Image.Image:
        picture = self._get(key)
        if picture is None:
            raise KeyError(key)
        return picture

    def __contains__(self, key: object) -> bool:
        return key in self._makers and self._get(key) is not None

    def __iter__(self) -> Iterator[K]:
        return iter([k for k in self._makers if self._get(k) is not None])

    def __len__(self) -> int:
        return sum(1 for _ in self)

"""Device skins: the bezel picture, the LCD rectangle in it and the hard buttons.

A skin is `skins/devices/NAME.yaml` plus its images (docs/skin-format.md).
This module only reads and checks them; it needs Pillow but not pyglet, so the
geometry can be tested without a window. Given a cache folder, `load_skin`
keeps what it read there (skin_cache) and a later start checks the kept copy
instead of parsing YAML and decoding PNGs; a face's bezel, as the window
draws it, is then read only when the face is first shown.
"""

from __future__ import annotations

import io
import math
import warnings
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path

from PIL import Image, UnidentifiedImageError

from palmish.device.disk import resources
from palmish.device.display import CONFIGS, ConfigName, DisplayConfig
from palmish.device.events import Key
from palmish.device.geometry import Rect
from palmish.frontend import skin_cache
from palmish.frontend.skin_cache import RGB, Picture
from prc_tools import safeyaml
from prc_tools.files import FileProblem, inside, read_regular
from prc_tools.frozen import Frozen
from prc_tools.safeyaml import brief
from prc_tools.text import plain_message

# What a skin button can do besides pressing one of the device's keys.
ROTATE = "rotate"
INPUT_AREA = "input-area"
ACTIONS = frozenset([k.value for k in Key] + [ROTATE, INPUT_AREA])

SKIN_SUFFIX = ".yaml"
# Limits that keep a hostile skin cheap (docs/skin-format.md, "Limits").
MAX_SKIN_YAML_BYTES = 256 * 1024
MAX_IMAGE_FILE_BYTES = 32 * 1024 * 1024
MAX_IMAGE_SIDE = 4096
MAX_IMAGE_PIXELS = 16 * 1024 * 1024  # 64 MB as RGBA


class SkinError(Exception):
    """A skin that cannot be found or is malformed; the message says what and where."""


class Circle(Frozen):
    """A round button's shape, in skin pixels."""

    cx: int
    cy: int
    r: int

    def contains(self, x: float, y: float) -> bool:
        return math.hypot(x - self.cx, y - self.cy) <= self.r

    def bounds(self) -> Rect:
        return Rect(self.cx - self.r, self.cy - self.r, 2 * self.r, 2 * self.r)


class Button(Frozen):
    """A hard button on the skin: what it does and where it is."""

    action: str  # a Key value, ROTATE or INPUT_AREA
    shape: Rect | Circle
    label: str = ""

    def contains(self, x: float, y: float) -> bool:
        if isinstance(self.shape, Circle):
            return self.shape.contains(x, y)
        return self.shape.x <= x < self.shape.right and self.shape.y <= y < self.shape.bottom

    def bounds(self) -> Rect:
        return self.shape.bounds() if isinstance(self.shape, Circle) else self.shape


@dataclass(frozen=True)
class Face:
    """One orientation of a skin: bezel image (skin pixels), LCD rectangle, buttons.

    The image is read by `load` the first time it is asked for (a kept skin's
    other face may never be shown in a session); `kept_bezel`, when the skin
    was kept from an earlier run, gives the bezel as drawn without the image.
    """

    size: tuple[int, int]  # the image's
    lcd: Rect
    buttons: tuple[Button, ...]
    load: Callable[[], Image.Image] = field(compare=False, repr=False)
    kept_bezel: Callable[[RGB], bytes | None] | None = field(default=None, compare=False,
                                                             repr=False)

    @cached_property
    def image(self) -> Image.Image:
        """The bezel picture, RGBA; SkinError if it can no longer be read."""
        return self.load()

    def bezel(self, background: RGB) -> bytes:
        """The picture laid over `background` as RGB rows, bottom row first (as GL takes
        them, so the window needs no blending); made once per background."""
        made: dict[RGB, bytes] = self.__dict__.setdefault("_bezels", {})
        if background not in made:
            kept = self.kept_bezel(background) if self.kept_bezel is not None else None
            if kept is None or len(kept) != self.size[0] * self.size[1] * 3:
                kept = flat_bezel(self.image, background)
            made[background] = kept
        return made[background]

    def button_at(self, x: float, y: float) -> Button | None:
        """The first listed button under a skin point (earlier entries win overlaps)."""
        for button in self.buttons:
            if button.contains(x, y):
                return button
        return None


def flat_bezel(image: Image.Image, background: RGB) -> bytes:
    """`image` over `background`: RGB rows, bottom row first."""
    flat = Image.new("RGB", image.size, background)
    flat.paste(image, (0, 0), image if image.mode == "RGBA" else None)
    return flat.transpose(Image.Transpose.FLIP_TOP_BOTTOM).tobytes()


class Skin(Frozen):
    """A device skin: the configurations it offers and a face per orientation."""

    name: str
    title: str
    configs: tuple[ConfigName, ...]
    background: tuple[int, int, int]
    portrait: Face | None
    landscape: Face | None

    def offers(self, config: DisplayConfig) -> bool:
        return config.name in self.configs

    def face_for(self, config: DisplayConfig) -> Face:
        """The face to show for a configuration (the skin must offer it)."""
        face = self.landscape if config.landscape else self.portrait
        if face is None or not self.offers(config):
            offered = ", ".join(c.value for c in self.configs)
            raise SkinError(
                f"skin {self.name!r} does not offer the {config.name.value} configuration"
                f" (it offers {offered})"
            )
        return face


def skins_dir() -> Path:
    """Where the bundled device skins live (installed package data or the checkout)."""
    root = resources.skins_dir()
    if root is None:  # a broken install: say where they were expected
        return Path(__file__).resolve().parents[2] / "skins" / "devices"
    return root / "devices"


def available_skins(directory: Path | None = None) -> list[str]:
    folder = directory or skins_dir()
    return sorted(p.stem for p in folder.glob(f"*{SKIN_SUFFIX}"))


def default_skin_name(config: DisplayConfig) -> str:
    """The classic device for Square-low, the T3-style one for the rest."""
    return "classic" if config.name is ConfigName.SQUARE_LOW else "t3"


def find_skin(name: str, directory: Path | None = None) -> Path:
    """A skin name (`t3`) or a path to a skin's YAML file -> that YAML file."""
    if name.endswith(SKIN_SUFFIX) or "/" in name:
        path = Path(name)
        if not path.is_file():
            raise SkinError(f"{path}: no such skin file")
        return path
    folder = directory or skins_dir()
    if not folder.is_dir():
        raise SkinError(f"{folder}: no device skins there (missing folder)")
    path = folder / f"{name}{SKIN_SUFFIX}"
    if not path.is_file():
        known = ", ".join(available_skins(folder)) or "none"
        raise SkinError(f"unknown device skin {name!r} (available: {known})")
    return path


def load_skin(name: str, directory: Path | None = None, cache_dir: Path | None = None) -> Skin:
    """Find, read and check a skin; SkinError (one line) on any problem.

    With `cache_dir`, a copy kept there by an earlier call serves when the
    skin's files are unchanged (see palmish.frontend.skin_cache), and one is
    kept after reading the files.
    """
    path = find_skin(name, directory)
    if cache_dir is not None:
        kept = skin_cache.load(cache_dir, path)
        if kept is not None:
            document, pictures = kept
            return _SkinReader(path, pictures).skin(document)
    data = _read_yaml(path)
    skin = _SkinReader(path).skin(data)
    if cache_dir is not None:
        faces = {"portrait": skin.portrait, "landscape": skin.landscape}
        skin_cache.save(cache_dir, path, data, faces, skin.background)
    return skin


def _read_yaml(path: Path) -> object:
    try:
        return safeyaml.load(read_regular(path, MAX_SKIN_YAML_BYTES), MAX_SKIN_YAML_BYTES)
    except (FileProblem, safeyaml.YamlError) as exc:
        raise SkinError(f"{path}: cannot read skin: {exc}") from None


class _SkinReader:
    """Turns the parsed YAML into a Skin, naming the offending key on error.

    `pictures`: the kept pictures by file name (a cached skin); others are read
    from their PNG files.
    """

    def __init__(self, path: Path, pictures: Mapping[str, Picture] | None = None) -> None:
        self.path = path
        self.pictures = pictures or {}

    def fail(self, where: str, problem: str) -> SkinError:
        return SkinError(f"{self.path}: {where}: {problem}")

    def skin(self, data: object) -> Skin:
        if not isinstance(data, dict):
            raise SkinError(f"{self.path}: a skin must be a YAML mapping")
        unknown = set(data) - {"title", "configs", "background", "portrait", "landscape"}
        if unknown:
            raise self.fail(", ".join(sorted(map(str, unknown))), "unknown key")
        configs = self.configs(data.get("configs"))
        faces: dict[str, Face | None] = {}
        for orientation in ("portrait", "landscape"):
            raw = data.get(orientation)
            faces[orientation] = None if raw is None else self.face(orientation, raw)
        for config_name in configs:
            config = CONFIGS[config_name]
            orientation = "landscape" if config.landscape else "portrait"
            face = faces[orientation]
            if face is None:
                raise self.fail("configs", f"{config_name.value} needs a {orientation} face")
            self.check_lcd_scale(orientation, face.lcd, config)
        title = data.get("title", self.path.stem)
        if not isinstance(title, str):
            raise self.fail("title", "must be text")
        return Skin(
            name=self.path.stem,
            title=title,
            configs=configs,
            background=self.colour(data.get("background", "#303030")),
            portrait=faces["portrait"],
            landscape=faces["landscape"],
        )

    def configs(self, raw: object) -> tuple[ConfigName, ...]:
        if not isinstance(raw, list) or not raw:
            raise self.fail("configs", "must be a non-empty list")
        names: list[ConfigName] = []
        for item in raw:
            try:
                names.append(ConfigName(item))
            except ValueError:
                choices = ", ".join(c.value for c in ConfigName)
                raise self.fail(
                    "configs", f"unknown configuration {brief(item)} ({choices})"
                ) from None
        return tuple(names)

    def colour(self, raw: object) -> tuple[int, int, int]:
        if isinstance(raw, str) and len(raw) == 7 and raw.startswith("#"):
            try:
                return (int(raw[1:3], 16), int(raw[3:5], 16), int(raw[5:7], 16))
            except ValueError:
                pass
        raise self.fail(
            "background", f"expected a colour like '#30343a', got {brief(raw)}"
        )

    def face(self, where: str, raw: object) -> Face:
        if not isinstance(raw, dict):
            raise self.fail(where, "must be a mapping with image, lcd and buttons")
        size, load, kept_bezel = self.picture(f"{where}.image", raw.get("image"))
        bounds = Rect(0, 0, *size)
        lcd = self.rect(f"{where}.lcd", raw.get("lcd"))
        if lcd.intersect(bounds) != lcd:
            raise self.fail(f"{where}.lcd", f"{lcd.box()} lies outside the {size} image")
        buttons_raw = raw.get("buttons", [])
        if not isinstance(buttons_raw, list):
            raise self.fail(f"{where}.buttons", "must be a list")
        buttons = tuple(
            self.button(f"{where}.buttons[{i}]", item, bounds)
            for i, item in enumerate(buttons_raw)
        )
        return Face(size=size, lcd=lcd, buttons=buttons, load=load, kept_bezel=kept_bezel)

    def picture(self, where: str, raw: object) -> tuple[
            tuple[int, int], Callable[[], Image.Image], Callable[[RGB], bytes | None] | None]:
        """A face's picture: its size, how to get the image (read and checked now, or
        from the PNG when first asked for if the skin was kept) and the kept bezel."""
        kept = self.pictures.get(raw) if isinstance(raw, str) else None
        if kept is not None:
            size, kept_bezel = kept
            return size, lambda: self.image(where, raw), kept_bezel
        image = self.image(where, raw)
        return image.size, lambda: image, None

    def image(self, where: str, raw: object) -> Image.Image:
        if not isinstance(raw, str):
            raise self.fail(where, "must name a PNG file beside the YAML")
        file = self.path.parent / raw
        try:
            data = read_regular(inside(self.path.parent, raw), MAX_IMAGE_FILE_BYTES)
        except FileProblem as exc:
            raise self.fail(where, f"cannot load {file}: {exc}") from None
        try:
            with warnings.catch_warnings():
                # Our own limit below is far lower than Pillow's warning threshold.
                warnings.simplefilter("ignore", Image.DecompressionBombWarning)
                img = Image.open(io.BytesIO(data))
            with img:
                width, height = img.size  # from the header: checked before decoding
                if (max(width, height) > MAX_IMAGE_SIDE
                        or width * height > MAX_IMAGE_PIXELS):
                    raise self.fail(
                        where, f"{file}: {width}x{height} is too big for a skin (at most"
                        f" {MAX_IMAGE_SIDE} pixels a side, {MAX_IMAGE_PIXELS} in all)")
                rgba: Image.Image = img.convert("RGBA")
                return rgba
        except (OSError, ValueError, UnidentifiedImageError, Image.DecompressionBombError) as exc:
            problem = " ".join(plain_message(str(exc)).split())[:200]
            raise self.fail(where, f"cannot load {file}: {problem}") from None

    def numbers(self, where: str, raw: object, count: int) -> list[int]:
        if (
            not isinstance(raw, list)
            or len(raw) != count
            or not all(isinstance(v, int) and not isinstance(v, bool) for v in raw)
        ):
            raise self.fail(where, f"expected {count} integers, got {brief(raw)}")
        return list(raw)

    def rect(self, where: str, raw: object) -> Rect:
        x, y, w, h = self.numbers(where, raw, 4)
        if w <= 0 or h <= 0:
            raise self.fail(where, "width and height must be positive")
        return Rect(x, y, w, h)

    def button(self, where: str, raw: object, bounds: Rect) -> Button:
        if not isinstance(raw, dict):
            raise self.fail(where, "must be a mapping with action and rect or circle")
        action = raw.get("action")
        if action not in ACTIONS:
            raise self.fail(
                f"{where}.action", f"{brief(action)} is not one of {sorted(ACTIONS)}"
            )
        shape: Rect | Circle
        if ("rect" in raw) == ("circle" in raw):
            raise self.fail(where, "needs exactly one of rect or circle")
        if "rect" in raw:
            shape = self.rect(f"{where}.rect", raw["rect"])
        else:
            cx, cy, r = self.numbers(f"{where}.circle", raw["circle"], 3)
            if r <= 0:
                raise self.fail(f"{where}.circle", "radius must be positive")
            shape = Circle(cx, cy, r)
        button = Button(action=str(action), shape=shape, label=str(raw.get("label", "")))
        box = button.bounds()
        if box.intersect(bounds) != box:
            raise self.fail(where, f"{box.box()} lies outside the image")
        return button

    def check_lcd_scale(self, where: str, lcd: Rect, config: DisplayConfig) -> None:
        """The LCD rectangle must show each LCD pixel as a whole number of skin pixels."""
        sx, rx = divmod(lcd.w, config.width)
        sy, ry = divmod(lcd.h, config.height)
        if rx or ry or sx != sy or sx < 1:
            raise self.fail(
                f"{where}.lcd",
                f"{lcd.w}x{lcd.h} is not a whole multiple of the"
                f" {config.width}x{config.height} LCD of {config.name.value}",
            )

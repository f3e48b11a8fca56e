"""The framebuffer: a Pillow RGB image of the whole LCD at native resolution.

Every drawing call records the rectangle it touched (clipped to the screen);
`take_damage()` hands the merged list to whoever uploads the pixels and starts
a new list. Drawing uses Pillow's own operations on whole regions (paste with
masks, ImageDraw), never per-pixel Python loops.
"""

from __future__ import annotations

from collections.abc import Iterable

from PIL import Image, ImageChops, ImageDraw

from palmish.device.geometry import Rect
from palmish.device.graphics.font import Font, get_font

Colour = tuple[int, int, int]

BLACK: Colour = (0, 0, 0)
WHITE: Colour = (255, 255, 255)
GREY: Colour = (128, 128, 128)

DAMAGE_GAP = 8  # rects closer than this (native px) are merged into one
DAMAGE_CAP = 16  # never report more than this many rects
_DAMAGE_COMPACT_AT = 256  # merge early if nobody takes the damage for a while


def _near(a: Rect, b: Rect, gap: int) -> bool:
    return (
        a.x - gap <= b.right and b.x - gap <= a.right and a.y - gap <= b.bottom
        and b.y - gap <= a.bottom
    )


def _merge_near(rects: Iterable[Rect], gap: int) -> list[Rect]:
    """Union rects that overlap or lie within `gap` of each other; no two results are near."""
    merged: list[Rect] = []
    for rect in rects:
        # Absorb every neighbour into the new rect, repeating since a grown rect
        # can reach rects it did not touch before.
        while True:
            hit = next((i for i, m in enumerate(merged) if _near(m, rect, gap)), None)
            if hit is None:
                break
            rect = rect.union(merged.pop(hit))
        merged.append(rect)
    return merged


def _bands(rects: list[Rect], count: int) -> list[Rect]:
    """Join rects, in reading order, into `count` groups: a cheap first cut."""
    ordered = sorted(rects, key=lambda r: (r.y, r.x))
    size = -(-len(ordered) // count)
    groups = [ordered[i : i + size] for i in range(0, len(ordered), size)]
    out = []
    for group in groups:
        union = group[0]
        for rect in group[1:]:
            union = union.union(rect)
        out.append(union)
    return out


def _cheapest_pair(rects: list[Rect]) -> tuple[int, int]:
    """The two rects whose union adds the least area not already covered by them."""
    best, best_pair = -1, (0, 1)
    boxes = [(r.x, r.y, r.right, r.bottom, r.w * r.h) for r in rects]
    for i, (ax0, ay0, ax1, ay1, a_area) in enumerate(boxes):
        for j in range(i + 1, len(boxes)):
            bx0, by0, bx1, by1, b_area = boxes[j]
            union = (max(ax1, bx1) - min(ax0, bx0)) * (max(ay1, by1) - min(ay0, by0))
            waste = union - a_area - b_area
            if best < 0 or waste < best:
                best, best_pair = waste, (i, j)
    return best_pair


def merge_rects(rects: Iterable[Rect], gap: int = DAMAGE_GAP, cap: int = DAMAGE_CAP) -> list[Rect]:
    """Union rects that overlap or lie within `gap` of each other, then, while
    there are more than `cap`, join the pair whose union wastes the least area
    (after a cheap cut into bands when there are many more)."""
    merged = _merge_near(rects, gap)
    if len(merged) > 2 * cap:
        merged = _merge_near(_bands(merged, 2 * cap), gap)
    while len(merged) > cap:
        i, j = _cheapest_pair(merged)
        union = merged[i].union(merged[j])
        del merged[j], merged[i]
        merged = _merge_near([*merged, union], gap)
    return merged


class Framebuffer:
    """The whole LCD. Coordinates are native pixels, origin top-left."""

    def __init__(self, width: int, height: int, density: int = 72) -> None:
        if width <= 0 or height <= 0:
            raise ValueError(f"framebuffer size must be positive, not {width}x{height}")
        if density not in (72, 144):
            raise ValueError(f"density must be 72 or 144, not {density}")
        self.width = width
        self.height = height
        self.density = density
        self.image = Image.new("RGB", (width, height), WHITE)
        self._draw = ImageDraw.Draw(self.image)
        self._bounds = Rect(0, 0, width, height)
        self._damage: list[Rect] = [self._bounds]  # a new screen must be shown whole
        # Whether the damage is the whole screen already (a new screen, a full
        # repaint): then nothing more is recorded until it is taken, so a turn's
        # repaint does not merge hundreds of rects into the one it has.
        self._all_damaged = True

    # -- geometry ---------------------------------------------------------------

    @property
    def bounds(self) -> Rect:
        return self._bounds

    @property
    def scale(self) -> int:
        """Native pixels per standard coordinate: 1 at density 72, 2 at 144."""
        return self.density // 72

    # -- damage -----------------------------------------------------------------

    def damage(self, rect: Rect) -> Rect | None:
        """Record a changed region; returns it clipped to the screen (None if off-screen)."""
        clipped = rect.intersect(self._bounds)
        if clipped is not None:
            self._record(clipped)
        return clipped

    def _record(self, clipped: Rect) -> None:
        """Keep a changed region already inside the screen."""
        if self._all_damaged:
            return
        if clipped == self._bounds:
            self._damage = [clipped]
            self._all_damaged = True
            return
        self._damage.append(clipped)
        if len(self._damage) >= _DAMAGE_COMPACT_AT:
            self._damage = merge_rects(self._damage)

    def take_damage(self) -> list[Rect]:
        """The merged changed regions since the last call, and start afresh."""
        damage, self._damage = merge_rects(self._damage), []
        self._all_damaged = False
        return damage

    # -- shapes -----------------------------------------------------------------

    def clear(self, colour: Colour = WHITE) -> None:
        self.fill(self.bounds, colour)

    def fill(self, rect: Rect, colour: Colour) -> None:
        clipped = self.damage(rect)
        if clipped is not None:
            self.image.paste(colour, clipped.box())

    def rectangle(self, rect: Rect, outline: Colour, width: int = 1,
                  clip: Rect | None = None) -> None:
        """A frame drawn inside `rect`, `width` pixels thick; only its part inside
        `clip` when given (a view repainting one damaged area)."""
        if rect.w <= 0 or rect.h <= 0:
            return
        width = min(width, (rect.w + 1) // 2, (rect.h + 1) // 2)
        for side in (Rect(rect.x, rect.y, rect.w, width),
                     Rect(rect.x, rect.bottom - width, rect.w, width),
                     Rect(rect.x, rect.y, width, rect.h),
                     Rect(rect.right - width, rect.y, width, rect.h)):
            part = side if clip is None else side.intersect(clip)
            if part is not None:
                self.fill(part, outline)

    def round_rect(
        self,
        rect: Rect,
        radius: int,
        outline: Colour | None = None,
        fill: Colour | None = None,
        width: int = 1,
    ) -> None:
        """A rectangle with rounded corners (Palm's button shape), drawn inside `rect`."""
        if rect.w <= 0 or rect.h <= 0 or self.damage(rect) is None:
            return
        radius = max(0, min(radius, rect.w // 2, rect.h // 2))
        box = (rect.x, rect.y, rect.right - 1, rect.bottom - 1)
        self._draw.rounded_rectangle(box, radius, fill=fill, outline=outline, width=width)

    def line(self, x0: int, y0: int, x1: int, y1: int, colour: Colour, width: int = 1) -> None:
        """A line through both end points (inclusive), `width` pixels thick."""
        if x0 == x1 or y0 == y1:
            # Axis-aligned: a filled box gives exact, symmetric thickness.
            off = width // 2
            self.fill(
                Rect(
                    min(x0, x1) - (off if x0 == x1 else 0),
                    min(y0, y1) - (off if y0 == y1 else 0),
                    (abs(x1 - x0) + 1) if x0 != x1 else width,
                    (abs(y1 - y0) + 1) if y0 != y1 else width,
                ),
                colour,
            )
            return
        pad = width // 2 + 1
        left, top = min(x0, x1) - pad, min(y0, y1) - pad
        self.damage(Rect(left, top, abs(x1 - x0) + 2 * pad + 1, abs(y1 - y0) + 2 * pad + 1))
        self._draw.line((x0, y0, x1, y1), fill=colour, width=width)

    def polygon(self, points: list[tuple[int, int]], fill: Colour) -> None:
        """A filled polygon (arrows, triangles)."""
        xs = [p[0] for p in points]
        ys = [p[1] for p in points]
        self.damage(Rect(min(xs), min(ys), max(xs) - min(xs) + 1, max(ys) - min(ys) + 1))
        self._draw.polygon(points, fill=fill)

    def invert(self, rect: Rect) -> None:
        """Swap ink and paper inside `rect` (Palm's highlight for a pressed control)."""
        clipped = self.damage(rect)
        if clipped is not None:
            region = self.image.crop(clipped.box())
            self.image.paste(ImageChops.invert(region), clipped.box())

    # -- images -----------------------------------------------------------------

    def blit(self, img: Image.Image, x: int, y: int, clip: Rect | None = None) -> None:
        """Draw `img` with its top-left at (x, y). RGBA/LA/PA images are composited by
        alpha (Palm's transparent colour arrives as alpha 0); others are copied."""
        part = self._visible_part(img, x, y, clip)
        if part is None:
            return
        visible, source = part
        at = (visible.x, visible.y)
        if source.mode == "RGBA":
            # Pillow pastes RGBA onto RGB as is, its own alpha the mask: no copies.
            self.image.paste(source, at, source)
        elif source.mode in ("LA", "PA") or (
            source.mode == "P" and "transparency" in source.info
        ):
            rgba = source.convert("RGBA")
            self.image.paste(rgba, at, rgba)
        else:
            self.image.paste(source if source.mode == "RGB" else source.convert("RGB"), at)

    def snapshot(self, rect: Rect) -> Image.Image:
        """A copy of the pixels under `rect` (clipped to the screen): save-behind."""
        clipped = rect.intersect(self.bounds) or Rect(0, 0, 0, 0)
        return self.image.crop(clipped.box())

    def restore(self, img: Image.Image, x: int, y: int) -> None:
        """Put back pixels taken with `snapshot` (their top-left at (x, y))."""
        self.blit(img, x, y)

    # -- text -------------------------------------------------------------------

    def font(self, face: str = "std") -> Font:
        """A face ('std', 'bold', 'large') at this screen's density."""
        return get_font(face, self.scale)

    def _resolve(self, font: Font | str) -> Font:
        return self.font(font) if isinstance(font, str) else font

    def text_width(self, s: str, font: Font | str = "std") -> int:
        return self._resolve(font).width(s)

    def line_height(self, font: Font | str = "std") -> int:
        return self._resolve(font).height

    def text(
        self,
        x: int,
        y: int,
        s: str,
        colour: Colour = BLACK,
        font: Font | str = "std",
        clip: Rect | None = None,
    ) -> int:
        """Draw one line with the top of its line box at y; returns the width drawn.

        Only ink is drawn (the background shows through between strokes).
        """
        face = self._resolve(font)
        if not s:
            return 0
        mask = face.render(s)
        self._paste_mask(mask, x, y, colour, clip)
        return mask.width

    def text_vertical(
        self,
        x: int,
        y: int,
        s: str,
        colour: Colour = BLACK,
        font: Font | str = "std",
        clip: Rect | None = None,
    ) -> int:
        """Draw `s` reading bottom-to-top (turned a quarter left). The text occupies
        Rect(x, y, line_height, width): its first character is at the bottom,
        glyph tops face left. Returns the width (the height of that box)."""
        face = self._resolve(font)
        if not s:
            return 0
        mask = face.render(s).transpose(Image.Transpose.ROTATE_90)
        self._paste_mask(mask, x, y, colour, clip)
        return mask.height

    def _paste_mask(
        self, mask: Image.Image, x: int, y: int, colour: Colour, clip: Rect | None
    ) -> None:
        part = self._visible_part(mask, x, y, clip)
        if part is not None:
            visible, shown = part
            self.image.paste(colour, visible.box(), shown)

    def _visible_part(
        self, img: Image.Image, x: int, y: int, clip: Rect | None
    ) -> tuple[Rect, Image.Image] | None:
        """Where `img` placed at (x, y) shows (inside `clip` and the screen), recorded as
        damage, with the matching crop of `img`; None when nothing shows."""
        # In plain numbers, not Rects: a repaint blits hundreds of pictures.
        width, height = img.size
        left, top, right, bottom = max(x, 0), max(y, 0), x + width, y + height
        right, bottom = min(right, self.width), min(bottom, self.height)
        if clip is not None:
            left, top = max(left, clip.x), max(top, clip.y)
            right, bottom = min(right, clip.x + clip.w), min(bottom, clip.y + clip.h)
        if right <= left or bottom <= top:
            return None
        visible = Rect(left, top, right - left, bottom - top)
        self._record(visible)
        if (left, top, right, bottom) != (x, y, x + width, y + height):
            img = img.crop((left - x, top - y, right - x, bottom - y))
        return visible, img

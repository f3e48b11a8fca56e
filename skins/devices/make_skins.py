"""Draw the bundled device skins (bezel PNGs) with Pillow.

Run `python skins/devices/make_skins.py` to regenerate t3-portrait.png,
t3-landscape.png and classic.png next to this script. The YAML files beside
them hold the matching geometry (LCD rectangle, buttons); the constants here
and there must agree (tests/frontend/test_skin.py checks that every listed
button sits on a drawn control).

Everything is drawn at SS times the final size and scaled down, which gives
smooth, anti-aliased curves without an anti-aliasing drawing library.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from PIL import Image, ImageChops, ImageDraw, ImageFilter, ImageFont

HERE = Path(__file__).resolve().parent
SS = 4  # supersampling factor

RGB = tuple[int, int, int]
Box = tuple[float, float, float, float]
Icon = Callable[[ImageDraw.ImageDraw, float, float, float, RGB], None]


def s(v: float) -> int:
    """A final-size coordinate at supersampled resolution."""
    return round(v * SS)


def sbox(box: Box) -> tuple[int, int, int, int]:
    return (s(box[0]), s(box[1]), s(box[2]), s(box[3]))


def font(size: float) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    return ImageFont.load_default(size=s(size))


def vertical_gradient(size: tuple[int, int], top: RGB, bottom: RGB) -> Image.Image:
    """An RGB image fading from `top` to `bottom`."""
    column = Image.new("RGB", (1, 256))
    for y in range(256):
        t = y / 255
        shade = tuple(round(a + (b - a) * t) for a, b in zip(top, bottom, strict=True))
        column.putpixel((0, y), shade)
    return column.resize(size, Image.Resampling.BILINEAR)


def rounded_mask(size: tuple[int, int], box: Box, radius: float) -> Image.Image:
    mask = Image.new("L", size, 0)
    ImageDraw.Draw(mask).rounded_rectangle(sbox(box), radius=s(radius), fill=255)
    return mask


def paint(canvas: Image.Image, mask: Image.Image, top: RGB, bottom: RGB) -> None:
    """Fill the masked area with a vertical gradient."""
    canvas.paste(vertical_gradient(canvas.size, top, bottom), (0, 0), mask)


def bevel(canvas: Image.Image, mask: Image.Image, depth: float, light: int, dark: int) -> None:
    """A soft raised edge: light along the top-left of the mask, shadow along the bottom-right."""
    d = s(depth)
    blurred = mask.filter(ImageFilter.GaussianBlur(d))
    # Where the mask shifted down-right has no coverage, the top-left edge is.
    lit = ImageChops.subtract(mask, ImageChops.offset(blurred, d, d))
    shade = ImageChops.subtract(mask, ImageChops.offset(blurred, -d, -d))
    canvas.paste(Image.new("RGB", canvas.size, (light,) * 3), (0, 0), lit.point(lambda v: v // 2))
    canvas.paste(Image.new("RGB", canvas.size, (dark,) * 3), (0, 0), shade.point(lambda v: v // 2))


def recess(canvas: Image.Image, box: Box, radius: float, top: RGB, bottom: RGB) -> None:
    """A sunken panel: gradient fill with an inner shadow at the top-left."""
    mask = rounded_mask(canvas.size, box, radius)
    paint(canvas, mask, top, bottom)
    bevel(canvas, mask, 1.5, 20, 235)


def text(
    draw: ImageDraw.ImageDraw, cx: float, cy: float, label: str, size: float, colour: RGB
) -> None:
    draw.text((s(cx), s(cy)), label, fill=colour, font=font(size), anchor="mm")


def rotated_text(
    canvas: Image.Image, cx: float, cy: float, label: str, size: float, colour: RGB
) -> None:
    """Text reading bottom-to-top, centred on (cx, cy)."""
    f = font(size)
    left, top, right, bottom = f.getbbox(label)
    stamp = Image.new("L", (right - left + 8, bottom - top + 8), 0)
    ImageDraw.Draw(stamp).text((4 - left, 4 - top), label, fill=255, font=f)
    stamp = stamp.rotate(90, expand=True)
    at = (s(cx) - stamp.width // 2, s(cy) - stamp.height // 2)
    canvas.paste(Image.new("RGB", stamp.size, colour), at, stamp)


def round_button(canvas: Image.Image, cx: float, cy: float, r: float, icon: Icon | None) -> None:
    """A domed plastic button with a printed icon."""
    draw = ImageDraw.Draw(canvas)
    draw.ellipse(sbox((cx - r - 2, cy - r - 1, cx + r + 2, cy + r + 3)), fill=(38, 40, 46))
    mask = Image.new("L", canvas.size, 0)
    ImageDraw.Draw(mask).ellipse(sbox((cx - r, cy - r, cx + r, cy + r)), fill=255)
    paint(canvas, mask, (92, 98, 110), (44, 47, 54))
    bevel(canvas, mask, 2, 200, 20)
    if icon is not None:
        icon(draw, cx, cy, r * 0.5, (222, 226, 232))


# --- printed icons (drawn centred on cx, cy within radius r) ---------------


def icon_calendar(draw: ImageDraw.ImageDraw, cx: float, cy: float, r: float, c: RGB) -> None:
    draw.rectangle(sbox((cx - r, cy - r * 0.8, cx + r, cy + r * 0.9)), outline=c, width=s(1.5))
    draw.rectangle(sbox((cx - r, cy - r * 0.8, cx + r, cy - r * 0.35)), fill=c)
    for i in range(3):
        for j in range(2):
            x = cx - r * 0.55 + i * r * 0.55
            y = cy + j * r * 0.5
            draw.rectangle(sbox((x - 1, y - 1, x + 1, y + 1)), fill=c)


def icon_person(draw: ImageDraw.ImageDraw, cx: float, cy: float, r: float, c: RGB) -> None:
    draw.ellipse(sbox((cx - r * 0.4, cy - r, cx + r * 0.4, cy - r * 0.2)), fill=c)
    draw.pieslice(sbox((cx - r * 0.9, cy - r * 0.05, cx + r * 0.9, cy + r * 1.6)), 180, 360, fill=c)


def icon_check(draw: ImageDraw.ImageDraw, cx: float, cy: float, r: float, c: RGB) -> None:
    draw.rectangle(sbox((cx - r, cy - r, cx + r, cy + r)), outline=c, width=s(1.5))
    points = [(cx - r * 0.55, cy), (cx - r * 0.1, cy + r * 0.5), (cx + r * 0.65, cy - r * 0.55)]
    draw.line([(s(x), s(y)) for x, y in points], fill=c, width=s(2), joint="curve")


def icon_note(draw: ImageDraw.ImageDraw, cx: float, cy: float, r: float, c: RGB) -> None:
    draw.rectangle(sbox((cx - r * 0.8, cy - r, cx + r * 0.8, cy + r)), outline=c, width=s(1.5))
    for k in range(3):
        y = cy - r * 0.45 + k * r * 0.45
        draw.line(sbox((cx - r * 0.45, y, cx + r * 0.45, y)), fill=c, width=s(1.2))


def icon_house(draw: ImageDraw.ImageDraw, cx: float, cy: float, r: float, c: RGB) -> None:
    roof = [(cx - r, cy - r * 0.05), (cx, cy - r), (cx + r, cy - r * 0.05)]
    draw.line([(s(x), s(y)) for x, y in roof], fill=c, width=s(1.6), joint="curve")
    draw.rectangle(sbox((cx - r * 0.65, cy - r * 0.2, cx + r * 0.65, cy + r)), outline=c,
                   width=s(1.6))
    draw.rectangle(sbox((cx - r * 0.2, cy + r * 0.3, cx + r * 0.2, cy + r)), fill=c)


def icon_menu(draw: ImageDraw.ImageDraw, cx: float, cy: float, r: float, c: RGB) -> None:
    draw.rectangle(sbox((cx - r, cy - r, cx + r, cy + r)), outline=c, width=s(1.5))
    draw.rectangle(sbox((cx - r, cy - r, cx + r, cy - r * 0.5)), fill=c)
    for k in range(3):
        y = cy - r * 0.05 + k * r * 0.38
        draw.line(sbox((cx - r * 0.6, y, cx + r * 0.3, y)), fill=c, width=s(1.2))


def icon_calc(draw: ImageDraw.ImageDraw, cx: float, cy: float, r: float, c: RGB) -> None:
    draw.rectangle(sbox((cx - r * 0.8, cy - r, cx + r * 0.8, cy + r)), outline=c, width=s(1.5))
    draw.rectangle(sbox((cx - r * 0.5, cy - r * 0.7, cx + r * 0.5, cy - r * 0.3)), outline=c,
                   width=s(1))
    for i in range(3):
        for j in range(2):
            x = cx - r * 0.45 + i * r * 0.45
            y = cy + r * 0.1 + j * r * 0.45
            draw.rectangle(sbox((x - 1, y - 1, x + 1, y + 1)), fill=c)


def icon_find(draw: ImageDraw.ImageDraw, cx: float, cy: float, r: float, c: RGB) -> None:
    draw.ellipse(sbox((cx - r, cy - r, cx + r * 0.3, cy + r * 0.3)), outline=c, width=s(1.6))
    draw.line(sbox((cx + r * 0.15, cy + r * 0.15, cx + r, cy + r)), fill=c, width=s(2.4))


def arrow(draw: ImageDraw.ImageDraw, cx: float, cy: float, size: float, way: str, c: RGB) -> None:
    """A small filled triangle pointing up, down, left or right."""
    h = size
    shapes = {
        "up": [(cx - h, cy + h * 0.5), (cx + h, cy + h * 0.5), (cx, cy - h * 0.6)],
        "down": [(cx - h, cy - h * 0.5), (cx + h, cy - h * 0.5), (cx, cy + h * 0.6)],
        "left": [(cx + h * 0.5, cy - h), (cx + h * 0.5, cy + h), (cx - h * 0.6, cy)],
        "right": [(cx - h * 0.5, cy - h), (cx - h * 0.5, cy + h), (cx + h * 0.6, cy)],
    }
    draw.polygon([(s(x), s(y)) for x, y in shapes[way]], fill=c)


APP_ICONS: tuple[Icon, ...] = (icon_calendar, icon_person, icon_check, icon_note)


# --- the T3-style device ----------------------------------------------------

T3_BODY = (52, 56, 64)  # dark graphite top
T3_BODY_LOW = (28, 30, 36)
T3_RADIUS = 46
T3_W, T3_LONG = 392, 700  # short and long side of the body
T3_MARGIN = 36  # body edge to LCD along the short side
T3_TOP = 66  # body edge to LCD on the speaker end
T3_CONTROLS = 628  # centre line of the buttons, from the speaker end
T3_NAV_R = 34
T3_SELECT_R = 14
T3_APP_R = 21
T3_APP_OFFSETS = (-138, -80, 80, 138)  # app button centres relative to the navigator


def navigator(canvas: Image.Image, cx: float, cy: float) -> None:
    """The 5-way navigator: a ring rocker with a centre select button."""
    draw = ImageDraw.Draw(canvas)
    r = T3_NAV_R
    draw.ellipse(sbox((cx - r - 3, cy - r - 2, cx + r + 3, cy + r + 4)), fill=(24, 25, 30))
    ring = Image.new("L", canvas.size, 0)
    ImageDraw.Draw(ring).ellipse(sbox((cx - r, cy - r, cx + r, cy + r)), fill=255)
    paint(canvas, ring, (150, 156, 168), (86, 90, 100))
    bevel(canvas, ring, 2, 230, 30)
    grey = (40, 42, 48)
    for way, dx, dy in (("up", 0, -1), ("down", 0, 1), ("left", -1, 0), ("right", 1, 0)):
        arrow(draw, cx + dx * (r - 9), cy + dy * (r - 9), 4.5, way, grey)
    k = T3_SELECT_R
    draw.ellipse(sbox((cx - k - 2, cy - k - 2, cx + k + 2, cy + k + 2)), fill=(60, 63, 72))
    dome = Image.new("L", canvas.size, 0)
    ImageDraw.Draw(dome).ellipse(sbox((cx - k, cy - k, cx + k, cy + k)), fill=255)
    paint(canvas, dome, (196, 200, 210), (120, 124, 134))
    bevel(canvas, dome, 1.5, 250, 40)


def lcd_well(canvas: Image.Image, lcd: Box, border: float) -> None:
    """The black glass around the LCD, then the LCD itself (drawn over by the frontend)."""
    x0, y0, x1, y1 = lcd
    recess(canvas, (x0 - border, y0 - border, x1 + border, y1 + border), 10,
           (16, 17, 20), (8, 8, 10))
    ImageDraw.Draw(canvas).rectangle(sbox(lcd), fill=(206, 214, 200))


def t3_body(size: tuple[int, int]) -> tuple[Image.Image, Image.Image]:
    canvas = Image.new("RGB", (s(size[0]), s(size[1])), (0, 0, 0))
    mask = rounded_mask(canvas.size, (0, 0, size[0], size[1]), T3_RADIUS)
    paint(canvas, mask, T3_BODY, T3_BODY_LOW)
    # A brushed-metal face plate, inset from the rim.
    face = rounded_mask(canvas.size, (5, 5, size[0] - 5, size[1] - 5), T3_RADIUS - 5)
    paint(canvas, face, (176, 181, 190), (118, 122, 132))
    bevel(canvas, face, 3, 245, 40)
    return canvas, mask


def finish(canvas: Image.Image, mask: Image.Image, path: Path) -> None:
    """Scale down, cut out the rounded body and save as RGBA."""
    size = (canvas.width // SS, canvas.height // SS)
    out = canvas.resize(size, Image.Resampling.LANCZOS).convert("RGBA")
    out.putalpha(mask.resize(size, Image.Resampling.LANCZOS))
    out.save(path, optimize=True)
    print(f"wrote {path.relative_to(HERE.parent.parent)} {size[0]}x{size[1]}")


def draw_t3_portrait(path: Path) -> None:
    canvas, mask = t3_body((T3_W, T3_LONG))
    draw = ImageDraw.Draw(canvas)
    lcd = (T3_MARGIN, T3_TOP, T3_MARGIN + 320, T3_TOP + 480)
    lcd_well(canvas, lcd, 9)
    # Earpiece slot and brand on the speaker end.
    recess(canvas, (T3_W / 2 - 30, 16, T3_W / 2 + 30, 21), 2, (40, 42, 48), (60, 63, 70))
    text(draw, T3_W / 2, 40, "palmish", 15, (40, 44, 52))
    text(draw, T3_W - 52, 40, "PX-3", 9, (70, 74, 82))
    cx, cy = T3_W / 2, T3_CONTROLS
    navigator(canvas, cx, cy)
    for dx, icon in zip(T3_APP_OFFSETS, APP_ICONS, strict=True):
        round_button(canvas, cx + dx, cy, T3_APP_R, icon)
    finish(canvas, mask, path)


def draw_t3_landscape(path: Path) -> None:
    canvas, mask = t3_body((T3_LONG, T3_W))
    # Rotated a quarter turn anticlockwise: the speaker end is on the left,
    # the buttons on the right (where the status bar is in landscape).
    lcd = (T3_TOP, T3_MARGIN, T3_TOP + 480, T3_MARGIN + 320)
    lcd_well(canvas, lcd, 9)
    recess(canvas, (16, T3_W / 2 - 30, 21, T3_W / 2 + 30), 2, (40, 42, 48), (60, 63, 70))
    rotated_text(canvas, 40, T3_W / 2, "palmish", 15, (40, 44, 52))
    rotated_text(canvas, 40, 52, "PX-3", 9, (70, 74, 82))
    cx, cy = T3_CONTROLS, T3_W / 2
    navigator(canvas, cx, cy)
    # Rotating anticlockwise puts the leftmost portrait button at the bottom.
    for dy, icon in zip(T3_APP_OFFSETS, APP_ICONS, strict=True):
        round_button(canvas, cx, cy - dy, T3_APP_R, icon)
    finish(canvas, mask, path)


# --- the classic 160x160 device ------------------------------------------------

CL_W, CL_H = 400, 690
CL_RADIUS = 38
CL_LCD = (40, 62, 360, 382)  # 160x160 shown at 2 skin pixels per LCD pixel
CL_SILK = (40, 392, 360, 512)  # the printed silkscreen area under the LCD
CL_BUTTONS_Y = 594
CL_APP_X = (64, 130, 270, 336)
CL_APP_R = 22
CL_ROCKER = (182, 560, 218, 628)  # up/down scroll rocker, split at its middle
SILK_INK = (44, 60, 52)
SILK_GLASS = (178, 192, 172)


def silk_icon(canvas: Image.Image, box: Box, icon: Icon, label: str) -> None:
    """A printed silkscreen button: an icon with its label, no raised edge."""
    draw = ImageDraw.Draw(canvas)
    x0, y0, x1, y1 = box
    cx = (x0 + x1) / 2
    icon(draw, cx, y0 + (y1 - y0) * 0.4, 9, SILK_INK)
    text(draw, cx, y1 - 8, label, 8, SILK_INK)


def graffiti_area(canvas: Image.Image, box: Box) -> None:
    draw = ImageDraw.Draw(canvas)
    x0, y0, x1, y1 = box
    draw.rounded_rectangle(sbox(box), radius=s(6), outline=SILK_INK, width=s(1.5))
    split = x0 + (x1 - x0) * 0.6
    draw.line(sbox((split, y0 + 8, split, y1 - 8)), fill=SILK_INK, width=s(1.5))
    for k in range(1, 4):  # the little tick marks along the bottom, as printed on the glass
        for lo, hi in ((x0, split), (split, x1)):
            x = lo + (hi - lo) * k / 4
            draw.line(sbox((x, y1 - 5, x, y1 - 2)), fill=SILK_INK, width=s(1))
    text(draw, x0 + 14, y1 - 12, "abc", 8, SILK_INK)
    text(draw, x1 - 12, y1 - 12, "123", 8, SILK_INK)


def draw_classic(path: Path) -> None:
    canvas = Image.new("RGB", (s(CL_W), s(CL_H)), (0, 0, 0))
    mask = rounded_mask(canvas.size, (0, 0, CL_W, CL_H), CL_RADIUS)
    paint(canvas, mask, (86, 96, 92), (46, 52, 50))
    bevel(canvas, mask, 4, 200, 10)
    draw = ImageDraw.Draw(canvas)
    text(draw, CL_W / 2, 30, "palmish", 16, (206, 214, 208))
    text(draw, CL_W - 58, 31, "classic", 8, (170, 180, 174))
    # One pane of glass over LCD and silkscreen, as on the early devices.
    x0, y0, x1, _ = CL_LCD
    recess(canvas, (x0 - 12, y0 - 12, x1 + 12, CL_SILK[3] + 10), 12, (26, 30, 28), (14, 16, 15))
    draw.rectangle(sbox(CL_LCD), fill=(160, 178, 150))
    recess(canvas, CL_SILK, 4, SILK_GLASS, (160, 174, 154))
    sx0, sy0, sx1, sy1 = CL_SILK
    mid = (sy0 + sy1) / 2
    silk_icon(canvas, (sx0 + 4, sy0 + 4, sx0 + 48, mid), icon_house, "Home")
    silk_icon(canvas, (sx0 + 4, mid, sx0 + 48, sy1 - 4), icon_menu, "Menu")
    silk_icon(canvas, (sx1 - 48, sy0 + 4, sx1 - 4, mid), icon_calc, "Calc")
    silk_icon(canvas, (sx1 - 48, mid, sx1 - 4, sy1 - 4), icon_find, "Find")
    graffiti_area(canvas, (sx0 + 54, sy0 + 10, sx1 - 54, sy1 - 10))
    for x, icon in zip(CL_APP_X, APP_ICONS, strict=True):
        round_button(canvas, x, CL_BUTTONS_Y, CL_APP_R, icon)
    # The scroll rocker: one piece, two halves.
    rocker = rounded_mask(canvas.size, CL_ROCKER, 10)
    rx0, ry0, rx1, ry1 = CL_ROCKER
    draw.rounded_rectangle(sbox((rx0 - 2, ry0 - 1, rx1 + 2, ry1 + 3)), radius=s(11),
                           fill=(30, 34, 33))
    paint(canvas, rocker, (120, 130, 126), (64, 70, 68))
    bevel(canvas, rocker, 2, 220, 20)
    mid_y = (ry0 + ry1) / 2
    draw.line(sbox((rx0 + 3, mid_y, rx1 - 3, mid_y)), fill=(40, 44, 43), width=s(1.5))
    arrow(draw, (rx0 + rx1) / 2, ry0 + 16, 6, "up", (222, 228, 224))
    arrow(draw, (rx0 + rx1) / 2, ry1 - 16, 6, "down", (222, 228, 224))
    # Speaker grille beside the rocker.
    for k in range(4):
        y = 650 + k * 7
        recess(canvas, (CL_W / 2 - 26, y, CL_W / 2 + 26, y + 3), 1.5, (30, 34, 33), (50, 56, 54))
    finish(canvas, mask, path)


def main() -> None:
    draw_t3_portrait(HERE / "t3-portrait.png")
    draw_t3_landscape(HERE / "t3-landscape.png")
    draw_classic(HERE / "classic.png")


if __name__ == "__main__":
    main()

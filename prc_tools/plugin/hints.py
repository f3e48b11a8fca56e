"""What a picture will lose on the device, said while building: colour and detail at
1 or 2 bits without dithering, and soft transparency (Palm bitmaps have one
transparent colour, so alpha below 128 vanishes and the rest turns opaque).
"""

from __future__ import annotations

from PIL import Image

PHOTO_COLOURS = 64  # more distinct colours than this: shaded art that needs dithering
SOFT_ALPHA_SHARE = 0.01  # partly transparent pixels worth a word: 1% of the picture
SAMPLE = 128  # pictures are judged from at most this many pixels each way (quick)


def depth_hints(image: Image.Image, depths: tuple[int, ...], dither: bool) -> list[str]:
    """Lines (without the file's name) about what `depths` and the alpha will lose."""
    rgba = image.convert("RGBA")
    if rgba.width > SAMPLE or rgba.height > SAMPLE:
        rgba = rgba.resize((min(SAMPLE, rgba.width), min(SAMPLE, rgba.height)),
                           Image.Resampling.NEAREST)
    hints = []
    low = [d for d in depths if d <= 2]
    if low and not dither:
        rgb = rgba.convert("RGB")
        mask = rgba.getchannel("A").point(lambda a: 255 if a >= 128 else 0)
        colours = len(rgb.getcolors(SAMPLE * SAMPLE) or []) if mask.getbbox() else 0
        if mask.getextrema()[0] == 0:  # count only the colours that show
            shown = Image.new("RGB", rgb.size)
            shown.paste(rgb, mask=mask)
            colours = len(shown.getcolors(SAMPLE * SAMPLE) or []) - 1
        if colours > PHOTO_COLOURS:
            hints.append(
                f"{colours} colours at {min(low)} bit{'s' if min(low) > 1 else ''} per pixel"
                f" without dithering: shaded areas turn to flat blobs of"
                f" {2 ** min(low)} greys; add `dither: true` to this bitmap (or to `defaults`)")
    alpha = rgba.getchannel("A").histogram()
    total = rgba.width * rgba.height
    vanish = sum(alpha[1:128])
    harden = sum(alpha[128:255])
    if vanish and vanish >= SOFT_ALPHA_SHARE * total:
        hints.append(f"{100 * vanish / total:.0f}% of the pixels are partly transparent"
                     " (alpha 1..127): on the device they vanish (Palm bitmaps have one"
                     " transparent colour); draw soft shadows opaque, or leave them out")
    elif harden and harden >= SOFT_ALPHA_SHARE * total:
        hints.append(f"{100 * harden / total:.0f}% of the pixels are partly transparent"
                     " (alpha 128..254): on the device they are drawn fully opaque")
    return hints

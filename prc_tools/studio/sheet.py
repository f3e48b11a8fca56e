"""`prc-tools verify --sheet OUT.png` and `build --sheet OUT.png`: every bitmap member
of a database on one picture, each at its density and depth as the device decodes it
(the 72 dpi members are the halved pictures a 160x160 handheld shows), labelled with
its resource id, density and depth, those `verify` warns about outlined in red; from
`build`, each row starts with the source picture ("src"), so the colours lost to a
depth are seen beside what was painted."""

from __future__ import annotations

from PIL import Image, ImageDraw, ImageFont

from prc_tools import bitmap

PAD = 6
MIN_CELL = 64  # room for a label such as "2001 144/16"
LABEL_H = 12
MAX_WIDTH = 2400  # a 320x480 board, its source and four members fit in a row
BACK = (236, 236, 236, 255)
RED = (220, 30, 30, 255)


def contact_sheet(members: dict[int, list[bitmap.Member]], flagged: set[int],
                  sources: dict[int, Image.Image] | None = None) -> Image.Image:
    """The sheet: one row per bitmap id (its source first when given, then the members
    side by side, highest density first)."""
    font = ImageFont.load_default(9)
    rows = []
    for id_ in sorted(members):
        family: list[tuple[str, Image.Image]] = []
        if sources is not None and id_ in sources:
            family.append((f"{id_} src", sources[id_]))
        family += [(f"{id_} {m.density}/{m.depth}", m.image)
                   for m in sorted(members[id_], key=lambda m: (-m.density, -m.depth))]
        width = sum(max(image.width, MIN_CELL) + PAD for _, image in family) + PAD
        height = max(image.height for _, image in family) + LABEL_H + 2 * PAD
        rows.append((id_, family, width, height))
    total_w = min(MAX_WIDTH, max((w for _, _, w, _ in rows), default=100))
    total_h = sum(h for *_, h in rows) + PAD or 20
    sheet = Image.new("RGBA", (max(total_w, 100), total_h), BACK)
    draw = ImageDraw.Draw(sheet)
    y = PAD
    for id_, family, _, height in rows:
        x = PAD
        for label, image in family:
            picture = image.convert("RGBA")
            sheet.alpha_composite(picture, (x, y + LABEL_H))
            draw.text((x, y), label, fill=(0, 0, 0, 255), font=font)
            if id_ in flagged:
                draw.rectangle([x - 2, y + LABEL_H - 2, x + picture.width + 1,
                                y + LABEL_H + picture.height + 1], outline=RED, width=2)
            x += max(picture.width, MIN_CELL) + PAD
        y += height
    return sheet

"""`prc-tools verify --sheet OUT.png`: every bitmap member of a database on one picture,
each at its density and depth as the device decodes it, labelled with its resource id,
density and depth, those `verify` warns about outlined in red."""

from __future__ import annotations

from PIL import Image, ImageDraw, ImageFont

from prc_tools import bitmap

PAD = 6
LABEL_H = 12
MAX_WIDTH = 960
BACK = (236, 236, 236, 255)
RED = (220, 30, 30, 255)


def contact_sheet(members: dict[int, list[bitmap.Member]], flagged: set[int]) -> Image.Image:
    """The sheet: one row per bitmap id (members side by side, highest density first)."""
    font = ImageFont.load_default(9)
    rows = []
    for id_ in sorted(members):
        family = sorted(members[id_], key=lambda m: (-m.density, -m.depth))
        width = sum(max(m.image.width, 44) + PAD for m in family) + PAD
        height = max(m.image.height for m in family) + LABEL_H + 2 * PAD
        rows.append((id_, family, width, height))
    total_w = min(MAX_WIDTH, max((w for _, _, w, _ in rows), default=100))
    total_h = sum(h for *_, h in rows) + PAD or 20
    sheet = Image.new("RGBA", (max(total_w, 100), total_h), BACK)
    draw = ImageDraw.Draw(sheet)
    y = PAD
    for id_, family, _, height in rows:
        x = PAD
        for member in family:
            picture = member.image.convert("RGBA")
            sheet.alpha_composite(picture, (x, y + LABEL_H))
            draw.text((x, y), f"{id_} {member.density}/{member.depth}", fill=(0, 0, 0, 255),
                      font=font)
            if id_ in flagged:
                draw.rectangle([x - 2, y + LABEL_H - 2, x + picture.width + 1,
                                y + LABEL_H + picture.height + 1], outline=RED, width=2)
            x += max(picture.width, 44) + PAD
        y += height
    return sheet

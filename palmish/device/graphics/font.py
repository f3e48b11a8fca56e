"""palmish's pixel fonts: glyph masks built from the tables in font_data.

Three faces, each at scale 1 (density 72) and 2 (density 144):
- "std": the text font (line height 11 at low density).
- "bold": the same design thickened by one column, as Palm's bold face reads.
- "large": two-pixel-stroke digits and Roman numerals for scores (line 13).

At double density every glyph pixel becomes a crisp 2x2 block: the hi-res
font keeps the low-density design exactly, so text lays out identically at
both densities (in standard coordinates). Strings are rendered to one 'L'
mask (255 = ink) that the framebuffer pastes with a solid colour, so a colour
costs nothing extra and no system font is ever involved.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterator
from functools import cache, lru_cache

from PIL import Image

from palmish.device.frozen import Frozen
from palmish.device.graphics import font_data

FACES = ("std", "bold", "large")
SPACING = 1  # blank columns after every glyph (standard coordinates)
_NAMES = {"sp": " ", "ell": "\u2026"}


class GlyphTable(Frozen):
    """One font's glyphs: their rows, the line's spacing and the pixels of each character."""

    rows: int  # pixel rows of every glyph
    top: int  # blank rows above the glyph rows in a line
    bottom: int  # blank rows below
    baseline: int  # glyph row under which the baseline lies (counted from 0)
    glyphs: dict[str, tuple[str, ...]]  # char -> rows of '#'/'.'


def parse_table(text: str) -> dict[str, tuple[str, ...]]:
    """Read a glyph table in the block format described in font_data."""
    glyphs: dict[str, tuple[str, ...]] = {}
    blocks = [b for b in text.strip("\n").split("\n\n") if b.strip()]
    for block in blocks:
        header, *rows = block.strip("\n").split("\n")
        if not header.startswith("chars: "):
            raise ValueError(f"glyph block without a 'chars:' header: {header!r}")
        names = header[len("chars: ") :].split(" ")
        columns = [row.split(" ") for row in rows]
        for column in columns:
            if len(column) != len(names):
                raise ValueError(f"block {header!r}: row {column} has the wrong glyph count")
        for index, name in enumerate(names):
            char = _NAMES.get(name, name)
            glyph_rows = tuple(column[index] for column in columns)
            if len({len(r) for r in glyph_rows}) != 1 or set("".join(glyph_rows)) - set("#."):
                raise ValueError(f"glyph {char!r}: ragged rows or stray characters")
            glyphs[char] = glyph_rows
    return glyphs


@cache
def _table(face: str) -> GlyphTable:
    if face in ("std", "bold"):
        return GlyphTable(10, 1, 0, 7, parse_table(font_data.STANDARD))
    if face == "large":
        return GlyphTable(11, 1, 1, 10, parse_table(font_data.LARGE))
    raise ValueError(f"unknown font {face!r} (choose from {', '.join(FACES)})")


def _embolden(rows: tuple[str, ...]) -> tuple[str, ...]:
    """The bold design: every stroke one column thicker.

    One-pixel gaps between strokes (m, w, M, *) are widened first, so that
    thickening does not fill them in; then every pixel with ink on its left
    gets ink too.
    """
    width = len(rows[0])
    narrow_gaps = {
        x
        for row in rows
        for x in range(1, width - 1)
        if row[x - 1] == "#" and row[x] == "." and row[x + 1] == "#"
    }
    widened = tuple(
        "".join(p * 2 if x in narrow_gaps else p for x, p in enumerate(row)) for row in rows
    )
    out = []
    for row in widened:
        padded, shifted = row + ".", "." + row
        pairs = zip(padded, shifted, strict=True)
        out.append("".join("#" if "#" in pair else "." for pair in pairs))
    return tuple(out)


def _missing_glyph(rows: int, baseline: int) -> tuple[str, ...]:
    """An empty box the height of a capital, shown for characters the font lacks."""
    top = max(0, baseline - 6)
    out = []
    for r in range(rows):
        if r in (top, baseline):
            out.append("####")
        elif top < r < baseline:
            out.append("#..#")
        else:
            out.append("....")
    return tuple(out)


# Accents drawn over (or, the cedilla, under) a letter the font has, so the accented
# letters of Latin-1 (é, Ñ, ç...) read as such: rows of column offsets from the middle.
_ACCENTS: dict[str, tuple[tuple[int, ...], ...]] = {
    "\u0301": ((1,), (0,)),  # acute
    "\u0300": ((-1,), (0,)),  # grave
    "\u0302": ((0,), (-1, 1)),  # circumflex
    "\u030c": ((-1, 1), (0,)),  # caron
    "\u0308": ((), (-1, 1)),  # diaeresis
    "\u0303": ((-1, 2), (-2, 0, 1)),  # tilde
    "\u030a": ((-1, 0, 1), (-1, 1)),  # ring
}
_CEDILLA = ((0,), (-1, 0))
# Letters without a decomposition, shown as the nearest letters the font has.
_STAND_INS = {"Æ": "AE", "æ": "ae", "ß": "ss", "Ø": "O", "ø": "o", "Ð": "D", "ð": "d",
              "Þ": "P", "þ": "p", "Œ": "OE", "œ": "oe"}


def _stand_in(table: GlyphTable, char: str) -> tuple[str, ...] | None:
    """Rows for a letter the table lacks: the base letter with its accent drawn on, or
    the letters that stand in for it; None when neither can be drawn."""
    if char in _STAND_INS:
        parts = [table.glyphs.get(c) for c in _STAND_INS[char]]
        if any(p is None for p in parts):
            return None
        return tuple(".".join(p[r] for p in parts if p) for r in range(table.rows))
    decomposed = unicodedata.normalize("NFD", char)
    base, marks = decomposed[0], decomposed[1:]
    rows = table.glyphs.get(base)
    if rows is None or len(marks) != 1 or not (marks[0] == "\u0327" or marks[0] in _ACCENTS):
        return None
    if len(rows[0]) < 3:  # room for an accent over i or l
        rows = tuple(f".{row}." for row in rows)
    grid = [list(row) for row in rows]
    width = len(grid[0])
    middle = width // 2
    inked = [r for r, row in enumerate(grid) if "#" in row]
    if not inked:
        return None

    def paint(row: int, offsets: tuple[int, ...]) -> None:
        for dx in offsets:
            if 0 <= row < len(grid) and 0 <= middle + dx < width:
                grid[row][middle + dx] = "#"

    if marks[0] == "\u0327":  # the cedilla hangs under the baseline
        for k, offsets in enumerate(_CEDILLA):
            paint(table.baseline + 1 + k, offsets)
        return tuple("".join(row) for row in grid)
    top = inked[0]
    if base in "ij":  # their dot makes way for the accent
        for r in range(top, len(grid)):
            if all(c == "." for c in grid[r]):
                for clear in range(top, r):
                    grid[clear] = ["."] * width
                break
        top = next(r for r, row in enumerate(grid) if "#" in row)
    if top < 3:  # a capital: squeeze out a repeated row to make room for the accent
        for r in range(top, table.baseline):
            if grid[r] == grid[r + 1]:
                del grid[r]
                grid.insert(0, ["."] * width)
                top += 1
                break
    accent = _ACCENTS[marks[0]]
    first = max(0, top - 1 - len(accent))
    rows_left = top - first - (1 if top - first > len(accent) else 0)
    for k, offsets in enumerate(accent[len(accent) - rows_left:] if rows_left else ()):
        paint(first + k, offsets)
    return tuple("".join(row) for row in grid)


class Font:
    """One face at one scale; all metrics are native pixels."""

    def __init__(self, face: str, scale: int) -> None:
        if scale not in (1, 2):
            raise ValueError(f"font scale must be 1 or 2, not {scale}")
        table = _table(face)
        self.face = face
        self.scale = scale
        self.height = (table.top + table.rows + table.bottom) * scale  # line height
        self.ascent = (table.top + table.baseline + 1) * scale  # top of line to baseline
        self._table = table
        self._masks: dict[str, Image.Image] = {}

    def __repr__(self) -> str:
        return f"Font({self.face!r}, scale={self.scale})"

    def has_glyph(self, char: str) -> bool:
        return char in self._table.glyphs

    def glyph(self, char: str) -> Image.Image:
        """The 'L' mask of one character, a full line high, spacing included."""
        mask = self._masks.get(char)
        if mask is None:
            mask = self._build_glyph(char)
            self._masks[char] = mask
        return mask

    def _build_glyph(self, char: str) -> Image.Image:
        table = self._table
        rows = (table.glyphs.get(char) or _stand_in(table, char)
                or _missing_glyph(table.rows, table.baseline))
        if self.face == "bold":
            rows = _embolden(rows)
        width = len(rows[0]) + SPACING
        line = table.top + table.rows + table.bottom
        # Set as bytes, not pixel by pixel: a start draws a few dozen glyphs.
        pixels = bytearray(width * line)
        for y, row in enumerate(rows):
            start = (table.top + y) * width
            for x, pixel in enumerate(row):
                if pixel == "#":
                    pixels[start + x] = 255
        mask = Image.frombytes("L", (width, line), bytes(pixels))
        if self.scale != 1:
            mask = mask.resize((width * self.scale, line * self.scale), Image.Resampling.NEAREST)
        return mask

    def char_width(self, char: str) -> int:
        return self.glyph(char).width

    def width(self, text: str) -> int:
        """Advance width of a string in native pixels (the trailing spacing included)."""
        return sum(self.glyph(c).width for c in text)

    def render(self, text: str) -> Image.Image:
        """The 'L' mask of a whole string, one line high."""
        return _render(self, text)

    def fit(self, text: str, width: int, ellipsis: str = "\u2026") -> str:
        """`text` cut (with an ellipsis) so that it is at most `width` pixels wide."""
        if self.width(text) <= width:
            return text
        room = width - self.width(ellipsis)
        return text[: self._fitting_prefix(text, room)] + ellipsis if room > 0 else ""

    def shorten(self, text: str, width: int, ellipsis: str = "\u2026") -> str:
        """Like `fit`, but a name keeps its last word, which often tells similar ones
        apart, and a trailing "(note)": the cut is made before them ("Ceramic Pi… Wide",
        "High Contrast P… Wide (pieces)")."""
        if self.width(text) <= width:
            return text
        note = ""
        if text.endswith(")") and " (" in text:
            text, note = text.rsplit(" (", 1)
            note = " (" + note
        head, sep, last = text.rpartition(" ")
        last += note
        if sep and head:
            tail = f"{ellipsis} {last}"
            room = width - self.width(tail)
            if room >= self.width("MM"):  # keep at least a little of the beginning
                cut = head[: self._fitting_prefix(head, room)].rstrip()
                return cut + tail
        return self.fit(text + note, width, ellipsis)

    def wrap(self, text: str, width: int) -> list[str]:
        """Word-wrap `text` into lines at most `width` wide; '\\n' forces a break.

        Words wider than a line are split between characters.
        """
        lines: list[str] = []
        for paragraph in text.split("\n"):
            lines.extend(self._wrap_paragraph(paragraph, width))
        return lines

    def _wrap_paragraph(self, paragraph: str, width: int) -> Iterator[str]:
        line = ""
        for word in paragraph.split(" "):
            candidate = f"{line} {word}" if line else word
            if self.width(candidate) <= width:
                line = candidate
                continue
            if line:
                yield line
            line = ""
            while self.width(word) > width and len(word) > 1:
                head = max(1, self._fitting_prefix(word, width))
                yield word[:head]
                word = word[head:]
            line = word
        yield line

    def _fitting_prefix(self, text: str, width: int) -> int:
        """How many leading characters of `text` fit in `width` (maybe 0)."""
        used = 0
        for index, char in enumerate(text):
            used += self.char_width(char)
            if used > width:
                return index
        return len(text)


@lru_cache(maxsize=512)
def _render(font: Font, text: str) -> Image.Image:
    mask = Image.new("L", (max(1, font.width(text)), font.height), 0)
    x = 0
    for char in text:
        glyph = font.glyph(char)
        mask.paste(glyph, (x, 0))
        x += glyph.width
    return mask


@cache
def get_font(face: str, scale: int) -> Font:
    """The shared Font for a face at a scale (1 = density 72, 2 = density 144)."""
    return Font(face, scale)

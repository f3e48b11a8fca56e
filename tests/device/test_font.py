"""The pixel fonts: glyph tables complete and well formed, metrics, wrapping."""

from __future__ import annotations

import string

import pytest

from palmish.device.graphics import font_data
from palmish.device.graphics.font import Font, get_font, parse_table


def test_standard_font_covers_printable_ascii() -> None:
    glyphs = parse_table(font_data.STANDARD)
    missing = [c for c in string.printable[:95] if c not in glyphs]
    assert missing == []
    assert all(len(rows) == 10 for rows in glyphs.values())


def test_large_font_has_digits_and_roman_numerals() -> None:
    glyphs = parse_table(font_data.LARGE)
    assert set("0123456789IVXLCDM -.,:") <= set(glyphs)
    assert all(len(rows) == 11 for rows in glyphs.values())


def test_table_errors_are_reported() -> None:
    with pytest.raises(ValueError, match="chars"):
        parse_table("A B\n## ##\n")
    with pytest.raises(ValueError, match="glyph count"):
        parse_table("chars: A B\n## ##\n## ## ##\n")
    with pytest.raises(ValueError, match="ragged"):
        parse_table("chars: A\n##\n#\n")


def test_metrics_per_face_and_scale() -> None:
    assert get_font("std", 1).height == 11
    assert get_font("bold", 1).height == 11
    assert get_font("large", 1).height == 13
    assert get_font("std", 2).height == 22
    assert get_font("std", 1).ascent == 9  # baseline under the 9th row
    with pytest.raises(ValueError, match="unknown font"):
        Font("fancy", 1)
    with pytest.raises(ValueError, match="scale"):
        Font("std", 3)


def test_bold_keeps_narrow_counters_open() -> None:
    # 'm' has one-pixel gaps; bold widens them before thickening the strokes.
    mask = get_font("bold", 1).glyph("m")
    middle_row = [mask.getpixel((x, 6)) for x in range(mask.width)]
    ink = "".join("#" if v else "." for v in middle_row)
    assert ink == "##.##.##."  # design row "#.#.#": three strokes, two gaps, spacing


def test_unknown_characters_draw_a_box_not_nothing() -> None:
    font = get_font("std", 1)
    assert not font.has_glyph("\u263a")
    assert font.glyph("\u263a").getbbox() is not None


@pytest.mark.parametrize("face", ["std", "bold"])
def test_latin1_letters_are_drawn_not_boxed(face: str) -> None:
    font = get_font(face, 1)
    box = font.glyph("\u263a").tobytes()
    letters = [chr(c) for c in range(0xC0, 0x100) if chr(c).isalpha()]
    for letter in letters:
        drawn = font.glyph(letter).tobytes()
        assert drawn != box, letter
    for accented, base in (("é", "e"), ("í", "i"), ("Ñ", "N"), ("ç", "c"), ("ü", "u")):
        assert font.glyph(accented).tobytes() != font.glyph(base).tobytes(), accented
    assert font.glyph("é").tobytes() != font.glyph("è").tobytes()


def test_wrap_keeps_every_line_within_the_width() -> None:
    font = get_font("std", 1)
    text = "The quick brown fox jumps over the lazy dog. " * 3 + "Antidisestablishmentarianism"
    lines = font.wrap(text, 60)
    assert len(lines) > 3
    assert all(font.width(line) <= 60 for line in lines)
    assert "".join(lines).replace(" ", "") == text.replace(" ", "")


def test_wrap_honours_newlines() -> None:
    assert get_font("std", 1).wrap("a\n\nb", 100) == ["a", "", "b"]


def test_fit_cuts_with_an_ellipsis() -> None:
    font = get_font("std", 1)
    assert font.fit("short", 100) == "short"
    cut = font.fit("a rather long title for a box", 40)
    assert cut.endswith("\u2026") and font.width(cut) <= 40

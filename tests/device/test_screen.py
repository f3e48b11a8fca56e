"""The framebuffer: damage tracking, clipping, alpha blits, save-behind, text pixels."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image

from palmish.device.geometry import Rect
from palmish.device.graphics.font import get_font
from palmish.device.graphics.screen import BLACK, DAMAGE_CAP, WHITE, Framebuffer, merge_rects

RED = (255, 0, 0)
BLUE = (0, 0, 255)


def fresh(width: int = 160, height: int = 160, density: int = 72) -> Framebuffer:
    fb = Framebuffer(width, height, density)
    fb.take_damage()
    return fb


def pixels(fb: Framebuffer, rect: Rect) -> list[tuple[int, int, int]]:
    region = fb.image.crop(rect.box())
    return [region.getpixel((x, y)) for y in range(rect.h) for x in range(rect.w)]  # type: ignore[misc]


def test_new_screen_is_white_and_damaged_whole_once() -> None:
    fb = Framebuffer(320, 480, 144)
    assert fb.image.mode == "RGB" and fb.image.size == (320, 480)
    assert fb.image.getpixel((10, 10)) == WHITE
    assert fb.take_damage() == [Rect(0, 0, 320, 480)]
    assert fb.take_damage() == []


def test_bad_sizes_are_refused() -> None:
    with pytest.raises(ValueError, match="density"):
        Framebuffer(160, 160, 100)
    with pytest.raises(ValueError, match="positive"):
        Framebuffer(0, 160)


def test_fill_records_its_rect_clipped_to_the_screen() -> None:
    fb = fresh()
    fb.fill(Rect(150, -5, 20, 10), RED)
    assert fb.take_damage() == [Rect(150, 0, 10, 5)]
    assert fb.image.getpixel((159, 0)) == RED
    assert fb.image.getpixel((149, 0)) == WHITE


def test_drawing_entirely_off_screen_records_nothing() -> None:
    fb = fresh()
    fb.fill(Rect(200, 200, 10, 10), RED)
    fb.blit(Image.new("RGB", (4, 4), RED), -10, 0)
    fb.text(-100, 0, "hi")
    assert fb.take_damage() == []


def test_nearby_damage_merges_and_distant_damage_stays_apart() -> None:
    fb = fresh()
    fb.fill(Rect(0, 0, 10, 10), RED)
    fb.fill(Rect(12, 0, 10, 10), RED)  # 2 px away: merged
    fb.fill(Rect(100, 100, 5, 5), RED)  # far away: separate
    assert sorted(fb.take_damage(), key=lambda r: r.x) == [
        Rect(0, 0, 22, 10),
        Rect(100, 100, 5, 5),
    ]


def test_damage_within_a_whole_screen_of_it_is_not_kept_apart() -> None:
    fb = Framebuffer(160, 160)  # a new screen: damaged whole
    for i in range(40):  # a repaint after a turn: hundreds of blits, one rect
        fb.fill(Rect(i * 4, i * 4, 3, 3), RED)
    assert fb.take_damage() == [fb.bounds]
    fb.fill(Rect(0, 0, 5, 5), RED)
    fb.fill(Rect(-10, -10, 500, 500), RED)  # the whole screen again, clipped
    fb.fill(Rect(50, 50, 5, 5), RED)
    assert fb.take_damage() == [fb.bounds]
    fb.fill(Rect(0, 0, 5, 5), RED)  # after it is taken: parts again
    assert fb.take_damage() == [Rect(0, 0, 5, 5)]


def test_damage_count_is_capped() -> None:
    fb = fresh(480, 320, 144)
    for i in range(60):
        fb.fill(Rect((i % 12) * 40, (i // 12) * 64, 2, 2), RED)
    damage = fb.take_damage()
    assert 1 <= len(damage) <= DAMAGE_CAP


rects = st.builds(
    Rect,
    st.integers(0, 150),
    st.integers(0, 150),
    st.integers(1, 40),
    st.integers(1, 40),
)


@settings(max_examples=60, deadline=None)
@given(st.lists(rects, min_size=1, max_size=80))
def test_merged_damage_covers_every_input_rect(inputs: list[Rect]) -> None:
    merged = merge_rects(inputs)
    assert len(merged) <= DAMAGE_CAP
    for rect in inputs:
        assert any(m.intersect(rect) == rect for m in merged)
    for i, a in enumerate(merged):  # no two results overlap (they would have merged)
        for b in merged[i + 1 :]:
            assert a.intersect(b) is None


def test_blit_composites_by_alpha() -> None:
    fb = fresh()
    fb.fill(fb.bounds, BLUE)
    img = Image.new("RGBA", (3, 1))
    img.putpixel((0, 0), (255, 0, 0, 0))  # transparent: blue stays
    img.putpixel((1, 0), (255, 0, 0, 255))  # opaque: red
    img.putpixel((2, 0), (255, 0, 0, 128))  # half: a mix
    fb.blit(img, 5, 5)
    assert fb.image.getpixel((5, 5)) == BLUE
    assert fb.image.getpixel((6, 5)) == RED
    r, g, b = fb.image.getpixel((7, 5))  # type: ignore[misc]
    assert 120 <= r <= 135 and g == 0 and 120 <= b <= 135


@pytest.mark.parametrize("mode", ["RGBA", "LA", "PA", "P"])
def test_blit_composites_every_mode_with_transparency_alike(mode: str) -> None:
    rgba = Image.new("RGBA", (4, 1), (0, 0, 0, 0))
    for x, alpha in enumerate((0, 255, 128, 255)):
        rgba.putpixel((x, 0), (90, 90, 90, alpha) if mode in ("LA", "PA") or x != 3
                      else (200, 40, 10, alpha))
    if mode == "LA":
        source = rgba.convert("LA")
    elif mode == "PA":
        source = Image.new("PA", (4, 1))
        source.putpalette([90, 90, 90] + [0] * 765)
        for x, alpha in enumerate((0, 255, 128, 255)):
            source.putpixel((x, 0), (0, alpha))
    elif mode == "P":  # Palm's transparent index: only 0 and 255 alpha
        source = Image.new("P", (4, 1), 1)
        source.putpalette([0, 0, 0, 90, 90, 90] + [0] * 762)
        source.putpixel((0, 0), 0)
        source.info["transparency"] = 0
    else:
        source = rgba
    before = source.tobytes()
    fb = fresh()
    fb.fill(fb.bounds, BLUE)
    fb.blit(source, 5, 5)
    expected = Image.new("RGB", (4, 1), BLUE)
    as_rgba = source.convert("RGBA")
    expected.paste(as_rgba.convert("RGB"), (0, 0), as_rgba.getchannel("A"))
    assert pixels(fb, Rect(5, 5, 4, 1)) == list(expected.getdata())
    assert fb.image.getpixel((5, 5)) == BLUE
    assert source.tobytes() == before  # the picture itself is left as it was


def test_blit_respects_the_clip_rect_and_screen_edges() -> None:
    fb = fresh()
    fb.blit(Image.new("RGB", (20, 20), RED), 150, 10, clip=Rect(155, 0, 100, 15))
    assert fb.take_damage() == [Rect(155, 10, 5, 5)]
    assert pixels(fb, Rect(155, 10, 5, 5)) == [RED] * 25
    assert fb.image.getpixel((154, 10)) == WHITE
    assert fb.image.getpixel((155, 15)) == WHITE


def test_blit_crops_the_source_at_the_right_offset() -> None:
    fb = fresh()
    img = Image.new("RGB", (4, 4), WHITE)
    img.putpixel((3, 3), RED)
    fb.blit(img, -3, -3)
    assert fb.image.getpixel((0, 0)) == RED


def test_snapshot_and_restore_put_back_exact_pixels() -> None:
    fb = fresh()
    fb.fill(Rect(10, 10, 30, 30), RED)
    area = Rect(0, 0, 50, 50)
    before = fb.snapshot(area)
    fb.fill(Rect(5, 5, 40, 40), BLUE)
    fb.take_damage()
    fb.restore(before, 0, 0)
    assert fb.take_damage() == [area]
    assert fb.image.crop(area.box()).tobytes() == before.tobytes()


def test_rectangle_line_and_invert() -> None:
    fb = fresh()
    fb.rectangle(Rect(10, 10, 5, 4), BLACK)
    assert fb.image.getpixel((10, 10)) == BLACK and fb.image.getpixel((14, 13)) == BLACK
    assert fb.image.getpixel((12, 11)) == WHITE
    fb.line(20, 30, 25, 30, RED, width=1)
    assert pixels(fb, Rect(20, 30, 6, 1)) == [RED] * 6
    assert fb.image.getpixel((26, 30)) == WHITE
    fb.invert(Rect(20, 30, 2, 1))
    assert fb.image.getpixel((20, 30)) == (0, 255, 255)


def ink_rows(fb: Framebuffer, rect: Rect) -> list[str]:
    """A screen region as '#'/'.' rows (ink = not white)."""
    region = fb.image.crop(rect.box())
    return [
        "".join("." if region.getpixel((x, y)) == WHITE else "#" for x in range(rect.w))
        for y in range(rect.h)
    ]


def test_text_draws_the_glyph_design_at_low_density() -> None:
    fb = fresh()
    width = fb.text(0, 0, "T")
    assert width == 6  # 5 columns of glyph plus one of spacing
    rows = ink_rows(fb, Rect(0, 0, 6, 11))
    assert rows[0] == "......"  # the blank line above
    assert rows[2] == "#####."  # the bar of the T (row 1 of the design)
    assert all(r == "..#..." for r in rows[3:9])
    assert rows[9] == rows[10] == "......"


def test_text_at_double_density_is_the_same_design_doubled() -> None:
    low, high = fresh(), fresh(320, 320, 144)
    assert high.text(0, 0, "Ag") == 2 * low.text(0, 0, "Ag")
    assert high.line_height() == 2 * low.line_height() == 22
    doubled = low.image.crop((0, 0, 12, 11)).resize((24, 22), Image.Resampling.NEAREST)
    assert high.image.crop((0, 0, 24, 22)).tobytes() == doubled.tobytes()


def test_text_uses_the_colour_and_the_clip() -> None:
    fb = fresh()
    fb.text(0, 0, "WWWW", RED, clip=Rect(0, 0, 6, 160))
    inked = {fb.image.getpixel((x, y)) for x in range(30) for y in range(11)}
    assert inked == {RED, WHITE}
    assert all(fb.image.getpixel((x, y)) == WHITE for x in range(6, 30) for y in range(11))
    assert fb.take_damage() == [Rect(0, 0, 6, 11)]


def test_text_width_matches_what_is_drawn_and_faces_differ() -> None:
    fb = fresh()
    s = "Hello, Palm!"
    assert fb.text_width(s) == fb.text(0, 20, s)
    assert fb.text_width("iii") < fb.text_width("mmm")
    assert fb.text_width(s, "bold") > fb.text_width(s, "std")
    assert fb.text_width(s, get_font("std", 1)) == fb.text_width(s)


def test_vertical_text_reads_bottom_to_top() -> None:
    fb = fresh()
    height = fb.text_vertical(50, 20, "L1", font="large")
    across = fresh()
    width = across.text(0, 0, "L1", font="large")
    assert height == width
    turned = across.image.crop((0, 0, width, 13)).transpose(Image.Transpose.ROTATE_90)
    assert fb.image.crop((50, 20, 50 + 13, 20 + width)).tobytes() == turned.tobytes()
    # The first character ('L') is at the bottom: the top rows hold the '1'.
    assert fb.take_damage() == [Rect(50, 20, 13, width)]

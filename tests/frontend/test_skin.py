"""Loading and checking device skins (no window needed)."""

from __future__ import annotations

from pathlib import Path

import pytest
from PIL import Image

from palmish.device.display import CONFIGS, ConfigName
from palmish.device.events import Key
from palmish.frontend.skin import (
    Circle,
    SkinError,
    available_skins,
    default_skin_name,
    load_skin,
)

T3_KEYS = {k.value for k in (Key.UP, Key.DOWN, Key.LEFT, Key.RIGHT, Key.SELECT)} | {
    "app1", "app2", "app3", "app4"
}


def test_bundled_skins_are_listed() -> None:
    assert {"t3", "classic"} <= set(available_skins())


def test_default_skin_follows_the_configuration() -> None:
    assert default_skin_name(CONFIGS[ConfigName.SQUARE_LOW]) == "classic"
    for name in (ConfigName.SQUARE, ConfigName.TALL, ConfigName.WIDE):
        assert default_skin_name(CONFIGS[name]) == "t3"


def test_t3_offers_the_three_double_density_configs() -> None:
    skin = load_skin("t3")
    assert set(skin.configs) == {ConfigName.SQUARE, ConfigName.TALL, ConfigName.WIDE}
    portrait = skin.face_for(CONFIGS[ConfigName.TALL])
    landscape = skin.face_for(CONFIGS[ConfigName.WIDE])
    assert (portrait.lcd.w, portrait.lcd.h) == (320, 480)
    assert (landscape.lcd.w, landscape.lcd.h) == (480, 320)
    for face in (portrait, landscape):
        assert {b.action for b in face.buttons} == T3_KEYS
    with pytest.raises(SkinError, match="square-low"):
        skin.face_for(CONFIGS[ConfigName.SQUARE_LOW])


def test_classic_has_silkscreen_home_menu_and_scroll_buttons() -> None:
    skin = load_skin("classic")
    assert skin.configs == (ConfigName.SQUARE_LOW,)
    face = skin.face_for(CONFIGS[ConfigName.SQUARE_LOW])
    assert (face.lcd.w, face.lcd.h) == (320, 320)  # 160x160 at two skin pixels each
    actions = {b.action for b in face.buttons}
    assert actions == {"home", "menu", "up", "down", "app1", "app2", "app3", "app4"}
    silk_top = face.lcd.bottom
    for action in ("home", "menu"):
        button = next(b for b in face.buttons if b.action == action)
        assert button.bounds().y >= silk_top  # printed below the LCD


@pytest.mark.parametrize("name", ["t3", "classic"])
def test_buttons_sit_on_drawn_controls(name: str) -> None:
    """Every button's centre is on the device body, not the transparent corners,
    and differs from the plain face plate around it (something is drawn there)."""
    skin = load_skin(name)
    for face in (skin.portrait, skin.landscape):
        if face is None:
            continue
        for button in face.buttons:
            box = button.bounds()
            cx, cy = box.x + box.w // 2, box.y + box.h // 2
            assert face.button_at(cx, cy) is button
            assert face.image.getpixel((cx, cy))[3] == 255
            assert not face.lcd.contains(cx, cy)


def test_button_lookup_prefers_the_first_listed() -> None:
    face = load_skin("t3").portrait
    assert face is not None
    select = face.buttons[0]
    assert isinstance(select.shape, Circle) and select.action == "select"
    assert face.button_at(select.shape.cx, select.shape.cy) is select
    assert face.button_at(0, 0) is None


def write_skin(tmp_path: Path, text: str, size: tuple[int, int] = (200, 240)) -> Path:
    Image.new("RGBA", size, (90, 90, 90, 255)).save(tmp_path / "body.png")
    path = tmp_path / "test.yaml"
    path.write_text(text, encoding="utf-8")
    return path


GOOD = """
configs: [square-low]
portrait:
  image: body.png
  lcd: [20, 20, 160, 160]
  buttons:
    - {action: up, rect: [80, 190, 40, 20]}
    - {action: rotate, circle: [30, 210, 10]}
"""


def test_a_minimal_skin_loads(tmp_path: Path) -> None:
    skin = load_skin(str(write_skin(tmp_path, GOOD)))
    face = skin.face_for(CONFIGS[ConfigName.SQUARE_LOW])
    assert skin.title == "test" and skin.background == (0x30, 0x30, 0x30)
    assert [b.action for b in face.buttons] == ["up", "rotate"]


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (("[square-low]", "[sideways]"), "configs: unknown configuration 'sideways'"),
        (("[square-low]", "[wide]"), "wide needs a landscape face"),
        (("action: up", "action: jump"), r"portrait.buttons\[0\].action: 'jump'"),
        (("[20, 20, 160, 160]", "[20, 20, 150, 160]"), "not a whole multiple of the 160x160"),
        (("[20, 20, 160, 160]", "[100, 20, 160, 160]"), "lies outside the"),
        (("[80, 190, 40, 20]", "[80, 190, 40]"), r"buttons\[0\].rect: expected 4 integers"),
        (("circle: [30, 210, 10]", "circle: [30, 235, 10]"), "lies outside the image"),
        (("body.png", "missing.png"), "portrait.image: cannot load"),
        (("configs:", "colours:"), "colours: unknown key"),
    ],
)
def test_bad_skins_fail_with_one_line_naming_the_place(
    tmp_path: Path, change: tuple[str, str], message: str
) -> None:
    path = write_skin(tmp_path, GOOD.replace(*change))
    with pytest.raises(SkinError, match=message) as caught:
        load_skin(str(path))
    assert str(path) in str(caught.value)
    assert "\n" not in str(caught.value)


def test_unknown_skin_names_the_available_ones() -> None:
    with pytest.raises(SkinError, match=r"unknown device skin 'nope' \(available: .*t3"):
        load_skin("nope")


@pytest.mark.parametrize(
    "text",
    ["configs: [square-low\nportrait: {", "made: 2001-13-45\n", "[" * 2000 + "]" * 2000],
    ids=["syntax", "impossible-date", "deep-nesting"],
)
def test_broken_yaml_is_one_line(tmp_path: Path, text: str) -> None:
    path = write_skin(tmp_path, text)
    with pytest.raises(SkinError, match="cannot read skin") as caught:
        load_skin(str(path))
    assert "\n" not in str(caught.value)

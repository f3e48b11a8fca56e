"""Random pen strokes and keys never break a modal, and closing always erases it."""

from __future__ import annotations

import random

import pytest

from palmish.device.display import CONFIGS, ConfigName
from palmish.device.events import Event, Key, KeyDown, PenDown, PenMove, PenUp
from palmish.device.graphics.screen import Framebuffer
from palmish.device.menus import Menu, MenuItem
from palmish.device.ui import (
    Alert,
    CheckBox,
    Form,
    Label,
    MenuBar,
    Modal,
    PopupList,
    PushButtons,
    TextViewer,
)

APP_COLOUR = (10, 200, 30)


def make(kind: str) -> Modal:
    if kind == "alert":
        return Alert("Alert", "Something happened. " * 6, ("OK", "Cancel", "Help"))
    if kind == "menu":
        return MenuBar(
            (
                Menu("Game", (MenuItem("New", "n", "N"), MenuItem("-", "-"), MenuItem("Un", "u"))),
                Menu("Options", (MenuItem("Preferences", "p"),)),
                Menu("Empty"),
            )
        )
    if kind == "form":
        fields: list[PushButtons | CheckBox | PopupList | Label] = [Label("Heading")]
        fields += [PopupList(f"p{i}", f"Pop {i}", tuple(f"Choice {n}" for n in range(30)), i)
                   for i in range(5)]
        fields += [PushButtons("b", "Mode", ("One", "Two", "Three", "Four"), 2),
                   CheckBox("c", "Check", True)]
        return Form("Form", fields)
    return TextViewer("Help", "# Head\n" + "Words of help text. " * 80)


def random_events(rng: random.Random, width: int, height: int, count: int) -> list[Event]:
    events: list[Event] = []
    keys = list(Key)
    while len(events) < count:
        if rng.random() < 0.4:
            events.append(KeyDown(rng.choice(keys)))
            continue
        x, y = rng.randrange(width), rng.randrange(height)
        events.append(PenDown(x, y))
        for _ in range(rng.randrange(3)):
            x, y = rng.randrange(-20, width + 20), rng.randrange(-20, height + 20)
            events.append(PenMove(x, y))
        events.append(PenUp(x, y))
    return events


@pytest.mark.parametrize("kind", ["alert", "menu", "form", "text"])
@pytest.mark.parametrize("name", [ConfigName.SQUARE_LOW, ConfigName.SQUARE, ConfigName.WIDE],
                         ids=lambda c: c.value)
def test_random_input_keeps_modals_whole(kind: str, name: ConfigName) -> None:
    config = CONFIGS[name]
    rng = random.Random(f"{kind}-{name.value}")
    for _ in range(10):
        fb = Framebuffer(config.width, config.height, config.density)
        fb.fill(fb.bounds, APP_COLOUR)
        modal = make(kind)
        modal.layout(config.app_bounds, config.density)
        modal.draw(fb)
        for event in random_events(rng, config.width, config.height, 40):
            modal.handle(event)
            modal.draw(fb)
            assert modal.bounds.intersect(config.app_bounds) == modal.bounds
            if modal.closed:
                break
        modal.erase(fb)
        assert fb.image.getcolors() == [(fb.width * fb.height, APP_COLOUR)]

"""What BoardGameApp does once for every game: reading a saved engine record, the
preference readers, the arrows' walk, and laying out and painting through the view a
game makes. A small game on a real device: a row of lamps, a text record "LAMPS 0101"."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from palmish.boardgame import BoardGameApp
from palmish.boardgame.saved import encode
from palmish.device.display import CONFIGS, ConfigName
from palmish.device.events import Key, Rotate
from palmish.device.geometry import Rect
from palmish.device.graphics.screen import BLACK, WHITE, Framebuffer
from palmish.device.machine.app import AppContext
from palmish.device.machine.system import Device
from palmish.outcome import Outcome, Termination


@dataclass
class LampScene:
    lamps: list[bool] = field(default_factory=list)


@dataclass
class LampView:
    """Draws lamp i as a square in a row; remembers what it was asked to paint."""

    bounds: Rect
    painted: list[Rect | None] = field(default_factory=list)

    def lamp_rect(self, i: int) -> Rect:
        return Rect(self.bounds.x + 12 * i, self.bounds.y, 10, 10)

    def paint(self, fb: Framebuffer, scene: Any, region: Rect | None = None) -> None:
        self.painted.append(region)
        for i, lit in enumerate(scene.lamps):
            rect = self.lamp_rect(i)
            if region is None or region.intersect(rect) is not None:
                fb.fill(rect, BLACK if lit else WHITE)


class LampsApp(BoardGameApp):
    id = "lamps"
    name = "Lamps"
    creator = "TLmp"

    def __init__(self) -> None:
        super().__init__()
        self.lamps = [False] * 4
        self.scene: LampScene = LampScene()
        self.view: LampView | None = None
        self.syncs = 0

    def new_game(self) -> None:
        self.lamps = [False] * 4

    def game_fields(self) -> dict[str, object] | None:
        return {"record": "LAMPS " + "".join("1" if on else "0" for on in self.lamps)}

    def resume_record(self, record: str, fields: Mapping[str, object]) -> None:
        magic, _, bits = record.partition(" ")
        if magic != "LAMPS" or len(bits) != 4 or set(bits) - {"0", "1"}:
            raise ValueError(f"not a lamps record: {record!r}")
        self.lamps = [b == "1" for b in bits]

    def make_view(self, ctx: AppContext) -> LampView:
        return LampView(ctx.bounds)

    def sync_scene(self) -> None:
        self.syncs += 1
        self.scene.lamps = list(self.lamps)

    def switch(self, i: int) -> None:
        self.lamps[i] = not self.lamps[i]
        self.save()
        assert self.view is not None
        self._paint(self.view.lamp_rect(i), None)


Make = Callable[..., tuple[Device, LampsApp]]


@pytest.fixture
def make(tmp_path: Path) -> Make:
    empty = tmp_path / "no-plugins"
    empty.mkdir(exist_ok=True)

    def start() -> tuple[Device, LampsApp]:
        app = LampsApp()
        device = Device(CONFIGS[ConfigName.SQUARE], tmp_path / "device", [app],
                        start_app="lamps", bundled_plugins=empty, durable=False,
                        alerts=False)
        return device, app

    def factory(saved: dict[str, object] | None = None,
                prefs: dict[str, object] | None = None) -> tuple[Device, LampsApp]:
        if saved is None and prefs is None:
            return start()
        device, _ = start()  # then stored as if an earlier run had left them
        device.shutdown()
        if saved is not None:
            device.storage.save_state("TLmp", encode(1, saved, False))
        if prefs is not None:
            device.storage.save_prefs("TLmp", prefs)
        return start()

    return factory


def test_a_saved_engine_record_is_resumed(make: Make) -> None:
    device, app = make()
    app.switch(1)
    device.shutdown()
    device, again = make()
    assert again.lamps == [False, True, False, False]


@pytest.mark.parametrize("fields", [{"record": 5}, {"moves": "x"}, {"record": "LAMPS 01"}])
def test_a_record_without_a_usable_text_is_set_aside(make: Make,
                                                     fields: dict[str, object]) -> None:
    device, app = make(saved=fields)
    assert app.lamps == [False] * 4  # a new game
    notes = [m for m in device.messages if "saved game" in m]
    assert len(notes) == 1 and "could not be read" in notes[0]


def test_lay_out_paints_the_whole_scene_from_the_view_the_game_makes(make: Make) -> None:
    device, app = make(saved={"record": "LAMPS 1001"})
    view = app.view
    assert view is not None and view.painted == [None]  # one whole paint at the start
    assert device.screen.image.getpixel((view.lamp_rect(0).x, view.lamp_rect(0).y)) == BLACK
    assert device.screen.image.getpixel((view.lamp_rect(1).x, view.lamp_rect(1).y)) == WHITE
    device.post(Rotate())  # a display change: a new view for the new bounds
    assert app.view is not view and app.view is not None and app.view.painted == [None]


def test_paint_syncs_the_scene_then_repaints_only_the_regions_given(make: Make) -> None:
    device, app = make()
    view = app.view
    assert view is not None
    view.painted.clear()
    syncs = app.syncs
    app.switch(2)
    assert view.painted == [view.lamp_rect(2)]  # None regions are skipped
    assert app.syncs == syncs + 1
    x, y = view.lamp_rect(2).x, view.lamp_rect(2).y
    assert device.screen.image.getpixel((x, y)) == BLACK


def test_paint_before_the_layout_or_after_the_stop_draws_nothing() -> None:
    app = LampsApp()
    app._paint(Rect(0, 0, 10, 10))  # no context, no view: nothing happens
    assert app.syncs == 0


@pytest.mark.parametrize(("stored", "flag", "choice", "none_default"), [
    ({}, True, "b", None),
    ({"on": False, "pick": "c", "maybe": "a"}, False, "c", "a"),
    ({"on": "no", "pick": "z", "maybe": 3}, True, "b", None),  # not ours: the default
    ({"on": 0, "pick": ["a"], "maybe": None}, True, "b", None),
])
def test_preferences_read_as_one_of_their_values_or_the_default(
        make: Make, stored: dict[str, object], flag: bool, choice: str,
        none_default: str | None) -> None:
    _, app = make(prefs=stored)
    assert app.flag_pref("on") is flag
    assert app.flag_pref("off", default=False) is False
    assert app.choice_pref("pick", ("a", "b", "c"), "b") == choice
    assert app.choice_pref("maybe", ("a",), None) == none_default


def test_the_arrows_walk_a_ring_and_wrap() -> None:
    app = LampsApp()
    ring = ["a", "b", "c"]
    assert app.cycle(ring, None, Key.DOWN) == "a"  # from outside: Down enters first
    assert app.cycle(ring, None, Key.UP) == "c"  # and Up last
    assert app.cycle(ring, "zz", Key.RIGHT) == "a"
    assert app.cycle(ring, "b", Key.DOWN) == "c"
    assert app.cycle(ring, "c", Key.DOWN) == "a"
    assert app.cycle(ring, "a", Key.LEFT) == "c"
    assert app.cycle(ring, "a", Key.RIGHT, sideways=False) is None
    assert app.cycle(ring, "a", Key.SELECT) is None
    assert app.cycle([], None, Key.DOWN) is None


@pytest.mark.parametrize(("outcome", "won", "lost"), [
    (Outcome(Termination.COMPLETED, winner=0), 1, 0),
    (Outcome(Termination.STUCK), 0, 1),
])
def test_an_outcome_is_tallied_once_as_a_win_or_a_loss(make: Make, outcome: Outcome,
                                                       won: int, lost: int) -> None:
    device, app = make()
    assert app.record_result("lamps", outcome) is None  # no score tables: no rank
    app.record_result("lamps", Outcome(Termination.COMPLETED, winner=0))  # counted already
    tally = app.tallies.tally("lamps")
    assert (tally.played, tally.won, tally.lost) == (1, won, lost)
    stats = device.storage.load_prefs("TLmp")["stats"]
    assert isinstance(stats, dict) and stats["variants"]["lamps"][:3] == [1, won, lost]


def test_a_game_scored_by_points_tallies_neither_win_nor_loss(make: Make) -> None:
    _, app = make()
    app.counts_as_win = lambda outcome: None  # type: ignore[method-assign]
    app.record_result("lamps", Outcome(Termination.COMPLETED, score=120))
    tally = app.tallies.tally("lamps")
    assert (tally.played, tally.won, tally.lost) == (1, 0, 0)

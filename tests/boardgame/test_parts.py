"""The shared layer's parts on their own: saved records, stats, timed turns, sliced
jobs, grid, results."""

from __future__ import annotations

from collections.abc import Callable, Generator

import pytest

from palmish import stepped
from palmish.boardgame import FormResult, Grid, Turns, form_result, place_board
from palmish.boardgame.saved import SavedGameError, decode, encode
from palmish.boardgame.sliced import GAP_MS, SlicedJob
from palmish.boardgame.stats import ScoreTables, Tallies
from palmish.device.geometry import Rect
from palmish.device.ui.alert import Alert
from palmish.device.ui.form import Form, PushButtons


def test_saved_records_round_trip_and_refuse_newer_or_broken() -> None:
    data = encode(2, {"record": "x"}, recorded=True)
    assert data == b'{"v":2,"record":"x","recorded":true}'
    record = decode(data, newest=2)
    assert (record.fields, record.recorded, record.version) == ({"record": "x"}, True, 2)
    assert decode(encode(1, {}, False), newest=2).version == 1
    with pytest.raises(SavedGameError, match="newer version"):
        decode(data, newest=1)
    for bad in (b"\xff", b"[]", b"{}", b'{"v": true}', b'{"v": 0}'):
        with pytest.raises(SavedGameError):
            decode(bad, newest=1)


def test_score_tables_keep_the_best_and_skip_malformed_rows() -> None:
    tables: ScoreTables[tuple[int, ...]] = ScoreTables(("a",), lambda *r: tuple(r), width=2,
                                                       size=3)
    assert [tables.add("a", (s, i)) for i, s in enumerate((5, 9, 5, 1, 0))] == [1, 1, 3, None,
                                                                                None]
    assert tables.table("a") == [(9, 1), (5, 0), (5, 2)]  # equal scores: the older first
    again: ScoreTables[tuple[int, ...]] = ScoreTables(("a",), lambda *r: tuple(r), width=2)
    again.load({"a": [[1, 2], [7, 8], ["x", 1], [True, 1], [3]], "b": [[1, 1]]})
    assert again.table("a") == [(7, 8), (1, 2)] and again.table("b") == []
    again.load("nonsense")
    assert again.table("a") == []


def test_tallies_count_wins_losses_streaks_and_players() -> None:
    tallies = Tallies()
    for won in (True, True, False, None, True, True, True):
        tallies.add("2p", won, players=("Ann", "Bob", "Ann"))
    t = tallies.tally("2p")
    assert (t.played, t.won, t.lost, t.streak, t.best_streak) == (7, 5, 1, 3, 3)
    assert tallies.players == {"Ann": 7, "Bob": 7}
    loaded = Tallies.from_prefs(tallies.to_prefs())
    assert loaded == tallies
    assert Tallies.from_prefs({"variants": {"x": [1, 2]}, "players": {"A": "1"}}) == Tallies()


class FakeClock:
    def __init__(self) -> None:
        self.now_ms = 0
        self.timer: int | None = None

    def set_timer(self, delay_ms: int) -> None:
        self.timer = self.now_ms + delay_ms

    def cancel_timer(self) -> None:
        self.timer = None


def test_an_overdue_turn_fires_once_and_repeats_from_then() -> None:
    clock = FakeClock()
    turns = Turns()
    turns.attach(clock)
    fired: list[int] = []

    def step() -> None:
        fired.append(clock.now_ms)
        turns.after("demo", 100, step)

    turns.after("demo", 100, step)
    assert clock.timer == 100
    clock.now_ms = 1000  # ten periods late
    turns.tick(clock.now_ms)
    assert fired == [1000] and clock.timer == 1100


def test_turns_share_the_timer_and_can_be_cancelled() -> None:
    clock = FakeClock()
    turns = Turns()
    turns.attach(clock)
    fired: list[str] = []
    turns.after("b", 300, lambda: fired.append("b"))
    turns.after("a", 100, lambda: fired.append("a"))
    assert clock.timer == 100 and turns.pending("a")
    clock.now_ms = 300
    turns.tick(300)
    assert fired == ["a", "b"] and clock.timer is None
    turns.after("c", 50, lambda: fired.append("c"))
    turns.cancel("c")
    assert clock.timer is None and not turns.pending("c")
    turns.attach(None)
    turns.after("d", 0, lambda: fired.append("d"))  # detached: nothing is scheduled
    assert not turns.pending("d")


def test_grid_maps_cells_and_pixels() -> None:
    grid = Grid(10, 20, rows=2, cols=3, cell_w=5, cell_h=7)
    assert grid.rect == Rect(10, 20, 15, 14)
    assert grid.cell_rect(1, 2) == Rect(20, 27, 5, 7)
    assert grid.cell_at(20, 27) == (1, 2) and grid.cell_at(9, 20) is None
    with pytest.raises(ValueError):
        grid.cell_rect(2, 0)


def test_board_goes_beside_or_above_the_panel() -> None:
    beside = place_board(Rect(0, 0, 320, 320), 288, 320, min_below=60)
    assert not beside.stacked and beside.panel == Rect(288, 0, 32, 320)
    tall = place_board(Rect(0, 0, 320, 450), 288, 320, min_below=60)
    assert tall.stacked and tall.board.x == 16 and tall.panel == Rect(0, 320, 320, 130)
    assert [f.w for f in tall.fillers] == [16, 16]
    with pytest.raises(ValueError):
        place_board(Rect(0, 0, 100, 100), 101, 10, min_below=0)


def test_results_name_their_buttons() -> None:
    form = Form("F", [PushButtons("k", "K", ("One", "Two"), 1)], buttons=("OK", "Cancel", "?"))
    result = form_result(form, (2, {"k": 1}))
    assert result == FormResult("?", {"k": 1})
    assert result.choice("k", ("one", "two"), "one") == "two"
    assert result.choice("missing", ("one",), "one") == "one"
    assert form_result(Alert("A", "b", ("Yes", "No")), 1).button == "No"
    assert form_result(form, None).button is None


class FakeSound:
    def sound(self, id_: int) -> bytes | None:
        return b"RIFF%d" % id_ if id_ == 3000 else None


class FakeContext:
    def __init__(self) -> None:
        self.played: list[bytes] = []
        self.notes: list[str] = []

    def plugin(self, kind: str, slot: str | None = None) -> object:
        return FakeSound() if kind == "sound" else None

    def play_sound(self, wave: bytes) -> None:
        self.played.append(wave)

    def notify(self, message: str) -> None:
        self.notes.append(message)


def test_media_plays_by_name_and_reports_a_lack_once() -> None:
    from typing import cast

    from palmish.boardgame import Media
    from palmish.device.machine.app import AppContext

    ctx = FakeContext()
    media = Media("Game", {"place": 3000, "illegal": 3002})
    media.load(cast(AppContext, ctx))
    assert media.plugin("sound") is not None and media.plugin("board") is None
    media.play("place")
    media.play("illegal")  # the plugin lacks it: silence
    media.play("unknown")
    media.enabled = False
    media.play("place")
    assert ctx.played == [b"RIFF3000"]
    for _ in range(2):
        media.report(["lacks tile 0,0", "lacks tile 0,1"])
    assert ctx.notes == ["Game: lacks tile 0,0; lacks tile 0,1; plain pictures are used instead"]


def test_lazy_pictures_make_only_what_is_asked_for_once() -> None:
    from PIL import Image

    from palmish.boardgame.plugin_art import LazyPictures

    made: list[str] = []

    def maker(key: str) -> Callable[[], Image.Image | None]:
        def make() -> Image.Image | None:
            made.append(key)
            return None if key == "gone" else Image.new("RGBA", (2, 3))
        return make

    pictures = LazyPictures({k: maker(k) for k in ("a", "b", "gone")})
    assert made == []
    assert pictures["a"].size == (2, 3) and "a" in pictures and made == ["a"]
    assert "gone" not in pictures and "nope" not in pictures and made == ["a", "gone"]
    with pytest.raises(KeyError):
        pictures["gone"]
    assert sorted(pictures) == ["a", "b"] and len(pictures) == 2
    assert made == ["a", "gone", "b"]  # each made once


# --- SlicedJob: a generator run a slice at a time on the Turns, or finished at once


def counting(steps: int, seen: list[int]) -> Generator[None, None, int]:
    for n in range(steps):
        seen.append(n)
        yield
    return steps * 10


def test_a_job_runs_a_slice_at_once_then_one_a_gap_apart() -> None:
    clock, turns, seen, answers = FakeClock(), Turns(), [], []
    turns.attach(clock)
    job = SlicedJob(turns, "work", counting(5, seen), units=2, on_done=answers.append)
    job.start()
    assert seen == [0, 1] and clock.timer == GAP_MS and job.running
    clock.now_ms = GAP_MS
    turns.tick(clock.now_ms)
    assert seen == [0, 1, 2, 3]
    clock.now_ms = 2 * GAP_MS
    turns.tick(clock.now_ms)
    assert answers == [50] and not job.running and clock.timer is None


def test_finish_runs_the_rest_at_once_and_leaves_no_slice_behind() -> None:
    clock, turns, seen, answers = FakeClock(), Turns(), [], []
    turns.attach(clock)
    job = SlicedJob(turns, "work", counting(40, seen), units=1, on_done=answers.append)
    job.start()
    assert seen == [0]
    job.finish()
    assert seen == list(range(40)) and answers == [400]
    assert not job.running and not turns.pending("work") and clock.timer is None
    job.finish()  # nothing left: nothing happens
    assert answers == [400]


def test_a_job_started_later_runs_its_first_slice_a_gap_from_now() -> None:
    clock, turns, seen, answers = FakeClock(), Turns(), [], []
    turns.attach(clock)
    job = SlicedJob(turns, "work", counting(2, seen), units=1, on_done=answers.append)
    job.start(at_once=False)
    assert seen == [] and clock.timer == GAP_MS and job.running
    clock.now_ms = GAP_MS
    turns.tick(clock.now_ms)
    assert seen == [0]


def test_in_slices_pauses_only_once_its_slice_has_run() -> None:
    seen: list[int] = []
    now = [0.0]

    def clock() -> float:
        now[0] += 0.001  # every reading of the clock is a millisecond later
        return now[0]

    # the clock is read at the start and after each step: a pause every 3 steps
    steps = stepped.in_slices(counting(7, seen), 3.0, clock)
    next(steps)
    assert seen == [0, 1, 2]
    next(steps)
    assert seen == [0, 1, 2, 3, 4, 5]
    assert stepped.finish(steps) == 70 and seen == list(range(7))
    # closed early, it closes the computation it runs
    inner = counting(7, [])
    sliced = stepped.in_slices(inner, 3.0, clock)
    next(sliced)
    sliced.close()
    assert inner.gi_frame is None

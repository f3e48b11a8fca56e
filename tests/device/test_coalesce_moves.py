"""Pen moves are cut to the last of each run before they reach the device
(events.coalesce_moves, used by event scripts; the window keeps one per frame)."""

from __future__ import annotations

import itertools
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from palmish.device.events import Key, KeyDown, PenDown, PenMove, PenUp, coalesce_moves
from palmish.device.scripting.eventscript import Wait, parse_script, run_script

POINTS = st.tuples(st.integers(0, 9), st.integers(0, 9))
EVENTS = st.lists(st.one_of(
    POINTS.map(lambda p: PenMove(*p)),
    POINTS.map(lambda p: PenDown(*p)),
    POINTS.map(lambda p: PenUp(*p)),
    st.just(KeyDown(Key.UP)),
    st.integers(0, 50).map(Wait),
), max_size=40)


@given(EVENTS)
def test_each_run_of_moves_becomes_its_last_move(events: list[Any]) -> None:
    out = list(coalesce_moves(events))
    # Everything but the moves is kept, in order.
    assert [e for e in out if not isinstance(e, PenMove)] == [
        e for e in events if not isinstance(e, PenMove)]
    # No two moves in a row; each kept move is the last of a run in the input.
    assert not any(isinstance(a, PenMove) and isinstance(b, PenMove)
                   for a, b in itertools.pairwise(out))
    runs = [e for i, e in enumerate(events) if isinstance(e, PenMove)
            and (i + 1 == len(events) or not isinstance(events[i + 1], PenMove))]
    assert [e for e in out if isinstance(e, PenMove)] == runs


def test_a_scripted_drag_reaches_the_app_as_its_last_point(
    make_device: Any, recording_app: Any
) -> None:
    device = make_device("square")
    run_script(device, parse_script("drag 0 0 100 50 500\npen-down 5 5\npen-move 6 6\n"
                                    "wait 10\npen-move 7 7\npen-move 8 8\npen-up 8 8\n"))
    assert recording_app.of_type(PenMove) == [PenMove(100, 50), PenMove(6, 6), PenMove(8, 8)]
    assert recording_app.of_type(PenUp) == [PenUp(100, 50), PenUp(8, 8)]

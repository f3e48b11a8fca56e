"""Issue 41: 100,000 scripted `rotate` lines took over 300 s. Consecutive rotations
reach the device as their parity (events.coalesce_rotations, used by event scripts),
and the device ends where every rotation, made one by one, would have left it."""

from __future__ import annotations

import itertools
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from palmish.device.display import ConfigName
from palmish.device.events import Key, KeyDown, Rotate, ToggleInputArea, coalesce_rotations
from palmish.device.scripting.eventscript import Wait, parse_script, run_script

EVENTS = st.lists(st.one_of(
    st.just(Rotate()), st.just(ToggleInputArea()), st.just(KeyDown(Key.UP)),
    st.integers(0, 50).map(Wait)), max_size=40)


@given(EVENTS)
def test_each_run_of_rotations_becomes_its_parity(events: list[Any]) -> None:
    out = list(coalesce_rotations(events))
    assert [e for e in out if not isinstance(e, Rotate)] == [
        e for e in events if not isinstance(e, Rotate)]
    assert not any(isinstance(a, Rotate) and isinstance(b, Rotate)
                   for a, b in itertools.pairwise(out))
    runs = [len(list(group)) for rotating, group in
            itertools.groupby(events, lambda e: isinstance(e, Rotate)) if rotating]
    assert sum(isinstance(e, Rotate) for e in out) == sum(n % 2 for n in runs)


# make_device makes a new device at each call: nothing carries over between examples
@settings(max_examples=30, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.sampled_from(["rotate", "input-area", "wait 5"]), max_size=12))
def test_a_script_ends_in_the_configuration_one_by_one_would(
        make_device: Any, lines: list[str]) -> None:
    scripted = make_device("tall")
    run_script(scripted, parse_script("\n".join(lines)))
    one_by_one = make_device("tall")
    for line in lines:
        run_script(one_by_one, parse_script(line))
    assert scripted.config.name is one_by_one.config.name


def test_a_hundred_thousand_rotations_leave_tall_as_it_was(make_device: Any) -> None:
    device = make_device("tall")
    run_script(device, parse_script("rotate\n" * 100_000))
    assert device.config.name is ConfigName.TALL
    run_script(device, parse_script("rotate\n" * 100_001))
    assert device.config.name is ConfigName.WIDE

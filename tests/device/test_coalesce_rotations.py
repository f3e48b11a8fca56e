"""Issue 41: 100,000 scripted `rotate` lines took over 300 s. Consecutive rotations
(and input-area toggles) reach the device as their parity (events.coalesce_toggles,
used by event scripts), and the device ends where every line, made one by one, would
have left it. The lines that still lay the screen out are bounded in number."""

from __future__ import annotations

import itertools
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from palmish.device.display import ConfigName
from palmish.device.events import Key, KeyDown, Rotate, ToggleInputArea, coalesce_toggles
from palmish.device.scripting.eventscript import (
    MAX_SCRIPT_LAYOUTS,
    ScriptError,
    Wait,
    parse_script,
    run_script,
)

EVENTS = st.lists(st.one_of(
    st.just(Rotate()), st.just(ToggleInputArea()), st.just(KeyDown(Key.UP)),
    st.integers(0, 50).map(Wait)), max_size=40)


@settings(deadline=None)  # no timings in tests: the machine may be loaded
@given(EVENTS)
def test_each_run_of_equal_toggles_becomes_its_parity(events: list[Any]) -> None:
    out = list(coalesce_toggles(events))
    toggles = (Rotate, ToggleInputArea)
    assert [e for e in out if not isinstance(e, toggles)] == [
        e for e in events if not isinstance(e, toggles)]
    for kind in toggles:
        runs = [len(list(group)) for same, group in
                itertools.groupby(events, lambda e, k=kind: isinstance(e, k)) if same]
        assert sum(isinstance(e, kind) for e in out) <= sum(n % 2 for n in runs)
        assert sum(isinstance(e, kind) for e in out) % 2 == sum(n % 2 for n in runs) % 2
    assert not any(type(a) is type(b) and isinstance(a, toggles)
                   for a, b in itertools.pairwise(out) if _adjacent(events, a, b))


def _adjacent(events: list[Any], a: Any, b: Any) -> bool:
    """Two toggles of one kind may meet in the output only where a run of the other kind
    between them cancelled out."""
    return not any(isinstance(e, (Rotate, ToggleInputArea)) and type(e) is not type(a)
                   for e in events)


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


def test_a_hundred_thousand_input_area_toggles_leave_tall_as_it_was(make_device: Any) -> None:
    device = make_device("tall")
    run_script(device, parse_script("input-area\n" * 100_000))
    assert device.config.name is ConfigName.TALL
    run_script(device, parse_script("input-area\n" * 100_001))
    assert device.config.name is ConfigName.SQUARE


@pytest.mark.parametrize("line", ["rotate\nwait 0", "input-area\nkey up", "app launcher"])
def test_lines_that_lay_the_screen_out_again_are_bounded(line: str) -> None:
    """Rotations with a wait between them cost a layout each (5-20 ms): a script of
    them would run for minutes; past the bound it is refused before it runs."""
    assert len(parse_script("\n".join([line] * MAX_SCRIPT_LAYOUTS))) >= MAX_SCRIPT_LAYOUTS
    lines_each = line.count("\n") + 1
    with pytest.raises(ScriptError) as refused:
        parse_script("\n".join([line] * (MAX_SCRIPT_LAYOUTS + 1)), "many.events")
    assert str(refused.value) == (
        f"many.events:{MAX_SCRIPT_LAYOUTS * lines_each + 1}: the script lays the screen "
        f"out again (rotate, input-area, app) more than {MAX_SCRIPT_LAYOUTS} times")

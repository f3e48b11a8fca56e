"""Gremlins: reproducible random events against the installed apps, invariants checked."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from palmish.apps import installed_apps
from palmish.device.display import CONFIGS, ConfigName
from palmish.device.events import Event, PenDown
from palmish.device.machine.app import App
from palmish.device.machine.system import Device
from palmish.device.scripting.gremlins import Gremlins, run_gremlins


def describe(result: Any) -> str:
    return f"seed {result.seed}, event {result.events}: {result.problem}\n{result.detail}"


def real_device(config: str, data: Path, cache: Path, app: str | None = None) -> Device:
    return Device(
        CONFIGS[ConfigName(config)], data, installed_apps(), app,
        report=lambda message: None, durable=False, cache_dir=cache,
    )


@pytest.mark.slow
def test_twenty_thousand_gremlins_find_nothing(tmp_path: Path, shared_cache: Path) -> None:
    device = real_device("square", tmp_path, shared_cache)
    result = run_gremlins(device, 20000, seed=2026)
    assert result.ok, describe(result)
    assert result.events == 20000


@pytest.mark.parametrize("config", ["square-low", "tall", "wide"])
def test_gremlins_in_every_configuration(config: str, tmp_path: Path, shared_cache: Path) -> None:
    device = real_device(config, tmp_path, shared_cache)
    result = run_gremlins(device, 1500, seed=11)
    assert result.ok, describe(result)


def test_the_same_seed_gives_the_same_events(make_device: Any) -> None:
    def stream(seed: int) -> list[str]:
        gremlins = Gremlins(make_device("square"), seed)
        return [repr(e) for _ in range(200) for e in gremlins.action() if not callable(e)]

    assert stream(5) == stream(5)
    assert stream(5) != stream(6)


class Crashy(App):
    name = "Crashy"
    creator = "Crsh"

    def __init__(self) -> None:
        self.downs = 0

    def handle(self, event: Event) -> None:
        if isinstance(event, PenDown):
            self.downs += 1
            if self.downs == 30:
                raise ZeroDivisionError("division by zero in the app")


def test_an_exception_is_reported_with_seed_and_event_number(make_device: Any) -> None:
    device = make_device("square", apps=[Crashy()], start="Crashy")
    result = run_gremlins(device, 5000, seed=9)
    assert not result.ok and result.seed == 9
    assert result.problem == "ZeroDivisionError: division by zero in the app"
    again = run_gremlins(make_device("square", apps=[Crashy()], start="Crashy"), 5000, seed=9)
    assert again.events == result.events  # reproducible: the same event number


class Scribbler(App):
    """Breaks an invariant: draws a region it then reports as damage off the screen."""

    name = "Scribbler"
    creator = "Scrb"

    def start(self, ctx: Any) -> None:
        self.ctx = ctx

    def handle(self, event: Event) -> None:
        if isinstance(event, PenDown):
            from palmish.device.geometry import Rect

            self.ctx.screen._damage.append(Rect(-5, 0, 10, 10))


def test_a_broken_invariant_is_reported(make_device: Any) -> None:
    device = make_device("square", apps=[Scribbler()], start="Scribbler")
    result = run_gremlins(device, 1000, seed=1)
    assert not result.ok and "InvariantBroken: damage" in result.problem

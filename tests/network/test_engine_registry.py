"""Network play found through the game registry (palmish/network/engine.py): a
game offers it by naming an engine in its descriptor, and the command line's
choices, discovery and the kept files follow with no edit in palmish/network/.
The example game of docs/adding-a-game.md, registered as a program that embeds
the emulator would (tests/guide_game.py), borrows Pachisi's engine for this: the
network only ever sees the game's id and the engine."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from zeroconf import ServiceInfo

from palmish.cli import build_parser, main
from palmish.games import GameDescriptor, games, network_games, register, unregister
from palmish.network import keep
from palmish.network.discovery import SERVICE_TYPE, game_from_info
from palmish.network.engine import NetworkEngine, engine_for
from tests.guide_game import embedded

BORROWED = "palmish.pachisi.net.engine:ENGINE"


@pytest.fixture(scope="module")
def toy(tmp_path_factory: pytest.TempPathFactory) -> Iterator[GameDescriptor]:
    yield from embedded(tmp_path_factory.mktemp("embedded"))


@pytest.fixture
def networked_toy(toy: GameDescriptor) -> Iterator[GameDescriptor]:
    register(toy._replace(network=BORROWED))
    yield toy
    unregister(toy.id)


def advert(app: str) -> ServiceInfo:
    return ServiceInfo(SERVICE_TYPE, f"x.{SERVICE_TYPE}", port=40731,
                       properties={"app": app, "v": "2", "table": "Kitchen"},
                       parsed_addresses=["192.0.2.7"])


def host_choices(capsys: pytest.CaptureFixture[str]) -> list[str]:
    """The games `palmish host --help` offers for --app."""
    with pytest.raises(SystemExit):
        build_parser().parse_args(["host", "--help"])
    usage = capsys.readouterr().out
    return usage.split("--app {", 1)[1].split("}", 1)[0].split(",")


def test_the_network_games_are_those_whose_descriptor_names_an_engine() -> None:
    assert [g.id for g in network_games()] == [g.id for g in games() if g.network is not None]
    for game in games():
        if game.network is None:
            with pytest.raises(ValueError, match=f"no network game '{game.id}'"):
                engine_for(game.id)
        else:
            assert isinstance(engine_for(game.id), NetworkEngine)


def test_a_descriptor_with_an_engine_is_offered_everywhere(
        networked_toy: GameDescriptor, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    toy = networked_toy
    assert toy.id in host_choices(capsys)
    assert isinstance(engine_for(toy.id), NetworkEngine)
    found = game_from_info(advert(toy.id))
    assert found is not None and found.app == toy.id
    keep.save_host_game(tmp_path, toy.id, {"v": 1})
    assert (tmp_path / "network" / "keys" / f"host-{toy.id}.json").is_file()
    assert keep.load_host_game(tmp_path, toy.id) == {"v": 1}


def test_without_its_engine_the_game_is_offered_nowhere(
        toy: GameDescriptor, capsys: pytest.CaptureFixture[str]) -> None:
    register(toy)
    try:
        assert toy.id not in host_choices(capsys)
        assert game_from_info(advert(toy.id)) is None
        with pytest.raises(ValueError):
            engine_for(toy.id)
    finally:
        unregister(toy.id)


def test_a_network_target_that_is_not_module_name_is_a_bad_descriptor(
        toy: GameDescriptor) -> None:
    assert toy._replace(network="no colon").problems() == [
        "network 'no colon' is not 'module:name': write the module's dotted name, a colon"
        " and the name in it"]


@pytest.mark.parametrize(("argv", "says"), [
    (["host", "--app", "pachisi", "--seats", "remote"], "argument --seats: Pachisi needs 2 to 4"),
    (["host", "--app", "pachisi", "--seats", "remote,robot"], "argument --seats: seat 'robot'"),
    (["join", "127.0.0.1:9", "--code", "1234", "--name", "a b"], "argument --name: 'a b' is not"),
    (["join", "127.0.0.1:9", "--code", "1234", "--name", ""], "argument --name: '' is not"),
])
def test_the_engine_checks_seats_and_names_as_usage_errors(
        argv: list[str], says: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as done:
        main(argv)
    err = capsys.readouterr().err
    assert done.value.code == 2 and says in err and "Traceback" not in err

"""Network play found through the game registry (palmish/network/engine.py): a
game offers it by naming an engine in its descriptor, and the command line's
choices, discovery and the kept files follow with no edit in palmish/network/.
The toy game (tests/toygame) borrows Pachisi's engine for this: the network
only ever sees the game's id and the engine."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from zeroconf import ServiceInfo

from palmish.cli import build_parser, main
from palmish.games import games, network_games, register, unregister
from palmish.network import keep
from palmish.network.discovery import SERVICE_TYPE, game_from_info
from palmish.network.engine import NetworkEngine, engine_for
from tests.toygame.descriptor import GAME as TOY

BORROWED = "palmish.pachisi.net.engine:ENGINE"


@pytest.fixture
def networked_toy() -> Iterator[None]:
    register(TOY._replace(network=BORROWED))
    yield
    unregister(TOY.id)


def advert(app: str) -> ServiceInfo:
    return ServiceInfo(SERVICE_TYPE, f"x.{SERVICE_TYPE}", port=40731,
                       properties={"app": app, "v": "1", "table": "Kitchen"},
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
        networked_toy: None, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert TOY.id in host_choices(capsys)
    assert isinstance(engine_for(TOY.id), NetworkEngine)
    found = game_from_info(advert(TOY.id))
    assert found is not None and found.app == TOY.id
    keep.save_host_game(tmp_path, TOY.id, {"v": 1})
    assert (tmp_path / "network" / f"host-{TOY.id}.json").is_file()
    assert keep.load_host_game(tmp_path, TOY.id) == {"v": 1}


def test_without_its_engine_the_game_is_offered_nowhere(
        capsys: pytest.CaptureFixture[str]) -> None:
    register(TOY)
    try:
        assert TOY.id not in host_choices(capsys)
        assert game_from_info(advert(TOY.id)) is None
        with pytest.raises(ValueError):
            engine_for(TOY.id)
    finally:
        unregister(TOY.id)


def test_a_network_target_that_is_not_module_name_is_a_bad_descriptor() -> None:
    assert TOY._replace(network="no colon").problems() == [
        "network 'no colon' is not 'module:name'"]


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

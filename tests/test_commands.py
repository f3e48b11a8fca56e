"""palmish/commands/: the table of commands, what a start imports, each kind of
option value checked one way, and the games' choices read from the registry
(docs/architecture.md, "The command line")."""

from __future__ import annotations

import argparse
import importlib
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from palmish.cli import build_parser, main
from palmish.commands import args
from palmish.commands.main import commands
from palmish.device.addresses import is_port, parse_address, parse_port
from palmish.device.exchange import BeamItem, Checked
from palmish.games import GameDescriptor, games, register, unregister
from tests.guide_game import embedded
from tests.network.processes import free_port


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    try:
        status = main(list(argv))
    except SystemExit as exit_:  # argparse: usage errors and --help
        status = int(exit_.code or 0)
    out, err = capsys.readouterr()
    return status, out, err


# ------------------------------------------------------------- the table


def test_every_command_is_a_module_with_its_options(capsys: pytest.CaptureFixture[str]) -> None:
    listed = run(capsys, "--help")[1]
    for command in commands():
        module = importlib.import_module(f"palmish.commands.{command.name}")
        assert callable(module.add_arguments) and callable(module.run)
        assert command.name in listed
        status, out, _ = run(capsys, command.name, "--help")
        assert status == 0 and out.startswith(f"usage: palmish {command.name} ")


@pytest.mark.process
@pytest.mark.parametrize(("argv", "modules"), [
    (["plugins"], ["plugins"]),
    (["--screenshot", "{data}/x.png"], ["screenshot"]),
    (["receive", "--paired"], ["receive", "plugins"]),
])
def test_a_start_imports_the_command_it_runs_and_no_other(
        argv: list[str], modules: list[str], tmp_path: Path) -> None:
    """What every start imports, and the command's own modules: no other command's,
    and no network (nor asyncio) for a command that does not use it."""
    code = (
        "import sys\n"
        "from palmish.cli import main\n"
        f"status = main({[a.replace('{data}', str(tmp_path)) for a in argv]!r}"
        f" + ['--data-dir', {str(tmp_path)!r}])\n"
        "print(status, ','.join(sorted(m for m in sys.modules if m.startswith('palmish.comm'))),"
        " 'asyncio' in sys.modules, any(m.startswith('palmish.network') for m in sys.modules))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120, check=False)
    status, imported, with_asyncio, with_network = done.stdout.splitlines()[-1].split()
    always = ["args", "game_options", "main", "output", "start"]
    assert status == "0", done.stderr
    assert imported.split(",") == sorted(
        ["palmish.commands", *(f"palmish.commands.{m}" for m in [*always, *modules])])
    network = argv[0] == "receive"
    assert (with_asyncio, with_network) == (str(network), str(network))


# ------------------------------------------------------------- one check each


@pytest.mark.parametrize(("text", "listening", "port"), [
    ("1", False, 1), ("65535", False, 65535), ("0", True, 0), ("00080", False, 80),
])
def test_a_port_is_ascii_digits_in_range(text: str, listening: bool, port: int) -> None:
    assert parse_port(text, listening) == port
    assert is_port(port) == (port != 0)


@pytest.mark.parametrize(("text", "listening", "says"), [
    ("0", False, "'0' is not a port (1-65535)"),
    ("65536", True, "'65536' is not a port (0-65535)"),
    ("-1", True, "'-1' is not a port (0-65535)"),
    ("+80", False, "'+80' is not a port (1-65535)"),
    (" 80", False, "' 80' is not a port (1-65535)"),
    ("\u00b2", False, "'\u00b2' is not a port (1-65535)"),  # a digit to isdigit(), not to int()
    ("9" * 5000, True, "is not a port (0-65535)"),  # no int() of 5,000 digits
])
def test_a_bad_port_is_said_one_way(text: str, listening: bool, says: str) -> None:
    with pytest.raises(ValueError) as refused:
        parse_port(text, listening)
    assert says in str(refused.value)
    if listening:  # the options that listen: the same words, as a usage error
        with pytest.raises(argparse.ArgumentTypeError, match="is not a port \\(0-65535\\)"):
            args.listen_port(text)


def test_an_address_says_its_port_as_a_port_does() -> None:
    assert parse_address("[::1]:40731") == ("::1", 40731)
    assert parse_address("den.local:1") == ("den.local", 1)
    for text, says in (("h:70000", "'h:70000': '70000' is not a port (1-65535)"),
                       ("h:0", "'h:0': '0' is not a port (1-65535)"),
                       ("h:\u0664\u0660", "is not HOST:PORT"),  # Arabic-Indic digits
                       ("nowhere", "'nowhere' is not HOST:PORT")):
        with pytest.raises(argparse.ArgumentTypeError, match=re.escape(says)):
            args.address(text)


@pytest.mark.parametrize(("check", "text", "says"), [
    (args.code, "12a4", "'12a4' is not a four-digit code"),
    (args.code, "12345", "'12345' is not a four-digit code"),
    (args.code, "\u0661234", "is not a four-digit code"),
    (args.number, "2147483648", "'2147483648' is not a number (0 to 2147483647)"),
    (args.number, "\u00b2", "is not a number (0 to 2147483647)"),
    (args.seconds, "86401", "86401 seconds is out of range (0-86400)"),
    (args.positive, "0", "0 must be 1 or more"),
    (args.handheld_name, "a\x1bb", "is not a handheld's name"),
])
def test_each_kind_of_value_has_one_check(check: object, text: str, says: str) -> None:
    assert callable(check)
    with pytest.raises(argparse.ArgumentTypeError, match=re.escape(says)):
        check(text)


def test_a_code_is_the_same_check_wherever_it_is_given(capsys: pytest.CaptureFixture[str]
                                                        ) -> None:
    to = ["--to", "127.0.0.1:1"]
    lines = [run(capsys, *argv)[2].splitlines()[-1] for argv in (
        ["host", "--app", "pachisi", "--code", "12a4"],
        ["join", "127.0.0.1:1", "--name", "Ann", "--code", "12a4"],
        ["beam", "--deal", "1", *to, "--code", "12a4"])]
    assert {line.split(": ", 1)[1] for line in lines} == {
        "error: argument --code: '12a4' is not a four-digit code"}


# ------------------------------------------------------------- from the registry


class ToyBeam:
    """A game's Beamable with a kind by number (`puzzle`) and one by file (`pattern`)."""

    def kinds(self) -> tuple[str, ...]:
        return ("puzzle", "pattern")

    def number_kinds(self) -> tuple[str, ...]:
        return ("puzzle",)

    def item_from_file(self, path: Path) -> BeamItem | None:
        return None

    def check_database(self, data: bytes) -> Checked | None:
        return None


TOY_BEAM = ToyBeam()
CLASHING_BEAM = type("Clash", (ToyBeam,), {"number_kinds": lambda self: ("to",),
                                           "kinds": lambda self: ("to",)})()


def takes_nothing(path: Path, files: Path, durable: bool) -> str | None:
    return None  # none of the toy's files: a plugin, then


@pytest.fixture(scope="module")
def lamps(tmp_path_factory: pytest.TempPathFactory) -> Iterator[GameDescriptor]:
    """The guide's example game (docs/adding-a-game.md), importable, not registered."""
    yield from embedded(tmp_path_factory.mktemp("embedded"))


@pytest.fixture
def toy_beams(lamps: GameDescriptor) -> Iterator[None]:
    register(lamps._replace(beam="tests.test_commands:TOY_BEAM",
                            installer="tests.test_commands:takes_nothing"))
    yield
    unregister(lamps.id)


def test_beam_offers_the_kinds_the_games_beam(toy_beams: None,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "beam", "--help")
    text = " ".join(out.split())
    assert status == 0
    assert "--puzzle N a Lamps puzzle" in text and "--deal N a PalmIshido deal" in text
    assert "a plugin (.prc) or a Sigmar's Garden level or a Lamps pattern" in text
    listed = " ".join(run(capsys, "--help")[1].split())
    assert ("beam a plugin, a deal, a board, a level, a hexboard, a puzzle or a pattern to"
            " another") in listed
    port = free_port()  # nothing listens there: the item was made, then not sent
    assert run(capsys, "beam", "--puzzle", "7", "--to", f"127.0.0.1:{port}") == (
        1, "", f"palmish: cannot reach 127.0.0.1:{port}: nothing receives there\n")


def test_a_beamed_kind_that_is_an_option_is_one_line(
    lamps: GameDescriptor, capsys: pytest.CaptureFixture[str]
) -> None:
    register(lamps._replace(beam="tests.test_commands:CLASHING_BEAM"))
    try:
        assert run(capsys, "beam", "--to", "127.0.0.1:1", "x.prc") == (
            1, "", "palmish: a game cannot be listed: a kind a game beams is an option of"
                   " palmish beam's own (argument --to: conflicting option string: --to)\n")
    finally:
        unregister(lamps.id)


def test_install_names_the_games_that_install_files(toy_beams: None, tmp_path: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    junk = tmp_path / "junk.bin"
    junk.write_bytes(b"not a database")
    status, _, err = run(capsys, "install", str(junk), "--data-dir", str(tmp_path / "d"))
    installers = ", ".join(g.name for g in games() if g.installer is not None)
    assert "Lamps" in installers
    assert status == 1 and err.startswith(
        f"palmish: {junk} is not a Palm database (.prc) or a file of {installers}: ")
    assert installers in " ".join(build_parser().format_help().split())

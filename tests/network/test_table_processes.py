"""Rematches and leaving between separate processes over loopback (docs/network.md,
"At the table"): `palmish host --games N` proposes a rematch after each game,
`palmish join --auto --games N` says yes until it has played N, then leaves."""

from __future__ import annotations

from pathlib import Path

import pytest

from palmish.pachisi.game import Game
from tests.network.processes import host, join

pytestmark = pytest.mark.process  # every test here starts another program


def records(process: object) -> list[str]:
    lines = [line.removeprefix("record: ") for line in process.out_lines  # type: ignore[attr-defined]
             if line.startswith("record: ")]
    for record in lines:
        assert Game.from_record(record).over
    return lines


def test_two_games_at_one_table_every_device_the_same_records(tmp_path: Path) -> None:
    server, port, code = host(tmp_path / "host", "--seats", "remote,computer,remote",
                              "--games", "2", "--wait", "20")
    ann = join(port, code, "Ann", tmp_path / "ann", "--games", "2")
    bob = join(port, code, "Bob", tmp_path / "bob", "--games", "2")
    try:
        assert server.finish() == 0, server.err_lines
        assert ann.finish() == 0 and bob.finish() == 0, (ann.err_lines, bob.err_lines)
        games = records(server)
        assert len(games) == 2 and games[0] != games[1]
        assert records(ann) == records(bob) == games
        for joiner in (ann, bob):
            assert joiner.err_lines.count("palmish join: dice: verified") == 2
            assert "palmish join: The host proposes a rematch" in joiner.err_lines
            assert "palmish join: The rematch is on" in joiner.err_lines
        assert any(line.endswith("Ann: yes") for line in server.err_lines)
        assert "palmish host: The rematch is on" in server.err_lines
    finally:
        for p in (server, ann, bob):
            p.kill()


def test_a_joiner_that_wants_one_game_leaves_and_its_seat_goes_to_silicon(
        tmp_path: Path) -> None:
    server, port, code = host(tmp_path / "host", "--seats", "remote,remote",
                              "--games", "2", "--leavers", "silicon", "--wait", "20")
    ann = join(port, code, "Ann", tmp_path / "ann", "--games", "2")
    bob = join(port, code, "Bob", tmp_path / "bob")  # one game, then it leaves
    try:
        assert bob.finish() == 0, bob.err_lines
        assert server.finish() == 0, server.err_lines
        assert ann.finish() == 0, ann.err_lines
        first, second = records(server)
        assert records(bob) == [first]
        assert records(ann) == [first, second]
        players = first.split(" players=")[1].split(" ")[0]  # (who sat first: either)
        assert sorted(players.split(",")) == ["Ann:h", "Bob:h"]
        assert second.split(" players=")[1].split(" ")[0] == players.replace("Bob:h",
                                                                               "Silicon:c")
        assert "palmish join: Bob left the table; the seat is Silicon" in ann.err_lines
    finally:
        for p in (server, ann, bob):
            p.kill()


def test_one_game_tables_end_as_before_with_the_tables_bye(tmp_path: Path) -> None:
    server, port, code = host(tmp_path / "host", "--seats", "remote,computer")
    ann = join(port, code, "Ann", tmp_path / "ann", "--games", "3")  # the host closes first
    try:
        assert server.finish() == 0, server.err_lines
        assert ann.finish() == 0, ann.err_lines
        assert records(ann) == records(server)
        assert "palmish join: the host says: the table is closed" in ann.err_lines
    finally:
        for p in (server, ann):
            p.kill()


async def _talker(port: int, code: str) -> list[str]:
    """A seated peer of table level 1 that says free text, an unknown message and
    five canned ones at once, then leaves: the errors it was sent."""
    from palmish.network.fairdice import JoinerDice
    from palmish.network.session import dice
    from palmish.network.session.handshake import connect
    from palmish.network.session.identity import Identity, prove_seat
    from palmish.network.session.kinds import FROM_SERVER, Error, Join
    from palmish.network.session.talk import TABLE_LEVEL, Leave, Say
    from palmish.pachisi.net import messages

    session = await connect("127.0.0.1", port, app="pachisi", identity=Identity.new(),
                            code=code, hears=FROM_SERVER + dice.FROM_HOST + messages.FROM_HOST)
    assert session.peer is not None and session.peer.scope is not None
    part = JoinerDice()
    session.send(Join("Eve", seat=prove_seat(Identity.new(), session.peer.scope,
                                             session.exporter),
                      dice=part.commitment, table=TABLE_LEVEL))
    errors: list[str] = []
    started = False
    try:
        for _ in range(10_000):  # bounded: the dice round, then the messages' answers
            record = await session.receive()
            assert record is not None, errors
            if record.KIND == "welcome":
                part.welcome(getattr(record, "dice", None))
            reply = part.take(record, live=not started)
            if reply is not None:
                session.send(reply)
            if record.KIND == "game" and not started:
                started = True
                for msg in ("hello there", "shout", *["good-luck"] * 5):
                    session.send(Say(msg))
            if isinstance(record, Error):
                errors.append(record.text)
            if len(errors) == 4:
                session.send(Leave())  # Silicon plays Eve's seat to the end
                await session.drain()
                return errors
    finally:
        await session.close()
    raise AssertionError(f"not every answer came: {errors}")


def test_free_text_unknown_and_too_many_messages_are_refused_and_the_game_goes_on(
        tmp_path: Path) -> None:
    import asyncio

    from palmish.network.deadline import within

    server, port, code = host(tmp_path / "host", "--seats", "remote,computer")
    try:
        errors = asyncio.run(within(_talker(port, code), 60))
        assert errors == ["no table message 'hello there'", "no table message 'shout'",
                          *["at most 3 table messages in 10 s; wait a moment"] * 2]
        assert server.finish() == 0, server.err_lines  # the game went on to its end
        record = records(server)[0]
        assert "players=Eve:h,Silicon:c " in record
        assert server.err_lines.count("palmish host: Eve: Good luck!") == 3
        assert not any("dropped peer" in line for line in server.err_lines)
    finally:
        server.kill()

"""Joining a table (docs/network.md, "Headless commands", "Trouble"): the one
joiner of protocol version 2, for `palmish join` and the window alike.

`Joiner.run` keeps a session with the host: the first time with the join code
(the password of the key exchange), later by keys when this data folder met
that host before (a player coming back is then never locked out by
strangers' guesses), and proves its seat with the seat key of that table
(never sent). Every record the host sends goes to a `JoinSink`, decoded
once: the headless one (`MirrorSink`) drives the game's mirror and Silicon
with `--auto`; the window's posts device events (palmish/network/bridge.py).
When the host goes away it tries again for `comeback_s`.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

from palmish.network.engine import HostError, Mirror, engine_for
from palmish.network.fairdice import JoinerDice
from palmish.network.session import crypto, dice
from palmish.network.session.channel import Session, SessionError
from palmish.network.session.handshake import (
    HandshakeError,
    LockedOut,
    NotTrusted,
    OldPeer,
    Refusal,
    WrongCode,
    connect,
)
from palmish.network.session.identity import Identity, load_identity, prove_seat
from palmish.network.session.kinds import FROM_SERVER, Bye, Join
from palmish.network.session.kinds import Refused as RefusedRecord
from palmish.network.session.peers import KnownPeers
from palmish.network.session.records import Record
from palmish.network.session.talk import TABLE_LEVEL, Leave

RETRY_S = 0.5
LOCKED_RETRY_S = 1.0
WRONG_CODE = "wrong join code"  # (or someone between changed the handshake: the same to us)
HOSTS_FILE = "hosts"  # the hosts this data folder met, by address (DIR/network/keys/hosts)


class Refused(Exception):
    """The host refused this joiner (the host's one line)."""


class _NotKnownThere(Exception):
    """A session by keys that the host does not take (not seated there): use the code."""


@dataclass
class JoinRequest:
    host: str
    port: int
    code: str
    name: str | None  # None: watch
    level: str | None = None  # Silicon plays the seat at this level (--auto)
    comeback_s: float = 60.0  # how long to keep trying when the host is gone
    app: str = field(kw_only=True)  # the game's id (a network game of the registry)
    data_dir: Path | None = field(default=None, kw_only=True)  # the identity's, the hosts'

    @property
    def where(self) -> str:
        return f"[{self.host}]:{self.port}" if ":" in self.host else f"{self.host}:{self.port}"


class JoinSink(Protocol):
    """Where a joiner's records go."""

    @property
    def done(self) -> bool:
        """The game ended here: stop."""

    def take(self, record: Record) -> Sequence[Record]:
        """A record of the host (not a ping, bye or refusal); what to answer.
        HostError when the host cannot be trusted."""

    def lost(self, line: str) -> None:
        """The link broke; the joiner tries again."""

    @property
    def finished(self) -> bool:
        """A game ended here: the host's `bye` now closes the table (no retry)."""

    def closed(self, text: str) -> None:
        """The host closed the table after a game (its `bye`)."""


Ended = Callable[[str, str], None]  # a game's record and the dice's verdict


class MirrorSink:
    """The headless joiner: the game's mirror, and Silicon at `level` (--auto),
    for `games` games at the table (a rematch proposed is answered yes until
    then); the table's lines are logged, each game's end told to `ended`."""

    def __init__(self, mirror: Mirror, level: str | None, log: Callable[[str], None],
                 games: int = 1, ended: Ended | None = None) -> None:
        self.mirror, self.level, self.log = mirror, level, log
        self.games, self.ended = games, ended
        self._asked_at: int | None = None  # the step count when Silicon last asked
        self._told = 0  # table lines logged
        self._closed = False

    @property
    def done(self) -> bool:
        return self.mirror.record is not None and (
            self.mirror.games >= self.games or self._closed)

    @property
    def finished(self) -> bool:
        return self.mirror.record is not None

    def closed(self, text: str) -> None:
        self.log(f"the host says: {text}")
        self._closed = True

    def take(self, record: Record) -> Sequence[Record]:
        mirror = self.mirror
        games = mirror.games
        mirror.receive(record)
        out = list(mirror.outbox)
        mirror.outbox.clear()
        new = min(mirror.lines_said - self._told, len(mirror.table_lines))
        for line in mirror.table_lines[len(mirror.table_lines) - new:]:
            self.log(line)
        self._told = mirror.lines_said
        if record.KIND == "error":
            self.log(f"the host says: {getattr(record, 'text', '')}")
        if mirror.games > games and self.ended is not None:
            assert mirror.record is not None and mirror.verdict is not None
            self.ended(mirror.record, mirror.verdict)
        if mirror.record is not None and mirror.talks:
            if mirror.games >= self.games:
                if mirror.seat is not None:  # no more games: the seat is not kept waiting
                    out.append(Leave())
            elif mirror.vote is not None and not mirror.answered:
                out.append(mirror.again(True))
        if record.KIND in ("error", "welcome", "rematch"):  # ask again (a new game too)
            self._asked_at = None
        if (self.level is not None and mirror.my_turn and mirror.record is None
                and self._asked_at != len(mirror.steps)):
            out.append(mirror.silicon_intent(self.level))
            self._asked_at = len(mirror.steps)
        return out

    def lost(self, line: str) -> None:
        self.log(line)

class Joiner:
    """One joiner's link to a host, kept up until the game ends."""

    def __init__(self, request: JoinRequest, sink: JoinSink, log: Callable[[str], None],
                 dice_part: JoinerDice) -> None:
        self.request, self.sink, self.log = request, sink, log
        self.dice = dice_part
        self.identity = (load_identity(request.data_dir, log) if request.data_dir is not None
                         else Identity.new())
        self.hosts = (KnownPeers(request.data_dir, HOSTS_FILE, log)
                      if request.data_dir is not None else None)
        engine = engine_for(request.app)
        self.hears = FROM_SERVER + dice.FROM_HOST + engine.from_host
        self.session: Session | None = None
        self.connected = False  # a session was made at least once
        self._pakes = crypto.PakeSupply(request.code, True, request.app)
        self._stopped = False
        self._by_code = False  # the host refused our keys: the code this time

    # ------------------------------------------------------------ the loop

    async def run(self) -> None:
        """Until the sink is done; Refused, HostError or OSError with one line."""
        lost_at: float | None = None
        locked = False  # said once per lockout
        while not self._stopped:
            try:
                session = await self._connect()
            except (OSError, HandshakeError) as err:
                if isinstance(err, Refusal):
                    raise Refused(str(err)) from None
                if isinstance(err, WrongCode):  # never another guess on its own
                    raise Refused(WRONG_CODE) from None
                if isinstance(err, OldPeer):
                    raise OSError(str(err)) from None
                if not self.connected and not isinstance(err, LockedOut):
                    raise OSError(self._why(err)) from None  # nothing to come back to
                lost_at = lost_at or time.monotonic()
                left = self.request.comeback_s - (time.monotonic() - lost_at)
                if left <= 0:
                    raise OSError(f"the host at {self.request.where} did not come back: {err}"
                                  ) from None
                wait = RETRY_S
                if isinstance(err, LockedOut):
                    # Tries still in their handshake count until they prove their code
                    # (several joiners at once from one address): ask again soon.
                    if not locked:
                        self.log(f"{self.request.where}: {err}; trying again")
                    locked = True
                    wait = min(float(err.retry_s), LOCKED_RETRY_S, left)
                await asyncio.sleep(wait)
                self._pakes.refill()
                continue
            self.connected, locked = True, False
            try:
                progressed = await self._play(session)
            except _NotKnownThere:
                self._by_code = True  # at once, with the code
                continue
            finally:
                self.session = None
                await session.close()
            if self.sink.done or self._stopped:
                return
            self.sink.lost(f"the host at {self.request.where} is gone; waiting for it")
            if progressed or lost_at is None:  # a session that went nowhere counts on
                lost_at = time.monotonic()
            if time.monotonic() - lost_at > self.request.comeback_s:
                raise OSError(f"the host at {self.request.where} did not come back")
            await asyncio.sleep(RETRY_S)
            self._pakes.refill()

    async def _connect(self) -> Session:
        """A session: by keys when this folder met the host, else with the code."""
        request = self.request
        known = None if self._by_code else self._known_host()
        if known is not None:
            try:
                return await connect(request.host, request.port, app=request.app,
                                     identity=self.identity, trusts=known.__eq__,
                                     hears=self.hears)
            except (NotTrusted, Refusal) as err:
                if isinstance(err, Refusal) and err.why != "key":
                    raise
                # not (or no longer) known there: the code, like a first meeting
        session = await connect(request.host, request.port, app=request.app,
                                identity=self.identity, code=request.code, hears=self.hears,
                                pake=self._pakes)
        if self.hosts is not None and session.peer is not None:
            self.hosts.remember(session.peer.key, self._host_name())
        self._by_code = False  # seated now: next time by keys
        return session

    def _why(self, err: Exception) -> str:
        """One line: a handshake's own, or the socket's trouble with the address."""
        if isinstance(err, HandshakeError) or str(err).startswith("cannot reach"):
            return str(err)
        reason = err.strerror if isinstance(err, OSError) and err.strerror else str(err)
        return f"cannot reach {self.request.where}: {reason}"

    def _host_name(self) -> str:
        return f"{self.request.app} {self.request.where}"[:40]

    def _known_host(self) -> bytes | None:
        if self.hosts is None:
            return None
        for known in self.hosts.known:
            if known.name == self._host_name():
                return known.key
        return None

    async def _play(self, session: Session) -> bool:
        """One session: the join, then the host's records until it ends or breaks;
        whether the game went on in it (a record taken)."""
        request = self.request
        assert session.peer is not None
        if request.name is None:
            session.send(Join(watch=True, table=TABLE_LEVEL))
        else:
            if session.peer.scope is None:
                raise HostError(f"{request.where} names no table to sit at")
            proof = prove_seat(self.identity, session.peer.scope, session.exporter)
            session.send(Join(request.name, seat=proof, dice=self.dice.commitment,
                              table=TABLE_LEVEL))
        self.session = session
        pinger = asyncio.ensure_future(session.keep_alive())
        progressed = False
        try:
            while not self.sink.done:
                try:
                    record = await session.receive()
                except SessionError as err:
                    self.log(f"{request.where}: {err}")
                    return progressed
                if record is None:
                    return progressed
                if isinstance(record, RefusedRecord):
                    if record.why == "key" and session.peer.mode == "key":
                        raise _NotKnownThere()
                    raise Refused(record.reason)
                if isinstance(record, Bye):
                    if self.sink.finished:  # after a game: the host closed the table
                        self.sink.closed(record.text)
                        self._stopped = True
                    else:
                        self.log(f"the host says: {record.text}")
                    return progressed
                for answer in self.sink.take(record):
                    session.send(answer)
                progressed = progressed or record.KIND != "welcome"
            return progressed
        finally:
            pinger.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await pinger

    # ------------------------------------------------------------ from outside

    def send(self, record: Record) -> None:
        """A record to the host now, if connected (on the loop's thread)."""
        if self.session is not None:
            with contextlib.suppress(SessionError):
                self.session.send(record)

    def stop(self) -> None:
        self._stopped = True
        if self.session is not None:
            self.session.writer.close()


async def join_table(request: JoinRequest, log: Callable[[str], None],
                     mirror: Mirror | None = None, games: int = 1,
                     ended: Ended | None = None) -> tuple[str, str]:
    """Play (or watch) `games` games at the table (its rematches; fewer when the
    host closes it): the last record and the dice's verdict, each game's told
    to `ended`. Refused, HostError or OSError with one line when it cannot."""
    dice_part = JoinerDice(contribute=request.name is not None)
    mirror = mirror or engine_for(request.app).new_mirror(dice_part)
    sink = MirrorSink(mirror, request.level, log, games, ended)
    await Joiner(request, sink, log, mirror.dice).run()
    assert mirror.record is not None and mirror.verdict is not None
    return mirror.record, mirror.verdict


async def first_answer(request: JoinRequest, log: Callable[[str], None]) -> JoinerDice:
    """Join once and read the answer: Refused, HostError or OSError when the
    window would only show trouble. The seat stays this device's: its dice part
    is returned for the window's join, since a join that fills the last seat
    opens the dice round with this part's commitment at once."""
    sink = _FirstAnswer()
    dice_part = JoinerDice(request.name is not None)
    joiner = Joiner(request, sink, log, dice_part)
    for _ in range(2):  # by keys, and with the code if the host does not know ours
        try:
            session = await joiner._connect()
        except Refusal as err:
            raise Refused(str(err)) from None
        except WrongCode:
            raise Refused(WRONG_CODE) from None
        except (HandshakeError, OSError) as err:
            raise OSError(joiner._why(err)) from None
        try:
            await joiner._play(session)
            break
        except _NotKnownThere:
            joiner._by_code = True
        finally:
            await session.close()
    if not sink.welcomed:
        raise OSError(f"the host at {request.where} closed the connection")
    return dice_part


class _FirstAnswer:
    """Stops at the welcome."""

    def __init__(self) -> None:
        self.welcomed = False

    @property
    def done(self) -> bool:
        return self.welcomed

    def take(self, record: Record) -> Sequence[Record]:
        self.welcomed = self.welcomed or record.KIND == "welcome"
        return ()

    def lost(self, line: str) -> None:
        """Not asked: one connection only."""

    @property
    def finished(self) -> bool:
        return False

    def closed(self, text: str) -> None:
        """Not asked: it stops at the welcome."""

"""Opening a session (docs/network-session.md, "Handshake"): the client's
`connect`, the server's `accept`.

    client                                   server
    hello line (v, app, auth, nonce)  ->
    pake or dh frame                  ->     <- hello line (v, app, nonce)
                                             <- pake or dh frame
                                             <- sealed auth (id, sig, scope)
    sealed auth (id, sig)             ->

In code mode the frames carry SPAKE2 messages made with the code; in key
mode ephemeral X25519 keys, and each side's identity must be one the other
trusts (paired). The keys come from the shared secret and the hash of the
four handshake messages (crypto.session_keys). The first sealed frame each
way confirms the key: a wrong code fails to open the server's auth, at once.
Every failure is one exception with one line (HandshakeError and its kinds)
on the client, one log line and None on the server; never a traceback.
"""

from __future__ import annotations

import asyncio
import contextlib
import math
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from palmish.network.deadline import within
from palmish.network.session import crypto
from palmish.network.session.channel import Peer, Session, SessionError, Tampered
from palmish.network.session.frames import (
    HANDSHAKE_LIMIT,
    Closed,
    FrameError,
    claimed_version,
    frame,
    read_frame,
    read_line,
)
from palmish.network.session.guesses import Guesses, Ticket, source_of
from palmish.network.session.identity import Identity
from palmish.network.session.kinds import (
    AUTH,
    CLIENT_HELLO,
    CODE_AUTH,
    FROM_CLIENT,
    FROM_SERVER,
    HANDSHAKE,
    KEY_AUTH,
    NONCE_BYTES,
    SERVER_HELLO,
    VERSION,
    Auth,
    Dh,
    Hello,
    Lockout,
    Pake,
    Refused,
    ServerHello,
)
from palmish.network.session.records import MessageError, Record, Vocabulary

if TYPE_CHECKING:
    from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey

HANDSHAKE_S = 5.0  # from the connection to the session, at most
CONNECT_S = 5.0
AUTH_LIMIT = 512  # a sealed auth record
PREPARE_AFTER_S = 0.1
SERVER_SIGNS = crypto.LABEL + b"server auth\0"
CLIENT_SIGNS = crypto.LABEL + b"client auth\0"
OLD_PEER = "this handheld speaks network version 2; update palmish"
MAX_CLIENT_MESSAGE = 1024  # what a game's host hears from a joiner (a beam's receiver hears more)
MAX_SERVER_MESSAGE = 1 << 20  # what a client hears


class HandshakeError(Exception):
    """No session (one line for the person or the log)."""


class WrongCode(HandshakeError):
    """The code was wrong, or someone between the two changed the connection."""


class LockedOut(HandshakeError):
    def __init__(self, text: str, retry_s: int) -> None:
        super().__init__(text)
        self.retry_s = retry_s


class Refusal(HandshakeError):
    def __init__(self, text: str, why: str | None) -> None:
        super().__init__(text)
        self.why = why


class OldPeer(HandshakeError):
    """The other side speaks another version of the protocol."""


class NotTrusted(HandshakeError):
    """Key mode: the server's identity is none this side paired with."""


def _peer(writer: asyncio.StreamWriter) -> tuple[str, str]:
    """The peer's host and its address as a log shows it (`[::1]:5000`)."""
    peer = writer.get_extra_info("peername")
    if isinstance(peer, tuple) and len(peer) >= 2:
        host, port = str(peer[0]), int(peer[1])
        return host, f"[{host}]:{port}" if ":" in host else f"{host}:{port}"
    return "?", "?"


def _decode(vocabulary: Vocabulary, data: bytes, limit: int, what: str) -> Record:
    try:
        return vocabulary.decode(data, limit)
    except MessageError as err:
        raise HandshakeError(f"{what}: {err}") from None


class _Exchange:
    """One side's half of the key exchange: its message, then the shared secret."""

    def __init__(self, mode: str, supply: crypto.PakeSupply | None) -> None:
        self.mode = mode
        self._pake: crypto.Pake | None = None
        self._private: X25519PrivateKey | None = None
        if mode == CODE_AUTH:
            assert supply is not None
            self._pake = supply.take()
            self.record: Record = Pake(self._pake.message)
        else:
            self._private, public = crypto.ephemeral()
            self.record = Dh(public)
        self.payload = self.record.encode()

    def finish(self, peer: Record) -> bytes:
        if self._pake is not None and isinstance(peer, Pake):
            return self._pake.finish(peer.msg)
        if self._private is not None and isinstance(peer, Dh):
            return crypto.agree(self._private, peer.e)
        raise crypto.CryptoError(f"a {peer.KIND} frame in a {self.mode} handshake")


# ---------------------------------------------------------------------------- client


async def connect(host: str, port: int, *, app: str, identity: Identity,
                  code: str | None = None, trusts: Callable[[bytes], bool] | None = None,
                  hears: Vocabulary = FROM_SERVER, hear_limit: int = MAX_SERVER_MESSAGE,
                  say_limit: int = MAX_CLIENT_MESSAGE,
                  pake: crypto.PakeSupply | None = None) -> Session:
    """A session with the server at host:port: with the `code` (the first
    meeting), or else by keys, accepting a server whose identity `trusts`.
    `pake`: the code's SPAKE2 made ahead (a client that connects again and
    again keeps one and refills it between tries). HandshakeError (or one of
    its kinds) with one line; OSError when the server cannot be reached."""
    where = f"[{host}]:{port}" if ":" in host else f"{host}:{port}"
    try:
        reader, writer = await within(
            asyncio.open_connection(host, port, limit=MAX_SERVER_MESSAGE), CONNECT_S)
    except (asyncio.TimeoutError, TimeoutError):
        raise OSError(f"cannot reach {where}: no answer within {CONNECT_S:.0f} s") from None
    try:
        return await within(
            open_client(reader, writer, app=app, identity=identity, code=code, trusts=trusts,
                        hears=hears, hear_limit=hear_limit, say_limit=say_limit, where=where,
                        pake=pake),
            HANDSHAKE_S)
    except (asyncio.TimeoutError, TimeoutError):
        writer.close()
        raise HandshakeError(f"{where}: no session within {HANDSHAKE_S:.0f} s") from None
    except BaseException:
        writer.close()
        raise


async def open_client(reader: asyncio.StreamReader, writer: asyncio.StreamWriter, *,
                      app: str, identity: Identity, code: str | None,
                      trusts: Callable[[bytes], bool] | None, hears: Vocabulary,
                      hear_limit: int, say_limit: int, where: str,
                      pake: crypto.PakeSupply | None = None) -> Session:
    """The client's handshake on a connected stream (connect's, or a test's)."""
    if (code is None) == (trusts is None):
        raise ValueError("give a code (code mode) or the keys to trust (key mode)")
    mode = CODE_AUTH if code is not None else KEY_AUTH
    hello = Hello(VERSION, app, mode, secrets.token_bytes(NONCE_BYTES)).encode()
    writer.write(hello + b"\n")
    exchange = _Exchange(mode, pake or (crypto.PakeSupply(code, True, app) if code else None))
    writer.write(frame(exchange.payload))
    try:
        answer = await read_line(reader, HANDSHAKE_S)
        _server_hello(answer, app, where)
        _, server_payload = await read_frame(reader, HANDSHAKE_S, HANDSHAKE_LIMIT)
    except Closed:
        raise HandshakeError(f"{where} closed the connection without answering "
                             f"(is it a palmish {app}?)") from None
    except FrameError as err:
        raise HandshakeError(f"{where}: {err}") from None
    except ConnectionError as err:
        raise HandshakeError(f"{where}: the connection broke ({err.__class__.__name__})"
                             ) from None
    server_record = _decode(HANDSHAKE, server_payload, HANDSHAKE_LIMIT, f"{where}")
    try:
        shared = exchange.finish(server_record)
    except crypto.CryptoError as err:
        raise HandshakeError(f"{where}: {err}") from None
    handshake_hash = crypto.transcript(hello, answer, exchange.payload, server_payload)
    keys = crypto.session_keys(shared, handshake_hash)
    session = Session(reader, writer, send_key=keys.client_to_server,
                      receive_key=keys.server_to_client, exporter=keys.exporter,
                      hears=hears, hear_limit=hear_limit, say_limit=say_limit, where=where)
    try:
        sealed = await session.receive_bytes(HANDSHAKE_S, AUTH_LIMIT)
    except Tampered:
        if mode == CODE_AUTH:
            raise WrongCode(f"{where}: wrong code (or someone between changed the "
                            f"connection)") from None
        raise HandshakeError(f"{where}: the handshake was changed on the way") from None
    except SessionError as err:
        raise HandshakeError(f"{where}: {err}") from None
    if sealed is None:
        raise HandshakeError(f"{where} closed the connection during the handshake")
    auth = _decode(AUTH, sealed, AUTH_LIMIT, f"{where}")
    assert isinstance(auth, Auth)
    scope = auth.scope or b""
    if not crypto.verify_signature(auth.id, auth.sig, SERVER_SIGNS + handshake_hash + scope):
        raise HandshakeError(f"{where}: its signature of the handshake does not verify")
    if trusts is not None and not trusts(auth.id):
        raise NotTrusted(f"{where} is not a handheld this one paired with")
    session.send(Auth(identity.public, identity.sign(CLIENT_SIGNS + handshake_hash + scope)))
    session.peer = Peer(auth.id, mode, auth.scope, where)
    return session


def _server_hello(line: bytes, app: str, where: str) -> ServerHello:
    version = claimed_version(line)
    if version is not None and version != VERSION:
        raise OldPeer(f"{where} speaks network version {version}; this handheld speaks "
                      f"version {VERSION}: update palmish there")
    answer = _decode(SERVER_HELLO, line, len(line) + 1, f"{where}")
    if isinstance(answer, Refused):
        raise Refusal(answer.reason, answer.why)
    if isinstance(answer, Lockout):
        raise LockedOut(answer.reason, answer.retry_s)
    assert isinstance(answer, ServerHello)
    if answer.app != app:
        raise HandshakeError(f"{where} is a palmish {answer.app}, not a {app}")
    return answer


# ---------------------------------------------------------------------------- server


@dataclass
class ServerSide:
    """What a server (a game's host, a beam receiver) brings to its handshakes.

    `code`: the code this server takes now (None: key mode only); `guesses`:
    its counter of wrong codes; `trusts`: the client identities it takes in key
    mode; `scope`: what it serves (a table's id, told to each client in the
    server's auth); `busy`: a refusal to give before any key exchange (a receiver
    busy with another beam), or None."""

    app: str
    identity: Identity
    code: str | None
    guesses: Guesses = field(default_factory=Guesses)
    trusts: Callable[[bytes], bool] = lambda key: False
    scope: bytes | None = None
    hears: Vocabulary = FROM_CLIENT
    hear_limit: int = MAX_CLIENT_MESSAGE
    say_limit: int = MAX_SERVER_MESSAGE
    busy: Callable[[], Refused | None] = lambda: None
    clock: Callable[[], float] = time.monotonic
    _supply: crypto.PakeSupply | None = field(default=None, init=False, repr=False)

    def pakes(self) -> crypto.PakeSupply:
        """The SPAKE2 halves of the code taken now (a new supply when it changes)."""
        assert self.code is not None
        if self._supply is None or self._supply.code != self.code:
            self._supply = crypto.PakeSupply(self.code, False, self.app)
        return self._supply

    def prepare(self) -> None:
        """Make the next code handshake's first half now (call it when idle: on
        listening, and `accept` calls it after each handshake)."""
        if self.code is not None:
            self.pakes().refill()


async def accept(reader: asyncio.StreamReader, writer: asyncio.StreamWriter, side: ServerSide,
                 log: Callable[[str], None]) -> Session | None:
    """The server's handshake on a new connection: the session, or None after one
    log line (the connection is then closed)."""
    host, where = _peer(writer)
    ticket: list[Ticket] = []
    try:
        session = await within(_accept(reader, writer, side, host, where, ticket),
                                         HANDSHAKE_S)
    except (asyncio.TimeoutError, TimeoutError):
        log(f"{where}: no session within {HANDSHAKE_S:.0f} s" + _guess_note(ticket))
        session = None
    except HandshakeError as err:
        log(f"{where}: {err}" + _guess_note(ticket))
        session = None
    except (ConnectionError, OSError) as err:
        log(f"{where}: the connection broke during the handshake ({err.__class__.__name__})"
            + _guess_note(ticket))
        session = None
    if session is None:
        with contextlib.suppress(ConnectionError, OSError):
            await within(writer.drain(), 1.0)
        writer.close()
    # the next handshake's first half, once this session's first messages are answered
    asyncio.get_running_loop().call_later(PREPARE_AFTER_S, side.prepare)
    return session


def _guess_note(ticket: list[Ticket]) -> str:
    return " (counted as a wrong code)" if ticket else ""


async def _accept(reader: asyncio.StreamReader, writer: asyncio.StreamWriter, side: ServerSide,
                  host: str, where: str, ticket: list[Ticket]) -> Session:
    try:
        line = await read_line(reader, HANDSHAKE_S)
    except Closed:
        raise HandshakeError("closed before its hello") from None
    except FrameError as err:
        raise HandshakeError(str(err)) from None
    version = claimed_version(line)
    if version is not None and version != VERSION:
        _say_line(writer, Refused(VERSION, OLD_PEER))  # v and reason only: version 1 reads it
        raise HandshakeError(f"speaks network version {version}; told: {OLD_PEER}")
    hello = _decode(CLIENT_HELLO, line, len(line) + 1, "hello")
    assert isinstance(hello, Hello)
    refusal = _refusal(hello, side)
    if refusal is not None:
        _say_line(writer, refusal)
        raise HandshakeError(f"refused: {refusal.reason}")
    if hello.auth == CODE_AUTH:
        counted = side.guesses.try_code(source_of(host), side.clock())
        if not isinstance(counted, Ticket):
            retry = max(1, math.ceil(counted))
            _say_line(writer, Lockout(VERSION, f"too many wrong codes; try again in {retry} s",
                                      retry))
            raise HandshakeError(f"locked out for {retry} s (too many wrong codes lately)")
        ticket.append(counted)
    answer = ServerHello(VERSION, side.app, secrets.token_bytes(NONCE_BYTES)).encode()
    _say_line(writer, answer)
    exchange = _Exchange(hello.auth, side.pakes() if hello.auth == CODE_AUTH else None)
    writer.write(frame(exchange.payload))
    try:
        _, client_payload = await read_frame(reader, HANDSHAKE_S, HANDSHAKE_LIMIT)
    except Closed:
        raise HandshakeError("closed during the handshake") from None
    except FrameError as err:
        raise HandshakeError(str(err)) from None
    client_record = _decode(HANDSHAKE, client_payload, HANDSHAKE_LIMIT, "handshake")
    try:
        shared = exchange.finish(client_record)
    except crypto.CryptoError as err:
        raise HandshakeError(str(err)) from None
    handshake_hash = crypto.transcript(line, answer, client_payload, exchange.payload)
    keys = crypto.session_keys(shared, handshake_hash)
    session = Session(reader, writer, send_key=keys.server_to_client,
                      receive_key=keys.client_to_server, exporter=keys.exporter,
                      hears=side.hears, hear_limit=side.hear_limit, say_limit=side.say_limit,
                      where=where)
    scope = side.scope or b""
    session.send(Auth(side.identity.public,
                      side.identity.sign(SERVER_SIGNS + handshake_hash + scope), side.scope))
    try:
        sealed = await session.receive_bytes(HANDSHAKE_S, AUTH_LIMIT)
    except Tampered:
        raise HandshakeError("wrong code" if hello.auth == CODE_AUTH
                             else "the handshake was changed on the way") from None
    except SessionError as err:
        raise HandshakeError(str(err)) from None
    if sealed is None:
        raise HandshakeError("wrong code (it closed at the key confirmation)"
                             if hello.auth == CODE_AUTH else "closed during the handshake")
    auth = _decode(AUTH, sealed, AUTH_LIMIT, "auth")
    assert isinstance(auth, Auth)
    if auth.scope is not None:
        raise HandshakeError("auth: a client names no scope")
    if not crypto.verify_signature(auth.id, auth.sig, CLIENT_SIGNS + handshake_hash + scope):
        raise HandshakeError("its signature of the handshake does not verify")
    if ticket:
        ticket[0].right()  # the code was right: not a wrong guess
        ticket.clear()
    elif not side.trusts(auth.id):
        session.send(Refused(VERSION, "this handheld is not paired here; give the code",
                             "key"))
        raise HandshakeError("refused: an identity not paired here")
    session.peer = Peer(auth.id, hello.auth, side.scope, where)
    return session


def _refusal(hello: Hello, side: ServerSide) -> Refused | None:
    if hello.app != side.app:
        return Refused(VERSION, f"this is a palmish {side.app}, not a {hello.app}", "app")
    if hello.auth == CODE_AUTH and side.code is None:
        return Refused(VERSION, "no code is taken here now", "code")
    return side.busy()


def _say_line(writer: asyncio.StreamWriter, message: Record | bytes) -> None:
    data = message if isinstance(message, bytes) else message.encode()
    writer.write(data + b"\n")


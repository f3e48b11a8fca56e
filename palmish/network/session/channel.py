"""An open session (docs/network-session.md, "Sealed frames"): typed records
sealed into frames one way, frames opened and decoded once the other way.

A frame that fails to open (altered, replayed, reordered, one dropped before
it), is too large, or holds no valid record of the vocabulary ends the
session with a SessionError of one line; the owner logs it and closes.
Silence longer than SILENCE_S ends it too (both sides ping every second).
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from dataclasses import dataclass

from palmish.network.deadline import within
from palmish.network.session.crypto import TAG_BYTES, CryptoError, Sealer
from palmish.network.session.frames import HEADER, Closed, FrameError, read_frame
from palmish.network.session.kinds import Ping
from palmish.network.session.records import MessageError, Record, Vocabulary

PING_EVERY_S = 1.0
SILENCE_S = 5.0  # nothing at all for this long: the peer is gone
DRAIN_S = 2.0
MAX_WRITE_BUFFER = 4 << 20  # a peer that stops reading is dropped


class SessionError(Exception):
    """The session cannot go on (one line for the log)."""


class Tampered(SessionError):
    """A frame did not open: changed, replayed, reordered, one dropped before it,
    or (the first frame of a handshake) sealed with another key."""


@dataclass(frozen=True)
class Peer:
    """What the handshake proved about the other side."""

    key: bytes  # its identity (Ed25519 public key)
    mode: str  # "code" (the code proved the channel: a first meeting) or "key" (paired)
    scope: bytes | None  # what the server serves (a table's id), as the server said
    where: str  # its address, for the log


class Session:
    """Both directions of one connection after its handshake."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, *,
                 send_key: bytes, receive_key: bytes, exporter: bytes,
                 hears: Vocabulary, hear_limit: int, say_limit: int, where: str) -> None:
        self.reader, self.writer = reader, writer
        self._seal, self._open = Sealer(send_key), Sealer(receive_key)
        self.exporter = exporter
        self.hears, self.hear_limit, self.say_limit = hears, hear_limit, say_limit
        self.where = where
        self.peer: Peer | None = None  # set once the handshake is complete
        self.last_heard = time.monotonic()

    # ------------------------------------------------------------------ sending

    def send(self, record: Record) -> None:
        """Seal and write one record (buffered: `drain` to wait for it to leave)."""
        self.send_bytes(record.encode())

    def send_bytes(self, plaintext: bytes) -> None:
        if len(plaintext) > self.say_limit:
            raise SessionError(f"a {plaintext[:24]!r}... message of {len(plaintext)} bytes, "
                               f"at most {self.say_limit}")
        if self.writer.is_closing():
            return
        if self.writer.transport.get_write_buffer_size() > MAX_WRITE_BUFFER:
            self.writer.close()
            raise SessionError(f"{self.where} does not read what it is sent")
        header = HEADER.pack(len(plaintext) + TAG_BYTES)  # sealed with the frame
        self.writer.write(header + self._seal.seal(plaintext, header))

    async def drain(self) -> None:
        with contextlib.suppress(ConnectionError, TimeoutError, asyncio.TimeoutError):
            await within(self.writer.drain(), DRAIN_S)

    # ---------------------------------------------------------------- receiving

    async def receive_bytes(self, timeout: float = SILENCE_S,
                            limit: int | None = None) -> bytes | None:
        """The next frame opened; None when the peer closed between frames."""
        bound = (self.hear_limit if limit is None else limit) + TAG_BYTES
        try:
            header, sealed = await read_frame(self.reader, timeout, bound)
        except Closed:
            return None
        except FrameError as err:
            raise SessionError(str(err)) from None
        except (TimeoutError, asyncio.TimeoutError):
            raise SessionError(f"silent for {timeout:.0f} s") from None
        except (ConnectionError, OSError) as err:
            raise SessionError(f"the connection broke ({err.__class__.__name__})") from None
        if len(sealed) < TAG_BYTES:
            raise SessionError("a frame too short to be sealed")
        try:
            plaintext = self._open.open(sealed, header)
        except CryptoError:
            raise Tampered("a frame failed its check (changed, replayed, reordered or "
                           "dropped on the way)") from None
        self.last_heard = time.monotonic()
        return plaintext

    async def receive(self, timeout: float = SILENCE_S) -> Record | None:
        """The next record but pings (each resets the silence); None when the
        peer closed. SessionError for anything that cannot be believed."""
        while True:
            plaintext = await self.receive_bytes(timeout)
            if plaintext is None:
                return None
            try:
                record = self.hears.decode(plaintext, self.hear_limit)
            except MessageError as err:
                raise SessionError(f"malformed: {err}") from None
            if not isinstance(record, Ping):
                return record

    # ------------------------------------------------------------------ the end

    async def keep_alive(self) -> None:
        """Ping every PING_EVERY_S until cancelled (run it as a task)."""
        with contextlib.suppress(ConnectionError, SessionError):
            while not self.writer.is_closing():
                await asyncio.sleep(PING_EVERY_S)
                self.send(Ping())

    async def close(self) -> None:
        self.writer.close()
        with contextlib.suppress(ConnectionError, TimeoutError, asyncio.TimeoutError, OSError):
            await within(self.writer.wait_closed(), 1.0)

"""One meeting by code (docs/network.md, "Across the internet"), run on the
reactor's thread: the rendezvous (Magic Wormhole's mailbox server, its PAKE
over the code), each side's transit hints and offer in one sealed message,
then transit's race of direct connections against its relay. The winner is
a transit `Connection` carrying the session layer's bytes.

The host's offer carries the table's join code, so the session layer's own
key exchange runs unchanged inside (only a holder of the internet code learns
it); the relay sees the transit's ciphertext of the session's ciphertext.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from palmish.network.internet.settings import CONNECT_S, REACH_S, Settings

PROTOCOL = 2  # what a meeting's message says; another number is another version
# (2: the host offers its LAN path, and the joiner says which path it chose)
LAN_S = 3.0  # the LAN path's TCP connection, tried alongside transit
APPID = "palmish.network/v2"  # the mailbox server's namespace for palmish


class MeetError(Exception):
    """One line a person understands."""


class Crowded(MeetError):
    """Three sides claimed the code at once (joiners arriving together): try again."""


SLOTS = 4  # the meeting places of one code, each for one joiner at a time
JOINER_TRIES = 3 * SLOTS  # a joiner's meetings (crowded, unanswered) before it gives up
CROWDED_WAIT_S = (0.3, 1.5)  # a random pause between them, so arrivals spread out
SLOT_WAIT_S = 15.0  # a joiner waits this long at one place for the host's answer
HOST_REFRESH_S = 20.0  # a host's empty place is claimed afresh this often


def slot_code(code: str, slot: int) -> str:
    """The code of meeting place `slot` (0: the code itself).

    A mailbox server's nameplate holds two sides: a third one claiming it at
    once (joiners arriving together) is refused as crowded and spoils that
    meeting, so one code names SLOTS places: the printed nameplate, and long
    nameplates made from it and the words (digits no server allocates)."""
    if slot == 0:
        return code
    import hashlib

    nameplate, words = code.split("-", 1)
    salt = int.from_bytes(hashlib.sha256(code.encode()).digest()[:4], "big") % 10**8
    return f"{nameplate}{salt:08d}{slot}-{words}"


@dataclass
class Met:
    connection: Any  # wormhole.transit.Connection, a pump.LanLink, or None (the host's lan)
    offer: dict[str, Any]  # the other side's
    path: str  # direct or relayed
    code: str


def path_of(description: str) -> str:
    """transit's description of the winner ("->relay:tcp:..." or "->tcp:..."), or
    the LAN path's ("->lan:tcp:...")."""
    if "lan:" in description:
        return "lan"
    return "relayed" if "relay:" in description else "direct"


def lan_hints(offer: dict[str, Any], settings: Settings) -> list[tuple[str, int]]:
    """The host's LAN addresses a joiner tries (well-formed ones, as its settings allow)."""
    found = []
    hints = offer.get("lan")
    for hint in hints[:8] if isinstance(hints, list) else []:
        if (isinstance(hint, list) and len(hint) == 2 and isinstance(hint[0], str)
                and len(hint[0]) <= 45 and isinstance(hint[1], int) and 0 < hint[1] < 65536
                and settings.tries_lan(hint[0])):
            found.append((hint[0], hint[1]))
    return found




def _transit(settings: Settings, host: bool, reactor: Any) -> Any:
    from wormhole import transit

    base = transit.TransitSender if host else transit.TransitReceiver
    addresses = settings.direct

    class Transit(base):  # type: ignore[misc, valid-type]
        def _build_listener(self) -> tuple[list[Any], Any]:
            # The engine offers every address of the machine; --direct names the few
            # to offer (tests: loopback, the lab's namespaces).
            if addresses is None or not addresses:
                return super()._build_listener()  # type: ignore[no-any-return]
            from twisted.internet import endpoints as typed_endpoints
            endpoints: Any = typed_endpoints
            port = transit.allocate_tcp_port()
            hints = [transit.DirectTCPV1Hint(a, port, 0.0) for a in addresses]
            interface = addresses[0] if len(addresses) == 1 else ("::" if any(
                ":" in a for a in addresses) else "0.0.0.0")
            iface = interface.replace(":", "\\:")
            return hints, endpoints.serverFromString(
                self._reactor, f"tcp:{port}:interface={iface}")

    return Transit(settings.relay, no_listen=not settings.offers_direct, reactor=reactor)


def meet(settings: Settings, reactor: Any, *, host: bool, code: str | None,
         offer: dict[str, Any], on_code: Callable[[str], None] | None = None) -> Any:
    """A Deferred of Met; MeetError with one line. The host passes code=None the
    first time (the mailbox allocates one, told to on_code)."""
    from twisted.internet import defer

    if host or code is None:
        return defer.ensureDeferred(_meet(settings, reactor, host, code, offer, on_code,
                                          HOST_REFRESH_S if code is not None else None))
    return defer.ensureDeferred(_meet_somewhere(settings, reactor, code, offer))


async def _meet_somewhere(settings: Settings, reactor: Any, code: str,
                          offer: dict[str, Any]) -> Met:
    """A joiner's meeting at the code's places in a random order, again while
    they are crowded or unanswered (bounded)."""
    import random

    from twisted.internet import task

    last: MeetError | None = None
    for attempt in range(JOINER_TRIES):
        slot = random.randrange(SLOTS) if attempt else 0
        try:
            met = await _meet(settings, reactor, False, slot_code(code, slot), offer, None,
                              SLOT_WAIT_S)
            met.code = code
            return met
        except (Crowded, Unanswered) as err:
            last = err
            await task.deferLater(reactor, random.uniform(*CROWDED_WAIT_S))
    if isinstance(last, Crowded):
        raise MeetError(f"the code {code} stayed crowded (others are joining): try again")
    raise MeetError(f"no host answered the code {code}")


class Unanswered(MeetError):
    """Nobody came to this place in time."""


async def _meet(settings: Settings, reactor: Any, host: bool, code: str | None,
                offer: dict[str, Any], on_code: Callable[[str], None] | None,
                wait_s: float | None) -> Met:
    """MeetError (Crowded) for anything the engine raises on the way."""
    from wormhole import errors

    try:
        return await _meet_once(settings, reactor, host, code, offer, on_code, wait_s)
    except MeetError:
        raise
    except errors.ServerError as err:
        if "crowded" in str(err):
            raise Crowded(f"the code {code} is crowded (others are joining)") from None
        raise MeetError(f"the rendezvous server refused: {err}") from None
    except errors.WormholeError as err:
        raise MeetError(f"the rendezvous failed: {type(err).__name__} {err}") from None


async def _meet_once(settings: Settings, reactor: Any, host: bool, code: str | None,
                     offer: dict[str, Any], on_code: Callable[[str], None] | None,
                     wait_s: float | None) -> Met:
    import wormhole
    from twisted.internet import defer
    from twisted.internet import error as terror
    from wormhole import errors

    w = wormhole.create(APPID, settings.rendezvous, reactor, stderr=_Quiet())
    try:
        try:
            await w.get_welcome().addTimeout(REACH_S, reactor)
        except (defer.TimeoutError, terror.TimeoutError, errors.ServerConnectionError):
            raise MeetError(f"Cannot reach the rendezvous server at {settings.rendezvous}: "
                            "check the internet connection") from None
        except errors.WelcomeError as err:
            raise MeetError(f"the rendezvous server at {settings.rendezvous} says: {err}"
                            ) from None
        if code is None:
            w.allocate_code(2)
        else:
            w.set_code(code)
        code = str(await w.get_code())
        if on_code is not None:
            on_code(code)
        transit = _transit(settings, host, reactor)
        hints = await transit.get_connection_hints()
        mine = dict(offer, palmish=PROTOCOL,
                    transit={"abilities-v1": transit.get_connection_abilities(),
                             "hints-v1": hints})
        w.send_message(json.dumps(mine).encode())
        try:
            message = w.get_message()
            if wait_s is not None:
                message.addTimeout(wait_s, reactor)
            raw = await message
        except (defer.TimeoutError, terror.TimeoutError):
            raise Unanswered(f"nobody answered at {code.split('-')[0]}") from None
        except errors.WrongPasswordError:
            raise MeetError(f"wrong code {code}") from None
        theirs = _read_offer(raw)
        transit.add_connection_hints(theirs["transit"].get("hints-v1", []))
        transit.set_transit_key(w.derive_key(APPID + "/transit-key",
                                             transit.TRANSIT_KEY_LENGTH))
        from palmish.network.internet.race import first_of

        # The ladder, tried together: transit (direct, then the relay) and, on the
        # joiner, the LAN path to the host's table; the joiner says which won.
        tries = [transit.connect()]
        if host:
            tries.append(w.get_message())  # the joiner's choice
        else:
            lan = lan_hints(theirs, settings)
            if lan:
                from palmish.network.internet.pump import lan_connect
                tries.append(lan_connect(reactor, lan, LAN_S))
        try:
            index, connection = await first_of(tries, cancel=not host).addTimeout(
                CONNECT_S, reactor)
            if host and index == 0:
                # transit is through here, yet the joiner's LAN path may have won there
                # a moment before (its transit then closes): its choice decides
                chosen = await tries[1].addTimeout(CONNECT_S, reactor)
                if _read_choice(chosen) == "lan":
                    connection.close()
                    return Met(None, theirs, "lan", code)
            elif host:  # the joiner chose before this side's transit was through
                if _read_choice(connection) == "lan":
                    tries[0].cancel()
                    return Met(None, theirs, "lan", code)
                connection = await tries[0].addTimeout(CONNECT_S, reactor)
                if connection is None:  # its failure went to first_of
                    raise ConnectionError("transit failed")
        except Exception as err:  # transit's own errors, timeouts, refused connections
            raise MeetError(f"no connection to the other side, direct or through the relay "
                            f"{settings.relay}: {err or type(err).__name__}") from None
        path = path_of(connection.describe())
        if not host:
            w.send_message(json.dumps({"chosen": path}).encode())
        return Met(connection, theirs, path, code)
    finally:
        with contextlib.suppress(Exception):  # closing after trouble: nothing more to say
            await w.close().addTimeout(REACH_S, reactor)


def _read_choice(raw: bytes) -> str:
    try:
        chosen = json.loads(raw).get("chosen")
    except (ValueError, AttributeError):
        chosen = None
    if chosen not in ("lan", "direct", "relayed"):
        raise MeetError("the other side sent something that is not palmish's")
    return str(chosen)


def _read_offer(raw: bytes) -> dict[str, Any]:
    try:
        theirs = json.loads(raw)
    except ValueError:
        raise MeetError("the other side sent something that is not palmish's") from None
    if not isinstance(theirs, dict) or not isinstance(theirs.get("transit"), dict):
        raise MeetError("the other side sent something that is not palmish's")
    version = theirs.get("palmish")
    if version != PROTOCOL:
        older = isinstance(version, int) and version < PROTOCOL
        raise MeetError("Your friend's handheld speaks an "
                        f"{'older' if older else 'other'} version ({version})")
    return theirs


class _Quiet:
    """Where the wormhole library would print its own notes: nowhere."""

    def write(self, text: str) -> int:
        return len(text)

    def flush(self) -> None:
        pass

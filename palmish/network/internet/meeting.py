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

from palmish.network.internet.settings import ANSWER_S, CONNECT_S, REACH_S, Settings

PROTOCOL = 1  # what a meeting's message says; another number is another version
APPID = "palmish.network/v2"  # the mailbox server's namespace for palmish


class MeetError(Exception):
    """One line a person understands."""


@dataclass
class Met:
    connection: Any  # wormhole.transit.Connection
    offer: dict[str, Any]  # the other side's
    path: str  # direct or relayed
    code: str


def path_of(description: str) -> str:
    """transit's description of the winner ("->relay:tcp:..." or "->tcp:...")."""
    return "relayed" if "relay:" in description else "direct"


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

    return defer.ensureDeferred(_meet(settings, reactor, host, code, offer, on_code))


async def _meet(settings: Settings, reactor: Any, host: bool, code: str | None,
                offer: dict[str, Any], on_code: Callable[[str], None] | None) -> Met:
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
            if not host:
                message.addTimeout(ANSWER_S, reactor)
            raw = await message
        except (defer.TimeoutError, terror.TimeoutError):
            raise MeetError(f"no host answered the code {code}") from None
        except errors.WrongPasswordError:
            raise MeetError(f"wrong code {code}") from None
        except errors.ServerError as err:
            raise MeetError(f"the rendezvous server refused: {err}") from None
        theirs = _read_offer(raw)
        transit.add_connection_hints(theirs["transit"].get("hints-v1", []))
        transit.set_transit_key(w.derive_key(APPID + "/transit-key",
                                             transit.TRANSIT_KEY_LENGTH))
        try:
            connection = await transit.connect().addTimeout(CONNECT_S, reactor)
        except Exception as err:  # transit's own errors, timeouts, refused connections
            raise MeetError(f"no connection to the other side, direct or through the relay "
                            f"{settings.relay}: {err or type(err).__name__}") from None
        return Met(connection, theirs, path_of(connection.describe()), code)
    finally:
        with contextlib.suppress(Exception):  # closing after trouble: nothing more to say
            await w.close().addTimeout(REACH_S, reactor)


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

"""A beam sender written from docs/network.md alone (tests/network/doc_beam_sender.py:
socket, json, hashlib, struct, base64, `spake2` and `cryptography`) against a
receiver's desk on its own thread and loop, on loopback: it pairs with the
code, comes back by keys alone, and a wrong code or an unpaired key is refused."""

from __future__ import annotations

import asyncio
import os
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from cryptography.exceptions import InvalidTag

from tests.network import beam_items
from tests.network.beam_loopback import CODE, Receiver
from tests.network.doc_beam_sender import DocSender


@pytest.fixture
def receiver(tmp_path: Path) -> Iterator[Receiver]:
    loop = asyncio.new_event_loop()
    thread = threading.Thread(target=loop.run_forever, daemon=True)
    thread.start()
    rec = Receiver(tmp_path / "r")
    asyncio.run_coroutine_threadsafe(rec.start(), loop).result(10)
    yield rec
    asyncio.run_coroutine_threadsafe(rec.close(), loop).result(10)
    loop.call_soon_threadsafe(loop.stop)
    thread.join(10)


def test_a_sender_from_the_docs_pairs_then_beams_by_keys(receiver: Receiver) -> None:
    cherry = beam_items.cherry()
    seed = os.urandom(32)
    first = DocSender(receiver.port, seed)
    receiver_key = first.handshake(CODE)
    assert receiver_key == receiver.key
    assert first.beam("Docs", cherry) == {"t": "result", "accepted": True,
                                          "text": "accepted here"}
    first.close()
    assert receiver.offers[0].item.data == cherry and receiver.offers[0].new

    again = DocSender(receiver.port, seed)  # paired: no code
    again.handshake(None, receiver_key)
    assert again.beam("Docs", cherry)["accepted"] is True
    again.close()
    assert not receiver.offers[1].new

    wrong = DocSender(receiver.port, os.urandom(32))
    with pytest.raises(InvalidTag):  # the receiver's auth does not open: another code
        wrong.handshake("0000" if CODE != "0000" else "1111")
    wrong.close()

    stranger = DocSender(receiver.port, os.urandom(32))
    stranger.handshake(None, receiver_key)  # keys, but not paired there
    assert stranger.answer() == {"t": "refused", "v": 2, "why": "key",
                                 "reason": "this handheld is not paired here; give the code"}
    stranger.close()
    assert len(receiver.offers) == 2

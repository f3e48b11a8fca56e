"""Two homes behind NAT, in network namespaces this test makes and removes
(tests/network/natlab.py; docs/network.md, "A NAT lab"): the rendezvous and
relay on the lab's WAN, a host in one home and a joiner in the other, a
whole game by code alone. Skipped with one line where namespaces cannot be
made (not root, no ip or nft)."""

from __future__ import annotations

import os
import re
import secrets
from collections.abc import Iterator
from pathlib import Path

import pytest

from palmish.pachisi.game import Game
from tests.network.natlab import WAN_ADDRESS, Lab, NotAllowed
from tests.network.processes import Process
from tests.network.wormhole_servers import Server

pytestmark = [pytest.mark.process, pytest.mark.slow]

MAILBOX_PORT, RELAY_PORT = 4000, 4001  # inside the lab's WAN namespace


@pytest.fixture(params=[False, True], ids=["nat", "hard-nat"])
def lab(request: pytest.FixtureRequest) -> Iterator[Lab]:
    try:
        made = Lab(secrets.token_hex(2), hard=request.param)
    except NotAllowed as err:
        pytest.skip(f"NAT lab: {err}")
    try:
        yield made
    finally:
        made.close()


def test_a_game_by_code_between_two_homes(lab: Lab, tmp_path: Path) -> None:
    wan = lab.prefix("wan")
    servers = [Server("wormhole-mailbox", tmp_path / "mailbox", MAILBOX_PORT, prefix=wan,
                      interface=WAN_ADDRESS),
               Server("transitrelay", tmp_path / "relay", RELAY_PORT, prefix=wan,
                      interface=WAN_ADDRESS)]
    # The engine's own choice of direct hints (auto): inside a home that is the
    # home's LAN address only, 192.0.2.10, which the other home cannot reach.
    env = dict(os.environ, PALMISH_RENDEZVOUS=f"ws://{WAN_ADDRESS}:{MAILBOX_PORT}/v1",
               PALMISH_RELAY=f"tcp:{WAN_ADDRESS}:{RELAY_PORT}", PALMISH_DIRECT="auto")
    host = Process("host", "--app", "pachisi", "--internet", "--seats", "remote,computer",
                   "--data-dir", str(tmp_path / "host"), env=env, prefix=lab.prefix("c1"))
    joiner: Process | None = None
    try:
        assert re.fullmatch(r"listening on .* code \d{4}", host.next_line(30))
        coded = re.fullmatch(r"code (\d+(-[a-z]+)+)", host.next_line(30))
        assert coded, host.err_lines
        joiner = Process("join", "--code", coded.group(1), "--name", "Ann", "--auto",
                         "--data-dir", str(tmp_path / "ann"), env=env, prefix=lab.prefix("c2"))
        assert joiner.finish(90) == 0, (joiner.out_lines, joiner.err_lines)
        assert host.finish(30) == 0, host.err_lines
        record = host.record()
        game = Game.from_record(record)
        assert game.over and joiner.record() == record
        # Behind two NATs transit (which does not punch holes) can only meet
        # through the relay: said so on both sides.
        assert "path: relayed" in host.out_lines and "path: relayed" in joiner.out_lines
    finally:
        host.kill()
        if joiner is not None:
            joiner.kill()
        for server in servers:
            server.kill()

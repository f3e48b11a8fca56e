"""A joiner that sits down and then never acts (run as a program by the tests:
`python -m tests.network.idle_joiner PORT CODE NAME DATA_DIR`): the game waits
for its turn, so a test knows the game cannot end before it does something."""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Sequence
from pathlib import Path

from palmish.network.fairdice import JoinerDice
from palmish.network.joining import Joiner, JoinRequest
from palmish.network.session.kinds import Welcome
from palmish.network.session.records import Record


class Idle:
    """Takes every record, answers only the dice round (as every joiner must)."""

    def __init__(self, dice: JoinerDice) -> None:
        self.dice = dice
        self.started = False

    @property
    def done(self) -> bool:
        return False

    def take(self, record: Record) -> Sequence[Record]:
        if isinstance(record, Welcome):
            self.dice.welcome(record.dice)
        reply = self.dice.take(record, live=not self.started)
        self.started = self.started or record.KIND == "game"
        if record.KIND == "welcome":
            print("welcomed", flush=True)
        return [reply] if reply is not None else []

    def lost(self, line: str) -> None:
        print(line, file=sys.stderr, flush=True)

    @property
    def finished(self) -> bool:
        return False

    def closed(self, text: str) -> None:
        print(text, file=sys.stderr, flush=True)


async def main(port: int, code: str, name: str, data_dir: Path) -> None:
    dice = JoinerDice()
    request = JoinRequest("127.0.0.1", port, code, name, app="pachisi", data_dir=data_dir,
                          comeback_s=5.0)
    joiner = Joiner(request, Idle(dice), lambda line: print(line, file=sys.stderr), dice)
    await asyncio.wait_for(joiner.run(), 80)


if __name__ == "__main__":
    port, code, name, folder = sys.argv[1:5]
    asyncio.run(main(int(port), code, name, Path(folder)))

"""Dice nobody can rig, at a table (docs/network.md, "Dice"): the rounds of
palmish/network/session/dice.py as a host and a joiner play them, for any
game whose throws come from a seeded generator. No game and no socket here:
the table and the mirror call these and send what they return.

Host: `HostRound` sends its commitment in every welcome, takes each seated
joiner's commitment from its join, opens the round at the start
(`dice-commits`), takes the reveals, and closes it (`dice-secrets`, the seed)
once all are in or REVEAL_S passed. At the end it reveals its secret.

Joiner (and spectator): `JoinerDice` checks the round as it goes, reveals
its own secret when its commitment is listed, and at the end checks every
throw: "verified", or exactly what did not match.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from palmish.network.session import dice
from palmish.network.session.dice import DiceCommits, DiceEnd, DiceReveal, DiceSecrets, Verdict
from palmish.network.session.records import Record

REVEAL_S = 5.0  # a joiner that has not revealed by then contributes nothing
FIXED_LABEL = b"palmish2 fixed seed\0"


class DiceProblem(ValueError):
    """The host's dice messages contradict each other (one line)."""


def secret_from_number(number: int) -> bytes:
    """The host's secret made from a number (`palmish host --seed N`): the host's
    part of the dice is then the same for the same N."""
    return hashlib.sha256(FIXED_LABEL + str(number).encode("ascii")).digest()


class HostRound:
    """The host's side of one game's dice."""

    def __init__(self, secret: bytes | None = None) -> None:
        self.dice = dice.HostDice(secret)
        self.commits: DiceCommits | None = None
        self.secrets: DiceSecrets | None = None
        self._contributors: list[int] = []  # seats, in order
        self._revealed: dict[int, bytes] = {}
        self.deadline = 0.0

    @property
    def commitment(self) -> bytes:
        return self.dice.commitment

    @property
    def open(self) -> bool:
        """Commitments sent, secrets not yet."""
        return self.commits is not None and self.secrets is None

    def start(self, pledged: Mapping[int, bytes], now: float) -> DiceCommits:
        """Open the round with the seated joiners' commitments (seat -> commitment)."""
        self._contributors = sorted(pledged)
        self.commits = DiceCommits(self.commitment, tuple(pledged[s] for s in self._contributors))
        self.deadline = now + REVEAL_S
        return self.commits

    def reveal(self, seat: int | None, secret: bytes) -> str | None:
        """A joiner's reveal; one line when it is refused."""
        if not self.open or seat not in self._contributors:
            return "no dice secret is asked of this seat now"
        assert self.commits is not None and seat is not None
        if dice.commitment(secret) != self.commits.joiners[self._contributors.index(seat)]:
            return "that dice secret does not match its commitment"
        self._revealed[seat] = secret
        return None

    def ready(self, now: float) -> bool:
        """Every contributor revealed, or the time for it is over."""
        return self.open and (len(self._revealed) == len(self._contributors)
                              or now >= self.deadline)

    def close(self) -> tuple[DiceSecrets, int]:
        """The secrets revealed (None for one withheld) and the game's seed."""
        self.secrets = DiceSecrets(tuple(self._revealed.get(s) for s in self._contributors))
        return self.secrets, self.dice.seed(self.secrets)

    def end(self) -> DiceEnd:
        return DiceEnd(self.dice.secret)

    def snapshot(self) -> dict[str, Any]:
        """What a host keeps to host the game again (its secret: the file is 0600)."""
        return {
            "secret": self.dice.secret.hex(),
            "commits": None if self.commits is None else
            [self.commits.host.hex(), [c.hex() for c in self.commits.joiners]],
            "secrets": None if self.secrets is None else
            [None if s is None else s.hex() for s in self.secrets.joiners],
        }

    @classmethod
    def restore(cls, saved: Any) -> HostRound:
        """From `snapshot()`; ValueError (or KeyError, TypeError) when unusable."""
        round_ = cls(bytes.fromhex(saved["secret"]))
        commits, secrets = saved["commits"], saved["secrets"]
        if commits is not None and secrets is not None:
            round_.commits = DiceCommits(bytes.fromhex(commits[0]),
                                         tuple(bytes.fromhex(c) for c in commits[1]))
            round_.secrets = DiceSecrets(tuple(None if s is None else bytes.fromhex(s)
                                               for s in secrets))
            if (round_.commits.host != round_.commitment
                    or dice.reveal_problems(round_.commits, round_.secrets)):
                raise ValueError("its dice do not match their commitments")
        return round_


class JoinerDice:
    """A joiner's (or a spectator's) side: its own part, and its check of the host's."""

    def __init__(self, contribute: bool = True) -> None:
        self._mine = dice.JoinerDice() if contribute else None
        self.welcomed: bytes | None = None
        self.commits: DiceCommits | None = None
        self.secrets: DiceSecrets | None = None
        self.host_secret: bytes | None = None

    def renew(self, contribute: bool) -> None:
        """A fresh part for the next game at the same table (a rematch): a new secret
        (or none), and nothing of the host's yet. The same object stays shared."""
        self._mine = dice.JoinerDice() if contribute else None
        self.rewelcome(None)

    def rewelcome(self, commitment: bytes | None) -> None:
        """The host's commitment for the next game (its `rematch` on), this part kept."""
        self.welcomed, self.commits, self.secrets, self.host_secret = commitment, None, None, None

    @property
    def commitment(self) -> bytes | None:
        """What goes in `join` (None: a spectator contributes nothing)."""
        return None if self._mine is None else self._mine.commitment

    def welcome(self, commitment: bytes | None) -> None:
        """The host's commitment in `welcome`: the same on every connection."""
        if commitment is None:
            raise DiceProblem("the host sent no dice commitment")
        if self.welcomed is not None and commitment != self.welcomed:
            raise DiceProblem("the host's dice commitment changed")
        self.welcomed = commitment

    def take(self, record: Record, live: bool) -> Record | None:
        """A dice message of the host; what to answer (a reveal), or None.
        `live`: the round is opening now (not told to a joiner arriving later),
        so this joiner's own commitment must be in it."""
        if isinstance(record, DiceCommits):
            if self.commits is not None and record != self.commits:
                raise DiceProblem("the host's dice commitments changed")
            mine = self.commitment if live else None
            problems = dice.listing_problems(self.welcomed or b"", record, mine)
            if problems:
                raise DiceProblem(problems[0])
            self.commits = record
            if live and self._mine is not None and self.secrets is None:
                return DiceReveal(self._mine.secret)
        elif isinstance(record, DiceSecrets):
            if self.commits is None:
                raise DiceProblem("dice secrets before their commitments")
            problems = dice.reveal_problems(self.commits, record)
            if problems:
                raise DiceProblem(problems[0])
            if self.secrets is not None and record != self.secrets:
                raise DiceProblem("the host's dice secrets changed")
            self.secrets = record
        elif isinstance(record, DiceEnd):
            self.host_secret = record.secret
        return None

    def verdict(self, record_seed: int, throws: Sequence[int],
                replay: Callable[[int], Iterable[int]]) -> Verdict:
        """Every throw of the game against the commitments (the end's check)."""
        if self.host_secret is None:
            return dice.unrevealed()
        if self.welcomed is None or self.commits is None or self.secrets is None:
            return Verdict(("the host never opened the dice round",))
        pledges = dice.Pledges(self.welcomed, self.commits, self.secrets)
        return dice.verify(pledges, self.host_secret, record_seed, throws, replay)

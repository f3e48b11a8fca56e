"""Dice nobody can rig (docs/network-session.md, "Dice"): a commit-reveal
scheme any game whose throws come from a seeded generator can use. Pure: no
network, no game; the engine gives its own throws and its generator.

1. The host makes a secret and sends its commitment in `welcome`.
2. Each seated joiner makes a secret and sends its commitment in `join`.
3. At the start the host sends every commitment (`dice-commits`); each joiner
   checks that the host's is the one it was welcomed with and that its own is
   there, then reveals its secret (`dice-reveal`). The host checks each
   against its commitment and sends them all (`dice-secrets`) before the first
   throw (a joiner that reveals nothing in time contributes nothing).
4. The game's seed is SHA-256 of the host's secret and every joiner's
   (seed_of): the host fixed its secret before it saw any joiner's, and the
   joiners fixed theirs (committed) before any was revealed, so nobody chose
   the seed; nobody but the host knows it until the end.
5. At the end the host reveals its secret (`dice-end`); every peer checks it
   against the commitment, works out the seed, compares it with the record's
   and replays every throw of the game from it (verify): "verified", or
   exactly what did not match.
"""

from __future__ import annotations

import hashlib
import itertools
import secrets
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Annotated

from palmish.network.session.kinds import DIGEST_BYTES
from palmish.network.session.records import Hex, ListOf, Maybe, Record, Vocabulary

SECRET_BYTES = 32
SEED_BITS = 128  # the generator's seed: more than anyone can search through
COMMIT_LABEL = b"palmish2 dice commit\0"
SEED_LABEL = b"palmish2 dice seed\0"
MOST_JOINERS = 16
MOST_SHOWN = 8  # mismatched throws listed one by one; the rest counted


def new_secret() -> bytes:
    return secrets.token_bytes(SECRET_BYTES)


def commitment(secret: bytes) -> bytes:
    """SHA-256 of the label and the secret: binding, and hiding a 32-byte secret."""
    return hashlib.sha256(COMMIT_LABEL + secret).digest()


def seed_of(host_secret: bytes, contributions: Sequence[bytes | None],
            bits: int = SEED_BITS) -> int:
    """The game's seed: SHA-256 over the label, the host's secret and each joiner's
    contribution in order (a byte 1 and the secret, or a byte 0 for one withheld),
    its first `bits` bits as a big-endian number."""
    digest = hashlib.sha256(SEED_LABEL + host_secret)
    for secret in contributions:
        digest.update(b"\0" if secret is None else b"\1" + secret)
    return int.from_bytes(digest.digest()[: bits // 8], "big")


# ---------------------------------------------------------------- the messages


@dataclass(frozen=True)
class DiceCommits(Record):
    """Host to everyone at the start: its commitment and each contributor's, in order."""

    KIND = "dice-commits"
    host: Annotated[bytes, Hex(DIGEST_BYTES)]
    joiners: Annotated[tuple[bytes, ...], ListOf(Hex(DIGEST_BYTES), MOST_JOINERS)]


@dataclass(frozen=True)
class DiceReveal(Record):
    """A seated joiner to the host: its secret, once it saw every commitment."""

    KIND = "dice-reveal"
    secret: Annotated[bytes, Hex(SECRET_BYTES)]


@dataclass(frozen=True)
class DiceSecrets(Record):
    """Host to everyone before the first throw: each contributor's secret (null: withheld)."""

    KIND = "dice-secrets"
    joiners: Annotated[tuple[bytes | None, ...],
                       ListOf(Maybe(Hex(SECRET_BYTES)), MOST_JOINERS)]


@dataclass(frozen=True)
class DiceEnd(Record):
    """Host to everyone at the end: its secret."""

    KIND = "dice-end"
    secret: Annotated[bytes, Hex(SECRET_BYTES)]


FROM_HOST = Vocabulary(DiceCommits, DiceSecrets, DiceEnd)
FROM_JOINER = Vocabulary(DiceReveal)


# ---------------------------------------------------------------- the checks


@dataclass(frozen=True)
class Pledges:
    """What a peer was told before the first throw."""

    welcomed: bytes  # the host's commitment in `welcome`
    commits: DiceCommits
    revealed: DiceSecrets


@dataclass(frozen=True)
class Verdict:
    problems: tuple[str, ...]

    @property
    def verified(self) -> bool:
        return not self.problems

    def text(self) -> str:
        return "verified" if self.verified else "not verified: " + "; ".join(self.problems)


def listing_problems(welcomed: bytes, commits: DiceCommits, mine: bytes | None) -> list[str]:
    """A joiner's check of `dice-commits` before it reveals: the host's commitment
    is the one of `welcome`, and the joiner's own (`mine`, if it contributes) is there."""
    problems = []
    if commits.host != welcomed:
        problems.append("the host's commitment is not the one it sent in welcome")
    if mine is not None and mine not in commits.joiners:
        problems.append("this joiner's commitment is missing from the host's list")
    return problems


def reveal_problems(commits: DiceCommits, revealed: DiceSecrets) -> list[str]:
    """Each revealed secret against its commitment (the host's check of each
    `dice-reveal`, and every peer's of `dice-secrets`)."""
    if len(revealed.joiners) != len(commits.joiners):
        return [f"{len(revealed.joiners)} contributions for {len(commits.joiners)} commitments"]
    pairs = zip(revealed.joiners, commits.joiners, strict=True)
    return [f"contribution {i} does not match its commitment"
            for i, (secret, pledged) in enumerate(pairs, start=1)
            if secret is not None and commitment(secret) != pledged]


def verify(pledges: Pledges, host_secret: bytes, record_seed: int, throws: Sequence[int],
           replay: Callable[[int], Iterable[int]]) -> Verdict:
    """Every throw of the game against the commitments: `throws` as they were
    made (the record's, and the steps seen), `replay(seed)` the throws the
    game's generator makes from a seed, in order."""
    problems = listing_problems(pledges.welcomed, pledges.commits, None)
    if commitment(host_secret) != pledges.commits.host:
        problems.append("the host's revealed secret does not match its commitment")
    problems += reveal_problems(pledges.commits, pledges.revealed)
    seed = seed_of(host_secret, pledges.revealed.joiners)
    if record_seed != seed:
        problems.append(f"the record's seed is {record_seed}, the commitments give {seed}")
    due_throws = itertools.chain(replay(seed), itertools.repeat(None))
    wrong = []
    for n, seen in enumerate(throws, start=1):
        due = next(due_throws)
        if seen != due:
            wrong.append(f"throw {n}: {seen}, the commitments give {due}")
    problems += wrong[:MOST_SHOWN]
    if len(wrong) > MOST_SHOWN:
        problems.append(f"and {len(wrong) - MOST_SHOWN} more throws")
    return Verdict(tuple(problems))


def unrevealed() -> Verdict:
    """The verdict when the game ended (or its host went) without `dice-end`."""
    return Verdict(("the host did not reveal its secret",))


class HostDice:
    """The host's side: its secret, and the seed once the contributions are in."""

    def __init__(self, secret: bytes | None = None) -> None:
        self.secret = secret or new_secret()
        self.commitment = commitment(self.secret)

    def seed(self, revealed: DiceSecrets, bits: int = SEED_BITS) -> int:
        return seed_of(self.secret, revealed.joiners, bits)


class JoinerDice:
    """A contributing joiner's side: its secret and its commitment."""

    def __init__(self) -> None:
        self.secret = new_secret()
        self.commitment = commitment(self.secret)

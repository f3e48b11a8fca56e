"""The guessing limits, by the clock: at most 5 wrong codes a minute in all and
2 from one source; a right code is no wrong guess; a stranger cannot keep a
new honest peer out."""

from __future__ import annotations

import pytest

from palmish.network.session.guesses import Guesses, Ticket, source_of


def wrong(guesses: Guesses, source: str, now: float) -> None:
    ticket = guesses.try_code(source, now)
    assert isinstance(ticket, Ticket), (source, now, ticket)


def test_five_wrong_codes_a_minute_in_all_then_a_lockout_until_the_oldest_is_a_minute_old(
) -> None:
    guesses = Guesses()
    for n in range(5):
        wrong(guesses, f"10.0.0.{n}", float(n))
    assert guesses.try_code("10.0.0.9", 10.0) == pytest.approx(50.0)
    wrong(guesses, "10.0.0.9", 60.0)  # the first is a minute old
    assert isinstance(guesses.try_code("10.0.0.8", 60.5), float)


def test_two_a_source_and_the_rest_left_to_everyone_else() -> None:
    guesses = Guesses()
    for second in range(0, 600, 30):  # a stranger guessing as fast as he is let
        result = guesses.try_code("10.0.0.66", float(second))
        assert isinstance(result, Ticket) or result <= 60
    for now in (1.0, 301.0, 599.0):  # a new peer is let in whenever it comes
        assert isinstance(guesses.try_code(f"10.0.0.{int(now) % 200}", now), Ticket)
    assert guesses.counted(599.0) <= 5


def test_a_right_code_is_uncounted_and_an_open_try_counts_until_then() -> None:
    guesses = Guesses()
    tickets = [guesses.try_code("10.0.0.1", 0.0), guesses.try_code("10.0.0.2", 0.0)]
    assert guesses.counted(0.0) == 2
    for ticket in tickets:
        assert isinstance(ticket, Ticket)
        ticket.right()
        ticket.right()  # once is enough
    assert guesses.counted(0.0) == 0


def test_many_tries_at_once_are_all_counted_before_any_answer() -> None:
    guesses = Guesses()
    results = [guesses.try_code(f"10.0.1.{n}", 5.0) for n in range(50)]
    assert sum(isinstance(r, Ticket) for r in results) == 5


@pytest.mark.parametrize("host, source", [
    ("192.168.1.20", "192.168.1.20"),
    ("::ffff:192.168.1.20", "192.168.1.20"),
    ("2001:db8:1:2:aaaa::1", "2001:db8:1:2::/64"),
    ("2001:db8:1:2:bbbb::9%eth0", "2001:db8:1:2::/64"),
    ("not an address", "not an address"),
])
def test_sources_are_addresses_and_ipv6_networks(host: str, source: str) -> None:
    assert source_of(host) == source

"""The last round of a game as lines: every player's latest turn, oldest first.

The Tall and Wide panel shows it (scrollable); Game > History shows it in every
configuration. A turn is a run of message lines of one player (its throws,
moves, passes and lost throws); the last round is the latest turn of each player.
"""

from __future__ import annotations

from palmish.pachisi.game import Event, Game


def last_round(game: Game) -> list[list[Event]]:
    """The latest turn of each player (the one under way included), oldest first."""
    turns: list[list[Event]] = []
    for event in game.events:
        if turns and turns[-1][0].player == event.player:
            turns[-1].append(event)
        else:
            turns.append([event])
    return turns[-len(game.players):]


def round_lines(game: Game) -> list[str]:
    return [event.text for turn in last_round(game) for event in turn]


def history_text(game: Game) -> str:
    """Game > History: one heading per player's turn, then what happened."""
    turns = last_round(game)
    if not turns:
        return "Nothing has happened yet: the first player throws."
    parts = []
    for turn in turns:
        name = game.players[turn[0].player].name
        parts.append(f"# {name}\n" + "\n".join(event.text for event in turn))
    return "\n\n".join(parts)

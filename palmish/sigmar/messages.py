"""Shorter wordings of the app's one-line messages, for the line below the field on
Square and Square-low, which holds about 27 characters: the view shows the first
wording that fits, so "Quicksilver is locked: it needs two empty sides" still says
why ("Locked: needs 2 empty sides") instead of ending in "...".
"""

from __future__ import annotations

import re

# (the message, its shorter wordings, longest first); \\1, \\2 are the message's groups.
_SHORTER: tuple[tuple[re.Pattern[str], tuple[str, ...]], ...] = tuple(
    (re.compile(pattern), wordings) for pattern, wordings in (
        (r"(.+) is locked: it needs two empty sides",
         (r"\1 is locked: needs 2 empty sides", r"\1 locked: needs 2 empty sides",
          "Locked: needs 2 empty sides")),
        (r"Metals go in order: (.+) first", (r"Metals in order: \1 first", r"\1 first")),
        (r"(.+) does not react with (.+)",
         (r"\1 won't react with \2", r"\1 + \2: no reaction", "These two do not react")),
        (r"Slag never reacts: it only blocks", ("Slag never reacts",)),
        (r"No free partner for (.+)", ("No free partner",)),
        (r"No free (.+) for quicksilver", (r"No free \1",)),
        (r"No metal is left for quicksilver", ("No metal left for quicksilver",
                                               "No metal is left")),
        (r"Gold goes alone: quicksilver has nothing to do", ("Gold needs no quicksilver",)),
        (r"Gold goes alone: take it by itself", ("Gold goes alone",)),
        (r"Stuck: no reaction is left\. Undo or Try Again",
         ("Stuck: Undo or Try Again", "Stuck: Undo?")),
        (r"Hint: Select takes the marked atoms", ("Hint: Select takes them",)),
        (r"No hint found in time: try Undo", ("No hint found: try Undo",)),
    )
)


def wordings(message: str) -> list[str]:
    """The message, then its shorter wordings, longest first."""
    out = [message]
    for pattern, shorter in _SHORTER:
        match = pattern.fullmatch(message)
        if match is not None:
            out.extend(match.expand(w) for w in shorter)
            break
    return out

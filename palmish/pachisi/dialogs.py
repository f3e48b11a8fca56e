"""Pachisi's own dialogs: the set-up questions, statistics, caution, about and help.

Preferences, the plugin manager and the help viewer are palmish.boardgame's.
Each builder returns a device modal; the app chains them (app.py).
"""

from __future__ import annotations

from collections.abc import Sequence

from palmish.boardgame.help import HelpPage
from palmish.boardgame.stats import Tallies
from palmish.device.ui.alert import Alert
from palmish.device.ui.form import Form, PushButtons
from palmish.device.ui.name_entry import NameEntry
from palmish.device.ui.question import KeyAlert
from palmish.device.ui.textview import TextViewer
from palmish.pachisi.game import CAUTION_TEXT
from palmish.pachisi.help_text import ABOUT, PLAYING, PLUGINS, RULES

HELP_PAGES = (
    HelpPage("help-rules", "Rules", "Pachisi Rules", RULES),
    HelpPage("help-play", "Playing", "Playing Pachisi", PLAYING),
    HelpPage("help-plugins", "Plugins", "Plugins", PLUGINS),
)
DICE_LABELS = ("Cowries", "7-sided")  # "7-sided die" wrapped at 160x160
START, CANCEL = "Start", "Cancel"
HUMAN, COMPUTER = "h:", "c:"  # statistics keys: a name counts apart as person and computer
NETWORK = "n"  # before those: a network game's player ("nh:Bob"), counted apart


def message(title: str, text: str) -> KeyAlert:
    """A message box that any key clears."""
    return KeyAlert(title, text, icon="info")


def humans_form(humans: int, dice: int) -> Form:
    """Step 1: how many people play, and with what."""
    return Form("New Game", (
        PushButtons("humans", "People", ("1", "2", "3", "4"), humans - 1),
        PushButtons("dice", "Dice", DICE_LABELS, dice),
    ), buttons=("OK", CANCEL))


def computers_alert() -> Alert:
    """Step 2 for one person: one or three computer players."""
    return KeyAlert("New Game", "How many computer players should join you?",
                 ("One", "Three"), icon="confirm")


def fill_alert(humans: int) -> Alert:
    """Step 2 for two or three people: does the computer take the other seats?"""
    seats = 4 - humans
    what = "seat" if seats == 1 else f"{seats} seats"
    # Here No is an answer that goes on with the set-up, so Escape leaves it instead.
    return KeyAlert("New Game", f"Should the computer play the other {what}?",
                    ("Yes", "No"), icon="confirm", escape=())


def name_entry(index: int, count: int, current: str) -> NameEntry:
    title = "Your name" if count == 1 else f"Player {index + 1} of {count}: name"
    return NameEntry(title, current)


def caution_alert() -> Alert:
    """Moving a marked caution move anyway: Cancel is the default (Select, Enter)."""
    return KeyAlert("Caution", CAUTION_TEXT + " Move it anyway?", ("Move", CANCEL),
                    icon="warning", default=1)


def win_alert(text: str) -> Alert:
    return KeyAlert("Game Over", text + "\nPlay again? (Y/N)", ("Yes", "No"), icon="info")


def same_players_alert() -> Alert:
    return KeyAlert("Play Again", "With the same players? (Y/N)", ("Yes", "No"),
                    icon="confirm")


def statistics_text(tallies: Tallies) -> str:
    """Games and wins per player name, people first, most games first; network games
    (docs/network.md) apart, after this device's own."""
    sections = [_section(tallies, "", "Games finished", "games"),
                _section(tallies, NETWORK, "Network games finished", "network")]
    shown = [lines for lines in sections if lines]
    if not shown:
        return "No games finished yet."
    return "\n\n".join("\n".join(lines) for lines in shown)


def _section(tallies: Tallies, prefix: str, heading: str, variant: str) -> list[str]:
    """One kind of game's lines: its total, then its people and computer players."""
    rows: list[tuple[str, str, int, int]] = []
    for key, tally in tallies.variants.items():
        for kind_prefix, kind in ((HUMAN, "person"), (COMPUTER, "computer")):
            if key.startswith(prefix + kind_prefix):
                rows.append((kind, key[len(prefix + kind_prefix):], tally.played, tally.won))
    if not rows:
        return []
    lines = [f"{heading}: {tallies.tally(variant).played}", ""]
    for kind, title in (("person", "# People"), ("computer", "# Computer players")):
        mine = sorted((r for r in rows if r[0] == kind), key=lambda r: (-r[2], r[1].lower()))
        if not mine:
            continue
        lines.append(title)
        for _, name, played, won in mine:
            share = f" ({100 * won // played}%)" if played else ""
            games = "1 game" if played == 1 else f"{played} games"
            lines.append(f"{name}: {games}, {won} won{share}")
        lines.append("")
    return lines[:-1]


def statistics_viewer(tallies: Tallies) -> TextViewer:
    return TextViewer("Statistics", statistics_text(tallies))


def about_alert(players: Sequence[str]) -> Alert:
    return KeyAlert("About Pachisi", ABOUT.strip() + "\nPlaying now: " + ", ".join(players))

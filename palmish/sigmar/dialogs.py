"""Sigmar's Garden's own dialogs: levels, board number, statistics, the win, about.

Preferences, the plugin manager and the help viewer are the shared ones of
palmish.boardgame. Each builder returns a device modal (palmish.device.ui).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from palmish.boardgame.help import HelpPage
from palmish.boardgame.stats import Tally
from palmish.device.ui.alert import Alert
from palmish.device.ui.form import Form, PopupList
from palmish.device.ui.number_entry import NumberEntry
from palmish.device.ui.question import KeyAlert
from palmish.sigmar.catalog import LevelEntry, cleared_key
from palmish.sigmar.garden import Garden
from palmish.sigmar.help_text import ABOUT, LEVELS, PLUGINS, RULES
from palmish.sigmar.rules import CARDINALS, METAL_ORDER, Atom

HELP_PAGES = (
    HelpPage("help-rules", "Rules", "Rules", RULES),
    HelpPage("help-levels", "Making levels", "Making Levels", LEVELS),
    HelpPage("help-plugins", "Plugins", "Plugins", PLUGINS),
)
CLEARED_MARK = " *"
# The non-metal kinds in the order the panel counts them.
PANEL_KINDS = (*CARDINALS, Atom.SALT, Atom.VITAE, Atom.MORS, Atom.QUICKSILVER)


def level_label(entry: LevelEntry, cleared: bool) -> str:
    name = f"{entry.id}. {entry.name}" if entry.id.isdigit() else entry.name
    return name + (CLEARED_MARK if cleared else "")


def levels_form(levels: Sequence[LevelEntry], cleared: set[str], current: str | None) -> Form:
    """Pick a level (result values["level"]: its index); * marks cleared ones."""
    labels = tuple(level_label(e, cleared_key(e) in cleared) for e in levels)
    selected = next((i for i, e in enumerate(levels) if e.id == current), 0)
    done = sum(1 for e in levels if cleared_key(e) in cleared)
    return Form(f"Levels ({done}/{len(levels)} cleared)",
                [PopupList("level", "Level", labels, selected)],
                buttons=("Play", "Remove", "Cancel"))


def cannot_remove_alert(entry: LevelEntry) -> Alert:
    return Alert("Remove Level", f"{level_label(entry, False)} comes with the game: only "
                 "levels you installed can be removed.", icon="info")


def remove_level_alert(entry: LevelEntry, others: Sequence[LevelEntry],
                       back: Sequence[LevelEntry] = ()) -> Alert:
    """Confirm removing an installed level (with the others of its database, if any);
    `back` are the bundled levels the removal uncovers (said only when there are some)."""
    what = f"the installed level {level_label(entry, False)}"
    if others:
        ids = ", ".join(e.id for e in others)
        what = f"{entry.file} with its levels {entry.id}, {ids}"
    then = ""
    if len(back) == 1:
        then = f" The bundled level {level_label(back[0], False)} comes back."
    elif back:
        then = f" The bundled levels {', '.join(e.id for e in back)} come back."
    return KeyAlert("Remove Level", f"Remove {what}?{then}", ("Remove", "Cancel"),
                    icon="confirm")  # Y removes, N and Escape keep it


def board_entry(seed: int | None, word: str = "Board") -> NumberEntry:
    """The keypad for a Board Number ("Hex Board Number" in the hexagonal garden, whose
    numbers are its own)."""
    return NumberEntry(f"{word} Number", seed)


def statistics_text(tally: Tally, assisted: int, cleared: Iterable[str],
                    levels: Sequence[LevelEntry], garden: str | None = None) -> str:
    known = {cleared_key(e): e.id for e in levels}
    done = [known[i] for i in cleared if i in known]
    streak = tally.streak if tally.streak > 0 else 0
    lines = ([f"{garden} garden"] if garden else []) + [
        f"Won: {tally.won} (assisted by Hint: {assisted})",
        f"Lost: {tally.lost}",
        f"Winning streak: {streak}",
        f"Best streak: {tally.best_streak}",
        f"Levels cleared: {len(done)} of {len(levels)}",
    ]
    if done:  # labelled: a bare "1" on its own line said nothing
        lines.append("Cleared: " + ", ".join(done))
    return "\n".join(lines)


def statistics(tally: Tally, assisted: int, cleared: Iterable[str],
               levels: Sequence[LevelEntry], garden: str | None = None) -> Alert:
    """The statistics of one garden (each keeps its own table)."""
    return Alert("Statistics", statistics_text(tally, assisted, cleared, levels, garden))


def won_alert(title: str, assisted: bool, takes: int, after: LevelEntry | None = None) -> Alert:
    """The win; with `after` (the level after a cleared level) a "Next" button opens it."""
    how = " with the Hint's help (counted as assisted)" if assisted else ""
    text = f"{title}: cleared in {takes} reactions{how}."
    if after is None:
        return Alert("Garden Cleared", text, buttons=("New Game", "OK"))
    return Alert("Garden Cleared", f"{text}\nNext: {level_label(after, False)}",
                 buttons=("Next", "New Game", "OK"))


def stuck_alert(title: str, left: int) -> Alert:
    """A stuck board: Undo, Retry (Try Again: "Try Again" does not fit beside the others
    on 160x160) or New Game; Escape leaves the board as it is."""
    atoms = "atom is" if left == 1 else "atoms are"
    return Alert("Stuck", f"{title}: no reaction is left, and {left} {atoms} still on "
                 "the board. Retry starts it again.", buttons=("Undo", "Retry", "New Game"))


def board_info_text(game: Garden, title: str, tally: Tally) -> str:
    """Short enough for the 160x160 screen's alert: elements in the panel's order, the
    metals (one of each) as the order still to go."""
    left = game.counts()
    kinds = [f"{atom.title} {left[atom]}" for atom in PANEL_KINDS if left.get(atom)]
    current = game.current_metal
    if current is None:
        metals = "No metals left"
    else:
        later = [m.title for m in METAL_ORDER[METAL_ORDER.index(current) + 1:] if left.get(m)]
        metals = f"Current metal: {current.title}" + (f" (then {', '.join(later)})"
                                                      if later else "")
    return "\n".join([
        title,
        f"Atoms left: {game.remaining}",
        ", ".join(kinds) if kinds else "Only metals left" if current else "none",
        metals,
        f"Wins {tally.won}, streak {max(0, tally.streak)}",
    ])


def board_info(game: Garden, title: str, tally: Tally) -> Alert:
    return Alert("Board", board_info_text(game, title, tally))


def about_alert() -> Alert:
    return Alert("About Sigmar's Garden", ABOUT.strip())

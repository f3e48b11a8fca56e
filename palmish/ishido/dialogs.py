"""PalmIshido's own dialogs: game over, about, deal number and the help pages.

Preferences, the plugin manager and the help viewer are the shared ones of
palmish.boardgame. Each builder returns a device modal (palmish.device.ui).
"""

from __future__ import annotations

from palmish import __version__
from palmish.boardgame.help import HelpPage
from palmish.device.events import Key, KeyDown, PenDown, PenMove, PenUp
from palmish.device.ui.alert import Alert
from palmish.device.ui.number_entry import NumberEntry
from palmish.device.ui.textview import TextViewer
from palmish.device.ui.widgets import ButtonRow
from palmish.ishido import Game, roman
from palmish.ishido.help_text import ABOUT, GAME_PLAY, PLUGINS, SCORING
from palmish.ishido.scores import Entry, HighScores

HELP_PAGES = (
    HelpPage("help-play", "Game play", "Game Play", GAME_PLAY),
    HelpPage("help-scoring", "Scoring", "Scoring", SCORING),
    HelpPage("help-plugins", "Plugins", "Plugins", PLUGINS),
)


def about_alert(game: Game, scores: HighScores) -> Alert:
    best = scores.table(game.scoring)
    line = f"\nBest {game.scoring} score: {best[0].score}" if best else ""
    return Alert("About PalmIshido", f"{ABOUT.strip()}\nVersion {__version__}{line}")


def finished_alert(game: Game) -> Alert:
    """What a tap on a finished game's board says."""
    how = "all 72 tiles are down" if game.remaining == 0 else "the tile in hand fits nowhere"
    return Alert("Game Over", f"This game is over: {how}. Game > New Game (/N) deals another.",
                 icon="info")


def score_line(rank: int, entry: Entry) -> str:
    return (f"{rank}. {entry.score} ({entry.fourways} 4-way, {entry.tiles_left} left, "
            f"deal {entry.seed})")


def deal_entry(seed: int | None) -> NumberEntry:
    return NumberEntry("Deal Number", seed)


# ---------------------------------------------------------------- game over


class GameOverViewer(TextViewer):
    """The result and the high-score table, scrolling, with New Game and Done.

    Result: 0 for New Game, 1 for Done (named by palmish.boardgame.FormResult).
    Done is the default: Select (and Escape) close it without dealing a new game.
    """

    def __init__(self, title: str, text: str) -> None:
        super().__init__(title, text)
        self.row = ButtonRow(("New Game", "Done"))
        self.row.focus = 1

    def cancel(self) -> None:
        self.close(1)

    def _handle(self, event: PenDown | PenMove | PenUp | KeyDown) -> None:
        if isinstance(event, KeyDown):
            if event.key in (Key.LEFT, Key.RIGHT):
                self.row.move_focus(1)
            elif event.key is Key.SELECT:
                self.close(self.row.focus)
            else:
                super()._handle(event)
            return
        chosen = self.row.pen(event)
        if chosen is not None:
            self.close(chosen)
            return
        if self.row.armed is None:
            self._scroll_pen(event)


def game_over_text(game: Game, scores: HighScores, rank: int | None,
                   not_counted: str | None = None) -> str:
    """The Game Over text; `not_counted` says why this game is not in the table."""
    if game.remaining == 0:
        headline = "All 72 tiles are on the board!"
    else:
        headline = "No cell fits the tile in hand."
    ancient = f" ({roman(game.fourways)})" if game.fourways else ""
    lines = [
        headline,
        f"Modern score: {game.score}" if game.scoring == "modern"
        else f"Score (scored variant): {game.score}",
        f"Four-ways: {game.fourways}{ancient}",
        f"Tiles left: {game.remaining}",
    ]
    if rank is not None:
        lines.append(f"Number {rank} in the high scores!")
    if not_counted is not None:
        lines.append(not_counted)
    lines.append("")
    lines.append(f"# High scores ({game.scoring})")
    table = scores.table(game.scoring)
    if not table:
        lines.append("none yet")
    for i, entry in enumerate(table, start=1):
        marker = " <" if rank == i else ""
        lines.append(score_line(i, entry) + marker)
    return "\n".join(lines)


def game_over_alert(game: Game, scores: HighScores, rank: int | None,
                    not_counted: str | None = None) -> GameOverViewer:
    return GameOverViewer("Game Over", game_over_text(game, scores, rank, not_counted))

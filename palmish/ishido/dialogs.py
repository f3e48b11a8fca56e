"""PalmIshido's dialogs: game over, preferences, plugin manager, help, about, deal number.

Each builder returns a device modal (palmish.device.ui); the app opens it and
acts on its result.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from palmish.device.events import Key, KeyDown, PenDown, PenMove, PenUp
from palmish.device.plugins import PluginInfo
from palmish.device.ui.alert import Alert
from palmish.device.ui.form import CheckBox, Field, Form, Label, PopupList, PushButtons
from palmish.device.ui.modal import Modal
from palmish.device.ui.textview import TextViewer
from palmish.device.ui.widgets import ButtonRow
from palmish.ishido import Game, roman
from palmish.ishido.deal_entry import DealEntry
from palmish.ishido.help_text import ABOUT, GAME_PLAY, PLUGINS, SCORING
from palmish.ishido.rules import SCORINGS
from palmish.ishido.scores import HighScores

if TYPE_CHECKING:
    from palmish.ishido.app import PluginContext

KINDS = (("board", "Board"), ("pieces", "Pieces"), ("sound", "Sound"))
SLOT_TITLES = {"square": "Square", "tall": "Tall", "wide": "Wide"}

HELP_PAGES = {
    "help-play": ("Game Play", GAME_PLAY),
    "help-scoring": ("Scoring", SCORING),
    "help-plugins": ("Plugins", PLUGINS),
}


def help_viewer(command: str) -> TextViewer:
    title, text = HELP_PAGES[command]
    return TextViewer(title, text)


def about_alert(game: Game, scores: HighScores) -> Alert:
    best = scores.table(game.scoring)
    line = f"\nBest {game.scoring} score: {best[0].score}" if best else ""
    return Alert("About PalmIshido", ABOUT.strip() + line)


def deal_entry(seed: int | None) -> DealEntry:
    return DealEntry(seed)


# ---------------------------------------------------------------- game over


class GameOverViewer(TextViewer):
    """The result and the high-score table, scrolling, with New Game and Done.

    Result: 0 for New Game, 1 for Done.
    """

    def __init__(self, title: str, text: str) -> None:
        super().__init__(title, text)
        self.row = ButtonRow(("New Game", "Done"))

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


def game_over_text(game: Game, scores: HighScores, rank: int | None) -> str:
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
    lines.append("")
    lines.append(f"# High scores ({game.scoring})")
    table = scores.table(game.scoring)
    if not table:
        lines.append("none yet")
    for i, entry in enumerate(table, start=1):
        marker = " <" if rank == i else ""
        lines.append(f"{i}. {entry.score} ({entry.fourways} 4-way, {entry.tiles_left} left, "
                     f"deal {entry.seed}){marker}")
    return "\n".join(lines)


def game_over_alert(game: Game, scores: HighScores, rank: int | None) -> GameOverViewer:
    return GameOverViewer("Game Over", game_over_text(game, scores, rank))


# ---------------------------------------------------------------- preferences


@dataclass(frozen=True)
class PrefsOutcome:
    scoring: str
    sound: bool


def _unique_names(infos: list[PluginInfo]) -> list[str]:
    names: list[str] = []
    for info in infos:
        if info.name not in names:
            names.append(info.name)
    return names


def _in_use(plugins: PluginContext, kind: str, slot: str, names: list[str]) -> int:
    """Index of the plugin used now: the user's choice, else the bundled default."""
    chosen = plugins.plugin_choice(kind, slot)
    if chosen in names:
        return names.index(chosen)
    infos = plugins.plugins(kind, slot)
    defaults = [i.name for i in infos if i.bundled and i.default]
    bundled = [i.name for i in infos if i.bundled]
    for name in (*defaults, *bundled):
        if name in names:
            return names.index(name)
    return 0


def preferences_form(
    plugins: PluginContext, slots: list[str], scoring: str, sound: bool
) -> tuple[Form, Callable[[object], PrefsOutcome | None]]:
    """The Preferences form and the function that applies its result.

    Plugins are chosen per configuration (`slots`, the current one first), each
    offering only the plugins that serve it. Scoring applies from the next game.
    """
    fields: list[Field] = []
    offered: dict[tuple[str, str], list[str]] = {}
    for slot in slots:
        fields.append(Label(f"{SLOT_TITLES.get(slot, slot)} display"))
        for kind, title in KINDS:
            names = _unique_names(plugins.plugins(kind, slot))
            if not names:
                continue
            offered[(slot, kind)] = names
            fields.append(PopupList(f"{slot}/{kind}", title, tuple(names),
                                    _in_use(plugins, kind, slot, names)))
    fields.append(Label("Game"))
    fields.append(PushButtons("scoring", "Scoring", ("Modern", "Scored"),
                              SCORINGS.index(scoring) if scoring in SCORINGS else 0))
    fields.append(CheckBox("sound", "Sound", sound))
    # "?" opens the Plugins help, as the circle-i icon of the original did.
    form = Form("Preferences", fields, buttons=("OK", "Cancel", "?"))

    def apply(result: object) -> PrefsOutcome | None:
        if not (isinstance(result, tuple) and len(result) == 2 and result[0] == 0):
            return None  # cancelled
        values = result[1]
        if not isinstance(values, dict):
            return None
        for (slot, kind), names in offered.items():
            index = values.get(f"{slot}/{kind}")
            if not isinstance(index, int) or not 0 <= index < len(names):
                continue
            if index != _in_use(plugins, kind, slot, names):
                plugins.choose_plugin(kind, slot, names[index])
        chosen_scoring = values.get("scoring")
        new_scoring = (SCORINGS[chosen_scoring]
                       if isinstance(chosen_scoring, int) and 0 <= chosen_scoring < len(SCORINGS)
                       else scoring)
        return PrefsOutcome(new_scoring, values.get("sound") is not False)

    return form, apply


# ---------------------------------------------------------------- plugin manager


def plugin_details(info: PluginInfo) -> str:
    configs = ", ".join(SLOT_TITLES.get(c, c) for c in info.configs)
    return (f"Kind: {info.kind}\nConfigurations: {configs}\nVersion: {info.version}\n"
            f"Author: {info.author}\nSource: {info.source}")


def plugin_listing(infos: list[PluginInfo], first: int) -> str:
    """Every plugin with its details, the selected one first (TextViewer headings)."""
    order = [first] + [i for i in range(len(infos)) if i != first]
    return "\n\n".join(f"# {infos[i].name}\n{plugin_details(infos[i])}" for i in order)


def open_plugin_manager(
    plugins: PluginContext,
    open_modal: Callable[[Modal, Callable[[object], None] | None], None],
    changed: Callable[[], None],
    selected: int = 0,
) -> None:
    """The Plugin Manager: pick a plugin; Info lists it and then every other plugin
    with name, kind, configurations, version and author; Delete removes an
    installed one (after a confirmation). Bundled plugins cannot be deleted."""
    infos = plugins.plugins()
    if not infos:
        open_modal(Alert("Plugin Manager", "No plugins are installed."), None)
        return
    labels = tuple(f"{i.name} ({i.kind}{', bundled' if i.bundled else ''})" for i in infos)
    selected = max(0, min(selected, len(infos) - 1))
    form = Form("Plugin Manager", [PopupList("plugin", "Plugin", labels, selected)],
                buttons=("Info", "Delete", "Done"))

    def reopen(index: int) -> Callable[[object], None]:
        return lambda _result: open_plugin_manager(plugins, open_modal, changed, index)

    def closed(result: object) -> None:
        if not (isinstance(result, tuple) and len(result) == 2):
            return
        button, values = result
        index = values.get("plugin", 0) if isinstance(values, dict) else 0
        if not isinstance(index, int) or not 0 <= index < len(infos):
            return
        info = infos[index]
        if button == 0:
            open_modal(TextViewer("Plugin Info", plugin_listing(infos, index)), reopen(index))
        elif button == 1:
            if info.bundled:
                open_modal(Alert("Plugin Manager",
                                 f"{info.name} comes with PalmIshido and cannot be deleted."),
                           reopen(index))
                return

            def confirmed(answer: object) -> None:
                if answer == 0:
                    try:
                        plugins.delete_plugin(info)
                    except (OSError, ValueError) as exc:
                        plugins.notify(f"could not delete {info.name}: {exc}")
                    changed()
                    open_plugin_manager(plugins, open_modal, changed, 0)
                else:
                    open_plugin_manager(plugins, open_modal, changed, index)

            open_modal(Alert("Delete Plugin", f"Delete {info.name}?", ("Delete", "Cancel")),
                       confirmed)

    open_modal(form, closed)

"""The Preferences form: a plugin row per kind for each display configuration, then
the game's own fields and Sound.

Plugins are chosen per configuration (the current one first; a classic 160x160
device has only Square), each row offering only the plugins that serve it. A
choice changes only its own configuration, unless the player ticks "Same
plugins" under "Every display" (offered when there is more than one): then
each changed row is copied to the other configurations where a plugin of its
family serves.
Buttons: OK, Cancel and "?" (the plugins' help, like the original's circle-i).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from palmish.boardgame.dialogs import FormResult
from palmish.boardgame.media import PluginContext
from palmish.device.display import DisplayConfig
from palmish.device.store.info import PluginInfo
from palmish.device.ui.form import CheckBox, Field, Form, Label, PopupList

KIND_TITLES = (("board", "Board"), ("pieces", "Pieces"), ("sound", "Sound"))
SLOT_TITLES = {"square": "Square", "tall": "Tall", "wide": "Wide"}
SLOTS = ("square", "tall", "wide")
OK, CANCEL, HELP = "OK", "Cancel", "?"
SHARE = "share_plugins"  # the check box that copies a choice to every display


def slots_for(config: DisplayConfig) -> list[str]:
    """The configurations to offer: the current one first, all of them if it can rotate."""
    current = config.plugin_slot
    return [current] + ([s for s in SLOTS if s != current] if config.can_rotate else [])


def family(name: str) -> tuple[str, str]:
    """A plugin's name in portrait and in landscape ('X' and 'X Wide')."""
    base = name.removesuffix(" Wide")
    return (base, f"{base} Wide")


def _unique_names(infos: list[PluginInfo]) -> list[str]:
    return list(dict.fromkeys(info.name for info in infos))


def in_use(plugins: PluginContext, kind: str, slot: str, names: list[str]) -> int:
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


@dataclass
class PreferencesForm:
    form: Form
    offered: dict[tuple[str, str], list[str]]  # (slot, kind) -> the names in its popup

    def apply_plugins(self, plugins: PluginContext, result: FormResult) -> None:
        """Remember every plugin row the player changed, for its configuration only.

        With "Same plugins" ticked, a changed row is also copied to the
        other configurations whose row was left alone, where a plugin of the same
        family serves (the name with or without " Wide"): high-contrast pieces
        picked for Square become the high-contrast Wide pieces for Wide.
        """
        changed: dict[tuple[str, str], str] = {}
        for (slot, kind), names in self.offered.items():
            index = result.values.get(f"{slot}/{kind}")
            if not isinstance(index, int) or not 0 <= index < len(names):
                continue
            if index != in_use(plugins, kind, slot, names):
                plugins.choose_plugin(kind, slot, names[index])
                changed[(slot, kind)] = names[index]
        if not result.flag(SHARE, False):
            return
        for (_slot, kind), name in changed.items():
            for (other, other_kind), names in self.offered.items():
                if other_kind != kind or (other, kind) in changed:
                    continue
                sibling = next((n for n in family(name) if n in names), None)
                if sibling is not None and sibling != names[in_use(plugins, kind, other, names)]:
                    plugins.choose_plugin(kind, other, sibling)


def preferences_form(plugins: PluginContext, slots: Sequence[str],
                     game_fields: Sequence[Field], sound: bool,
                     kinds: Sequence[tuple[str, str]] = KIND_TITLES) -> PreferencesForm:
    """The form; the game's fields (values keyed by their keys) sit under "Game".
    `kinds` are the plugin kinds offered with their titles (a game may add its own)."""
    fields: list[Field] = []
    offered: dict[tuple[str, str], list[str]] = {}
    for slot in slots:
        fields.append(Label(f"{SLOT_TITLES.get(slot, slot)} display"))
        for kind, title in kinds:
            names = _unique_names(plugins.plugins(kind, slot))
            if not names:
                continue
            offered[(slot, kind)] = names
            fields.append(PopupList(f"{slot}/{kind}", title, tuple(names),
                                    in_use(plugins, kind, slot, names)))
    if len(slots) > 1:
        fields.append(Label("Every display"))  # the box's meaning in its heading
        fields.append(CheckBox(SHARE, "Same plugins", False))
    fields.append(Label("Game"))
    fields.extend(game_fields)
    fields.append(CheckBox("sound", "Sound", sound))
    return PreferencesForm(Form("Preferences", fields, buttons=(OK, CANCEL, HELP)), offered)

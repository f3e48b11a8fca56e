"""The Plugin Manager: pick a plugin; Info lists it and then every other plugin with
name, kind, configurations, version and author; Beam sends its database to
another handheld (bundled or installed); Delete removes an installed one after
a confirmation. Bundled plugins cannot be deleted."""

from __future__ import annotations

from collections.abc import Callable

from palmish.boardgame.beam_send import beam
from palmish.boardgame.dialogs import form_result
from palmish.boardgame.media import PluginContext
from palmish.boardgame.prefs import SLOT_TITLES
from palmish.device.exchange import PLUGIN, BeamItem
from palmish.device.store.info import PluginInfo
from palmish.device.ui.alert import Alert
from palmish.device.ui.form import Form, PopupList
from palmish.device.ui.modal import Modal
from palmish.device.ui.question import KeyAlert
from palmish.device.ui.textview import TextViewer

OpenModal = Callable[[Modal, Callable[[object], None] | None], None]


def plugin_details(info: PluginInfo) -> str:
    configs = ", ".join(SLOT_TITLES.get(c, c) for c in info.configs)
    return (f"Kind: {info.kind}\nConfigurations: {configs}\nVersion: {info.version}\n"
            f"Author: {info.author}\nSource: {info.source}")


def plugin_listing(infos: list[PluginInfo], first: int) -> str:
    """Every plugin with its details, the selected one first (TextViewer headings)."""
    order = [first] + [i for i in range(len(infos)) if i != first]
    return "\n\n".join(f"# {infos[i].name}\n{plugin_details(infos[i])}" for i in order)


def _beam_plugin(plugins: PluginContext, info: PluginInfo, open_modal: OpenModal) -> None:
    """Beam: the plugin's database itself, bundled or installed."""
    try:  # too large a file goes anyway: the receiver refuses it by its size
        data = plugins.plugin_file(info)
    except ValueError as err:
        open_modal(Alert("Beam", f"Cannot beam {info.name}: {err}", icon="error"), None)
        return
    beam(BeamItem(PLUGIN, data=data), info.name, open_modal, plugins.beam())


def open_plugin_manager(plugins: PluginContext, open_modal: OpenModal,
                        changed: Callable[[], None], app_name: str, selected: int = 0) -> None:
    """Open the manager; `changed` runs after a deletion (the app reloads its plugins)."""
    infos = plugins.plugins()
    if not infos:
        open_modal(Alert("Plugin Manager", "No plugins are installed."), None)
        return
    # Short rows: the kind, and "installed" only for what the user added (the rest came
    # with the game); too long a row is shortened before its last word.
    labels = tuple(f"{i.name} ({i.kind}{'' if i.bundled else ', installed'})" for i in infos)
    selected = max(0, min(selected, len(infos) - 1))
    form = Form("Plugin Manager", [PopupList("plugin", "Plugin", labels, selected)],
                buttons=("Info", "Beam", "Delete", "Done"))

    def reopen(index: int) -> Callable[[object], None]:
        return lambda _result: open_plugin_manager(plugins, open_modal, changed, app_name, index)

    def closed(raw: object) -> None:
        result = form_result(raw)
        index = result.selected("plugin", len(infos))
        if result.button is None or index is None:
            return
        info = infos[index]
        if result.button == "Info":
            open_modal(TextViewer("Plugin Info", plugin_listing(infos, index)), reopen(index))
        elif result.button == "Beam":
            _beam_plugin(plugins, info, open_modal)
        elif result.button == "Delete":
            if info.bundled:
                open_modal(Alert("Plugin Manager",
                                 f"{info.name} comes with {app_name} and cannot be deleted."),
                           reopen(index))
                return

            def confirmed(answer: object) -> None:
                if form_result(answer).button == "Delete":
                    try:
                        plugins.delete_plugin(info)
                    except (OSError, ValueError) as exc:
                        plugins.notify(f"could not delete {info.name}: {exc}")
                    changed()
                    open_plugin_manager(plugins, open_modal, changed, app_name, 0)
                else:
                    open_plugin_manager(plugins, open_modal, changed, app_name, index)

            open_modal(KeyAlert("Delete Plugin", f"Delete {info.name}?", ("Delete", "Cancel")),
                       confirmed)

    open_modal(form, closed)

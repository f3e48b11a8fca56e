"""Help pages: each is a menu command that opens a scrolling text viewer."""

from __future__ import annotations

from palmish.device.ui.textview import TextViewer
from prc_tools.frozen import Frozen


class HelpPage(Frozen):
    """One Help menu item and the page it opens."""

    command: str  # the menu command, e.g. "help-play"
    label: str  # the Help menu's item
    title: str  # the viewer's title
    text: str  # TextViewer markup: '# ' starts a heading


def help_viewer(page: HelpPage) -> TextViewer:
    return TextViewer(page.title, page.text)

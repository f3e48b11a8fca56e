"""What every game app shares (docs/architecture.md, "The shared game layer").

No pyglet here and no game: games import this layer, never the other way.
"""

from palmish.boardgame.app import BoardGameApp, Command
from palmish.boardgame.dialogs import FormResult, form_result
from palmish.boardgame.grid import BoardPlacement, Grid, place_board
from palmish.boardgame.help import HelpPage, help_viewer
from palmish.boardgame.media import Media
from palmish.boardgame.saved import SavedGameError, SavedRecord
from palmish.boardgame.stats import ScoreTables, Tallies, Tally
from palmish.boardgame.turns import Turns

__all__ = [
    "BoardGameApp",
    "BoardPlacement",
    "Command",
    "FormResult",
    "Grid",
    "HelpPage",
    "Media",
    "SavedGameError",
    "SavedRecord",
    "ScoreTables",
    "Tallies",
    "Tally",
    "Turns",
    "form_result",
    "help_viewer",
    "place_board",
]

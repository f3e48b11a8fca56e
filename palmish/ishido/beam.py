"""What PalmIshido beams (docs/network.md, "Beam"; the descriptor's `beam`): a
deal by its number, which deals the same 72 tiles in the same order. The running
game's deal and the opening of a received one are the app's own
(`IshidoApp.beam_item` and `open_beamed`), so this module knows no app class."""

from __future__ import annotations

from pathlib import Path

from palmish.device.disk.storage import Storage
from palmish.device.exchange import BeamItem, Checked
from palmish.device.machine.app import App
from palmish.ishido.descriptor import GAME

DEAL = "deal"


class IshidoBeam:
    def kinds(self) -> tuple[str, ...]:
        return (DEAL,)

    def number_kinds(self) -> tuple[str, ...]:
        return (DEAL,)

    def current_item(self, app: App) -> BeamItem | None:
        return app.beam_item() if app.descriptor is GAME else None

    def item_from_file(self, path: Path) -> BeamItem | None:
        return None  # a deal is a number, never a file

    def check_database(self, data: bytes) -> Checked | None:
        return None  # every PalmIshido database is a plugin

    def check(self, item: BeamItem) -> Checked:
        return Checked(f"Deal {item.number}", f"{GAME.name} deal")

    def install(self, item: BeamItem, storage: Storage) -> str:
        raise ValueError("a deal opens in its game; there is nothing to install")

    def open(self, app: App, item: BeamItem, ask: bool) -> None:
        if app.descriptor is not GAME:
            raise ValueError(f"a deal opens in {GAME.name}")
        app.open_beamed(item, ask)  # IshidoApp.open_beamed: the deal

BEAM = IshidoBeam()

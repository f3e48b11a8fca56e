"""`InstalledWatch`: a plugin installed while the window runs (`palmish install` from
a terminal, a preview of another folder) is shown at once where it is the chosen one,
with no Preferences round trip. The window's clock asks twice a second; a look is
one listing of the installed plugins' folder (names, sizes, times: no file read),
and a change, once settled, is a `PluginsChanged` to the device, whose running game
takes its chosen plugins again."""

from __future__ import annotations

from palmish.device.events import PluginsChanged
from palmish.device.machine.system import Device
from palmish.device.store.watched_folder import WatchedFolder

POLL_S = 0.5


class InstalledWatch:
    interval_s = POLL_S

    def __init__(self, device: Device) -> None:
        self.device = device
        self.watched = WatchedFolder(device.storage.databases_dir, ".prc")
        self.watched.due()
        self.watched.mark_built()  # what is there now is what the device shows

    def poll(self) -> bool:
        if not self.watched.due():
            return False
        self.watched.mark_built()
        self.device.post(PluginsChanged())
        return True

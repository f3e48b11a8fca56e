"""Pachisi's name keyboard is the device's (palmish.device.ui.name_entry), shared
with Beam's address entry."""

from palmish.device.ui.name_entry import MAX_NAME, NameEntry

__all__ = ["MAX_NAME", "NameEntry"]

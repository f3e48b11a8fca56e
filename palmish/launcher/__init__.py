"""The Palm 'Applications' screen."""

from palmish.launcher.app import LauncherApp

__all__ = ["LauncherApp"]

"""What the command line offers apps beyond the device itself.

`network`: set by the window's command line to a function that returns the
network service (palmish.network.service.WindowNetwork) an app may use to
host or join a network game; None in tests, screenshots and scripts, where
nothing may open a socket. The device and the apps never import the network:
they only call what was put here.

`beam`: the same for Beam (palmish.device.beam.beaming.BeamService): sending and
receiving boards, deals, levels and plugins; None without the window.
"""

from __future__ import annotations

from collections.abc import Callable

network: Callable[[], object] | None = None
beam: Callable[[], object] | None = None

"""Display configurations of the emulated handheld and the changes between them.

Square-low is a classic 160x160 device (no dynamic input area); Square, Tall and
Wide are the three configurations of a T3-style 320x480 device: input area open
(Square), closed (Tall) and rotated (Wide).
"""

from __future__ import annotations

import enum

from palmish.device.geometry import Rect
from prc_tools.frozen import Frozen

# Native pixels on the double-density (T3-style) device: a 320x480 LCD whose
# bottom 160 rows are the input area (140) and the status bar (20) when the
# input area is open; the status bar runs down the right side in landscape.
STATUS_BAR = 20
INPUT_AREA = 140


class ConfigName(str, enum.Enum):
    SQUARE_LOW = "square-low"
    SQUARE = "square"
    TALL = "tall"
    WIDE = "wide"


class DisplayConfig(Frozen):
    """One display configuration: LCD size and density, orientation, the input area."""

    name: ConfigName
    width: int  # the whole LCD in native pixels
    height: int
    density: int  # 72 (low) or 144 (double)
    landscape: bool
    input_area_open: bool
    can_rotate: bool
    has_dynamic_input_area: bool

    @property
    def plugin_slot(self) -> str:
        """Which per-configuration plugin choice applies: 'square', 'tall' or 'wide'."""
        return "square" if self.name is ConfigName.SQUARE_LOW else self.name.value

    @property
    def status_bar(self) -> Rect | None:
        """Where the OS draws Home, Menu, input-area toggle and rotate; None on a classic device."""
        if not self.has_dynamic_input_area:
            return None
        if self.landscape:
            return Rect(self.width - STATUS_BAR, 0, STATUS_BAR, self.height)
        return Rect(0, self.height - STATUS_BAR, self.width, STATUS_BAR)

    @property
    def input_area(self) -> Rect | None:
        """The open input area (drawn by the OS), or None when closed or absent."""
        if not self.has_dynamic_input_area or not self.input_area_open:
            return None
        return Rect(0, self.height - STATUS_BAR - INPUT_AREA, self.width, INPUT_AREA)

    @property
    def app_bounds(self) -> Rect:
        """The part of the LCD that belongs to the running app."""
        if not self.has_dynamic_input_area:
            return Rect(0, 0, self.width, self.height)
        if self.landscape:
            return Rect(0, 0, self.width - STATUS_BAR, self.height)
        taken = STATUS_BAR + (INPUT_AREA if self.input_area_open else 0)
        return Rect(0, 0, self.width, self.height - taken)

    @property
    def scale(self) -> int:
        """Pixels per standard (low-density) coordinate: 1 or 2."""
        return self.density // 72


CONFIGS: dict[ConfigName, DisplayConfig] = {
    ConfigName.SQUARE_LOW: DisplayConfig(
        ConfigName.SQUARE_LOW, 160, 160, 72, False, True, False, False
    ),
    ConfigName.SQUARE: DisplayConfig(ConfigName.SQUARE, 320, 480, 144, False, True, True, True),
    ConfigName.TALL: DisplayConfig(ConfigName.TALL, 320, 480, 144, False, False, True, True),
    ConfigName.WIDE: DisplayConfig(ConfigName.WIDE, 480, 320, 144, True, False, True, True),
}


def config_by_name(name: str) -> DisplayConfig:
    """Look up a configuration by its command-line name; ValueError names the choices."""
    try:
        return CONFIGS[ConfigName(name)]
    except ValueError:
        choices = ", ".join(c.value for c in ConfigName)
        message = f"unknown display configuration {name!r} (choose from {choices})"
        raise ValueError(message) from None


def rotated(config: DisplayConfig, came_from: DisplayConfig | None = None) -> DisplayConfig:
    """Portrait <-> landscape. Rotating to landscape closes the input area.

    Turning back goes to `came_from`, the portrait configuration the user rotated
    from (Square if the input area was open), or Tall when that is not known.
    """
    if not config.can_rotate:
        return config
    if config.landscape:
        if came_from is not None and came_from.can_rotate and not came_from.landscape:
            return came_from
        return CONFIGS[ConfigName.TALL]
    return CONFIGS[ConfigName.WIDE]


def input_area_toggled(config: DisplayConfig) -> DisplayConfig:
    """Open/close the input area: Square <-> Tall. Landscape has none to open."""
    if not config.has_dynamic_input_area or config.landscape:
        return config
    if config.input_area_open:
        return CONFIGS[ConfigName.TALL]
    return CONFIGS[ConfigName.SQUARE]

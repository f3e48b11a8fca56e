"""palmish: a Palm OS-style handheld on the desktop."""

__version__ = "0.1.0"

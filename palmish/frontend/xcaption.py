"""Setting an X11 window's title without leaking native memory.

pyglet's xlib set_caption builds each of its four title properties with
Xlib's *TextListToTextProperty, which mallocs the text, and never frees it.
The window retitles itself on every display change, so those small chunks
are made per turn and live for ever; glibc then places them inside the large
holes that the turn's big buffers (the GL back buffer resized, the LCD image
converted for upload) leave behind, the holes can no longer take the next
turn's buffers, and the heap grows ~0.5 MB per turn (issue 15 item 7). Here
the properties are written with XChangeProperty straight from a Python bytes
object: Xlib copies it into the request and nothing is left allocated.
"""

from __future__ import annotations

import ctypes
from typing import Any

# Property name -> (its type, how the caption is encoded for it).
_PROPERTIES = (
    ("WM_NAME", "STRING", "latin-1"),
    ("WM_ICON_NAME", "STRING", "latin-1"),
    ("_NET_WM_NAME", "UTF8_STRING", "utf-8"),
    ("_NET_WM_ICON_NAME", "UTF8_STRING", "utf-8"),
)


def is_xlib_window(window: Any) -> bool:
    return getattr(window, "_x_display", None) is not None and bool(
        getattr(window, "_window", None)
    )


def set_x_caption(window: Any, caption: str) -> None:
    """Write `caption` into the title properties of a live pyglet xlib window."""
    from pyglet.libs.x11 import xlib  # only on X11 (loads libX11)

    display, xid = window._x_display, window._window
    for name, kind, encoding in _PROPERTIES:
        data = caption.encode(encoding, "replace")
        atom = xlib.XInternAtom(display, name.encode("ascii"), False)
        type_atom = xlib.XInternAtom(display, kind.encode("ascii"), False)
        buffer = (ctypes.c_ubyte * max(1, len(data))).from_buffer_copy(data or b"\0")
        xlib.XChangeProperty(
            display, xid, atom, type_atom, 8, xlib.PropModeReplace, buffer, len(data)
        )

"""GLX specifics of the window: its GL config, and showing part of a frame.

The GL config is chosen without describing every config the X server has.

A pyglet window asks its screen for the best config for its template
(double-buffered, a 24-bit depth buffer, else 16; OpenGL 3.3): pyglet lists
every config GLX returns for it, reads each one attribute by attribute, and
takes the first, which is GLX's own first choice. Under Xvfb with Mesa that is
some 150 configs and 40-70 ms of a start's CPU (issue 27). `window_config`
asks GLX the same question and reads only the config pyglet would take.
Anywhere but X (or if pyglet's X classes change), it answers None and pyglet
chooses as usual.

`sub_buffer_copy` shows one rectangle of the back buffer (GLX_MESA_copy_sub_buffer,
which Mesa offers, its software renderer included): a frame that changed a few
cells of the LCD draws and sends only those, not the whole window (issue 27:
CPU while dragging).
"""

from __future__ import annotations

from collections.abc import Callable
from ctypes import POINTER, byref, c_int, cast
from typing import Any

from pyglet import gl

# pyglet's own choices, in its order (pyglet.window.BaseWindow.__init__).
DEPTHS = (24, 16)
GL_VERSION = (3, 3)


def window_config(display: Any) -> Any | None:
    """The config pyglet would choose for a window on `display`, or None (let pyglet choose)."""
    try:
        from pyglet.display import xlib as display_module
        from pyglet.gl import glx as glx_module
        from pyglet.gl import glx_info as info_module
        from pyglet.gl import xlib as config_module
    except ImportError:  # not on X
        return None
    # pyglet's X classes are typed loosely (ctypes): used as Any here.
    xdisplay: Any = display_module
    glx: Any = glx_module
    xconfig: Any = config_module
    info: Any = info_module
    if not isinstance(display, xdisplay.XlibDisplay):
        return None
    canvas = xdisplay.XlibCanvas(display, None)
    for depth in DEPTHS:
        template: Any = gl.Config(double_buffer=True, depth_size=depth,  # type: ignore[abstract]
                                  major_version=GL_VERSION[0], minor_version=GL_VERSION[1])
        if not isinstance(template, xconfig.XlibConfig):
            return None
        attrs: list[int] = []
        for name, value in template.get_gl_attributes():
            attr = xconfig.XlibDisplayConfig.attribute_ids.get(name)
            if attr and value is not None:
                attrs += [attr, int(value)]
        attrs += [glx.GLX_X_RENDERABLE, True, 0, 0]
        count = c_int()
        found = glx.glXChooseFBConfig(display._display, display.x_screen,
                                      (c_int * len(attrs))(*attrs), byref(count))
        if found and count.value > 0:
            first = cast(found, POINTER(glx.GLXFBConfig * count.value)).contents[0]
            config = xconfig.XlibDisplayConfig(canvas, info.GLXInfo(display._display), first,
                                               template)
            config.screen = display.get_default_screen()  # as pyglet's screen sets it
            return config
    return None


def sub_buffer_copy(window: Any) -> Callable[[int, int, int, int], None] | None:
    """A function showing the back buffer's (x, y, w, h) (window pixels, y up) in `window`,
    or None where GLX_MESA_copy_sub_buffer is not offered (then whole frames are flipped)."""
    context = getattr(window, "context", None)
    drawable = getattr(context, "glx_window", None)
    x_display = getattr(context, "x_display", None)
    if not drawable or x_display is None or window.get_framebuffer_size() != window.get_size():
        return None
    try:
        from pyglet.gl import glx_info as info_module
        from pyglet.gl import glxext_nv as ext_module
    except ImportError:
        return None
    info: Any = info_module
    ext: Any = ext_module
    if not info.GLXInfo(x_display).have_extension("GLX_MESA_copy_sub_buffer"):
        return None
    copy = ext.glXCopySubBufferMESA

    def show(x: int, y: int, w: int, h: int) -> None:
        copy(x_display, drawable, x, y, w, h)

    return show

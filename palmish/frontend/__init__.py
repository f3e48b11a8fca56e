"""The desktop front end: the pyglet window, the skin, sound and input mapping.

pyglet's options must be set before `pyglet.gl` is first imported, which any
module here may do, so they are set on entering the package.
"""

import sys

import pyglet

# One window, one GL context: pyglet's hidden "shadow" window (made when pyglet.gl
# is imported, to share GL objects between windows) costs a second window and a
# second search of the GL configs at every start, about 18 ms (docs/architecture.md,
# "One window, no shadow window"; benchmarks/shadow_window.py), for nothing.
pyglet.options["shadow_window"] = False

# pyglet.image registers its file decoders on import, and on Linux that loads
# GTK's GdkPixbuf and GDK libraries (~11 ms of every start, more under load).
# palmish decodes every picture with Pillow and never asks pyglet to read an
# image file, so that decoder is left out; pyglet's own PNG/BMP ones remain.
sys.modules.setdefault("pyglet.image.codecs.gdkpixbuf2", None)  # type: ignore[arg-type]

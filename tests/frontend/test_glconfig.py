"""The window's GL config is the one pyglet would choose (palmish/frontend/glconfig.py)."""

from __future__ import annotations

import ctypes

import pytest

from .conftest import needs_display

pytestmark = [pytest.mark.window, needs_display]


def test_window_config_is_pyglets_own_first_choice() -> None:
    pyglet = pytest.importorskip("pyglet")
    from palmish.frontend.glconfig import window_config

    display = pyglet.display.get_display()
    ours = window_config(display)
    if ours is None:
        pytest.skip("not an X display: pyglet chooses by itself")
    theirs = display.get_default_screen().get_best_config()
    assert ctypes.cast(ours.fbconfig, ctypes.c_void_p).value == \
        ctypes.cast(theirs.fbconfig, ctypes.c_void_p).value
    for name in ours.attribute_ids:
        assert getattr(ours, name) == getattr(theirs, name), name
    assert ours.double_buffer and ours.depth_size >= 16
    assert ours.screen.display is display

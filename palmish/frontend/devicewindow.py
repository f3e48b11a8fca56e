"""The pyglet window: the device skin, the LCD texture, input and sound.

A DeviceWindow shows the skin at an integer zoom and pumps the device: mouse
presses on the LCD become stylus events in LCD pixels, presses on the skin's
hard buttons and desktop keys become key events, the device's sounds are
played, and its timers are scheduled on pyglet's clock. Importing this module
connects to the X display (pyglet does so on import); window.run guards that.

Nothing is drawn unless something changed: a frame is scheduled only after
input, a timer, damage or an expose, and nothing runs while the device is idle.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any, Protocol

import pyglet
from PIL import Image
from pyglet import gl
from pyglet.math import Mat4
from pyglet.window import key as pkey
from pyglet.window import mouse

from palmish.device.display import DisplayConfig, rotated
from palmish.device.events import Event, KeyDown, PenDown, PenMove, PenUp
from palmish.device.geometry import Rect
from palmish.frontend.audio import SoundPlayer
from palmish.frontend.glconfig import sub_buffer_copy
from palmish.frontend.input import Layout, action_event, key_event, text_event
from palmish.frontend.skin import Button, Circle, Skin
from palmish.frontend.texture import LcdTexture, bezel_texture, frame_around
from palmish.frontend.xcaption import is_xlib_window, set_x_caption

PRESSED_SHADE = (0, 0, 0, 96)  # drawn over a hard button while it is held down
# Held scroll/navigator buttons repeat, as on the devices: after a pause, then steadily.
REPEATING = frozenset({"up", "down", "left", "right"})
REPEAT_DELAY_S = 0.45
REPEAT_EVERY_S = 0.1
INBOX_POLL_S = 0.01  # network events reach the device within this (docs/network.md)
QUIT_MODIFIERS = pkey.MOD_CTRL | pkey.MOD_COMMAND
# Pen moves are merged until the next frame; during a flood of moves (which
# pyglet dispatches in one go, with no clock tick between) a frame is drawn
# as soon as this much time has passed since the last one: half a 60 Hz
# frame, so that with the frame's own cost one shows at least every 20 ms.
FRAME_BUDGET_S = 0.008
# The bezel (already laid over the background) and the LCD are opaque: copying
# them without blending is cheaper for a software renderer.
OPAQUE_BLEND = (gl.GL_ONE, gl.GL_ZERO)


def _cannot_show_part(x: int, y: int, w: int, h: int) -> None:
    """Stands for "GLX shows only whole frames here" (DeviceWindow._show_part)."""


class ScreenLike(Protocol):
    @property
    def image(self) -> Image.Image: ...


class DeviceLike(Protocol):
    """What the window needs of palmish.device.machine.system.Device."""

    @property
    def config(self) -> DisplayConfig: ...

    @property
    def screen(self) -> ScreenLike: ...

    def post(self, event: Event) -> None: ...

    def take_damage(self) -> list[Rect]: ...

    def take_sounds(self) -> list[bytes]: ...

    def set_clock(self, now_ms: int) -> None: ...

    def catch_up(self, now_ms: int) -> None: ...

    def next_timer_ms(self) -> int | None: ...

    def wants_text(self) -> bool: ...

    def takes_enter(self) -> bool: ...

    @property
    def now_ms(self) -> int: ...

    def post_waiting(self) -> bool: ...

    polled: bool  # a network game is on: the window polls the inbox (post_waiting)


class DeviceWindow(pyglet.window.Window):  # type: ignore[misc]
    """A window showing one device; see the module docstring."""

    def __init__(
        self,
        device: DeviceLike,
        skin: Skin,
        zoom: int = 1,
        sounds: SoundPlayer | None = None,
        **window_options: Any,
    ) -> None:
        self.device = device
        self.skin = skin
        self.zoom = zoom
        self.sounds = sounds or SoundPlayer()
        self.layout = self._layout_for(device.config)
        self.frames_drawn = 0
        self._started = time.monotonic()
        self._time_offset = device.now_ms  # carry on from the device's clock if it already ran
        self._batch = pyglet.graphics.Batch()
        self._bezel_group = pyglet.graphics.Group(order=0)
        self._lcd_group = pyglet.graphics.Group(order=1)
        self._shade_group = pyglet.graphics.Group(order=2)
        # Made once each and kept (see _show): bezel sprites by id() of the skin
        # face, LCD textures and their sprites by LCD size.
        self._bezels: dict[int, list[Any]] = {}
        self._lcds: dict[tuple[int, int], tuple[LcdTexture, Any]] = {}
        self._bezel: list[Any] | None = None  # the sprites shown now
        self._lcd_sprite: Any = None
        # Set before the window exists: creating it may dispatch resize/expose at once.
        self._frame_pending = False
        self._polling = False
        self._needs_draw = True
        # What the next frame draws: the whole window, or only the LCD rectangles in
        # _dirty (window pixels), shown with _show_part where GLX offers it.
        self._whole_frame = True
        # How the skin sits in the window: (scale, left, bottom) in window pixels;
        # (1, 0, 0) while the window has the size the layout asked for.
        self._fit: tuple[float, float, float] = (1.0, 0.0, 0.0)
        self._dirty: list[tuple[int, int, int, int]] = []
        self._show_part: Callable[[int, int, int, int], None] | None = None
        self._timer_due: int | None = None
        self._pen_down = False
        self._last_pen: tuple[int, int] | None = None
        self._pending_move: tuple[int, int] | None = None  # merged, not yet posted
        self.frame_budget_s = FRAME_BUDGET_S
        self._last_frame_at = time.monotonic()
        self._held: pyglet.shapes.ShapeBase | None = None
        self._repeat_key: int | None = None  # desktop key held down for repeat
        self._ready = False
        width, height = self.layout.window_size
        super().__init__(width, height, caption=self._title_text(), **window_options)
        self._show(device.config)
        self._ready = True
        self.request_frame()

    # --- device time -------------------------------------------------------

    def now_ms(self) -> int:
        """Device time: the device's clock when the window opened plus the time since."""
        return self._time_offset + int((time.monotonic() - self._started) * 1000)

    # --- layout ----------------------------------------------------------------

    def _layout_for(self, config: DisplayConfig) -> Layout:
        return Layout(self.skin.face_for(config), self.zoom, config.width, config.height)

    def _title_text(self) -> str:
        return f"palmish - {self.skin.title} ({self.device.config.name.value})"

    def set_caption(self, caption: str) -> None:
        # pyglet's X11 version leaks its title text on every call (see xcaption).
        if is_xlib_window(self):
            self._caption = caption
            set_x_caption(self, caption)
        else:
            super().set_caption(caption)

    def _show(self, config: DisplayConfig) -> None:
        """Show a configuration: its bezel and LCD sprites, the whole LCD uploaded.

        Each skin face and each LCD size gets its texture and sprite once; a turn
        hides the old pair and shows the new one, so turning back and forth
        allocates nothing. (The ~0.7 MB per turn once blamed on new textures per
        turn was pyglet's title leak: see set_caption and xcaption.)
        """
        self._shown_config = config
        self._shown_screen = self.device.screen
        self.layout = layout = self._layout_for(config)
        bezel, (self.lcd, lcd_sprite) = self._sprites_for(layout, config)
        self.lcd.upload_all(self._shown_screen.image)
        x, y, _, _ = layout.gl_rect(layout.face.lcd)
        lcd_sprite.position = (x, y, 0)
        lcd_sprite.scale = self.zoom * layout.lcd_scale
        for old in [*(self._bezel or []), self._lcd_sprite]:
            if old is not None and old not in (*bezel, lcd_sprite):
                old.visible = False
        for sprite in (*bezel, lcd_sprite):
            sprite.visible = True
        self._bezel, self._lcd_sprite = bezel, lcd_sprite
        self._release_button()

    def _sprites_for(self, layout: Layout, config: DisplayConfig
                     ) -> tuple[list[Any], tuple[LcdTexture, Any]]:
        """The bezel sprites of the layout's face (the parts around the LCD) and the
        LCD texture and sprite of the configuration's size, made the first time
        (hidden until `_show` shows them)."""
        bezel = self._bezels.get(id(layout.face))
        if bezel is None:
            texture = bezel_texture(layout.face, self.skin.background)
            bezel = self._bezels[id(layout.face)] = []
            for x, y, w, h in frame_around(*layout.face.size, layout.face.lcd):
                sprite = self._sprite(texture.get_region(x, y, w, h), self._bezel_group)
                sprite.position = (x * self.zoom, y * self.zoom, 0)
                sprite.scale = self.zoom
                bezel.append(sprite)
        size = (config.width, config.height)
        if size not in self._lcds:
            lcd = LcdTexture(*size)
            self._lcds[size] = (lcd, self._sprite(lcd.texture, self._lcd_group))
        return bezel, self._lcds[size]

    def prepare_turn(self) -> None:
        """Make the turned device's bezel and LCD textures now (for idle time), so that
        the turn itself only shows them."""
        turned = rotated(self.device.config)
        if turned == self.device.config:
            return
        self._sprites_for(self._layout_for(turned), turned)

    def _sprite(self, texture: pyglet.image.Texture, group: pyglet.graphics.Group) -> Any:
        sprite = pyglet.sprite.Sprite(
            texture, 0, 0, blend_src=OPAQUE_BLEND[0], blend_dest=OPAQUE_BLEND[1],
            batch=self._batch, group=group,
        )
        sprite.visible = False  # `_show` shows it
        return sprite

    def _relayout(self, config: DisplayConfig) -> None:
        # A stroke in progress goes on across the turn (a key press mid-drag): the
        # app re-lays out and keeps its drag; later moves are read on the new LCD.
        old_size = self.layout.window_size
        self._show(config)
        self.set_caption(self._title_text())
        if self.layout.window_size != old_size:
            self.set_size(*self.layout.window_size)
        # A desktop may not resize the window as asked (or not yet): until it does,
        # the whole skin is drawn into the size the window has (docs/ui.md).
        self._fit_skin()

    def _fit_skin(self) -> None:
        """Draw the layout's skin whole into the window's present size: as it is when
        the sizes agree, else scaled down or up to fit, centred, the rest cleared."""
        width, height = self.get_size()
        want_w, want_h = self.layout.window_size
        if (width, height) == (want_w, want_h):
            fit = (1.0, 0.0, 0.0)
        else:
            scale = min(width / want_w, height / want_h)
            fit = (scale, (width - want_w * scale) / 2, (height - want_h * scale) / 2)
        scale, left, bottom = fit
        self.projection = Mat4.orthogonal_projection(
            -left / scale, (width - left) / scale, -bottom / scale, (height - bottom) / scale,
            -8192, 8192)
        if fit != self._fit:
            self._fit = fit
            self._redraw_all()

    def _skin_point(self, x: float, y: float) -> tuple[float, float]:
        """A window point in skin pixels, wherever the skin sits in the window."""
        scale, left, bottom = self._fit
        return self.layout.skin_point((x - left) / scale, (y - bottom) / scale)

    # --- the frame: device -> screen --------------------------------------------

    def request_frame(self) -> None:
        """Sync with the device and redraw on the next turn of the event loop."""
        if not self._frame_pending:
            self._frame_pending = True
            pyglet.clock.schedule_once(self._on_frame, 0)

    def _on_frame(self, _dt: float) -> None:
        self._frame_pending = False
        self.frame()

    def frame(self) -> bool:
        """Play sounds, follow config changes, upload damage, draw if needed. True if drawn."""
        if not self._ready:
            return False
        self._post_pending_move()
        self.sync()
        self._last_frame_at = time.monotonic()
        if not self._needs_draw or self.has_exit:
            return False
        if self._whole_frame or not self._draw_dirty():
            self.draw(0.0)  # switch_to, on_draw, flip
        return True

    def _redraw_all(self) -> None:
        self._needs_draw = True
        self._whole_frame = True

    def _draw_dirty(self) -> bool:
        """Draw and show only the box around the LCD's damaged rectangles (a dragged
        tile and the cells it left and entered), not the whole window: a software
        renderer pays for every pixel drawn and sent. False if GLX cannot show part
        of a frame (then the caller draws the whole window)."""
        if self._show_part is None:
            self._show_part = sub_buffer_copy(self) or _cannot_show_part
        if self._show_part is _cannot_show_part or not self._dirty or self._fit != (1, 0, 0):
            return False  # (the damaged box is in skin pixels: a fitted skin draws whole)
        left = min(x for x, _, _, _ in self._dirty)
        bottom = min(y for _, y, _, _ in self._dirty)
        right = max(x + w for x, _, w, _ in self._dirty)
        top = max(y + h for _, y, _, h in self._dirty)
        self.switch_to()
        gl.glEnable(gl.GL_SCISSOR_TEST)
        gl.glScissor(left, bottom, right - left, top - bottom)
        try:
            self.dispatch_event("on_draw")  # everything drawn is cut to the box
        finally:
            gl.glDisable(gl.GL_SCISSOR_TEST)
        self._show_part(left, bottom, right - left, top - bottom)
        return True

    def sync(self) -> None:
        device = self.device
        for wave in device.take_sounds():
            self.sounds.play(wave)
        if device.config != self._shown_config or device.screen is not self._shown_screen:
            self._relayout(device.config)
            device.take_damage()  # all of it was just uploaded
            self._redraw_all()
        else:
            damage = device.take_damage()
            if damage:
                self.lcd.upload(self._shown_screen.image, damage)
                self._needs_draw = True
                self._dirty += [self.layout.lcd_gl_rect(rect) for rect in damage]
        self._schedule_timer()
        self._follow_polling()

    def _poll_inbox(self, _dt: float) -> None:
        # The network thread's events (device.inbox), polled by the clock while
        # a network game is on: posting them here keeps the device one-threaded.
        self.device.set_clock(self.now_ms())
        if self.device.post_waiting():
            self.frame()

    def watched(self, _dt: float, watcher: Any) -> None:
        """A watcher's turn on the clock (window.Watcher): it looks, and when the device
        changed the frame shows it."""
        self.device.set_clock(self.now_ms())
        if watcher.poll():
            self.frame()

    def _follow_polling(self) -> None:
        wanted = self.device.polled
        if wanted != self._polling:
            self._polling = wanted
            if wanted:
                pyglet.clock.schedule_interval(self._poll_inbox, INBOX_POLL_S)
            else:
                pyglet.clock.unschedule(self._poll_inbox)

    def _schedule_timer(self) -> None:
        due = self.device.next_timer_ms()
        if due == self._timer_due:
            return
        pyglet.clock.unschedule(self._on_timer)
        self._timer_due = due
        if due is not None:
            # One millisecond late rather than early: catch_up() must see the time reached.
            # Never less than that, even when already late: pyglet runs an item of no
            # delay in the same turn of its loop, so late timers (a slide's steps on a
            # slow machine) would run back to back with nothing drawn between them.
            pyglet.clock.schedule_once(self._on_timer, max(1, due - self.now_ms() + 1) / 1000)

    def _on_timer(self, _dt: float) -> None:
        # One due timer per turn of the event loop, however late: the player's input
        # is handled between computer moves, and a late demo does not replay its steps.
        self._timer_due = None
        self.device.catch_up(self.now_ms())
        self.frame()

    def close(self) -> None:
        """Close the window and drop everything it scheduled on pyglet's clock."""
        for callback in (self._on_frame, self._on_timer, self._start_repeat, self._repeat,
                         self._poll_inbox, self.watched):
            pyglet.clock.unschedule(callback)
        self._frame_pending = False
        self._ready = False
        super().close()

    def on_draw(self) -> None:
        if not self._ready:
            return
        if self._fit != (1, 0, 0):
            self.clear()  # around a fitted skin; else the opaque bezel covers it all
        self._batch.draw()
        self.frames_drawn += 1
        self._needs_draw = False
        self._whole_frame = False
        self._dirty.clear()

    def on_expose(self) -> None:
        self._redraw_all()
        self.request_frame()

    def on_resize(self, width: int, height: int) -> None:
        self._fit_skin()  # after pyglet's own projection for the new size
        self._redraw_all()
        self.request_frame()

    def capture(self) -> Image.Image:
        """Draw a frame and read it back from the colour buffer, as the window shows it."""
        self.switch_to()
        self.on_draw()
        width, height = self.get_framebuffer_size()
        buffer = (gl.GLubyte * (width * height * 4))()
        gl.glPixelStorei(gl.GL_PACK_ALIGNMENT, 1)
        gl.glReadPixels(0, 0, width, height, gl.GL_RGBA, gl.GL_UNSIGNED_BYTE, buffer)
        self.flip()
        image = Image.frombuffer("RGBA", (width, height), bytes(buffer), "raw", "RGBA", 0, 1)
        return image.transpose(Image.Transpose.FLIP_TOP_BOTTOM).convert("RGB")

    # --- input: window -> device ----------------------------------------------------

    def post(self, event: Event) -> None:
        self.device.set_clock(self.now_ms())  # input happens now, not at the last timer
        self._post_pending_move()  # the device sees the stroke's last point first
        self.device.post(event)
        self.request_frame()

    def _post_pending_move(self) -> None:
        if self._pending_move is not None:
            point, self._pending_move = self._pending_move, None
            self.device.post(PenMove(*point))

    def on_mouse_press(self, x: float, y: float, button: int, modifiers: int) -> None:
        if button != mouse.LEFT:
            return
        sx, sy = self._skin_point(x, y)
        point = self.layout.lcd_point(sx, sy)
        if point is not None:
            self._pen_down = True
            self._last_pen = point
            self.post(PenDown(*point))
            return
        hard = self.layout.face.button_at(sx, sy)
        if hard is not None:
            self._hold_button(hard)  # stops any key repeat
            self.post(action_event(hard.action))
            if hard.action in REPEATING:
                pyglet.clock.schedule_once(self._start_repeat, REPEAT_DELAY_S, hard.action)

    def on_mouse_drag(
        self, x: float, y: float, dx: float, dy: float, buttons: int, modifiers: int
    ) -> None:
        if not self._pen_down or not buttons & mouse.LEFT:
            return
        point = self.layout.clamp_to_lcd(*self._skin_point(x, y))
        if point != self._last_pen:
            self._last_pen = point
            self._pending_move = point  # replaces a move no frame has shown yet
            if time.monotonic() - self._last_frame_at >= self.frame_budget_s:
                self.frame()
            else:
                self.request_frame()

    def on_mouse_release(self, x: float, y: float, button: int, modifiers: int) -> None:
        if button != mouse.LEFT:
            return
        self._release_button()
        if self._pen_down:
            self._pen_down = False
            self.post(PenUp(*self.layout.clamp_to_lcd(*self._skin_point(x, y))))

    def on_key_press(self, symbol: int, modifiers: int) -> bool:
        # Replaces pyglet's default, which closes the window on Escape (Cancel here).
        ctrl = bool(modifiers & QUIT_MODIFIERS)
        if ctrl and symbol in (pkey.Q, pkey.W):
            self.dispatch_event("on_close")
            return True
        name = pkey.symbol_string(symbol)
        event = key_event(name, ctrl, self.device.wants_text(), self.device.takes_enter())
        if event is not None:
            self.post(event)
        if isinstance(event, KeyDown) and event.key.value in REPEATING:
            # Our own repeat: X's auto-repeat is filtered by pyglet.
            self._stop_repeat()
            self._repeat_key = symbol
            pyglet.clock.schedule_once(self._start_repeat, REPEAT_DELAY_S, event.key.value)
        return True

    def on_text(self, text: str) -> None:
        event = text_event(text, self.device.wants_text())
        if event is not None:
            self.post(event)

    def on_key_release(self, symbol: int, modifiers: int) -> None:
        if symbol == self._repeat_key:
            self._stop_repeat()

    def on_deactivate(self) -> None:
        self._stop_repeat()  # a key released in another window never reaches us

    def _hold_button(self, button: Button) -> None:
        self._release_button()
        z = self.zoom
        shape = button.shape
        if isinstance(shape, Circle):
            _, top = self.layout.window_size
            self._held = pyglet.shapes.Circle(
                shape.cx * z, top - shape.cy * z, shape.r * z,
                color=PRESSED_SHADE, batch=self._batch, group=self._shade_group,
            )
        else:
            x, y, w, h = self.layout.gl_rect(shape)
            self._held = pyglet.shapes.Rectangle(
                x, y, w, h, color=PRESSED_SHADE, batch=self._batch, group=self._shade_group
            )
        self._redraw_all()

    def _start_repeat(self, _dt: float, action: str) -> None:
        if self._held is not None or self._repeat_key is not None:
            pyglet.clock.schedule_interval(self._repeat, REPEAT_EVERY_S, action)

    def _repeat(self, _dt: float, action: str) -> None:
        self.post(action_event(action))

    def _stop_repeat(self) -> None:
        # Only scheduled while a button or key is held, so an idle window has no timers.
        self._repeat_key = None
        pyglet.clock.unschedule(self._start_repeat)
        pyglet.clock.unschedule(self._repeat)

    def _release_button(self) -> None:
        self._stop_repeat()
        if self._held is not None:
            self._held.delete()
            self._held = None
            self._redraw_all()
            self.request_frame()

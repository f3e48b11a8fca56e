"""The pyglet window on a real X server (Xvfb in CI) with software OpenGL.

Input is dispatched as pyglet events (the conftest delivers them at once) and
what the window shows is read back from the GL colour buffer.
"""

from __future__ import annotations

import ctypes
import os
import shutil
import subprocess
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from PIL import Image, ImageChops

from palmish.device.events import Key, KeyDown, PenDown, PenMove, PenUp, Rotate, Tick
from palmish.device.machine.statusbar import StatusButton, button_rects

from .conftest import WindowFactory, needs_display

if TYPE_CHECKING:
    from palmish.frontend.devicewindow import DeviceWindow

pytestmark = [pytest.mark.window, needs_display]


def lcd_on_screen(window: DeviceWindow) -> Image.Image:
    """The LCD part of what the window shows, scaled back down to LCD pixels."""
    shot = window.capture()
    lay = window.layout
    x, y, w, h = lay.face.lcd.x, lay.face.lcd.y, lay.face.lcd.w, lay.face.lcd.h
    z = lay.zoom
    region = shot.crop((x * z, y * z, (x + w) * z, (y + h) * z))
    return region.resize((lay.lcd_width, lay.lcd_height), Image.Resampling.NEAREST)


def assert_screen_matches(window: DeviceWindow) -> None:
    device = window.device
    expected = device.screen.image.convert("RGB")
    shown = lcd_on_screen(window)
    assert shown.size == expected.size
    diff = ImageChops.difference(shown, expected).getbbox()
    assert diff is None, f"screen differs from the framebuffer in {diff}"


def click(window: DeviceWindow, wx: float, wy: float) -> None:
    window.dispatch_event("on_mouse_press", wx, wy, 1, 0)
    window.dispatch_event("on_mouse_release", wx, wy, 1, 0)
    window.frame()


@pytest.mark.parametrize(
    ("config", "skin", "zoom"),
    [("square", "t3", 1), ("tall", "t3", 1), ("wide", "t3", 1), ("square-low", "classic", 1),
     ("square-low", "classic", 2)],
)
def test_window_opens_with_the_skin_and_shows_the_framebuffer(
    open_window: WindowFactory, config: str, skin: str, zoom: int
) -> None:
    window, _ = open_window(config, skin, zoom)
    face = window.layout.face
    assert window.get_size() == (face.size[0] * zoom, face.size[1] * zoom)
    shot = window.capture()
    # Outside the LCD the window shows the bezel picture (over the skin's background).
    bezel = Image.new("RGB", face.size, window.skin.background)
    bezel.paste(face.image, (0, 0), face.image)
    corner = (8, face.size[1] - 60, 60, face.size[1] - 8)  # a bit of body and background
    got = shot.resize(face.size, Image.Resampling.NEAREST).crop(corner)
    assert ImageChops.difference(got, bezel.crop(corner)).getbbox() is None
    assert_screen_matches(window)
    # The whole window: the bezel (drawn as the parts around the LCD) and the LCD.
    lcd = window.device.screen.image.convert("RGB").resize((face.lcd.w, face.lcd.h),
                                                           Image.Resampling.NEAREST)
    bezel.paste(lcd, (face.lcd.x, face.lcd.y))
    whole = shot.resize(face.size, Image.Resampling.NEAREST)
    assert ImageChops.difference(whole, bezel).getbbox() is None


def test_clicking_the_status_bar_rotate_button_turns_the_window_landscape(
    open_window: WindowFactory,
) -> None:
    window, _ = open_window("square", "t3", 1)
    device = window.device
    portrait_size = window.get_size()
    rotate = button_rects(device.config)[StatusButton.ROTATE]
    lay = window.layout
    click(window, *lay.window_point_of_lcd(rotate.x + rotate.w // 2, rotate.y + rotate.h // 2))
    assert device.config.landscape
    assert device.screen.image.size == (480, 320)
    landscape = window.skin.landscape
    assert window.layout.face is landscape
    assert window.get_size() == landscape.size
    assert window.get_framebuffer_size() == landscape.size
    assert window.get_size() == (portrait_size[1], portrait_size[0])
    assert_screen_matches(window)
    # And back again with the R key.
    from pyglet.window import key

    window.dispatch_event("on_key_press", key.R, 0)
    window.frame()
    assert not device.config.landscape and device.screen.image.size == (320, 480)
    assert window.get_size() == window.skin.portrait.size
    assert_screen_matches(window)


@pytest.mark.parametrize(
    ("skin", "config", "zoom"), [("t3", "tall", 1), ("classic", "square-low", 2)]
)
def test_a_mouse_drag_reaches_the_app_as_pen_events(
    open_window: WindowFactory, skin: str, config: str, zoom: int
) -> None:
    window, app = open_window(config, skin, zoom)
    lay = window.layout
    path = [(20, 30), (21, 30), (40, 50), (60, 70)]
    wx, wy = lay.window_point_of_lcd(*path[0])
    window.dispatch_event("on_mouse_press", wx, wy, 1, 0)
    for px, py in path[1:]:
        wx, wy = lay.window_point_of_lcd(px, py)
        window.dispatch_event("on_mouse_drag", wx, wy, 1.0, 1.0, 1, 0)
        window.frame()  # one move per frame: none is merged away
    # Off the glass: the stylus stays on the LCD's edge.
    window.dispatch_event("on_mouse_drag", 0.0, 0.0, 1.0, 1.0, 1, 0)
    window.dispatch_event("on_mouse_release", 0.0, 0.0, 1, 0)
    window.frame()
    pen = [e for e in app.events if isinstance(e, (PenDown, PenMove, PenUp))]
    cfg = window.device.config
    bottom_left = (0, cfg.app_bounds.bottom - 1) if cfg.status_bar is None else None
    assert pen[0] == PenDown(20, 30)
    assert pen[1:4] == [PenMove(21, 30), PenMove(40, 50), PenMove(60, 70)]
    if bottom_left is not None:  # the classic device: the app owns the whole LCD
        assert pen[4:] == [PenMove(0, 159), PenUp(0, 159)]
    else:  # the pen stays with its owner even when dragged over the status bar
        assert pen[-1] == PenUp(0, 479)
    assert_screen_matches(window)  # the red marks drawn at the pen-down show up


def test_hard_buttons_and_keys_become_key_events(open_window: WindowFactory) -> None:
    from pyglet.window import key

    window, app = open_window("tall", "t3", 2)
    lay = window.layout
    for action in ("up", "select", "app1"):
        button = next(b for b in lay.face.buttons if b.action == action)
        box = button.bounds()
        click(window, *lay.window_point(box.x + box.w / 2, box.y + box.h / 2))
    for symbol in (key.DOWN, key.SPACE, key.F3, key.ESCAPE):
        window.dispatch_event("on_key_press", symbol, 0)
    keys = [e.key for e in app.events if isinstance(e, KeyDown)]
    # Escape is Home: the device handles it (no launcher here), the window stays open.
    assert keys == [Key.UP, Key.SELECT, Key.APP1, Key.DOWN, Key.SELECT, Key.APP3]
    assert not window.has_exit


def test_only_damaged_regions_are_uploaded(open_window: WindowFactory) -> None:
    window, _ = open_window("square", "t3", 1)
    before = window.lcd.uploaded_pixels
    click(window, *window.layout.window_point_of_lcd(100, 100))
    uploaded = window.lcd.uploaded_pixels - before
    assert 0 < uploaded < 320 * 480 // 20
    assert_screen_matches(window)


def test_nothing_is_drawn_while_idle(open_window: WindowFactory) -> None:
    import time

    import pyglet

    window, _ = open_window("square", "t3", 1)
    drawn = window.frames_drawn
    # pyglet drops unscheduled callbacks lazily (a no-op stays until its time), so
    # give leftovers of earlier tests up to a second to run out.
    deadline = time.monotonic() + 1.0
    while pyglet.clock.get_sleep_time(True) is not None and time.monotonic() < deadline:
        pyglet.clock.tick()
        window.frame()
        time.sleep(0.02)
    assert pyglet.clock.get_sleep_time(True) is None  # nothing scheduled: the loop can block
    assert window.frames_drawn == drawn


def test_app_timers_fire_through_the_pyglet_clock(open_window: WindowFactory) -> None:
    import time

    import pyglet
    from pyglet.window import key

    window, app = open_window("square", "t3", 1)
    window.dispatch_event("on_key_press", key.RETURN, 0)
    window.frame()
    deadline = time.monotonic() + 2
    while not any(isinstance(e, Tick) for e in app.events) and time.monotonic() < deadline:
        pyglet.clock.tick()
        time.sleep(0.005)
    ticks = [e for e in app.events if isinstance(e, Tick)]
    assert len(ticks) == 1 and ticks[0].now_ms >= 30
    window.frame()
    assert_screen_matches(window)  # the square the tick painted is on screen


def test_a_timer_set_for_an_event_counts_from_the_time_of_the_event(
    open_window: WindowFactory,
) -> None:
    import time

    from pyglet.window import key

    window, _ = open_window("square", "t3", 1)
    time.sleep(0.3)  # the window has been open a while before the player acts
    pressed = window.now_ms()
    window.dispatch_event("on_key_press", key.RETURN, 0)  # the probe sets a 30 ms timer
    due = window.device.next_timer_ms()
    assert due is not None and due >= pressed + 30


def test_late_timers_run_one_per_turn_of_the_clock(open_window: WindowFactory) -> None:
    # An app whose timer work takes longer than the timer it sets next (a slide's
    # steps on a slow machine) finds each timer already late; each still waits for
    # the next turn of pyglet's loop, so frames are drawn and input read between.
    import time

    import pyglet
    from pyglet.window import key

    window, app = open_window("square", "t3", 1)
    handle = app.handle

    def slow_ticks(event: object) -> None:
        handle(event)  # type: ignore[arg-type]
        if isinstance(event, Tick):
            time.sleep(0.02)
            if len([e for e in app.events if isinstance(e, Tick)]) < 3:
                assert app.ctx is not None
                app.ctx.set_timer(1)  # already due when the work ends

    app.handle = slow_ticks  # type: ignore[method-assign]
    window.dispatch_event("on_key_press", key.RETURN, 0)  # a 30 ms timer
    window.frame()
    time.sleep(0.05)
    counts = []
    for _ in range(3):
        pyglet.clock.tick()
        counts.append(len([e for e in app.events if isinstance(e, Tick)]))
        time.sleep(0.005)
    assert counts == [1, 2, 3]


def test_sounds_play_through_the_silent_driver(open_window: WindowFactory) -> None:
    window, _ = open_window("square", "t3", 1)
    sounds = window.sounds
    assert sounds.driver_name == "silent"
    for px in (50, 60, 70):
        click(window, *window.layout.window_point_of_lcd(px, 100))
    assert sounds.played == 3 and sounds.skipped == 0 and sounds.enabled


def test_pen_moves_between_two_frames_reach_the_app_as_the_last_one(
    open_window: WindowFactory,
) -> None:
    window, app = open_window("tall", "t3", 1)
    window.frame_budget_s = 3600.0  # no frame falls due during the burst
    lay = window.layout
    window.dispatch_event("on_mouse_press", *lay.window_point_of_lcd(10, 10), 1, 0)
    window.frame()
    for step in range(1, 200):
        window.dispatch_event("on_mouse_drag", *lay.window_point_of_lcd(10 + step, 10), 1, 1, 1, 0)
    window.frame()
    window.dispatch_event("on_mouse_drag", *lay.window_point_of_lcd(250, 300), 1.0, 1.0, 1, 0)
    window.dispatch_event("on_mouse_release", *lay.window_point_of_lcd(250, 300), 1, 0)
    window.frame()
    pen = [e for e in app.events if isinstance(e, (PenDown, PenMove, PenUp))]
    # One move per frame, then the last move before the pen lifts, in order.
    assert pen == [PenDown(10, 10), PenMove(209, 10), PenMove(250, 300), PenUp(250, 300)]


def test_a_flood_of_pen_moves_draws_frames_as_it_goes(open_window: WindowFactory) -> None:
    window, app = open_window("tall", "t3", 1)
    window.frame_budget_s = 0.0  # every move finds a frame due
    lay = window.layout
    window.dispatch_event("on_mouse_press", *lay.window_point_of_lcd(10, 10), 1, 0)
    window.frame()
    for step in range(1, 6):
        window.dispatch_event("on_mouse_drag", *lay.window_point_of_lcd(10 + step, 10), 1, 1, 1, 0)
    # A frame ran inside each dispatch (no clock tick came between them).
    pen = [e for e in app.events if isinstance(e, PenMove)]
    assert pen == [PenMove(10 + step, 10) for step in range(1, 6)]


def _resident_bytes() -> int:
    with open("/proc/self/statm", encoding="ascii") as statm:
        return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


def _heap_serves_big_blocks() -> None:
    """Make glibc serve the turn's big buffers from its heap, as it does after any
    earlier free of a big block (the Sigmar tests, a big plugin picture).

    glibc raises its mmap threshold to the size of a freed mmapped block; from then
    on blocks of a few hundred KB come from the heap, where a small chunk left for
    ever in a hole (pyglet's title text, once per turn) keeps the next turn's
    buffers out of it and the heap grows. Done here first, the test measures that
    state whatever ran before it in the process.
    """
    try:
        libc = ctypes.CDLL("libc.so.6")
    except OSError:
        return  # not glibc
    libc.malloc.restype = ctypes.c_void_p
    libc.malloc.argtypes = [ctypes.c_size_t]
    libc.free.argtypes = [ctypes.c_void_p]
    libc.free(libc.malloc(8 << 20))


@pytest.mark.skipif(not Path("/proc/self/statm").exists(), reason="needs /proc (Linux)")
def test_memory_settles_over_hundreds_of_rotations(open_window: WindowFactory) -> None:
    _heap_serves_big_blocks()
    window, _ = open_window("tall", "t3", 1)
    textures = set()

    def turn(times: int) -> None:
        for _ in range(times):
            window.post(Rotate())
            window.frame()
            window.dispatch_events()  # as the event loop does: X's queue drained
            textures.add(window.lcd.texture.id)

    turn(40)  # every configuration and texture has been made once
    settled = _resident_bytes()
    turn(300)
    grown = _resident_bytes() - settled
    # It used to grow ~0.6 MB a turn (about 170 MB here); allow allocator noise.
    assert grown < 8 * 1024 * 1024, f"{grown / 1e6:.1f} MB more after 300 turns"
    assert len(textures) == 2  # one LCD texture per size, reused


@pytest.mark.skipif(not shutil.which("xprop"), reason="needs xprop")
def test_the_title_follows_the_configuration(open_window: WindowFactory) -> None:
    window, _ = open_window("tall", "t3", 1)

    def titles() -> str:
        names = ["WM_NAME", "WM_ICON_NAME", "_NET_WM_NAME", "_NET_WM_ICON_NAME"]
        return subprocess.run(["xprop", "-id", str(window._window), *names],
                               capture_output=True, text=True, check=True).stdout

    assert titles().count('"palmish - palmish PX-3 (T3-style) (tall)"') == 4
    window.post(Rotate())
    window.frame()
    assert window.caption.endswith("(wide)")
    assert titles().count('"palmish - palmish PX-3 (T3-style) (wide)"') == 4


def test_a_drag_goes_on_across_a_rotation(open_window: WindowFactory) -> None:
    from pyglet.window import key

    window, app = open_window("tall", "t3", 1)
    wx, wy = window.layout.window_point_of_lcd(30, 400)
    window.dispatch_event("on_mouse_press", wx, wy, 1, 0)
    window.dispatch_event("on_key_press", key.R, 0)
    window.frame()
    assert window.device.config.landscape
    # The stroke continues on the 480x320 LCD, read through the landscape layout.
    wx, wy = window.layout.window_point_of_lcd(200, 100)
    window.dispatch_event("on_mouse_drag", wx, wy, 1.0, 1.0, 1, 0)
    window.dispatch_event("on_mouse_release", wx, wy, 1, 0)
    window.frame()
    pen = [e for e in app.events if isinstance(e, (PenDown, PenMove, PenUp))]
    assert pen == [PenDown(30, 400), PenMove(200, 100), PenUp(200, 100)]
    assert_screen_matches(window)


def test_a_held_scroll_button_is_shaded_and_repeats(open_window: WindowFactory) -> None:
    import time

    import pyglet

    window, app = open_window("square-low", "classic", 1)
    lay = window.layout
    down = next(b for b in lay.face.buttons if b.action == "down").bounds()
    centre = (down.x + down.w // 2, down.y + down.h // 2)
    before = window.capture().getpixel(centre)
    window.dispatch_event("on_mouse_press", *lay.window_point(*centre), 1, 0)
    held = window.capture().getpixel(centre)
    assert sum(held) < sum(before) - 60  # visibly pressed
    deadline = time.monotonic() + 0.9
    while time.monotonic() < deadline:
        pyglet.clock.tick()
        time.sleep(0.01)
    window.dispatch_event("on_mouse_release", *lay.window_point(*centre), 1, 0)
    pressed = sum(1 for e in app.events if e == KeyDown(Key.DOWN))
    assert 3 <= pressed <= 8  # the press, then about one every 100 ms after 450 ms
    for _ in range(20):
        pyglet.clock.tick()
        time.sleep(0.01)
    assert sum(1 for e in app.events if e == KeyDown(Key.DOWN)) == pressed
    assert window.capture().getpixel(centre) == before


def test_a_held_arrow_key_repeats_until_released(open_window: WindowFactory) -> None:
    import time

    import pyglet
    from pyglet.window import key

    window, app = open_window("tall", "t3", 1)
    window.dispatch_event("on_key_press", key.UP, 0)
    deadline = time.monotonic() + 0.9
    while time.monotonic() < deadline:
        pyglet.clock.tick()
        time.sleep(0.01)
    window.dispatch_event("on_key_release", key.UP, 0)
    pressed = sum(1 for e in app.events if e == KeyDown(Key.UP))
    assert 3 <= pressed <= 8
    for _ in range(20):
        pyglet.clock.tick()
        time.sleep(0.01)
    assert sum(1 for e in app.events if e == KeyDown(Key.UP)) == pressed


def test_the_window_is_the_only_one_pyglet_makes(open_window: WindowFactory) -> None:
    # No hidden shadow window: it cost a second window and GL config search per start.
    import pyglet
    import pyglet.gl

    window, _device = open_window()
    assert pyglet.gl._shadow_window is None
    assert list(pyglet.app.windows) == [window]


@pytest.mark.parametrize(("config", "skin", "zoom"),
                         [("square", "t3", 1), ("wide", "t3", 1), ("square-low", "classic", 2)])
def test_frames_that_change_a_few_lcd_pixels_draw_only_those(
    open_window: WindowFactory, config: str, skin: str, zoom: int
) -> None:
    # Where GLX shows part of a frame (Mesa's GLX_MESA_copy_sub_buffer), a frame with
    # only LCD damage draws and shows the damaged box alone, and no flip happens.
    window, _ = open_window(config, skin, zoom)
    flips: list[int] = []
    flip = window.flip
    window.flip = lambda: (flips.append(1), flip())  # type: ignore[method-assign]
    drawn = window.frames_drawn
    for point in [(20, 30), (60, 90), (100, 40), (130, 120)]:
        click(window, *window.layout.window_point_of_lcd(point[0] // 2, point[1] // 2))
    assert window.frames_drawn == drawn + 4
    if window._show_part is not None and window._show_part.__name__ == "show":
        assert flips == []
    assert_screen_matches(window)  # a whole frame drawn and read back


def shown_on_x(window: DeviceWindow) -> Image.Image:
    """What the X window shows now, read from the X server without drawing a frame."""
    import time

    from pyglet.libs.x11 import xlib

    width, height = window.get_size()
    deadline = time.monotonic() + 2.0
    while True:  # until the window is mapped (viewable), which X does in its own time
        xlib.XSync(window._x_display, False)
        window.dispatch_events()
        picture = xlib.XGetImage(window._x_display, window._window, 0, 0, width, height,
                                 0xFFFFFFFF, xlib.ZPixmap)
        if picture or time.monotonic() > deadline:
            break
        time.sleep(0.02)
    assert picture, "the X server gave no picture of the window (off the screen?)"
    image = picture.contents
    assert image.bits_per_pixel == 32
    # The data field is declared as a C string: read the pointer itself.
    data = ctypes.c_void_p.from_buffer(image, type(image).data.offset).value
    pixels = ctypes.string_at(data, image.bytes_per_line * height)
    return Image.frombuffer("RGBX", (width, height), pixels, "raw", "BGRX",
                            image.bytes_per_line, 1).convert("RGB")


@pytest.mark.parametrize(("config", "skin", "zoom"),  # windows that fit the test screen
                         [("square", "t3", 1), ("wide", "t3", 1), ("square-low", "classic", 1)])
def test_the_window_shows_after_partial_frames_what_a_whole_frame_draws(
    open_window: WindowFactory, config: str, skin: str, zoom: int
) -> None:
    window, _ = open_window(config, skin, zoom)
    for point in [(10, 15), (30, 45), (50, 20), (65, 60)]:
        click(window, *window.layout.window_point_of_lcd(*point))
    shown = shown_on_x(window)
    whole = window.capture()
    assert ImageChops.difference(shown, whole).getbbox() is None


def test_a_window_the_desktop_does_not_resize_still_shows_the_whole_skin(
    open_window: WindowFactory,
) -> None:
    """Issue 41: after R, R the portrait skin was once drawn shifted at the top and
    bottom. Whatever size the window has (a desktop may refuse or delay the size we
    ask for), the whole skin is drawn into it, centred, and clicks land where drawn."""
    window, _ = open_window("tall", "t3", 1)
    portrait = window.get_size()
    window.set_size = lambda width, height: None  # type: ignore[method-assign]
    from pyglet.window import key as pkey

    window.dispatch_event("on_key_press", pkey.R, 0)  # asks for the landscape size
    window.frame()
    device = window.device
    assert device.config.landscape and window.get_size() == portrait  # not resized
    face = window.layout.face
    scale = min(portrait[0] / face.size[0], portrait[1] / face.size[1])
    box_w, box_h = round(face.size[0] * scale), round(face.size[1] * scale)
    top = (portrait[1] - box_h) // 2
    shot = window.capture()
    # Above and below the fitted skin the window is cleared; the skin is all there.
    assert shot.crop((0, 0, portrait[0], max(top - 1, 1))).getextrema() == ((0, 0),) * 3
    expected = Image.new("RGB", face.size, window.skin.background)
    expected.paste(face.image, (0, 0), face.image)
    lcd = device.screen.image.convert("RGB").resize((face.lcd.w, face.lcd.h))
    expected.paste(lcd, (face.lcd.x, face.lcd.y))
    # Compared in blocks of 8x8 skin pixels (the GL scaling samples fine stripes its way).
    coarse = (face.size[0] // 8, face.size[1] // 8)
    fitted = shot.crop(((portrait[0] - box_w) // 2, top, (portrait[0] + box_w) // 2,
                        top + box_h)).resize(coarse, Image.Resampling.BOX)
    difference = ImageChops.difference(fitted, expected.resize(coarse, Image.Resampling.BOX))
    # The bezel is compared; the LCD's fine stripes alias when scaled (its place is
    # checked by the click below).
    lcd_box = (face.lcd.x // 8, face.lcd.y // 8, face.lcd.right // 8 + 1, face.lcd.bottom // 8 + 1)
    difference.paste((0, 0, 0), lcd_box)
    histogram = difference.convert("L").histogram()
    mean = sum(i * n for i, n in enumerate(histogram)) / (coarse[0] * coarse[1])
    assert mean < 6, f"the fitted skin differs from the skin by {mean:.1f} on average"
    # A click on the centre of the fitted LCD reaches the centre of the LCD.
    app_events: list[object] = []
    device.post = app_events.append  # type: ignore[method-assign]
    lcd_x = (portrait[0] - box_w) / 2 + (face.lcd.x + face.lcd.w / 2) * scale
    lcd_y = portrait[1] - (top + (face.lcd.y + face.lcd.h / 2) * scale)
    window.dispatch_event("on_mouse_press", lcd_x, lcd_y, 1, 0)
    (down,) = [e for e in app_events if isinstance(e, PenDown)]
    assert abs(down.x - 240) <= 2 and abs(down.y - 160) <= 2

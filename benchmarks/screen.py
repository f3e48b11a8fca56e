"""Framebuffer and modal drawing costs at double density (320x480).

Run: .venv/bin/python benchmarks/screen.py
Prints the median of several runs for each operation, in milliseconds.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable

from PIL import Image

from palmish.device.display import CONFIGS, ConfigName
from palmish.device.geometry import Rect
from palmish.device.graphics.screen import Framebuffer
from palmish.device.menus import Menu, MenuItem
from palmish.device.ui import Alert, Form, MenuBar, PopupList, TextViewer

CONFIG = CONFIGS[ConfigName.TALL]


def median_ms(work: Callable[[], object], repeat: int = 30) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000


def main() -> None:
    fb = Framebuffer(CONFIG.width, CONFIG.height, CONFIG.density)
    tile = Image.new("RGBA", (26, 26), (200, 30, 30, 255))
    for x in range(4):  # transparent corners, as a decoded Palm bitmap would have
        tile.putpixel((x, 0), (0, 0, 0, 0))

    def board() -> None:
        for row in range(8):
            for col in range(12):
                fb.blit(tile, col * 26, row * 26)
        fb.take_damage()

    def one_tile() -> None:
        fb.blit(tile, 100, 100)
        fb.take_damage()

    line = "The quick brown fox jumps over the lazy dog"
    counter = iter(range(10**9))

    def fresh_text() -> None:  # a new string each time: no render cache hit
        fb.text(0, 300, f"{line} {next(counter)}")

    def modal(make: Callable[[], object]) -> Callable[[], None]:
        def run() -> None:
            m = make()
            assert isinstance(m, Alert | Form | MenuBar | TextViewer)
            m.layout(CONFIG.app_bounds, CONFIG.density)
            m.draw(fb)
            m.erase(fb)
            fb.take_damage()

        return run

    menus = (Menu("Game", tuple(MenuItem(f"Item {i}", f"c{i}", "N") for i in range(6))),)
    fields = [PopupList(f"k{i}", f"Field {i}", ("One", "Two", "Three"), 0) for i in range(9)]
    results = {
        "fill whole screen": median_ms(lambda: fb.fill(fb.bounds, (1, 2, 3))),
        "blit 96 RGBA tiles 26x26 + take_damage": median_ms(board),
        "blit one tile + take_damage": median_ms(one_tile),
        "text, 46 chars, not cached": median_ms(fresh_text),
        "text, 43 chars, cached": median_ms(lambda: fb.text(0, 300, line)),
        "alert: layout, draw, erase": median_ms(modal(lambda: Alert("Title", line * 3, ("OK",)))),
        "menu bar: layout, draw, erase": median_ms(modal(lambda: MenuBar(menus))),
        "form, 9 pop-ups: layout, draw, erase": median_ms(modal(lambda: Form("Prefs", fields))),
        "text viewer, 2 kB: layout, draw, erase": median_ms(
            modal(lambda: TextViewer("Help", (line + ". ") * 45))
        ),
        "take_damage of 200 scattered rects": median_ms(
            lambda: [fb.damage(Rect((i * 37) % 300, (i * 53) % 460, 3, 3)) for i in range(200)]
            and fb.take_damage()
        ),
    }
    print(f"framebuffer {CONFIG.width}x{CONFIG.height} at density {CONFIG.density}")
    for name, ms in results.items():
        print(f"  {name:42s} {ms:8.3f} ms")


if __name__ == "__main__":
    main()

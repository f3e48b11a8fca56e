"""Draws Sigmar's Garden: the field, the atoms (locked ones dimmed), the selection,
hint and partner marks, and the panel (name, atoms left by kind, the metal order
with the current metal, wins and streak, and the last message).

Every drawing goes through `paint(region)`, which redraws all layers touching
the region, clipped to it; the app asks for exactly the rectangles that changed.
"""

from __future__ import annotations

from PIL import Image

from palmish.boardgame.paint import fill_tiled
from palmish.device.geometry import Rect
from palmish.device.graphics.font import Font
from palmish.device.graphics.screen import Framebuffer
from palmish.sigmar import Atom
from palmish.sigmar.art import PLAIN_CELL, Art
from palmish.sigmar.garden import Garden
from palmish.sigmar.hexagonal.rules import STRIDE as HEX_STRIDE
from palmish.sigmar.layout import SigmarLayout
from palmish.sigmar.messages import wordings
from palmish.sigmar.rules import CARDINALS, METAL_ORDER, STRIDE
from prc_tools.frozen import Frozen, field

Cell = tuple[int, int]
RGB = tuple[int, int, int]
# The kinds the panel counts, in the order the rules introduce them (metals have their row).
KINDS: tuple[Atom, ...] = (*CARDINALS, Atom.SALT, Atom.VITAE, Atom.MORS, Atom.QUICKSILVER)
HINT_COLOUR: RGB = (0, 200, 255)
FOCUS_COLOUR: RGB = (255, 255, 255)  # the keys' cursor (palmish/sigmar/hexart.py too)
STRIP_MIN = 8  # standard units: a narrower strip at the right is left empty


class Scene(Frozen, frozen=False):
    """What the view shows besides the game itself."""

    game: Garden
    title: str = ""  # the level's name or the board number
    selected: Cell | None = None
    hint: tuple[Cell, ...] = ()  # the cells of the hinted take
    dim_locked: bool = True
    wins: int = 0
    streak: int = 0
    message: str = ""  # the last one-line message (why a tap was refused, ...)
    partners: list[Cell] = field(default_factory=list)
    focus: Cell | None = None  # the keys' cursor (not the selection)
    # The board of every atom (`palmish preview`, palmish/sigmar/showcase.py): these
    # cells are drawn selected too, and a free metal is drawn lit even when not current.
    showcase: tuple[Cell, ...] | None = None


class SigmarView:
    def __init__(self, layout: SigmarLayout, art: Art) -> None:
        self.layout = layout
        self.art = art

    # ---------------------------------------------------------------- painting

    def paint(self, fb: Framebuffer, scene: Scene, region: Rect | None = None) -> None:
        """Redraw everything that touches `region` (default: the whole app area)."""
        lay = self.layout
        area = lay.bounds if region is None else region.intersect(lay.bounds)
        if area is None:
            return
        for filler in lay.fillers:
            fill_tiled(fb, filler, area, self.art.panel, self.art.field_colour)
        if lay.field.intersect(area) is not None:
            self._paint_field(fb, scene, area)
        self._paint_panel(fb, scene, area)

    def cell_rects(self, *cells: Cell | None) -> list[Rect]:
        return [self.layout.cell_rect(*c) for c in cells if c is not None]

    def _paint_field(self, fb: Framebuffer, scene: Scene, area: Rect) -> None:
        lay, art, game = self.layout, self.art, scene.game
        fill_tiled(fb, lay.field, area, art.backdrop, art.field_colour)
        hexes = art.hex if lay.hexagonal else None
        free = game.free_mask()
        stride = HEX_STRIDE if lay.hexagonal else STRIDE
        for row, col in lay.cells():
            cell = lay.cell_rect(row, col)
            clip = cell.intersect(area)
            if clip is None:
                continue
            if hexes is not None:
                fb.blit(hexes.socket, cell.x, cell.y, clip=clip)  # the whole hexagon is board
            elif game.start_atom_at(row, col) is None:
                continue
            elif art.socket is not None:
                fb.blit(art.socket, cell.x, cell.y, clip=clip)
            else:
                fb.fill(clip, PLAIN_CELL)
            atom = game.atom_at(row, col)
            if atom is None:
                continue
            # A metal that is not yet current cannot be taken either: dimmed alike.
            locked = scene.dim_locked and atom != Atom.SLAG and (
                not (free >> (row * stride + col)) & 1
                or (atom.is_metal and atom != game.current_metal and scene.showcase is None))
            chosen = scene.selected == (row, col) or (row, col) in (scene.showcase or ())
            x, y = lay.atom_spot(row, col)
            fb.blit(art.atom(atom, locked=locked, selected=chosen), x, y, clip=clip)
        if scene.focus is not None:  # its own mark: among partner dots a dot would not show
            self._mark(fb, scene.focus, area, hexes.focus if hexes else None, "focus")
        for cell_pos in scene.partners:  # over the focus: a partner under it still shows
            self._mark(fb, cell_pos, area, hexes.partner if hexes else art.partner_mark,
                       "partner")
        for cell_pos in scene.hint:
            self._mark(fb, cell_pos, area, hexes.hint if hexes else art.hint_mark, "hint")
        for chosen_cell in (scene.selected, *(scene.showcase or ())):
            if chosen_cell is not None:
                self._mark(fb, chosen_cell, area, hexes.select if hexes else art.select_mark,
                           "select")

    def _mark(self, fb: Framebuffer, pos: Cell, area: Rect, img: Image.Image | None,
              kind: str) -> None:
        cell = self.layout.cell_rect(*pos)
        clip = cell.intersect(area)
        if clip is None:
            return
        if img is not None:
            fb.blit(img, cell.x, cell.y, clip=clip)
            return
        u = self.layout.scale
        if kind == "select":
            for i in range(2 * u):
                colour = self.art.mark_colour if i < u + u // 2 else (0, 0, 0)
                fb.rectangle(Rect(cell.x + i, cell.y + i, cell.w - 2 * i, cell.h - 2 * i),
                            colour, clip=clip)
        elif kind == "focus":  # white edged in black: never the selection's yellow
            for i in range(2 * u):
                fb.rectangle(Rect(cell.x + i, cell.y + i, cell.w - 2 * i, cell.h - 2 * i),
                            FOCUS_COLOUR if i < u else (0, 0, 0), clip=clip)
        elif kind == "hint":
            n = 4 * u
            for x, y in ((cell.x, cell.y), (cell.right - n, cell.y),
                         (cell.x, cell.bottom - n), (cell.right - n, cell.bottom - n)):
                fb.rectangle(Rect(x, y, n, n), HINT_COLOUR, clip=clip)
        else:
            # In the bottom-right corner, clear of the letter (as the bundled boards').
            edge = Rect(cell.right - 3 * u, cell.bottom - 3 * u, 3 * u, 3 * u)
            for rect, colour in ((edge, (0, 0, 0)),
                                 (Rect(edge.x + u, edge.y + u, u, u), self.art.mark_colour)):
                part = rect.intersect(clip)
                if part is not None:
                    fb.fill(part, colour)

    # ---------------------------------------------------------------- panel

    def _paint_panel(self, fb: Framebuffer, scene: Scene, area: Rect) -> None:
        lay, art = self.layout, self.art
        for rect in (lay.panel, lay.line):
            if rect is not None and rect.intersect(area) is not None:
                fill_tiled(fb, rect, area, art.panel, (236, 232, 220))
        if lay.compact:
            if lay.panel.intersect(area) is not None:
                self._strip(fb, scene, lay.panel.intersect(area) or area)
            if lay.line is not None and lay.line.intersect(area) is not None:
                self._line(fb, scene, lay.line.intersect(area) or area)
        elif lay.panel.intersect(area) is not None:
            self._block(fb, scene, lay.panel.intersect(area) or area)

    def _metal_row(self, fb: Framebuffer, scene: Scene, x: int, y: int, size: int, gap: int,
                   vertical: bool, clip: Rect) -> int:
        """The Order of Projection: metals gone from the board faded, the current one framed.
        Returns the extent drawn along the row."""
        game = scene.game
        left = game.counts()
        current = game.current_metal
        u = self.layout.scale
        step = size + gap
        for i, metal in enumerate(METAL_ORDER):
            px, py = (x, y + i * step) if vertical else (x + i * step, y)
            img = self.art.small(metal, size)
            if not left.get(metal):
                img = self.art.locked[metal] if img.width == self.art.cell else \
                    self.art.locked[metal].resize((size, size), Image.Resampling.BOX)
            fb.blit(img, px, py, clip=clip)
            if metal == current:
                for k in range(u):
                    fb.rectangle(Rect(px - 1 - k, py - 1 - k, size + 2 + 2 * k,
                                         size + 2 + 2 * k), self.art.mark_colour, clip=clip)
        return len(METAL_ORDER) * step

    def _kind_counts(self, scene: Scene) -> list[tuple[Atom, int]]:
        left = scene.game.counts()
        return [(k, left.get(k, 0)) for k in KINDS if left.get(k, 0)]

    def _strip(self, fb: Framebuffer, scene: Scene, clip: Rect) -> None:
        """Square: the metal order down the strip, then the atoms left by kind."""
        lay = self.layout
        u = lay.scale
        strip = lay.panel
        if strip.w < STRIP_MIN * u:
            return  # too narrow (a 12-column level): the line below shows the metals
        font = fb.font("std")
        icon = max(4 * u, lay.cell // 2)
        row_h = icon + 3 * u  # digits are shorter than the font's line box
        counts = self._kind_counts(scene)
        # Metals as big as leaves room for the counts below them (the 2u margins above and
        # below the metal row, a gap of u + 1 after each metal); on the 160x160 screen they
        # keep the full cell (smaller, their letters would not read).
        gap = u + 1
        room = (strip.h - 4 * u - len(counts) * row_h) // len(METAL_ORDER) - gap
        least = lay.cell if u == 1 else 2 * lay.cell // 3
        size = min(strip.w - 4 * u, max(least, min(lay.cell, room)))
        x = strip.x + (strip.w - size) // 2
        y = strip.y + 2 * u
        y += self._metal_row(fb, scene, x, y, size, gap, True, clip) + 2 * u
        ink = self.art.text_colour
        # At 72 dpi an atom shrunk to a few pixels is a dot told apart by colour alone:
        # the atom's letter stands in for it there ("A8", as Help's key of the atoms).
        lettered = u == 1
        if lettered:
            row_h = font.height
        for atom, n in counts:
            if y + row_h > strip.bottom:
                break
            text = f"{atom.letter}{n}" if lettered else str(n)
            room = strip.w - 2 * u if lettered else strip.w - icon - u
            if font.width(text) > room:
                continue
            if lettered:
                fb.text(strip.x + (strip.w - font.width(text) + 1) // 2, y, text, ink, font,
                        clip=clip)
            else:
                fb.blit(self.art.small(atom, icon), strip.x + u, y + (row_h - icon) // 2,
                        clip=clip)
                fb.text(strip.x + icon + 2 * u, y + (row_h - font.height) // 2, text, ink, font,
                        clip=clip)
            y += row_h

    def _line(self, fb: Framebuffer, scene: Scene, clip: Rect) -> None:
        """Square: one line below the field (or the last message, while there is one)."""
        lay = self.layout
        line = lay.line
        assert line is not None
        font = fb.font("std")
        if line.h < font.height:
            return
        ink = self.art.text_colour
        u = lay.scale
        y = line.y + (line.h - font.height) // 2
        if scene.message:
            room = line.w - 4 * u
            text = next((w for w in wordings(scene.message) if font.width(w) <= room),
                        font.fit(scene.message, room))
            fb.text(line.x + 2 * u, y, text, ink, font, clip=clip)
            return
        left = scene.game.remaining
        x = line.x + 2 * u
        if lay.panel.w < STRIP_MIN * u:
            # A 12-column level leaves no strip: the metal order opens the line instead.
            size = min(lay.cell, line.h - 4 * u)
            x += self._metal_row(fb, scene, x + u, line.y + (line.h - size) // 2, size,
                                 2 * u, False, clip) + 2 * u
        room = line.right - 2 * u - x
        title = scene.title if x == line.x + 2 * u else ""  # the metals take the name's room
        rights = (f"{left} left  won {scene.wins}  streak {scene.streak}",
                  f"{left} left  W{scene.wins} S{scene.streak}", f"{left} left")
        # The longest right side that leaves the whole title (its board number is what
        # players share), else one that leaves at least its start.
        fits = [r for need in (title, title[:8]) for r in rights
                if font.width(r) + font.width(need) + 6 * u <= room]
        right = fits[0] if fits else rights[-1]
        rw = font.width(right)
        fb.text(line.right - 2 * u - rw, y, right, ink, font, clip=clip)
        room -= rw + 4 * u
        if room > 0 and title:
            fb.text(x, y, font.fit(title, room), ink, font, clip=clip)

    def _block(self, fb: Framebuffer, scene: Scene, clip: Rect) -> None:
        """Tall and Wide: everything in rows."""
        lay = self.layout
        u = lay.scale
        box = lay.panel
        pad = 4 * u
        x, w = box.x + pad, box.w - 2 * pad
        y = box.y + pad
        ink = self.art.text_colour
        std, bold = fb.font("std"), fb.font("bold")
        game = scene.game
        # The title is the shareable board number: never cut it, wrap it (Board 135593 /
        # (normal) on Wide's narrow panel) or fall back to the plain font.
        for font, lines in ((bold, [scene.title]), (std, [scene.title]),
                            (bold, bold.wrap(scene.title, w)), (std, std.wrap(scene.title, w))):
            if len(lines) <= 2 and all(font.width(t) <= w for t in lines):
                break
        for text in lines[:2]:
            fb.text(x, y, font.fit(text, w), ink, font, clip=clip)
            y += font.height
        y += u
        left = next((t for t in (f"Atoms left: {game.remaining}", f"Left: {game.remaining}")
                     if std.width(t) <= w), str(game.remaining))  # the number never cut
        fb.text(x, y, left, ink, std, clip=clip)
        y += std.height + 2 * u
        # Atoms left by kind: icon and count, as many to a row as fit.
        icon = lay.cell
        item_w = icon + u + std.width("88") + 4 * u
        per_row = max(1, w // item_w)
        counts = self._kind_counts(scene)
        for i, (atom, n) in enumerate(counts):
            r, c = divmod(i, per_row)
            ix, iy = x + c * item_w, y + r * (icon + u)
            fb.blit(self.art.small(atom, icon), ix, iy, clip=clip)
            fb.text(ix + icon + u, iy + (icon - std.height) // 2, str(n), ink, std, clip=clip)
        rows = (len(counts) + per_row - 1) // per_row if counts else 0
        y += rows * (icon + u) + 2 * u
        # The metal order: as big as fits across the panel.
        size = min(lay.cell, (w - 5 * 2 * u) // 6)
        self._metal_row(fb, scene, x + u, y + u, size, 2 * u, False, clip)
        y += size + 4 * u
        stats = f"Wins {scene.wins}  Streak {scene.streak}"
        lines = [stats] if std.width(stats) <= w else [f"Wins {scene.wins}",
                                                       f"Streak {scene.streak}"]
        said: list[str] = []
        if scene.message:
            below = (box.bottom - y - len(lines) * std.height - 2 * u) // std.height
            said = self._message_lines(std, scene.message, w, below)
            if not said:  # no room below wins and streak: the message takes their place
                lines = []  # until the next action, as on the one-line screens
                said = self._message_lines(std, scene.message, w, (box.bottom - y)
                                           // std.height) or [std.fit(scene.message, w)]
        for text in lines:
            fb.text(x, y, std.fit(text, w), ink, std, clip=clip)
            y += std.height
        if lines:
            y += 2 * u
        for text in said:
            fb.text(x, y, text, ink, std, clip=clip)
            y += std.height

    @staticmethod
    def _message_lines(font: Font, message: str, width: int, room: int) -> list[str]:
        """The first wording of the message whose wrapped lines all fit in `room` lines
        (so no line of it is lost), or [] when none does."""
        for text in wordings(message):
            lines = font.wrap(text, width)
            if len(lines) <= room:
                return lines
        return []

"""Draws Pachisi: the board, the pieces on it, the four corners (names, pieces
waiting and finished, the die), the marker and its target, a mark on every
other piece that can move, a piece sliding along its path, the panel (with the
last round's history and its scroll bar) and the message box over the board.

`paint(region)` redraws every layer that touches the region, in order, clipped
to it; the app asks for the whole area after each decision (a 304-pixel board
is cheap to redraw) and the framebuffer records it as damage.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from palmish.device.geometry import Rect
from palmish.device.graphics.screen import BLACK, GREY, WHITE, Framebuffer
from palmish.device.ui.widgets import SCROLL_WIDTH, ScrollBar
from palmish.pachisi.art import Art
from palmish.pachisi.game import Game, Phase
from palmish.pachisi.layout import FINISH_CELL, PachisiLayout
from palmish.pachisi.rules import FINISH, PIECES, TRACK, Move, distinct

PLAIN_PANEL = (255, 255, 255)
BOX_PAD = 4  # standard pixels inside the message box


@dataclass
class Slide:
    """A piece (or double) on its way: drawn on path[step] instead of where it is now."""

    player: int
    pieces: tuple[int, ...]
    path: list[tuple[int, int]]  # the grid squares it passes, the last its new square
    step: int = 0


@dataclass
class Scene:
    """What the view shows besides the game itself."""

    game: Game
    mark: Move | None = None  # the move the marker and the target show
    notice: str | None = None  # the message box over the board (any key clears it)
    notice_title: str | None = None  # a bold first line, e.g. CAUTION
    # (player, value) of a lost throw: that corner keeps the die until its box clears
    shown_throw: tuple[int, int] | None = None
    slide: Slide | None = None
    log: list[str] = field(default_factory=list)  # the panel's history lines, oldest first
    log_top: int | None = None  # first history line shown; None: the newest at the bottom
    # network game: players whose device dropped, and what their corner says ("away",
    # "Silicon" once Silicon plays for them)
    away: dict[int, str] = field(default_factory=dict)
    # network game not started yet: the waiting room drawn instead of the board (a
    # title, then lines: the address and code, the seats, what happens next)
    lobby: tuple[str, ...] | None = None
    # network game: this device's person plays the seat in turn (None: a local game,
    # where every person's turn is played here)
    yours: bool | None = None
    # network game watched from this device (no seat of its own): the table's name.
    # Tall and Wide say so in the log; Square, without one, in a corner (`watch_corner`)
    watching: str | None = None
    # `palmish preview` of a Pieces plugin (palmish/pachisi/showcase.py): a tray over
    # the board's middle shows every die face and both cowries
    showcase: bool = False


def slide_path(game: Game, move: Move) -> list[tuple[int, int]]:
    """The squares a move passes through, from the first step to where it stops."""
    seat = game.seats[move.player]
    path = []
    for pos in range(max(1, move.frm + 1), move.to + 1):
        xy = FINISH_CELL if pos == FINISH else TRACK[seat][pos]
        if xy is not None:
            path.append(xy)
    return path


def cowries_up(value: int) -> int:
    """How many of the six shells lie mouth up for a throw."""
    return {25: 0, 10: 1}.get(value, value)


class PachisiView:
    def __init__(self, layout: PachisiLayout, art: Art) -> None:
        self.layout = layout
        self.art = art
        self.log_bar: ScrollBar | None = None  # the panel history's scroll bar, when it has one

    # ---------------------------------------------------------------- geometry

    def mark_rect(self, game: Game, move: Move) -> Rect:
        """Where the marker sits: the piece's square, or the first waiting piece."""
        seat = game.seats[move.player]
        if move.frm == 0:
            return self.layout.waiting_slot(seat, 0)
        xy = TRACK[seat][move.frm]
        assert xy is not None
        return self.layout.square_rect(xy)

    def target_rect(self, game: Game, move: Move) -> Rect:
        seat = game.seats[move.player]
        xy = FINISH_CELL if move.to == FINISH else TRACK[seat][move.to]
        assert xy is not None
        return self.layout.square_rect(xy)

    def notice_rect(self, fb: Framebuffer, text: str) -> tuple[Rect, list[str]]:
        lay = self.layout
        s = lay.scale
        font = fb.font("std")
        width = lay.board.w * 3 // 4
        lines = font.wrap(text, width - 2 * BOX_PAD * s)[:8]
        h = len(lines) * font.height + 2 * BOX_PAD * s
        box = Rect(lay.board.x + (lay.board.w - width) // 2,
                   lay.board.y + (lay.board.h - h) // 2, width, h)
        return box, lines

    # ---------------------------------------------------------------- painting

    def paint(self, fb: Framebuffer, scene: Scene, region: Rect | None = None) -> None:
        lay = self.layout
        area = lay.bounds if region is None else region.intersect(lay.bounds)
        if area is None:
            return
        if scene.lobby is not None:
            self._background(fb, lay.bounds, area)
            self._lobby(fb, scene.lobby, area)
            return
        for rect in (lay.strip, *lay.fillers):
            self._background(fb, rect, area)
        board = area.intersect(lay.board)
        if board is not None:
            fb.blit(self.art.board, lay.board.x, lay.board.y, clip=board)
            self._corners(fb, scene, board)
            self._pieces(fb, scene, board)
            if scene.mark is not None:
                game = scene.game
                if not game.players[game.current].computer:
                    for move in distinct(game.legal_moves()):  # every piece that can move
                        if move != scene.mark:
                            fb.blit(self.art.movable, *_xy(self.mark_rect(game, move)),
                                    clip=board)
                fb.blit(self.art.target, *_xy(self.target_rect(game, scene.mark)), clip=board)
                fb.blit(self.art.mark, *_xy(self.mark_rect(game, scene.mark)), clip=board)
            if scene.watching is not None and lay.panel is None:
                self._watching(fb, scene, board)
            if scene.showcase:
                self._tray(fb, board)
        if lay.panel is not None and lay.panel.rect.intersect(area) is not None:
            self._panel(fb, scene, area)
        if scene.notice:
            self._notice(fb, scene.notice, scene.notice_title, area)

    def _background(self, fb: Framebuffer, rect: Rect, area: Rect) -> None:
        clip = rect.intersect(area)
        if clip is None:
            return
        img = self.art.panel
        if img is None:
            fb.fill(clip, PLAIN_PANEL)
            return
        for y in range(rect.y, clip.bottom, img.height):
            for x in range(rect.x, clip.right, img.width):
                if Rect(x, y, img.width, img.height).intersect(clip) is not None:
                    fb.blit(img, x, y, clip=clip)

    def _pieces(self, fb: Framebuffer, scene: Scene, clip: Rect) -> None:
        game, slide = scene.game, scene.slide
        squares: dict[tuple[int, int], list[tuple[int, int]]] = {}
        for pl in range(len(game.players)):
            for pc in range(PIECES):
                xy = game.square(pl, pc)
                if xy is None or (slide is not None and slide.player == pl
                                  and pc in slide.pieces):
                    continue
                here = squares.setdefault(xy, [])
                for i, (owner, n) in enumerate(here):
                    if owner == pl:
                        here[i] = (owner, n + 1)
                        break
                else:
                    here.append((pl, 1))
        for xy, owners in squares.items():
            cell = self.layout.square_rect(xy)
            if len(owners) == 1:
                pl, n = owners[0]
                img = self.art.piece("double" if n > 1 else "pawn", game.colour(pl))
                fb.blit(img, cell.x, cell.y, clip=clip)
                continue
            # Several players on a safe square: half-size pieces, two side by side in
            # the middle, three or four in the quarters.
            half = cell.w // 2
            top = cell.y + (half // 2 if len(owners) == 2 else 0)
            for i, (pl, n) in enumerate(owners[:4]):
                img = self.art.small_piece("double" if n > 1 else "pawn", game.colour(pl))
                fb.blit(img, cell.x + (i % 2) * half, top + (i // 2) * half, clip=clip)
        if slide is not None:  # over whatever it passes
            kind = "double" if len(slide.pieces) > 1 else "pawn"
            cell = self.layout.square_rect(slide.path[slide.step])
            fb.blit(self.art.piece(kind, game.colour(slide.player)), cell.x, cell.y, clip=clip)

    def _corners(self, fb: Framebuffer, scene: Scene, clip: Rect) -> None:
        game = scene.game
        lay = self.layout
        ink = self.art.text_colour
        thrower = scene.shown_throw[0] if scene.shown_throw else game.current
        watched = (watch_corner(game, scene)
                   if scene.watching is not None and lay.panel is None else None)
        for pl, player in enumerate(game.players):
            seat = game.seats[pl]
            current = pl == thrower and not game.over
            winner = game.winner == pl
            if current or winner:
                fb.blit(self.art.turn, *_xy(lay.corner(seat)), clip=clip)
            box = lay.name_rect(seat)
            font = fb.font("bold" if current or winner else "std")
            if font.width(player.name) > box.w:  # a long name whole rather than bold
                font = fb.font("std")
            fb.text(box.x, box.y, font.fit(player.name, box.w), ink, font, clip=clip)
            state = scene.away.get(pl)
            if state is not None and watched == (seat, False):
                state = None  # every free corner is away: Square's watching line wins
            if state is not None and not current:  # where the die is on their turn
                self._corner_line(fb, lay.die_rect(seat).union(lay.value_rect(seat)), state,
                                  clip)
            colour = game.colour(pl)
            for i in range(game.waiting(pl)):
                fb.blit(self.art.piece("pawn", colour), *_xy(lay.waiting_slot(seat, i)),
                        clip=clip)
            for i in range(game.finished(pl)):
                fb.blit(self.art.piece("finished", colour), *_xy(lay.finished_slot(seat, i)),
                        clip=clip)
            if current:
                self._die(fb, scene, seat, clip)

    def tray_rect(self) -> Rect:
        """The showcase's tray: the die faces and the two cowries in a row, a quarter
        cell apart and around, in the middle of the board."""
        lay, c = self.layout, self.layout.cell
        gap = max(1, c // 4)
        pictures = [*self.art.dice.values(), *self.art.shells]
        w = sum(p.width for p in pictures) + gap * (len(pictures) + 1)
        h = max(p.height for p in pictures) + 2 * gap
        return Rect(lay.board.x + (lay.board.w - w) // 2, lay.board.y + (lay.board.h - h) // 2,
                    w, h)

    def _tray(self, fb: Framebuffer, clip: Rect) -> None:
        box = self.tray_rect()
        inside = box.intersect(clip)
        if inside is None:
            return
        gap = max(1, self.layout.cell // 4)
        fb.fill(inside, WHITE)
        fb.rectangle(box, BLACK, clip=clip)
        x = box.x + gap
        for picture in (*self.art.dice.values(), *self.art.shells):
            fb.blit(picture, x, box.y + (box.h - picture.height) // 2, clip=clip)
            x += picture.width + gap

    def _watching(self, fb: Framebuffer, scene: Scene, clip: Rect) -> None:
        """Square's only sign that this device watches: an empty corner says so in
        its own name line with the table under it; at four players two lines in the
        die's place of a corner not throwing (`watch_corner`)."""
        assert scene.watching is not None
        lay, game = self.layout, scene.game
        seat, empty = watch_corner(game, scene)
        if empty:
            bold, std = fb.font("bold"), fb.font("std")
            box = lay.name_rect(seat)
            ink = self.art.text_colour
            fb.text(box.x, box.y, bold.fit("Watching", box.w), ink, bold, clip=clip)
            row = lay.waiting_row(seat)
            for i, line in enumerate(std.wrap(scene.watching, box.w)[:2]):
                fb.text(box.x, row.y + i * std.height, line, ink, std, clip=clip)
            return
        die = lay.die_rect(seat).union(lay.value_rect(seat))
        std = fb.font("std")
        box = Rect(die.x, die.y, die.w, lay.corner(seat).bottom - die.y)  # down to the arm
        lines = ["Watching", std.fit(scene.watching, box.w)]
        if len(lines) * std.height > box.h:
            lines = [std.fit(f"Watching {scene.watching}", box.w)]
        for i, line in enumerate(lines):
            fb.text(box.x, box.y + i * std.height, line, self.art.text_colour, std, clip=clip)

    def _die(self, fb: Framebuffer, scene: Scene, seat: int, clip: Rect) -> None:
        lay, game = self.layout, scene.game
        die = lay.die_rect(seat)
        value = game.last_throw if game.last_throw is not None else 6
        if scene.shown_throw is not None:
            value = scene.shown_throw[1]
        if game.dice == "cowrie":
            up = cowries_up(value)
            c = lay.cell
            for i in range(6):
                img = self.art.shells[0 if i < up else 1]
                fb.blit(img, die.x + (i % 3) * c, die.y + (i // 3) * c, clip=clip)
        else:
            fb.blit(self.art.dice[value], die.x, die.y, clip=clip)
        away = scene.away.get(game.current)
        if away is not None and scene.shown_throw is None:
            # their own corner says who is missing; the shells or die show the value
            self._corner_line(fb, lay.value_rect(seat), away, clip)
            return
        if game.phase == Phase.MOVE or scene.shown_throw is not None:
            label, font = str(value), "large" if lay.scale == 1 else "bold"
        elif game.players[game.current].computer:
            label, font = "", "std"
        else:
            label, font = "Throw", "std"
        box = lay.value_rect(seat)
        face = fb.font(font)
        fb.text(box.x, box.y + (box.h - face.height) // 2, face.fit(label, box.w),
                self.art.text_colour, face, clip=clip)

    def _panel(self, fb: Framebuffer, scene: Scene, area: Rect) -> None:
        panel = self.layout.panel
        assert panel is not None
        game = scene.game
        ink = self.art.panel_text
        clip = area.intersect(panel.text)
        if clip is not None:
            bold, std = fb.font("bold"), fb.font("std")
            x, y, w = panel.text.x, panel.text.y, panel.text.w
            name = game.players[game.current].name
            tail = " to play"
            if game.over:
                name, tail = ("Game over", "") if game.winner is None else (
                    game.players[game.winner].name,
                    " win!" if game.players[game.winner].name == "You" else " wins!")
            swatch = self.art.piece("pawn", game.colour(game.winner if game.winner is not None
                                                        else game.current))
            fb.blit(swatch, x, y + (bold.height - swatch.height) // 2, clip=clip)
            tx = x + swatch.width + 2 * self.layout.scale
            tx += fb.text(tx, y, bold.fit(name, x + w - tx), ink, bold, clip=clip)
            if std.width(tail) <= x + w - tx:
                fb.text(tx, y, tail, ink, std, clip=clip)
            y += bold.height
            for label in throws_lines(game, lambda text: std.width(text) <= w):
                fb.text(x, y, std.fit(label, w), ink, std, clip=clip)
                y += std.height
            y += self.layout.scale * 2
            fb.fill(Rect(x, y - self.layout.scale, w, self.layout.scale), GREY)
            self._history(fb, scene, Rect(x, y, w, panel.text.bottom - y), clip)
        human = not game.players[game.current].computer and not game.over
        if scene.yours is not None:  # the others' buttons are on their own devices
            human = scene.yours
        self._button(fb, panel.throw_button, "Throw", human and game.phase == Phase.THROW, area)
        self._button(fb, panel.pass_button, "Pass", human and game.can_pass, area)

    def _history(self, fb: Framebuffer, scene: Scene, rect: Rect, clip: Rect) -> None:
        """The last round's lines, the newest at the bottom, with a scroll bar when
        they do not fit (the app scrolls it: `log_bar`)."""
        std, s = fb.font("std"), self.layout.scale
        ink = self.art.panel_text
        room = max(1, rect.h // std.height)
        lines = [ln for text in scene.log for ln in std.wrap(text, rect.w)]
        self.log_bar = None
        width = rect.w
        if len(lines) > room:
            width = rect.w - (SCROLL_WIDTH + 2) * s
            starts: list[int] = []  # where each message's first line is
            lines = []
            for text in scene.log:
                starts.append(len(lines))
                lines += std.wrap(text, width)
            bar = ScrollBar(Rect(rect.right - SCROLL_WIDTH * s, rect.y, SCROLL_WIDTH * s,
                                 room * std.height), len(lines), room)
            if scene.log_top is None:  # the newest messages, the top one whole
                bar.top = min((i for i in starts if i >= bar.max_top), default=bar.max_top)
                bar.total = max(bar.total, bar.top + room)  # a blank line or two below
            else:
                bar.top = min(scene.log_top, bar.max_top)
            bar.draw(fb)
            self.log_bar = bar
            lines = lines[bar.top:bar.top + room]
        y = rect.y
        for line in lines:
            fb.text(rect.x, y, std.fit(line, width), ink, std, clip=clip)
            y += std.height

    def _button(self, fb: Framebuffer, rect: Rect, label: str, enabled: bool,
                area: Rect) -> None:
        if rect.intersect(area) is None:
            return
        s = self.layout.scale
        ink = BLACK if enabled else GREY
        fb.round_rect(rect, 4 * s, outline=ink, fill=WHITE, width=s)
        font = fb.font("std")
        fb.text(rect.x + (rect.w - font.width(label)) // 2 + s // 2,
                rect.y + (rect.h - font.height) // 2, label, ink, font)

    def _corner_line(self, fb: Framebuffer, box: Rect, text: str, clip: Rect) -> None:
        """A seat's state in its corner, on a line of its own (a name beside it would
        not fit the 160-pixel corner)."""
        face = fb.font("std")
        fb.text(box.x, box.y + (box.h - face.height) // 2, face.fit(text, box.w),
                self.art.text_colour, face, clip=clip)

    def _lobby(self, fb: Framebuffer, lines: tuple[str, ...], area: Rect) -> None:
        """The waiting room: a box over the board's place, its title in bold."""
        lay, s = self.layout, self.layout.scale
        std, bold = fb.font("std"), fb.font("bold")
        width = lay.board.w - 8 * s
        room = width - 2 * BOX_PAD * s
        title = bold.fit(lines[0], room) if lines else ""
        body = [part for line in lines[1:] for part in std.wrap(line, room)]
        top_room = lay.board.h - 2 * BOX_PAD * s - bold.height - 2 * s
        body = body[:max(0, top_room // std.height)]
        h = bold.height + 2 * s + len(body) * std.height + 2 * BOX_PAD * s
        box = Rect(lay.board.x + (lay.board.w - width) // 2,
                   lay.board.y + (lay.board.h - h) // 2, width, h)
        clip = box.intersect(area)
        if clip is None:
            return
        fb.fill(clip, WHITE)
        fb.rectangle(box, BLACK, 2 * s)
        y = box.y + BOX_PAD * s
        fb.text(box.x + (box.w - bold.width(title)) // 2, y, title, BLACK, bold, clip=clip)
        y += bold.height + 2 * s
        for line in body:
            fb.text(box.x + BOX_PAD * s, y, line, BLACK, std, clip=clip)
            y += std.height

    def _notice(self, fb: Framebuffer, text: str, title: str | None, area: Rect) -> None:
        box, lines = self.notice_rect(fb, text if title is None else f"{title}\n{text}")
        clip = box.intersect(area)
        if clip is None:
            return
        s = self.layout.scale
        fb.fill(clip, WHITE)
        fb.rectangle(box, BLACK, 2 * s)
        font = fb.font("std")
        y = box.y + BOX_PAD * s
        for i, line in enumerate(lines):
            face = fb.font("bold") if title is not None and i == 0 else font
            fb.text(box.x + (box.w - face.width(line)) // 2, y, line, BLACK, face, clip=clip)
            y += font.height


def watch_corner(game: Game, scene: Scene) -> tuple[int, bool]:
    """Where Square says this device watches: the seat of a corner nobody sits in
    (True), else the corner diagonally across from the thrower's, or failing that
    the next one round whose die's place is free (no away state there; the die's
    own corner never)."""
    taken = set(game.seats)
    for seat in range(4):
        if seat not in taken:
            return seat, True
    thrower = scene.shown_throw[0] if scene.shown_throw else game.current
    at = game.seats[thrower]
    owner = {s: pl for pl, s in enumerate(game.seats)}
    for step in (2, 1, 3):
        seat = (at + step) % 4
        if owner[seat] not in scene.away:
            return seat, False
    return (at + 2) % 4, False


def throws_line(game: Game) -> str:
    """The values of the latest turn's throws (the current player's run, or the last one)."""
    if not game.history:
        return "-"
    who = game.history[-1].player
    run: list[str] = []
    for throw in reversed(game.history):
        if throw.player != who:
            break
        run.append(str(throw.value))
    return " ".join(reversed(run[:6]))


def throws_label(game: Game, short: bool = False) -> str:
    """The panel's throws line: the current player's throws in this turn, or whose the
    last throws were ("Throws: 4" under "You to play" read as if you had thrown, also
    when the 4 was your own, before everyone else passed)."""
    if game.turn_throws and not game.over:
        return "Throws: " + " ".join(str(v) for v in game.turn_throws[-6:])
    if game.history and (game.history[-1].player != game.current or game.over):
        name = game.players[game.history[-1].player].name
        return f"{name}{':' if short else ' threw'} {throws_line(game)}"
    return "Throws: -"


def throws_lines(game: Game, fits: Callable[[str], bool]) -> list[str]:
    """The throws line as the panel shows it: whole where it fits, else the short form,
    else the values under their label, on as many lines as they need (Wide's narrow
    panel: a run of six throws cut to "10 6 25 10 6..." before)."""
    for label in (throws_label(game), throws_label(game, short=True)):
        if fits(label):
            return [label]
    head, _, values = label.partition(": ")
    lines = [head + ":"]
    line = ""
    for value in values.split():
        longer = f"{line} {value}" if line else value
        if line and not fits(longer):
            lines.append(line)
            longer = value
        line = longer
    return [*lines, line]


def _xy(rect: Rect) -> tuple[int, int]:
    return rect.x, rect.y

"""The hexagonal garden in the app (issue 43): choosing it, saving, statistics, Board
Numbers, the Hint, taps and drags on hexagons, the keys alone, levels and plugins."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from PIL import Image

from palmish.device.display import CONFIGS, ConfigName
from palmish.device.events import CharKey, Key, KeyDown, MenuCommand, PenDown, PenUp
from palmish.device.machine.system import Device
from palmish.device.ui.form import Form, PopupList
from palmish.sigmar import Game, garden
from palmish.sigmar.app import SigmarApp
from palmish.sigmar.hexagonal import solver as hex_solver
from palmish.sigmar.hexagonal.game import HexGame
from palmish.sigmar.hexagonal.geometry import HEXAGON
from palmish.sigmar.hexagonal.level import bundled_levels
from palmish.sigmar.layout import HexGrid, layout_for
from tests.game_devices import centre
from tests.sigmar.conftest import PLUGINS, Make, press, tap_cell

HEX = garden.HEXAGONAL


def hexagonal(make: Make, config: ConfigName = ConfigName.SQUARE,
              data: Path | None = None) -> tuple[Device, SigmarApp]:
    device, app = make(config, data)
    device.post(MenuCommand(f"garden-{HEX}"))
    assert isinstance(app.game, HexGame)
    return device, app


def wait(device: Device, ms: int) -> None:
    device.advance(device.now_ms + ms)


def solution(game: garden.Garden) -> list[garden.Take]:
    takes = hex_solver.solve(game)  # type: ignore[arg-type]
    assert takes is not None
    return takes


# ---------------------------------------------------------------- the mode


def test_the_game_menu_switches_gardens_and_each_keeps_its_game(make: Make) -> None:
    device, app = make()
    square = app.game
    tap_cell(device, app, solution_square(app)[0].a)  # a selection: nothing lost by leaving
    device.post(MenuCommand(f"garden-{HEX}"))
    assert isinstance(app.game, HexGame) and app.layout is not None and app.layout.hexagonal
    assert app.title() == f"Hex Board {app.game.seed}" and app.prefs["garden"] == HEX
    first = solution(app.game)[0]
    app.game.take(*first)
    app.save()
    hex_record = app.game.record()
    device.post(MenuCommand("garden-square"))
    assert isinstance(app.game, Game) and app.game.record() == square.record()
    assert app.layout is not None and not app.layout.hexagonal
    device.post(MenuCommand(f"garden-{HEX}"))
    assert app.game.record() == hex_record  # parked, not dealt anew
    device.shutdown()


def solution_square(app: SigmarApp) -> list[garden.Take]:
    from palmish.sigmar import solver
    assert isinstance(app.game, Game)
    takes = solver.solve(app.game)
    assert takes is not None
    return takes


def test_a_saved_hexagonal_game_and_the_parked_square_one_resume(make: Make,
                                                                tmp_path: Path) -> None:
    data = tmp_path / "device"
    device, app = make(data=data)
    square = app.game.record()
    device.post(MenuCommand(f"garden-{HEX}"))
    for t in solution(app.game)[:3]:
        tap_cell(device, app, t.a)
        if t.b is not None:
            tap_cell(device, app, t.b)
    record = app.game.record()
    assert record.startswith("sigmarhex ") and len(app.game.moves) == 3
    device.shutdown()
    device, again = make(data=data)
    assert isinstance(again.game, HexGame) and again.game.record() == record
    device.post(MenuCommand("garden-square"))
    assert again.game.record() == square
    device.shutdown()


def test_preferences_choose_the_garden(make: Make) -> None:
    device, app = make()
    device.post(MenuCommand("prefs"))
    form = device.modals[-1]
    assert isinstance(form, Form)
    choice = next(f for f in form.fields if getattr(f, "key", None) == "garden")
    assert isinstance(choice, PopupList)
    assert choice.options == ("Hexagonal (Opus Magnum)", "Square (the remake)")
    assert choice.options[choice.selected] == "Square (the remake)"
    choice.selected = 0
    press(device, "OK")
    assert isinstance(app.game, HexGame) and app.garden() == HEX
    device.post(MenuCommand("new"))
    assert isinstance(app.game, HexGame)  # New Game deals in the chosen garden
    device.shutdown()


def test_each_garden_has_its_own_statistics(make: Make) -> None:
    device, app = hexagonal(make)
    for t in solution(app.game):
        tap_cell(device, app, t.a)
        if t.b is not None:
            tap_cell(device, app, t.b)
    assert app.game.won
    assert app.tallies.tally("hexagonal").won == 1 and app.tallies.tally("garden").won == 0
    device.post(KeyDown(Key.CANCEL))  # the win's dialog
    device.post(MenuCommand("stats"))
    text = device.modals[-1].message  # type: ignore[attr-defined]
    assert text.startswith("Hexagonal garden\n") and "Won: 1" in text
    device.post(KeyDown(Key.CANCEL))
    device.post(MenuCommand("garden-square"))
    device.post(MenuCommand("stats"))
    text = device.modals[-1].message  # type: ignore[attr-defined]
    assert text.startswith("Square garden\n") and "Won: 0" in text
    device.shutdown()


def test_a_board_number_names_a_hexagonal_board_in_its_own_space(make: Make) -> None:
    device, app = hexagonal(make)
    device.post(MenuCommand("board"))
    assert device.modals[-1].title == "Hex Board Number"  # type: ignore[attr-defined]
    for d in "4242\n":
        device.post(CharKey(d))
    assert isinstance(app.game, HexGame) and app.game.seed == 4242
    assert app.title() == "Hex Board 4242"
    assert app.game.record() == HexGame.new(seed=4242).record()
    assert app.game.record() != Game.new(seed=4242).record()
    device.shutdown()


# ---------------------------------------------------------------- the board on screen


@pytest.mark.parametrize("config", list(ConfigName))
def test_every_hexagon_is_where_a_tap_finds_it(config: ConfigName) -> None:
    lay = layout_for(CONFIGS[config], 11, 11, hexagonal=True)
    assert isinstance(lay.grid, HexGrid)
    assert lay.field.contains(lay.grid.rect.x, lay.grid.rect.y)
    assert lay.grid.rect.bottom <= lay.field.bottom and lay.grid.rect.right <= lay.field.right
    for cell in HEXAGON.cells():
        r = lay.cell_rect(*cell)
        assert lay.cell_at(*centre(r)) == cell
        assert lay.field.contains(r.x, r.y) and r.right <= lay.field.right
    # Any point: the cell whose centre is nearest (the hexagon it is drawn in).
    pick = random.Random(5)
    for _ in range(2000):
        x = pick.randrange(lay.field.x, lay.field.right)
        y = pick.randrange(lay.field.y, lay.field.bottom)
        found = lay.cell_at(x, y)
        nearest = min(HEXAGON.cells(), key=lambda c: distance(lay, c, x, y))
        if found is not None:
            assert distance(lay, found, x, y) <= distance(lay, nearest, x, y) + 1.5


def distance(lay: object, cell: tuple[int, int], x: int, y: int) -> float:
    r = lay.cell_rect(*cell)  # type: ignore[attr-defined]
    cx, cy = r.x + r.w / 2, r.y + r.h / 2
    return float(((cx - x) ** 2 + (cy - y) ** 2) ** 0.5)


def test_the_socket_pixels_of_each_hexagon_tap_that_hexagon(make: Make) -> None:
    device, app = hexagonal(make, ConfigName.SQUARE_LOW)
    lay, view = app.layout, app.view
    assert lay is not None and view is not None and view.art.hex is not None
    socket = view.art.hex.socket
    for cell in HEXAGON.cells():
        r = lay.cell_rect(*cell)
        for y in range(socket.height):
            for x in range(socket.width):
                if socket.getpixel((x, y))[3]:
                    assert lay.cell_at(r.x + x, r.y + y) == cell, (cell, x, y)
    device.shutdown()


@pytest.mark.parametrize("config", list(ConfigName))
def test_a_tap_selects_the_hexagon_and_a_drag_takes_a_pair(make: Make,
                                                           config: ConfigName) -> None:
    device, app = hexagonal(make, config)
    take = next(t for t in solution(app.game) if t.b is not None)
    tap_cell(device, app, take.a)
    assert app.scene.selected == take.a and take.b in app.scene.partners
    tap_cell(device, app, take.a)  # let go
    assert app.scene.selected is None
    assert app.layout is not None
    a, b = centre(app.layout.cell_rect(*take.a)), centre(app.layout.cell_rect(*take.b))
    device.post(PenDown(*a))
    device.post(PenUp(*b))
    assert app.game.moves == [take]
    device.shutdown()


def test_up_and_down_walk_the_free_atoms_in_reading_order(make: Make) -> None:
    device, app = hexagonal(make)
    ring = sorted({c for t in app.game.legal_takes() for c in (t.a, t.b) if c})
    seen = []
    for _ in ring:
        device.post(KeyDown(Key.DOWN))
        seen.append(app.focus)
    assert seen == ring
    device.post(KeyDown(Key.UP))
    assert app.focus == ring[-2]
    device.shutdown()


def test_the_keys_alone_clear_a_whole_board(make: Make) -> None:
    device, app = hexagonal(make)
    for t in solution(app.game):
        for cell in (t.a, t.b):
            if cell is None:
                continue
            for _ in range(100):
                if app.focus == cell:
                    break
                device.post(KeyDown(Key.DOWN))
            assert app.focus == cell
            device.post(KeyDown(Key.SELECT))
    assert app.game.won and app.tallies.tally("hexagonal").won == 1
    device.shutdown()


def test_the_hint_answers_in_slices_and_select_takes_it(make: Make) -> None:
    device, app = hexagonal(make)
    device.post(MenuCommand("hint"))
    wait(device, 300)
    assert app.scene.hint and app.assisted
    before = app.game.remaining
    device.post(KeyDown(Key.SELECT))
    assert app.game.remaining < before
    device.shutdown()


def test_new_game_on_hard_deals_a_hard_hexagonal_board(make: Make) -> None:
    device, app = hexagonal(make)
    app.prefs["difficulty"] = "hard"
    device.post(MenuCommand("new"))
    for _ in range(400):
        if app.work is None or not app.work.running:
            break
        wait(device, 50)
    assert isinstance(app.game, HexGame) and app.game.seed is not None
    assert garden.rating(HEX, app.game.seed) == "hard"
    device.shutdown()


# ---------------------------------------------------------------- art


def test_the_hexagonal_board_is_drawn_with_the_hex_board_plugin(make: Make) -> None:
    device, app = hexagonal(make, ConfigName.SQUARE)
    assert app.view is not None and app.view.art.hex is not None
    assert near(middle(app.view.art.hex.socket), middle(picture("sigmar-hexboard-slate")))
    assert app.view.art.notes == []
    device.post(MenuCommand("prefs"))
    form = device.modals[-1]
    assert isinstance(form, Form)
    row = next(f for f in form.fields if getattr(f, "key", None) == "square/hexboard")
    assert isinstance(row, PopupList)
    assert set(row.options) == {"Hex Slate Board", "Hex Parchment Board"}
    row.selected = row.options.index("Hex Parchment Board")
    press(device, "OK")
    assert near(middle(app.view.art.hex.socket), middle(picture("sigmar-hexboard-parchment")))
    device.shutdown()


def picture(folder: str) -> Image.Image:
    return Image.open(PLUGINS.folder(folder) / "cell.png").convert("RGBA")


def near(a: tuple[int, ...], b: tuple[int, ...]) -> bool:
    """The same colour but for the Palm bitmap's palette (a few steps a channel)."""
    return all(abs(x - y) <= 8 for x, y in zip(a, b, strict=True))


def middle(img: Image.Image) -> tuple[int, ...]:
    """The colour in the middle of a cell (the plugin's, not a plain stand-in's)."""
    return tuple(img.getpixel((img.width // 2, img.height // 2)))  # type: ignore[arg-type]


@pytest.mark.parametrize("folder", ["sigmar-pieces-classic", "sigmar-pieces-glyphs"])
def test_the_hexagonal_gardens_atoms_differ_without_colour_at_13_px(folder: str) -> None:
    """The 14 atoms of the hexagonal garden (no Slag) as light and dark alone."""
    shapes = {}
    for atom in garden.Atom:
        if atom is garden.Atom.SLAG:
            continue
        picture = Image.open(PLUGINS.folder(folder) / f"{atom.name.lower()}-low.png")
        grey = Image.new("RGBA", picture.size, (0, 0, 0, 255))
        grey.alpha_composite(picture.convert("RGBA"))
        light = grey.convert("L")
        # Light and dark by each picture's own middle grey: a letter on its disc or
        # tile, a sign on its ground, whatever the colours.
        low, high = light.getextrema()  # type: ignore[misc]
        cut = (low + high) // 2
        shapes[atom] = light.point(lambda v, cut=cut: 255 if v > cut else 0).tobytes()
    assert len(set(shapes.values())) == len(shapes)


# ---------------------------------------------------------------- levels


def test_the_bundled_hexagonal_levels_are_listed_and_open(make: Make) -> None:
    device, app = hexagonal(make)
    assert [e.id for e in app.levels] == [i for i, _ in bundled_levels()]
    device.post(MenuCommand("levels"))
    form = device.modals[-1]
    assert isinstance(form, Form)
    press(device, "Play")
    assert isinstance(app.game, HexGame) and app.game.level == "1"
    assert app.title() == f"1. {bundled_levels()[0][1].name}"
    device.shutdown()


def test_new_game_without_a_difficulty_shows_the_number_dealt_ahead(
        make: Make, monkeypatch: pytest.MonkeyPatch) -> None:
    from palmish.sigmar.hexagonal import generator as hex_generator

    device, app = hexagonal(make)
    for _ in range(400):  # dealt and built in idle time
        if (HEX, "any") in app.dealt:
            break
        wait(device, 50)
    ready = app.dealt[(HEX, "any")]

    def no_build(rng: random.Random) -> object:
        raise AssertionError("a board built on the frame path")

    monkeypatch.setattr(hex_generator, "build", no_build)
    device.post(MenuCommand("new"))
    assert isinstance(app.game, HexGame) and app.game.seed == ready and app.work is None
    device.shutdown()


def test_switching_on_hard_shows_a_board_at_once_and_deals_a_hard_one_in_slices(
        make: Make) -> None:
    device, app = make()
    app.prefs["difficulty"] = "hard"
    device.post(MenuCommand(f"garden-{HEX}"))
    assert isinstance(app.game, HexGame)  # at once, no freeze
    assert app.work is not None and app.work.running  # the rated deal goes on in slices
    for _ in range(400):
        if app.work is None or not app.work.running:
            break
        wait(device, 50)
    assert app.game.seed is not None and garden.rating(HEX, app.game.seed) == "hard"
    device.shutdown()


def test_sounds_undo_and_try_again_in_the_hexagonal_garden(make: Make) -> None:
    device, app = hexagonal(make)
    device.take_sounds()
    start = app.game.record()
    takes = solution(app.game)
    for t in takes[:4]:
        tap_cell(device, app, t.a)
        if t.b is not None:
            tap_cell(device, app, t.b)
    assert len(device.take_sounds()) >= 8  # select and react (or transmute) for each take
    device.post(MenuCommand("undo"))
    assert app.game.moves == takes[:3]
    device.post(MenuCommand("restart"))
    press(device, "Try Again") if device.modals else None
    assert app.game.moves == [] and app.game.record() == start
    locked = next(c for c in HEXAGON.cells()
                  if app.game.atom_at(*c) is not None and not app.game.is_free(*c))
    device.take_sounds()
    tap_cell(device, app, locked)
    assert device.take_sounds() and "three empty sides in a row" in app.scene.message
    device.shutdown()


@pytest.mark.parametrize("config", list(ConfigName))
def test_gremlins_with_the_hexagonal_garden_running(config: ConfigName, tmp_path: Path) -> None:
    from palmish.apps import LazyApp, installed_apps
    from palmish.device.scripting.gremlins import run_gremlins
    apps = installed_apps()
    device = Device(CONFIGS[config], tmp_path, apps, "sigmar", report=lambda message: None,
                    durable=False, bundled_plugins=PLUGINS)
    device.post(MenuCommand(f"garden-{HEX}"))
    app = next(a.imported for a in apps
               if isinstance(a, LazyApp) and isinstance(a.imported, SigmarApp))
    assert isinstance(app, SigmarApp) and isinstance(app.game, HexGame)
    result = run_gremlins(device, 800, seed=5)
    assert result.ok, f"event {result.events}: {result.problem}\n{result.detail}"


def dense_deal(seed: int) -> HexGame:
    """The standard 55 shuffled onto the 55 cells nearest the centre: hard to decide."""
    from palmish.sigmar import generator
    from palmish.sigmar.hexagonal import rules
    rng = random.Random(seed)
    atoms = [a for a, n in generator.STANDARD_COUNTS.items() for _ in range(n)]
    rng.shuffle(atoms)
    cells = sorted(rules.CELLS, key=lambda c: (rules.distance(c, rules.CENTRE), rng.random()))
    return HexGame(zip(cells[:len(atoms)], atoms, strict=True), name="Deal", level="deal")


def test_a_hard_hexagonal_hint_answers_by_the_cap_in_slices(
        make: Make, monkeypatch: pytest.MonkeyPatch) -> None:
    from palmish.sigmar.app import NOT_IN_TIME, THINKING
    device, app = hexagonal(make)
    app.start_game(dense_deal(34))  # some 37,000 positions to prove it unsolvable
    monkeypatch.setattr(hex_solver, "SLICE_NODES", 5)  # slow on purpose, whatever the CPU
    start = device.now_ms
    device.post(MenuCommand("hint"))
    assert app.work is not None and app.work.running  # not in one piece
    wait(device, 160)
    assert app.scene.message == THINKING
    device.advance(start + 300)
    assert app.work is None or not app.work.running
    assert app.scene.message == NOT_IN_TIME and app.scene.hint == ()
    device.shutdown()


def test_a_square_save_of_before_the_gardens_resumes_unchanged(make: Make,
                                                               tmp_path: Path) -> None:
    """A state as the app wrote it with one garden: its record and fields alone."""
    from palmish.boardgame import saved
    from palmish.device.disk.storage import Storage
    data = tmp_path / "device"
    old = Game.new(seed=43350)
    for t in solution_of_square(old)[:2]:
        old.take(*t)
    state = saved.encode(1, {"record": old.record(), "assisted": True}, False)
    make(data=data)[0].shutdown()  # a device made the folder, as before the update
    Storage(data, durable=False).save_state("PSgm", state)
    device, app = make(data=data)
    assert isinstance(app.game, Game) and app.game.record() == old.record()
    assert app.assisted and app.garden() == garden.SQUARE and app.title() == "Board 43350"
    device.post(MenuCommand(f"garden-{HEX}"))
    device.post(MenuCommand("garden-square"))
    assert app.game.record() == old.record() and app.assisted  # parked and back, the same
    device.shutdown()


def solution_of_square(game: Game) -> list[garden.Take]:
    from palmish.sigmar import solver
    takes = solver.solve(game)
    assert takes is not None
    return takes

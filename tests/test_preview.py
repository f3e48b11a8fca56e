"""`palmish preview`: a plugin folder built, installed, chosen and shown on its game;
rebuilt at a settled change; a failed build keeps the last good one with the problem
drawn over it; the rotate button shows the other configurations; a Sounds plugin has
a button per sound; a re-installed chosen plugin is shown at once (InstalledWatch)."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from PIL import Image

from palmish.apps import installed_apps
from palmish.commands.preview_session import Preview
from palmish.device.display import CONFIGS, ConfigName
from palmish.device.events import PenDown, PenUp, Rotate, ToggleInputArea
from palmish.device.machine.installed_watch import InstalledWatch
from palmish.device.machine.system import Device
from palmish.device.store.watched_folder import WatchedFolder
from palmish.device.ui.status_strip import RED
from prc_tools.cli import main as prc_tools_main

NOON = time.struct_time((2026, 1, 1, 12, 0, 0, 3, 1, 0))


def new_folder(tmp_path: Path, game: str, kind: str, *configs: str) -> Path:
    folder = tmp_path / f"{game}-{kind}"
    options = [w for c in configs for w in ("--config", c)]
    assert prc_tools_main(["new", game, kind, *options, str(folder)]) == 0
    return folder


def device(tmp_path: Path, game: str, config: str = "square") -> Device:
    return Device(CONFIGS[ConfigName(config)], tmp_path / "data", installed_apps(), game,
                  durable=False, alerts=False)


def preview(tmp_path: Path, folder: Path, game: str, kind: str,
            config: str = "square") -> tuple[Preview, list[str]]:
    said: list[str] = []
    made = Preview(device(tmp_path, game, config), folder, game, kind, said.append,
                   clock=lambda: NOON)
    made.rebuild()
    return made, said


def paint(path: Path, colour: tuple[int, int, int], size: tuple[int, int] | None = None) -> None:
    with Image.open(path) as old:
        wanted = size or old.size
    Image.new("RGB", wanted, colour).save(path)
    later = time.time_ns() + 10_000_000_000  # a new mtime even on a coarse clock
    os.utime(path, ns=(later, later))


def settle(made: Preview) -> bool:
    """The window's next two looks: the change is seen, then found settled."""
    first = made.poll()
    return first or made.poll()


def red_pixels(made: Preview) -> int:
    image = made.device.screen.image.convert("RGB")
    return sum(1 for p in image.get_flattened_data() if p == RED)


def test_first_build_is_installed_chosen_and_shown(tmp_path: Path) -> None:
    folder = new_folder(tmp_path, "ishido", "board", "square")
    made, said = preview(tmp_path, folder, "ishido", "board")
    assert made.problem is None and made.builds == 1, said
    assert made.strip.status == "built 12:00:00"
    registry = made.device.plugins
    info = registry.by_name("PIsh", "board", made.name or "")
    assert info is not None and not info.bundled
    assert registry.choice("PIsh", "board", "square") == made.name


def test_a_settled_save_rebuilds_and_redraws(tmp_path: Path) -> None:
    folder = new_folder(tmp_path, "ishido", "board", "square")
    made, _ = preview(tmp_path, folder, "ishido", "board")
    before = made.device.screen.image.copy()
    assert not made.poll()  # nothing changed: no build
    paint(folder / "board.png", (255, 0, 255))
    assert not made.poll()  # seen, not settled yet (an editor may write again)
    assert made.poll()
    assert made.builds == 2 and made.problem is None
    after = made.device.screen.image
    assert after.tobytes() != before.tobytes()
    assert (255, 0, 255) in {p[:3] for p in after.convert("RGB").get_flattened_data()}
    assert not made.poll()  # once: no build until the next change


def test_two_writes_between_looks_are_one_build(tmp_path: Path) -> None:
    folder = new_folder(tmp_path, "ishido", "board", "square")
    made, _ = preview(tmp_path, folder, "ishido", "board")
    paint(folder / "board.png", (0, 255, 0))
    made.poll()
    paint(folder / "board.png", (0, 0, 255))  # the editor's second write
    made.poll()
    made.poll()
    made.poll()
    assert made.builds == 2


@pytest.mark.parametrize("damage", ["size", "corrupt", "deleted"])
def test_a_failed_build_keeps_the_last_good_one_with_the_problem_over_it(
        tmp_path: Path, damage: str) -> None:
    folder = new_folder(tmp_path, "ishido", "board", "square")
    made, said = preview(tmp_path, folder, "ishido", "board")
    good = made.data
    target = folder / "board.png"
    if damage == "size":
        width, height = Image.open(target).size
        paint(target, (9, 9, 9), (width + 1, height))
    elif damage == "corrupt":
        target.write_bytes(b"\x89PNG\r\n\x1a\nnot really")
    else:
        target.unlink()
    assert settle(made)
    assert made.problem is not None and "board.png" in made.problem
    assert said[-1] == made.problem and "\n" not in made.problem
    assert made.data == good and made.strip.status == "failed 12:00:00"
    assert made.strip.problem is not None and made.strip.problem.startswith("board.png")
    assert red_pixels(made) > 50  # the problem's box over the game
    assert made.device.running_app.id == "ishido"


def test_a_fixed_file_clears_the_problem(tmp_path: Path) -> None:
    folder = new_folder(tmp_path, "ishido", "board", "square")
    made, _ = preview(tmp_path, folder, "ishido", "board")
    panel = folder / "board.png"
    size = Image.open(panel).size
    paint(panel, (9, 9, 9), (size[0] + 1, size[1]))
    assert settle(made) and made.problem is not None
    paint(panel, (9, 9, 9), size)
    assert settle(made)
    assert made.problem is None and made.builds == 2
    assert red_pixels(made) == 0


def test_the_other_configuration_the_folder_covers_shows_it_too(tmp_path: Path) -> None:
    folder = new_folder(tmp_path, "ishido", "board", "square", "tall")
    made, _ = preview(tmp_path, folder, "ishido", "board")
    assert made.device.plugins.choice("PIsh", "board", "tall") == made.name
    made.device.post(ToggleInputArea())
    assert made.device.config.plugin_slot == "tall"
    assert made.strip.status == "built 12:00:00"  # drawn again in the new bounds
    shown = made.device.running_app.media.plugin("board")  # type: ignore[attr-defined]
    assert shown is not None and shown.info.name == made.name
    assert made.poll()  # the window's next look: the strip follows the turn
    rect = made.strip.rect_of("Square")  # the strip's button to the next one it serves
    assert rect is not None and made.strip.rect_of("Tall") is None
    made.device.post(PenDown(rect.x + 2, rect.y + 2))
    made.device.post(PenUp(rect.x + 2, rect.y + 2))
    assert made.device.config.plugin_slot == "square" and made.strip.rect_of("Tall")
    made.device.post(Rotate())  # to Wide, which the folder does not serve
    assert made.poll() and made.strip.status == "built 12:00:00; not for wide"


@pytest.mark.parametrize("game", ["ishido", "sigmar", "pachisi"])
def test_a_sounds_plugin_has_a_button_per_sound(tmp_path: Path, game: str) -> None:
    from prc_tools.schema import registry

    schema = registry().get(game)
    assert schema is not None
    folder = new_folder(tmp_path, game, "sound")
    made, said = preview(tmp_path, folder, game, "sound")
    assert made.problem is None, said
    assert set(made.strip.pads) == set(schema.sounds)  # every sound the game names
    for pad in made.strip.pads:
        rect = made.strip.rect_of(pad)
        assert rect is not None, pad
        made.device.take_sounds()
        made.device.post(PenDown(rect.x + 2, rect.y + 2))
        made.device.post(PenUp(rect.x + 2, rect.y + 2))
        played = made.device.take_sounds()
        assert len(played) == 1 and played[0][:4] == b"RIFF", pad


def test_beam_without_the_window_says_it_needs_the_window(tmp_path: Path) -> None:
    folder = new_folder(tmp_path, "ishido", "board", "square")
    made, _ = preview(tmp_path, folder, "ishido", "board")
    rect = made.strip.rect_of("Beam")
    assert rect is not None
    made.device.post(PenDown(rect.x + 2, rect.y + 2))
    made.device.post(PenUp(rect.x + 2, rect.y + 2))
    assert made.device.modals and "needs the window" in str(vars(made.device.modals[-1]))


def test_the_watched_folder_ignores_editor_swap_files(tmp_path: Path) -> None:
    watched = WatchedFolder(tmp_path)
    watched.due()
    watched.mark_built()
    (tmp_path / ".board.png.swp").write_bytes(b"x")
    assert not watched.due() and not watched.due()
    (tmp_path / "board.png").write_bytes(b"x")
    assert not watched.due() and watched.due()


def test_a_reinstalled_chosen_plugin_is_shown_at_once(tmp_path: Path) -> None:
    folder = new_folder(tmp_path, "ishido", "board", "square")
    built = tmp_path / "board.prc"
    assert prc_tools_main(["build", "-q", str(folder), "-o", str(built)]) == 0
    handheld = device(tmp_path, "ishido")
    info = handheld.plugins.install(built)
    handheld.plugins.choose(info.creator, info.kind, "square", info.name)
    watch = InstalledWatch(handheld)  # the window's, asked on its clock
    handheld.switch_to("ishido")
    handheld.post(Rotate())
    handheld.post(Rotate())  # back to square, laid out with the chosen plugin
    before = handheld.screen.image.copy()
    paint(folder / "board.png", (255, 0, 255))
    assert prc_tools_main(["build", "-q", str(folder), "-o", str(built)]) == 0
    handheld.plugins.install(built)  # as `palmish install` from a terminal does
    assert not watch.poll() and watch.poll()
    after = handheld.screen.image
    assert after.tobytes() != before.tobytes()
    assert (255, 0, 255) in {p[:3] for p in after.convert("RGB").get_flattened_data()}


@pytest.mark.process
def test_the_command_writes_a_screenshot_and_says_a_problem_in_one_line(
        tmp_path: Path) -> None:
    folder = new_folder(tmp_path, "ishido", "board", "square")
    out = tmp_path / "shot.png"
    command = [sys.executable, "-m", "palmish", "preview", str(folder), "--screenshot", str(out)]
    done = subprocess.run(command, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert Image.open(out).size == (320, 480)
    script = tmp_path / "turn.events"
    script.write_text("rotate\n", encoding="utf-8")
    turned = subprocess.run([*command, "--events", str(script)], capture_output=True,
                            text=True, timeout=120)
    assert turned.returncode == 0, turned.stderr
    assert Image.open(out).size == (480, 320)  # the script ran before the picture
    paint(folder / "board.png", (1, 1, 1), (3, 3))
    done = subprocess.run(command, capture_output=True, text=True, timeout=120)
    assert done.returncode == 1
    assert "board.png: 3x3 pixels" in done.stderr and "Traceback" not in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1
    missing = subprocess.run([sys.executable, "-m", "palmish", "preview",
                              str(tmp_path / "nothing")], capture_output=True, text=True,
                             timeout=120)
    assert missing.returncode == 1 and "not a folder" in missing.stderr


def test_a_pieces_plugin_is_shown_on_a_board_of_every_piece(tmp_path: Path) -> None:
    folder = new_folder(tmp_path, "ishido", "pieces", "square")
    made, said = preview(tmp_path, folder, "ishido", "pieces")
    assert made.problem is None, said
    game = made.device.running_app.game  # type: ignore[attr-defined]
    shown = {(t.color, t.shape) for row in range(8) for col in range(12)
             if (t := game.tile_at(row, col)) is not None}
    assert len(shown) == 36 and game.current is not None  # every tile, and one to place
    paint(folder / "tiles" / "red-star.png", (255, 0, 255))
    assert settle(made) and made.device.running_app.game is game  # kept across builds


def screen_has(made: Preview, colour: tuple[int, int, int]) -> bool:
    return colour in {p[:3] for p in made.device.screen.image.convert("RGB").get_flattened_data()}


@pytest.mark.parametrize("config", ["square", "tall", "wide"])
def test_a_sigmar_pieces_plugin_is_shown_with_every_atom_free_selected_and_locked(
        tmp_path: Path, config: str) -> None:
    from palmish.sigmar import Atom
    from palmish.sigmar.rules import STRIDE

    folder = new_folder(tmp_path, "sigmar", "pieces", config)
    made, said = preview(tmp_path, folder, "sigmar", "pieces", config)
    assert made.problem is None, said
    app = made.device.running_app
    game, scene = app.game, app.scene  # type: ignore[attr-defined]
    free = game.free_mask()
    cells = [(r, c) for r in range(game.rows) for c in range(game.cols)
             if game.atom_at(r, c) is not None]
    chosen = set(scene.showcase)
    free_atoms = {game.atom_at(*rc) for rc in cells
                  if (free >> (rc[0] * STRIDE + rc[1])) & 1 and rc not in chosen}
    # Locked on the rows the preview's strip never covers (Wide's covers the last).
    locked = {game.atom_at(*rc) for rc in cells
              if not (free >> (rc[0] * STRIDE + rc[1])) & 1 and rc[0] < game.rows - 1}
    assert free_atoms == locked == {game.atom_at(*rc) for rc in chosen} == set(Atom)
    assert app.game_fields() is None  # type: ignore[attr-defined]  # not saved as the game
    assert not screen_has(made, (255, 0, 255))
    paint(folder / "selected" / "fire.png", (255, 0, 255))
    assert settle(made) and made.problem is None
    assert app.game is game and screen_has(made, (255, 0, 255))  # kept, and seen
    assert not screen_has(made, (0, 255, 255))
    paint(folder / "atoms" / "gold.png", (0, 255, 255))  # a metal that is not current
    assert settle(made) and screen_has(made, (0, 255, 255))


@pytest.mark.parametrize("configs", [("square", "tall"), ("wide",)])
def test_a_pachisi_pieces_plugin_is_shown_with_every_piece_die_face_and_cowrie(
        tmp_path: Path, configs: tuple[str, ...]) -> None:
    from palmish.pachisi.rules import COLOURS, PIECES

    folder = new_folder(tmp_path, "pachisi", "pieces", *configs)
    made, said = preview(tmp_path, folder, "pachisi", "pieces", configs[0])
    assert made.problem is None, said
    app = made.device.running_app
    game = app.game  # type: ignore[attr-defined]
    assert [game.colour(p) for p in range(len(game.players))] == list(COLOURS)
    assert not any(p.computer for p in game.players)  # nothing moves by itself
    tray = app.view.tray_rect()  # type: ignore[attr-defined]
    beam = made.strip.rect_of("Beam")
    assert beam is not None
    assert app.scene.showcase and tray.intersect(app.layout.board) == tray  # type: ignore[attr-defined]
    for player in range(len(game.players)):
        assert game.waiting(player) == 1 and game.finished(player) == 1
        squares = {game.square(player, piece) for piece in range(2, PIECES)}
        assert len(squares) == 1  # a double
        square = app.layout.square_rect(squares.pop())  # type: ignore[attr-defined]
        assert square.intersect(tray) is None and square.bottom < beam.y  # all seen
    for picture in ("die/25.png", "cowries/shell-down.png", "doubles/double-magenta.png"):
        assert not screen_has(made, (255, 0, 255))
        paint(folder / picture, (255, 0, 255))
        assert settle(made) and made.problem is None
        assert app.game is game and screen_has(made, (255, 0, 255)), picture
        paint(folder / picture, (0, 0, 0))
        assert settle(made)


def test_a_sigmar_hex_board_plugin_is_shown_in_the_hexagonal_garden(tmp_path: Path) -> None:
    from palmish.sigmar.hexagonal.game import HexGame

    folder = new_folder(tmp_path, "sigmar", "hexboard")
    made, said = preview(tmp_path, folder, "sigmar", "hexboard")
    assert made.problem is None, said
    app = made.device.running_app
    assert isinstance(app.game, HexGame)  # type: ignore[attr-defined]
    assert not screen_has(made, (255, 0, 255))
    paint(folder / "hex-cell.png", (255, 0, 255))
    assert settle(made) and made.problem is None and screen_has(made, (255, 0, 255))


def write(path: Path, text: str) -> None:
    """An editor's save: new text, and a new mtime even on a coarse clock."""
    path.write_text(text, encoding="utf-8")
    later = time.time_ns() + 10_000_000_000
    os.utime(path, ns=(later, later))


def press(made: Preview, label: str) -> None:
    rect = made.strip.rect_of(label)
    assert rect is not None, (label, made.strip.buttons)
    made.device.post(PenDown(rect.x + 2, rect.y + 2))
    made.device.post(PenUp(rect.x + 2, rect.y + 2))


def test_a_levels_folder_plays_its_first_level_and_next_shows_the_others(
        tmp_path: Path) -> None:
    folder = new_folder(tmp_path, "sigmar", "levels")
    made, said = preview(tmp_path, folder, "sigmar", "levels")
    assert made.problem is None and made.is_data, said
    app = made.device.running_app
    assert app.game.level == "100" and app.game.name == "My First Level"  # type: ignore[attr-defined]
    assert made.strip.status == "built 12:00:00" and "Next" not in made.strip.buttons
    assert made.strip.buttons == ("Tall", "Beam")  # every slot: the turn goes on to Tall
    installed = [e for e in app.levels if e.file is not None]  # type: ignore[attr-defined]
    assert [e.id for e in installed] == ["100"]  # installed: Game > Levels... lists it
    write(folder / "101.dat", "Second\n3 3\n")
    manifest = folder / "manifest.yaml"
    write(manifest, manifest.read_text(encoding="utf-8")
          + "  - {file: 101.dat, type: SgLv, id: 101}\n")
    assert settle(made) and made.problem is None, said
    assert made.strip.status == "built 12:00:00; level 1 of 2"
    assert made.strip.short == "1/2 12:00:00"  # what a narrow strip (Square) shows
    assert app.game.level == "100"  # type: ignore[attr-defined]
    press(made, "Next")
    assert app.game.level == "101" and app.game.name == "Second"  # type: ignore[attr-defined]
    assert made.strip.status == "built 12:00:00; level 2 of 2"
    assert made.strip.short == "2/2 12:00:00"
    write(folder / "101.dat", "Second, edited\n3  3\n")
    assert settle(made) and app.game.name == "Second, edited"  # type: ignore[attr-defined]
    press(made, "Next")  # after the last, the first
    assert app.game.level == "100"  # type: ignore[attr-defined]
    write(folder / "100.dat", "Broken\n")  # a level the game's reader refuses
    assert settle(made) and made.problem is not None
    assert "level 100: no atoms" in made.problem and "preview" not in made.problem
    assert str(folder) in said[-1] and red_pixels(made) > 50
    assert app.game.level == "100"  # type: ignore[attr-defined]  # the last good one stays
    write(folder / "100.dat", "Fixed\n3 3\n")
    assert settle(made) and made.problem is None and red_pixels(made) == 0
    assert app.game.name == "Fixed"  # type: ignore[attr-defined]
    assert "cannot be cleared" not in " ".join(said)


def test_a_level_that_cannot_be_cleared_is_played_with_a_warning(tmp_path: Path) -> None:
    folder = new_folder(tmp_path, "sigmar", "levels")
    made, said = preview(tmp_path, folder, "sigmar", "levels")
    assert made.strip.status == "built 12:00:00" and not any("warning" in s for s in said)
    write(folder / "100.dat", "Odd Fire\ne e e\n")  # three Fires: one is left over
    assert settle(made) and made.problem is None
    warning = "level 100 cannot be cleared (no sequence of reactions empties it)"
    assert made.strip.status == f"built 12:00:00; {warning}"
    assert said[-1] == f"warning: {warning}"
    assert made.device.running_app.game.name == "Odd Fire"  # type: ignore[attr-defined]


def test_an_emptied_then_removed_folder_says_what_is_wrong_now(tmp_path: Path) -> None:
    import shutil

    folder = new_folder(tmp_path, "ishido", "board", "square")
    made, said = preview(tmp_path, folder, "ishido", "board")
    assert made.problem is None, said
    for path in sorted(folder.rglob("*"), reverse=True):
        path.unlink() if path.is_file() else path.rmdir()
    assert settle(made) and made.problem is not None
    assert "an empty folder: no manifest.yaml" in made.problem
    assert made.strip.status == "failed 12:00:00"
    folder.rmdir()
    assert settle(made) and made.problem == f"{folder}: not a folder"
    folder.mkdir()
    assert settle(made) and made.problem is not None and "an empty folder" in made.problem
    shutil.rmtree(folder)
    assert prc_tools_main(["new", "ishido", "board", "--config", "square", str(folder)]) == 0
    assert settle(made) and made.problem is None and made.strip.status == "built 12:00:00"


@pytest.mark.parametrize("words", [
    ["--no-discovery", "preview", "FOLDER"],
    ["preview", "FOLDER", "--no-discovery"],
    ["preview", "--no-discovery", "FOLDER"],
    ["--no-discovery", "join", "127.0.0.1:1", "--code", "1234", "--name", "A"],
    ["join", "127.0.0.1:1", "--code", "1234", "--name", "A", "--no-discovery"],
])
def test_no_discovery_is_taken_before_and_after_the_command_word(words: list[str]) -> None:
    from palmish.commands.args import data_dir, no_discovery
    from palmish.commands.main import build_parser

    args = build_parser().parse_args(words)
    assert no_discovery(args)
    plain = build_parser().parse_args([w for w in words if w != "--no-discovery"])
    assert not no_discovery(plain)
    for where in (0, len(words)):  # --data-dir too, either side of the command word
        given = [*words[:where], "--data-dir", "D", *words[where:]]
        assert data_dir(build_parser().parse_args(given)) == Path("D")


@pytest.mark.process
def test_the_command_previews_a_levels_folder_with_no_discovery_after_it(
        tmp_path: Path) -> None:
    folder = new_folder(tmp_path, "sigmar", "levels")
    out = tmp_path / "shot.png"
    done = subprocess.run([sys.executable, "-m", "palmish", "preview", str(folder),
                           "--no-discovery", "--screenshot", str(out)],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and done.stderr == "", done.stderr
    assert Image.open(out).size == (320, 480)
    (folder / "100.dat").write_text("Broken\n", encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "palmish", "preview", str(folder),
                           "--screenshot", str(out)], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 1 and "level 100: no atoms" in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1 and "Traceback" not in done.stderr


def test_a_renamed_levels_database_leaves_no_stale_copy(tmp_path: Path) -> None:
    folder = new_folder(tmp_path, "sigmar", "levels")
    made, said = preview(tmp_path, folder, "sigmar", "levels")
    files = made.device.storage.files_dir("PSgm")
    assert [p.name for p in files.iterdir()] == ["My Levels.prc"], said
    manifest = folder / "manifest.yaml"
    write(manifest, manifest.read_text(encoding="utf-8").replace("My Levels", "Garden Mine"))
    write(folder / "100.dat", "Renamed\n3 3\n")
    assert settle(made) and made.problem is None, said
    assert [p.name for p in files.iterdir()] == ["Garden Mine.prc"]
    app = made.device.running_app
    listed = [e for e in app.levels if e.id == "100"]  # type: ignore[attr-defined]
    assert [e.level.name for e in listed] == ["Renamed"]

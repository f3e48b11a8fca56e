"""What a new player of Sigmar's Garden noticed in the window (issue 11's "a new user
trying it"): the launcher's icon and label, Preferences on the 160x160 screen, the
atom counts on the Square strip, long messages on the one-line screens, the board
number on Wide. Each test failed before its fix."""

from __future__ import annotations

from pathlib import Path

import pytest
from PIL import Image

from palmish.cli import main
from palmish.device.display import CONFIGS, ConfigName
from palmish.device.events import Key, KeyDown, MenuCommand
from palmish.device.geometry import Rect
from palmish.device.machine.system import Device
from palmish.device.ui.alert import Alert
from palmish.device.ui.form import Form
from palmish.launcher import LauncherApp
from palmish.launcher.app import CELL_H, CELL_W, TITLE_H, default_icon
from palmish.sigmar import Atom, solver
from palmish.sigmar.app import NO_SOLUTION, SigmarApp
from palmish.sigmar.messages import wordings
from palmish.sigmar.rules import METAL_ORDER
from palmish.sigmar.view import KINDS
from tests.sigmar.conftest import PLUGINS, Make, centre, press, tap, tap_cell


def launcher_cell(device: Device, index: int) -> Image.Image:
    s = device.config.scale
    b = device.config.app_bounds
    columns = b.w // (CELL_W * s)
    left = b.x + (b.w - columns * CELL_W * s) // 2
    row, col = divmod(index, columns)
    x, y = left + col * CELL_W * s, b.y + (TITLE_H + row * CELL_H) * s
    return device.screen.image.crop((x, y, x + CELL_W * s, y + CELL_H * s))


@pytest.mark.parametrize("config", [ConfigName.SQUARE_LOW, ConfigName.SQUARE])
def test_the_launcher_shows_a_garden_icon_and_the_whole_short_name(
        config: ConfigName, tmp_path: Path) -> None:
    class Plain(SigmarApp):
        """The same app labelled "Sigmar" by its name: what the cell must look like."""
        name = "Sigmar"
        icon_name = ""

    shots = []
    for app in (SigmarApp(), Plain()):
        device = Device(CONFIGS[config], tmp_path / app.__class__.__name__,
                        [LauncherApp(), app], start_app="launcher", bundled_plugins=PLUGINS,
                        durable=False, alerts=False)
        shots.append(launcher_cell(device, 0))
        device.shutdown()
    # The label reads "Sigmar" in full, not "Sigmar's ..." cut off.
    assert shots[0].tobytes() == shots[1].tobytes()
    # The icon is the app's own, not the generic diamond: gold sits in its middle.
    s = CONFIGS[config].scale
    icon = SigmarApp().icon()
    assert icon.size != default_icon(s).size or icon.tobytes() != default_icon(s).tobytes()
    cell = shots[0]
    mid = cell.getpixel((cell.width // 2, (2 + 13) * s))
    assert mid == (222, 222, 108), mid


@pytest.mark.parametrize("config", list(ConfigName), ids=lambda n: n.value)
def test_preferences_fit_each_control_on_one_row(config: ConfigName, make: Make) -> None:
    device, _ = make(config)
    device.post(MenuCommand("prefs"))
    form = device.modals[-1]
    assert isinstance(form, Form)
    for key in (getattr(f, "key", None) for f in form.fields):
        if key is not None:  # no control wraps onto a second row (Random's four choices did)
            assert len({r.y for r in form.control_rects(key)}) == 1, key
    device.shutdown()


def drawn_texts(device: Device, app: SigmarApp, monkeypatch: pytest.MonkeyPatch,
                area: Rect) -> list[str]:
    """The strings the view writes inside `area` when it paints the whole screen."""
    texts: list[str] = []
    fb = device.screen
    real = fb.text

    def record(x: int, y: int, text: str, *args: object, **kwargs: object) -> None:
        if area.contains(x, y):
            texts.append(text)
        real(x, y, text, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(fb, "text", record)
    assert app.view is not None
    app.view.paint(fb, app.scene)
    monkeypatch.undo()
    return texts


def test_the_square_strip_counts_every_kind_left(make: Make,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    device, app = make(ConfigName.SQUARE)
    left = app.game.counts()
    counts = [left[k] for k in KINDS if left.get(k)]
    assert len(counts) == 8  # a fresh random board has every kind (and all six metals)
    assert app.layout is not None
    assert drawn_texts(device, app, monkeypatch, app.layout.panel) == [str(n) for n in counts]
    device.shutdown()


def app_messages() -> list[str]:
    """Every one-line message the app shows, with every atom and metal in it."""
    metals = [m.title for m in METAL_ORDER]
    titles = [a.title for a in Atom]
    out = [f"{t} is locked: it needs two empty sides" for t in titles]
    out += [f"Metals go in order: {m} first" for m in metals]
    out += [f"{x} does not react with {y}" for x in titles for y in titles]
    out += [f"No free partner for {t}" for t in titles]
    out += [f"No free {m} for quicksilver" for m in metals]
    out += ["Slag never reacts: it only blocks", "No metal is left for quicksilver",
            "Gold goes alone: quicksilver has nothing to do",
            "Gold goes alone: take it by itself", "Stuck: no reaction is left. Undo or Try Again",
            "Hint: Select takes the marked atoms", "No hint found in time: try Undo",
            "Cleared with the Hint's help!", "The garden is clear!", NO_SOLUTION,
            "Nothing to undo", "No levels are installed", "Thinking...",
            *(f"Dealing a {d} board..." for d in ("easy", "normal", "hard"))]
    return [m[:1].upper() + m[1:] for m in out]  # as the app says them


@pytest.mark.parametrize("config", [ConfigName.SQUARE_LOW, ConfigName.SQUARE],
                         ids=lambda n: n.value)
def test_the_line_below_the_field_shows_whole_messages(config: ConfigName, make: Make,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    device, app = make(config)
    lay = app.layout
    assert lay is not None and lay.line is not None
    for message in app_messages():
        app.scene.message = message
        shown = drawn_texts(device, app, monkeypatch, lay.line)
        assert len(shown) == 1 and not shown[0].endswith("\u2026"), (message, shown)
        if "locked" in message:  # still says why
            assert "empty sides" in shown[0], shown
    device.shutdown()


def test_a_locked_tap_on_160x160_says_why_in_full(make: Make,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    device, app = make(ConfigName.SQUARE_LOW, board="7")  # Caution: the 9 and 2 are locked
    locked = next((r, c) for r in range(app.game.rows) for c in range(app.game.cols)
                  if app.game.atom_at(r, c) not in (None, Atom.SLAG)
                  and not app.game.is_free(r, c))
    tap_cell(device, app, locked)
    assert app.layout is not None and app.layout.line is not None
    shown = drawn_texts(device, app, monkeypatch, app.layout.line)
    assert shown and "locked" in shown[0].lower() and "empty sides" in shown[0], shown
    device.shutdown()


@pytest.mark.parametrize("config", [ConfigName.TALL, ConfigName.WIDE], ids=lambda n: n.value)
def test_the_panel_shows_the_whole_board_number(config: ConfigName, make: Make,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    device, app = make(config)
    for difficulty in ("any", "hard", "normal"):
        app.prefs["difficulty"] = difficulty
        app.start_game(app._random_board(999_999))
        assert app.layout is not None
        shown = " ".join(drawn_texts(device, app, monkeypatch, app.layout.panel))
        assert app.title() in shown, (app.title(), shown)
    device.shutdown()


@pytest.mark.parametrize("config", [ConfigName.TALL, ConfigName.WIDE], ids=lambda n: n.value)
def test_the_panel_shows_every_message_whole(config: ConfigName, make: Make,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    device, app = make(config)  # a random board: every kind left, the panel at its fullest
    lay = app.layout
    assert lay is not None
    quiet = drawn_texts(device, app, monkeypatch, lay.panel)
    for message in app_messages():
        app.scene.message = message
        shown = [t for t in drawn_texts(device, app, monkeypatch, lay.panel) if t not in quiet]
        said = " ".join(shown)
        assert shown and not said.endswith("\u2026"), (message, shown)
        # Whole: either the message itself or one of its shorter wordings, all of it.
        assert said in wordings(message), (message, shown)
    device.shutdown()


def test_statistics_label_the_cleared_levels(make: Make) -> None:
    device, app = make(board="1")
    app.prefs["cleared"] = ["1", "7"]
    device.post(MenuCommand("stats"))
    text = device.modals[-1].message  # type: ignore[attr-defined]
    assert "Cleared: 1, 7" in text, text
    device.shutdown()


def shown_whole(alert: object) -> bool:
    """The alert shows all of its text (it ends its last line in '...' when cut)."""
    assert isinstance(alert, Alert)
    return not any(line.endswith("\u2026") for line in alert._lines)  # as laid out


def test_the_app_s_alerts_fit_the_160x160_screen(make: Make) -> None:
    device, app = make(ConfigName.SQUARE_LOW)  # a fresh random board: every kind left
    app.prefs["cleared"] = [str(i) for i in range(1, 13)]
    app.prefs["assisted"] = 1234
    assert app.layout is not None and app.layout.line is not None
    line = app.layout.line
    for what in ("details", "stats", "about"):
        if what == "details":
            tap(device, *centre(line))  # the line below the field opens the board's details
        else:
            device.post(MenuCommand(what))
        alert = device.modals[-1]
        assert shown_whole(alert), alert.message  # type: ignore[attr-defined]
        alert.close(None)
    device.shutdown()


def test_the_keys_cursor_is_seen_among_the_selection_s_partners(make: Make) -> None:
    device, app = make(board="8")  # Diamond: a free Vitae with several free Mors
    game = app.game
    atom = next(c for c in sorted({c for t in game.legal_takes() for c in (t.a, t.b) if c})
                if len(game.partners(*c)) >= 2)
    first, second = game.partners(*atom)[:2]
    tap_cell(device, app, atom)  # selected: every partner gets its dot
    lay = app.layout
    assert lay is not None

    def look(cell: tuple[int, int]) -> bytes:
        return device.screen.image.crop(lay.cell_rect(*cell).box()).tobytes()

    plain = look(first), look(second)
    device.post(KeyDown(Key.DOWN))  # the cursor on the first partner
    assert app.focus == first
    assert look(first) != plain[0] and look(second) == plain[1]
    device.post(KeyDown(Key.DOWN))  # ... then the second
    assert app.focus == second
    assert look(first) == plain[0] and look(second) != plain[1]
    device.shutdown()


def test_a_cleared_level_offers_the_next_one(make: Make) -> None:
    device, app = make(board="1")
    for t in solver.solve(app.game) or []:
        tap_cell(device, app, t.a)
        if t.b is not None:
            tap_cell(device, app, t.b)
    assert app.game.won
    alert = device.modals[-1]
    assert "Next: 2. Salt Flats" in alert.message  # type: ignore[attr-defined]
    assert shown_whole(alert)
    press(device, "Next")
    assert not device.modals and app.game.level == "2" and app.game.moves == []
    assert not app.recorded  # a new attempt
    device.shutdown()


def test_the_last_level_offers_a_new_game(make: Make) -> None:
    device, app = make(board="12")  # Grand Garden: the last bundled level
    assert app._level_after("12") is None
    assert app._level_after(None) is None
    device.shutdown()


@pytest.mark.parametrize(("text", "warned"), [("Odd\nee\ne\n", True), ("Pair\nee\n", False),
                                              ("Metal\n2\n", True)])
def test_install_warns_about_a_level_that_cannot_be_cleared(
        text: str, warned: bool, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    level = tmp_path / "mine.dat"
    level.write_text(text, encoding="utf-8")
    assert main(["install", str(level), "--data-dir", str(tmp_path / "data")]) == 0
    out = capsys.readouterr().out
    assert "installed Sigmar's Garden level mine" in out
    assert ("cannot be cleared" in out) is warned, out
    assert (tmp_path / "data" / "files" / "PSgm" / "mine.dat").exists()  # installed anyway

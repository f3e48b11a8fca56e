"""Plugin folders <-> databases: building, the PalmIshido checks, pINF, extract, verify."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import yaml
from PIL import Image

from palmish.device.disk.resources import bundled_plugins
from prc_tools import Database, PluginError, PrcError, Resource, bitmap, plugin, sound
from prc_tools.plugin.extract import equivalent, extract, pixels

ROOT = Path(__file__).resolve().parents[2]
MakeFolder = Callable[..., Path]
MakeWav = Callable[..., bytes]


def build_error(folder: Path) -> str:
    with pytest.raises(PluginError) as caught:
        plugin.build_folder(folder)
    message = str(caught.value)
    assert "\n" not in message
    return message


def edit_manifest(folder: Path, change: Callable[[dict[str, Any]], object]) -> None:
    path = folder / "manifest.yaml"
    document = yaml.safe_load(path.read_text())
    change(document)
    path.write_text(yaml.safe_dump(document, sort_keys=False))


# ---------------------------------------------------------------- building


def test_pieces_plugin_builds_as_the_resource_map_says(pieces_folder: MakeFolder) -> None:
    db = plugin.build_folder(pieces_folder())
    assert (db.name, db.type, db.creator, db.version) == ("Test Pieces", "IsPc", "PIsh", 2)
    assert db.is_resource and db.attributes == 0x0001
    assert db.resources[0].type == "pINF" and db.resources[0].id == 0
    ids = [r.id for r in db.resources if r.type == "Tbmp"]
    assert ids == list(range(1000, 1036)) + list(range(1100, 1136))
    info = plugin.read_info(db)
    assert info == {
        "game": "ishido", "kind": "pieces", "name": "Test Pieces", "version": 2,
        "author": "Test Author", "configs": ["square", "tall"], "cell": [24, 40],
        "anchor": [0, 0], "lifted_anchor": [-2, -2],
    }
    # Tile colour 2, shape 3 is id 1000 + 6*2 + 3, with both densities and depths.
    tile = db.resource("Tbmp", 1015)
    assert tile is not None
    members = bitmap.decode(tile.data)
    assert sorted((m.density, m.depth, m.width, m.height) for m in members) == [
        (72, 8, 12, 20), (72, 16, 12, 20), (144, 8, 24, 40), (144, 16, 24, 40),
    ]
    lifted = db.resource("Tbmp", 1115)
    assert lifted is not None
    assert {m.compression for m in bitmap.decode(lifted.data)} == {"packbits"}


def test_the_high_density_16_bit_member_has_the_source_pixels(
    pieces_folder: MakeFolder, make_tile: Callable[..., Image.Image]
) -> None:
    folder = pieces_folder()
    db = plugin.build_folder(folder)
    tile = db.resource("Tbmp", 1000 + 6 * 4 + 1)
    assert tile is not None
    top = next(m for m in bitmap.decode(tile.data) if (m.density, m.depth) == (144, 16))
    source = Image.open(folder / "tiles" / "t41.png").convert("RGBA")
    # RGB565 keeps the top 5/6/5 bits of each channel; transparency is kept exactly.
    got, want = top.image.load(), source.load()
    assert got is not None and want is not None
    for y in range(40):
        for x in range(24):
            g, w = got[x, y], want[x, y]
            assert isinstance(g, tuple) and isinstance(w, tuple)
            assert (g[3] == 0) == (w[3] < 128)
            if w[3] >= 128:
                assert abs(g[0] - w[0]) <= 8 and abs(g[1] - w[1]) <= 4 and abs(g[2] - w[2]) <= 8


def test_lifted_tiles_are_optional(pieces_folder: MakeFolder) -> None:
    db = plugin.build_folder(pieces_folder(lifted=False))
    assert len([r for r in db.resources if r.type == "Tbmp"]) == 36


def test_sound_plugin(tmp_path: Path, make_wav: MakeWav) -> None:
    folder = tmp_path / "sounds"
    folder.mkdir()
    (folder / "click.wav").write_bytes(make_wav(bits=24, channels=2, rate=44100))
    (folder / "buzz.wav").write_bytes(make_wav(bits=8, rate=8000))
    (folder / "manifest.yaml").write_text(
        "name: Test Sounds\ngame: ishido\nkind: sound\nauthor: me\n"
        "sounds:\n  - {file: click.wav, id: place}\n"
        "  - {file: buzz.wav, id: illegal, rate: 22050, bits: 16}\n"
        "  - {file: click.wav, id: 3004, rate: 11025, bits: 8}\n"
    )
    db = plugin.build_folder(folder)
    assert db.type == "IsSd"
    assert plugin.read_info(db)["configs"] == ["square", "tall", "wide"]
    formats = {r.id: sound.read_wave_resource(r.data) for r in db.resources if r.type == "wave"}
    assert {i: (s.rate, s.bits) for i, s in formats.items()} == {
        3000: (22050, 16), 3002: (22050, 16), 3004: (11025, 8),
    }


def test_a_sound_too_big_to_read_is_named_once(tmp_path: Path, make_wav: MakeWav) -> None:
    folder = tmp_path / "sounds"
    folder.mkdir()
    with open(folder / "click.wav", "wb") as out:
        out.write(make_wav())
        out.truncate(65 * 1024 * 1024)  # sparse: nothing written, the size alone refused
    (folder / "manifest.yaml").write_text(
        "name: Test Sounds\ngame: ishido\nkind: sound\nauthor: me\n"
        "sounds:\n  - {file: click.wav, id: place}\n")
    with pytest.raises(PluginError) as caught:
        plugin.build_folder(folder)
    message = str(caught.value)
    assert message.count("click.wav") == 1 and "65 MiB is too big: at most 64 MiB" in message


def test_board_plugin_and_its_size_check(tmp_path: Path) -> None:
    folder = tmp_path / "board"
    folder.mkdir()
    Image.new("RGB", (408, 320), (20, 90, 40)).save(folder / "board.png")
    Image.new("RGBA", (34, 40), (255, 255, 255, 90)).save(folder / "mark.png")
    Image.new("RGB", (8, 8), (0, 0, 0)).save(folder / "panel.png")
    manifest = (
        "name: Felt Board Wide\ngame: ishido\nkind: board\nauthor: me\nconfigs: [wide]\n"
        "cell: [34, 40]\nbitmaps:\n  - {file: board.png, id: board}\n"
        "  - {file: mark.png, id: cell_mark}\n  - {file: panel.png, id: panel, depths: [16]}\n"
    )
    (folder / "manifest.yaml").write_text(manifest)
    db = plugin.build_folder(folder)
    board = db.resource("Tbmp", 2000)
    assert board is not None
    assert {m.density for m in bitmap.decode(board.data)} == {144}  # no 72 dpi for wide
    panel = db.resource("Tbmp", 2002)
    assert panel is not None and {m.depth for m in bitmap.decode(panel.data)} == {16}
    (folder / "manifest.yaml").write_text(manifest.replace("[34, 40]", "[24, 40]"))
    assert "cell: [24, 40], but PalmIshido cells are 34x40 in Wide" in build_error(folder)
    (folder / "manifest.yaml").write_text(manifest.replace("configs: [wide]", "configs: [square]")
                                          .replace("[34, 40]", "[24, 40]").replace(" Wide", ""))
    assert ("board.png: 408x320 pixels; the board is 288x320 in Square (12x8 cells of 24x40)"
            " (408x320 is the Wide size) — see the template (prc-tools new ishido board)"
            ) in build_error(folder)


def test_plain_database_with_raw_resources_and_size(tmp_path: Path) -> None:
    folder = tmp_path / "raw"
    (folder / "data").mkdir(parents=True)
    (folder / "data" / "level.bin").write_bytes(b"\x00\x01level")
    Image.new("RGB", (64, 64), (10, 200, 30)).save(folder / "big.png")
    (folder / "manifest.yaml").write_text(
        "name: Raw Things\ntype: DATA\ncreator: RawT\nattributes: 8\n"
        "resources:\n  - {file: data/level.bin, type: LEVL, id: 1}\n"
        "bitmaps:\n  - {file: big.png, id: 5, size: [16, 16], densities: [72], depths: [8]}\n"
    )
    db = plugin.build_folder(folder)
    assert db.attributes == 0x0009 and db.resource("pINF", 0) is None
    assert db.resource("LEVL", 1) == Resource("LEVL", 1, b"\x00\x01level")
    icon = db.resource("Tbmp", 5)
    assert icon is not None
    [member] = bitmap.decode(icon.data)
    assert (member.width, member.height, member.depth, member.density) == (16, 16, 8, 72)


def test_members_override_single_members(pieces_folder: MakeFolder) -> None:
    folder = pieces_folder(lifted=False)
    Image.new("RGBA", (12, 20), (0, 0, 255, 255)).save(folder / "small.png")
    edit_manifest(folder, lambda m: m["bitmaps"].append(
        {"file": "tiles/t00.png", "id": 1200, "members": {"72x16": "small.png"}}))
    db = plugin.build_folder(folder)
    res = db.resource("Tbmp", 1200)
    assert res is not None
    by_key = {(m.density, m.depth): m for m in bitmap.decode(res.data)}
    assert by_key[(72, 16)].image.getpixel((5, 5)) == (0, 0, 255, 255)
    assert by_key[(72, 8)].image.getpixel((5, 5)) != (0, 0, 255, 255)


# ---------------------------------------------------------------- build errors


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda m: m.pop("name"), "name: missing"),
        (lambda m: m.pop("author"), "author: missing"),
        (lambda m: m.pop("cell"), "cell: missing"),
        (lambda m: m.update(colour="red"), "unknown field 'colour'"),
        (lambda m: m.update(kind="tiles"), "'tiles' is not one of board, pieces, sound"),
        (lambda m: m.update(game="chess"), "'chess' is not one of"),
        (lambda m: m.update(game="draughts"), "type: missing"),
        (lambda m: m.update(version="one"), "version: must be an integer"),
        (lambda m: m.update(configs=["square", "round"]), "'round' is not one of"),
        (lambda m: m.update(configs=["wide"]), "carries 'Wide' in its name"),
        (lambda m: m.update(configs=["wide", "square"]), "cannot also serve"),
        (lambda m: m.update(cell=[24]), "list of two integers"),
        (lambda m: m.update(name="N" * 40), "longer than 31 bytes"),
        (lambda m: m.update(type="TOOLONG"), "four-character code"),
        (lambda m: m["bitmaps"].pop(0), "tile red disc (Tbmp 1000) is missing (36 of the 36 tiles"),
        (lambda m: m["bitmaps"][0].update(id="tiles"), "unknown resource name 'tiles'"),
        (lambda m: m["bitmaps"][0].update(depths=[16, 3]), "3 is not one of 1, 2, 4, 8, 16"),
        (lambda m: m["bitmaps"][0].update(compression="zip"), "'zip' is not one of"),
        (lambda m: m["bitmaps"][0].update(pattern="tiles/x.png"), "needs {n}"),
        (lambda m: m["bitmaps"][0].update(pattern="../t{colour}{shape}.png"), "inside the plugin"),
        (lambda m: m["bitmaps"][0].update(pattern="/etc/{n}", count=2), "inside the plugin"),
        (lambda m: m["bitmaps"].append({"file": "tiles/t00.png", "id": 1000}),
         "both resource Tbmp 1000"),
        (lambda m: m["bitmaps"].append({"file": "tiles/nope.png", "id": 1500}), "no such file"),
        (lambda m: m["bitmaps"].append({"file": "manifest.yaml", "id": 1500}),
         "not a PNG file"),
        (lambda m: m.update(sounds=[{"file": "tiles/t00.png", "id": "place"}]), "not a WAV"),
        (lambda m: m.update(sounds=[{"file": "x.wav", "id": "boom"}]), "unknown resource name"),
        (lambda m: m.update(records=[{"file": "x.bin"}]), "records or resources, not both"),
    ],
)
def test_manifest_problems_name_the_file_and_field(
    pieces_folder: MakeFolder, change: Callable[[dict[str, Any]], object], message: str
) -> None:
    folder = pieces_folder(lifted=False)
    edit_manifest(folder, change)
    error = build_error(folder)
    assert message in error
    assert str(folder) in error


def test_folder_and_yaml_problems(tmp_path: Path) -> None:
    assert "not a folder" in build_error(tmp_path / "missing")
    assert "no manifest.yaml" in build_error(tmp_path)
    (tmp_path / "manifest.yaml").write_text("name: [unclosed\n")
    assert "YAML error at line" in build_error(tmp_path)
    (tmp_path / "manifest.yaml").write_text("")
    assert "empty" in build_error(tmp_path)
    (tmp_path / "manifest.yaml").write_bytes(b"name: \xff\xfe\n")
    assert "cannot read" in build_error(tmp_path)


def test_unreadable_picture(pieces_folder: MakeFolder) -> None:
    folder = pieces_folder()
    (folder / "tiles" / "t33.png").write_bytes(b"\x89PNG\r\n\x1a\n broken")
    assert "t33.png: a damaged or unusual PNG that cannot be read" in build_error(folder)


# ---------------------------------------------------------------- pINF


def test_read_info_rejects_bad_info() -> None:
    def info_error(data: bytes | None) -> str:
        resources = [] if data is None else [Resource("pINF", 0, data)]
        db = Database("x", "IsPc", "PIsh", resources=resources or [Resource("Tbmp", 1, b"")])
        with pytest.raises(PluginError) as caught:
            plugin.read_info(db)
        return str(caught.value)

    good = {"game": "ishido", "kind": "pieces", "name": "x", "version": 1, "author": "a",
            "configs": ["square"], "cell": [24, 40]}
    assert "not a plugin" in info_error(None)
    assert "not UTF-8 YAML" in info_error(b"\xff\xfe")
    assert "not a mapping" in info_error(b"- a list")
    for key in ("game", "kind", "name", "version", "author", "configs", "cell"):
        broken = {k: v for k, v in good.items() if k != key}
        assert f"'pINF' {key}" in info_error(plugin.info_bytes(broken))
    assert "'pINF' cell" in info_error(plugin.info_bytes({**good, "cell": [0, 40]}))
    assert "'pINF' configs" in info_error(plugin.info_bytes({**good, "configs": ["big"]}))
    assert "'pINF' version" in info_error(plugin.info_bytes({**good, "version": True}))
    info = plugin.read_info(Database("x", "IsPc", "PIsh", resources=[
        Resource("pINF", 0, plugin.info_bytes(good))]))
    assert info["anchor"] == [0, 0] and info["lifted_anchor"] == [0, 0]


# ---------------------------------------------------------------- extract and verify


def test_extract_then_build_is_equivalent(pieces_folder: MakeFolder, tmp_path: Path) -> None:
    original = plugin.build_folder(pieces_folder(lifted=False))
    out = extract(original, tmp_path / "extracted")
    manifest = yaml.safe_load((out / "manifest.yaml").read_text())
    assert manifest["game"] == "ishido" and manifest["kind"] == "pieces"
    assert (out / "bitmaps" / "tile-red-disc.png").is_file()
    with Image.open(out / "bitmaps" / "tile-red-disc.png") as png:
        assert png.size == (24, 40)  # the highest density
    rebuilt = plugin.build_folder(out)
    assert equivalent(original, rebuilt) == []
    # Extracting the rebuilt plugin writes the same folder again.
    again = extract(rebuilt, tmp_path / "again")
    assert (again / "manifest.yaml").read_text() == (out / "manifest.yaml").read_text()


def test_extract_any_database(tmp_path: Path, pdb: Database, make_wav: MakeWav) -> None:
    odd = Database(
        name="Odd Names", type="appl", creator="Test", attributes=0x0009, version=4,
        resources=[
            Resource("../x", 1, b"escape?"),
            Resource("a/\0b", 2, b"nul and slash"),
            Resource("TBMP", 3, b"same name on a case-blind disk"),
            Resource("tbmp", 3, b"as this one"),
            Resource("Tbmp", 4, b"not really a bitmap"),
            Resource("wave", 5, make_wav(channels=2)),  # not plain: kept raw
            Resource("wave", 6, make_wav(bits=8, rate=11025)),
            Resource("pINF", 0, b"not: [a, plugin"),
        ],
    )
    for db, name in ((odd, "odd"), (pdb, "records")):
        out = extract(db, tmp_path / name)
        written = [p for p in tmp_path.rglob("*") if p.is_file()]
        assert all(out in p.parents for p in written if name in p.parts)
        rebuilt = plugin.build_folder(out)
        assert equivalent(db, rebuilt) == []
    assert not (tmp_path / "x").exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["odd", "records"]


def test_extract_refuses_a_non_empty_folder(tmp_path: Path, prc: Database) -> None:
    (tmp_path / "out").mkdir()
    (tmp_path / "out" / "keep.txt").write_text("mine")
    with pytest.raises(PluginError, match="not an empty folder"):
        extract(prc, tmp_path / "out")
    assert (tmp_path / "out" / "keep.txt").read_text() == "mine"
    extract(prc, tmp_path / "empty")  # a fresh folder is fine


def test_verify(pieces_folder: MakeFolder) -> None:
    db = plugin.build_folder(pieces_folder(lifted=False))
    lines = plugin.verify(db)
    assert len(lines) == 1 + 36 and lines[0].startswith("pINF 0: ishido pieces")
    broken = Database.read(db.to_bytes())
    tile = broken.resources[5]
    tile.data = tile.data[:30]
    with pytest.raises(PrcError, match=f"^Tbmp {tile.id}: "):
        plugin.verify(broken)
    no_info = Database("x", "IsPc", "PIsh", resources=[Resource("Tbmp", 1, b"")])
    with pytest.raises(PluginError, match="not a plugin"):
        plugin.verify(no_info)


def test_pixels_ignores_hidden_colour_of_transparent_pixels() -> None:
    a = Image.new("RGBA", (2, 1), (255, 0, 0, 0))
    b = Image.new("RGBA", (2, 1), (0, 255, 0, 0))
    assert pixels(a) == pixels(b)
    assert pixels(a) != pixels(Image.new("RGBA", (2, 1), (255, 0, 0, 255)))


def test_every_bundled_plugin_builds_and_verifies() -> None:
    folders = bundled_plugins().folders()
    if not folders:
        pytest.skip("no bundled plugin folders yet")
    for folder in folders:
        db = plugin.build_folder(folder)
        lines = plugin.verify(db)  # raises if anything is wrong
        if db.resource("pINF", 0) is None:
            assert folder.name == "sigmar-levels"  # data, with the game's codes: no plugin
            continue
        assert lines[0].startswith("pINF 0: ")
        assert plugin.read_info(db)["game"] == folder.name.split("-")[0]  # ishido-..., sigmar-...


@pytest.mark.process
def test_extract_then_build_keeps_bitmaps_written_by_pnmtopalm(
    netpbm: Callable[[list[str], bytes], bytes], tmp_path: Path
) -> None:
    import io

    image = Image.new("RGB", (30, 20))
    image.putdata([((x * 8) % 256, (y * 12) % 256, ((x + y) * 5) % 256)
                   for y in range(20) for x in range(30)])
    colour, grey = io.BytesIO(), io.BytesIO()
    image.save(colour, format="PPM")
    image.convert("L").save(grey, format="PPM")  # written as PGM
    mapped = netpbm(["pnmremap", "-quiet", "-nofloyd",
                     "-mapfile=/usr/share/netpbm/palmcolor8.map"], colour.getvalue())
    few = io.BytesIO()
    image.quantize(40).convert("RGB").save(few, format="PPM")
    few_colours = few.getvalue()
    cases = [
        (["-depth", "2", "-rle_compression"], grey.getvalue()),
        (["-depth", "4", "-scanline_compression"], grey.getvalue()),
        (["-depth", "8", "-packbits_compression"], mapped),
        (["-depth", "8", "-colormap"], few_colours),
        (["-depth", "16"], colour.getvalue()),
        (["-depth", "8", "-density", "144", "-transparent", "#ffffff"], mapped),
    ]
    db = Database("From netpbm", "DATA", "test", resources=[
        Resource("Tbmp", index, netpbm(["pnmtopalm", "-quiet", *args], data))
        for index, (args, data) in enumerate(cases)
    ])
    rebuilt = plugin.build_folder(extract(db, tmp_path / "out"))
    assert equivalent(db, rebuilt) == []


def test_verify_checks_what_the_ishido_app_needs(pieces_folder: MakeFolder) -> None:
    db = plugin.build_folder(pieces_folder(lifted=False))
    db.resources = [r for r in db.resources if r.id != 1007]
    with pytest.raises(PluginError, match=r"Tbmp 1007 \(tile yellow triangle\) is missing"):
        plugin.verify(db)
    info = {"game": "ishido", "kind": "board", "name": "B", "version": 1, "author": "a",
            "configs": ["square"], "cell": [24, 40]}
    wrong_size = bitmap.encode_family(Image.new("RGB", (280, 320)), densities=(144,),
                                      depths=(16,))
    mark = bitmap.encode_family(Image.new("RGB", (24, 40)), densities=(144,), depths=(16,))
    board = Database("B", "IsBd", "PIsh", resources=[
        Resource("pINF", 0, plugin.info_bytes(info)), Resource("Tbmp", 2000, wrong_size),
        Resource("Tbmp", 2001, mark),
    ])
    with pytest.raises(PluginError, match="280x320 pixels; the board is 288x320 in Square"):
        plugin.verify(board)
    board.resources = board.resources[:2]
    with pytest.raises(PluginError, match="cell mark"):
        plugin.verify(board)


def test_huge_pictures_are_refused_before_decoding(pieces_folder: MakeFolder) -> None:
    folder = pieces_folder(lifted=False)
    Image.new("1", (5000, 4000)).save(folder / "tiles" / "t20.png")
    assert "5000x4000 pixels is too big for a plugin picture: at most 4096x4096" in (
        build_error(folder))


def test_the_manifest_examples_in_the_docs_build(
    tmp_path: Path, make_wav: MakeWav, make_tile: Callable[..., Image.Image]
) -> None:
    import re

    from prc_tools.plugin import manifest as manifest_module

    text = (ROOT / "docs" / "plugin-format.md").read_text(encoding="utf-8")
    examples = [b for b in re.findall(r"```yaml\n(.*?)```", text, re.S)
                if "\nkind:" in b and ("bitmaps:" in b or "sounds:" in b)]
    assert len(examples) == 3
    for index, example in enumerate(examples):
        folder = tmp_path / f"example{index}"
        folder.mkdir()
        (folder / "manifest.yaml").write_text(example, encoding="utf-8")
        parsed = manifest_module.load(folder)
        for spec in parsed.bitmaps:
            (folder / spec.file).parent.mkdir(parents=True, exist_ok=True)
            cells = {2000: (12, 8), 2001: (1, 1)}.get(spec.id)
            if cells is not None and parsed.info is not None:
                cell_w, cell_h = parsed.info["cell"]
                Image.new("RGB", (cells[0] * cell_w, cells[1] * cell_h)).save(folder / spec.file)
            else:
                make_tile(spec.id % 6, spec.id % 5).save(folder / spec.file)
        for sound_spec in parsed.sounds:
            (folder / sound_spec.file).write_bytes(make_wav(rate=44100))
        db = plugin.build_folder(folder)
        assert plugin.verify(db)

"""Our databases against two independent implementations: Perl's Palm::PDB and npm's palm-pdb."""

from __future__ import annotations

import json
import subprocess
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest

from palmish.device.disk.resources import bundled_plugins
from prc_tools import Database
from prc_tools.database import UNIX_EPOCH_IN_PALM

pytestmark = pytest.mark.process  # every test here starts another program

UNIX_EPOCH = datetime(1970, 1, 1)
UNIX_OFFSET = UNIX_EPOCH_IN_PALM  # 1970-01-01 counted from 1904


def unix_seconds(when: datetime | None) -> int:
    """How Palm::PDB and palm-pdb report a stored date: Unix seconds (1904 for unset)."""
    if when is None:
        return -UNIX_OFFSET
    return int((when - UNIX_EPOCH).total_seconds())


def run_json(command: list[str]) -> Any:
    result = subprocess.run(command, capture_output=True, text=True, timeout=60, check=False)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def databases(prc: Database, pdb: Database, tmp_path: Path) -> list[tuple[Database, Path]]:
    out = []
    for db, name in ((prc, "ours.prc"), (pdb, "ours.pdb")):
        path = tmp_path / name
        db.write(path)
        out.append((db, path))
    return out


def test_palm_pdb_perl_reads_ours(
    perl_pdb: Path, prc: Database, pdb: Database, tmp_path: Path
) -> None:
    for db, path in databases(prc, pdb, tmp_path):
        got = run_json(["perl", str(perl_pdb / "dump_pdb.pl"), str(path)])
        assert (got["name"], got["type"], got["creator"]) == (db.name, db.type, db.creator)
        assert got["version"] == db.version
        assert got["modnum"] == db.modification_number
        assert got["uniqueIDseed"] == db.unique_id_seed
        assert got["ctime"] == unix_seconds(db.created)
        assert got["mtime"] == unix_seconds(db.modified)
        assert bool(got["attributes"].get("resource")) == db.is_resource
        if db.is_resource:
            assert [(r["type"], r["id"], bytes.fromhex(r["data"])) for r in got["resources"]] == [
                (r.type, r.id, r.data) for r in db.resources
            ]
        else:
            assert [(r["id"], r["category"], bytes.fromhex(r["data"])) for r in got["records"]] == [
                # Palm::PDB reads no category for deleted records (the bits mean 'archive').
                (r.unique_id, None if r.attributes & 0x80 else r.category, r.data)
                for r in db.records
            ]
            flags = [
                {k.lower() for k, v in (r["attributes"] or {}).items() if v}
                for r in got["records"]
            ]
            assert [("delete" in f, "dirty" in f, "busy" in f, "secret" in f) for f in flags] == [
                (bool(r.attributes & 0x80), bool(r.attributes & 0x40),
                 bool(r.attributes & 0x20), bool(r.attributes & 0x10))
                for r in db.records
            ]
            assert bytes.fromhex(got["appinfo"]) == db.app_info
            assert bytes.fromhex(got["sort"]) == db.sort_info


def test_we_read_what_palm_pdb_perl_writes(perl_pdb: Path, tmp_path: Path) -> None:
    pdb_path, prc_path = tmp_path / "perl.pdb", tmp_path / "perl.prc"
    subprocess.run(["perl", str(perl_pdb / "write_pdb.pl"), str(pdb_path), str(prc_path)],
                   check=True, timeout=60)
    pdb = Database.read(pdb_path)
    assert (pdb.name, pdb.type, pdb.creator, pdb.version) == ("Perl Records", "DATA", "PlTs", 3)
    assert pdb.created == datetime(2001, 9, 9, 1, 46, 40)
    assert pdb.backed_up == datetime(1970, 1, 1)  # Palm::PDB's "unset"
    assert pdb.modification_number == 7
    assert pdb.app_info == b"application info block" and pdb.sort_info == b"sort"
    assert [(r.data, r.unique_id, r.category) for r in pdb.records] == [
        (f"record number {i}".encode() * (i + 1), 1000 + i, i) for i in range(3)
    ]
    assert pdb.records[1].attributes & 0x40  # dirty
    prc = Database.read(prc_path)
    assert prc.is_resource and (prc.name, prc.type) == ("Perl Resources", "appl")
    assert [(r.type, r.id, r.data) for r in prc.resources] == [
        ("tSTR", 1000, b"Hello from Perl"), ("code", 0, b"\x00\x01\x02\x03"), ("tver", 1, b"1.0\0"),
    ]
    # And Perl's files survive our round trip byte for byte.
    assert Database.read(pdb.to_bytes()) == pdb
    assert prc.to_bytes() == prc_path.read_bytes()


def test_npm_palm_pdb_reads_ours_and_reserialises_the_same_bytes(
    palm_pdb_npm: Path, prc: Database, pdb: Database, tmp_path: Path
) -> None:
    for db, path in databases(prc, pdb, tmp_path):
        got = run_json(["node", str(palm_pdb_npm / "dump.js"), str(path)])
        assert (got["name"], got["type"], got["creator"]) == (db.name, db.type, db.creator)
        assert (got["attributes"], got["version"]) == (db.attributes, db.version)
        assert got["created"] == unix_seconds(db.created)
        assert got["modified"] == unix_seconds(db.modified)
        assert got["backed_up"] == unix_seconds(db.backed_up)
        assert got["modification_number"] == db.modification_number
        assert got["unique_id_seed"] == db.unique_id_seed
        if db.is_resource:
            assert [(i["type"], i["id"], bytes.fromhex(i["data"])) for i in got["items"]] == [
                (r.type, r.id, r.data) for r in db.resources
            ]
        else:
            assert [
                (i["attributes"], i["unique_id"], bytes.fromhex(i["data"])) for i in got["items"]
            ] == [(r.attributes, r.unique_id, r.data) for r in db.records]
            assert bytes.fromhex(got["app_info"]) == db.app_info
            assert bytes.fromhex(got["sort_info"]) == db.sort_info
        assert got["same_bytes"], "palm-pdb wrote different bytes back"


@pytest.mark.parametrize("folder", ["ishido-pieces", "ishido-sounds"])
def test_both_tools_read_a_built_plugin(
    perl_pdb: Path, palm_pdb_npm: Path, folder: str, tmp_path: Path
) -> None:
    from prc_tools import plugin

    db = plugin.build_folder(bundled_plugins().folder(folder))
    path = tmp_path / "plugin.prc"
    db.write(path)
    expected = [(r.type, r.id, r.data) for r in db.resources]
    perl = run_json(["perl", str(perl_pdb / "dump_pdb.pl"), str(path)])
    assert [(r["type"], r["id"], bytes.fromhex(r["data"])) for r in perl["resources"]] == expected
    npm = run_json(["node", str(palm_pdb_npm / "dump.js"), str(path)])
    assert [(i["type"], i["id"], bytes.fromhex(i["data"])) for i in npm["items"]] == expected
    assert npm["same_bytes"]

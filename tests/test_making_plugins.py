"""docs/making-plugins.md, run as written: every command of its `sh` blocks in order,
in an empty folder, with the files its `text NAME` blocks give and the pictures its
"Paint" table names painted at the sizes it says (what the reader's editor does).

What cannot run as written is said here: a command that opens a window (`palmish
preview DIR`, `palmish`) runs with `--screenshot OUT.png` added; the friend's
`palmish receive` listens on loopback for one beam (`--listen 127.0.0.1 --port 0
--count 1` and a data folder of its own), and the beam's ADDRESS:PORT and NNNN are
the ones it prints, as the reader would copy them."""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
from PIL import Image, ImageDraw

DOC = Path(__file__).resolve().parent.parent / "docs" / "making-plugins.md"
TIMEOUT_S = 120
pytestmark = [pytest.mark.process, pytest.mark.slow]


def blocks(text: str) -> list[tuple[str, str]]:
    """(info string, body) of every fenced block, in order."""
    return [(m.group(1).strip(), m.group(2))
            for m in re.finditer(r"^```([^\n]*)\n(.*?)^```", text, re.M | re.S)]


def painted_files(text: str) -> list[tuple[str, tuple[int, int]]]:
    """The Paint table's rows: `file` and its size."""
    return [(m.group(1), (int(m.group(2)), int(m.group(3))))
            for m in re.finditer(r"^\| `([\w.-]+\.png)` \| (\d+)x(\d+) \|", text, re.M)]


def program(words: list[str]) -> list[str]:
    module = {"palmish": "palmish", "prc-tools": "prc_tools"}[words[0]]
    return [sys.executable, "-m", module, *words[1:]]


def opens_window(words: list[str]) -> bool:
    return words[0] == "palmish" and "--screenshot" not in words and (
        len(words) == 1 or words[1] == "preview" or words[1].startswith("--"))


def test_the_doc_has_the_steps_it_promises() -> None:
    text = DOC.read_text(encoding="utf-8")
    commands = [line for info, body in blocks(text) if info == "sh"
                for line in body.splitlines() if line.strip()]
    words = [shlex.split(c)[:2] for c in commands]
    for step in (["prc-tools", "new"], ["palmish", "preview"], ["prc-tools", "build"],
                 ["palmish", "install"], ["palmish", "beam"]):
        assert step in words, step
    assert painted_files(text)


def test_every_command_of_the_tutorial_runs_as_written(tmp_path: Path) -> None:
    text = DOC.read_text(encoding="utf-8")
    env = {**os.environ, "XDG_DATA_HOME": str(tmp_path / "share"),
           "XDG_CACHE_HOME": str(tmp_path / "cache"), "HOME": str(tmp_path)}
    work = tmp_path / "work"
    work.mkdir()
    friend: subprocess.Popen[str] | None = None
    seen: dict[str, str] = {}  # each command's output, by its word (all of a word's runs)
    painted: str | None = None  # the folder the Paint table is about: the first one made
    friend_at: dict[str, str] = {}
    try:
        for info, body in blocks(text):
            kind, _, name = info.partition(" ")
            if kind == "text" and name:
                (work / name.strip()).write_text(body, encoding="utf-8")
            if kind != "sh":
                continue
            for line in (line for line in body.splitlines() if line.strip()):
                words = shlex.split(line)
                if words[:2] == ["prc-tools", "new"] and painted is None:
                    painted = words[-1]
                if words[:2] == ["palmish", "preview"] and words[2] == painted:
                    paint(work, painted_files(text), words[2])
                if words[:2] == ["palmish", "receive"]:
                    friend, friend_at = receive(words, work, tmp_path / "friend", env)
                    continue
                if words[:2] == ["palmish", "beam"]:
                    words = [w.replace("ADDRESS:PORT", friend_at["address"])
                             .replace("NNNN", friend_at["code"]) for w in words]
                if opens_window(words):
                    words += ["--screenshot", str(tmp_path / f"window-{len(seen)}.png")]
                done = subprocess.run(program(words), cwd=work, env=env, capture_output=True,
                                      text=True, timeout=TIMEOUT_S)
                assert done.returncode == 0, (line, done.stdout, done.stderr)
                word = words[1] if len(words) > 1 and not words[1].startswith("-") \
                    else "palmish"
                seen[word] = seen.get(word, "") + done.stdout
        assert "install it: palmish install MyBoard.prc" in seen["build"]
        assert "install it: palmish install MyLevels.prc" in seen["build"]
        assert "installed Sigmar's Garden levels 'My Levels': 100" in seen["install"]
        assert friend is not None
        out, err = friend.communicate(timeout=TIMEOUT_S)
        assert friend.returncode == 0, err
        assert "My Board" in out and "installed" in out
        listed = subprocess.run(program(["palmish", "plugins"]), cwd=work, env=env,
                                capture_output=True, text=True, timeout=TIMEOUT_S)
        assert "My Board" in listed.stdout
        chosen = (work / "chosen.png")
        assert chosen.exists()
    finally:
        if friend is not None and friend.poll() is None:
            friend.kill()
            friend.wait(timeout=10)


def paint(work: Path, files: list[tuple[str, tuple[int, int]]], folder: str) -> None:
    """What the reader's editor does: each picture painted over at the size the doc says."""
    for number, (name, size) in enumerate(files):
        path = work / folder / name
        assert path.exists(), f"the Paint table names {name}, which new did not make"
        with Image.open(path) as template:
            assert template.size == size, (name, template.size, size)
        picture = Image.new("RGBA", size, (40 + 60 * number, 120, 90, 255))
        ImageDraw.Draw(picture).ellipse([2, 2, size[0] - 3, size[1] - 3],
                                        outline=(250, 250, 250, 255))
        picture.save(path)


def receive(words: list[str], work: Path, folder: Path, env: dict[str, str]
            ) -> tuple[subprocess.Popen[str], dict[str, str]]:
    """The friend's receiver on loopback, for one beam; the address and code it prints."""
    process = subprocess.Popen(
        program([*words, "--listen", "127.0.0.1", "--port", "0", "--count", "1",
                 "--data-dir", str(folder)]),
        cwd=work, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert process.stdout is not None
    line = process.stdout.readline().strip()
    match = re.fullmatch(r"receiving on (\S+) code (\d{4})", line)
    assert match, line
    return process, {"address": match.group(1), "code": match.group(2)}

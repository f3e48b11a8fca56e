"""The dependency direction of DESIGN.md: rules import nothing of the device,
prc_tools imports nothing of palmish, only palmish/frontend imports pyglet."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def imported_modules(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
    return names


def sources(*parts: str) -> list[Path]:
    return sorted(ROOT.joinpath(*parts).rglob("*.py"))


def test_only_frontend_imports_pyglet() -> None:
    offenders = [
        str(p.relative_to(ROOT))
        for p in sources("palmish") + sources("prc_tools")
        if "frontend" not in p.relative_to(ROOT).parts
        and any(m == "pyglet" or m.startswith("pyglet.") for m in imported_modules(p))
    ]
    assert offenders == []


def test_prc_tools_is_independent_of_palmish() -> None:
    offenders = [
        str(p.relative_to(ROOT))
        for p in sources("prc_tools")
        if any(m == "palmish" or m.startswith("palmish.") for m in imported_modules(p))
    ]
    assert offenders == []


def test_rules_import_nothing_of_the_device() -> None:
    offenders = [
        str(p.relative_to(ROOT))
        for p in ROOT.joinpath("palmish").rglob("rules.py")
        if any(m.startswith(("palmish.device", "palmish.frontend")) for m in imported_modules(p))
    ]
    assert offenders == []


CORE = {"device", "frontend", "boardgame", "network"}  # every other package is an app


def app_packages() -> list[str]:
    return sorted(p.name for p in ROOT.joinpath("palmish").iterdir()
                  if p.is_dir() and (p / "__init__.py").exists() and p.name not in CORE)


def palmish_packages(path: Path) -> set[str]:
    """The palmish subpackages a file imports (`palmish.x.y` -> `x`)."""
    return {m.split(".")[1] for m in imported_modules(path)
            if m.startswith("palmish.") and m.count(".") >= 1}


def test_there_are_apps_to_check() -> None:
    assert {"ishido", "launcher"} <= set(app_packages())


def test_device_imports_no_app_and_no_boardgame() -> None:
    forbidden = set(app_packages()) | {"boardgame", "frontend"}
    offenders = [str(p.relative_to(ROOT)) for p in sources("palmish", "device")
                 if palmish_packages(p) & forbidden]
    assert offenders == []


def test_boardgame_imports_no_game_and_no_pyglet() -> None:
    forbidden = set(app_packages()) | {"frontend"}
    offenders = [
        str(p.relative_to(ROOT))
        for p in sources("palmish", "boardgame")
        if palmish_packages(p) & forbidden
        or any(m == "pyglet" or m.startswith("pyglet.") for m in imported_modules(p))
    ]
    assert offenders == []


def test_only_the_command_line_and_the_window_import_the_network() -> None:
    """palmish/network imports the device and the games' engines, never the
    frontend; the device, boardgame and the games never import it."""
    offenders = [str(p.relative_to(ROOT)) for p in sources("palmish", "network")
                 if palmish_packages(p) & {"frontend"}]
    for package in ["device", "boardgame", *app_packages()]:
        offenders += [str(p.relative_to(ROOT)) for p in sources("palmish", package)
                      if "network" in palmish_packages(p)]
    assert offenders == []


def test_no_app_package_imports_another() -> None:
    apps = set(app_packages())
    offenders = [
        f"{p.relative_to(ROOT)} imports {sorted(palmish_packages(p) & (apps - {name}))}"
        for name in sorted(apps)
        for p in sources("palmish", name)
        if palmish_packages(p) & (apps - {name})
    ]
    assert offenders == []


# Every game's codes (DESIGN.md §6) and keys: prc_tools learns them from schemas only.
GAME_CODES = ("PIsh", "IsBd", "IsPc", "IsSd", "PSgm", "SgBd", "SgPc", "SgSd", "SgLv",
              "PPch", "PaBd", "PaPc", "PaSd")
GAME_KEYS = ("ishido", "sigmar", "pachisi")


def test_prc_tools_holds_no_game_codes_or_keys() -> None:
    import re

    code_pattern = re.compile(r"\b(" + "|".join(GAME_CODES) + r")\b")
    key_pattern = re.compile("|".join(GAME_KEYS), re.IGNORECASE)
    offenders = []
    for path in sources("prc_tools") + sorted(ROOT.joinpath("prc_tools").rglob("*.yaml")):
        text = path.read_text(encoding="utf-8")
        # Codes anywhere; game keys anywhere too (literals, comments, docstrings),
        # so no game's name creeps back in as an example either.
        for match in [*code_pattern.finditer(text), *key_pattern.finditer(text)]:
            line = text.count("\n", 0, match.start()) + 1
            offenders.append(f"{path.relative_to(ROOT)}:{line}: {match.group(0)}")
    assert offenders == []

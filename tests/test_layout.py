"""prc_tools holds no game's codes or keys (docs/prc-tools.md, "Plugin schemas").
The import direction itself is import-linter's contracts (.importlinter, `make test`)."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def sources(*parts: str) -> list[Path]:
    return sorted(ROOT.joinpath(*parts).rglob("*.py"))


def test_prc_tools_holds_no_game_codes_or_keys() -> None:
    """Every game's codes (docs/prc-tools.md) and keys, from the game registry: prc_tools
    learns them from schemas only."""
    import re

    from palmish.games import games
    from prc_tools.schema import load_file

    schemas = [load_file(game.schema) for game in games()]
    game_codes = sorted({code for s in schemas for code in (s.creator, *s.types.values())})
    game_keys = [game.id for game in games()]
    # Every game gives its creator and a type per plugin kind (palmish.gamecheck says so).
    assert game_keys and all(s.creator in game_codes and s.types for s in schemas)
    code_pattern = re.compile(r"\b(" + "|".join(game_codes) + r")\b")
    key_pattern = re.compile("|".join(game_keys), re.IGNORECASE)
    offenders = []
    for path in sources("prc_tools") + sorted(ROOT.joinpath("prc_tools").rglob("*.yaml")):
        text = path.read_text(encoding="utf-8")
        # Codes anywhere; game keys anywhere too (literals, comments, docstrings),
        # so no game's name creeps back in as an example either.
        for match in [*code_pattern.finditer(text), *key_pattern.finditer(text)]:
            line = text.count("\n", 0, match.start()) + 1
            offenders.append(f"{path.relative_to(ROOT)}:{line}: {match.group(0)}")
    assert offenders == []

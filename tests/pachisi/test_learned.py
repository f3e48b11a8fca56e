"""The learned `hard` player: its weights file, the training script that
makes it, and its features (legal, deterministic play: test_ai.py)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from palmish.pachisi import ai, features, learned, train


def test_the_packaged_weights_load() -> None:
    w = learned.weights()
    assert len(w) == features.COUNT
    # a finished piece is worth more than one still in the start area
    names = features.NAMES
    assert w[names.index("finished")] > w[names.index("start")]


def test_a_tiny_training_run_writes_a_loadable_reproducible_file(tmp_path: Path) -> None:
    first, second = tmp_path / "a.json", tmp_path / "b.json"
    assert train.main(["--games", "3", "--seed", "5", "--out", str(first)]) == 0
    assert train.main(["--games", "3", "--seed", "5", "--out", str(second)]) == 0
    assert first.read_bytes() == second.read_bytes()
    w = learned.parse_weights(first.read_text("utf-8"), str(first))
    assert len(w) == features.COUNT and w != tuple(train.initial_weights())
    data = json.loads(first.read_text("utf-8"))
    assert (data["games"], data["seed"]) == (3, 5)
    # another seed plays other games
    third = tmp_path / "c.json"
    assert train.main(["--games", "3", "--seed", "6", "--out", str(third)]) == 0
    assert third.read_bytes() != first.read_bytes()


def test_training_refuses_a_bad_budget_and_an_unwritable_file(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert train.main(["--games", "0", "--out", str(tmp_path / "w.json")]) == 2
    assert train.main(["--games", "1", "--out", str(tmp_path / "no" / "w.json")]) == 1
    err = capsys.readouterr().err
    assert "--games must be positive" in err and "cannot write" in err


@pytest.mark.parametrize("text, message", [
    ("{", "not JSON"),
    ("[]", "no 'weights' table"),
    ('{"weights": {"start": 1}}', "do not name this version's features"),
])
def test_bad_weights_files_are_refused_in_one_line(text: str, message: str) -> None:
    with pytest.raises(learned.WeightsError, match=message):
        learned.parse_weights(text, "w.json")


def test_a_weight_that_is_not_a_number_is_refused() -> None:
    table = dict.fromkeys(features.NAMES, 0.5)
    table["start"] = float("nan")
    with pytest.raises(learned.WeightsError, match="finite"):
        learned.parse_weights(json.dumps({"weights": table}))
    table["start"] = "1"  # type: ignore[assignment]
    with pytest.raises(learned.WeightsError, match="finite"):
        learned.parse_weights(json.dumps({"weights": table}))


def test_the_strongest_level_is_hard() -> None:
    assert ai.STRONGEST == "hard" and ai.STRONGEST in ai.LEVELS
    assert set(ai.LEVELS) < set(ai.ALL_LEVELS) and "lookahead" in ai.ALL_LEVELS


def test_features_are_one_row_per_player() -> None:
    t = features.tables("cowrie")
    rows = features.player_features(
        [[0, 20, 20, 70], [5, 0, 0, 76], [33, 0, 0, 0]], (0, 1, 2), [False] * 3, 1, t)
    assert len(rows) == 3 and all(len(r) == features.COUNT for r in rows)
    names = features.NAMES
    assert rows[0][names.index("doubles")] == 1.0
    assert rows[1][names.index("finished")] == 1.0 and rows[1][names.index("start")] == 2.0
    assert rows[2][names.index("order1")] == 1.0  # player 2 throws after player 1
    chances = learned.chances(rows, learned.weights())
    assert abs(sum(chances) - 1.0) < 1e-9

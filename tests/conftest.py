"""What the whole suite shares: which tests must not run side by side.

`make test` runs the suite on several pytest-xdist workers (``-n auto --dist
loadgroup -m "not window"``), then the window tests alone, one after another.
Window tests share one X server, one focus, the xdotool pointer and the
PulseAudio null sink, and wait for real frames and sounds; should they run
under xdist all the same (``pytest -n auto``), they all go to one group, which
a single worker runs one after the other.
"""

from __future__ import annotations

import pytest

X_SERVER_GROUP = "x-server"


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if item.get_closest_marker("window") is not None:
            item.add_marker(pytest.mark.xdist_group(X_SERVER_GROUP))

"""What the whole suite shares: which tests must not run side by side.

`make test` runs the suite on several pytest-xdist workers (``-n auto --dist
loadgroup -m "not window"``), then the window tests alone, one after another.
Window tests share one X server, one focus, the xdotool pointer and the
PulseAudio null sink, and wait for real frames and sounds; should they run
under xdist all the same (``pytest -n auto``), they all go to one group, which
a single worker runs one after the other.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

X_SERVER_GROUP = "x-server"


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if item.get_closest_marker("window") is not None:
            item.add_marker(pytest.mark.xdist_group(X_SERVER_GROUP))


@pytest.fixture(scope="session", autouse=True)
def _prc_tools_cache(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """prc-tools keeps the installed games' codes in the user's cache folder: the
    suite's commands, in process or not, keep them in a folder of its own."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("PRC_TOOLS_CACHE_DIR", str(tmp_path_factory.mktemp("prc-tools-cache")))
        yield

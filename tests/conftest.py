"""What the whole suite shares: which tests must not run side by side.

`make test` runs the suite on several pytest-xdist workers (``-n auto --dist
loadgroup -m "not window"``), then the window tests alone, one after another.
Window tests share one X server, one focus, the xdotool pointer and the
PulseAudio null sink, and wait for real frames and sounds; should they run
under xdist all the same (``pytest -n auto``), they all go to one group, which
a single worker runs one after the other.

Sound is forced silent here, before any test module is collected: pyglet
chooses its audio driver when it is first imported, and modules in every
folder import it (through palmish.frontend), so a later conftest would come
too late on a desktop where PulseAudio or PipeWire runs. The test that records
real sound starts its own server and sets the driver in its child's
environment (tests/frontend/test_sound_heard.py).
"""

from __future__ import annotations

import os
import subprocess
from collections.abc import Iterator
from typing import Any

os.environ["PYGLET_AUDIO"] = "silent"

import pytest  # after the environment above, on purpose

X_SERVER_GROUP = "x-server"


# `make check` leaves out the tests marked window or process (and slow): the ones
# that start another program. A test that starts one unmarked fails, so the quick
# check cannot silently grow into the whole suite.
STARTS_PROGRAMS = ("window", "process")


@pytest.fixture(autouse=True)
def _programs_only_where_marked(
    request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch
) -> None:
    if any(request.node.get_closest_marker(name) for name in STARTS_PROGRAMS):
        return

    def refuse(self: subprocess.Popen[Any], args: Any, *more: Any, **options: Any) -> None:
        raise AssertionError(
            f"{request.node.nodeid} starts a program ({args!r}): mark it "
            "@pytest.mark.process so that `make check` leaves it out")

    monkeypatch.setattr(subprocess.Popen, "__init__", refuse)


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

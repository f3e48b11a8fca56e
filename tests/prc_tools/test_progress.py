"""The build progress bar: drawn only on a terminal and only once the work takes a moment."""

from __future__ import annotations

import io

from prc_tools.progress import ProgressBar


class FakeTerminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_draws_on_a_terminal_after_the_delay_and_clears_itself() -> None:
    stream = FakeTerminal()
    bar = ProgressBar(stream, "building", delay=0.0)
    bar.update(18, 72)
    bar.update(72, 72)
    text = stream.getvalue()
    assert "\rbuilding [#######-----------------------] 18/72" in text
    assert "72/72" in text
    bar.close()
    assert stream.getvalue().endswith("\r\x1b[K")


def test_quiet_when_fast_or_not_a_terminal() -> None:
    fast = FakeTerminal()
    bar = ProgressBar(fast, "building", delay=60.0)
    bar.update(1, 2)
    bar.close()
    assert fast.getvalue() == ""
    piped = io.StringIO()
    bar = ProgressBar(piped, "building", delay=0.0)
    bar.update(1, 2)
    bar.close()
    assert piped.getvalue() == ""

"""Sound playing: silent driver, undecodable sounds, a driver that fails."""

from __future__ import annotations

import pytest

from .conftest import needs_display
from .probe import tone

pytestmark = [pytest.mark.window, needs_display]  # pyglet.media loads OpenGL, so X is needed


def test_a_wave_plays_on_the_silent_driver() -> None:
    from palmish.frontend.audio import SoundPlayer

    told: list[str] = []
    player = SoundPlayer(report=told.append)
    assert player.driver_name == "silent"
    assert player.play(tone())
    assert player.played == 1 and told == []


def test_an_undecodable_sound_is_skipped_and_reported_once() -> None:
    from palmish.frontend.audio import SoundPlayer

    told: list[str] = []
    player = SoundPlayer(report=told.append)
    assert not player.play(b"RIFF\x00\x00\x00\x00WAVEjunk")
    assert not player.play(b"not a sound at all")
    assert player.play(tone())  # later good sounds still play
    assert player.skipped == 2 and player.played == 1
    assert len(told) == 1 and "could not be decoded" in told[0]


def test_a_failing_driver_turns_sound_off_with_one_message(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from pyglet.media.codecs.base import Source

    from palmish.frontend.audio import SoundPlayer

    def broken(self: Source) -> None:
        raise OSError("no audio device")

    monkeypatch.setattr(Source, "play", broken)
    told: list[str] = []
    player = SoundPlayer(report=told.append)
    assert not player.play(tone())
    assert not player.play(tone())
    assert not player.enabled
    assert told == ["palmish: sound is off, the audio driver failed (no audio device)"]


def test_a_short_sound_is_padded_to_fill_the_drivers_buffer() -> None:
    import io
    import wave

    from palmish.frontend.audio import PYGLET_MIN_BUFFER, padded

    short = tone(40)  # 441 bytes: PulseAudio would never start playing it
    longer = padded(short)
    with wave.open(io.BytesIO(longer)) as w:
        assert (w.getnchannels(), w.getsampwidth(), w.getframerate()) == (1, 1, 11025)
        frames = w.readframes(w.getnframes())
    with wave.open(io.BytesIO(short)) as w:
        original = w.readframes(w.getnframes())
    assert len(frames) >= PYGLET_MIN_BUFFER
    assert frames.startswith(original)
    assert set(frames[len(original):]) == {0x80}  # 8-bit silence
    assert padded(longer) == longer  # long enough already
    assert padded(b"not a wave") == b"not a wave"


def test_warming_up_prepares_the_audio_path_in_small_steps_then_stops() -> None:
    import sys

    from palmish.frontend.audio import SoundPlayer

    told: list[str] = []
    player = SoundPlayer(report=told.append)
    steps = 0
    while player.warm_up():
        steps += 1
        assert steps < 10, "warming up never ends"
    assert steps >= 3  # import, driver, codecs, a stream: not one long step
    assert "pyglet.media" in sys.modules
    assert not player.warm_up()  # done stays done
    assert player.play(tone()) and player.played == 1  # the silent warm-up is not counted
    assert told == []


def test_warming_up_a_player_whose_sound_is_off_does_nothing() -> None:
    from palmish.frontend.audio import SoundPlayer

    player = SoundPlayer()
    player.enabled = False
    assert not player.warm_up()


def test_a_driver_that_fails_while_warming_up_is_reported_by_the_first_sound(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from pyglet.media import drivers

    from palmish.frontend.audio import SoundPlayer

    def broken() -> None:
        raise OSError("no audio device")

    monkeypatch.setattr(drivers, "get_audio_driver", broken)
    told: list[str] = []
    player = SoundPlayer(report=told.append)
    while player.warm_up():
        pass
    assert told == []  # nothing said from idle time

"""Play the device's sounds (RIFF WAVE bytes) through pyglet.media, or go quiet.

No files are written: pyglet decodes straight from the bytes. A machine without
a sound card (or PYGLET_AUDIO=silent) gets pyglet's silent driver; if playing
fails anyway, the player says so once on stderr and stays silent from then on.
A sound that cannot be decoded is skipped (and reported once), not fatal.

The first sound of a session used to stall the window for about 0.1 s: it
imported pyglet.media, probed the codecs, connected to the sound server and
made the first audio stream. `warm_up` does the same work in small steps in
idle time after the first frame (a silent, zero-volume sound), so the first
sound a game plays costs what every later one does.

Short sounds are padded with silence before pyglet sees them: pyglet's
PulseAudio player only starts a stream once it holds half of its buffer
(max(32 KiB, 0.9 s)), so a 0.12 s click never started at all and was never heard.
"""

from __future__ import annotations

import io
import sys
import wave
from collections.abc import Callable, Iterator

# pyglet's audio players buffer max(PYGLET_MIN_BUFFER, 0.9 s) of data and the PulseAudio
# one waits for half of that before it starts: a sound is padded to the whole of it.
PYGLET_MIN_BUFFER = 32768
PYGLET_BUFFER_S = 0.9


def _stderr(message: str) -> None:
    print(message, file=sys.stderr)


def padded(wave_bytes: bytes) -> bytes:
    """A PCM WAV lengthened with trailing silence to fill pyglet's audio buffer.

    Anything the stdlib cannot read as PCM is returned unchanged (pyglet may
    still decode it, or it is reported as undecodable).
    """
    try:
        with wave.open(io.BytesIO(wave_bytes), "rb") as source:
            params = source.getparams()
            frames = source.readframes(params.nframes)
    except (wave.Error, EOFError, ValueError):
        return wave_bytes
    frame_size = params.sampwidth * params.nchannels
    if frame_size == 0 or params.framerate == 0:
        return wave_bytes
    wanted = max(PYGLET_MIN_BUFFER, int(params.framerate * frame_size * PYGLET_BUFFER_S))
    missing = -(-(wanted - len(frames)) // frame_size)
    if missing <= 0:
        return wave_bytes
    silence = (b"\x80" if params.sampwidth == 1 else b"\x00" * params.sampwidth)
    out = io.BytesIO()
    with wave.open(out, "wb") as target:
        target.setparams(params)
        target.writeframes(frames + silence * (missing * params.nchannels))
    return out.getvalue()


class SoundPlayer:
    def __init__(self, report: Callable[[str], None] = _stderr) -> None:
        self.report = report
        self.enabled = True
        self.played = 0  # sounds handed to the audio driver
        self.skipped = 0  # sounds that could not be decoded
        self._told_bad_sound = False
        self._warming: Iterator[bool] | None = None

    @property
    def driver_name(self) -> str:
        """Which pyglet audio driver is in use ('silent', 'openal', 'pulse', ...)."""
        from pyglet.media import drivers

        driver = drivers.get_audio_driver()  # type: ignore[no-untyped-call]
        if driver is None:
            return "none"
        # e.g. pyglet.media.drivers.silent.adaptation -> "silent"
        parts = type(driver).__module__.split(".")
        return parts[parts.index("drivers") + 1] if "drivers" in parts[:-1] else parts[-1]

    def play(self, wave: bytes) -> bool:
        """Start playing one sound; False when it was skipped or sound is off."""
        if not self.enabled:
            return False
        try:
            import pyglet.media
        except Exception as exc:  # no usable audio at all: carry on without sound
            self._go_silent(exc)
            return False
        try:
            data = io.BytesIO(padded(wave))
            source = pyglet.media.load("sound.wav", file=data, streaming=False)
        except Exception as exc:  # a broken 'wave' resource must not stop the device
            self.skipped += 1
            if not self._told_bad_sound:
                self._told_bad_sound = True
                self.report(f"palmish: skipped a sound that could not be decoded ({exc})")
            return False
        try:
            source.play()
        except Exception as exc:  # the driver failed (no device, server gone, ...)
            self._go_silent(exc)
            return False
        self.played += 1
        return True

    def warm_up(self) -> bool:
        """One step of getting the audio path ready; False when there is nothing left.

        For idle time: each step is one of the costs the first sound would pay
        (import, driver, codecs, the first stream). A failure here is not
        reported; the first real sound meets it again and says so.
        """
        if self._warming is None:
            self._warming = self._warm_steps()
        try:
            return next(self._warming, False)
        except Exception:  # no audio at all: play() reports it when a sound is due
            self._warming = iter(())
            return False

    def _warm_steps(self) -> Iterator[bool]:
        if not self.enabled:
            return
        import pyglet.media

        yield True
        from pyglet.media import drivers

        drivers.get_audio_driver()  # type: ignore[no-untyped-call]
        yield True
        source = pyglet.media.load("warm.wav", file=io.BytesIO(padded(_silence())), streaming=False)
        yield True
        player = pyglet.media.Player()
        player.volume = 0.0
        player.queue(source)
        player.play()
        yield True
        player.delete()

    def _go_silent(self, exc: Exception) -> None:
        self.enabled = False
        self.report(f"palmish: sound is off, the audio driver failed ({exc})")


def _silence() -> bytes:
    """A tenth of a second of 8-bit mono silence at 11,025 Hz, as RIFF WAVE bytes."""
    out = io.BytesIO()
    with wave.open(out, "wb") as target:
        target.setnchannels(1)
        target.setsampwidth(1)
        target.setframerate(11025)
        target.writeframes(b"\x80" * 1102)
    return out.getvalue()

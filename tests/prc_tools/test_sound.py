"""WAV in, plain Palm PCM out: every input layout, resampling, and the WAVs we refuse."""

from __future__ import annotations

import io
import itertools
import struct
import wave
from collections.abc import Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from prc_tools import SoundError, sound

MakeWav = Callable[..., bytes]


def zero_crossings(samples: list[float]) -> int:
    return sum(1 for a, b in itertools.pairwise(samples) if (a < 0) != (b < 0))


@pytest.mark.parametrize(
    ("bits", "channels", "rate", "fmt_tag"),
    [
        (8, 1, 22050, 1), (16, 1, 11025, 1), (16, 2, 44100, 1), (24, 2, 48000, 1),
        (32, 1, 8000, 1), (32, 2, 44100, 3), (64, 1, 16000, 3),
    ],
)
def test_any_wav_becomes_plain_pcm(
    make_wav: MakeWav, bits: int, channels: int, rate: int, fmt_tag: int
) -> None:
    source = make_wav(bits=bits, channels=channels, rate=rate, frames=rate // 10,
                      fmt_tag=fmt_tag)
    out = sound.convert(source)
    parsed = sound.read_wave_resource(out)
    assert parsed.is_plain
    assert parsed.rate == (22050 if rate >= 22050 else 11025)
    assert parsed.bits == (8 if bits == 8 else 16)
    assert parsed.seconds == pytest.approx(0.1, abs=0.002)
    # The stdlib reads our output too.
    with wave.open(io.BytesIO(out)) as check:
        assert (check.getnchannels(), check.getframerate()) == (1, parsed.rate)
        assert check.getsampwidth() * 8 == parsed.bits


def test_pitch_survives_resampling(make_wav: MakeWav) -> None:
    source = make_wav(bits=16, rate=44100, frames=44100, frequency=440.0)
    for rate in (22050, 11025):
        samples = sound.mono_samples(sound.read_wav(sound.convert(source, rate=rate)))
        assert len(samples) == rate
        assert zero_crossings(samples) == pytest.approx(880, abs=3)  # 440 Hz for one second


def test_stereo_mixes_to_mono(make_wav: MakeWav) -> None:
    # The fixture's right channel is the left one inverted: the mix is silence.
    mixed = sound.mono_samples(sound.read_wav(sound.convert(make_wav(channels=2))))
    assert max(abs(v) for v in mixed) < 0.001


def test_plain_input_keeps_its_samples_exactly(make_wav: MakeWav) -> None:
    for bits in (8, 16):
        source = make_wav(bits=bits, rate=11025)
        assert sound.read_wav(sound.convert(source)).data == sound.read_wav(source).data


def test_requested_rate_and_bits(make_wav: MakeWav) -> None:
    out = sound.read_wav(sound.convert(make_wav(bits=16, rate=22050), rate=11025, bits=8))
    assert (out.rate, out.bits, out.frames) == (11025, 8, 1102)


def test_loud_input_is_clipped_not_wrapped(make_wav: MakeWav) -> None:
    loud = make_wav(bits=32, fmt_tag=3, amplitude=4.0, rate=22050)
    samples = sound.mono_samples(sound.read_wav(sound.convert(loud, bits=16)))
    assert max(samples) == pytest.approx(32767 / 32768) and min(samples) == -1.0


def test_extensible_format_is_read(make_wav: MakeWav) -> None:
    plain = make_wav(bits=16, rate=22050)
    fmt = struct.pack("<HHIIHH", 0xFFFE, 1, 22050, 44100, 2, 16)
    fmt += struct.pack("<HHI", 22, 16, 4) + struct.pack("<H", 1) + bytes(14)  # PCM sub-format
    data = plain[plain.index(b"data") :]
    body = b"WAVE" + b"fmt " + struct.pack("<I", len(fmt)) + fmt + data
    extensible = b"RIFF" + struct.pack("<I", len(body)) + body
    assert sound.read_wav(extensible).data == sound.read_wav(plain).data


def test_other_chunks_are_skipped(make_wav: MakeWav) -> None:
    plain = make_wav()
    at = plain.index(b"fmt ")
    with_list = plain[:at] + b"LIST" + struct.pack("<I", 3) + b"abc\0" + plain[at:]
    assert sound.read_wav(with_list).data == sound.read_wav(plain).data


def _error(data: bytes) -> str:
    with pytest.raises(SoundError) as caught:
        sound.convert(data)
    assert "\n" not in str(caught.value)
    return str(caught.value)


def test_refused_wavs(make_wav: MakeWav) -> None:
    good = make_wav()
    assert "not a WAV" in _error(b"OggS" + good[4:])
    assert "not a WAV" in _error(b"")
    assert "no data chunk" in _error(good[: good.index(b"data")])
    no_fmt = good[:12] + good[good.index(b"data") :]
    assert "no format chunk" in _error(no_fmt)
    adpcm = bytearray(good)
    struct.pack_into("<H", adpcm, 20, 0x0011)  # IMA ADPCM
    assert "encoding 0x0011" in _error(bytes(adpcm))
    twelve = bytearray(good)
    struct.pack_into("<H", twelve, 34, 12)
    assert "12-bit" in _error(bytes(twelve))
    slow = bytearray(good)
    struct.pack_into("<I", slow, 24, 1)
    assert "sample rate 1 Hz" in _error(bytes(slow))
    assert "claims" in _error(good[:-100])  # truncated data chunk
    with pytest.raises(SoundError, match="11025 or 22050"):
        sound.convert(good, rate=44100)
    with pytest.raises(SoundError, match="8 or 16"):
        sound.convert(good, bits=24)


def test_wave_resources_must_be_plain(make_wav: MakeWav) -> None:
    with pytest.raises(SoundError, match="not plain PCM"):
        sound.read_wave_resource(make_wav(channels=2))
    with pytest.raises(SoundError, match="not plain PCM"):
        sound.read_wave_resource(make_wav(rate=44100))
    assert sound.read_wave_resource(make_wav(bits=8, rate=11025)).bits == 8



def _stdlib_wav(channels: int, width: int, rate: int) -> bytes:
    buffer = io.BytesIO()
    with wave.open(buffer, "wb") as out:
        out.setnchannels(channels)
        out.setsampwidth(width)
        out.setframerate(rate)
        out.writeframes(bytes((i * 37) & 0xFF for i in range(channels * width * 200)))
    return buffer.getvalue()


FUZZ_SAMPLES = [_stdlib_wav(1, 1, 11025), _stdlib_wav(2, 2, 44100), _stdlib_wav(2, 3, 48000)]


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(FUZZ_SAMPLES), st.data())
def test_mutated_wavs_raise_only_sound_errors(sample: bytes, data: st.DataObject) -> None:
    body = bytearray(sample[: data.draw(st.integers(0, len(sample)))])
    for _ in range(data.draw(st.integers(0, 6))):
        if body:
            body[data.draw(st.integers(0, len(body) - 1))] = data.draw(st.integers(0, 255))
    try:
        out = sound.convert(bytes(body))
    except SoundError as exc:
        assert "\n" not in str(exc)
    else:
        assert sound.read_wave_resource(out).is_plain


def test_overlong_sounds_are_refused(make_wav: MakeWav) -> None:
    long = bytearray(make_wav(bits=8, rate=1000, frames=10))
    struct.pack_into("<I", long, 24, 1000)
    samples = bytes(301 * 1000)
    at = long.index(b"data")
    body = bytes(long[:at]) + b"data" + struct.pack("<I", len(samples)) + samples
    wav = b"RIFF" + struct.pack("<I", len(body) - 8) + body[8:]
    with pytest.raises(SoundError, match="lasts 301 s"):
        sound.convert(wav)


def test_input_too_long_for_its_rate_is_refused_before_converting() -> None:
    # The reported case (60 s of 384 kHz stereo took 2.8 GB and 46 s), built
    # without its samples: the bound is checked from the header alone.
    frames = 60 * 384_000
    header = sound.wav_bytes(b"", 384_000, 16, channels=2)
    data_at = header.index(b"data") + 4
    big = header[:data_at] + struct.pack("<I", 0xFFFF_FFFF) + bytes(frames * 4)
    with pytest.raises(sound.SoundError, match="too much to convert"):
        sound.convert(big)
    assert frames * 2 > sound.MAX_INPUT_SAMPLES

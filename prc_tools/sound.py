"""Sounds for 'wave' resources: any WAV in, plain PCM RIFF WAVE out.

Palm OS 5 plays a 'wave' resource holding a whole RIFF WAVE file; the safe
form is PCM, mono, 8-bit unsigned or 16-bit little-endian, 11025 or 22050 Hz.
`convert` takes any common WAV (8/16/24/32-bit integer PCM or 32/64-bit float,
mono or stereo or more, any rate, plain or WAVE_FORMAT_EXTENSIBLE), mixes to
mono, resamples and quantises. The RIFF parser is our own because the stdlib
`wave` module rejects float and (before 3.12) extensible files.
"""

from __future__ import annotations

import math
import struct
import sys
from array import array
from collections.abc import Sequence

from prc_tools.errors import SoundError
from prc_tools.frozen import Frozen

RATES = (11025, 22050)
BITS = (8, 16)
MIN_RATE = 1000
MAX_RATE = 384_000
MAX_SECONDS = 300  # Palm sound effects last seconds; this bounds conversion time and memory
# Samples of all channels together: conversion costs about 0.5 us and 16 bytes
# each, so this keeps any input near 8 s and 300 MB (60 s of 48 kHz stereo fit,
# as do 300 s of 22050 Hz stereo).
MAX_INPUT_SAMPLES = 16_000_000

FORMAT_PCM = 0x0001
FORMAT_FLOAT = 0x0003
FORMAT_EXTENSIBLE = 0xFFFE
_STREAMING_SIZE = 0xFFFF_FFFF  # some writers leave the size unset when streaming


class Sound(Frozen):
    """A parsed WAV: its format and the raw little-endian sample bytes (whole frames)."""

    rate: int
    channels: int
    bits: int
    is_float: bool
    data: bytes

    @property
    def frame_size(self) -> int:
        return self.channels * (self.bits // 8)

    @property
    def frames(self) -> int:
        return len(self.data) // self.frame_size

    @property
    def seconds(self) -> float:
        return self.frames / self.rate

    @property
    def is_plain(self) -> bool:
        """True if Palm OS plays it as is: PCM mono, 8 or 16 bits, 11025 or 22050 Hz."""
        return (
            not self.is_float
            and self.channels == 1
            and self.bits in BITS
            and self.rate in RATES
        )


def read_wav(data: bytes) -> Sound:
    """Parse a RIFF WAVE file; SoundError naming the problem if it is not one we can read."""
    if len(data) < 12 or data[:4] != b"RIFF" or data[8:12] != b"WAVE":
        raise SoundError("not a WAV file (no RIFF WAVE header)")
    fmt: bytes | None = None
    samples: bytes | None = None
    position = 12
    while position + 8 <= len(data):
        chunk_id = data[position : position + 4]
        (chunk_size,) = struct.unpack_from("<I", data, position + 4)
        body_start = position + 8
        available = len(data) - body_start
        if chunk_id == b"data":
            if chunk_size == _STREAMING_SIZE:
                chunk_size = available
            elif chunk_size > available:
                raise SoundError(
                    f"WAV data chunk claims {chunk_size} bytes but only {available} follow"
                )
            samples = data[body_start : body_start + chunk_size]
        elif chunk_id == b"fmt ":
            if chunk_size > available:
                raise SoundError("WAV format chunk is truncated")
            fmt = data[body_start : body_start + chunk_size]
        if fmt is not None and samples is not None:
            break
        position = body_start + chunk_size + (chunk_size & 1)  # chunks are word aligned
    if fmt is None:
        raise SoundError("WAV file has no format chunk")
    if samples is None:
        raise SoundError("WAV file has no data chunk")
    return _sound_from(fmt, samples)


def _sound_from(fmt: bytes, samples: bytes) -> Sound:
    if len(fmt) < 16:
        raise SoundError(f"WAV format chunk is {len(fmt)} bytes, needs 16")
    tag, channels, rate, _byte_rate, _block_align, bits = struct.unpack_from("<HHIIHH", fmt)
    if tag == FORMAT_EXTENSIBLE:
        if len(fmt) < 40:
            raise SoundError("WAV extensible format chunk is truncated")
        (tag,) = struct.unpack_from("<H", fmt, 24)  # the sub-format GUID starts with the tag
    if tag == FORMAT_PCM:
        is_float = False
        if bits not in (8, 16, 24, 32):
            raise SoundError(f"unsupported WAV: {bits}-bit PCM (8, 16, 24 or 32 bits work)")
    elif tag == FORMAT_FLOAT:
        is_float = True
        if bits not in (32, 64):
            raise SoundError(f"unsupported WAV: {bits}-bit float (32 or 64 bits work)")
    else:
        raise SoundError(f"unsupported WAV encoding 0x{tag:04X} (only PCM and float work)")
    if channels < 1:
        raise SoundError("WAV claims 0 channels")
    if not MIN_RATE <= rate <= MAX_RATE:
        raise SoundError(f"unsupported WAV sample rate {rate} Hz")
    frame_size = channels * bits // 8
    whole = len(samples) - len(samples) % frame_size
    return Sound(rate=rate, channels=channels, bits=bits, is_float=is_float, data=samples[:whole])


def mono_samples(sound: Sound) -> array[float]:
    """The sound mixed to one channel, as floats with full scale at +-1.0.

    Built block by block into a flat array of doubles (8 bytes a sample, not
    the ~32 of a list of Python floats), so a long input costs a bounded,
    small multiple of its own size.
    """
    frame_size = sound.frame_size
    channels = sound.channels
    scale = 1.0 / channels
    out = array("d")
    step = _BLOCK_FRAMES * frame_size
    for start in range(0, len(sound.data), step):
        values = _channel_values(sound, sound.data[start : start + step])
        if channels == 1:
            out.extend(values)
        else:
            out.extend(
                sum(values[i : i + channels]) * scale for i in range(0, len(values), channels)
            )
    return out


_BLOCK_FRAMES = 1 << 16


def _channel_values(sound: Sound, data: bytes) -> list[float]:
    if sound.is_float:
        floats = array("f" if sound.bits == 32 else "d")
        floats.frombytes(data)
        if sys.byteorder == "big":
            floats.byteswap()
        return [_finite(v) for v in floats]
    if sound.bits == 8:
        return [(b - 128) / 128.0 for b in data]
    if sound.bits == 24:
        scale = 1.0 / (1 << 23)
        return [
            int.from_bytes(data[i : i + 3], "little", signed=True) * scale
            for i in range(0, len(data), 3)
        ]
    ints = array("h" if sound.bits == 16 else "i")
    if ints.itemsize * 8 != sound.bits:
        raise SoundError(f"{sound.bits}-bit samples are not supported on this platform")
    ints.frombytes(data)
    if sys.byteorder == "big":
        ints.byteswap()
    scale = 1.0 / (1 << (sound.bits - 1))
    return [v * scale for v in ints]


def _finite(value: float) -> float:
    return value if math.isfinite(value) else 0.0


def resample(samples: Sequence[float], source_rate: int, target_rate: int) -> array[float]:
    """Linear interpolation; when shrinking, first average over each output step (anti-alias)."""
    if source_rate == target_rate or not samples:
        return array("d", samples)
    step = source_rate / target_rate
    if step > 1.0:
        samples = _box_filter(samples, int(step))
    count = max(1, int(len(samples) / step))
    last = len(samples) - 1
    out = array("d")
    for k in range(count):
        position = k * step
        i = int(position)
        if i >= last:
            out.append(samples[last])
            continue
        frac = position - i
        out.append(samples[i] + (samples[i + 1] - samples[i]) * frac)
    return out


def _box_filter(samples: Sequence[float], width: int) -> Sequence[float]:
    """Each sample replaced by the mean of `width` samples centred on it (prefix sums)."""
    if width <= 1:
        return samples
    prefix = array("d", [0.0])
    total = 0.0
    for value in samples:
        total += value
        prefix.append(total)
    n = len(samples)
    half = width // 2
    out = array("d")
    for i in range(n):
        lo = max(0, i - half)
        hi = min(n, lo + width)
        out.append((prefix[hi] - prefix[lo]) / (hi - lo))
    return out


def quantise(samples: Sequence[float], bits: int) -> bytes:
    """Samples as 8-bit unsigned or 16-bit signed little-endian PCM (clipped)."""
    if bits == 8:
        return bytes(min(255, max(0, round(v * 128.0) + 128)) for v in samples)
    if bits == 16:
        ints = array("h", (min(32767, max(-32768, round(v * 32768.0))) for v in samples))
        if sys.byteorder == "big":
            ints.byteswap()
        return ints.tobytes()
    raise SoundError(f"cannot write {bits}-bit samples (8 or 16 work)")


def wav_bytes(pcm: bytes, rate: int, bits: int, channels: int = 1) -> bytes:
    """A minimal RIFF WAVE file around integer PCM data."""
    block_align = channels * bits // 8
    fmt = struct.pack("<HHIIHH", FORMAT_PCM, channels, rate, rate * block_align, block_align, bits)
    pad = b"\0" if len(pcm) & 1 else b""
    body = b"WAVE" + b"fmt " + struct.pack("<I", len(fmt)) + fmt
    body += b"data" + struct.pack("<I", len(pcm)) + pcm + pad
    return b"RIFF" + struct.pack("<I", len(body)) + body


def default_rate(sound: Sound) -> int:
    return 22050 if sound.rate >= 22050 else 11025


def default_bits(sound: Sound) -> int:
    return 8 if sound.bits == 8 and not sound.is_float else 16


def convert(data: bytes, rate: int | None = None, bits: int | None = None) -> bytes:
    """Any readable WAV as the plain Palm form (mono PCM at `rate` Hz, `bits` bits).

    Without `rate`/`bits` the nearest allowed values are used. A sound already
    in the target form keeps its samples exactly.
    """
    sound = read_wav(data)
    rate = default_rate(sound) if rate is None else rate
    bits = default_bits(sound) if bits is None else bits
    if rate not in RATES:
        raise SoundError(f"sound rate {rate} Hz: use 11025 or 22050")
    if bits not in BITS:
        raise SoundError(f"sound bits {bits}: use 8 or 16")
    if sound.seconds > MAX_SECONDS:
        raise SoundError(f"sound lasts {sound.seconds:.0f} s; at most {MAX_SECONDS} s fit a plugin")
    if sound.frames * sound.channels > MAX_INPUT_SAMPLES:
        raise SoundError(
            f"{sound.frames} frames of {sound.channels} channels at {sound.rate} Hz is too much"
            f" to convert (at most {MAX_INPUT_SAMPLES} samples in all: shorten it or lower"
            " its rate)"
        )
    if sound.is_plain and sound.rate == rate and sound.bits == bits:
        return wav_bytes(sound.data, rate, bits)
    samples = resample(mono_samples(sound), sound.rate, rate)
    return wav_bytes(quantise(samples, bits), rate, bits)


def read_wave_resource(data: bytes) -> Sound:
    """A 'wave' resource's sound; SoundError if it is not a WAV Palm OS plays as is."""
    sound = read_wav(data)
    if not sound.is_plain:
        kind = "float" if sound.is_float else f"{sound.bits}-bit"
        raise SoundError(
            f"'wave' holds {kind} {sound.channels}-channel {sound.rate} Hz audio,"
            " not plain PCM mono 8/16-bit at 11025/22050 Hz"
        )
    return sound

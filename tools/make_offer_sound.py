"""Write driver_app/sounds/offer.wav: the short chime the driver app plays when an offer arrives.

Two rising tones (880 Hz then 1320 Hz, 0.18 s each with a 0.04 s gap), 16-bit mono at 22 050 Hz, with a short
fade in and out so the speaker does not click: about 18 KB, made with the standard library only (``wave``), so
the bundled file can be rebuilt and checked by anyone.

    python tools/make_offer_sound.py [OUT.wav]
"""

from __future__ import annotations

import math
import struct
import sys
import wave
from pathlib import Path

RATE = 22_050
TONES = ((880.0, 0.18), (0.0, 0.04), (1320.0, 0.18))  # (Hz, seconds); 0 Hz is silence
FADE_S = 0.015
VOLUME = 0.6
OUT = Path(__file__).resolve().parents[1] / "driver_app" / "sounds" / "offer.wav"


def samples() -> list[int]:
    out: list[int] = []
    for freq, seconds in TONES:
        n = int(RATE * seconds)
        fade = int(RATE * FADE_S)
        for i in range(n):
            envelope = min(1.0, i / fade, (n - 1 - i) / fade) if fade else 1.0
            value = math.sin(2 * math.pi * freq * i / RATE) * envelope * VOLUME if freq else 0.0
            out.append(int(value * 32767))
    return out


def write(path: Path = OUT) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    with wave.open(str(path), "wb") as wav:
        wav.setnchannels(1)
        wav.setsampwidth(2)
        wav.setframerate(RATE)
        wav.writeframes(b"".join(struct.pack("<h", s) for s in samples()))
    return path


if __name__ == "__main__":
    print(write(Path(sys.argv[1]) if len(sys.argv) > 1 else OUT))

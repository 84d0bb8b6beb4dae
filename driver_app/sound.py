"""The offer's sound and vibration, behind one small facade the offer view-model asks (``OfferSound.offer``).

:class:`KivySound` plays the bundled ``sounds/offer.wav`` (made by ``tools/make_offer_sound.py``) through Kivy's
``SoundLoader`` -- the same call on the desktop and on Android -- and vibrates through ``plyer`` where the
platform has a vibrator. Either may be missing (no audio provider, a desktop without a vibrator; a Linux server
without ``/dev/snd`` is not even tried): the offer shows all the same, and ``played`` / ``vibrated`` say what
happened. :class:`RecordingSound` only counts the requests (tests, headless sessions).
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any, Callable, Optional, Protocol

log = logging.getLogger(__name__)

OFFER_WAV = Path(__file__).resolve().parent / "sounds" / "offer.wav"
VIBRATE_PATTERN = [0, 0.6, 0.3, 0.6, 0.3, 0.6]  # seconds: three pulses


class OfferSound(Protocol):
    def offer(self) -> None:
        """An offer arrived: ring (and vibrate where the platform allows)."""


class RecordingSound:
    """Counts the requests; makes no sound."""

    def __init__(self) -> None:
        self.requests = 0

    def offer(self) -> None:
        self.requests += 1


def _plyer_vibrate(pattern: list[float]) -> None:
    from plyer import vibrator

    vibrator.pattern(pattern)


def _no_sound_card() -> bool:
    """A Linux machine without ``/dev/snd`` (a server under Xvfb): nothing to play on, and ALSA would print a screen
    of errors trying. Android has no ``/dev/snd`` for apps either, but plays through its own mixer."""
    import os
    import sys

    android = "ANDROID_ARGUMENT" in os.environ or "ANDROID_PRIVATE" in os.environ
    return sys.platform.startswith("linux") and not android and not os.path.exists("/dev/snd")


def _kivy_load(path: str) -> Any:
    if _no_sound_card():
        return None
    from kivy.core.audio import SoundLoader

    return SoundLoader.load(path)


class KivySound:
    """The bundled WAV through ``SoundLoader`` (loaded once, on the first offer) and ``plyer``'s vibrator."""

    def __init__(self, path: Path = OFFER_WAV, load: Callable[[str], Any] = _kivy_load,
                 vibrate: Optional[Callable[[list[float]], None]] = _plyer_vibrate):
        self.path = path
        self._load_fn = load
        self._vibrate_fn = vibrate
        self._sound: Any = None
        self._unavailable = False
        self.requests = self.played = self.vibrated = 0

    def _sound_once(self) -> Any:
        if self._sound is None and not self._unavailable:
            try:
                self._sound = self._load_fn(str(self.path))
            except Exception:  # no audio provider on this machine: the offer still shows
                self._sound = None
            self._unavailable = self._sound is None
        return self._sound

    @property
    def loaded(self) -> bool:
        return self._sound_once() is not None

    def offer(self) -> None:
        self.requests += 1
        sound = self._sound_once()
        if sound is not None:
            sound.stop()  # a second offer while the first still rings starts it again
            sound.play()
            self.played += 1
        if self._vibrate_fn is not None:
            try:
                self._vibrate_fn(VIBRATE_PATTERN)
                self.vibrated += 1
            except Exception as exc:  # NotImplementedError on a desktop, no vibrator on the phone
                log.debug("no vibration: %s", exc)

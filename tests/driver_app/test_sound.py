"""An offer rings: the offer view-model asks the sound facade (driver_app/sound.py), which plays the bundled WAV
through Kivy's SoundLoader and vibrates through plyer where the platform allows."""

import wave

from driver_app.clients import FakeDispatch
from driver_app.session import demo_offer
from driver_app.sound import OFFER_WAV, VIBRATE_PATTERN, KivySound, RecordingSound
from driver_app.viewmodels import FlagViewModel, OfferViewModel


class FakeSound:
    def __init__(self):
        self.played, self.stopped = 0, 0

    def play(self):
        self.played += 1

    def stop(self):
        self.stopped += 1


def offer_vm(clock, sound):
    flag = FlagViewModel(clock, frozenset(), dispatch=FakeDispatch())
    flag.go_free()
    return OfferViewModel(FakeDispatch(), flag, clock, sound=sound)


def test_an_offer_asks_the_facade_once_and_the_same_offer_again_is_silent(clock):
    sound = RecordingSound()
    vm = offer_vm(clock, sound)
    offer = dict(demo_offer(clock), offer_id=7)
    vm.on_message(offer)
    vm.on_message(offer)  # the snapshot after a reconnection repeats it
    assert vm.active and sound.requests == 1


def test_the_kivy_facade_plays_the_bundled_wav_and_vibrates_where_it_can(clock):
    loaded, vibrations, played = [], [], FakeSound()
    sound = KivySound(load=lambda path: loaded.append(path) or played, vibrate=vibrations.append)
    vm = offer_vm(clock, sound)
    vm.on_message(dict(demo_offer(clock), offer_id=7))
    vm.decline()
    vm.on_message(dict(demo_offer(clock), offer_id=8))
    assert loaded == [str(OFFER_WAV)] and played.played == 2 and sound.played == 2  # loaded once
    assert vibrations == [VIBRATE_PATTERN, VIBRATE_PATTERN] and sound.vibrated == 2


def test_no_audio_provider_and_no_vibrator_still_show_the_offer(clock):
    def no_vibrator(_pattern):
        raise NotImplementedError  # plyer on a desktop

    sound = KivySound(load=lambda path: None, vibrate=no_vibrator)
    vm = offer_vm(clock, sound)
    vm.on_message(dict(demo_offer(clock), offer_id=7))
    assert vm.active and sound.requests == 1 and sound.played == 0 and sound.vibrated == 0 and not sound.loaded


def test_the_bundled_sound_is_a_short_wav_the_tool_rebuilds_byte_for_byte(tmp_path):
    from tools.make_offer_sound import write

    with wave.open(str(OFFER_WAV)) as wav:
        seconds = wav.getnframes() / wav.getframerate()
        assert wav.getnchannels() == 1 and wav.getsampwidth() == 2 and 0.2 < seconds < 1.0
    assert write(tmp_path / "offer.wav").read_bytes() == OFFER_WAV.read_bytes()

"""The caller's voice: all eight characters, in order, at the same pace, written to a real audio file
by espeak-ng (Debian package ``espeak-ng``; ``sox`` measures the file independently)."""

from __future__ import annotations

import shutil
import subprocess
import wave

import pytest

from ludoteca.cards import load
from ludoteca.companion.app.voice import Caller, EspeakVoice, SilentVoice, platform_voice, render_calls
from ludoteca.companion.engine.caller import SLOT_S, calls, schedule

DATA = load(games=("ciudadelas",))["ciudadelas"]
needs_espeak = pytest.mark.skipif(shutil.which("espeak-ng") is None,
                                  reason="espeak-ng is not installed (apt-get install espeak-ng)")


def test_every_character_is_called_in_number_order_in_both_languages():
    assert calls(DATA, "es") == ["Uno: Asesino.", "Dos: Ladrón.", "Tres: Mago.", "Cuatro: Rey.",
                                 "Cinco: Obispo.", "Seis: Mercader.", "Siete: Arquitecto.", "Ocho: Condotiero."]
    assert calls(DATA, "en")[0] == "One: Assassin." and calls(DATA, "en")[7] == "Eight: Warlord."
    assert [t for t, _ in schedule(calls(DATA, "es"))] == [i * SLOT_S for i in range(8)]


class Recorder(SilentVoice):
    def __init__(self):
        self.said: list[str] = []

    def speak(self, text: str) -> None:
        self.said.append(text)


def test_the_caller_calls_all_eight_at_the_same_pace_whoever_chose():
    pending: list[tuple[float, object]] = []
    voice = Recorder()
    caller = Caller(voice, calls(DATA, "es"), SLOT_S, schedule_once=lambda cb, delay: pending.append((delay, cb)))
    caller.start()
    assert [d for d, _ in pending] == [0.0, 4.0, 8.0, 12.0, 16.0, 20.0, 24.0, 28.0]
    for _, callback in sorted(pending, key=lambda p: p[0]):
        callback(0)
    assert voice.said == calls(DATA, "es") and not caller.running


def test_stopping_cancels_the_rest():
    pending = []
    voice = Recorder()
    caller = Caller(voice, calls(DATA, "en"), SLOT_S, schedule_once=lambda cb, delay: pending.append(cb))
    caller.start()
    pending[0](0)
    caller.stop()
    for cb in pending[1:]:
        cb(0)
    assert voice.said == ["One: Assassin."]


def test_no_espeak_means_silence_with_a_notice(monkeypatch):
    monkeypatch.setenv("PATH", "/nonexistent")
    voice = platform_voice("es", platform="linux")
    assert isinstance(voice, SilentVoice) and not voice.available
    assert "espeak-ng" in voice.notice["es"] and "espeak-ng" in voice.notice["en"]


def _frames(path) -> tuple[bytes, int, int]:
    with wave.open(str(path), "rb") as w:
        return w.readframes(w.getnframes()), w.getframerate(), w.getsampwidth() * w.getnchannels()


@needs_espeak
@pytest.mark.parametrize("lang", ["es", "en"])
def test_espeak_writes_the_eight_calls_in_order_with_the_same_timing(tmp_path, lang):
    lines = calls(DATA, lang)
    voice = EspeakVoice(lang)
    out = render_calls(lines, tmp_path / "calls.wav", voice, SLOT_S)
    audio, rate, width = _frames(out)
    assert len(audio) // width == int(8 * SLOT_S * rate)  # 32 s: eight equal slots
    if shutil.which("soxi"):
        seconds = float(subprocess.run(["soxi", "-D", str(out)], capture_output=True, text=True).stdout)
        assert abs(seconds - 8 * SLOT_S) < 0.01
    slot = int(SLOT_S * rate) * width
    for i, line in enumerate(lines):
        alone, _, _ = _frames(voice.render(line, tmp_path / f"alone{i}.wav"))
        piece = audio[i * slot:(i + 1) * slot]
        assert piece[:len(alone)] == alone, f"slot {i + 1} does not hold '{line}'"
        assert piece[len(alone):] == b"\0" * (slot - len(alone))  # then silence until the next call
        assert any(alone), f"'{line}' is silent"

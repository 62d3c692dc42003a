"""The caller's voice on a desktop: the calls in both languages, espeak-ng's real audio (Debian
package ``espeak-ng``; ``sox`` measures it independently), and a visible notice when espeak-ng is
missing or has no sound device to speak on (it still exits 0 then)."""

from __future__ import annotations

import shutil
import subprocess
import threading
import wave

import pytest

from ludoteca.cards import load
from ludoteca.companion.app.platform import (NO_ESPEAK, NO_SOUND, DesktopPlatform, EspeakSpeech,
                                             SilentSpeech)
from ludoteca.companion.engine.caller import call_line, calls

DATA = load(games=("ciudadelas",))["ciudadelas"]
needs_espeak = pytest.mark.skipif(shutil.which("espeak-ng") is None,
                                  reason="espeak-ng is not installed (apt-get install espeak-ng)")


def test_every_character_is_called_in_number_order_in_both_languages():
    assert calls(DATA, "es") == ["Uno: Asesino.", "Dos: Ladrón.", "Tres: Mago.", "Cuatro: Rey.",
                                 "Cinco: Obispo.", "Seis: Mercader.", "Siete: Arquitecto.", "Ocho: Condotiero."]
    assert call_line(DATA, 1, "en") == "One: Assassin." and call_line(DATA, 8, "en") == "Eight: Warlord."


def test_no_espeak_means_silence_with_a_notice(monkeypatch, tmp_path):
    monkeypatch.setenv("PATH", "/nonexistent")
    voice = DesktopPlatform(tmp_path).speech("es")
    assert isinstance(voice, SilentSpeech) and voice.notice == NO_ESPEAK
    assert "espeak-ng" in voice.notice["es"] and "espeak-ng" in voice.notice["en"]


def _fake_espeak(tmp_path, stderr: str, code: int):
    script = tmp_path / "espeak-ng"
    script.write_text(f"#!/bin/sh\nprintf '%s\\n' '{stderr}' >&2\nexit {code}\n", "utf-8")
    script.chmod(0o755)
    return script


@pytest.mark.parametrize("stderr, code", [
    ("ALSA lib pcm.c:2666:(snd_pcm_open_noupdate) Unknown PCM default", 0),  # what a machine without sound gets
    ("", 1),
])
def test_a_voice_that_cannot_be_heard_says_so_without_waiting(tmp_path, stderr, code):
    told = threading.Event()
    seen: list[dict] = []
    voice = EspeakSpeech("es", binary=str(_fake_espeak(tmp_path, stderr, code)))
    voice.on_trouble = lambda notice: (seen.append(notice), told.set())
    voice.say("Uno: Asesino.")      # returns at once; a thread watches the program
    assert told.wait(10), "no notice"
    assert seen == [NO_SOUND] and voice.notice == NO_SOUND


def test_a_voice_that_speaks_gives_no_notice(tmp_path):
    voice = EspeakSpeech("es", binary=str(_fake_espeak(tmp_path, "", 0)))
    seen: list[dict] = []
    voice.on_trouble = seen.append
    voice.say("Uno: Asesino.")
    voice.watcher.join(10)
    assert not voice.watcher.is_alive()
    assert seen == [] and voice.notice is None


def _frames(path) -> tuple[bytes, int, int]:
    with wave.open(str(path), "rb") as w:
        return w.readframes(w.getnframes()), w.getframerate(), w.getsampwidth() * w.getnchannels()


@needs_espeak
@pytest.mark.parametrize("lang", ["es", "en"])
def test_espeak_says_each_call_in_the_apps_language(tmp_path, lang):
    for number in (1, 8):
        line = call_line(DATA, number, lang)
        out = EspeakSpeech(lang).render(line, tmp_path / f"call{number}.wav")
        audio, rate, width = _frames(out)
        seconds = len(audio) / width / rate
        assert any(audio) and 0.5 < seconds < 4, (line, seconds)
        if shutil.which("soxi"):
            measured = float(subprocess.run(["soxi", "-D", str(out)], capture_output=True, text=True).stdout)
            assert abs(measured - seconds) < 0.01

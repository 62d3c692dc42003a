"""The caller's voice: speak the Ciudadelas calls on the platform at hand.

Android uses the system's text-to-speech (plyer); a desktop uses ``espeak-ng`` when it is installed;
otherwise the caller stays silent and says so (:attr:`Voice.notice`).  :class:`Caller` runs the
script of :mod:`companion.engine.caller`: one call every ``slot_s`` seconds, all eight of them.
Nothing here imports Kivy at module level, so the audio can be tested without a window.
"""

from __future__ import annotations

import io
import shutil
import subprocess
import tempfile
import wave
from pathlib import Path
from typing import Any, Callable

from ludoteca.atomic import write_bytes

#: espeak-ng voices per app language.
ESPEAK_VOICES = {"es": "es", "en": "en"}


class Voice:
    """Something that can say a sentence; ``available`` False means silent."""

    name = "silent"
    available = False
    notice: dict[str, str] | None = None

    def speak(self, text: str) -> None:
        """Say ``text`` without waiting for it to finish."""

    def stop(self) -> None:
        """Stop speaking (what is being said may finish)."""


class SilentVoice(Voice):
    """No speech on this machine: calls are shown, not said."""

    notice = {"es": "Sin voz: instala espeak-ng para oír las llamadas (se muestran en pantalla).",
              "en": "No voice: install espeak-ng to hear the calls (they are shown on screen)."}


class EspeakVoice(Voice):
    """Desktop speech through the ``espeak-ng`` program."""

    name = "espeak-ng"
    available = True

    def __init__(self, lang: str = "es", binary: str | None = None):
        self.binary = binary or shutil.which("espeak-ng") or "espeak-ng"
        self.voice = ESPEAK_VOICES.get(lang, "es")
        self._procs: list[subprocess.Popen] = []

    def speak(self, text: str) -> None:
        """Start ``espeak-ng`` on ``text`` in the background."""
        self._procs = [p for p in self._procs if p.poll() is None]
        self._procs.append(subprocess.Popen([self.binary, "-v", self.voice, text],
                                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))

    def stop(self) -> None:
        """Stop the calls still being said."""
        for proc in self._procs:
            if proc.poll() is None:
                proc.terminate()
        self._procs = []

    def render(self, text: str, path: Path) -> Path:
        """Write ``text`` as a WAV file (what the speaker would say)."""
        subprocess.run([self.binary, "-v", self.voice, "-w", str(path), text], check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, timeout=60)
        return path


class AndroidVoice(Voice):  # pragma: no cover - runs only on a phone
    """The phone's text-to-speech through plyer."""

    name = "android"
    available = True

    def speak(self, text: str) -> None:
        """Hand ``text`` to the system's text-to-speech."""
        from plyer import tts  # type: ignore[import-not-found]

        tts.speak(text)


def platform_voice(lang: str, platform: str | None = None) -> Voice:
    """The voice of this platform: Android's TTS, espeak-ng on a desktop, else silence."""
    if platform is None:
        from kivy.utils import platform as kivy_platform

        platform = kivy_platform
    if platform == "android":
        try:
            import plyer  # noqa: F401  # type: ignore[import-not-found]
        except ImportError:
            return SilentVoice()
        return AndroidVoice()
    if shutil.which("espeak-ng"):
        return EspeakVoice(lang)
    return SilentVoice()


def render_calls(lines: list[str], path: Path, voice: EspeakVoice, slot_s: float) -> Path:
    """The whole calling as one WAV: call ``i`` starts at ``i * slot_s`` seconds, silence between,
    and the file lasts ``len(lines) * slot_s`` seconds (the same timing the app uses)."""
    path = Path(path)
    with tempfile.TemporaryDirectory(prefix="ludoteca-voice-") as tmp:
        clips = [voice.render(line, Path(tmp) / f"call{i}.wav") for i, line in enumerate(lines)]
        params, frames = None, []
        for clip in clips:
            with wave.open(str(clip), "rb") as src:
                if params is None:
                    params = src.getparams()
                frames.append(src.readframes(src.getnframes()))
        assert params is not None
        width = params.sampwidth * params.nchannels
        slot = int(round(slot_s * params.framerate))
        joined = io.BytesIO()
        with wave.open(joined, "wb") as out:
            out.setnchannels(params.nchannels)
            out.setsampwidth(params.sampwidth)
            out.setframerate(params.framerate)
            for i, data in enumerate(frames):
                if len(data) // width > slot:
                    raise ValueError(f"call {i + 1} ('{lines[i]}') lasts longer than its {slot_s} s slot")
                out.writeframes(data + b"\0" * ((slot - len(data) // width) * width))
        write_bytes(path, joined.getvalue())
    return path


class Caller:
    """Calls the lines one by one, ``slot_s`` seconds apart, on a scheduler
    (``schedule_once(callback, delay)``, Kivy's clock by default)."""

    def __init__(self, voice: Voice, lines: list[str], slot_s: float,
                 schedule_once: Callable[[Callable, float], Any] | None = None,
                 on_call: Callable[[int, str], None] | None = None):
        self.voice = voice
        self.lines = list(lines)
        self.slot_s = slot_s
        self.on_call = on_call
        self.index = -1
        self.running = False
        self._events: list[Any] = []
        if schedule_once is None:
            from kivy.clock import Clock

            schedule_once = Clock.schedule_once
        self._schedule_once = schedule_once

    def start(self) -> None:
        """Schedule every call from now: call ``i`` at ``i * slot_s`` seconds."""
        self.stop()
        self.running = True
        for i in range(len(self.lines)):
            self._events.append(self._schedule_once(lambda *_a, i=i: self._call(i), i * self.slot_s))

    def _call(self, i: int) -> None:
        if not self.running:
            return
        self.index = i
        self.voice.speak(self.lines[i])
        if self.on_call is not None:
            self.on_call(i, self.lines[i])
        if i == len(self.lines) - 1:
            self.running = False

    def stop(self) -> None:
        """Cancel the calls not yet made."""
        for event in self._events:
            cancel = getattr(event, "cancel", None)
            if cancel is not None:
                cancel()
        self._events = []
        self.running = False
        self.voice.stop()

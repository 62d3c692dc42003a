"""What differs on a phone: the caller's speech, files leaving through the share sheet, the camera,
and keeping the screen on.  The rest of the app only talks to a :class:`Platform`.

Every Android request is built as plain data first (:class:`Intent`, :func:`content_uri`,
:func:`speech_locale`) and then handed to Java by :class:`AndroidPlatform` through a small bridge
(:class:`Jnius`: pyjnius and python-for-android's ``android`` module), so the tests run that code
against a recording bridge and check what it sends.  **It has not run on a phone yet.**
:class:`DesktopPlatform` is the desktop double: espeak-ng speaks, shared files stay in a folder,
there is no camera, and every intent the phone would get is recorded in ``sent``.

Files leave as files: a content URI of python-for-android's FileProvider (``AUTHORITY``, paths in
``packaging/file_paths.xml``), never a ``file://`` path, which Android refuses from API 24 on.
Nothing here imports Kivy, so it can be tested without a window.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from collections.abc import Callable
from urllib.parse import quote

from ludoteca.atomic import write_text

#: The app's Android package (buildozer.spec: package.domain + "." + package.name).
PACKAGE = "org.ludoteca.ludoteca"
#: The FileProvider's authority (the manifest entry that packaging/p4a_hook.py adds).
AUTHORITY = PACKAGE + ".fileprovider"
#: FileProvider path names (packaging/file_paths.xml) -> folder under the app's cache folder.
PROVIDER_FOLDERS = {"shared": "shared", "photos": "photos"}

ACTION_SEND = "android.intent.action.SEND"
ACTION_IMAGE_CAPTURE = "android.media.action.IMAGE_CAPTURE"
ACTION_VIEW = "android.intent.action.VIEW"
EXTRA_STREAM = "android.intent.extra.STREAM"
EXTRA_SUBJECT = "android.intent.extra.SUBJECT"
EXTRA_TEXT = "android.intent.extra.TEXT"
EXTRA_OUTPUT = "output"  # MediaStore.EXTRA_OUTPUT
FLAG_GRANT_READ_URI_PERMISSION = 0x1
FLAG_GRANT_WRITE_URI_PERMISSION = 0x2
RESULT_OK = -1
REQUEST_PHOTO = 0x5CA9
#: TextToSpeech: onInit's SUCCESS, speak()'s QUEUE_FLUSH, setLanguage()'s refusals (below 0).
TTS_SUCCESS, QUEUE_FLUSH = 0, 0
#: The voice of each app language: (language, country) of java.util.Locale.
LOCALES = {"es": ("es", "ES"), "en": ("en", "GB")}
#: The MIME type a shared file is offered as, by its ending.
MIME_TYPES = {"csv": "text/csv", "json": "application/json", "bgsplay": "application/json",
              "txt": "text/plain", "jpg": "image/jpeg", "png": "image/png"}

NO_ESPEAK = {"es": "Sin voz: instala espeak-ng para oír las llamadas (se muestran en pantalla).",
             "en": "No voice: install espeak-ng to hear the calls (they are shown on screen)."}
NO_SOUND = {"es": "Sin sonido: la voz no pudo hablar (¿hay altavoz?). Las llamadas se muestran en pantalla.",
            "en": "No sound: the voice could not speak (is there a speaker?). The calls are shown on screen."}
NO_LANGUAGE = {"es": "El teléfono no tiene voz en este idioma: las llamadas se muestran en pantalla.",
               "en": "The phone has no voice in this language: the calls are shown on screen."}


@dataclass
class Intent:
    """An Android intent as data: what the phone is asked to do."""

    action: str
    mime: str = ""
    extras: dict[str, str] = field(default_factory=dict)
    flags: int = 0
    clip: str = ""      # a content URI also set as the intent's ClipData (so the grant reaches it)
    data: str = ""      # the intent's data URI (a link to open)
    chooser: str = ""   # the share sheet's title ("" = start the intent itself)


def speech_locale(lang: str) -> tuple[str, str]:
    """The Locale the phone's voice speaks for an app language (Spanish of Spain by default)."""
    return LOCALES.get(lang, LOCALES["es"])


def mime_type(path: str | Path) -> str:
    """The MIME type of a file to share, from its ending."""
    return MIME_TYPES.get(Path(path).suffix.lstrip(".").lower(), "application/octet-stream")


def content_uri(path: str | Path, cache: str | Path) -> str:
    """The content URI the FileProvider gives a file under one of its folders of ``cache``.

    >>> content_uri("/c/shared/ludoteca 1.csv", "/c")
    'content://org.ludoteca.ludoteca.fileprovider/shared/ludoteca%201.csv'
    """
    path, cache = Path(path), Path(cache)
    for name, folder in PROVIDER_FOLDERS.items():
        root = cache / folder
        if path.is_relative_to(root):
            rest = "/".join(quote(part, safe="") for part in path.relative_to(root).parts)
            return f"content://{AUTHORITY}/{name}/{rest}"
    raise ValueError(f"{path} is outside the FileProvider's folders")


def share_intent(uri: str, mime: str, title: str) -> Intent:
    """The share sheet offering one file (readable by the app chosen, nothing more)."""
    return Intent(ACTION_SEND, mime, {EXTRA_STREAM: uri, EXTRA_SUBJECT: title},
                  FLAG_GRANT_READ_URI_PERMISSION, clip=uri, chooser=title)


def camera_intent(uri: str) -> Intent:
    """The camera app, asked to write its photo to ``uri``."""
    return Intent(ACTION_IMAGE_CAPTURE, "", {EXTRA_OUTPUT: uri},
                  FLAG_GRANT_READ_URI_PERMISSION | FLAG_GRANT_WRITE_URI_PERMISSION, clip=uri)


def link_intent(url: str) -> Intent:
    """The app that handles ``url`` (BG Stats for its push-plays link), else the browser."""
    return Intent(ACTION_VIEW, data=url)


# -- speech -----------------------------------------------------------------------------------------
class Speech:
    """Something that says the caller's calls without making the screen wait.

    ``notice`` ({es, en}) says why nothing is heard; ``on_trouble(notice)`` is called (from any
    thread) when speaking turns out to fail."""

    name = "silent"
    notice: dict[str, str] | None = None

    def __init__(self) -> None:
        self.on_trouble: Callable[[dict], None] | None = None

    def say(self, text: str) -> None:
        """Start saying ``text`` (what was being said stops)."""

    def stop(self) -> None:
        """Stop speaking."""

    def trouble(self, notice: dict[str, str]) -> None:
        """Remember why nothing is heard and tell the screen."""
        self.notice = notice
        if self.on_trouble is not None:
            self.on_trouble(notice)


class SilentSpeech(Speech):
    """No voice on this machine: calls are shown, not said."""

    notice = NO_ESPEAK


#: What espeak-ng (through ALSA or PulseAudio) writes when it has nowhere to play (it still exits 0).
AUDIO_TROUBLE = re.compile(r"error|cannot|unknown pcm|connection refused|no such", re.IGNORECASE)


class EspeakSpeech(Speech):
    """Desktop speech: ``espeak-ng`` in the background, watched by a thread for a missing sound device."""

    name = "espeak-ng"

    def __init__(self, lang: str = "es", binary: str | None = None):
        super().__init__()
        self.binary = binary or shutil.which("espeak-ng") or "espeak-ng"
        self.voice = lang if lang in LOCALES else "es"
        self._proc: subprocess.Popen | None = None
        self.watcher: threading.Thread | None = None
        self._lock = threading.Lock()

    def say(self, text: str) -> None:
        """Start ``espeak-ng`` on ``text``; a thread reads what it says on stderr."""
        self.stop()
        try:
            proc = subprocess.Popen([self.binary, "-v", self.voice, text], stdin=subprocess.DEVNULL,
                                    stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        except OSError:
            self.trouble(NO_ESPEAK)
            return
        with self._lock:
            self._proc = proc
        self.watcher = threading.Thread(target=self._watch, args=(proc,), daemon=True)
        self.watcher.start()

    def _watch(self, proc: subprocess.Popen) -> None:
        _out, err = proc.communicate()
        stopped = proc.returncode is not None and proc.returncode < 0
        if not stopped and (proc.returncode != 0 or AUDIO_TROUBLE.search(err.decode("utf-8", "replace"))):
            self.trouble(NO_SOUND)

    def stop(self) -> None:
        """Stop the call being said."""
        with self._lock:
            proc, self._proc = self._proc, None
        if proc is not None and proc.poll() is None:
            proc.terminate()

    def render(self, text: str, path: Path) -> Path:
        """Write ``text`` as a WAV file (what the speaker would say)."""
        subprocess.run([self.binary, "-v", self.voice, "-w", str(path), text], check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, timeout=60)
        return path


class AndroidSpeech(Speech):
    """The phone's TextToSpeech: one engine for the app's life, never waited for.

    The engine starts in the background; a call made before it is ready is kept (the latest
    only) and said when it is.  Its language is the app's (:func:`speech_locale`)."""

    name = "android"

    def __init__(self, java: Jnius, lang: str):
        super().__init__()
        self.java = java
        self.locale = speech_locale(lang)
        self.ready: bool | None = None      # None while the engine starts
        self.pending: str | None = None
        tts = java.autoclass("android.speech.tts.TextToSpeech")
        self._listener = java.init_listener(self._on_init)  # kept: Java holds only a weak reference
        self.engine = tts(java.activity(), self._listener)

    def _on_init(self, status: int) -> None:
        if status != TTS_SUCCESS:
            self.ready = False
            self.trouble(NO_SOUND)
            return
        self.ready = True
        self.set_lang(None)
        if self.pending is not None:
            text, self.pending = self.pending, None
            self.say(text)

    def set_lang(self, lang: str | None) -> None:
        """Speak in ``lang`` from now on (None: the language already chosen)."""
        if lang is not None:
            self.locale = speech_locale(lang)
        if self.ready:
            locale = self.java.autoclass("java.util.Locale")(*self.locale)
            if self.engine.setLanguage(locale) < 0:
                self.trouble(NO_LANGUAGE)

    def say(self, text: str) -> None:
        """Hand ``text`` to the engine (kept for later while it starts)."""
        if not self.ready:
            self.pending = text
            return
        self.engine.speak(text, QUEUE_FLUSH, None, "ludoteca-call")

    def stop(self) -> None:
        """Stop the call being said."""
        self.pending = None
        if self.ready:
            self.engine.stop()


# -- the platforms ----------------------------------------------------------------------------------
class Platform:
    """What the app asks of the device."""

    has_camera = False

    def keep_awake(self, on: bool) -> None:
        """Keep the screen on while the app is in front (or stop doing so)."""
        raise NotImplementedError

    def speech(self, lang: str) -> Speech:
        """The caller's voice in ``lang`` (the same engine every time)."""
        raise NotImplementedError

    def share_folder(self) -> Path:
        """Where files to share are written first."""
        raise NotImplementedError

    def share_file(self, path: Path, title: str) -> str:
        """Offer the file ``path`` (in :meth:`share_folder`) to other apps; say where it went."""
        raise NotImplementedError

    def share_text(self, title: str, text: str) -> str:
        """Offer a text to other apps; say where it went."""
        raise NotImplementedError

    def photo_folder(self) -> Path:
        """Where the camera writes the photos it takes for the app."""
        raise NotImplementedError

    def open_link(self, url: str) -> str:
        """Open a link in the app that handles it; say where it went."""
        raise NotImplementedError

    def picture_folder(self) -> Path:
        """Where a file picker for photos starts: the pictures folder, else home."""
        return Path.home()

    def take_photo(self, path: Path, done: Callable[[str], None]) -> bool:
        """Ask the camera for a photo written to ``path``; ``done(path)`` once it is there.
        False when there is no camera."""
        return False


class DesktopPlatform(Platform):
    """The desktop double: espeak-ng, a folder for shared files, no camera; it records in ``sent``
    every intent a phone would have been sent."""

    def __init__(self, folder: Path | None = None):
        self.folder = Path(folder) if folder else Path(tempfile.gettempdir()) / "ludoteca-shared"
        self.awake = False
        self.shared: list[tuple[str, str]] = []
        self.sent: list[Intent] = []
        self._speech: Speech | None = None

    def keep_awake(self, on: bool) -> None:
        """Remember the wish (a computer's screen is left alone)."""
        self.awake = bool(on)

    def speech(self, lang: str) -> Speech:
        """espeak-ng when installed, else silence with its notice; one per platform."""
        if self._speech is None:
            self._speech = EspeakSpeech(lang) if shutil.which("espeak-ng") else SilentSpeech()
        elif isinstance(self._speech, EspeakSpeech):
            self._speech.voice = lang if lang in LOCALES else "es"
        return self._speech

    def share_folder(self) -> Path:
        """The provider's ``shared`` folder under this double's folder."""
        folder = self.folder / PROVIDER_FOLDERS["shared"]
        folder.mkdir(parents=True, exist_ok=True)
        return folder

    def photo_folder(self) -> Path:
        folder = self.folder / PROVIDER_FOLDERS["photos"]
        folder.mkdir(parents=True, exist_ok=True)
        return folder

    def share_file(self, path: Path, title: str) -> str:
        """Record the share sheet a phone would open; the file stays where it is."""
        path = Path(path)
        self.shared.append((path.name, path.read_text("utf-8")))
        self.sent.append(share_intent(content_uri(path, self.folder), mime_type(path), title))
        return str(path)

    def share_text(self, title: str, text: str) -> str:
        """Write ``text`` to a new file in the shared folder (atomically); return its path."""
        self.shared.append((title, text))
        safe = "".join(c if c.isalnum() else "-" for c in title.lower()).strip("-") or "ludoteca"
        path = self.share_folder() / f"{safe}-{time.strftime('%Y%m%d-%H%M%S')}.txt"
        write_text(path, text)
        return str(path)

    def open_link(self, url: str) -> str:
        """Record the intent a phone would get and keep the link in a file of the shared folder."""
        self.sent.append(link_intent(url))
        path = self.share_folder() / "ludoteca-link.txt"
        write_text(path, url + "\n")
        return str(path)

    def picture_folder(self) -> Path:
        """The desktop's pictures folder (XDG's, in the user's language), else ~/Pictures, else home."""
        home = Path.home()
        dirs = home / ".config" / "user-dirs.dirs"
        found = None
        try:
            for line in dirs.read_text("utf-8").splitlines():
                if line.startswith("XDG_PICTURES_DIR="):
                    found = Path(line.split("=", 1)[1].strip().strip('"').replace("$HOME", str(home)))
        except (OSError, UnicodeError):
            pass
        for folder in (found, home / "Pictures", home / "Imágenes", home / "Images"):
            if folder is not None and folder.is_dir() and folder != home:
                return folder
        return home

    def take_photo(self, path: Path, done: Callable[[str], None]) -> bool:
        """No camera on a desktop: record the intent a phone would get and say no."""
        self.sent.append(camera_intent(content_uri(path, self.folder)))
        return False


class Jnius:  # pragma: no cover - runs only on a phone
    """The bridge to Java: pyjnius and python-for-android's ``android`` module."""

    def autoclass(self, name: str) -> Any:
        from jnius import autoclass  # type: ignore[import-not-found]

        return autoclass(name)

    def cast(self, name: str, obj: Any) -> Any:
        from jnius import cast  # type: ignore[import-not-found]

        return cast(name, obj)

    def activity(self) -> Any:
        return self.autoclass("org.kivy.android.PythonActivity").mActivity

    def on_ui_thread(self, fn: Callable[[], None]) -> None:
        from android.runnable import run_on_ui_thread  # type: ignore[import-not-found]

        run_on_ui_thread(fn)()

    def on_activity_result(self, callback: Callable[[int, int, Any], None]) -> None:
        from android import activity  # type: ignore[import-not-found]

        activity.bind(on_activity_result=callback)

    def init_listener(self, callback: Callable[[int], None]) -> Any:
        from jnius import PythonJavaClass, java_method  # type: ignore[import-not-found]

        class OnInit(PythonJavaClass):
            __javainterfaces__ = ["android/speech/tts/TextToSpeech$OnInitListener"]
            __javacontext__ = "app"

            @java_method("(I)V")
            def onInit(self, status: int) -> None:
                callback(status)

        return OnInit()


class AndroidPlatform(Platform):
    """Android through ``java`` (a :class:`Jnius`, or a recording stand-in in the tests)."""

    has_camera = True

    def __init__(self, java: Any = None):
        self.java = java if java is not None else Jnius()
        self._speech: AndroidSpeech | None = None
        self._photo: tuple[Path, Callable[[str], None]] | None = None
        self._listening = False

    def _cache(self) -> Path:
        return Path(str(self.java.activity().getCacheDir().getAbsolutePath()))

    def keep_awake(self, on: bool) -> None:
        """Set or clear the window's keep-screen-on flag on the UI thread."""
        flag = self.java.autoclass("android.view.WindowManager$LayoutParams").FLAG_KEEP_SCREEN_ON
        window = self.java.activity().getWindow()
        self.java.on_ui_thread(lambda: window.addFlags(flag) if on else window.clearFlags(flag))

    def speech(self, lang: str) -> Speech:
        """The one TextToSpeech engine, speaking ``lang``."""
        if self._speech is None:
            self._speech = AndroidSpeech(self.java, lang)
        else:
            self._speech.set_lang(lang)
        return self._speech

    def share_folder(self) -> Path:
        folder = self._cache() / PROVIDER_FOLDERS["shared"]
        folder.mkdir(parents=True, exist_ok=True)
        return folder

    def photo_folder(self) -> Path:
        folder = self._cache() / PROVIDER_FOLDERS["photos"]
        folder.mkdir(parents=True, exist_ok=True)
        return folder

    def uri(self, path: Path) -> str:
        """The FileProvider's content URI of a file in one of its folders."""
        provider = self.java.autoclass("androidx.core.content.FileProvider")
        file = self.java.autoclass("java.io.File")(str(path))
        return str(provider.getUriForFile(self.java.activity(), AUTHORITY, file).toString())

    def start(self, intent: Intent, request: int | None = None) -> Any:
        """Send an intent (in the share sheet when it has a chooser title)."""
        j = self.java
        jintent = j.autoclass("android.content.Intent")(intent.action)
        uri_cls = j.autoclass("android.net.Uri")
        if intent.data:
            jintent.setData(uri_cls.parse(intent.data))
        if intent.mime:
            jintent.setType(intent.mime)
        for key, value in intent.extras.items():
            if value.startswith("content://"):
                jintent.putExtra(key, j.cast("android.os.Parcelable", uri_cls.parse(value)))
            else:
                jintent.putExtra(key, j.cast("java.lang.CharSequence", j.autoclass("java.lang.String")(value)))
        if intent.clip:
            clip = j.autoclass("android.content.ClipData").newRawUri("", uri_cls.parse(intent.clip))
            jintent.setClipData(clip)
        if intent.flags:
            jintent.addFlags(intent.flags)
        if intent.chooser:
            title = j.cast("java.lang.CharSequence", j.autoclass("java.lang.String")(intent.chooser))
            jintent = j.autoclass("android.content.Intent").createChooser(jintent, title)
        if request is None:
            j.activity().startActivity(jintent)
        else:
            j.activity().startActivityForResult(jintent, request)
        return jintent

    def share_file(self, path: Path, title: str) -> str:
        """Open the share sheet with the file itself (a content URI the chosen app may read)."""
        self.start(share_intent(self.uri(path), mime_type(path), title))
        return "android"

    def share_text(self, title: str, text: str) -> str:
        """Open the share sheet with a text."""
        self.start(Intent(ACTION_SEND, "text/plain", {EXTRA_SUBJECT: title, EXTRA_TEXT: text}, chooser=title))
        return "android"

    def picture_folder(self) -> Path:
        """The phone's camera folder (DCIM) when it can be read, else the app's own photos."""
        dcim = Path(str(self.java.autoclass("android.os.Environment").getExternalStoragePublicDirectory(
            "DCIM").getAbsolutePath()))
        try:
            readable = dcim.is_dir() and any(dcim.iterdir())
        except OSError:  # no permission to read shared storage
            readable = False
        return dcim if readable else self.photo_folder()

    def open_link(self, url: str) -> str:
        """Hand a link to the app that opens it (BG Stats' import dialog for its push-plays link)."""
        self.start(link_intent(url))
        return "android"

    def take_photo(self, path: Path, done: Callable[[str], None]) -> bool:
        """The camera app writes to the file's content URI; ``done(path)`` when it says it did."""
        if not self._listening:
            self.java.on_activity_result(self._result)
            self._listening = True
        self._photo = (Path(path), done)
        self.start(camera_intent(self.uri(path)), REQUEST_PHOTO)
        return True

    def _result(self, request: int, result: int, _data: Any) -> None:
        if request != REQUEST_PHOTO or self._photo is None:
            return
        path, done = self._photo
        self._photo = None
        if result == RESULT_OK and path.exists() and path.stat().st_size > 0:
            done(str(path))


def platform_services(name: str | None = None) -> Platform:
    """The platform the app runs on (Kivy's ``platform`` when ``name`` is None)."""
    if name is None:
        from kivy.utils import platform as kivy_platform
        name = kivy_platform
    return AndroidPlatform() if name == "android" else DesktopPlatform()

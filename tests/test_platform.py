"""The Android side of the app (companion/app/platform.py) run against a recording stand-in for
pyjnius: what it sends (intents, content URIs, the voice's locale), one speech engine that never
makes the screen wait, and the packaging that makes the FileProvider exist (buildozer.spec, the
provider paths, the python-for-android hook).  Not run on a phone: see the README."""

from __future__ import annotations

import importlib.util
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from androidspec import read_spec
from ludoteca.companion.app import platform as plat

ROOT = Path(__file__).resolve().parent.parent


class JavaObject:
    """Any Java object or class: every call on it is written down in the bridge's ``calls``."""

    def __init__(self, bridge: Bridge, name: str, args: tuple = ()):
        self._bridge, self._name, self._args = bridge, name, args

    def __call__(self, *args):
        self._bridge.calls.append((self._name, "new", args))
        return JavaObject(self._bridge, self._name, args)

    def __getattr__(self, method: str):
        if method.isupper():  # a constant
            return f"{self._name}.{method}"

        def call(*args):
            self._bridge.calls.append((self._name, method, args))
            answer = self._bridge.answers.get((self._name, method))
            return answer(*args) if callable(answer) else answer if answer is not None \
                else JavaObject(self._bridge, f"{self._name}.{method}()", args)
        return call

    def __repr__(self) -> str:
        return f"<{self._name}{self._args}>"


class Bridge:
    """The :class:`platform.Jnius` interface, recording instead of calling Java."""

    def __init__(self, cache: Path):
        self.calls: list[tuple[str, str, tuple]] = []
        self.cache = cache
        self.listeners: list = []
        self.results: list = []
        self.answers: dict = {
            ("activity", "getCacheDir"): lambda: Cache(str(cache)),
            ("androidx.core.content.FileProvider", "getUriForFile"):
                lambda _ctx, authority, file: Uri(f"content://{authority}/by-provider/{Path(file._args[0]).name}"),
            ("android.speech.tts.TextToSpeech", "setLanguage"): lambda locale: 0,
        }

    def autoclass(self, name: str) -> JavaObject:
        return JavaObject(self, name)

    def cast(self, name: str, obj):
        return obj

    def activity(self) -> JavaObject:
        return JavaObject(self, "activity")

    def on_ui_thread(self, fn) -> None:
        self.calls.append(("ui", "run", ()))
        fn()

    def on_activity_result(self, callback) -> None:
        self.results.append(callback)

    def init_listener(self, callback):
        self.listeners.append(callback)
        return callback

    def named(self, name: str, method: str) -> list[tuple]:
        return [args for n, m, args in self.calls if n == name and m == method]


class Cache:
    def __init__(self, path: str):
        self.path = path

    def getAbsolutePath(self) -> str:
        return self.path


class Uri:
    def __init__(self, text: str):
        self.text = text

    def toString(self) -> str:
        return self.text


def test_a_file_is_shared_as_a_file_through_the_share_sheet(tmp_path):
    bridge = Bridge(tmp_path)
    phone = plat.AndroidPlatform(bridge)
    path = phone.share_folder() / "ludoteca-1.csv"
    path.write_text("a,b\n", "utf-8")
    assert path.parent == tmp_path / "shared"
    phone.share_file(path, "Exportar CSV")
    (_ctx, authority, file), = bridge.named("androidx.core.content.FileProvider", "getUriForFile")
    assert authority == plat.AUTHORITY and file._args == (str(path),)
    uri = f"content://{plat.AUTHORITY}/by-provider/ludoteca-1.csv"
    assert bridge.named("android.content.Intent", "new") == [(plat.ACTION_SEND,)]
    assert bridge.named("android.content.Intent", "setType") == [("text/csv",)]
    extras = dict(bridge.named("android.content.Intent", "putExtra"))
    assert extras[plat.EXTRA_STREAM]._args == (uri,) and not uri.startswith("file:")
    assert bridge.named("android.content.Intent", "addFlags") == [(plat.FLAG_GRANT_READ_URI_PERMISSION,)]
    assert bridge.named("android.content.ClipData", "newRawUri")[0][1]._args == (uri,)
    (_intent, title), = bridge.named("android.content.Intent", "createChooser")
    assert title._args == ("Exportar CSV",)
    assert len(bridge.named("activity", "startActivity")) == 1


def test_the_final_scores_are_shared_as_text(tmp_path):
    bridge = Bridge(tmp_path)
    plat.AndroidPlatform(bridge).share_text("Puntuación final", "1. Ana: 30")
    assert bridge.named("android.content.Intent", "setType") == [("text/plain",)]
    extras = {key: value._args for key, value in bridge.named("android.content.Intent", "putExtra")}
    assert extras == {plat.EXTRA_SUBJECT: ("Puntuación final",), plat.EXTRA_TEXT: ("1. Ana: 30",)}
    assert len(bridge.named("android.content.Intent", "createChooser")) == 1


def test_a_link_opens_in_the_app_that_handles_it(tmp_path):
    bridge = Bridge(tmp_path)
    link = "https://app.bgstatsapp.com/createPlay.html?data=%7B%7D"
    plat.AndroidPlatform(bridge).open_link(link)
    assert bridge.named("android.content.Intent", "new") == [(plat.ACTION_VIEW,)]
    (uri,), = bridge.named("android.content.Intent", "setData")
    assert uri._args == (link,) and len(bridge.named("activity", "startActivity")) == 1
    assert bridge.named("android.content.Intent", "createChooser") == []


def test_the_camera_writes_to_a_content_uri_and_the_photo_comes_back(tmp_path):
    bridge = Bridge(tmp_path)
    phone = plat.AndroidPlatform(bridge)
    target = phone.photo_folder() / "scan-Ana.jpg"
    got: list[str] = []
    assert phone.take_photo(target, got.append)
    assert bridge.named("android.content.Intent", "new") == [(plat.ACTION_IMAGE_CAPTURE,)]
    (key, uri), = bridge.named("android.content.Intent", "putExtra")
    assert key == plat.EXTRA_OUTPUT and uri._args == (f"content://{plat.AUTHORITY}/by-provider/scan-Ana.jpg",)
    assert bridge.named("android.content.Intent", "addFlags") == [
        (plat.FLAG_GRANT_READ_URI_PERMISSION | plat.FLAG_GRANT_WRITE_URI_PERMISSION,)]
    (_intent, request), = bridge.named("activity", "startActivityForResult")
    callback, = bridge.results
    callback(request, 0, None)                     # cancelled: nothing
    assert got == []
    phone.take_photo(target, got.append)
    target.write_bytes(b"\xff\xd8jpeg")
    callback(request, plat.RESULT_OK, None)
    assert got == [str(target)] and len(bridge.results) == 1   # listened to once


def test_one_speech_engine_in_the_apps_language_never_waited_for(tmp_path):
    bridge = Bridge(tmp_path)
    phone = plat.AndroidPlatform(bridge)
    voice = phone.speech("es")
    voice.say("Uno: Asesino.")                     # before the engine is ready: kept, not waited for
    assert bridge.named("android.speech.tts.TextToSpeech", "speak") == []
    on_init, = bridge.listeners
    on_init(plat.TTS_SUCCESS)
    assert bridge.named("java.util.Locale", "new") == [("es", "ES")]
    assert [args[0] for args in bridge.named("android.speech.tts.TextToSpeech", "speak")] == ["Uno: Asesino."]
    assert phone.speech("en") is voice              # the same engine, now in English
    assert bridge.named("java.util.Locale", "new")[-1] == ("en", "GB")
    assert len(bridge.named("android.speech.tts.TextToSpeech", "new")) == 1
    voice.say("Two: Thief.")
    assert bridge.named("android.speech.tts.TextToSpeech", "speak")[-1][:2] == ("Two: Thief.", plat.QUEUE_FLUSH)


def test_a_phone_without_the_language_or_an_engine_says_so(tmp_path):
    bridge = Bridge(tmp_path)
    bridge.answers[("android.speech.tts.TextToSpeech", "setLanguage")] = lambda locale: -2  # LANG_NOT_SUPPORTED
    voice = plat.AndroidPlatform(bridge).speech("es")
    seen: list[dict] = []
    voice.on_trouble = seen.append
    bridge.listeners[0](plat.TTS_SUCCESS)
    assert seen == [plat.NO_LANGUAGE]
    broken = plat.AndroidPlatform(Bridge(tmp_path))
    voice = broken.speech("es")
    voice.on_trouble = seen.append
    broken.java.listeners[0](-1)                    # ERROR
    voice.say("Uno: Asesino.")
    assert seen[-1] == plat.NO_SOUND and broken.java.named("android.speech.tts.TextToSpeech", "speak") == []


def test_keep_awake_sets_the_window_flag_on_the_ui_thread(tmp_path):
    bridge = Bridge(tmp_path)
    plat.AndroidPlatform(bridge).keep_awake(True)
    assert ("ui", "run", ()) in bridge.calls
    assert bridge.named("activity.getWindow()", "addFlags") == [
        ("android.view.WindowManager$LayoutParams.FLAG_KEEP_SCREEN_ON",)]


def test_the_desktop_double_records_what_a_phone_would_get(tmp_path):
    desk = plat.DesktopPlatform(tmp_path)
    path = desk.share_folder() / "ludoteca-7.bgsplay"
    path.write_text("{}", "utf-8")
    desk.share_file(path, "Exportar BGSTATS")
    intent, = desk.sent
    assert intent.extras[plat.EXTRA_STREAM] == f"content://{plat.AUTHORITY}/shared/ludoteca-7.bgsplay"
    assert intent.mime == "application/json" and intent.chooser == "Exportar BGSTATS"
    assert not desk.take_photo(desk.photo_folder() / "a.jpg", print)
    assert desk.sent[-1].extras[plat.EXTRA_OUTPUT] == f"content://{plat.AUTHORITY}/photos/a.jpg"
    with pytest.raises(ValueError):
        plat.content_uri(tmp_path / "elsewhere.csv", tmp_path)


def test_the_package_declares_the_provider_the_code_uses(tmp_path):
    app = read_spec()
    assert f"{app['package.domain']}.{app['package.name']}" == plat.PACKAGE
    paths = ET.parse(ROOT / app["android.res_xml"]).getroot()
    assert {p.get("name"): p.get("path").rstrip("/") for p in paths} == plat.PROVIDER_FOLDERS
    assert all(p.tag == "cache-path" for p in paths)
    assert app["android.enable_androidx"] == "True" and "androidx.core:core" in app["android.gradle_dependencies"]
    assert "plyer" not in app["requirements"]
    spec = importlib.util.spec_from_file_location("p4a_hook", ROOT / app["p4a.hook"])
    hook = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(hook)
    manifest = '<manifest><application android:label="x"><activity/></application></manifest>'
    once = hook.add_provider(manifest)
    assert hook.add_provider(once) == once
    provider = ET.fromstring(once.replace("android:", "")).find("application/provider")
    assert provider.get("authorities") == plat.AUTHORITY and provider.get("exported") == "false"
    assert provider.get("grantUriPermissions") == "true"
    assert provider.find("meta-data").get("resource") == "@xml/" + Path(app["android.res_xml"]).stem


def test_the_picture_picker_starts_in_the_pictures_folder(tmp_path, monkeypatch):
    home = tmp_path / "home"
    monkeypatch.setenv("HOME", str(home))
    home.mkdir()
    desk = plat.DesktopPlatform(tmp_path / "shared")
    assert desk.picture_folder() == home                      # nothing better: home
    (home / "Pictures").mkdir()
    assert desk.picture_folder() == home / "Pictures"
    (home / "Imágenes").mkdir()
    (home / ".config").mkdir()
    (home / ".config" / "user-dirs.dirs").write_text('XDG_PICTURES_DIR="$HOME/Imágenes"\n', "utf-8")
    assert desk.picture_folder() == home / "Imágenes"          # the desktop's own, in its language

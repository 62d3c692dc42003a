"""Drive the companion app in a real Kivy window (Xvfb when there is no display).

The app runs in this process and the driver steps Kivy's event loop by hand, so a test can
press the app's own widgets (found by their kv ``id`` or their ``wid``), read what they show and
save screenshots under ``tests/screenshots/<test>/``.

    with AppDriver(tmp_path, "test_name") as drv:
        drv.press("new_ciudadelas")
        drv.shot("players")

Import this module before anything imports Kivy: it sets ``KIVY_HOME`` to a temporary folder
(so tests never touch ``~/.kivy``) and starts ``Xvfb`` if ``DISPLAY`` is unset.
"""

from __future__ import annotations

import atexit
import sys
import os
import shutil
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Any
from collections.abc import Iterator

ROOT = Path(__file__).resolve().parent.parent
SHOTS = Path(__file__).resolve().parent / "screenshots"
WINDOW = (360, 640)

_KIVY_HOME = tempfile.mkdtemp(prefix="ludoteca-kivy-")
os.environ["KIVY_HOME"] = _KIVY_HOME
from ludoteca.companion.app import kivy_env  # noqa: E402  (no Kivy imported there)

kivy_env()  # as the app's own start does
os.environ.setdefault("KIVY_NO_FILELOG", "1")
atexit.register(shutil.rmtree, _KIVY_HOME, True)

_xvfb: subprocess.Popen | None = None


def ensure_display() -> None:
    """Start a private Xvfb (720x1280x24) when no X display is set."""
    global _xvfb
    if os.environ.get("DISPLAY") or _xvfb is not None:
        return
    if shutil.which("Xvfb") is None:
        raise RuntimeError("no DISPLAY and no Xvfb: install xvfb or run under a display")
    # each pytest-xdist worker (gw0, gw1, ...) looks in a range of its own: two workers starting at
    # once must not both take the first free number
    worker = os.environ.get("PYTEST_XDIST_WORKER", "gw0")
    first = 99 + 20 * int(worker[2:] or 0) if worker.startswith("gw") else 99
    for number in range(first, first + 20):
        if Path(f"/tmp/.X{number}-lock").exists() or Path(f"/tmp/.X11-unix/X{number}").exists():
            continue
        proc = subprocess.Popen(["Xvfb", f":{number}", "-screen", "0", "720x1280x24", "-nolisten", "tcp"],
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        for _ in range(100):
            if Path(f"/tmp/.X11-unix/X{number}").exists():
                break
            if proc.poll() is not None:
                break
            time.sleep(0.05)
        if proc.poll() is None:
            _xvfb = proc
            os.environ["DISPLAY"] = f":{number}"
            atexit.register(_stop_xvfb)
            return
    raise RuntimeError(f"could not start Xvfb on displays :{first} to :{first + 19}")


def _stop_xvfb() -> None:
    if _xvfb is not None and _xvfb.poll() is None:
        _xvfb.terminate()
        try:
            _xvfb.wait(5)
        except subprocess.TimeoutExpired:
            _xvfb.kill()


def configure_kivy(size: tuple[int, int] = WINDOW) -> None:
    """Window size in pixels (1 px = 1 dp at the desktop's 96 dpi) and mouse-only input."""
    ensure_display()
    from kivy.config import Config

    Config.set("graphics", "width", str(size[0]))
    Config.set("graphics", "height", str(size[1]))
    Config.set("graphics", "resizable", "1")
    for option in list(Config.options("input")) if Config.has_section("input") else []:
        if option != "mouse":
            Config.remove_option("input", option)
    Config.set("kivy", "exit_on_escape", "0")


def walk(widget) -> Iterator[Any]:
    """Every widget under ``widget`` (itself included)."""
    yield widget
    for child in list(widget.children):
        yield from walk(child)


class AppDriver:
    """One run of the app on a database and a settings folder under ``folder``."""

    def __init__(self, folder: Path, test: str, size: tuple[int, int] = WINDOW):
        self.folder = Path(folder)
        self.test = test
        self.size = size
        self.db = self.folder / "ludoteca.db"
        self.settings = self.folder / "settings.json"
        self.shared = self.folder / "shared"
        self.app = None
        self.shots: list[Path] = []

    # -- life cycle ---------------------------------------------------------------------------
    def start(self) -> AppDriver:
        configure_kivy(self.size)
        os.environ["LUDOTECA_DB"] = str(self.db)
        os.environ["LUDOTECA_SETTINGS"] = str(self.settings)
        os.environ.setdefault("LANGUAGE", "es")  # a first start follows the system language
        from kivy.core.window import Window

        from ludoteca.companion.app.main import LudotecaApp
        from ludoteca.companion.app.platform import DesktopPlatform

        Window.size = self.size
        self.app = LudotecaApp(db_path=str(self.db), settings_dir=self.settings,
                               platform=DesktopPlatform(self.shared))
        self.app._run_prepare()
        self.step(4)
        return self

    def stop(self) -> None:
        """Close the app as the platform would (on_stop), keeping the window for the next run."""
        if self.app is None:
            return
        from kivy.app import App
        from kivy.core.window import Window

        self.app.dispatch("on_stop")
        if self.app.root is not None and self.app.root.parent is Window:
            Window.remove_widget(self.app.root)
        App._running_app = None
        self.app = None
        self.step(1)

    def __enter__(self) -> AppDriver:
        return self.start()

    def __exit__(self, *exc: Any) -> None:
        self.stop()

    def step(self, frames: int = 3, draw: bool = False) -> None:
        """Run the event loop for a few frames: clock, input, layout; the window is drawn only when
        ``draw`` is set (a screenshot), since putting a frame on the screen is what costs (~90 ms at
        720x1280 under Xvfb's software GL) and nothing a test reads depends on it."""
        from kivy.base import EventLoop
        from kivy.clock import Clock
        from kivy.lang import Builder

        for _ in range(frames):
            if draw:
                EventLoop.idle()
                continue
            Clock.tick()
            EventLoop.dispatch_input()
            Builder.sync()
            Clock.tick_draw()
            Builder.sync()

    def resize(self, size: tuple[int, int]) -> None:
        from kivy.core.window import Window

        Window.size = size
        self.step(4)

    # -- looking -----------------------------------------------------------------------------
    @property
    def screen(self):
        return self.app.root.current_screen

    @property
    def state(self) -> dict:
        return self.app.state

    def widgets(self) -> Iterator[Any]:
        return walk(self.screen)

    def find(self, wid: str, missing_ok: bool = False):
        """The widget of the current screen whose ``wid`` or kv ``id`` is ``wid``."""
        for widget in self.widgets():
            if getattr(widget, "wid", None) == wid:
                return widget
        for widget in self.widgets():
            ids = getattr(widget, "ids", None)
            if ids and wid in ids and ids[wid] in set(self.widgets()):
                return ids[wid]
        if missing_ok:
            return None
        known = sorted({w.wid for w in self.widgets() if getattr(w, "wid", "")})
        raise LookupError(f"no widget '{wid}' on screen '{self.app.root.current}' (wids: {known})")

    def wids(self, prefix: str = "") -> list[str]:
        found = (getattr(w, "wid", "") or "" for w in self.widgets())
        return [wid for wid in found if wid and wid.startswith(prefix)]

    def text(self, wid: str) -> str:
        return self.find(wid).text

    def texts(self) -> str:
        """All the text shown on the current screen, one label per line."""
        from kivy.uix.label import Label

        return "\n".join(w.text for w in self.widgets() if isinstance(w, Label) and w.text)

    # -- acting -----------------------------------------------------------------------------
    def _into_view(self, widget: Any, frames: int) -> None:
        """Scroll the list holding ``widget`` (if it scrolls) so that the widget shows, then draw
        ``frames`` frames."""
        from kivy.uix.scrollview import ScrollView

        parent = widget.parent
        while parent is not None and not isinstance(parent, ScrollView) and parent.parent is not parent:
            parent = parent.parent
        if isinstance(parent, ScrollView) and parent.children and parent.children[0].height > parent.height:
            parent.scroll_to(widget, padding=0, animate=False)
            self.step(frames)

    def press(self, wid: str, frames: int = 2) -> Any:
        """Tap a button: scroll it into view, check it is enabled and on the window, release it."""

        widget = self.find(wid)
        if widget.disabled:
            raise AssertionError(f"'{wid}' is disabled on screen '{self.app.root.current}'")
        self._into_view(widget, 1)
        wx, wy = widget.to_window(*widget.center)
        from kivy.core.window import Window

        if not (0 <= wx <= Window.width and 0 <= wy <= Window.height):
            raise AssertionError(f"'{wid}' is outside the window at {wx:.0f},{wy:.0f}")
        from ludoteca.companion.app.widgets import hide_why

        hide_why()  # a finger's tap elsewhere takes away the note of a disabled button
        widget.dispatch("on_press")
        widget.state = "normal"
        widget.dispatch("on_release")
        self.step(frames)
        return widget

    def tap(self, wid: str, frames: int = 3) -> None:
        """Touch the widget where it is on the window, as a finger does (down, then up), through the
        window and any scrolling list: what a tap on a disabled button does is tested this way."""
        from kivy.tests.common import UnitTestTouch

        widget = self.find(wid)
        self._into_view(widget, 2)
        touch = UnitTestTouch(*widget.to_window(*widget.center))
        touch.touch_down()
        self.step(1)
        touch.touch_up()
        self.step(frames)

    def why_shown(self) -> str:
        """The text of the note shown on the window after a tap on a disabled button ('' when none)."""
        from kivy.core.window import Window

        return next((w.text for w in Window.children if getattr(w, "wid", "") == "why_bubble"), "")

    def press_first(self, prefix: str) -> int:
        """Tap the first enabled button whose ``wid`` starts with ``prefix`` (there must be one; a
        disabled one shows why the engine refuses it); return how many actions the tap stored."""
        options = [wid for wid in self.wids(prefix) if not self.find(wid).disabled]
        assert options, f"no enabled '{prefix}' button on screen '{self.app.root.current}'"
        seq = self.app.session.seq
        self.press(options[0])
        return self.app.session.seq - seq

    def type(self, wid: str, text: str) -> None:
        self.find(wid).text = text
        self.step(1)

    # -- checking -----------------------------------------------------------------------------
    def cut_texts(self, slack: float = 2.0) -> list[str]:
        """Labels of the current screen whose text does not fit in their box."""
        from kivy.uix.label import Label

        out = []
        for widget in self.widgets():
            if not isinstance(widget, Label) or not widget.text or widget.opacity == 0:
                continue
            if widget.width <= 1 or widget.height <= 1:
                continue
            tw, th = widget.texture_size
            if tw > widget.width + slack or th > widget.height + slack:
                out.append(f"{widget.__class__.__name__} {widget.text!r}: text {tw:.0f}x{th:.0f} "
                           f"in box {widget.width:.0f}x{widget.height:.0f}")
        return out

    def small_targets(self, minimum: float = 48.0) -> list[str]:
        """Buttons of the current screen smaller than ``minimum`` dp in either direction."""
        from kivy.metrics import dp
        from kivy.uix.behaviors import ButtonBehavior

        return [f"{getattr(w, 'wid', '') or w.text!r}: {w.width:.0f}x{w.height:.0f}"
                for w in self.widgets()
                if isinstance(w, ButtonBehavior) and w.opacity > 0
                and (w.width < dp(minimum) - 0.5 or w.height < dp(minimum) - 0.5)]

    def shot(self, name: str) -> Path:
        """Save what the window shows as ``tests/screenshots/<test>/<name>.png``."""
        from kivy.core.window import Window

        self.step(2)
        self.step(1, draw=True)
        folder = SHOTS / self.test
        folder.mkdir(parents=True, exist_ok=True)
        target = folder / f"{name}.png"
        made = Window.screenshot(name=str(folder / f".{name}.png"))
        os.replace(made, target)
        self.shots.append(target)
        return target


def new_game(drv: AppDriver, game: str, names: list[str]) -> None:
    """From the home screen: pick the game, type the names in seat order, start."""
    drv.press(f"new_{game}")
    assert drv.app.root.current == "players"
    while len(drv.find("rows").children) < len(names):
        drv.press("add")
    rows = drv.find("rows").children[::-1]
    for row, name in zip(rows, names):
        row.ids.name.text = name
    drv.step(2)
    drv.shot("players")
    drv.press("start")
    assert drv.app.root.current == game, drv.app.message


def foreign_texts(drv: AppDriver) -> list[str]:
    """Lines on the current screen that are one of the app's own strings in the other language (an
    English button inside a Spanish screen)."""
    from kivy.uix.label import Label

    from ludoteca.companion.app.strings import UI

    mine = 0 if drv.app.lang == "es" else 1
    other = {pair[1 - mine] for pair in UI.values()
             if "{" not in pair[1 - mine] and pair[0] != pair[1] and len(pair[1 - mine]) > 3} - \
        {pair[mine] for pair in UI.values()}
    return [line for w in drv.widgets() if isinstance(w, Label) and w.opacity > 0
            for line in w.text.splitlines() if line.strip() in other]


def both_languages(drv: AppDriver, name: str) -> None:
    """Screenshots of the screen as it is in the play's language and in the other one: in each,
    nothing cut off and no string of the other language; the play goes on in its own."""
    lang = drv.app.lang
    for shown in (lang, "en" if lang == "es" else "es"):
        if drv.app.lang != shown:
            drv.app.set_lang(shown)
            drv.step(2)
        drv.shot(f"{name}_{shown}")
        assert drv.cut_texts() == [], (name, shown, drv.cut_texts())
        assert foreign_texts(drv) == [], (name, shown, foreign_texts(drv))
    drv.app.set_lang(lang)
    drv.step(2)


def assert_refused(drv: AppDriver, wid: str, reason: str) -> None:
    """The button is shown, disabled, its text ending in ``reason``, and a tap sends nothing."""
    button = drv.find(wid)
    assert button.disabled and button.text.endswith(f"\n{reason}"), (wid, button.disabled, button.text)
    seq = drv.app.session.seq
    try:
        drv.press(wid)
    except AssertionError as refused:
        assert "disabled" in str(refused), refused
    else:
        raise AssertionError(f"{wid}: a tap on a disabled button went through")
    assert drv.app.session.seq == seq
    drv.tap(wid)  # a finger on it anyway: it says why, and still sends nothing
    assert drv.why_shown() == reason, (wid, drv.why_shown())
    assert drv.app.session.seq == seq


#: The two phones a full game is played on, each in one of the two languages (the screens of each are
#: also shot in the other language: :func:`both_languages`).
TABLES = [((480, 800), "es"), ((720, 1280), "en")]

if "pytest" in sys.modules:  # the fixture, under pytest only (bench/ starts the app without it)
    import pytest

    @pytest.fixture
    def drv(tmp_path, request):
        """The app on a fresh database and settings folder; screenshots named after the test."""
        with AppDriver(tmp_path, f"{request.node.module.__name__}.{request.node.name}") as driver:
            yield driver

    @pytest.fixture(params=TABLES, ids=lambda t: f"{t[0][0]}x{t[0][1]}-{t[1]}")
    def table(tmp_path, request):
        """The app on a small phone in Spanish, then on a large one in English (one start each)."""
        size, lang = request.param
        with AppDriver(tmp_path, f"{request.node.module.__name__}.{request.node.name}", size=size) as driver:
            if driver.app.lang != lang:
                driver.app.set_lang(lang)
                driver.step(2)
            yield driver

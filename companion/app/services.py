"""Platform services behind a small interface: keep the screen awake, share a text.

:class:`DesktopServices` is the stand-in used on a computer (and in tests); on Android,
:class:`AndroidServices` calls the platform through pyjnius.
"""

from __future__ import annotations

import tempfile
import time
from pathlib import Path

from ludoteca.atomic import write_text


class Services:
    """What the app asks of the platform."""

    def keep_awake(self, on: bool) -> None:
        """Keep the screen on while the app is in front (or stop doing so)."""
        raise NotImplementedError

    def share_text(self, title: str, text: str) -> str:
        """Offer ``text`` to other apps; return a short description of where it went."""
        raise NotImplementedError


    def share_file(self, file_name: str, text: str) -> str:
        """Offer a file's text (an export) to other apps; by default shared as text."""
        return self.share_text(file_name, text)


class DesktopServices(Services):
    """Desktop stand-in: remembers the keep-awake wish and writes shared texts to a folder."""

    def __init__(self, folder: Path | None = None):
        self.folder = Path(folder) if folder else Path(tempfile.gettempdir()) / "ludoteca-shared"
        self.awake = False
        self.shared: list[tuple[str, str]] = []

    def keep_awake(self, on: bool) -> None:
        """Remember the wish (a computer's screen is left alone)."""
        self.awake = bool(on)

    def share_text(self, title: str, text: str) -> str:
        """Write ``text`` to a new file in the shared folder (atomically); return its path."""
        self.shared.append((title, text))
        self.folder.mkdir(parents=True, exist_ok=True)
        safe = "".join(c if c.isalnum() else "-" for c in title.lower()).strip("-") or "ludoteca"
        path = self.folder / f"{safe}-{time.strftime('%Y%m%d-%H%M%S')}.txt"
        write_text(path, text)
        return str(path)


    def share_file(self, file_name: str, text: str) -> str:
        """Write the export as ``file_name`` in the shared folder (atomically)."""
        self.shared.append((file_name, text))
        self.folder.mkdir(parents=True, exist_ok=True)
        path = self.folder / Path(file_name).name
        write_text(path, text)
        return str(path)


class AndroidServices(Services):  # pragma: no cover - runs only on a phone
    """Android: the window's KEEP_SCREEN_ON flag and the ACTION_SEND chooser."""

    def keep_awake(self, on: bool) -> None:
        """Set or clear the window's keep-screen-on flag on the UI thread."""
        from android.runnable import run_on_ui_thread  # type: ignore[import-not-found]
        from jnius import autoclass  # type: ignore[import-not-found]

        activity = autoclass("org.kivy.android.PythonActivity").mActivity
        flag = autoclass("android.view.WindowManager$LayoutParams").FLAG_KEEP_SCREEN_ON

        @run_on_ui_thread
        def apply() -> None:
            window = activity.getWindow()
            if on:
                window.addFlags(flag)
            else:
                window.clearFlags(flag)

        apply()

    def share_text(self, title: str, text: str) -> str:
        """Open Android's share sheet with ``text``."""
        from jnius import autoclass, cast  # type: ignore[import-not-found]

        intent_cls = autoclass("android.content.Intent")
        string = autoclass("java.lang.String")
        intent = intent_cls()
        intent.setAction(intent_cls.ACTION_SEND)
        intent.setType("text/plain")
        intent.putExtra(intent_cls.EXTRA_SUBJECT, cast("java.lang.CharSequence", string(title)))
        intent.putExtra(intent_cls.EXTRA_TEXT, cast("java.lang.CharSequence", string(text)))
        chooser = intent_cls.createChooser(intent, cast("java.lang.CharSequence", string(title)))
        autoclass("org.kivy.android.PythonActivity").mActivity.startActivity(chooser)
        return "android"


def platform_services() -> Services:
    """The services of the platform the app runs on."""
    from kivy.utils import platform

    return AndroidServices() if platform == "android" else DesktopServices()

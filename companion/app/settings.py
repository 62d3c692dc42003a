"""The app's own small settings (language, keep-awake, the caller's voice, the open game, player
colours), kept in one JSON file.

Where the file is (:func:`settings_file`): ``$LUDOTECA_SETTINGS`` (a file; an existing folder is
also accepted and holds ``companion.json``), else beside the database the app opens (``--db``), so a
second database keeps its own settings.  The first start (no file yet) follows the system language.

Written atomically (temporary file in the same folder, then ``os.replace``), so a killed app
finds either the old or the new file, never half of one.
"""

from __future__ import annotations

import json
import locale
import os
import tempfile
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path

FILE_NAME = "companion.json"


def default_dir() -> Path:
    """The user's data folder (where the default database and its settings live)."""
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local", "share")
    return Path(base) / "ludoteca"


def settings_file(where: str | os.PathLike | None = None, db: str | os.PathLike | None = None) -> Path:
    """The settings file: ``where`` (a file, or a folder holding ``companion.json``), else
    ``$LUDOTECA_SETTINGS`` (same), else ``companion.json`` beside the default database, or
    ``<name>.settings.json`` beside any other database file ``db``."""
    chosen = where or os.environ.get("LUDOTECA_SETTINGS")
    if chosen:
        path = Path(chosen).expanduser()
        return path / FILE_NAME if path.is_dir() else path
    if db and str(db) != ":memory:":
        db_path = Path(db).expanduser()
        if db_path.name == "ludoteca.db":
            return db_path.with_name(FILE_NAME)
        return db_path.with_name(f"{db_path.stem}.settings.json")
    return default_dir() / FILE_NAME


def system_lang(platform: str | None = None) -> str:
    """The system's language when it is one the app speaks (``es``/``en``), else ``es``."""
    code = ""
    if platform == "android":  # pragma: no cover - runs only on a phone
        try:
            from jnius import autoclass  # type: ignore[import-not-found]

            code = str(autoclass("java.util.Locale").getDefault().getLanguage())
        except Exception:
            code = ""
    if not code:
        for var in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):  # gettext's order
            value = os.environ.get(var, "")
            if value and value not in ("C", "POSIX", "C.UTF-8"):
                code = value.split(":")[0]
                break
    if not code:
        try:
            code = locale.getlocale()[0] or ""
        except ValueError:
            code = ""
    code = code.lower()[:2]
    return code if code in ("es", "en") else "es"


@dataclass
class Settings:
    """What the app remembers between runs."""

    lang: str = "es"
    keep_awake: bool = False
    open_game: int | str | None = None
    colours: dict[str, list[str]] = field(default_factory=dict)  # game id -> player colours
    voice: bool = True  # the caller's voice in Ciudadelas

    @classmethod
    def load(cls, where: str | os.PathLike | None = None, db: str | os.PathLike | None = None,
             platform: str | None = None) -> "Settings":
        """Read the settings; no file yet gives the defaults in the system's language, an
        unreadable one the defaults."""
        path = settings_file(where, db)
        if not path.exists():
            return cls(lang=system_lang(platform))
        try:
            data = json.loads(path.read_text("utf-8"))
        except (OSError, ValueError):
            return cls()
        if not isinstance(data, dict):
            return cls()
        known = {f.name for f in fields(cls)}
        settings = cls(**{k: v for k, v in data.items() if k in known})
        if settings.lang not in ("es", "en"):
            settings.lang = "es"
        if not isinstance(settings.colours, dict):
            settings.colours = {}
        settings.voice = bool(settings.voice)
        return settings

    def save(self, where: str | os.PathLike | None = None, db: str | os.PathLike | None = None) -> Path:
        """Write the settings atomically and durably; return the file."""
        path = settings_file(where, db)
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}-", suffix=".tmp", dir=path.parent)
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as out:
                json.dump(asdict(self), out, ensure_ascii=False, indent=1)
                out.flush()
                os.fsync(out.fileno())
            os.replace(tmp, path)
        except BaseException:
            try:
                os.unlink(tmp)
            except OSError:
                pass
            raise
        return path

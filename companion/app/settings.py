"""The app's own small settings (language, keep-awake, the caller's voice, the open game, player
colours), kept in one JSON file.

Where the file is (:func:`settings_file`): ``$LUDOTECA_SETTINGS`` (a file; an existing folder is
also accepted and holds ``companion.json``), else beside the database the app opens (``--db``), so a
second database keeps its own settings.  The first start (no file yet) follows the system language.

Written atomically (:mod:`ludoteca.atomic`), so a killed app
finds either the old or the new file, never half of one.
"""

from __future__ import annotations

import json
import locale
import os
from dataclasses import asdict, dataclass, field
from pathlib import Path

from ludoteca.atomic import write_text
from ludoteca.cards.limits import json_loads, read_bytes

from . import theme

FILE_NAME = "companion.json"
#: A settings file is a few hundred bytes (three games' colours); anything larger is not ours.
MAX_BYTES = 64 * 1024
#: Longest game id kept (the store's ids are integers; a text id this long is not one of ours).
MAX_ID = 64


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
             platform: str | None = None) -> Settings:
        """Read the settings; no file yet gives the defaults in the system's language.  A file that
        is not settings (too large, too deep, not JSON) gives the defaults; a value of the wrong
        kind gives that value's default, the others are kept."""
        path = settings_file(where, db)
        if not path.exists():
            return cls(lang=system_lang(platform))
        try:
            data = json_loads(read_bytes(path, MAX_BYTES).decode("utf-8"), path, MAX_BYTES)
        except (OSError, ValueError):  # InputTooLarge and UnicodeDecodeError are ValueErrors
            return cls()
        return cls(**_checked(data)) if isinstance(data, dict) else cls()

    def save(self, where: str | os.PathLike | None = None, db: str | os.PathLike | None = None) -> Path:
        """Write the settings atomically and durably; return the file."""
        path = settings_file(where, db)
        write_text(path, json.dumps(asdict(self), ensure_ascii=False, indent=1))
        return path


def _checked(data: dict) -> dict:
    """The values of a settings file that are of the right kind (the others are left out)."""
    out: dict = {}
    if data.get("lang") in ("es", "en"):
        out["lang"] = data["lang"]
    for flag in ("keep_awake", "voice"):
        if isinstance(data.get(flag), bool):
            out[flag] = data[flag]
    game = data.get("open_game")
    if (isinstance(game, int) and not isinstance(game, bool) and 0 < game < 2 ** 63) or (
            isinstance(game, str) and 0 < len(game) <= MAX_ID):
        out["open_game"] = game
    colours = data.get("colours")
    if isinstance(colours, dict):
        known = {c[0] for c in theme.PLAYER_COLOURS}
        out["colours"] = {key: value for key, value in colours.items()
                          if isinstance(key, str) and len(key) <= MAX_ID and isinstance(value, list)
                          and len(value) <= len(known) and all(v in known for v in value)}
    return out

"""The app's own small settings (language, keep-awake, the open game), kept in one JSON file.

Written atomically (temporary file in the same folder, then ``os.replace``), so a killed app
finds either the old or the new file, never half of one.
"""

from __future__ import annotations

import json
import os
import tempfile
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path

FILE_NAME = "companion.json"


def default_dir() -> Path:
    """``$LUDOTECA_SETTINGS`` or the user's data folder (the same folder as the database)."""
    override = os.environ.get("LUDOTECA_SETTINGS")
    if override:
        return Path(override)
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local", "share")
    return Path(base) / "ludoteca"


@dataclass
class Settings:
    """What the app remembers between runs."""

    lang: str = "es"
    keep_awake: bool = False
    open_game: int | str | None = None
    colours: dict[str, list[str]] = field(default_factory=dict)  # game id -> player colours
    voice: bool = True  # the caller's voice in Ciudadelas

    @classmethod
    def load(cls, folder: Path | None = None) -> "Settings":
        """Read the settings; a missing or unreadable file gives the defaults."""
        path = Path(folder or default_dir()) / FILE_NAME
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
        return settings

    def save(self, folder: Path | None = None) -> Path:
        """Write the settings atomically and durably."""
        folder = Path(folder or default_dir())
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / FILE_NAME
        fd, tmp = tempfile.mkstemp(prefix=".companion-", suffix=".json", dir=folder)
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

"""What an error met on the database file says about it (damaged, full, read-only, busy,
unreachable) and the one line that tells the player; the store and the play clock both ask."""

from __future__ import annotations

import errno
import os
import shutil
import sqlite3
from pathlib import Path
from typing import Any

from .common import text
from .errors import StoreError

#: Free bytes below which an SQLite "disk I/O error" is taken for a full disk (SQLite gives no errno).
LOW_SPACE = 256 * 1024

#: What an SQLite error says about a database file (:func:`trouble`).  Only ``DAMAGED`` ever sets a
#: file aside; the others leave it where it is and say what to do.
DAMAGED, FULL, READ_ONLY, BUSY, UNREACHABLE = "damaged", "full", "read-only", "busy", "unreachable"
#: SQLite's primary result codes (``sqlite_errorcode & 0xFF``) and what they say.
_CODES = {11: DAMAGED, 26: DAMAGED, 13: FULL, 8: READ_ONLY, 5: BUSY, 6: BUSY, 3: READ_ONLY, 14: UNREACHABLE,
          10: UNREACHABLE}
#: Extended codes that mean the file itself is wrong: a short read (the file is shorter than its
#: pages say).  A format SQLite does not know comes as a plain SQLITE_ERROR: see :data:`_WORDS`.
_DAMAGED_EXTENDED = {522}
#: Words of SQLite's messages, for an error without a code (our own checks, an older Python).
_WORDS = ((DAMAGED, ("malformed", "not a database", "corrupt", "unsupported file format",
                     "integrity check failed")),
          (FULL, ("full",)), (READ_ONLY, ("readonly", "read-only")), (BUSY, ("locked", "busy")))


class Damage(sqlite3.DatabaseError):
    """Our own finding that a file SQLite opened is damaged (``PRAGMA quick_check`` said so)."""


def trouble(exc: BaseException, path: Any = None) -> str:
    """What an error met while opening, reading or writing the database at ``path`` says about it:
    :data:`DAMAGED` (corrupt, not a database), :data:`FULL`, :data:`READ_ONLY`, :data:`BUSY`
    (another program holds it) or :data:`UNREACHABLE` (cannot be opened, an I/O error).

    >>> trouble(sqlite3.DatabaseError("database disk image is malformed"))
    'damaged'
    >>> trouble(sqlite3.OperationalError("database or disk is full"))
    'full'
    """
    if isinstance(exc, Damage):
        return DAMAGED
    code = getattr(exc, "sqlite_errorcode", None)
    message = str(exc).lower()
    if isinstance(exc, OSError):
        kind = {errno.ENOSPC: FULL, errno.EDQUOT: FULL, errno.EROFS: READ_ONLY, errno.EACCES: READ_ONLY,
                errno.EPERM: READ_ONLY}.get(exc.errno or 0, UNREACHABLE)
    elif code in _DAMAGED_EXTENDED:
        kind = DAMAGED
    elif code is not None and code & 0xFF in _CODES:
        kind = _CODES[code & 0xFF]
    else:
        kind = next((k for k, words in _WORDS if any(w in message for w in words)), UNREACHABLE)
    if kind == UNREACHABLE and path is not None and str(path) != ":memory:":
        folder = Path(path).parent
        if (folder.is_dir() and not os.access(folder, os.W_OK)
                or Path(path).is_file() and not os.access(path, os.W_OK)):
            return READ_ONLY
        try:
            if shutil.disk_usage(folder).free < LOW_SPACE:
                return FULL
        except OSError:
            pass
    return kind


#: What each kind of trouble says, in Spanish and English ({path}, {es}/{en}: what was being done,
#: {exc}: the error itself); a kind not listed says the error as it came.
MESSAGES: dict[str, tuple[str, str]] = {
    FULL: ("{path}: no se puede {es}: el disco está lleno; libera espacio y vuelve a intentarlo "
           "(no se ha guardado nada)",
           "{path}: cannot {en}: the disk is full; free some space and try again (nothing was saved)"),
    READ_ONLY: ("{path}: no se puede {es}: el archivo o su carpeta son de solo lectura "
                "(`history` y `export` sí pueden leerlo)",
                "{path}: cannot {en}: the file or its folder is read-only "
                "(`history` and `export` can still read it)"),
    BUSY: ("{path}: no se puede {es}: otro programa (la app, otro `ludoteca play`) la está usando; "
           "ciérralo y vuelve a intentarlo",
           "{path}: cannot {en}: another program (the app, another `ludoteca play`) is using it; "
           "close that and try again"),
    DAMAGED: ("{path}: la base de datos está dañada ({exc}); `ludoteca play` o la app la apartan y "
              "recuperan lo que se pueda leer",
              "{path}: the database is damaged ({exc}); `ludoteca play` or the app sets it aside and "
              "recovers what can be read"),
}
UNLISTED = ("{path}: no se puede {es}: {exc}", "{path}: cannot {en}: {exc}")


def trouble_error(path: Any, what: tuple[str, str], exc: BaseException) -> StoreError:
    """The one line that says why the database at ``path`` cannot be used now (``what``: the
    Spanish and English of what was being done); for damage, that it is damaged and what sets
    it aside."""
    es, en = MESSAGES.get(trouble(exc, path), UNLISTED)
    fields = {"path": path, "es": what[0], "en": what[1], "exc": exc}
    return StoreError(text(es.format(**fields), en.format(**fields)))

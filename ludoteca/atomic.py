"""Atomic writes for all of Ludoteca (print kit, command line, phone app): a temporary file in the
same folder, fsync, ``os.replace``, fsync of the folder; a killed writer leaves the old file or the
new one, never half of one.  Temporary files are named ``.NAME.PID.tmp`` so that a later build can
tell one left by a dead process from one being written."""

from __future__ import annotations

import os
from pathlib import Path


def tmp_name(path: Path) -> Path:
    """The temporary file a write of ``path`` by this process goes through."""
    return path.with_name(f".{path.name}.{os.getpid()}.tmp")


def write_bytes(path: Path, data: bytes, only_if_changed: bool = False) -> bool:
    """Write ``data`` to ``path`` atomically; with ``only_if_changed`` skip identical content.

    Returns True when the file was written.
    """
    path = Path(path)
    if only_if_changed and path.is_file():
        try:
            if path.stat().st_size == len(data) and path.read_bytes() == data:
                return False
        except OSError:
            pass
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = tmp_name(path)
    try:
        with open(tmp, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
        sync_folder(path.parent)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    return True


def sync_folder(folder: Path) -> None:
    """Make a rename durable: fsync the folder that holds it (where the system allows it)."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def write_text(path: Path, text: str, only_if_changed: bool = False) -> bool:
    """:func:`write_bytes` of ``text`` in UTF-8."""
    return write_bytes(path, text.encode("utf-8"), only_if_changed)

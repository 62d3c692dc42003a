"""Atomic writes for all of Ludoteca (print kit, command line, phone app): a temporary file in the
same folder, fsync, ``os.replace``, fsync of the folder; a killed writer leaves the old file or the
new one, never half of one.  Temporary files are named ``.NAME.PID.tmp``.

Before anything is written, :func:`file_target` and :func:`folder_target` say whether the place
the user named can take it: a regular file (or nothing yet) where a file goes, a folder where a
folder goes.  A device, a FIFO, a socket or a folder where a file goes is refused, never replaced.
A symbolic link is followed: writing to a link that points to a regular file replaces that file
(the link stays); a link to anything else, or to nothing, is refused.
"""

from __future__ import annotations

import errno
import os
import stat
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path


class Unwritable(OSError):
    """The target of a write cannot take it; ``str()`` is one line naming the path and why."""

    def __init__(self, path: Path | str, why: str):
        super().__init__(errno.EINVAL, why, str(path))
        self.path, self.why = Path(path), why

    def __str__(self) -> str:
        return f"{self.path}: {self.why}"


def kind_of(mode: int) -> str:
    """What a file of ``mode`` is, in words (for messages)."""
    for test, name in ((stat.S_ISDIR, "a folder"), (stat.S_ISCHR, "a character device"),
                       (stat.S_ISBLK, "a block device"), (stat.S_ISFIFO, "a FIFO (named pipe)"),
                       (stat.S_ISSOCK, "a socket"), (stat.S_ISLNK, "a symbolic link"),
                       (stat.S_ISREG, "a regular file")):
        if test(mode):
            return name
    return "not a regular file"


def _existing_ancestor(path: Path) -> Path:
    """The nearest folder above ``path`` that exists; :class:`Unwritable` when a file is in the way."""
    for parent in path.parents:
        try:
            st = os.stat(parent)
        except FileNotFoundError:
            continue
        except OSError as exc:
            raise Unwritable(path, f"cannot reach {parent} ({exc.strerror})") from None
        if not stat.S_ISDIR(st.st_mode):
            raise Unwritable(path, f"{parent} is {kind_of(st.st_mode)}, not a folder")
        return parent
    return Path(".")


def _check_folder_writable(path: Path, folder: Path) -> None:
    if not os.access(folder, os.W_OK | os.X_OK):
        raise Unwritable(path, "is a read-only folder" if folder == path else
                         f"folder {folder} is read-only")


def file_target(path: Path | str) -> Path:
    """Where a write of the file ``path`` goes: ``path``, or the regular file a link there points to.

    Raises :class:`Unwritable` when ``path`` is a folder, a device, a FIFO or a socket, a link to
    one of those or to nothing, a read-only file, or lies in a folder that cannot be written.
    """
    path = Path(path)
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        folder = _existing_ancestor(path)
        if folder == path.parent:
            _check_folder_writable(path, folder)
        return path
    except OSError as exc:
        if exc.errno == errno.ENOTDIR:
            _existing_ancestor(path)
        raise Unwritable(path, f"cannot reach it ({exc.strerror})") from None
    target = path
    if stat.S_ISLNK(st.st_mode):
        target = Path(os.path.realpath(path))
        try:
            st = os.stat(target)
        except OSError:
            raise Unwritable(path, f"a symbolic link to {target}, which does not exist") from None
        if not stat.S_ISREG(st.st_mode):
            raise Unwritable(path, f"a symbolic link to {kind_of(st.st_mode)} ({target}), "
                                   "not to a regular file")
    if not stat.S_ISREG(st.st_mode):
        expected = "; give a file name inside it" if stat.S_ISDIR(st.st_mode) else ""
        raise Unwritable(path, f"is {kind_of(st.st_mode)}, not a regular file{expected}")
    if not os.access(target, os.W_OK):
        raise Unwritable(path, "is a read-only file")
    _check_folder_writable(path, target.parent)
    return target


def folder_target(path: Path | str, create: bool = True) -> Path:
    """Check that ``path`` is a folder (or a link to one) that can be written, creating it (and
    its parents) when ``create``; :class:`Unwritable` otherwise."""
    path = Path(path)
    try:
        st = os.stat(path)
    except FileNotFoundError:
        _existing_ancestor(path)
        if not create:
            raise Unwritable(path, "no such folder") from None
        try:
            path.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise Unwritable(path, f"cannot create the folder ({exc.strerror})") from None
        return path
    except OSError as exc:
        if exc.errno == errno.ENOTDIR:
            _existing_ancestor(path)
        raise Unwritable(path, f"cannot reach it ({exc.strerror})") from None
    if not stat.S_ISDIR(st.st_mode):
        raise Unwritable(path, f"is {kind_of(st.st_mode)}, not a folder")
    _check_folder_writable(path, path)
    return path


def tmp_name(path: Path) -> Path:
    """The temporary file a write of ``path`` by this process goes through."""
    return path.with_name(f".{path.name}.{os.getpid()}.tmp")


def write_bytes(path: Path, data: bytes, only_if_changed: bool = False, durable: bool = True) -> bool:
    """Write ``data`` to ``path`` atomically; with ``only_if_changed`` skip identical content.

    The target is checked first (:func:`file_target`): a link is written through to its regular
    file.  ``durable=False`` leaves out the fsyncs, for files that can be made again (a cache):
    still the old file or the new one, but a crash of the whole system may leave it cut short.
    Returns True when the file was written.
    """
    path = Path(path)
    if only_if_changed and path.is_file():
        try:
            if path.stat().st_size == len(data) and path.read_bytes() == data:
                return False
        except OSError:
            pass
    write_pieces(path, [data], durable)
    return True


def write_pieces(path: Path, pieces: Iterable[bytes], durable: bool = True) -> None:
    """:func:`write_bytes` of data made a piece at a time, each written as it comes (never the
    whole of it in memory)."""
    path = file_target(Path(path))
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = tmp_name(path)
    try:
        with open(tmp, "wb") as fh:
            for piece in pieces:
                fh.write(piece)
            if durable:
                fh.flush()
                os.fsync(fh.fileno())
        os.replace(tmp, path)
        if durable:
            sync_folder(path.parent)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


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


def write_text(path: Path, text: str, only_if_changed: bool = False, durable: bool = True) -> bool:
    """:func:`write_bytes` of ``text`` in UTF-8."""
    return write_bytes(path, text.encode("utf-8"), only_if_changed, durable)


def files_under(folder: str, keep: Callable[[str], bool]) -> Iterator[str]:
    """The paths under ``folder`` whose name ``keep`` accepts, as ``Path.rglob`` finds them: a
    linked folder is not entered, a folder that cannot be read is passed over.  Read with
    os.scandir: no pattern compiled, a third of rglob's time."""
    try:
        entries = list(os.scandir(folder))
    except (FileNotFoundError, NotADirectoryError, PermissionError):
        return
    for entry in entries:
        if keep(entry.name):
            yield entry.path
        try:
            inside = entry.is_dir() and not entry.is_symlink()
        except OSError:
            inside = False
        if inside:
            yield from files_under(entry.path, keep)


def cache_dir(name: str) -> Path | None:
    """A per-user cache folder: XDG_CACHE_HOME/ludoteca/<name>, else one in the temp folder.

    The temp-folder fallback (``/tmp/ludoteca-<uid>``) is used only when it belongs to this user
    and nobody else may enter it (mode 0700): anyone can create a folder in /tmp, and compiled
    templates or a fonts.conf read from a folder someone else controls would run their code.
    """
    base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "ludoteca"
    try:
        (base / name).mkdir(parents=True, exist_ok=True)
        if os.access(base / name, os.W_OK):
            return base / name
    except OSError:
        pass
    import tempfile

    private = Path(tempfile.gettempdir()) / f"ludoteca-{os.getuid()}"
    if not private_folder(private):
        return None
    try:
        (private / name).mkdir(exist_ok=True)
    except OSError:
        return None
    return private / name


def private_folder(folder: Path) -> bool:
    """Create ``folder`` with mode 0700, or accept it only if it is ours, not a link, and 0700."""
    try:
        folder.mkdir(mode=0o700)
    except FileExistsError:
        pass
    except OSError:
        return False
    try:
        st = os.lstat(folder)
    except OSError:
        return False
    return (stat.S_ISDIR(st.st_mode) and st.st_uid == os.getuid()
            and stat.S_IMODE(st.st_mode) & 0o077 == 0)

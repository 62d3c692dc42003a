"""A build writes its new files into a staging folder, then swaps them in at the end.

Until the swap, the output folder is untouched: a build that fails or is killed leaves the old
kit as it was.  The swap writes a journal (which files move in, which go), then renames each
staged file over its place and the manifest last.  A build killed during those renames leaves a
manifest saying ``complete: false`` and the journal; the next build finishes the swap before
anything else, so the folder ends up wholly new.  A staging folder without a journal (a build
killed before its swap) is thrown away by the next build.

The staging folder is ``<out>/.ludoteca-staging.<pid>``: inside the output folder, so it is on
the same file system (a rename, never a copy) and needs no other permission; it exists only
while a build runs.
"""

from __future__ import annotations

import fcntl
import json
import os
import shutil
from pathlib import Path

from ludoteca.atomic import sync_folder, write_bytes, write_text

from .model import GeneratorError

PREFIX = ".ludoteca-staging."
JOURNAL = ".swap.json"
LOCK = ".lock"
LAST = "manifest.json"


class Stage:
    """The files of one build, written aside, then swapped into ``out_dir`` by :meth:`commit`."""

    def __init__(self, out_dir: Path):
        self.out = Path(out_dir)
        self.root = self.out / f"{PREFIX}{os.getpid()}"
        self.written: set[str] = set()
        self.removed: set[str] = set()
        self._lock: int | None = None
        self._swapping = False          # True once the swap began: then only the next build ends it

    def _rel(self, final: Path) -> str:
        return Path(final).relative_to(self.out).as_posix()

    def rel(self, final: Path) -> str:
        """``final``'s path inside the output folder (``/``-separated)."""
        return self._rel(final)

    def write_bytes(self, final: Path, data: bytes) -> bool:
        """Stage ``data`` for ``final`` unless the output folder already holds exactly that."""
        try:
            if final.is_file() and final.stat().st_size == len(data) and final.read_bytes() == data:
                return False
        except OSError:
            pass
        return write_bytes(self.path(final), data, durable=False)     # synced at :meth:`commit`

    def write_text(self, final: Path, text: str) -> bool:
        """:meth:`write_bytes` of ``text`` in UTF-8."""
        return self.write_bytes(final, text.encode("utf-8"))

    def keep_if_changed(self, final: Path) -> None:
        """Drop the staged copy of ``final`` when it is the same as the file already there."""
        import filecmp
        staged = self.root / self._rel(final)
        try:
            same = final.is_file() and filecmp.cmp(staged, final, shallow=False)
        except OSError:
            same = False
        if same:
            staged.unlink()
            self.written.discard(self._rel(final))

    def path(self, final: Path) -> Path:
        """Where to write the file that is to be at ``final`` (a path in the output folder)."""
        rel = self._rel(final)
        self.written.add(rel)
        self.removed.discard(rel)
        staged = self.root / rel
        staged.parent.mkdir(parents=True, exist_ok=True)
        return staged

    def current(self, final: Path) -> Path:
        """The newest copy of ``final``: the staged one when this build wrote it."""
        rel = self._rel(final)
        return self.root / rel if rel in self.written else Path(final)

    def remove(self, final: Path) -> None:
        """Delete ``final`` from the output folder at the swap."""
        rel = self._rel(final)
        if rel not in self.written:
            self.removed.add(rel)

    def open(self) -> None:
        """Finish or discard what earlier builds left, then make this build's staging folder."""
        try:
            recover(self.out)
        except OSError as exc:
            raise GeneratorError(f"output folder {self.out}: cannot finish the update an earlier "
                                 f"build left halfway ({exc.strerror or exc})") from None
        try:
            self.root.mkdir()
            self._lock = os.open(self.root / LOCK, os.O_WRONLY | os.O_CREAT, 0o600)
        except OSError as exc:
            raise GeneratorError(f"cannot write to output folder {self.out}: {exc.strerror}") from None
        fcntl.flock(self._lock, fcntl.LOCK_EX)

    def commit(self) -> None:
        """Swap every staged file in (the manifest last) and delete what is to go."""
        if self.written or self.removed:
            self._sync()
            write_text(self.root / JOURNAL, json.dumps({"move": sorted(self.written, key=_order),
                                                        "remove": sorted(self.removed)}))
            self._swapping = True                   # from here on, the next build finishes it
            _apply(self.out, self.root)
            self._swapping = False
        self.discard()

    def _sync(self) -> None:
        """Make every staged file, and the folders that list them, durable before the journal
        says to move them in.  The files are synced together (the file system flushes its
        journal once for many of them), not each as it is written: a kit's 30 files took about
        20 ms each."""
        files = [self.root / rel for rel in self.written]
        folders = {self.root} | {parent for path in files for parent in path.parents
                                 if parent.is_relative_to(self.root)}
        _sync_files(files)
        for folder in sorted(folders, reverse=True):      # the deepest first, the staging folder last
            sync_folder(folder)
        sync_folder(self.out)                             # which lists the staging folder

    @property
    def swapping(self) -> bool:
        """Whether a swap began and did not finish (the folder then holds part of the new kit)."""
        return self._swapping

    def discard(self) -> None:
        """Remove the staging folder (kept, with its journal, if the swap did not finish)."""
        if not self.swapping:
            shutil.rmtree(self.root, ignore_errors=True)
        if self._lock is not None:
            os.close(self._lock)
            self._lock = None


def _sync_files(files: list[Path], threads: int = 8) -> None:
    """fsync ``files`` on up to ``threads`` threads, this one among them, and raise the first
    error any of them met.  Threads of :mod:`_thread`, each joined by a lock it releases at its
    end: a deck's three files need neither concurrent.futures' pool (logging, queue: 5-7 ms of a
    0.24 s run) nor the threading module (~0.7 ms).  When no thread can be had (a memory cap) this
    thread syncs the rest itself."""
    import _thread
    waiting = list(reversed(files))
    errors: list[BaseException] = []

    def work() -> None:
        while True:
            try:
                path = waiting.pop()                # one file to one thread (atomic under the GIL)
            except IndexError:
                return
            try:
                _sync_file(path)
            except BaseException as exc:  # noqa: BLE001 - handed to the caller below
                errors.append(exc)
                return

    def helper(done: _thread.LockType) -> None:
        try:
            work()
        finally:
            done.release()

    running: list[_thread.LockType] = []
    for _ in range(min(threads, len(files)) - 1):
        done = _thread.allocate_lock()
        done.acquire()
        try:
            _thread.start_new_thread(helper, (done,))
        except RuntimeError:
            break
        running.append(done)
    work()
    for done in running:
        done.acquire()                              # released when that thread's work is over
    if errors:
        raise errors[0]


def _sync_file(path: Path) -> None:
    """fsync one staged file (one a writer dropped again is not there: nothing to sync)."""
    try:
        fd = os.open(path, os.O_RDONLY)
    except FileNotFoundError:
        return
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _order(rel: str) -> tuple[bool, str]:
    return rel == LAST, rel


def _apply(out: Path, root: Path) -> None:
    """Carry out a staging folder's journal: the swap, resumable after a kill at any point."""
    plan = json.loads((root / JOURNAL).read_text(encoding="utf-8"))
    moves = list(plan["move"])
    if LAST in moves and (root / LAST).is_file():
        _mark_incomplete(out)
    folders = {out}
    for rel in moves:
        staged, final = root / rel, out / rel
        if staged.is_file():                        # absent: already moved before a kill
            final.parent.mkdir(parents=True, exist_ok=True)
            os.replace(staged, final)
            folders.add(final.parent)
    for rel in plan["remove"]:
        (out / rel).unlink(missing_ok=True)
    for folder in folders:
        sync_folder(folder)


def _mark_incomplete(out: Path) -> None:
    """While files are swapped in, the manifest says the folder is being rewritten."""
    try:
        manifest = json.loads((out / LAST).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return
    if isinstance(manifest, dict) and manifest.get("complete") is not False:
        manifest["complete"] = False
        write_text(out / LAST, json.dumps(manifest, ensure_ascii=False, indent=2) + "\n")


def recover(out: Path) -> None:
    """Finish the swap of a build killed during it; discard the staging of one killed before.

    Refuses while another build is writing into the same folder.
    """
    try:                                  # out.glob(PREFIX + "*"), without a pattern to compile
        names = [name for name in os.listdir(out) if name.startswith(PREFIX)]
    except (FileNotFoundError, NotADirectoryError, PermissionError):
        names = []
    for folder in sorted(out / name for name in names):
        if not folder.is_dir() or folder.is_symlink():
            continue
        try:
            fd = os.open(folder / LOCK, os.O_RDONLY)
        except OSError:
            fd = None                               # killed before it took its lock
        try:
            if fd is not None:
                try:
                    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                except BlockingIOError:
                    raise GeneratorError(f"another build is writing into {out} "
                                         f"({folder.name}); wait for it to end") from None
            if (folder / JOURNAL).is_file():
                _apply(out, folder)
            shutil.rmtree(folder, ignore_errors=True)
        finally:
            if fd is not None:
                os.close(fd)

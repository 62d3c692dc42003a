"""Every writer asks ludoteca.atomic whether its target can take the write: a regular file (or a
link to one) where a file goes, a folder where a folder goes; anything else is one line, exit 2,
and nothing written.  A full disk leaves the kit as it was."""

from __future__ import annotations

import contextlib
import errno
import os
import shutil
import stat
import subprocess
from pathlib import Path

import pytest

from ludoteca import atomic
from ludoteca.atomic import Unwritable, file_target, files_under, folder_target, write_text
from ludoteca.cli import main
from test_generator_layout import make_deck


@contextlib.contextmanager
def read_only(folder: Path):
    """``folder`` made read-only for this process (chmod; for root, the immutable flag), or skip."""
    folder.chmod(0o555)
    flagged = os.getuid() == 0 and shutil.which("chattr") and subprocess.run(
        ["chattr", "+i", str(folder)], capture_output=True).returncode == 0
    try:
        if os.access(folder, os.W_OK):
            pytest.skip("this system lets us write into a read-only folder")
        yield folder
    finally:
        if flagged:
            subprocess.run(["chattr", "-i", str(folder)], check=True)
        folder.chmod(0o755)


@contextlib.contextmanager
def full_disk(after: int = 0):
    """Every fsync of a file after the first ``after`` fails as on a full disk; one process renders."""
    mp = pytest.MonkeyPatch()
    real = os.fsync
    seen = []

    def fsync(fd):
        if stat.S_ISREG(os.fstat(fd).st_mode):
            seen.append(fd)
            if len(seen) > after:
                raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        return real(fd)

    mp.setattr(os, "fsync", fsync)
    mp.setattr(os, "cpu_count", lambda: 1)
    try:
        yield seen
    finally:
        mp.undo()


def _tree(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in folder.rglob("*") if p.is_file()}


# -- the one check ---------------------------------------------------------------------------------

def test_a_file_target_must_be_a_regular_file_or_nothing_yet(tmp_path):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    (tmp_path / "dir").mkdir()
    (tmp_path / "file").write_text("x")
    cases = {fifo: "is a FIFO (named pipe), not a regular file",
             Path("/dev/null"): "is a character device, not a regular file",
             tmp_path / "dir": "is a folder, not a regular file; give a file name inside it",
             tmp_path / "file" / "sub.txt": f"{tmp_path / 'file'} is a regular file, not a folder"}
    for path, why in cases.items():
        with pytest.raises(Unwritable) as caught:
            file_target(path)
        assert str(caught.value) == f"{path}: {why}"
    assert file_target(tmp_path / "new.txt") == tmp_path / "new.txt"
    assert file_target(tmp_path / "a" / "b" / "new.txt") == tmp_path / "a" / "b" / "new.txt"


def test_a_device_or_fifo_is_refused_never_replaced(tmp_path):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    with pytest.raises(Unwritable):
        write_text(fifo, "x")
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)
    assert os.listdir(tmp_path) == ["pipe"]


def test_a_link_is_written_through_to_its_regular_file_and_stays_a_link(tmp_path):
    real = tmp_path / "real.yaml"
    real.write_text("old")
    link = tmp_path / "link.yaml"
    link.symlink_to(real)
    write_text(link, "new")
    assert link.is_symlink() and real.read_text() == "new"
    (tmp_path / "to_dev").symlink_to("/dev/null")
    (tmp_path / "dangling").symlink_to(tmp_path / "nowhere")
    with pytest.raises(Unwritable, match=r"to_dev: a symbolic link to a character device \(/dev/null\)"):
        write_text(tmp_path / "to_dev", "x")
    with pytest.raises(Unwritable, match=r"dangling: a symbolic link to .*nowhere, which does not exist"):
        write_text(tmp_path / "dangling", "x")
    assert (tmp_path / "to_dev").is_symlink() and not (tmp_path / "nowhere").exists()


def test_a_folder_target(tmp_path):
    (tmp_path / "file").write_text("x")
    with pytest.raises(Unwritable, match=r"file: is a regular file, not a folder$"):
        folder_target(tmp_path / "file")
    with pytest.raises(Unwritable, match=r"/dev/null: is a character device, not a folder$"):
        folder_target("/dev/null")
    assert folder_target(tmp_path / "new" / "sub").is_dir()
    with read_only(tmp_path / "new") as ro:
        with pytest.raises(Unwritable, match=r"new: is a read-only folder$"):
            folder_target(ro)
        with pytest.raises(Unwritable, match=r"x\.yaml: folder .*new is read-only$"):
            file_target(ro / "x.yaml")



def test_files_under_finds_what_rglob_finds(tmp_path, monkeypatch):
    """The one walker the build (stale temporaries) and the templates' fingerprint share: the
    names rglob matches, linked folders not entered, an unreadable folder passed over."""
    for rel in ("a.j2", "sub/b.j2", "sub/deep/c.j2", "sub/.x.1.tmp", ".y.2.tmp", "d.txt", "dir.j2/e.j2",
                "locked/f.j2"):
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text("x")
    (tmp_path / "linked").symlink_to(tmp_path / "sub")
    real = os.scandir

    def scandir(path):
        if os.path.basename(path) == "locked":
            raise PermissionError(13, "denied", path)
        return real(path)
    monkeypatch.setattr(atomic.os, "scandir", scandir)
    for pattern, keep in (("*.j2", lambda n: n.endswith(".j2")),
                          (".*.tmp", lambda n: len(n) > 4 and n[0] == "." and n.endswith(".tmp"))):
        wanted = {str(p) for p in tmp_path.rglob(pattern)} - {str(tmp_path / "locked" / "f.j2")}
        assert set(files_under(str(tmp_path), keep)) == wanted
    assert str(tmp_path / "dir.j2") in set(files_under(str(tmp_path), lambda n: n.endswith(".j2")))
    assert list(files_under(str(tmp_path / "nothing"), lambda n: True)) == []

# -- build and export-shop ----------------------------------------------------------------------------

def _refused(capsys, argv: list[str]) -> str:
    capsys.readouterr()
    assert main(argv) == 2
    io = capsys.readouterr()
    lines = io.err.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in io.err, io.err
    return lines[0]


@pytest.mark.parametrize("command", [["build", "el_mapa"], ["export-shop", "mpc-poker", "el_mapa"]])
def test_build_into_what_is_not_a_writable_folder_is_one_line(tmp_path, capsys, command):
    (tmp_path / "file").write_text("x")
    (tmp_path / "ro").mkdir()
    said = {str(tmp_path / "file"): "is a regular file, not a folder",
            str(tmp_path / "file" / "sub"): f"{tmp_path / 'file'} is a regular file, not a folder",
            "/proc/nope": "cannot create the folder",
            "/dev/null": "is a character device, not a folder"}
    for out, why in said.items():
        line = _refused(capsys, [*command, "--out", out, "-q"])
        assert line.startswith(f"ludoteca: error: output folder {out}: {why}"), line
    with read_only(tmp_path / "ro") as ro:
        assert _refused(capsys, [*command, "--out", str(ro), "-q"]) == \
            f"ludoteca: error: output folder {ro}: is a read-only folder"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["file", "ro"] and not os.listdir(tmp_path / "ro")
    assert (tmp_path / "file").read_text() == "x"


@pytest.mark.parametrize("command", [["build", "el_mapa"], ["export-shop", "mpc-poker", "el_mapa"]])
def test_a_full_disk_is_one_line_and_writes_nothing(tmp_path, capsys, command):
    out = tmp_path / "kit"
    with full_disk():
        line = _refused(capsys, [*command, "--out", str(out), "-q"])
    assert line == (f"ludoteca: error: output folder {out}: cannot write the kit (No space left on "
                    "device); the folder keeps what it held before")
    assert _tree(out) == {}


def test_a_disk_full_halfway_through_a_rebuild_leaves_the_old_kit(tmp_path, capsys):
    data, face, back = make_deck(tmp_path / "src", 30)
    argv = ["deck", str(data), "--template", str(face), "--back", str(back), "--out", str(tmp_path / "k"),
            "--png", "50", "-q"]
    assert main(argv) == 0
    before = _tree(tmp_path / "k")
    with full_disk(after=6) as seen:
        line = _refused(capsys, argv + ["--bleed", "2"])
    assert len(seen) > 6 and "No space left on device" in line
    assert _tree(tmp_path / "k") == before


def test_a_full_disk_during_the_swap_is_finished_by_the_next_build(tmp_path, capsys, monkeypatch):
    from ludoteca.generator import staging
    data, face, _ = make_deck(tmp_path / "src", 3)
    argv = ["deck", str(data), "--template", str(face), "--out", str(tmp_path / "k"), "-q"]
    assert main(argv) == 0

    def full(out):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(staging, "_mark_incomplete", full)
    assert _refused(capsys, argv + ["--bleed", "2"]).endswith(
        "cannot write the kit (No space left on device); the next build finishes the update")
    line = _refused(capsys, argv)              # the disk still full: the earlier swap cannot end
    assert line == (f"ludoteca: error: output folder {tmp_path / 'k'}: cannot finish the update an "
                    "earlier build left halfway (No space left on device)")
    monkeypatch.undo()
    assert main(argv + ["--bleed", "2"]) == 0
    assert [p.name for p in (tmp_path / "k").iterdir() if p.name.startswith(".")] == []

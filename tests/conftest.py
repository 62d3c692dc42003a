"""Session-wide settings of the test suite."""

from __future__ import annotations

import pytest


@pytest.fixture(scope="session", autouse=True)
def private_cache_folder(tmp_path_factory):
    """Every cache (pages, rulebooks, fonts, compiled templates) goes to a folder of this test
    session, never to the user's ~/.cache.  The pytest-xdist workers share it, as two builds run
    at once share a user's cache (each entry is written whole, then renamed into place): a
    rulebook or a template one worker has set is not set again by the other (a kit build whose
    rulebooks are cached takes about half the CPU of a cold one).  A test that needs a cold or
    broken cache sets XDG_CACHE_HOME itself."""
    import os
    base = tmp_path_factory.getbasetemp()
    folder = (base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base) / "xdg-cache"
    folder.mkdir(exist_ok=True)
    mp = pytest.MonkeyPatch()
    mp.setenv("XDG_CACHE_HOME", str(folder))
    # fontconfig reads FONTCONFIG_FILE once, at the first text cairo draws in a process: every build
    # sets it first, and so does each test process, whichever test draws first (else the system's
    # fonts stand in for Vera for the rest of that process)
    from ludoteca.generator import fonts
    mp.setenv("FONTCONFIG_FILE", str(fonts.configure()))
    yield
    mp.undo()


@pytest.fixture(scope="session")
def shared_kit(tmp_path_factory):
    """``shared_kit(*args)``: the folder ``ludoteca build *args`` writes, built once per test
    session, in-process: the first test of any pytest-xdist worker to ask builds it under a lock,
    the others wait for it and read it.  Only for reading: a test that changes a kit copies it."""
    import fcntl
    import hashlib
    import os
    import shutil

    base = tmp_path_factory.getbasetemp()
    root = (base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base) / "shared-kits"
    root.mkdir(exist_ok=True)

    def kit(*args: str):
        name = hashlib.sha256("\0".join(args).encode()).hexdigest()[:12]
        out, done = root / name, root / f"{name}.done"
        with open(root / f"{name}.lock", "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            if not done.exists():
                from ludoteca.cli import main
                shutil.rmtree(out, ignore_errors=True)
                assert main(["build", *args, "--out", str(out), "-q"]) == 0, f"ludoteca build {args} failed"
                done.touch()
        return out
    return kit

"""Rendering workers: forked from a single-threaded process, spawned beside other threads.

A forked child inherits every lock as it was at the fork; one held by another thread (a GUI
toolkit's, a C library's) is never released in the child, which then hangs.  This happened when
the print tests ran after the Kivy app tests in one pytest process.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

SCRIPT = textwrap.dedent("""
    import sys, threading, time
    from pathlib import Path
    from generator import render
    from generator.build import build
    from generator.model import Options

    if sys.argv[1] == "thread":
        threading.Thread(target=time.sleep, args=(120,), daemon=True).start()
    workers = render.Workers()
    workers.start()
    print("method", workers.pool._ctx.get_start_method())
    workers.close()
    build(["ciudadelas"], Options(), Path(sys.argv[2]), None)
    print("built")
""")


def run(mode: str, out: Path) -> str:
    done = subprocess.run([sys.executable, "-c", SCRIPT, mode, str(out)], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout


def test_single_threaded_builds_fork_their_workers(tmp_path):
    out = run("alone", tmp_path / "out")
    assert "method fork" in out and "built" in out


def test_builds_beside_another_thread_spawn_their_workers_and_finish(tmp_path):
    out = run("thread", tmp_path / "out")
    assert "method spawn" in out and "built" in out
    assert (tmp_path / "out" / "ciudadelas" / "districts.pdf").stat().st_size > 10_000

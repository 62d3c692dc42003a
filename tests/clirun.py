"""``ludoteca ARGS`` run in the test's own process, answered as ``subprocess.run`` answers.

For tests of what a command says and returns (its lines on stdout and stderr, its exit code),
where the process itself is not what is tested: a new Python per call costs its start-up and
imports (~0.4 s of CPU, ~0.7 s when OpenCV is imported), the same for every call. A test of the
process as such (a signal, a hang, a missing extra, the installed script) still spawns one.

An exception escaping the command is not turned into a traceback on stderr: it is raised here,
and fails the test that called it as loudly as a traceback would.
"""

from __future__ import annotations

import contextlib
import io
import os
import subprocess
import sys
from pathlib import Path


def ludoteca(*args: object, stdin: str = "", cwd: Path | str | None = None) -> subprocess.CompletedProcess:
    """Run ``ludoteca ARGS`` in-process (in ``cwd`` when given); its exit code, stdout and stderr."""
    from ludoteca.cli import main

    argv = [str(a) for a in args]
    out, err = io.StringIO(), io.StringIO()
    old_cwd = os.getcwd()
    try:
        if cwd is not None:
            os.chdir(cwd)
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err), \
                _stdin(stdin):
            try:
                code = main(argv)
            except SystemExit as exc:  # argparse's refusals, --version, --help: as Python exits
                code = exc.code if isinstance(exc.code, int) else 0 if exc.code is None else 1
                if not isinstance(exc.code, int | None):
                    print(exc.code, file=err)
    finally:
        os.chdir(old_cwd)
    return subprocess.CompletedProcess(["ludoteca", *argv], code, out.getvalue(), err.getvalue())


@contextlib.contextmanager
def _stdin(text: str):
    saved = sys.stdin
    sys.stdin = io.TextIOWrapper(io.BytesIO(text.encode("utf-8")), encoding="utf-8")
    try:
        yield
    finally:
        sys.stdin = saved

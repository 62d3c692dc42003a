"""Fresh virtual environments for the tests that install Ludoteca as a user would (the wheel, the
phone package), at the versions of the project's lock (uv.lock), never whatever is newest today.

uv (in the test extra, at the lock's version) makes the environment and installs into it; the
lock is exported as pip constraints, so an environment holds only what it asks for, each package
at its locked version. With uv's cache warm, an environment takes a second or two.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def uv() -> str:
    """The uv beside the running Python (the project's .venv), else the one on the PATH."""
    beside = Path(sys.executable).parent / "uv"
    found = str(beside) if beside.is_file() else shutil.which("uv")
    if found is None:
        raise RuntimeError("uv is not installed: run scripts/setup.sh (the test extra brings it)")
    return found


def clean_env() -> dict[str, str]:
    """The environment without any PYTHON*, LUDOTECA* or VIRTUAL_ENV variable (no path into the
    checkout), with uv told never to download a Python."""
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("PYTHON", "LUDOTECA")) and k != "VIRTUAL_ENV"}
    env["UV_PYTHON_DOWNLOADS"] = "never"
    return env


def _run(*args: str, cwd: Path | None = None) -> None:
    done = subprocess.run([uv(), *args], capture_output=True, text=True, env=clean_env(), cwd=cwd)
    if done.returncode != 0:
        raise RuntimeError(f"uv {' '.join(args[:2])} failed:\n{done.stderr[-3000:]}")


@cache
def constraints() -> Path:
    """uv.lock as pip constraints (every package, every extra, ``name==version`` with markers)."""
    out = Path(tempfile.mkdtemp(prefix="ludoteca-lock-")) / "constraints.txt"
    _run("export", "--quiet", "--frozen", "--no-hashes", "--all-extras", "--no-emit-project",
         "--no-header", "--output-file", str(out), cwd=ROOT)
    return out


def build_wheel(dist: Path) -> Path:
    """The project's wheel, built with the lock's pinned build backend (``tool.uv``)."""
    _run("build", "--quiet", "--wheel", "--out-dir", str(dist), str(ROOT))
    (found,) = dist.glob("ludoteca-*.whl")
    return found


def make_env(env_dir: Path, *requirements: str) -> Path:
    """A new virtual environment at ``env_dir`` with ``requirements`` installed at the lock's
    versions (and nothing else); returns its ``python``."""
    _run("venv", "--quiet", "--python", sys.executable, str(env_dir))
    python = env_dir / "bin" / "python"
    if requirements:
        _run("pip", "install", "--quiet", "--python", str(python), "--constraint", str(constraints()),
             *requirements, cwd=env_dir)
    return python

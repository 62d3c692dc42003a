"""What the newest releases would break, before the lock is moved to them (not run in CI).

    python bench/newest.py                      # the whole suite against the newest releases
    python bench/newest.py -- tests/test_wheel.py   # only these pytest arguments

Makes a scratch virtual environment, installs Ludoteca (editable, app and test extras) there
with every dependency at its newest release (the ranges of pyproject.toml, ignoring uv.lock),
lists each package whose newest version differs from the lock, then runs the suite in that
environment in the same two parts as scripts/test.sh and lists every test that failed, with the
first line of its error. Exit 0 when nothing breaks. When the list is acceptable, moving the lock
is the deliberate step: ``.venv/bin/uv lock --upgrade``, then ``bash scripts/test.sh``.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import tomllib
import xml.etree.ElementTree as ET
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def uv() -> str:
    found = Path(sys.executable).parent / "uv"
    return str(found) if found.is_file() else (shutil.which("uv") or sys.exit("uv not found: run scripts/setup.sh"))


def locked() -> dict[str, str]:
    """``{package: version}`` of uv.lock (the first entry where a package is locked twice)."""
    lock = tomllib.loads((ROOT / "uv.lock").read_text(encoding="utf-8"))
    out: dict[str, str] = {}
    for package in lock["package"]:
        if "version" in package:
            out.setdefault(package["name"], package["version"])
    return out


def installed(python: Path) -> dict[str, str]:
    done = subprocess.run([uv(), "pip", "list", "--python", str(python), "--format", "json"],
                          capture_output=True, text=True, check=True)
    return {p["name"].lower(): p["version"] for p in json.loads(done.stdout)}


def failures(report: Path) -> list[str]:
    """``test id: first line of the error`` for every failed or erroring test of a JUnit report."""
    if not report.is_file():
        return [f"{report.name}: no report (pytest did not run)"]
    out = []
    for case in ET.parse(report).iter("testcase"):
        for bad in list(case.findall("failure")) + list(case.findall("error")):
            first = (bad.get("message") or bad.text or "").strip().splitlines()[:1]
            out.append(f"{case.get('classname')}::{case.get('name')}: {first[0] if first else ''}"[:300])
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--keep", action="store_true", help="keep the scratch environment (its path is printed)")
    parser.add_argument("pytest_args", nargs="*", help="after --: pytest arguments instead of the whole suite")
    args = parser.parse_args(argv)
    scratch = Path(tempfile.mkdtemp(prefix="ludoteca-newest-"))
    env = {**os.environ, "UV_PYTHON_DOWNLOADS": "never"}
    env.pop("VIRTUAL_ENV", None)
    try:
        venv = scratch / "venv"
        subprocess.run([uv(), "venv", "--quiet", "--python", sys.executable, str(venv)], check=True, env=env)
        python = venv / "bin" / "python"
        subprocess.run([uv(), "pip", "install", "--quiet", "--python", str(python), "--upgrade",
                        "--resolution", "highest", "-e", f"{ROOT}[app,test]"], check=True, env=env, cwd=ROOT)
        lock, now = locked(), installed(python)
        moved = sorted((name, lock.get(name, "-"), version) for name, version in now.items()
                       if name != "ludoteca" and lock.get(name) != version)
        print(f"{len(moved)} package(s) newer than (or missing from) the lock:" if moved else
              "every package is at its locked version")
        for name, old, new in moved:
            print(f"  {name}: {old} -> {new}")
        parts = ([("suite", list(args.pytest_args))] if args.pytest_args else
                 [("print kit, data, engine and scan", ["--ignore-glob=tests/test_app_*"]),
                  ("companion app", [str(p.relative_to(ROOT)) for p in sorted(ROOT.glob("tests/test_app_*.py"))])])
        broken: list[str] = []
        for k, (label, extra) in enumerate(parts):
            report = scratch / f"part{k}.xml"
            done = subprocess.run([str(python), "-m", "pytest", "-q", "-p", "no:cacheprovider", "-n",
                                   str(os.cpu_count() or 1),
                                   f"--junitxml={report}", *extra], cwd=ROOT, env=env, capture_output=True, text=True)
            summary = [line for line in done.stdout.splitlines()
                       if " in " in line and ("passed" in line or "failed" in line)]
            print(f"{label}: {summary[-1] if summary else f'exit {done.returncode}'}")
            broken += failures(report) if done.returncode else []
        print(f"{len(broken)} test(s) break with the newest releases" + (":" if broken else ""))
        for line in broken:
            print(f"  {line}")
        return 1 if broken else 0
    finally:
        if args.keep:
            print(f"scratch environment kept in {scratch}")
        else:
            shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())

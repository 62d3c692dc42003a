"""What ``buildozer.spec`` packages: the spec read as buildozer reads it, and the files it copies.

Buildozer walks ``source.dir``, skips hidden folders and files, drops folders that start with an
entry of ``source.exclude_dirs`` and paths matching ``source.exclude_patterns`` (folders with a
trailing ``/``, both lower-cased), and keeps files whose extension is in ``source.include_exts``.
This module follows those rules so tests can start exactly what the phone would get.
"""

from __future__ import annotations

import ast
import configparser
import os
import shutil
import sys
from fnmatch import fnmatch
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

#: python-for-android recipes that build a standard-library module's C part (the python3 recipe
#: lists them as its own dependencies or optional ones: _sqlite3, _ssl, _ctypes, _bz2, _lzma).
STDLIB_RECIPES = {"sqlite3": "sqlite3", "ssl": "openssl", "ctypes": "libffi", "bz2": "libbz2",
                  "lzma": "liblzma"}
#: Import name -> requirement name, for what the packaged code imports from outside the stdlib.
THIRD_PARTY = {"kivy": "kivy", "yaml": "pyyaml", "jnius": "pyjnius", "android": "android",
               "plyer": "plyer", "cv2": "opencv", "numpy": "numpy", "PIL": "pillow"}
#: Requirements of the spec that are not imported by name: the interpreter itself.
IMPLIED = {"python3"}
#: Requirements pip can install on a desktop to run the packaged files (the rest are Android's).
DESKTOP_PIP = {"kivy", "pyyaml", "plyer", "numpy", "opencv", "pillow"}
PIP_NAMES = {"opencv": "opencv-python-headless"}


def read_spec(path: Path = ROOT / "buildozer.spec") -> configparser.SectionProxy:
    """The ``[app]`` section, with ``%(source.dir)s`` interpolated as buildozer does."""
    parser = configparser.ConfigParser()
    parser.optionxform = str  # type: ignore[assignment]  # keys are case-sensitive
    parser.read(path, encoding="utf-8")
    return parser["app"]


def _list(app: configparser.SectionProxy, key: str) -> list[str]:
    return [item.strip() for item in app.get(key, "").split(",") if item.strip()]


def requirements(app: configparser.SectionProxy) -> dict[str, str]:
    """Requirement name -> its version pin ('' when none), e.g. {'kivy': '==2.3.1'}."""
    found = {}
    for item in _list(app, "requirements"):
        name = item.split("==")[0].strip().lower()
        found[name] = item[len(name):].strip()
    return found


def packaged_files(root: Path = ROOT, app: configparser.SectionProxy | None = None) -> list[Path]:
    """Paths (relative to ``root``) that buildozer would copy into the app."""
    app = app if app is not None else read_spec(root / "buildozer.spec")
    include_exts = set(_list(app, "source.include_exts"))
    exclude_dirs = [d if d.endswith("/") else d + "/" for d in _list(app, "source.exclude_dirs")]
    patterns = _list(app, "source.exclude_patterns")
    chosen = []
    for folder, _dirs, files in os.walk(root):
        rel = Path(folder).relative_to(root)
        if any(part.startswith(".") for part in rel.parts):
            continue
        prefix = (rel.as_posix().lower() + "/") if rel.parts else ""
        if prefix and (any(prefix.startswith(d) for d in exclude_dirs)
                       or any(fnmatch(prefix, p) for p in patterns)):
            continue
        for name in sorted(files):
            if name.startswith("."):
                continue
            relname = prefix + name if prefix else name.lower()
            if any(fnmatch(relname, p) for p in patterns):
                continue
            ext = Path(name).suffix[1:]
            if ext and include_exts and ext not in include_exts:
                continue
            chosen.append(rel / name)
    return sorted(chosen)


def copy_package(dest: Path, root: Path = ROOT) -> list[Path]:
    """Copy the packaged files into ``dest``; the list of them."""
    files = packaged_files(root)
    for rel in files:
        (dest / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(root / rel, dest / rel)
    return files


def imported_modules(root: Path, files: list[Path]) -> dict[str, list[str]]:
    """Top-level module name -> the packaged files importing it (absolute imports only)."""
    found: dict[str, list[str]] = {}
    for rel in files:
        if rel.suffix != ".py":
            continue
        tree = ast.parse((root / rel).read_text("utf-8"), str(rel))
        for node in ast.walk(tree):
            names = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            for name in names:
                found.setdefault(name.split(".")[0], []).append(str(rel))
    return found


def needed_requirements(root: Path, files: list[Path]) -> tuple[set[str], dict[str, list[str]]]:
    """The requirements the imports call for, and imports nothing provides (name -> files)."""
    local = {rel.parts[0] for rel in files if len(rel.parts) > 1} | {rel.stem for rel in files}
    needed, unknown = set(), {}
    for module, users in imported_modules(root, files).items():
        if module in local or module == "__future__":
            continue
        if module in STDLIB_RECIPES:
            needed.add(STDLIB_RECIPES[module])
        elif module in THIRD_PARTY:
            needed.add(THIRD_PARTY[module])
        elif module not in sys.stdlib_module_names:
            unknown[module] = users
    return needed, unknown

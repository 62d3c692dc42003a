"""What the package ships made ahead of time, read at run time: compiled templates and the cairo
binding, in the folder ``_prebuilt/`` beside this module.  :mod:`.prebuild` writes it when the
wheel is built, and ``scripts/setup.sh`` in a checkout (where it is gitignored).

With it a first build on a machine that never ran Ludoteca neither compiles a template (nor
imports jinja) nor parses cairo's headers.  Each file is found by a key made of all it was made
from (a template: the compiler's text, jinja's version, the kind and the template's own text; the
binding: cairocffi's declarations and cffi's version), so a stale file is never found; one that is
missing or does not compile is passed over, and the user cache, then compiling, take over.  The
files are Python source, so installers byte-compile them as they do the package's modules, and
:func:`code` reads that bytecode when it is there.
"""

from __future__ import annotations

import types
from pathlib import Path

#: The folder inside the package.
FOLDER = Path(__file__).resolve().parent / "_prebuilt"
#: Its index (Python source too): ``TEMPLATES``, the key of each compiled template (which says
#: what it was made with) -> the templates it imports (None: the compiler refuses it).
INDEX = "index.py"

_indexes: dict[Path, dict[str, list[str] | None]] = {}


def catalog_file(key: str) -> str:
    """The name of the file that holds the catalog of the package's cards (pickled; key: of
    :func:`~.catalogcache.shipped_key`)."""
    return f"catalog-{key}.pickle"


def template_file(key: str) -> str:
    """The name of the file that holds the compiled template of ``key``."""
    return f"t_{key}.py"


def code(path: Path) -> types.CodeType | None:
    """The code of one shipped file, from its bytecode when the installer wrote it (else compiled
    from the source, the bytecode kept where Python keeps it); None when it is missing or does not
    compile."""
    from importlib.machinery import SourceFileLoader
    try:
        return SourceFileLoader(path.stem, str(path)).get_code(path.stem)
    except Exception:          # missing, unreadable, or not Python this interpreter compiles
        return None


def templates() -> dict[str, list[str] | None]:
    """The index's compiled templates (empty when the folder has none, or its index is damaged),
    read once per process."""
    folder = FOLDER
    found = _indexes.get(folder)
    if found is None:
        found = _indexes[folder] = _read_index(folder / INDEX)
    return found


def _read_index(path: Path) -> dict[str, list[str] | None]:
    made = code(path)
    if made is None:
        return {}
    space: dict = {}
    try:
        exec(made, space)
        entries = space["TEMPLATES"]
    except Exception:
        return {}
    if not isinstance(entries, dict):
        return {}
    return {key: imports for key, imports in entries.items()
            if isinstance(key, str) and (imports is None or (isinstance(imports, list)
                                                             and all(isinstance(i, str) for i in imports)))}

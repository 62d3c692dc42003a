"""The kit's own YAML files (sheets.yaml, words.yaml, shops.yaml), read through a JSON copy.

Importing PyYAML and parsing these files costs a process about 20 ms, a tenth of a small
deck's build.  The first read of a file keeps what it holds as JSON in the cache folder, named
by a hash of the file's place, its bytes and :data:`FORMAT`: a later process reads that (with
:mod:`json`, no PyYAML) while the file is byte for byte the same, and an edited file is parsed
again.  A file whose contents
JSON cannot hold as they are (keys that are not texts, dates) is parsed every time.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

from ludoteca.atomic import cache_dir

from .model import GeneratorError

#: how the copies are made (the YAML reader, the JSON layout): a change here makes new copies
FORMAT = "own-yaml-1"


class Unreadable(GeneratorError):
    """The file cannot be read or is not valid YAML: one line naming it, the reader's words."""


def load(path: Path) -> Any:
    """What the YAML file at ``path`` holds (as ``yamlread.load_own`` reads it)."""
    path = Path(path)
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise Unreadable(f"{path.name}: cannot be read: {exc.strerror or exc}") from None
    folder = cache_dir("data")
    place = hashlib.sha256(f"{FORMAT}\0{path.resolve()}".encode()).hexdigest()[:12]
    prefix = f"{path.stem}-{place}-"
    copy = folder / f"{prefix}{hashlib.sha256(data).hexdigest()[:24]}.json" if folder else None
    if copy is not None:
        try:
            return json.loads(copy.read_bytes())
        except (OSError, ValueError):
            pass
    found = _parse(path)
    if copy is not None:
        text = json.dumps(found, ensure_ascii=False)
        if json.loads(text) == found:          # held as it is: no key turned into a text
            from ludoteca.atomic import write_text
            try:
                for old in copy.parent.glob(f"{prefix}*.json"):    # an earlier version of this file's
                    old.unlink(missing_ok=True)
                write_text(copy, text, durable=False)      # a cache: made again if lost
            except OSError:
                pass
    return found


def _parse(path: Path) -> Any:
    """The file parsed by PyYAML (read from the file, so that its errors name it)."""
    import yaml

    from ludoteca.cards.yamlread import load_own
    try:
        with open(path, encoding="utf-8") as fh:
            return load_own(fh)
    except (OSError, UnicodeDecodeError, yaml.YAMLError) as exc:
        raise Unreadable(f"{path.name}: cannot be read: {' '.join(str(exc).split())}") from None

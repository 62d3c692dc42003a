"""The kit's own YAML files (sheets.yaml, words.yaml, shops.yaml), read through a JSON copy.

Importing PyYAML and parsing these files costs a process about 20 ms, a tenth of a small
deck's build.  The first read of a file keeps what it holds as JSON in the cache folder, named
by a hash of the file's bytes: a later process reads that (with :mod:`json`, no PyYAML) while
the file is byte for byte the same, and an edited file is parsed again.  A file whose contents
JSON cannot hold as they are (keys that are not texts, dates) is parsed every time.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

from ludoteca.atomic import cache_dir


class Unreadable(Exception):
    """The file cannot be read or is not valid YAML; the message is the reader's."""


def load(path: Path) -> Any:
    """What the YAML file at ``path`` holds (as ``yamlread.load_own`` reads it)."""
    try:
        data = Path(path).read_bytes()
    except OSError as exc:
        raise Unreadable(str(exc)) from None
    folder = cache_dir("data")
    copy = folder / f"{Path(path).stem}-{hashlib.sha256(data).hexdigest()[:24]}.json" if folder else None
    if copy is not None:
        try:
            return json.loads(copy.read_bytes())
        except (OSError, ValueError):
            pass
    found = _parse(Path(path))
    if copy is not None:
        text = json.dumps(found, ensure_ascii=False)
        if json.loads(text) == found:          # held as it is: no key turned into a text
            from ludoteca.atomic import write_text
            try:
                for old in copy.parent.glob(f"{Path(path).stem}-*.json"):    # an earlier version's
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
        raise Unreadable(str(exc)) from None

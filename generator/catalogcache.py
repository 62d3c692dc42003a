"""The card data a build reads, kept checked between builds: the same files, read again.

Reading and checking the three games' data (YAML with line numbers, every entry against its
schema) costs a kit build about 0.1 s CPU, before anything can be laid out.  A build whose data
files are byte for byte those of an earlier one, read by the same loader, gets the very same
catalog: :func:`load` keeps it in the cache folder (pickled), named by a hash of every file in
the games' folders (names and bytes: a stray file is a problem the loader reports), of the
loader's own source files and of PyYAML's, and reads it back from there.  Data with a problem is
never kept: its error is raised as :func:`ludoteca.cards.load` raises it, every time.  Without a
cache folder, or without the loader's sources to hash (a package of compiled modules only), the
data is read as usual.

The package ships the catalog of its own cards (:mod:`.shipped`, written when it is built, by
:func:`dumps_anywhere`): its paths (the games' folders, where each entry was read) kept relative to
the cards folder, and found by a hash of the same files without the folder's path, so a first
build on an empty user cache, of those cards wherever they are, reads it with its paths set to
that folder.
"""

from __future__ import annotations

import hashlib
import importlib.util
import os
import pickle
from pathlib import Path, PurePath
from typing import Any

from ludoteca.atomic import cache_dir
from ludoteca.cards.limits import MAX_FILE_BYTES

#: how the copies are made: a change here makes new ones
FORMAT = "catalog-1"
KEPT = 4                  # catalogs kept (checkouts and card folders sharing a cache)


def load(cards_dir: Path | str | os.PathLike | None, games: tuple[str, ...]) -> Any:
    """:func:`ludoteca.cards.load` of ``games`` in ``cards_dir``, from the cache when its inputs
    are the same as when it was kept."""
    from ludoteca.cards import default_dir
    from ludoteca.cards import load as read
    root = Path(cards_dir) if cards_dir is not None else default_dir()
    folder = cache_dir("catalog")
    keys = _keys(root, games) if folder is not None else None
    if keys is None or folder is None:
        return read(cards_dir, games)
    path = folder / f"{keys[0]}.pickle"
    try:
        kept = pickle.loads(path.read_bytes())
        if _is_catalog(kept, games):
            return kept
    except Exception:       # not kept yet, or damaged in any way (a cut file, other bytes): read again
        pass
    try:
        from . import shipped
        kept = _loads_anywhere((shipped.FOLDER / shipped.catalog_file(keys[1])).read_bytes(), root)
        if _is_catalog(kept, games):
            return kept
    except Exception:       # none shipped for these files, or damaged: read
        pass
    catalog = read(cards_dir, games)              # its problems raised here, never kept
    try:
        from ludoteca.atomic import write_bytes
        write_bytes(path, pickle.dumps(catalog, protocol=pickle.HIGHEST_PROTOCOL), durable=False)
        for old in sorted(folder.glob("*.pickle"), key=_mtime, reverse=True)[KEPT:]:
            old.unlink(missing_ok=True)
    except (OSError, pickle.PicklingError, TypeError, AttributeError):
        pass
    return catalog


def _is_catalog(kept: Any, games: tuple[str, ...]) -> bool:
    """Whether what a copy held is a catalog of those games (a file of other bytes may unpickle
    to anything)."""
    from ludoteca.cards.catalog import Catalog, Game
    return type(kept) is Catalog and all(type(kept.get(game)) is Game for game in games)


def _mtime(path: Path) -> float:
    try:
        return path.stat().st_mtime
    except OSError:
        return 0.0


def _keys(root: Path, games: tuple[str, ...]) -> tuple[str, str] | None:
    """Hashes of what the catalog of ``games`` in ``root`` is made from: with the folder's path (a
    catalog kept in the user cache), and without it (one made anywhere, :func:`dumps_anywhere`);
    None when it cannot be told (a folder that cannot be read, no loader sources)."""
    digest = hashlib.sha256(f"{FORMAT}\0{games}\0{pickle.HIGHEST_PROTOCOL}".encode())
    sources = [importlib.util.find_spec(name) for name in ("ludoteca.cards", "yaml")]
    if any(spec is None or not spec.origin for spec in sources):
        return None
    loader = sorted(Path(sources[0].origin).parent.glob("*.py"))      # type: ignore[union-attr, arg-type]
    if not loader:
        return None
    try:
        for path in loader + [Path(sources[1].origin)]:                  # type: ignore[union-attr, arg-type]
            digest.update(f"\0code\0{path.name}\0".encode() + path.read_bytes())
        if not root.is_dir():
            return None
        for game in games:
            base = root / game
            for path in sorted(base.rglob("*")) if base.is_dir() else []:
                rel = path.relative_to(root).as_posix()
                if path.is_symlink() or not (path.is_file() or path.is_dir()):
                    return None                 # a link, a pipe, a device: the loader's to judge
                if path.is_dir():
                    digest.update(f"\0folder\0{rel}".encode())
                    continue
                if path.stat().st_size > MAX_FILE_BYTES:
                    return None                 # refused by the loader before it is read
                digest.update(f"\0file\0{rel}\0".encode() + path.read_bytes())
        here = digest.copy()
        here.update(f"\0root\0{root.resolve()}".encode())
    except OSError:
        return None
    return here.hexdigest()[:32], digest.hexdigest()[:32]


def shipped_key(root: Path, games: tuple[str, ...]) -> str | None:
    """What a catalog made by :func:`dumps_anywhere` is found by."""
    keys = _keys(root, games)
    return keys[1] if keys else None


def dumps_anywhere(catalog: Any) -> bytes:
    """The catalog pickled with every path in its cards folder (``catalog.root``) kept relative
    to it, for :func:`_loads_anywhere` to place in another folder."""
    import io
    out = io.BytesIO()
    _Relative(out, str(catalog.root)).dump(catalog)
    return out.getvalue()


class _Relative(pickle.Pickler):
    """A pickler that writes the paths (and texts of paths) inside ``base`` as relative ids."""

    def __init__(self, out: Any, base: str) -> None:
        super().__init__(out, protocol=pickle.HIGHEST_PROTOCOL)
        self.base = base

    def persistent_id(self, obj: Any) -> Any:
        kind = "path" if isinstance(obj, PurePath) else "text" if type(obj) is str else None
        if kind is None:
            return None
        text = str(obj)
        if text == self.base or text.startswith(self.base + os.sep):
            return kind, Path(os.path.relpath(text, self.base)).as_posix()
        return None


def _loads_anywhere(data: bytes, root: Path) -> Any:
    """A catalog of :func:`dumps_anywhere`, its paths inside the folder ``root``."""
    import io
    return _Placed(io.BytesIO(data), root).load()


class _Placed(pickle.Unpickler):
    """An unpickler that places :class:`_Relative`'s relative paths in ``root``."""

    def __init__(self, data: Any, root: Path) -> None:
        super().__init__(data)
        self.root = root

    def persistent_load(self, pid: Any) -> Any:
        kind, rel = pid
        path = self.root if rel == "." else self.root / rel
        return path if kind == "path" else str(path)

"""Write what the package ships made ahead of time (read by :mod:`.shipped`): every template of
the kit compiled as the kit's own, the templates ``ludoteca deck`` uses by default compiled for
the sandbox (with those they import), the cairo binding, and the catalog of the package's cards.

    python -m ludoteca.generator.prebuild [FOLDER]

FOLDER defaults to the package's own ``_prebuilt/``.  The wheel's build runs this on the built
tree (packaging/wheel_hook.py), ``scripts/setup.sh`` on the checkout.  The folder is replaced
whole: a new one is written beside it and renamed into place.  A piece that cannot be made here
(no jinja, no cffi, no PyYAML) is left out, and made in the user cache at its first use as before.
"""

from __future__ import annotations

import shutil
import sys
from collections.abc import Iterator
from pathlib import Path

from ludoteca.atomic import write_bytes

from . import binding, shipped, templating, trun


def _loaders(kit: list[str] | None) -> Iterator[tuple[trun.Loader, list[str]]]:
    """Each kind of compiled template with the templates made for it: the kit's own, all of
    templates/ (or those named in ``kit``); the sandbox's, the default deck's (each loader's
    search path the one a build has)."""
    yield templating.loader(), kit if kit is not None else sorted(
        p.relative_to(templating.TEMPLATES).as_posix() for p in templating.TEMPLATES.rglob("*.j2"))
    from .cli import example_files
    for path in example_files().values():
        if path.name.endswith(".j2"):
            roots = (str(path.resolve().parent),)
            yield templating.loader(roots, True), [path.name]


def write(folder: Path = shipped.FOLDER, kit: list[str] | None = None) -> list[str]:
    """Write the folder (the kit's templates: all, or those named in ``kit``, with those they
    import); what was left out, one line each."""
    new = folder.with_name(folder.name + ".new")
    shutil.rmtree(new, ignore_errors=True)
    new.mkdir(parents=True)
    try:
        left_out = _write(new, kit)
    except BaseException:
        shutil.rmtree(new, ignore_errors=True)
        raise
    old = folder.with_name(folder.name + ".old")
    shutil.rmtree(old, ignore_errors=True)
    if folder.exists():
        folder.rename(old)
    new.rename(folder)
    shutil.rmtree(old, ignore_errors=True)
    return left_out


def _write(new: Path, kit: list[str] | None) -> list[str]:
    left_out: list[str] = []
    entries: dict[str, list[str] | None] = {}
    if trun.jinja_version():
        _templates(new, kit, entries, left_out)
    else:                                   # its key could not tell one jinja from another
        left_out.append("templates: no jinja here, or one whose version cannot be told")
    try:
        left_out += _binding(new)
    except Exception as exc:                   # no cffi here: the binding is made at its first use
        left_out.append(f"cairo binding: {type(exc).__name__}: {exc}")
    try:
        left_out += _catalog(new)
    except Exception as exc:                   # no PyYAML here: the catalog is read at the first build
        left_out.append(f"card catalog: {type(exc).__name__}: {exc}")
    lines = ["TEMPLATES = {"]
    lines += [f"    {key!r}: {imports!r}," for key, imports in sorted(entries.items())]
    write_bytes(new / shipped.INDEX, ("\n".join(lines) + "\n}\n").encode("utf-8"), durable=False)
    return left_out


def _templates(new: Path, kit: list[str] | None, entries: dict[str, list[str] | None],
               left_out: list[str]) -> None:
    """Each template compiled into its file, and its entry (key -> imports, None if refused)."""
    for loader, names in _loaders(kit):
        todo = list(names)
        while todo:
            name = todo.pop()
            path = loader.find(name)
            if path is None:
                left_out.append(f"{name}: not found")
                continue
            source = Path(path).read_text(encoding="utf-8")
            key = trun.template_key(loader.sandboxed, source, shipped=True)
            if key in entries:
                continue
            try:
                made = loader.translate(name, source)
            except Exception as exc:
                left_out.append(f"{name}: {type(exc).__name__}: {exc}")
                continue
            if made is None:
                entries[key] = None
                continue
            text, imports = made
            write_bytes(new / shipped.template_file(key), text.encode("utf-8"), durable=False)
            entries[key] = imports
            todo += imports


def _binding(folder: Path) -> list[str]:
    found = binding._sources()
    if found is None:
        return ["cairo binding: no cairocffi (or xcffib's declarations)"]
    source, text = found
    names = binding.module_names(text)
    binding._write(source, names, [folder / f"{name}.py" for name in names])
    return []


def _catalog(folder: Path) -> list[str]:
    """The catalog of the package's own cards, every game's, as a whole kit's build loads it."""
    from ludoteca.cards import default_dir, load

    from . import catalogcache
    from .build import GAMES
    root = default_dir()
    key = catalogcache.shipped_key(root, GAMES)
    if key is None:
        return ["card catalog: its files or the loader's cannot be read"]
    write_bytes(folder / shipped.catalog_file(key), catalogcache.dumps_anywhere(load(root, GAMES)), durable=False)
    return []


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    folder = Path(args[0]) if args else shipped.FOLDER
    for line in write(folder):
        print(f"prebuild: left out {line}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""cairo for the generator: cairocffi, with cairo's C declarations parsed once, not at each start.

cairocffi parses cairo's C headers with pycparser every time a process imports it: 0.15-0.2 s in
the build and again in every render worker.  cffi can write the parsed declarations out as a
small Python module (its "out-of-line ABI" mode: no C compiler is involved, the library is still
opened with ``dlopen``), named by a hash of cairocffi's declarations and of the cffi backend's
version.  The package ships that module (:mod:`.shipped`, written when it is built); when it has
none for these declarations, :func:`load` writes it once into the user cache folder.  Every
process loads the declarations from it in a few milliseconds; cairocffi itself is unchanged and
imported as usual, its ``cairocffi.ffi`` module being the loaded one.

Whenever this cannot be done (no cache folder, an xcffib installation whose XCB declarations
cairocffi would add, a cffi that cannot write the module) cairocffi is simply imported as it is.
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib
import importlib.util
import sys
import types
from collections.abc import Iterator
from pathlib import Path
from typing import Any

#: cairocffi's own module of declarations, replaced by the prebuilt one.
FFI_MODULE = "cairocffi.ffi"


def load() -> Any:
    """The ``cairocffi`` module, its declarations loaded from the cache when possible."""
    if "cairocffi" not in sys.modules:
        try:
            prebuilt = _prebuilt()
        except Exception:  # any trouble with the prebuilt module: cairocffi parses its headers
            prebuilt = None
        if prebuilt is not None:
            sys.modules.setdefault(FFI_MODULE, prebuilt)
        _import_without_library_search()
        for name in LAZY:
            _lazy(name)
    return sys.modules["cairocffi"]


#: Modules cairosvg imports at start and needs only for raster images (which the kit's own
#: faces never hold): imported at their first use instead (Pillow's Image: 35 ms per process).
LAZY = ("PIL.Image", "PIL.ImageOps")


def _lazy(name: str) -> None:
    """Put a stand-in for module ``name`` that imports it at its first attribute read (and then
    hands on every read); the import system itself never reads from it (its ``__spec__`` is None)."""
    # the package's spec, not the module's: finding ``PIL.Image`` would import PIL itself
    if name not in sys.modules and importlib.util.find_spec(name.partition(".")[0]) is not None:
        sys.modules[name] = _Deferred(name)


class _Deferred(types.ModuleType):
    """A module imported only when first used (see :func:`_lazy`)."""

    def __getattr__(self, attr: str) -> Any:
        real = self.__dict__.get("_real")
        if real is None:
            if sys.modules.get(self.__name__) is self:
                del sys.modules[self.__name__]
            real = self.__dict__["_real"] = importlib.import_module(self.__name__)
        return getattr(real, attr)


def _import_without_library_search() -> None:
    """``import cairocffi`` without ``ctypes.util.find_library``: on Linux it runs ``ldconfig``
    (and gcc, ld) as subprocesses for each name cairocffi tries, tens of milliseconds, while the
    file names cairocffi tries next (``libcairo.so.2``, ...) are opened directly by the loader.
    There cairocffi is given a stand-in ``ctypes.util`` while it imports, so the real one (and
    the subprocess module it needs) is not even imported."""
    if not sys.platform.startswith("linux"):
        import cairocffi  # noqa: F401
        return
    stand_in = types.ModuleType("ctypes.util")
    stand_in.find_library = lambda _name: None  # type: ignore[attr-defined]
    real = sys.modules.get("ctypes.util")
    sys.modules["ctypes.util"] = stand_in
    try:
        import cairocffi  # noqa: F401
    finally:
        if real is not None:
            sys.modules["ctypes.util"] = real
        else:
            del sys.modules["ctypes.util"]


def _sources() -> tuple[Path, bytes] | None:
    """cairocffi's folder and the text of its declaration files (None: not installed, or XCB)."""
    spec = importlib.util.find_spec("cairocffi")
    if spec is None or not spec.origin or importlib.util.find_spec("xcffib") is not None:
        return None
    folder = Path(spec.origin).parent
    return folder, (folder / "constants.py").read_bytes() + b"\0" + (folder / "ffi.py").read_bytes()


def _prebuilt() -> types.ModuleType | None:
    """A stand-in for ``cairocffi.ffi`` whose ``ffi`` and ``ffi_pixbuf`` come from the modules
    shipped with the package (:mod:`.shipped`), else from the user cache (written there first)."""
    from . import shipped
    from .fonts import cache_dir
    found = _sources()
    if found is None:
        return None
    folder, text = found
    names = module_names(text)
    paths = [shipped.FOLDER / f"{name}.py" for name in names]
    if all(p.is_file() for p in paths):
        try:
            return _stand_in(names, paths)
        except Exception:          # a damaged shipped file: the user cache's, as if it were not there
            pass
    folder_cache = cache_dir("cffi")
    if folder_cache is None:
        return None
    paths = [folder_cache / f"{name}.py" for name in names]
    if not all(p.is_file() for p in paths):
        with _one_at_a_time(folder_cache / ".write.lock"):
            if not all(p.is_file() for p in paths):      # unless another process just wrote them
                _write(folder, names, paths)
    return _stand_in(names, paths)


def module_names(text: bytes) -> tuple[str, str]:
    """The generated modules' names: by cairocffi's declarations and the cffi backend's version,
    so modules written from other declarations, or for another cffi, are never read."""
    import _cffi_backend
    digest = hashlib.sha256(text + _cffi_backend.__version__.encode()).hexdigest()[:16]
    return f"_ludoteca_cairo_{digest}", f"_ludoteca_pixbuf_{digest}"


def _stand_in(names: tuple[str, str], paths: list[Path]) -> types.ModuleType:
    module = types.ModuleType(FFI_MODULE)
    module.__file__ = str(paths[0])
    module.ffi = _load_module(names[0], paths[0]).ffi  # type: ignore[attr-defined]
    module.ffi_pixbuf = _load_module(names[1], paths[1]).ffi  # type: ignore[attr-defined]
    return module


@contextlib.contextmanager
def _one_at_a_time(lock: Path) -> Iterator[None]:
    """Hold ``lock`` (a file) while writing the modules: a build's workers start together on a
    new cache, and one parses the declarations while the other waits and reads them (each
    parsing them cost 0.15 s CPU more).  Without file locks (not POSIX), each writes its own."""
    try:
        import fcntl
        fh = open(lock, "a")
    except (ImportError, OSError):
        yield
        return
    with fh:
        try:
            fcntl.flock(fh, fcntl.LOCK_EX)
        except OSError:
            pass
        yield


def _load_module(name: str, path: Path) -> types.ModuleType:
    """Import a generated module by its name (the pixbuf one imports the cairo one by name)."""
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
    except BaseException:
        del sys.modules[name]
        raise
    return module


def _write(folder: Path, names: tuple[str, str], paths: list[Path]) -> None:
    """Parse cairocffi's declarations (as its ffi.py does) and write both generated modules."""
    import cffi

    from ludoteca.atomic import write_bytes
    constants = _load_module("_ludoteca_cairocffi_constants", folder / "constants.py")
    cairo = cffi.FFI()
    cairo.cdef(constants._CAIRO_HEADERS)
    cairo.set_source(names[0], None, compiler_verbose=False)
    pixbuf = cffi.FFI()
    pixbuf.include(cairo)
    pixbuf.cdef(_pixbuf_declarations(folder))
    pixbuf.set_source(names[1], None, compiler_verbose=False)
    for builder, path in ((cairo, paths[0]), (pixbuf, paths[1])):
        import io
        out = io.StringIO()
        builder.emit_python_code(out)
        write_bytes(path, out.getvalue().encode("utf-8"), durable=False)  # made again if lost


def _pixbuf_declarations(folder: Path) -> str:
    """The gdk-pixbuf declarations cairocffi's ffi.py passes to ``ffi_pixbuf.cdef``."""
    import ast
    tree = ast.parse((folder / "ffi.py").read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                and node.func.attr == "cdef" and isinstance(node.func.value, ast.Name)
                and node.func.value.id == "ffi_pixbuf" and node.args
                and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)):
            return node.args[0].value
    raise ValueError("cairocffi's ffi.py declares no ffi_pixbuf")

"""generator.binding: cairo's declarations come from the cache, the same as cairocffi parses them."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from ludoteca.generator import binding, fonts, shipped


@pytest.fixture
def nothing_shipped(tmp_path, monkeypatch):
    """The user cache's modules, as if the package shipped none (tests/test_generator_shipped.py)."""
    monkeypatch.setattr(shipped, "FOLDER", tmp_path / "package" / "_prebuilt")


def test_prebuilt_declarations_are_the_ones_cairocffi_parses(tmp_path, monkeypatch, nothing_shipped):
    import cffi
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    module = binding._prebuilt()
    assert module is not None and module.__file__.startswith(str(tmp_path))
    folder, _text = binding._sources()
    constants = binding._load_module("_ludoteca_cairocffi_constants", folder / "constants.py")
    parsed = cffi.FFI()
    parsed.cdef(constants._CAIRO_HEADERS)
    assert module.ffi.list_types() == parsed.list_types()
    assert "GdkPixbuf" in module.ffi_pixbuf.list_types()[0]
    again = binding._prebuilt()                      # the second time read, not written
    assert again.__file__ == module.__file__


def test_no_header_parsing_once_the_cache_holds_the_declarations(tmp_path):
    env = dict(os.environ, XDG_CACHE_HOME=str(tmp_path), FONTCONFIG_FILE=str(fonts.configure()))
    code = ("import io, sys\nfrom ludoteca.generator import binding\ncairo = binding.load()\n"
            "out = io.BytesIO()\nsurface = cairo.PDFSurface(out, 100, 100)\n"
            "ctx = cairo.Context(surface)\nctx.set_font_size(12)\nctx.move_to(10, 50)\n"
            "ctx.show_text('Ñuñoa')\nsurface.finish()\nimport cairosvg.surface\n"
            "print('pycparser' in sys.modules, out.getvalue()[:5].decode(), "
            "'PIL._imaging' in sys.modules)")
    runs = [subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                           check=True).stdout.split() for _ in range(2)]
    assert runs[0][1] == runs[1][1] == "%PDF-"
    assert runs[1][0] == "False"                      # the second process parsed nothing
    assert runs[1][2] == "False"                      # and cairosvg did not load Pillow


def test_a_deferred_module_is_the_real_one_at_first_use(monkeypatch):
    import importlib
    import sys
    monkeypatch.delitem(sys.modules, "colorsys", raising=False)
    binding._lazy("colorsys")
    stand_in = sys.modules["colorsys"]
    assert isinstance(stand_in, binding._Deferred)
    assert stand_in.rgb_to_hsv(1, 0, 0) == (0.0, 1.0, 1)       # imported here, then handed on
    assert sys.modules["colorsys"] is importlib.import_module("colorsys") is not stand_in


def test_without_a_cache_folder_cairocffi_is_used_as_it_is(monkeypatch, nothing_shipped):
    monkeypatch.setattr(fonts, "cache_dir", lambda _name: None)
    assert binding._prebuilt() is None


def test_workers_starting_together_on_a_new_cache_parse_the_declarations_once(tmp_path, monkeypatch,
                                                                              nothing_shipped):
    """A build's two workers start at once: one writes the module, the other waits and reads it."""
    import threading
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    write, written = binding._write, []

    def counted(*args):
        written.append(1)
        return write(*args)
    monkeypatch.setattr(binding, "_write", counted)
    found: list = []
    threads = [threading.Thread(target=lambda: found.append(binding._prebuilt())) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(written) == 1
    assert len(found) == 2 and all(m is not None and m.__file__.startswith(str(tmp_path)) for m in found)

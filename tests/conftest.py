"""Session-wide settings of the test suite."""

from __future__ import annotations

import pytest


@pytest.fixture(scope="session", autouse=True)
def private_cache_folder(tmp_path_factory):
    """Every cache (pages, rulebooks, fonts, compiled templates) goes to a folder of this test
    session (one per pytest-xdist worker), never to the user's ~/.cache."""
    mp = pytest.MonkeyPatch()
    mp.setenv("XDG_CACHE_HOME", str(tmp_path_factory.mktemp("xdg-cache")))
    # fontconfig reads FONTCONFIG_FILE once, at the first text cairo draws in a process: every build
    # sets it first, and so does each test process, whichever test draws first (else the system's
    # fonts stand in for Vera for the rest of that process)
    from ludoteca.generator import fonts
    mp.setenv("FONTCONFIG_FILE", str(fonts.configure()))
    yield
    mp.undo()

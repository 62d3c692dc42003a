"""Where the saved games live, a mutation run (bench/mutation.py, seed 40925) found unpinned."""

from __future__ import annotations

from ludoteca.companion.engine.store import default_db_path


def test_the_database_lives_in_appdata_on_windows_and_falls_back_to_roaming(monkeypatch, tmp_path):
    # Windows: %APPDATA%\ludoteca\ludoteca.db; without APPDATA, the home's AppData\Roaming.
    monkeypatch.delenv("LUDOTECA_DB", raising=False)
    monkeypatch.setattr("sys.platform", "win32")
    monkeypatch.setenv("APPDATA", str(tmp_path / "Roaming"))
    assert default_db_path() == tmp_path / "Roaming" / "ludoteca" / "ludoteca.db"
    monkeypatch.delenv("APPDATA")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert default_db_path() == tmp_path / "home" / "AppData" / "Roaming" / "ludoteca" / "ludoteca.db"

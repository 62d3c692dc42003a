"""Where the saved games live, a mutation run (bench/mutation.py, seed 40925) found unpinned."""

from __future__ import annotations

from ludoteca.companion.engine import Store
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


def test_two_damaged_files_set_aside_in_the_same_second_get_their_own_names(tmp_path, monkeypatch):
    # The second one in a second is x.db.damaged-<time>-2 (the first keeps x.db.damaged-<time>).
    import datetime as dt

    class Frozen(dt.datetime):
        @classmethod
        def now(cls, tz=None):
            return cls(2026, 11, 25, 12, 0, 0)

    monkeypatch.setattr("ludoteca.companion.engine.store.datetime", Frozen)
    path = tmp_path / "x.db"
    Store(path).close()
    data = bytearray(path.read_bytes())
    data[:100] = bytes(100)                          # the header wiped: Ludoteca's file, damaged
    for _ in range(2):
        path.write_bytes(bytes(data))
        Store(path).close()
    assert sorted(p.name for p in tmp_path.glob("x.db.damaged-*")) == [
        "x.db.damaged-20261125-120000", "x.db.damaged-20261125-120000-2"]

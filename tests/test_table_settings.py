"""Settings that behave: LUDOTECA_SETTINGS is a file, settings follow the database, and the first
start speaks the system's language."""

from __future__ import annotations

import json
from pathlib import Path

from ludoteca.companion.app.settings import Settings, settings_file, system_lang


def test_ludoteca_settings_names_a_file_not_a_folder(tmp_path, monkeypatch):
    target = tmp_path / "conf" / "mine.json"
    monkeypatch.setenv("LUDOTECA_SETTINGS", str(target))
    Settings(lang="en", voice=False).save()
    assert target.is_file() and not (target / "companion.json").exists()
    assert json.loads(target.read_text("utf-8"))["voice"] is False
    loaded = Settings.load()
    assert loaded.lang == "en" and loaded.voice is False


def test_an_existing_folder_still_holds_companion_json(tmp_path, monkeypatch):
    monkeypatch.setenv("LUDOTECA_SETTINGS", str(tmp_path))
    assert settings_file() == tmp_path / "companion.json"


def test_settings_follow_the_database(tmp_path, monkeypatch):
    monkeypatch.delenv("LUDOTECA_SETTINGS", raising=False)
    assert settings_file(db=tmp_path / "club.db") == tmp_path / "club.settings.json"
    assert settings_file(db=tmp_path / "ludoteca.db") == tmp_path / "companion.json"
    Settings(lang="en").save(db=tmp_path / "club.db")
    assert Settings.load(db=tmp_path / "club.db").lang == "en"
    monkeypatch.setenv("LANGUAGE", "es_ES")
    assert Settings.load(db=tmp_path / "other.db").lang == "es"  # another database: its own settings


def test_first_start_follows_the_system_language(tmp_path, monkeypatch):
    for var in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("LANG", "en_GB.UTF-8")
    assert system_lang() == "en"
    assert Settings.load(tmp_path / "new.json").lang == "en"
    monkeypatch.setenv("LANGUAGE", "es_MX:en")
    assert system_lang() == "es"
    monkeypatch.setenv("LANGUAGE", "fr_FR")
    assert system_lang() == "es"  # a language the app does not speak: Spanish first
    (tmp_path / "old.json").write_text('{"lang": "es"}', "utf-8")
    monkeypatch.setenv("LANGUAGE", "en_US")
    assert Settings.load(tmp_path / "old.json").lang == "es"  # a saved choice wins over the system


GOOD = {"lang": "en", "keep_awake": True, "open_game": 12, "voice": False,
        "colours": {"12": ["red", "blue"]}}

#: name -> (the file's bytes, the fields Settings.load must give); a file that is not settings at
#: all gives the defaults, a value of the wrong kind its own default (Spanish, voice on, nothing open)
HOSTILE: dict[str, tuple[bytes, dict]] = {
    "good": (json.dumps(GOOD).encode(), GOOD),
    "too_large": (b'{"lang": "en", "pad": "' + b"x" * (70 * 1024) + b'"}', {"lang": "es"}),
    "huge_file": (b" " * (8 * 1024 * 1024) + b"{}", {"lang": "es"}),
    "deep_list": (b"[" * 200_000 + b"]" * 200_000, {"lang": "es"}),
    "deep_in_colours": (b'{"lang": "en", "colours": ' + b"[" * 5000 + b"]" * 5000 + b"}", {"lang": "es"}),
    "latin1_bytes": ('{"lang": "en", "x": "año"}'.encode("latin-1"), {"lang": "es"}),
    "utf16": (json.dumps(GOOD).encode("utf-16"), {"lang": "es"}),
    "not_json": (b"lang = en\n", {"lang": "es"}),
    "a_list": (b'["en"]', {"lang": "es"}),
    "long_number": (b'{"lang": "en", "open_game": 1' + b"0" * 5000 + b"}", {"lang": "es"}),
    "wrong_kinds": (json.dumps({"lang": "fr", "keep_awake": "yes", "voice": "no", "open_game": True,
                                "colours": ["red"]}).encode(),
                    {"lang": "es", "keep_awake": False, "voice": True, "open_game": None, "colours": {}}),
    "bad_colours_dropped": (json.dumps({"lang": "en", "colours": {
        "1": ["red", "morado_neon"], "2": "blue", "3": ["blue"] * 100, "4": ["green", "blue"]}}).encode(),
        {"lang": "en", "colours": {"4": ["green", "blue"]}}),
    "negative_and_huge_game": (b'{"open_game": -3, "voice": false}', {"open_game": None, "voice": False}),
    "text_game_id_too_long": (json.dumps({"open_game": "x" * 65}).encode(), {"open_game": None}),
}


def test_hostile_settings_files_give_defaults_never_a_traceback(tmp_path):
    from ludoteca.companion.app import theme
    assert {"red", "blue", "green"} <= {c[0] for c in theme.PLAYER_COLOURS}  # the colours used above
    for name, (data, expected) in HOSTILE.items():
        path = tmp_path / f"{name}.json"
        path.write_bytes(data)
        loaded = Settings.load(path)
        got = {key: getattr(loaded, key) for key in expected}
        assert got == expected, name
        assert path.read_bytes() == data, f"{name}: loading changed the file"


def test_hostile_settings_stay_within_memory(tmp_path):
    """Every hostile file of the table loaded in one process whose address space is capped at what
    it holds idle plus 200 MB (the hostile corpus' bound)."""
    import subprocess
    import sys
    for name, (data, _expected) in HOSTILE.items():
        (tmp_path / f"{name}.json").write_bytes(data)
    script = (
        "import sys\n"
        "from pathlib import Path\n"
        "sys.path.insert(0, sys.argv[2])\n"
        "from corpus import limit_memory\n"
        "from ludoteca.companion.app.settings import Settings\n"
        "limit_memory()\n"
        "for path in sorted(Path(sys.argv[1]).glob('*.json')):\n"
        "    Settings.load(path)\n"
        "print('loaded', len(list(Path(sys.argv[1]).glob('*.json'))))\n")
    hostile = Path(__file__).parent / "hostile"  # the corpus' own memory cap: idle + 200 MB
    done = subprocess.run([sys.executable, "-c", script, str(tmp_path), str(hostile)], capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip() == f"loaded {len(HOSTILE)}"
    assert "Traceback" not in done.stderr

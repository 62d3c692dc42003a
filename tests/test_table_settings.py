"""Settings that behave: LUDOTECA_SETTINGS is a file, settings follow the database, and the first
start speaks the system's language."""

from __future__ import annotations

import json

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

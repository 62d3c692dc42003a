"""Language switch, and the layout at a 360x640 dp phone and a tablet: no text cut off in either
language, touch targets of at least 48 dp."""

from __future__ import annotations

import json

import pytest

from appdriver import drv, new_game  # noqa: F401  (drv is a fixture)

LONG_NAMES = ["Maximiliano", "Guadalupe", "Bartolomé", "Esperanza", "Leopoldina", "Constantino", "Inmaculada"]


def check(drv, name: str) -> None:
    drv.shot(name)
    assert drv.cut_texts() == [], (name, drv.cut_texts())
    assert drv.small_targets() == [], (name, drv.small_targets())


def test_language_switch_is_remembered_and_translates_the_screens(drv):
    assert drv.find("language").text == "Idioma: Español"
    drv.press("language")
    assert drv.app.lang == "en"
    assert drv.find("language").text == "Language: English"
    assert "New game" in drv.texts() and "Nueva partida" not in drv.texts()
    settings = json.loads((drv.settings).read_text("utf-8"))
    assert settings["lang"] == "en"
    check(drv, "home_en")
    new_game(drv, "ciudadelas", ["Ana", "Luis", "Eva", "Pablo"])
    assert "Character pick" in drv.texts() and "Character discard" not in drv.texts()  # 4 players: no discard
    assert "Assassin" in drv.texts() or "Thief" in drv.texts()
    check(drv, "ciudadelas_en")


def test_keep_awake_switch_reaches_the_platform_service(drv):
    assert drv.app.services.awake is False
    switch = drv.find("keep_awake")
    switch.active = True
    drv.step(2)
    assert drv.app.services.awake is True
    settings = json.loads((drv.settings).read_text("utf-8"))
    assert settings["keep_awake"] is True


@pytest.mark.parametrize("lang", ["es", "en"])
@pytest.mark.parametrize("size", [(360, 640), (800, 1280)])
def test_nothing_cut_off_with_seven_long_names(drv, lang, size):
    drv.resize(size)
    if lang != drv.app.lang:
        drv.press("language")
    check(drv, "home")
    new_game(drv, "ciudadelas", LONG_NAMES)
    check(drv, "ciudadelas_draft")
    for _ in range(7):
        drv.press(drv.wids("choose_")[0])
    check(drv, "ciudadelas_call")
    while drv.state["phase"] == "call":
        drv.press("call")
    check(drv, "ciudadelas_turn")
    drv.press("home")
    new_game(drv, "gladiadores", LONG_NAMES[:4])
    check(drv, "gladiadores")
    drv.press("home")
    new_game(drv, "el_mapa", LONG_NAMES[:4])
    check(drv, "el_mapa")
    drv.press("home")
    drv.press("history")
    check(drv, "history")

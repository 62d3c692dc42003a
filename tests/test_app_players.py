"""The Players screen: the game's player range, colours, seat order, who starts, bad names."""

from __future__ import annotations

from appdriver import drv  # noqa: F401  (drv is a fixture)


def names(drv) -> list[str]:
    return [row.ids.name.text for row in drv.find("rows").children[::-1]]


def test_range_order_colours_and_starter(drv):
    drv.press("new_el_mapa")
    meta = drv.app.game_data("el_mapa").meta["players"]
    assert drv.app.t("players_range", min=meta["min"], max=meta["max"]) in drv.texts()
    while not drv.find("add").disabled:
        drv.press("add")
    assert len(names(drv)) == meta["max"]
    for _ in range(meta["max"] - 3):
        drv.press("remove_3")
    for row, name in zip(drv.find("rows").children[::-1], ["Ana", "Luis", "Eva"]):
        row.ids.name.text = name
    drv.press("down_0")
    assert names(drv) == ["Luis", "Ana", "Eva"]
    assert drv.find("up_0").disabled and drv.find("down_2").disabled
    colours = list(drv.screen.colours)
    drv.press("colour_2")
    assert drv.screen.colours[2] != colours[2] and len(set(drv.screen.colours)) == 3
    drv.press("first_2")  # Eva starts: seats rotate, the order round the table is kept
    drv.shot("players")
    chosen = list(drv.screen.colours)
    drv.press("start")
    assert [p["name"] for p in drv.state["players"]] == ["Eva", "Luis", "Ana"]
    assert drv.state["active"] == 0
    assert [drv.app.colour_of(i) for i in range(3)] == [chosen[2], chosen[0], chosen[1]]


def test_bad_names_are_refused_on_the_screen(drv):
    drv.press("new_ciudadelas")
    drv.press("start")
    assert drv.app.root.current == "players"
    assert drv.screen.error == "falta el nombre del jugador 1"  # the engine's words
    rows = drv.find("rows").children[::-1]
    rows[0].ids.name.text = "Ana"
    rows[1].ids.name.text = "ana"
    drv.press("start")
    assert drv.screen.error == "el nombre Ana está repetido"
    drv.press("remove_1")
    assert drv.screen.error == drv.app.t("too_few", min=2)
    drv.shot("errors")
    assert drv.app.store.unfinished() == []


def test_cards_decide_who_starts_in_gladiadores(drv):
    """"Empieza" and "Al azar" are disabled and say why, as every refused button does."""
    drv.press("new_gladiadores")
    reason = drv.app.t("first_by_deal")
    for wid in ("random", "first_0", "first_1"):
        button = drv.find(wid)
        assert button.disabled and button.text.endswith(f"\n{reason}"), (wid, button.text)
    assert drv.cut_texts() == [], drv.cut_texts()
    drv.shot("players")
    drv.app.set_lang("en")
    drv.step(2)
    assert drv.text("random").endswith("\n" + drv.app.t("first_by_deal")) and drv.app.lang == "en"


def test_a_game_whose_data_cannot_be_read_cannot_be_started(drv, monkeypatch):
    real = drv.app.store.data

    def broken(game):
        if game == "el_mapa":
            raise OSError("cards/el_mapa/tiles.yaml: no such file")
        return real(game)

    monkeypatch.setattr(drv.app.store, "data", broken)
    monkeypatch.setattr(drv.app, "catalog", {})
    drv.app.root.get_screen("home").refresh()
    drv.step(2)
    assert drv.find("new_el_mapa").disabled and not drv.find("new_ciudadelas").disabled
    assert "sin datos" in drv.find("new_el_mapa").text
    assert drv.app.message == ("No se pueden leer los datos de un juego: "
                               "cards/el_mapa/tiles.yaml: no such file")
    drv.shot("no_data")


def test_gladiadores_players_come_from_the_engine(drv):
    # 2 to 4 players in game.yaml (the fifth only with the expansion option, which the app does not
    # offer): the Add button stops at 4; the cards decide who starts, so there is no starter to pick
    drv.press("new_gladiadores")
    while not drv.find("add").disabled:
        drv.press("add")
    assert len(names(drv)) == 4
    assert not drv.screen.choose_first


def test_options_come_from_the_schema_and_reach_the_game(drv):
    # Gladiadores declares target (a number), quick and expansion (yes/no); expansion raises the
    # player range to game.yaml's expansion_max (5)
    drv.press("new_gladiadores")
    assert {"option_target", "option_quick", "option_expansion"} <= set(drv.wids())
    assert drv.find("option_expansion").text == "Un quinto jugador con los edificios V: no"
    while not drv.find("add").disabled:
        drv.press("add")
    assert len(names(drv)) == 4
    drv.press("option_expansion")
    assert drv.find("option_expansion").text.endswith(": sí")
    assert drv.app.t("players_range", min=2, max=5) in drv.texts()
    drv.press("add")
    assert len(names(drv)) == 5 and drv.find("add").disabled
    drv.find("option_target").text = "12"
    for row, name in zip(drv.find("rows").children[::-1], ["Ana", "Luis", "Eva", "Io", "Tito"]):
        row.ids.name.text = name
    drv.shot("gladiadores_options")
    drv.press("start")
    assert drv.app.session.options["expansion"] is True and drv.state["target"] == 12
    assert len(drv.state["players"]) == 5


def test_turning_an_option_off_takes_the_extra_seat_away_and_lists_choices(drv):
    drv.press("new_gladiadores")
    drv.press("option_expansion")
    while not drv.find("add").disabled:
        drv.press("add")
    assert len(names(drv)) == 5
    drv.press("option_expansion")
    assert len(names(drv)) == 4
    drv.press("back")
    drv.press("new_el_mapa")  # a list option: one toggle per variant of variants.yaml
    variants = drv.app.game_data("el_mapa").entries("variant")
    assert {f"option_variants_{v['id']}" for v in variants} <= set(drv.wids())
    drv.press(f"option_variants_{variants[0]['id']}")
    assert drv.screen.chosen["variants"] == sorted({v["id"] for v in variants if v.get("enabled_by_default")}
                                                   ^ {variants[0]["id"]})
    drv.shot("el_mapa_options")

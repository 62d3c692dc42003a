"""A short game of El Mapa on the app: resources with + / -, the turn-start summary, hiring,
building, the bank, revealing every tile, the end condition and the final scoring."""

from __future__ import annotations

from appdriver import drv, new_game  # noqa: F401  (drv is a fixture)


def test_short_game_to_final_scoring(drv):
    new_game(drv, "el_mapa", ["Ana", "Luis"])
    state = drv.state
    assert state["active"] == 0  # Ana starts, as chosen on the Players screen
    assert drv.app.t("turn_start") in drv.texts()
    drv.shot("turn_start")
    assert drv.cut_texts() == [], drv.cut_texts()
    # + / - on a resource is a correction the engine saves.
    gold = state["players"][1]["oro"]
    drv.press("p1_oro_plus")
    assert drv.state["players"][1]["oro"] == gold + 1
    drv.press("p1_oro_minus")
    assert drv.state["players"][1]["oro"] == gold
    drv.press("p0_madera_plus")
    drv.press("p0_piedra_plus")
    for _ in range(10):
        drv.press("p0_oro_plus", frames=1)
    if not drv.find("hire").disabled:
        drv.press("hire")
        drv.shot("hire")
        reserve = dict(drv.state["players"][0]["reserve"])
        drv.press_first("hire_")
        assert drv.state["players"][0]["reserve"] != reserve
    drv.press("build")
    drv.shot("build")
    assert drv.press_first("build_") == 1, drv.app.message
    built = [b for c in drv.state["players"][0]["castles"] for b in c["slots"].values()]
    assert built
    drv.shot("built")
    # A won battle against neutral troops adds battle points (troop points from the card data).
    drv.press("battle")
    drv.press("winner_0")
    drv.press("loser_neutral")
    drv.press("defeated_leva_plus")
    drv.press("defeated_leva_plus")
    drv.shot("battle")
    drv.press("record_battle")
    assert drv.state["players"][0]["defeated"] == {"leva": 2}, drv.app.message
    points = drv.app.game_data("el_mapa").get("troop", "leva")["points"] * 2
    assert f"{drv.app.t('battle_points')}: {points}" in drv.texts()
    # A village found on the map.
    villages = drv.state["players"][0]["villages"]
    drv.press("tile")
    drv.press("claim_village")
    assert drv.state["players"][0]["villages"] == villages + 1
    # Reveal the whole map: the last tile makes this the last turn.
    while drv.state["map"]["hidden"]:
        drv.press("reveal", frames=1)
    assert drv.state["last_turn_reason"]
    drv.shot("last_turn")
    drv.press("end_turn")
    assert drv.app.root.current == "final"
    assert drv.state["finished"] and drv.state["final"]["winners"]
    assert drv.cut_texts() == []
    drv.shot("final")
    # Undo is one tap away on the final screen too: back to the last turn, and redo again.
    drv.press("undo")
    assert drv.app.root.current == "el_mapa" and not drv.state["finished"]
    drv.press("redo")
    assert drv.app.root.current == "final" and drv.state["finished"]

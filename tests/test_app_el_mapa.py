"""A short game of El Mapa on the app: resources with + / -, the turn-start summary, hiring,
building, the bank, revealing every tile, the end condition and the final scoring."""

from __future__ import annotations

from appdriver import AppDriver, assert_refused, both_languages, drv, new_game, table  # noqa: F401  (fixtures)
from ludoteca.companion.app.strings import count
from ludoteca.companion.engine.common import move_refusal, refusals
from ludoteca.companion.engine.games import el_mapa as M
from test_app_actions import open_game


def test_full_game_to_final_scoring(table):
    """A whole game through the app's buttons, at 480x800 in Spanish and 720x1280 in English (every
    screen also shot in the other language)."""
    drv = table
    new_game(drv, "el_mapa", ["Ana", "Luis"])
    state = drv.state
    assert state["active"] == 0  # Ana starts, as chosen on the Players screen
    assert drv.app.t("turn_start") in drv.texts()
    both_languages(drv, "turn_start")
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
        both_languages(drv, "hire")
        reserve = dict(drv.state["players"][0]["reserve"])
        drv.press_first("hire_")
        assert drv.state["players"][0]["reserve"] != reserve
    drv.press("build")
    both_languages(drv, "build")
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
    both_languages(drv, "battle")
    drv.press("record_battle")
    assert drv.state["players"][0]["defeated"] == {"leva": 2}, drv.app.message
    points = drv.app.game_data("el_mapa").get("troop", "leva")["points"] * 2
    assert f"{drv.app.t('battle_points')}: {points}" in drv.texts()
    # A village found on the map.
    villages = drv.state["players"][0]["villages"]
    drv.press("tile")
    drv.press("claim_village")
    assert drv.state["players"][0]["villages"] == villages + 1
    # Reveal the whole map at once (issue 22 #10: one number, not a tap per tile): more tiles than are
    # face down is refused with the engine's words; the rest is one action, undone as one.
    hidden = drv.state["map"]["hidden"]
    drv.press("reveal")
    drv.type("reveal_count", str(hidden + 1))
    assert_refused(drv, "reveal_confirm", engine_says(drv, {"action": "reveal", "count": hidden + 1}))
    drv.press("reveal_minus")
    assert drv.text("reveal_count") == str(hidden)
    assert drv.text("reveal_confirm") == count("reveal_tiles", hidden, drv.app.lang)
    both_languages(drv, "reveal_panel")
    seq = drv.app.session.seq
    drv.press("reveal_confirm")
    assert drv.app.session.seq == seq + 1 and drv.state["map"]["hidden"] == 0
    assert drv.state["players"][0]["tiles_revealed"] == hidden
    drv.press("undo")
    assert drv.state["map"]["hidden"] == hidden and drv.state["players"][0]["tiles_revealed"] == 0
    drv.press("redo")
    assert drv.state["last_turn_reason"]
    drv.shot("last_turn")
    drv.press("end_turn")
    assert drv.app.root.current == "final"
    assert drv.state["finished"] and drv.state["final"]["winners"]
    both_languages(drv, "final")
    final_in_view(drv)
    # Undo is one tap away on the final screen too: back to the last turn, and redo again.
    drv.press("undo")
    assert drv.app.root.current == "el_mapa" and not drv.state["finished"]
    drv.press("redo")
    assert drv.app.root.current == "final" and drv.state["finished"]


def final_in_view(drv: AppDriver) -> None:
    """The final screen as it opens: every player's place in sight without scrolling, each across the
    window's width; share, export and scan under the list (issue 22 #5: the ranking had ~240 px)."""
    from kivy.core.window import Window
    from test_app_layout import on_window

    heads = [f"rank_{seat}" for seat in range(len(drv.state["players"]))]
    assert [h for h in heads if not on_window(drv, h)] == [], heads
    assert all(drv.find(h).width >= 0.9 * Window.width for h in heads), [drv.find(h).width for h in heads]
    assert all(on_window(drv, wid) for wid in ("share", "to_exports", "scan"))
    drv.press("to_exports")
    assert on_window(drv, "export_json") and on_window(drv, "bgstats_push")
    drv.find("scroll").scroll_y = 1
    drv.step(2)


def engine_says(drv: AppDriver, action: dict | str) -> str:
    """The engine's Spanish reason against an action, or against every form of a move (by name)."""
    state, data = drv.state, drv.app.game_data("el_mapa")
    reason = (move_refusal(M.MOVES, state, data, action) if isinstance(action, str)
              else refusals(M.MOVES, state, data, [action])[0])
    assert reason is not None, f"{action} is open"
    return reason[drv.app.lang]


def test_hire_build_and_trade_are_disabled_with_the_engines_reasons(drv):
    """Seed 1, Ana first: 3 gold, 1 wood, 1 stone, one castle, one trained levy, no Market."""
    open_game(drv, "el_mapa", ["Ana", "Luis"], seed=1, first="Ana")
    ana = drv.state["players"][0]
    assert (ana["oro"], ana["madera"], ana["piedra"]) == (3, 1, 1)
    assert_refused(drv, "trade", "necesitas Mercado para comerciar")
    assert_refused(drv, "trade", engine_says(drv, "trade"))
    assert not drv.find("hire").disabled and not drv.find("build").disabled
    assert drv.cut_texts() == [], drv.cut_texts()
    drv.shot("no_market")
    # Build: every building of this game, the refused ones with the engine's reason; no variant ones.
    drv.press("build")
    shown = {w.removeprefix("build_").rsplit("_", 1)[0] for w in drv.wids("build_")}
    assert shown == {b["id"] for b in drv.app.game_data("el_mapa").entries("building") if not b.get("variant")}
    wonder = {"action": "build", "building": "piramides", "castle": 0}
    assert_refused(drv, "build_piramides_0", engine_says(drv, wonder))
    drv.shot("build_panel")
    drv.press("build_mercado_0")
    assert drv.state["players"][0]["castles"][0]["slots"], drv.app.message
    assert_refused(drv, "build", "ya construiste en este castillo este turno")
    # Trade: the bank's lines from the data, worded by the engine's table; 2 gold cannot buy stone.
    drv.press("trade")
    assert [drv.text(f"trade_{give}_{get}").split("\n")[0] for give, get in
            (("madera", "oro"), ("piedra", "oro"), ("oro", "madera"), ("oro", "piedra"))] == [
        "1 Madera por 1 Oro", "1 Piedra por 2 Oro", "2 Oro por 1 Madera", "3 Oro por 1 Piedra"]
    assert_refused(drv, "trade_oro_piedra", "Ana tiene 2 de Oro y necesita 3")
    assert_refused(drv, "trade_oro_piedra", engine_says(drv, {"action": "trade", "give": "oro", "get": "piedra"}))
    assert drv.cut_texts() == [], drv.cut_texts()
    drv.shot("trade_panel")
    drv.press("trade_madera_oro")
    assert (drv.state["players"][0]["oro"], drv.state["players"][0]["madera"]) == (3, 0)
    drv.press("trade")
    assert_refused(drv, "trade_madera_oro", "Ana tiene 0 de Madera y necesita 1")
    # Hire: with no gold left, the Hire button says so.
    for _ in range(drv.state["players"][0]["oro"]):
        drv.press("p0_oro_minus", frames=1)
    assert_refused(drv, "hire", "Ana tiene 0 de Oro y necesita 1")
    assert_refused(drv, "hire", engine_says(drv, "hire"))
    assert drv.cut_texts() == [], drv.cut_texts()
    drv.shot("no_gold")

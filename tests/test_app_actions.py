"""Screens for the less common actions, pressed in a real window: Ciudadelas' purple districts and
the Warlord's prices, El Mapa's full battle form, Gladiadores' chain (Officina) and destroy (Aries),
and the final scores' labels, all shown from the engine's state.  Positions are set up through the
engine's own actions (``adjust`` and the game's moves), sent by the app."""

from __future__ import annotations

from appdriver import AppDriver, drv  # noqa: F401  (drv is a fixture)
from ludoteca.companion.engine.common import refusals
from ludoteca.companion.engine.games import ciudadelas as C
from ludoteca.companion.engine.games import el_mapa as M
from ludoteca.companion.engine.games import gladiadores as G
from test_engine_helpers import play_to_end


def open_game(drv: AppDriver, game: str, names: list[str], seed: int, **options) -> None:
    """Start a seeded game in the engine and open it in the app (as the resume list does)."""
    session = drv.app.store.new_game(game, names, seed=seed, options=options)
    drv.app.resume(session.id)
    drv.step(2)
    assert drv.app.root.current == game


def act(drv: AppDriver, action: dict) -> None:
    assert drv.app.act(action), drv.app.message
    drv.step(2)


def both_languages(drv: AppDriver, name: str) -> None:
    """A screenshot in Spanish and in English, nothing cut off in either."""
    for lang in ("es", "en"):
        drv.app.set_lang(lang)
        drv.step(2)
        assert drv.cut_texts() == [], (lang, drv.cut_texts())
        drv.shot(f"{name}_{lang}")
    drv.app.set_lang("es")
    drv.step(2)


def to_turn_of(drv: AppDriver, character: str | None = None) -> None:
    """Press through the draft (seat 0 takes ``character``) and the calls until ``character``'s turn
    (or the first turn); other players' turns end at once."""
    for _ in range(200):
        state = drv.state
        if state["phase"] == "choose":
            wanted = f"choose_{character}"
            options = drv.wids("choose_")
            if state["active"] == 0 and wanted in options:
                drv.press(wanted)
            else:
                drv.press([w for w in options if w != wanted][0])
        elif state["phase"] == "call":
            drv.press("call")
        elif character is None or state["turn"]["character"] == character:
            return
        else:
            drv.press("end_turn")
    raise AssertionError("the turn never came")


def test_ciudadelas_use_district_and_destroy_prices(drv):
    open_game(drv, "ciudadelas", ["Ana", "Luis", "Eva"], seed=1, crown="Ana")
    assert "warlord" in drv.state["draft"]["available"]
    to_turn_of(drv)
    seat = drv.state["active"]
    name = drv.state["players"][seat]["name"]
    assert drv.state["turn"]["character"] != "warlord"  # this player builds a Laboratory, then uses it
    act(drv, {"action": "adjust", "player": name, "resource": "gold", "delta": 10})
    act(drv, {"action": "adjust", "player": name, "resource": "hand", "delta": 2})
    act(drv, {"action": "take_gold"})
    act(drv, {"action": "build", "district": "laboratory"})
    me = drv.state["players"][seat]
    assert "use_laboratory" in drv.wids("use_")
    lab_card = drv.app.game_data("ciudadelas").get("district", "laboratory")
    assert drv.app.t("use_district", name=lab_card["name"]["es"]) in drv.texts()
    both_languages(drv, "use_district")
    drv.press("use_laboratory")
    after = drv.state["players"][seat]
    assert (after["hand"], after["gold"]) == (me["hand"] - 1, me["gold"] + 1)
    lab = drv.find("use_laboratory")  # once a turn: disabled with the engine's reason
    assert lab.disabled and lab.text.endswith("\nLaboratorio ya se usó este turno")
    worth = lab_card.get("points", lab_card["cost"])
    assert drv.state["players"][seat]["city_points"] == worth
    assert drv.app.t("points", n=worth) in drv.texts()
    drv.press("end_turn")
    victim = seat
    to_turn_of(drv, "warlord")
    warlord = drv.state["active"]
    act(drv, {"action": "adjust", "player": drv.state["players"][warlord]["name"], "resource": "gold", "delta": 9})
    drv.press("power_destroy")
    targets = C.destroy_targets(drv.state, drv.app.game_data("ciudadelas"))
    assert targets and {t["seat"] for t in targets} <= {i for i in range(3) if i != warlord}
    both_languages(drv, "destroy")
    lab = next(t for t in targets if t["district"] == "laboratory" and t["seat"] == victim)
    button = drv.find(f"destroy_{victim}_laboratory")
    assert drv.app.t("price", n=lab["price"]) in button.text
    gold = drv.state["players"][warlord]["gold"]
    drv.press(f"destroy_{victim}_laboratory")
    assert drv.state["players"][warlord]["gold"] == gold - lab["price"]
    assert "laboratory" not in drv.state["players"][victim]["city"]


def test_el_mapa_battle_with_armies_losses_and_flight(drv):
    open_game(drv, "el_mapa", ["Ana", "Luis"], seed=1, first="Ana")
    act(drv, {"action": "hire", "troop": "leva", "count": 1, "army": "a1"})
    assert drv.state["players"][0]["armies"][0]["troops"] == {"leva": 2}
    drv.press("battle")
    drv.press("winner_0")
    drv.press("winner_army_a1")
    drv.press("losses_leva_plus")
    drv.press("loser_1")
    assert "loser_army_a2" in drv.wids("loser_army_")
    drv.press("loser_army_a2")
    drv.press("fled")
    assert drv.find("fled").text.startswith("[x]")
    both_languages(drv, "battle_form")
    drv.press("record_battle")
    assert drv.app.message == ""
    last = drv.app.session.actions[-1]
    assert last == {"action": "battle", "winner": "Ana", "loser": "Luis", "defeated": {}, "winner_army": "a1",
                    "winner_losses": {"leva": 1}, "loser_army": "a2", "fled": True}
    ana, luis = drv.state["players"]
    assert ana["armies"][0]["troops"] == {"leva": 1} and ana["armies"][0]["tired"]
    assert luis["armies"] == [] and drv.state["scattered"][0]["troops"] == {"leva": 1}
    assert "record_battle" not in drv.wids()  # the form closed
    # The tired army cannot fight again this turn: the engine's reason is on the disabled button.
    drv.press("battle")
    drv.press("winner_army_a1")
    button = drv.find("record_battle")
    assert button.disabled and button.text.endswith("\nel ejército a1 ya combatió este turno"), button.text
    [reason] = refusals(M.MOVES, drv.state, drv.app.game_data("el_mapa"), [
        {"action": "battle", "winner": "Ana", "loser": "neutral", "defeated": {}, "winner_army": "a1",
         "winner_losses": {}}])
    assert button.text.endswith(f"\n{reason['es']}")
    assert drv.cut_texts() == [], drv.cut_texts()
    drv.find("scroll").scroll_to(button, padding=0, animate=False)
    drv.shot("battle_refused")
    drv.press("winner_army_none")
    assert not drv.find("record_battle").disabled


def test_gladiadores_chain_and_destroy_from_the_screen(drv):
    open_game(drv, "gladiadores", ["Ana", "Luis"], seed=0)
    seat = drv.state["active"]
    me, rival = drv.state["players"][seat], drv.state["players"][1 - seat]
    assert "chain" not in drv.wids() and "destroy" not in drv.wids()  # no gladiator selected
    # Without the Officina and the Aries: chain and destroy are shown disabled, with the engine's reasons.
    first = me["gladiators"][0]["uid"]
    drv.press(f"glad_{first}")
    for wid, reason in (("chain", "necesitas la Officina para encadenar"), ("destroy",
                                                                            "necesitas el Aries para destruir")):
        button = drv.find(wid)
        assert button.disabled and button.text.endswith(f"\n{reason}"), button.text
    assert not drv.find("work").disabled and not drv.find("fight").disabled
    assert drv.cut_texts() == [], drv.cut_texts()
    drv.shot("no_officina_no_aries")
    drv.press(f"glad_{first}")  # unselect
    for building in ("officina", "aries"):
        act(drv, {"action": "adjust", "player": me["name"], "resource": building, "delta": 1})
    data = drv.app.game_data("gladiadores")
    power = sum(me["glad_stats"][g["uid"]]["construction"] for g in me["gladiators"])
    cheap = next(b for b in drv.state["centre"]["buildings"]
                 if data.get("building", b)["cost"] <= power and data.get("building", b)["demolishable"]
                 and not data.get("building", b).get("points"))
    act(drv, {"action": "adjust", "player": rival["name"], "resource": cheap, "delta": 1})
    # Chain: one gladiator, tap a rival's gladiator, confirm.
    first, second = (g["uid"] for g in me["gladiators"][:2])
    drv.press(f"glad_{first}")
    drv.press("chain")
    target = rival["gladiators"][0]["uid"]
    drv.press(f"chain_{target}")
    both_languages(drv, "chain")
    drv.press("chain_confirm")
    assert drv.state["chained"] == [target]
    assert drv.app.session.actions[-1] == {"action": "chain", "gladiator": first, "target": rival["name"],
                                           "targets": [target]}
    # Undo from the screen, then destroy the cheap building with both gladiators' construction.
    drv.press("undo")
    assert drv.state["chained"] == []
    drv.press(f"glad_{first}")
    drv.press(f"glad_{second}")
    drv.press("destroy")
    options = drv.wids("destroy_")
    owned = drv.state["players"][1 - seat]["buildings"]
    assert sorted(options) == sorted(f"destroy_{1 - seat}_{b}" for b in owned)  # every rival building
    for b in owned:  # each refused one is disabled with the engine's reason
        [reason] = refusals(G.MOVES, drv.state, data, [{"action": "destroy", "target": rival["name"], "building": b,
                                                        "gladiators": [first, second]}])
        button = drv.find(f"destroy_{1 - seat}_{b}")
        assert button.disabled == (reason is not None) and (reason is None or button.text.endswith(f"\n{reason['es']}"))
    assert not drv.find(f"destroy_{1 - seat}_{cheap}").disabled
    both_languages(drv, "destroy")
    drv.press(f"destroy_{1 - seat}_{cheap}")
    assert cheap not in drv.state["players"][1 - seat]["buildings"] and cheap in drv.state["centre"]["buildings"]
    again = {"action": "destroy", "target": rival["name"], "building": owned[0], "gladiators": [first, second]}
    assert refusals(G.MOVES, drv.state, data, [again])[0]["es"] == "ya destruiste un edificio este turno"


def test_final_labels_come_from_the_state(drv):
    session = drv.app.store.new_game("el_mapa", ["Ana", "Luis"], seed=3)
    play_to_end(session, seed=3)
    drv.app.resume(session.id)
    drv.step(2)
    assert drv.app.root.current == "final"
    labels = drv.state["final"]["labels"]
    for lang in ("es", "en"):
        drv.app.set_lang(lang)
        drv.step(2)
        shown = drv.texts().replace("\u00a0", " ")  # each "label: value" kept on one line
        for key in drv.state["final"]["players"][0]["breakdown"]:
            assert f"{labels[key][lang]}:" in shown
        assert drv.cut_texts() == []
        drv.shot(f"final_{lang}")


def test_seventh_player_is_offered_the_face_down_card(drv):
    names = ["Ana", "Luis", "Eva", "Pablo", "Rosa", "Hugo", "Iris"]
    open_game(drv, "ciudadelas", names, seed=3, crown="Ana")
    while drv.state["draft"]["picks_made"] + 1 < drv.state["draft"]["picks_total"]:
        assert not drv.wids("choose_face_down_")
        drv.press(drv.wids("choose_")[0])
    [hidden] = drv.state["draft"]["face_down"]
    assert drv.wids("choose_face_down_") == [f"choose_face_down_{hidden}"]
    both_languages(drv, "draft_face_down")
    drv.press(f"choose_face_down_{hidden}")
    assert drv.state["picks"][6] == [hidden] and drv.state["phase"] == "call"


def test_ciudadelas_dark_city_districts_can_be_built_and_shown(drv):
    """With the Dark City on, its districts are in the build list and show in a city."""
    open_game(drv, "ciudadelas", ["Ana", "Luis", "Eva"], seed=3, crown="Ana", dark_city=True)
    to_turn_of(drv)
    seat = drv.state["active"]
    name = drv.state["players"][seat]["name"]
    act(drv, {"action": "adjust", "player": name, "resource": "gold", "delta": 10})
    act(drv, {"action": "adjust", "player": name, "resource": "hand", "delta": 1})
    act(drv, {"action": "take_gold"})
    treasury = drv.app.game_data("ciudadelas").get("dark_district", "imperial_treasury")
    drv.press("build")
    drv.type("search", treasury["name"]["es"])
    assert drv.wids("district_") == ["district_imperial_treasury"]
    drv.press("district_imperial_treasury")
    assert "imperial_treasury" in drv.state["players"][seat]["city"]
    drv.shot("dark_city_built")
    chip = drv.find(f"city_{seat}_imperial_treasury")
    assert treasury["name"]["es"] in chip.text


def test_ciudadelas_without_dark_city_offers_only_the_base_deck(drv):
    open_game(drv, "ciudadelas", ["Ana", "Luis", "Eva"], seed=3, crown="Ana")
    to_turn_of(drv)
    act(drv, {"action": "take_gold"})
    drv.press("build")
    drv.type("search", "")
    offered = {w.removeprefix("district_") for w in drv.wids("district_")}
    assert offered == set(drv.app.game_data("ciudadelas").ids("district"))

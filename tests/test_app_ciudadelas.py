"""A short game of Ciudadelas on the app, from the home screen to the final scoring, by pressing
the app's own widgets in a real window; plus undo/redo from the screen."""

from __future__ import annotations

import pytest

from appdriver import AppDriver, assert_refused, both_languages, drv, new_game, table  # noqa: F401  (fixtures)
from ludoteca.companion.engine.common import move_refusal, refusals
from ludoteca.companion.engine.games import ciudadelas as C
from test_app_actions import open_game

NAMES = ["Ana", "Luis", "Eva"]


def cheapest_to_build(drv: AppDriver, seat: int) -> str:
    data = drv.app.game_data("ciudadelas")
    player = drv.state["players"][seat]
    options = [d for d in data.entries("district") if d["id"] not in player["city"] and d["cost"] <= player["gold"]]
    return min(options, key=lambda d: (d["cost"], d["id"]))["id"]


def test_full_game_to_final_scoring(table):
    """A whole game through the app's buttons, at 480x800 in Spanish and 720x1280 in English (every
    phase also shot in the other language)."""
    drv = table
    drv.shot("home")
    assert drv.cut_texts() == [] and drv.small_targets() == []
    new_game(drv, "ciudadelas", NAMES)
    assert [p["name"] for p in drv.state["players"]] == NAMES
    assert drv.state["crown"] == 0  # Ana holds the crown, as chosen on the Players screen
    # Correct Ana's gold and cards by hand (the table is the truth), from her city panel.
    drv.press("adjust_0")
    for _ in range(30):
        drv.press("adjust_0_gold_plus", frames=1)
    for _ in range(6):
        drv.press("adjust_0_hand_plus", frames=1)
    assert drv.state["players"][0]["gold"] == 32 and drv.state["players"][0]["hand"] == 10
    data = drv.app.game_data("ciudadelas")
    shots = set()
    for _ in range(600):
        if drv.app.root.current != "ciudadelas":
            break
        state = drv.state
        phase = state["phase"]
        if phase not in shots:
            both_languages(drv, f"phase_{phase}")
            shots.add(phase)
        if phase == "choose":
            drv.press(drv.wids("choose_")[-1], frames=1)
        elif phase == "call":
            drv.press("call", frames=1)
        else:
            seat = state["active"]
            if not drv.find("take_gold").disabled:
                drv.press("take_gold", frames=1)
            button = drv.find("build", missing_ok=True)
            if seat == 0 and button is not None and not button.disabled:
                drv.press("build")
                if "build" not in shots:
                    drv.type("search", drv.app.n(data.get("district", "temple")["name"]).lower())
                    assert drv.wids("district_") == ["district_temple"]
                    both_languages(drv, "build_search")
                    drv.type("search", "")
                    shots.add("build")
                before = len(drv.state["players"][0]["city"])
                drv.press(f"district_{cheapest_to_build(drv, 0)}")
                assert len(drv.state["players"][0]["city"]) == before + 1, drv.app.message
                complete = data.meta["complete_city"]
                if before + 1 == complete:
                    assert drv.find("banner").text == drv.app.t("complete_banner", name="Ana", n=complete)
                    both_languages(drv, "eighth_district")
            drv.press("end_turn", frames=1)
    drv.step(2)
    assert drv.app.root.current == "final"
    final = drv.state["final"]
    assert drv.state["finished"] and final["winners"] == ["Ana"]
    assert "Ana" in drv.find("winner").text
    both_languages(drv, "final")
    drv.press("share")
    title, text = drv.app.platform.shared[-1]
    assert text.splitlines()[1].startswith("1. Ana: ")
    assert all(p["name"] in text for p in drv.state["players"])


def play_until_anas_turn(drv: AppDriver) -> None:
    for _ in range(60):
        if drv.state["phase"] == "turn" and drv.state["active"] == 0:
            return
        phase = drv.state["phase"]
        drv.press(drv.wids("choose_")[-1] if phase == "choose" else "call" if phase == "call" else "end_turn")
    raise AssertionError("Ana never got a turn")


def test_building_a_duplicate_shows_the_engines_error(drv):
    new_game(drv, "ciudadelas", NAMES)
    drv.press("adjust_0")
    for _ in range(10):
        drv.press("adjust_0_gold_plus", frames=1)
    play_until_anas_turn(drv)
    drv.press("take_gold")
    drv.press("build")
    drv.press("district_temple")
    assert "temple" in drv.state["players"][0]["city"]
    # the district in Ana's city is something to read, not a button that does nothing
    from kivy.uix.behaviors import ButtonBehavior
    chip = drv.find("city_0_temple")
    assert not isinstance(chip, ButtonBehavior) and "Templo" in chip.text, chip
    drv.find("scroll").scroll_to(chip, animate=False)
    drv.shot("city")
    drv.press("end_turn")
    play_until_anas_turn(drv)
    drv.press("take_gold")
    seq, gold = drv.app.session.seq, drv.state["players"][0]["gold"]
    drv.press("build")
    temple = drv.find("district_temple")
    assert temple.disabled and temple.text.endswith("\nAna ya tiene Templo")  # the engine's reason
    with pytest.raises(AssertionError, match="disabled"):
        drv.press("district_temple")
    assert drv.app.session.seq == seq  # refused: nothing saved
    assert drv.state["players"][0]["gold"] == gold
    drv.shot("duplicate_refused")


def test_build_is_disabled_with_the_engines_reason_until_gold_or_cards_are_taken(drv):
    new_game(drv, "ciudadelas", NAMES)
    play_until_anas_turn(drv)
    build = drv.find("build")
    assert build.disabled and build.text.endswith("\nprimero coge oro o cartas")
    drv.shot("build_needs_resource")
    drv.press("adjust_0")
    for _ in range(drv.state["players"][0]["hand"]):
        drv.press("adjust_0_hand_minus", frames=1)
    drv.press("take_gold")
    build = drv.find("build")
    assert build.disabled and build.text.endswith("\nAna no tiene cartas en la mano")
    drv.press("adjust_0")
    drv.press("adjust_0_hand_plus", frames=1)
    assert not drv.find("build").disabled


def test_undo_and_redo_from_the_screen(drv):
    new_game(drv, "ciudadelas", NAMES)
    assert drv.find("undo").disabled and drv.find("redo").disabled
    drv.tap("undo")  # disabled, and a tap says why (issue 22 #10)
    assert drv.why_shown() == "Nada que deshacer todavía"
    first = drv.state["draft"]["available"][-1]
    drv.press(f"choose_{first}")
    assert first in drv.state["picks"][0]
    assert not drv.find("undo").disabled
    drv.press("undo")
    assert drv.state["picks"][0] == [] and drv.state["active"] == 0
    assert not drv.find("redo").disabled
    drv.shot("after_undo")
    drv.press("redo")
    assert drv.state["picks"][0] == [first]
    # Undo also works across a correction by hand, straight from the same bar.
    drv.press("adjust_1")
    drv.press("adjust_1_gold_minus")
    assert drv.state["players"][1]["gold"] == 1
    drv.press("undo")
    assert drv.state["players"][1]["gold"] == 2
    drv.shot("after_second_undo")


def test_two_players_discard_during_the_draft(drv):
    new_game(drv, "ciudadelas", ["Ana", "Luis"])
    rule = drv.app.game_data("ciudadelas").meta["character_draft"]["by_players"][2]
    for pick in range(1, 5):
        assert drv.state["phase"] == "choose"
        available = list(drv.state["draft"]["available"])
        picked = drv.wids("choose_")[0].removeprefix("choose_")
        assert drv.screen.status.endswith("Elección de personajes"), drv.screen.status  # not "Descarte"
        drv.press(f"choose_{picked}")
        if pick in rule.get("discards_after_picks", []):
            assert drv.screen.status.endswith("Descarte de personajes"), drv.screen.status
            assert drv.state["draft"]["picks_made"] == pick - 1  # nothing saved before the discard
            assert drv.find(f"discard_{picked}").disabled  # the engine's reason: it is the one picked
            reason = refusals(C.MOVES, drv.state, drv.app.game_data("ciudadelas"),
                              [{"action": "choose", "character": picked, "discard": picked}])[0]
            assert drv.text(f"discard_{picked}").endswith(f"\n{reason['es']}")
            assert reason["es"].endswith("no se puede descartar")
            discards = [w for w in drv.wids("discard_") if not drv.find(w).disabled]
            assert discards, "the discard step is offered"
            drv.shot(f"discard_{pick}")
            drv.press(discards[0])
            gone = discards[0].removeprefix("discard_")
            assert gone in drv.state["draft"]["discarded_during"] and gone in available
        assert drv.state["draft"]["picks_made"] == pick, drv.app.message
    assert drv.state["phase"] == "call"
    assert [len(p) for p in drv.state["picks"]] == [2, 2]


def seeded_with(drv: AppDriver, characters: list[str]) -> int:
    """A seed whose first draft leaves ``characters`` to Ana, who holds the crown and picks first."""
    for seed in range(100):
        state = drv.app.store.new_game("ciudadelas", NAMES, seed=seed, options={"crown": "Ana"}).state
        if set(characters) <= set(state["draft"]["available"]):
            return seed
    raise AssertionError(f"no seed leaves {characters}")


def engine_reason(drv: AppDriver, action: dict, lang: str = "es") -> str:
    """What the engine says against ``action`` now (asked here, not through the screen)."""
    [reason] = refusals(C.MOVES, drv.state, drv.app.game_data("ciudadelas"), [action])
    assert reason is not None, f"{action} is legal"
    return reason[lang]


def test_turn_buttons_are_disabled_with_the_engines_reasons(drv):
    """The Assassin's turn: every button is there, and what the engine refuses is disabled with the
    engine's own words; what it allows works."""
    from test_app_actions import to_turn_of

    open_game(drv, "ciudadelas", NAMES, seed=seeded_with(drv, ["assassin"]), crown="Ana")
    to_turn_of(drv, "assassin")
    assert drv.state["active"] == 0
    data = drv.app.game_data("ciudadelas")
    # Before gold or cards: Build is refused for that; the Assassin collects no income.
    assert_refused(drv, "build", "primero coge oro o cartas")
    assert_refused(drv, "build", drv.app.n(move_refusal(C.MOVES, drv.state, data, "build")))
    assert_refused(drv, "income", "Asesino no cobra por color")
    assert_refused(drv, "income", engine_reason(drv, {"action": "income"}))
    assert not drv.find("take_gold").disabled and not drv.find("draw_cards").disabled
    assert drv.text("draw_cards") == "Robar 2, quedarte 1"  # cards/ciudadelas: draw 2, keep 1
    assert [w for w in drv.wids("power_")] == ["power_murder"]  # the Assassin's one power
    assert drv.cut_texts() == [], drv.cut_texts()
    drv.shot("turn_start")
    # The power: the panel lists every character, the Assassin himself refused by the engine.
    drv.press("power_murder")
    assert len(drv.wids("target_")) == len(data.entries("character"))
    assert_refused(drv, "target_assassin", "Asesino no puede elegir a Asesino")
    assert_refused(drv, "target_assassin", engine_reason(drv, {"action": "murder", "character": "assassin"}))
    drv.shot("murder_targets")
    drv.press("target_merchant")
    assert drv.state["murdered"] == "merchant"
    assert_refused(drv, "power_murder", "ya usaste la habilidad de tu personaje")
    # Gold taken: gold and cards are refused, Build is open when a card and its cost are in hand.
    gold = drv.state["players"][0]["gold"]
    drv.press("take_gold")
    assert drv.state["players"][0]["gold"] == gold + data.meta["take_gold"]
    for wid, action in (("take_gold", "take_gold"), ("draw_cards", "draw_cards")):
        assert_refused(drv, wid, "ya cogiste oro o cartas este turno")
        assert_refused(drv, wid, engine_reason(drv, {"action": action}))
    assert not drv.find("build").disabled
    assert drv.cut_texts() == [], drv.cut_texts()
    drv.shot("after_gold")
    drv.app.set_lang("en")
    drv.step(2)
    assert_refused(drv, "take_gold", "you already took gold or cards this turn")
    assert_refused(drv, "power_murder", engine_reason(drv, {"action": "murder", "character": "king"}, "en"))
    assert drv.cut_texts() == [], drv.cut_texts()
    drv.shot("after_gold_en")
    drv.app.set_lang("es")
    drv.step(2)
    drv.press("end_turn")
    assert drv.state["phase"] in ("call", "choose")


def test_the_magicians_swaps_name_the_players_and_the_cards(drv):
    """Swap hands: one button per player, named, with their hand; swap with the deck: 'Descartar 2 /
    y robar 2', not a bare '2'."""
    from test_app_actions import to_turn_of

    open_game(drv, "ciudadelas", NAMES, seed=seeded_with(drv, ["magician"]), crown="Ana")
    to_turn_of(drv, "magician")
    assert drv.state["active"] == 0
    drv.press("power_exchange_hand")
    players = drv.state["players"]
    for seat, player in enumerate(players):
        assert drv.text(f"target_{seat}").startswith(f"{player['name']}\n{player['hand']} cartas"), \
            drv.text(f"target_{seat}")
    drv.shot("swap_hands")
    drv.press("power_discard_and_draw")
    counts = drv.wids("count_")
    assert counts and all(drv.text(w).startswith(f"Descartar {w[6:]}\ny robar {w[6:]}") for w in counts), \
        [drv.text(w) for w in counts]
    assert drv.cut_texts() == [], drv.cut_texts()
    drv.shot("swap_deck")

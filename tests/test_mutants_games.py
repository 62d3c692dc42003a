"""Game rules a mutation run (bench/mutation.py, seed 40925) found unpinned: each test plays through
the Session API and asserts what the table sees (a pile, a score, a refusal)."""

from __future__ import annotations

import pytest

from ludoteca.companion.engine import BadArgument, NotAllowed, Store

NAMES = ["Ana", "Luis", "Eva"]


@pytest.fixture()
def store():
    return Store(":memory:")


def test_a_combat_card_revealed_at_the_table_leaves_the_draw_pile_for_the_discard(store):
    # The engine keeps the combat pile in step with the table's: a fight with the card the table
    # turned up (c_030) takes that card out of the pile the engine draws from, once, and discards it.
    s = store.new_game("gladiadores", NAMES, seed=4)
    seat = s.state["active"]
    me, rival = s.state["players"][seat], s.state["players"][(seat + 1) % 3]
    assert "c_030" in s.state["centre"]["combat"]
    pile = len(s.state["centre"]["combat"])
    s.apply({"action": "fight", "gladiator": me["gladiators"][0]["uid"], "target": rival["name"],
             "defender": rival["gladiators"][0]["uid"], "card": "c_030"})
    assert "c_030" not in s.state["centre"]["combat"]
    assert len(s.state["centre"]["combat"]) == pile - 1
    assert s.state["centre"]["combat_discard"].count("c_030") == 1


def test_building_in_a_slot_without_the_two_below_says_so_in_both_languages(store):
    # Arquería is level 2: slot n2_a (level 2, resting on n1_a and n1_b) is of its level but has
    # nothing under it; once Estatua stands in n1_a, n1_a is taken. Each refusal names its reason.
    s = store.new_game("el_mapa", ["Ana", "Luis"], seed=1, options={"first": "Ana"})
    for resource, delta in (("oro", 60), ("madera", 20), ("piedra", 10)):
        s.apply({"action": "adjust", "player": "Ana", "resource": resource, "delta": delta})
    with pytest.raises(NotAllowed) as refused:
        s.apply({"action": "build", "building": "Arquería", "slot": "n2_a"})
    assert refused.value.text == {"es": "la casilla n2_a está sin las dos de debajo",
                                  "en": "slot n2_a is without the two below it"}
    s.apply({"action": "build", "building": "Estatua", "slot": "n1_a"})
    s.apply({"action": "end_turn"})
    s.apply({"action": "end_turn"})
    with pytest.raises(NotAllowed) as refused:
        s.apply({"action": "build", "building": "Mercado", "slot": "n1_a"})
    assert refused.value.text == {"es": "la casilla n1_a está ocupada", "en": "slot n1_a is taken"}



def test_a_battle_report_may_list_a_troop_at_zero(store):
    # A battle form lists every troop, the untouched ones at 0: Ana's army a1 (2 Levy) beats a
    # neutral Levy and loses nobody; she is credited 1 defeated Levy and keeps both of hers.
    s = store.new_game("el_mapa", ["Ana", "Luis"], seed=1, options={"first": "Ana"})
    s.apply({"action": "hire", "troop": "leva", "count": 1, "army": "a1"})
    s.apply({"action": "battle", "winner": "Ana", "loser": "neutral", "defeated": {"leva": 1, "caballero": 0},
             "winner_army": "a1", "winner_losses": {"leva": 0}})
    ana = s.state["players"][0]
    assert ana["armies"][0]["troops"] == {"leva": 2}
    assert ana["defeated"].get("leva") == 1 and not ana["defeated"].get("caballero")


def test_a_level_one_spell_tile_may_be_claimed(store):
    # The tech cards have spells of levels 1 to 3: the lowest is claimed like the others.
    s = store.new_game("el_mapa", ["Ana", "Luis"], seed=1, options={"first": "Ana"})
    before = s.state["players"][0]["spell_tiles"]["1"]
    s.apply({"action": "claim", "what": "spell_mine", "level": 1})
    assert s.state["players"][0]["spell_tiles"]["1"] == before + 1


def test_a_spell_level_past_a_hundred_is_refused_by_the_arguments_range(store):
    s = store.new_game("el_mapa", ["Ana", "Luis"], seed=1, options={"first": "Ana"})
    with pytest.raises(BadArgument) as refused:
        s.apply({"action": "claim", "what": "spell_mine", "level": 101})
    assert refused.value.text["en"] == "'level' must be between 1 and 100, not 101"


def test_turns_pass_to_the_left(store):
    # Gladiadores for three: each end of turn passes to the next seat (seat + 1, round the table).
    s = store.new_game("gladiadores", NAMES, seed=4)
    first = s.state["active"]
    seats = []
    for _ in range(3):
        while s.state["active"] == (seats[-1] if seats else first):
            move = next((m for m in s.legal_actions() if m["action"] in ("end_main", "skip_auction", "end_turn",
                                                                          "pass")), None)
            assert move is not None, s.legal_actions()
            s.apply(move)
        seats.append(s.state["active"])
    assert seats == [(first + 1) % 3, (first + 2) % 3, first]


def test_a_correction_is_logged_with_its_sign(store):
    # adjust: "+0" and "+2" for a correction of zero or up, "-1" down; the new count after "=".
    s = store.new_game("gladiadores", NAMES, seed=4)
    coins = s.state["players"][0]["coins"]
    for delta, shown in ((0, "+0"), (2, "+2"), (-1, "-1")):
        s.apply({"action": "adjust", "player": "Ana", "resource": "coins", "delta": delta})
        coins += delta
        assert s.state["log"][-1]["en"] == f"Adjusted: Ana {shown} coins (= {coins})"

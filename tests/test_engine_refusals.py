"""What the screens ask the engine for their buttons (no Kivy): a character's own moves, the cards a
draw takes, and the reason a whole move is refused, each in a state worked out by hand."""

from __future__ import annotations

import pytest

from ludoteca.cards import load
from ludoteca.companion.engine import NotEnough, Store
from ludoteca.companion.engine.common import move_refusal, refusal_of_all, refusals
from ludoteca.companion.engine.games import ciudadelas as C
from ludoteca.companion.engine.games import el_mapa as M
from test_engine_ciudadelas import call_until, draft, game_with, turn_of

DATA = load()
CITY = DATA["ciudadelas"]
MAPA = DATA["el_mapa"]


@pytest.fixture()
def store():
    s = Store(":memory:")
    yield s
    s.close()


def adjust(s, name: str, resource: str, delta: int) -> None:
    s.apply({"action": "adjust", "player": name, "resource": resource, "delta": delta})


def test_each_character_has_its_own_moves_and_none_outside_a_turn(store):
    s = turn_of(store, {"Ana": "magician", "Luis": "king", "Eva": "warlord"}, "magician")
    assert C.character_moves(s.state, CITY) == ["exchange_hand", "discard_and_draw"]
    s.apply({"action": "end_turn"})
    assert C.character_moves(s.state, CITY) == []  # the crown is calling: nobody's turn
    call_until(s, "king")
    assert C.character_moves(s.state, CITY) == []  # the King's crown is no move
    s.apply({"action": "end_turn"})
    call_until(s, "warlord")
    assert C.character_moves(s.state, CITY) == ["destroy"]


def test_swapping_with_the_deck_on_an_empty_hand_says_the_hand_is_empty(store):
    """Before, an empty hand offered no count at all and the screen could only say "nothing to choose"."""
    s = turn_of(store, {"Ana": "magician"}, "magician")
    adjust(s, "Ana", "hand", -s.state["players"][0]["hand"])
    reason = move_refusal(C.MOVES, s.state, CITY, "discard_and_draw")
    assert reason == {"es": "Ana no tiene cartas en la mano", "en": "Ana has no cards in hand"}
    with pytest.raises(NotEnough, match="Ana has no cards in hand"):
        s.apply({"action": "discard_and_draw", "count": 1})
    assert not any(a["action"] == "discard_and_draw" for a in C.DEFINITION.legal_actions(s.state, CITY))
    adjust(s, "Ana", "hand", 2)
    assert move_refusal(C.MOVES, s.state, CITY, "discard_and_draw") is None
    s.apply({"action": "exchange_hand", "target": "Luis"})
    used = {"es": "ya usaste la habilidad de tu personaje", "en": "you already used your character's ability"}
    assert move_refusal(C.MOVES, s.state, CITY, "discard_and_draw") == used
    assert move_refusal(C.MOVES, s.state, CITY, "exchange_hand") == used


def test_draw_terms_by_hand_with_the_observatory_and_the_library(store):
    """Data: draw 2 keep 1; the Observatory draws 3 and keeps 1; the Library keeps all it draws."""
    s = turn_of(store, {"Ana": "architect"}, "architect")
    assert C.draw_terms(s.state, CITY, 0) == (2, 1)
    adjust(s, "Ana", "gold", 20)
    s.apply({"action": "take_gold"})
    s.apply({"action": "build", "district": "observatory"})
    assert C.draw_terms(s.state, CITY, 0) == (3, 1)
    s.apply({"action": "build", "district": "library"})
    assert C.draw_terms(s.state, CITY, 0) == (3, 3)
    assert C.draw_terms(s.state, CITY, 1) == (2, 1)  # Luis has neither


def test_a_warlord_short_of_gold_is_told_so_not_that_his_own_city_is_no_target(store):
    """Ana (Warlord) owns a Tavern; Luis a Castle (cost 4, Warlord's discount 1: 3 gold). With 0 gold
    the whole move is refused for the gold, the reason her disabled Destroy button shows."""
    wanted = {"Ana": "warlord", "Luis": "architect"}
    s = game_with(store, wanted)
    draft(s, wanted)
    call_until(s, "architect")
    adjust(s, "Luis", "gold", 10)
    s.apply({"action": "take_gold"})
    s.apply({"action": "build", "district": "castle"})
    s.apply({"action": "end_turn"})
    call_until(s, "warlord")
    adjust(s, "Ana", "gold", 5)
    s.apply({"action": "take_gold"})
    s.apply({"action": "build", "district": "tavern"})
    adjust(s, "Ana", "gold", -s.state["players"][0]["gold"])
    reason = move_refusal(C.MOVES, s.state, CITY, "destroy")
    assert reason == {"es": "Ana tiene 0 de oro y necesita 3", "en": "Ana has 0 gold and needs 3"}
    assert [t["district"] for t in C.destroy_targets(s.state, CITY)] == ["castle"]
    adjust(s, "Ana", "gold", 3)
    assert move_refusal(C.MOVES, s.state, CITY, "destroy") is None


def test_the_bank_table_as_the_trade_move_offers_it():
    """cards/el_mapa bank_trades, by hand: 1 wood -> 1 gold, 1 stone -> 2 gold, 2 gold -> 1 wood,
    3 gold -> 1 stone; each line's action is the one the screen sends and legal_actions offers."""
    lines = M.trade_lines(MAPA)
    assert [(line["give"], line["get"]) for line in lines] == [
        ({"madera": 1}, {"oro": 1}), ({"piedra": 1}, {"oro": 2}), ({"oro": 2}, {"madera": 1}), ({"oro": 3},
                                                                                                {"piedra": 1})]
    assert lines[1]["action"] == {"action": "trade", "give": "piedra", "get": "oro"}
    candidates = [{"action": "trade", **args} for args in M.MOVES["trade"].candidates({}, MAPA)]
    assert candidates == [line["action"] for line in lines]


def test_variant_buildings_are_in_play_only_with_their_variant(store):
    """Armería and Atalaya belong to the armeria_atalaya variant: 17 buildings without it, 19 with it."""
    plain = store.new_game("el_mapa", ["Ana", "Luis"], seed=1, options={"first": "Ana"})
    ids = [b["id"] for b in M.buildings_in_play(plain.state, MAPA)]
    assert len(ids) == 17 and "armeria" not in ids and "atalaya" not in ids
    assert not any(a["building"] in ("armeria", "atalaya")
                   for a in M.MOVES["build"].candidates(plain.state, MAPA))
    variant = store.new_game("el_mapa", ["Ana", "Luis"], seed=1,
                             options={"first": "Ana", "variants": ["armeria_atalaya"]})
    assert {"armeria", "atalaya"} <= {b["id"] for b in M.buildings_in_play(variant.state, MAPA)}
    assert len(M.buildings_in_play(variant.state, MAPA)) == 19


def test_refusal_of_all_is_none_when_one_is_open_else_the_most_common_reason(store):
    """Ana (Assassin) before gold or cards: every build is refused for that, gold is open; with the
    gold taken, two draws are refused for the same reason and one income for its own."""
    s = turn_of(store, {"Ana": "assassin"}, "assassin")
    builds = [{"action": "build", "district": d} for d in ("temple", "castle", "tavern")]
    first = {"es": "primero coge oro o cartas", "en": "take gold or cards first"}
    assert refusal_of_all(C.MOVES, s.state, CITY, builds) == first
    assert refusal_of_all(C.MOVES, s.state, CITY, builds + [{"action": "take_gold"}]) is None
    s.apply({"action": "take_gold"})
    taken = {"es": "ya cogiste oro o cartas este turno", "en": "you already took gold or cards this turn"}
    mixed = [{"action": "income"}, {"action": "draw_cards"}, {"action": "take_gold"}]
    assert refusals(C.MOVES, s.state, CITY, mixed)[0] == {"es": "Asesino no cobra por color",
                                                          "en": "Assassin has no income"}
    assert refusal_of_all(C.MOVES, s.state, CITY, mixed) == taken
    assert refusal_of_all(C.MOVES, s.state, CITY, []) == {"es": "no hay ninguna opción ahora",
                                                          "en": "there is nothing to choose from now"}


GAME_PLAYERS = {"ciudadelas": ["Ana", "Luis", "Eva", "Pablo"], "el_mapa": ["Ana", "Luis"],
                "gladiadores": ["Ana", "Luis"]}


@pytest.mark.parametrize("game", sorted(GAME_PLAYERS))
def test_a_closed_move_is_refused_alike_by_apply_its_button_and_legal_actions(store, game):
    """The game-over and wrong-phase checks are one: a move applied, a screen's disabled button
    (move_refusal) and legal_actions agree on it at the start (moves of other phases) and at the end."""
    from ludoteca.companion.engine import GameOver, IllegalAction, WrongPhase
    from ludoteca.companion.engine.common import legal_moves
    from test_engine_helpers import play_to_end

    s = store.new_game(game, GAME_PLAYERS[game], seed=2)
    moves = s.module.MOVES
    other_phase = [n for n, m in moves.items() if m.phases and s.state["phase"] not in m.phases]
    assert other_phase or game == "el_mapa"  # El Mapa's moves are not bound to phases
    offered = {a["action"] for a in legal_moves(moves, s.state, s.data)}
    for name in other_phase:
        with pytest.raises(WrongPhase) as refused:
            s.module.DEFINITION.apply(dict(s.state), {"action": name}, None, s.data)
        assert move_refusal(moves, s.state, s.data, name) == refused.value.text
        assert name not in offered
    play_to_end(s, 2)
    assert legal_moves(moves, s.state, s.data) == []
    assert [a["action"] for a in s.legal_actions()] == ["undo"]
    for name in (n for n, m in moves.items() if not m.after_end):  # final_record is the end's own move
        with pytest.raises(GameOver) as refused:
            s.module.DEFINITION.apply(dict(s.state), {"action": name}, None, s.data)
        assert move_refusal(moves, s.state, s.data, name) == refused.value.text
        with pytest.raises(IllegalAction):
            s.apply({"action": name})

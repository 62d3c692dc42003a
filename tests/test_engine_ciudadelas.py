"""Ciudadelas through the Session API: the draft, the calling, every character and the end."""

from __future__ import annotations

import pytest

from ludoteca.companion.engine import (BadArgument, Duplicate, GameOver, IllegalAction, LimitReached,
                              NotAllowed, NotEnough, NotYourTurn, Store, WrongPhase)
from ludoteca.cards import load
from test_engine_helpers import play_to_end

NAMES = ["Ana", "Luis", "Eva", "Pablo", "Rosa", "Hugo", "Iris"]


@pytest.fixture()
def store():
    s = Store(":memory:")
    yield s
    s.close()


def game_with(store, wanted: dict[str, str], players: int = 4):
    """A game whose first draft leaves every wanted character available; Ana holds the crown."""
    for seed in range(500):
        s = store.new_game("ciudadelas", NAMES[:players], seed=seed, options={"crown": "Ana"})
        if all(c in s.state["draft"]["available"] for c in wanted.values()):
            return s
    raise AssertionError("no seed gives those characters")


def draft(s, wanted: dict[str, str]) -> None:
    """Everyone picks: the wanted character, or the first one nobody wants."""
    while s.state["phase"] == "choose":
        name = s.state["players"][s.state["active"]]["name"]
        available = s.state["draft"]["available"]
        pick = wanted.get(name) or next(c for c in available if c not in wanted.values())
        s.apply({"action": "choose", "player": name, "character": pick})


def call_until(s, character: str) -> None:
    """Call characters until ``character`` has been called."""
    while True:
        s.apply({"action": "call"})
        if s.state["last_call"]["character"] == character:
            return
        if s.state["phase"] == "turn":
            s.apply({"action": "end_turn"})


def turn_of(store, wanted: dict[str, str], character: str):
    """A game drafted with the ``wanted`` characters (see :func:`game_with`), called up to ``character``."""
    s = game_with(store, wanted)
    draft(s, wanted)
    call_until(s, character)
    return s


def gold(s, name):
    return next(p for p in s.state["players"] if p["name"] == name)["gold"]


def player(s, name):
    return next(p for p in s.state["players"] if p["name"] == name)


def test_discard_step_follows_the_data_for_every_player_count():
    data = load(games=("ciudadelas",))["ciudadelas"]
    rules = data.meta["character_draft"]["by_players"]
    store = Store(":memory:")
    for n in range(2, 8):
        rule = rules[n]
        seen_up = set()
        for seed in range(40):
            s = store.new_game("ciudadelas", NAMES[:n], seed=seed)
            d = s.state["draft"]
            assert len(d["face_up"]) == rule["face_up"]
            assert len(d["face_down"]) == rule["face_down_before"]
            assert "king" not in d["face_up"]
            assert len(d["available"]) == 8 - rule["face_up"] - rule["face_down_before"]
            seen_up.update(d["face_up"])
        if rule["face_up"]:
            assert len(seen_up) >= 5  # the discards really are random


def test_same_seed_same_draft_and_different_seed_differs():
    store = Store(":memory:")
    a = [store.new_game("ciudadelas", NAMES[:4], seed=9).state["draft"] for _ in range(2)]
    assert a[0] == a[1]
    others = {tuple(store.new_game("ciudadelas", NAMES[:4], seed=k).state["draft"]["face_up"])
              for k in range(10)}
    assert len(others) > 1


def test_picks_go_round_from_the_crown_and_refuse_taken_characters(store):
    s = game_with(store, {"Ana": "thief", "Luis": "king"})
    with pytest.raises(NotYourTurn):
        s.apply({"action": "choose", "player": "Luis", "character": "king"})
    s.apply({"action": "choose", "player": "Ana", "character": "thief"})
    assert s.state["active"] == 1
    before = s.state
    with pytest.raises(NotAllowed):
        s.apply({"action": "choose", "player": "Luis", "character": "thief"})
    assert s.state == before
    if s.state["draft"]["face_up"]:
        with pytest.raises(NotAllowed):
            s.apply({"action": "choose", "player": "Luis", "character": s.state["draft"]["face_up"][0]})


def test_two_players_pick_two_each_with_discards(store):
    s = store.new_game("ciudadelas", ["Ana", "Luis"], seed=4, options={"crown": "Luis"})
    order = []
    while s.state["phase"] == "choose":
        seat = s.state["active"]
        order.append(seat)
        avail = s.state["draft"]["available"]
        act = {"action": "choose", "player": seat, "character": avail[0]}
        if len(order) in (2, 3):
            with pytest.raises(BadArgument):
                s.apply(act)
            act["discard"] = avail[1]
        s.apply(act)
    assert order == [1, 0, 1, 0]
    assert [len(p) for p in s.state["picks"]] == [2, 2]
    assert len(s.state["draft"]["face_down"]) == 2  # 1 before + the last one; 2 discarded during picks
    assert len(s.state["draft"]["discarded_during"]) == 2


def test_calling_names_all_eight_and_silent_for_nobody(store):
    s = game_with(store, {})
    draft(s, {})
    answered = []
    while s.state["round"] == 1:
        s.apply({"action": "call"})
        answered.append((s.state["last_call"]["number"], s.state["last_call"]["answered"]))
        if s.state["phase"] == "turn":
            s.apply({"action": "take_gold"})
            s.apply({"action": "end_turn"})
    assert [n for n, _ in answered] == list(range(1, 9))
    assert sum(1 for _, a in answered if a) == 4
    assert s.state["phase"] == "choose" and s.state["round"] == 2


def test_theft_moves_gold_when_the_victim_is_revealed(store):
    s = turn_of(store, {"Luis": "thief", "Eva": "merchant"}, "thief")
    with pytest.raises(NotAllowed):
        s.apply({"action": "steal", "character": "assassin"})
    s.apply({"action": "steal", "character": "merchant"})
    s.apply({"action": "take_gold"})
    s.apply({"action": "end_turn"})
    assert (gold(s, "Luis"), gold(s, "Eva")) == (4, 2)
    call_until(s, "merchant")
    assert (gold(s, "Luis"), gold(s, "Eva")) == (6, 0)


def test_murdered_character_is_called_but_silent_and_king_crowns_at_end_of_round(store):
    s = turn_of(store, {"Luis": "assassin", "Pablo": "king"}, "assassin")
    s.apply({"action": "murder", "character": "king"})
    with pytest.raises(LimitReached):
        s.apply({"action": "murder", "character": "bishop"})
    s.apply({"action": "end_turn"})
    call_until(s, "king")
    assert s.state["last_call"]["answered"] is False
    assert s.state["phase"] == "call" and s.state["crown"] == 0
    while s.state["round"] == 1:
        s.apply({"action": "call"})
        if s.state["phase"] == "turn":
            s.apply({"action": "end_turn"})
    assert s.state["crown"] == 3  # Pablo gets the crown at the end of the round


def test_king_takes_crown_when_revealed_and_income_by_colour(store):
    s = turn_of(store, {"Eva": "king"}, "king")
    assert s.state["crown"] == 2 and s.state["active"] == 2
    s.apply({"action": "adjust", "player": "Eva", "resource": "gold", "delta": 20})
    s.apply({"action": "take_gold"})
    s.apply({"action": "build", "district": "Castillo"})
    s.apply({"action": "income"})
    assert gold(s, "Eva") == 2 + 20 + 2 - 4 + 1
    with pytest.raises(LimitReached):
        s.apply({"action": "income"})


def test_school_of_magic_counts_for_income(store):
    s = turn_of(store, {"Eva": "merchant"}, "merchant")
    s.apply({"action": "adjust", "player": "Eva", "resource": "gold", "delta": 10})
    s.apply({"action": "take_gold"})
    s.apply({"action": "build", "district": "School of Magic"})
    before = gold(s, "Eva")
    s.apply({"action": "income"})
    assert gold(s, "Eva") - before == 1 + 1  # the Merchant's bonus + the School as green


def test_build_rules_and_illegal_actions_change_nothing(store):
    s = turn_of(store, {"Ana": "king"}, "king")
    seq, state = s.seq, s.state
    for bad, err in [({"action": "build", "district": "Temple"}, WrongPhase),
                     ({"action": "build", "district": "Nowhere"}, BadArgument),
                     ({"action": "take_gold", "player": "Luis"}, NotYourTurn),
                     ({"action": "murder", "character": "thief"}, NotAllowed),
                     ({"action": "adjust", "player": "Ana", "resource": "gold", "delta": -99}, NotEnough),
                     ({"action": "adjust", "player": "Zoe", "resource": "gold", "delta": 1}, BadArgument),
                     ({"action": "fly"}, IllegalAction)]:
        with pytest.raises(err):
            s.apply(bad)
        assert s.state == state and s.seq == seq
    s.apply({"action": "take_gold"})
    with pytest.raises(LimitReached):
        s.apply({"action": "draw_cards"})
    with pytest.raises(NotEnough):
        s.apply({"action": "build", "district": "Palace"})  # 4 gold, costs 5
    s.apply({"action": "build", "district": "Templo"})
    assert player(s, "Ana")["city"] == ["temple"] and gold(s, "Ana") == 3
    with pytest.raises(LimitReached):
        s.apply({"action": "build", "district": "Church"})


def test_no_duplicate_districts(store):
    s = turn_of(store, {"Ana": "architect"}, "architect")
    assert player(s, "Ana")["hand"] == 4 + 2  # the Architect draws two more
    s.apply({"action": "take_gold"})
    s.apply({"action": "build", "district": "tavern"})
    with pytest.raises(Duplicate):
        s.apply({"action": "build", "district": "Taberna"})


def test_warlord_destruction_prices_and_protections(store):
    wanted = {"Ana": "warlord", "Luis": "architect", "Eva": "bishop"}
    s = turn_of(store, wanted, "bishop")
    s.apply({"action": "adjust", "player": "Eva", "resource": "gold", "delta": 5})
    s.apply({"action": "take_gold"})
    s.apply({"action": "build", "district": "Temple"})
    s.apply({"action": "end_turn"})
    call_until(s, "architect")
    s.apply({"action": "adjust", "player": "Luis", "resource": "gold", "delta": 20})
    s.apply({"action": "take_gold"})
    for d in ("Great Wall", "Keep", "Castle"):
        s.apply({"action": "build", "district": d})
    s.apply({"action": "end_turn"})
    call_until(s, "warlord")
    s.apply({"action": "take_gold"})
    with pytest.raises(NotAllowed):
        s.apply({"action": "destroy", "target": "Eva", "district": "Temple"})  # the Bishop's city
    with pytest.raises(NotAllowed):
        s.apply({"action": "destroy", "target": "Luis", "district": "Keep"})
    with pytest.raises(NotEnough):
        s.apply({"action": "destroy", "target": "Luis", "district": "Great Wall"})  # 6 - 1 = 5 > 4
    assert gold(s, "Ana") == 4
    s.apply({"action": "destroy", "target": "Luis", "district": "Castle"})  # 4 - 1 + 1 (Great Wall)
    assert gold(s, "Ana") == 0
    assert player(s, "Luis")["city"] == ["great_wall", "keep"]
    with pytest.raises(LimitReached):
        s.apply({"action": "destroy", "target": "Luis", "district": "Great Wall"})


def test_whole_game_to_final_score_ends_at_end_of_round(store):
    s = store.new_game("ciudadelas", NAMES[:5], seed=21)
    complete_round = None
    n = 0
    from test_engine_helpers import choose_move
    import random
    rnd = random.Random(3)
    while not s.state["finished"]:
        s.apply(choose_move(s.state, s.legal_actions(), s.data, rnd))
        n += 1
        if complete_round is None and s.state["first_complete"] is not None:
            complete_round = s.state["round"]
            first = s.state["first_complete"]
            assert not s.state["finished"] or s.state["called"] == 8
    final = s.state["final"]
    assert s.state["round"] == complete_round
    scores = {p["name"]: p for p in final["players"]}
    first_name = NAMES[first]
    assert scores[first_name]["breakdown"]["first_complete"] == 4
    for p in s.state["players"]:
        assert scores[p["name"]]["breakdown"]["districts"] >= sum(
            s.data.get("district", d)["cost"] for d in p["city"])
    best = max(p["total"] for p in final["players"])
    assert all(scores[w]["total"] == best for w in final["winners"])
    with pytest.raises(GameOver):
        s.apply({"action": "call"})
    s.apply({"action": "undo"})
    assert not s.state["finished"]
    s.apply({"action": "redo"})
    assert s.state["finished"] and s.state["final"] == final


def test_history_and_stats_after_a_finished_game(tmp_path):
    store = Store(tmp_path / "g.db")
    s = store.new_game("ciudadelas", NAMES[:3], seed=5)
    play_to_end(s, seed=1)
    hist = store.history()
    assert hist[0]["status"] == "finished" and hist[0]["final"]["winners"] == s.state["final"]["winners"]
    stats = store.player_stats()
    assert {n: v["games"] for n, v in stats.items()} == {"Ana": 1, "Luis": 1, "Eva": 1}
    assert sum(v["wins"] for v in stats.values()) == len(s.state["final"]["winners"])
    assert store.unfinished() == []


def test_graveyard_owner_may_take_back_a_destroyed_district(store):
    wanted = {"Ana": "warlord", "Luis": "architect"}
    s = turn_of(store, wanted, "architect")
    s.apply({"action": "adjust", "player": "Luis", "resource": "gold", "delta": 10})
    s.apply({"action": "take_gold"})
    s.apply({"action": "build", "district": "Cementerio"})
    s.apply({"action": "build", "district": "Templo"})
    s.apply({"action": "end_turn"})
    call_until(s, "warlord")
    hand, luis_gold = player(s, "Luis")["hand"], gold(s, "Luis")
    s.apply({"action": "destroy", "target": "Luis", "district": "Temple"})
    assert s.state["pending_reclaim"]["player"] == 1
    with pytest.raises(NotYourTurn):
        s.apply({"action": "reclaim", "player": "Eva"})
    s.apply({"action": "reclaim", "player": "Luis"})
    assert player(s, "Luis")["hand"] == hand + 1 and gold(s, "Luis") == luis_gold - 1
    assert s.state["pending_reclaim"] is None


def test_laboratory_and_smithy(store):
    s = turn_of(store, {"Ana": "architect"}, "architect")
    s.apply({"action": "adjust", "player": "Ana", "resource": "gold", "delta": 10})
    s.apply({"action": "take_gold"})
    s.apply({"action": "build", "district": "Laboratory"})
    s.apply({"action": "build", "district": "Smithy"})
    g, h = gold(s, "Ana"), player(s, "Ana")["hand"]
    s.apply({"action": "use_district", "district": "Laboratorio"})
    assert (gold(s, "Ana"), player(s, "Ana")["hand"]) == (g + 1, h - 1)
    with pytest.raises(LimitReached):
        s.apply({"action": "use_district", "district": "Laboratorio"})
    s.apply({"action": "use_district", "district": "Smithy"})
    assert (gold(s, "Ana"), player(s, "Ana")["hand"]) == (g + 1 - 2, h - 1 + 3)


def test_seventh_player_may_take_the_face_down_card(store):
    s = store.new_game("ciudadelas", NAMES, seed=3, options={"crown": "Ana"})
    hidden = s.state["draft"]["face_down"][0]
    while s.state["draft"]["picks_made"] < 6:
        seat = s.state["active"]
        avail = [c for c in s.state["draft"]["available"]]
        s.apply({"action": "choose", "player": seat, "character": avail[0]})
    [last] = s.state["draft"]["available"]
    s.apply({"action": "choose", "player": "Iris", "character": hidden})
    assert s.state["picks"][6] == [hidden] and s.state["draft"]["face_down"] == [last]
    assert s.state["phase"] == "call"


def test_the_last_pick_offers_the_face_down_card_only_where_the_table_says(store):
    """7 players: the last picker is offered the face-down card (legal actions and derived state).
    2 players: the table's last pick is one of the last 2; the other goes face down, no choice."""
    for names in (NAMES, ["Ana", "Luis"]):
        s = store.new_game("ciudadelas", names, seed=3, options={"crown": "Ana"})
        rule = s.data.meta["character_draft"]["by_players"][len(names)]
        while s.state["draft"]["picks_made"] + 1 < s.state["draft"]["picks_total"]:
            assert s.state["draft"]["face_down_choices"] == []
            picks = [a for a in s.legal_actions() if a["action"] == "choose"]
            assert picks and all(a["character"] in s.state["draft"]["available"] for a in picks)
            pick = picks[0]
            if s.state["draft"]["needs_discard"]:
                pick["discard"] = next(c for c in s.state["draft"]["available"] if c != pick["character"])
            s.apply(pick)
        offered = {a["character"] for a in s.legal_actions() if a["action"] == "choose"}
        available, hidden = s.state["draft"]["available"], s.state["draft"]["face_down"]
        if rule.get("last_may_take_face_down"):
            assert offered == set(available) | set(hidden) and len(hidden) == 1
            assert s.state["draft"]["face_down_choices"] == hidden
            s.apply({"action": "choose", "character": hidden[0]})
            assert s.state["picks"][s.state["draft"]["picks_total"] - 1] == hidden
        else:
            assert offered == set(available) and len(available) == 2
            assert s.state["draft"]["face_down_choices"] == []
            with pytest.raises(NotAllowed):
                s.apply({"action": "choose", "character": hidden[0]})
    assert len(NAMES) == 7


def test_warlord_destroys_only_in_another_city(store):
    """The Warlord's card says 'a district in another city': his own city is not a target."""
    wanted = {"Ana": "warlord"}
    s = turn_of(store, wanted, "warlord")
    s.apply({"action": "adjust", "player": "Ana", "resource": "gold", "delta": 5})
    s.apply({"action": "take_gold"})
    s.apply({"action": "build", "district": "Tavern"})
    with pytest.raises(NotAllowed, match="another"):
        s.apply({"action": "destroy", "target": "Ana", "district": "Tavern"})
    assert player(s, "Ana")["city"] == ["tavern"] and not s.state["turn"]["power_used"]


def test_a_fourth_watchtower_is_recorded_said_and_noted_in_the_players_words(store):
    """The deck holds 3 Watchtowers: a 4th built at the table is recorded (the table is the truth), the
    build says so at once in both languages, and the final note has no ids, paths, seeds or options."""
    import random

    from ludoteca.companion.engine.common import copy_state, notices
    from ludoteca.companion.engine.final import final_scores
    from ludoteca.companion.engine.games import ciudadelas as C

    s = turn_of(store, {"Ana": "architect"}, "architect")
    s.apply({"action": "take_gold"})
    third = copy_state(s.state)  # the 3rd of 3 is no news: the deck holds it
    for other in ("Luis", "Eva"):
        next(p for p in third["players"] if p["name"] == other)["city"].append("watchtower")
    before = list(third["log"])
    C.MOVES["build"].effect(third, {"district": "watchtower"}, random.Random(1), s.data)
    assert notices(before, third["log"]) == [] and not third["log"][-1].get("notice")
    state = copy_state(s.state)
    for other in ("Luis", "Eva", "Pablo"):
        next(p for p in state["players"] if p["name"] == other)["city"].append("watchtower")
    before = list(state["log"])
    C.MOVES["build"].effect(state, {"district": "watchtower"}, random.Random(1), s.data)
    assert next(p for p in state["players"] if p["name"] == "Ana")["city"][-1] == "watchtower"
    notice = state["log"][-1]
    assert notice.get("notice") and "4 copias de Atalaya" in notice["es"], notice
    assert "4 copies of Watchtower" in notice["en"], notice
    assert notices(before, state["log"]) == [notice]  # what the app shows as its message
    final = final_scores(C.record(state, s.data), s.data)
    shown = " ".join(n[lang] for n in final["notes"] for lang in ("es", "en"))
    assert "Atalaya" in shown and "Watchtower" in shown, final["notes"]
    for developer in ("players[", "city[", "seed", "--lenient", ".md", ".txt", "House rule", "watchtower"):
        assert developer not in shown, (developer, shown)
    assert all(set(n) <= {"es", "en", "player"} for n in final["notes"]), final["notes"]


def test_a_call_is_answered_only_by_a_living_owner():
    """Over a seeded game: each call says it was answered exactly when a player picked the character
    and it was not murdered."""
    import random as _random

    from test_engine_helpers import choose_move

    store = Store(":memory:")
    s = store.new_game("ciudadelas", ["Ana", "Luis", "Eva", "Pablo"], seed=5)
    rnd = _random.Random(5)
    seen = set()
    while not s.state["finished"] and len(seen) < 2:
        move = choose_move(s.state, s.legal_actions(), s.data, rnd)
        before = s.state
        s.apply(move)
        if move["action"] == "call":
            call = s.state["last_call"]
            owned = any(call["character"] in picks for picks in before["picks"])
            assert call["answered"] == (owned and before["murdered"] != call["character"]), call
            seen.add(call["answered"])
    assert seen == {True, False}
    store.close()

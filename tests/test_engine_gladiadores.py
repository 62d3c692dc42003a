"""Gladiadores through the Session API: start of turn, the main-phase actions, the auction, the end."""

from __future__ import annotations

import shutil

import pytest

from ludoteca.cards import default_dir

from ludoteca.companion.engine import (BadArgument, Duplicate, GameOver, LimitReached, NotAllowed, NotEnough,
                              NotYourTurn, Store, WrongPhase)
from ludoteca.companion.engine.games import gladiadores as G
from test_engine_helpers import play_to_end

NAMES = ["Ana", "Luis", "Eva"]


@pytest.fixture()
def store():
    return Store(":memory:")


def active(s):
    return s.state["players"][s.state["active"]]


def test_setup_follows_the_data(store):
    for seed in range(15):
        s = store.new_game("gladiadores", NAMES, seed=seed)
        data, st = s.data, s.state
        meta = data.meta
        first = st["players"][st["active"]]
        assert "casula" in first["buildings"] and st["first_player"] == st["active"]
        for i, p in enumerate(st["players"]):
            assert len(p["buildings"]) == meta["setup"]["buildings_per_player"]
            assert len(set(p["buildings"])) == len(p["buildings"])
            recruits = sum(e.get("amount", 0) for b in p["buildings"]
                           for e in data.get("building", b).get("effects") or []
                           if e["kind"] == "recruit_tiro") if i == st["active"] else 0
            assert len(p["gladiators"]) == meta["setup"]["starting_tiros"] + recruits
            assert all(data.get("gladiator", g["card"])["kind"] == "tiro" for g in p["gladiators"])
            bonus = sum(e.get("amount", 0) for b in p["buildings"] for e in data.get("building", b).get("effects") or []
                        if e["kind"] == "coins" and e["timing"] == "start_of_turn") if i == st["active"] else 0
            assert p["coins"] == meta["setup"]["starting_coins"] + bonus
        symbols = {data.get("building", b)["symbol"] for b in st["centre"]["buildings"]}
        assert symbols <= {"none", "iii"}  # 3 players: no IV or V buildings
        everything = st["centre"]["buildings"] + [b for p in st["players"] for b in p["buildings"]]
        assert len(everything) == len(set(everything))


def test_work_pays_the_work_value_and_exhausts(store):
    s = store.new_game("gladiadores", NAMES, seed=3)
    me = active(s)
    g = me["gladiators"][0]
    expected = G.stat(s.state, s.state["active"], g, "work", s.data)
    before = me["coins"]
    s.apply({"action": "work", "gladiator": g["uid"]})
    assert active(s)["coins"] == before + expected
    with pytest.raises(NotAllowed):
        s.apply({"action": "work", "gladiator": g["uid"]})
    with pytest.raises(BadArgument):
        s.apply({"action": "work", "gladiator": "g999"})
    with pytest.raises(NotYourTurn):
        other = NAMES[(s.state["active"] + 1) % 3]
        s.apply({"action": "work", "player": other, "gladiator": me["gladiators"][1]["uid"]})


def _has(s, seat, kind):
    return [e for b in s.state["players"][seat]["buildings"] for e in s.data.get("building", b).get("effects") or []
            if e["kind"] == kind]


@pytest.mark.parametrize("card_id", ["c_030", "c_031", "c_131", "c_020"])
@pytest.mark.parametrize("seed", [4, 5, 6])
def test_fight_with_the_revealed_card(store, card_id, seed):
    s = store.new_game("gladiadores", NAMES, seed=seed)
    seat = s.state["active"]
    me = active(s)
    rival_seat = (seat + 1) % 3
    rival = s.state["players"][rival_seat]
    att, dfd = me["gladiators"][0], rival["gladiators"][0]
    card = s.data.get("combat_card", card_id)
    st = s.state
    attack = G.stat(st, seat, att, "combat", s.data, "attack") + card["swords"]
    defence = G.stat(st, rival_seat, dfd, "combat", s.data, "defence") + card["shields"]
    won = attack > defence
    cost = s.data.get("gladiator", att["card"])["fight_cost"]
    lose_seat, lose_g, win_seat, win_g = (rival_seat, dfd, seat, att) if won else (seat, att, rival_seat, dfd)
    dies = card["skulls"] > G.stat(st, lose_seat, lose_g, "shields", s.data)
    spared = G.stat(st, lose_seat, lose_g, "favor", s.data) > G.stat(st, win_seat, win_g, "favor", s.data)
    loser_coins = st["players"][lose_seat]["coins"] - (cost if lose_seat == seat else 0)
    saved = bool(_has(s, lose_seat, "save")) and loser_coins >= 1
    expected_me = me["coins"] - cost + (sum(e["amount"] for e in _has(s, seat, "fight_reward")) if won else 0)
    expected_rival = rival["coins"] + (0 if won else sum(e["amount"] for e in _has(s, rival_seat, "defence_reward")))
    if dies and not spared and saved:
        if lose_seat == seat:
            expected_me -= 1
        else:
            expected_rival -= 1
    s.apply({"action": "fight", "gladiator": att["uid"], "target": rival["name"], "defender": dfd["uid"],
             "card": card_id})
    me, rival = s.state["players"][seat], s.state["players"][rival_seat]
    assert (me["combat_wins"], rival["defence_wins"]) == ((1, 0) if won else (0, 1))
    assert (me["coins"], rival["coins"]) == (expected_me, expected_rival)
    loser = s.state["players"][lose_seat]
    assert (lose_g["uid"] not in [g["uid"] for g in loser["gladiators"]]) == (dies and not spared and not saved)
    assert not next((g for g in me["gladiators"] if g["uid"] == att["uid"]), {"ready": False})["ready"]


def test_fight_needs_coins_and_a_free_defender(store):
    s = store.new_game("gladiadores", NAMES, seed=5)
    seat = s.state["active"]
    me, rival = active(s), s.state["players"][(seat + 1) % 3]
    s.apply({"action": "adjust", "player": me["name"], "resource": "coins", "delta": -me["coins"]})
    state = s.state
    with pytest.raises(NotEnough):
        s.apply({"action": "fight", "gladiator": me["gladiators"][0]["uid"], "target": rival["name"],
                 "defender": rival["gladiators"][0]["uid"]})
    with pytest.raises(NotAllowed):
        s.apply({"action": "fight", "gladiator": me["gladiators"][0]["uid"], "target": me["name"],
                 "defender": me["gladiators"][1]["uid"]})
    assert s.state == state


def test_build_pools_construction_and_refuses_what_the_rules_forbid(store):
    s = store.new_game("gladiadores", NAMES, seed=6)
    seat = s.state["active"]
    me = active(s)
    uids = [g["uid"] for g in me["gladiators"]]
    power = sum(G.stat(s.state, seat, g, "construction", s.data) for g in me["gladiators"])
    centre = [s.data.get("building", b) for b in s.state["centre"]["buildings"]]
    cheap = min((b for b in centre), key=lambda b: b["cost"])
    dear = max(centre, key=lambda b: b["cost"])
    with pytest.raises(NotEnough):
        s.apply({"action": "build", "building": dear["id"], "gladiators": uids})
    with pytest.raises(Duplicate):
        s.apply({"action": "build", "building": me["buildings"][0], "gladiators": uids})
    with pytest.raises(BadArgument):
        s.apply({"action": "build", "building": cheap["id"], "gladiators": [uids[0], uids[0]]})
    if cheap["cost"] <= power:
        s.apply({"action": "build", "building": cheap["id"], "gladiators": uids})
        assert cheap["id"] in active(s)["buildings"] and cheap["id"] not in s.state["centre"]["buildings"]
        assert not any(g["ready"] for g in active(s)["gladiators"])


def test_five_buildings_at_most_and_no_demolishing_points(store):
    s = store.new_game("gladiadores", NAMES, seed=7)
    # many turns of building with whatever is cheap, until someone owns 5 buildings
    import random
    rnd = random.Random(0)
    from test_engine_helpers import choose_move
    while max(len(p["buildings"]) for p in s.state["players"]) < 5:
        s.apply(choose_move(s.state, s.legal_actions(), s.data, rnd))
        assert not s.state["finished"]
    full = next(i for i, p in enumerate(s.state["players"]) if len(p["buildings"]) == 5)
    while not (s.state["active"] == full and s.state["phase"] == "main"):
        s.apply(choose_move(s.state, s.legal_actions(), s.data, rnd))
    me = active(s)
    free = [b for b in s.state["centre"]["buildings"] if b not in me["buildings"]]
    with pytest.raises(LimitReached):
        s.apply({"action": "build", "building": free[0],
                 "gladiators": [g["uid"] for g in me["gladiators"] if g["ready"]]})
    assert all(not a["action"] == "build" for a in s.legal_actions())


def test_points_buildings_cannot_be_demolished(store):
    data = store.data("gladiadores")
    with_points = [b for b in data.entries("building") if b.get("points")]
    assert with_points and all(not b["demolishable"] for b in with_points)
    s = store.new_game("gladiadores", NAMES, seed=8)
    me = active(s)
    with pytest.raises(BadArgument):  # not owned
        s.apply({"action": "demolish", "building": with_points[0]["id"], "gladiators": [me["gladiators"][0]["uid"]]})


def test_chain_needs_the_officina(store):
    s = store.new_game("gladiadores", NAMES, seed=9)
    seat = s.state["active"]
    me, rival = active(s), s.state["players"][(seat + 1) % 3]
    if "officina" in me["buildings"]:
        pytest.fail("the Officina is not a starting building")
    with pytest.raises(NotAllowed):
        s.apply({"action": "chain", "gladiator": me["gladiators"][0]["uid"], "target": rival["name"],
                 "targets": [rival["gladiators"][0]["uid"]]})


def test_auction_order_payment_and_ready_arrival(store):
    s = store.new_game("gladiadores", NAMES, seed=10)
    seat = s.state["active"]
    me = active(s)
    assert G.capacity(s.state, seat, s.data) == 3 and len(me["gladiators"]) == 2
    with pytest.raises(WrongPhase):
        s.apply({"action": "start_auction"})
    s.apply({"action": "end_main"})
    s.apply({"action": "start_auction"})
    shown = s.state["auction"]["shown"]
    assert len(shown) == s.data.meta["auction"]["reveal"]
    s.apply({"action": "pick", "gladiator": shown[0]})
    order = s.state["auction"]["order"]
    assert order == [(seat + 1) % 3, (seat + 2) % 3, seat]
    card = s.data.get("gladiator", shown[0])
    for k in (1, 2):
        s.apply({"action": "adjust", "player": NAMES[(seat + k) % 3], "resource": "coins", "delta": 10})
    s.apply({"action": "adjust", "player": me["name"], "resource": "coins", "delta": 10})
    with pytest.raises(NotYourTurn):
        s.apply({"action": "bid", "player": me["name"], "amount": card["min_bid"]})
    with pytest.raises(NotEnough):
        s.apply({"action": "bid", "player": NAMES[order[0]], "amount": card["min_bid"] - 1})
    s.apply({"action": "bid", "player": NAMES[order[0]], "amount": card["min_bid"] + 1})
    s.apply({"action": "pass", "player": NAMES[order[1]]})
    coins = s.state["players"][seat]["coins"]
    s.apply({"action": "bid", "player": me["name"], "amount": card["min_bid"] + 1})  # the active player matches
    winner = s.state["players"][seat]
    discount = sum(e.get("amount", 0) for b in winner["buildings"] for e in s.data.get("building",
                                                                                       b).get("effects") or []
                   if e["kind"] == "auction_discount")
    assert winner["coins"] == coins - max(0, card["min_bid"] + 1 - discount)
    new = winner["gladiators"][-1]
    assert new["card"] == shown[0] and new["ready"] is True
    assert s.state["phase"] == "end" and set(shown[1:]) <= set(s.state["centre"]["veteran_discard"])
    s.apply({"action": "end_turn"})
    assert s.state["active"] == (seat + 1) % 3


def test_turn_start_refills_tiros(store):
    s = store.new_game("gladiadores", ["Ana", "Luis"], seed=12)
    seat = s.state["active"]
    other = 1 - seat
    # the other player loses gladiators in fights until only one is left, then refills at their turn
    for _ in range(40):
        if len(s.state["players"][other]["gladiators"]) < 2 or s.state["finished"]:
            break
        me = active(s)
        rival = s.state["players"][1 - s.state["active"]]
        ready = [g for g in me["gladiators"] if g["ready"]]
        if s.state["phase"] == "main" and ready and s.state["active"] == seat:
            s.apply({"action": "adjust", "player": me["name"], "resource": "coins", "delta": 3})
            s.apply({"action": "fight", "gladiator": ready[0]["uid"], "target": rival["name"],
                     "defender": rival["gladiators"][0]["uid"], "card": "c_033" if False else _deadly(s)})
        elif s.state["phase"] == "main":
            s.apply({"action": "end_main"})
        else:
            while s.state["auction"] is None and s.state["phase"] == "auction" and \
                    len(active(s)["gladiators"]) > G.capacity(s.state, s.state["active"], s.data):
                s.apply({"action": "discard_gladiator", "gladiator": active(s)["gladiators"][-1]["uid"]})
            s.apply({"action": "end_turn"})
    assert len(s.state["players"][other]["gladiators"]) < 2
    while s.state["active"] != other:
        if s.state["phase"] == "main":
            s.apply({"action": "end_main"})
        s.apply({"action": "end_turn"})
    assert len(s.state["players"][other]["gladiators"]) >= s.data.meta["limits"]["refill_min_gladiators"]
    assert all(g["ready"] for g in s.state["players"][other]["gladiators"])


def _deadly(s):
    """A combat card with many swords and skulls: the attacker wins and the loser dies."""
    return max(s.data.entries("combat_card"), key=lambda c: (c["swords"] - c["shields"], c["skulls"]))["id"]


def test_reaching_the_target_ends_the_game(store):
    s = store.new_game("gladiadores", NAMES, seed=13, options={"target": 3})
    me = active(s)
    s.apply({"action": "adjust", "player": me["name"], "resource": "combat_wins", "delta": 3})
    s.apply({"action": "end_main"})
    s.apply({"action": "end_turn"})
    assert s.state["finished"] and s.state["final"]["winners"] == [me["name"]]
    with pytest.raises(GameOver):
        s.apply({"action": "end_turn"})


def test_the_old_name_of_the_combat_counter_still_replays(store):
    """Saved games adjusted ``points`` before the engine kept wins: the same action corrects the wins."""
    s = store.new_game("gladiadores", NAMES, seed=13)
    me = active(s)
    s.apply({"action": "adjust", "player": me["name"], "resource": " Points ", "delta": 2})
    assert (active(s)["combat_wins"], active(s)["score"]) == (2, 2)
    assert "combates ganados (= 2)" in s.state["log"][-1]["es"]


def test_whole_game_to_final_score(store):
    s = store.new_game("gladiadores", ["Ana", "Luis", "Eva", "Pablo"], seed=2)
    n = play_to_end(s, seed=2)
    final = s.state["final"]
    assert n > 30 and len(final["winners"]) == 1
    [winner] = final["winners"]
    w = next(p for p in final["players"] if p["name"] == winner)
    assert w["total"] >= s.state["target"] and w["rank"] == 1
    seat = next(i for i, p in enumerate(s.state["players"]) if p["name"] == winner)
    won = s.state["players"][seat]
    rules = s.data.meta["combat"]
    assert w["total"] == won["combat_wins"] * rules["points"]["attacker_wins"] + \
        won["defence_wins"] * rules["points"]["defender_wins"] + \
        sum(s.data.get("building", b)["points"] for b in won["buildings"])
    assert all(len(p["buildings"]) <= 5 for p in s.state["players"])


def test_combat_points_are_counted_once_with_two_points_a_win(tmp_path):
    """cards/ copied with ``combat.points.attacker_wins: 2``: a game played to its end shows the same
    score live as in its final scoring (each win counted once, at 2 points)."""
    cards = tmp_path / "cards"
    shutil.copytree(default_dir(), cards, ignore=shutil.ignore_patterns("*.py", "__pycache__"))
    game_yaml = cards / "gladiadores" / "game.yaml"
    shipped = game_yaml.read_text(encoding="utf-8")
    assert "points: {attacker_wins: 1, defender_wins: 0}" in shipped
    game_yaml.write_text(shipped.replace("points: {attacker_wins: 1,", "points: {attacker_wins: 2,"), encoding="utf-8")
    s = Store(":memory:", cards_dir=cards).new_game("gladiadores", NAMES, seed=3)
    assert s.data.meta["combat"]["points"]["attacker_wins"] == 2
    play_to_end(s, seed=3)
    final = {p["name"]: p for p in s.state["final"]["players"]}
    assert any(p["breakdown"]["combat"] for p in final.values())  # some combat was won
    assert all(p["breakdown"]["combat"] % 2 == 0 for p in final.values())
    assert {p["name"]: p["score"] for p in s.state["players"]} == {n: p["total"] for n, p in final.items()}


def test_the_aries_destroys_a_rivals_building_never_ones_own(store):
    s = store.new_game("gladiadores", NAMES, seed=1)
    me = active(s)["name"]
    s.apply({"action": "adjust", "player": me, "resource": "aries", "delta": 1})
    player = active(s)
    uids = [g["uid"] for g in player["gladiators"]]
    own = next(b for b in player["buildings"] if b != "aries")
    with pytest.raises(NotAllowed, match="to remove your own building, demolish it"):
        s.apply({"action": "destroy", "target": me, "building": own, "gladiators": uids})
    rival = next(p for p in s.state["players"] if p["name"] != me)
    theirs = next(b for b in rival["buildings"] if G.removable(s.data.get("building", b), s.data))
    try:
        s.apply({"action": "destroy", "target": rival["name"], "building": theirs, "gladiators": uids})
    except NotAllowed as exc:  # refused for another reason (not enough construction), never as one's own
        assert "your own building" not in str(exc)


def test_a_redraw_is_once_a_turn(store):
    """The Tabularium's redraw (``per_turn: 1``): the first fight of the turn that asks for it draws
    a second card, a later one in the same turn does not."""
    s = store.new_game("gladiadores", NAMES, seed=1)
    me = active(s)["name"]
    s.apply({"action": "adjust", "player": me, "resource": "tabularium", "delta": 1})
    s.apply({"action": "adjust", "player": me, "resource": "coins", "delta": 20})
    drawn = []
    for fight in [a for a in s.legal_actions() if a["action"] == "fight"]:
        ready = {g["uid"] for g in active(s)["gladiators"] if g["ready"]}
        rival = next(p for p in s.state["players"] if p["name"] == fight["target"])
        if fight["gladiator"] not in ready or not any(g["uid"] == fight["defender"] and g["ready"]
                                                        for g in rival["gladiators"]):
            continue
        before = len(s.state["centre"]["combat_discard"])
        s.apply({**fight, "redraw": True})
        drawn.append(len(s.state["centre"]["combat_discard"]) - before)
        if len(drawn) == 2:
            break
    assert drawn == [2, 1]


def test_a_building_is_adjusted_by_one_either_way(store):
    s = store.new_game("gladiadores", NAMES, seed=1)
    me = active(s)["name"]
    own = active(s)["buildings"][0]
    s.apply({"action": "adjust", "player": me, "resource": own, "delta": -1})
    assert own not in active(s)["buildings"]
    with pytest.raises(BadArgument, match=r"\+1 or -1"):
        s.apply({"action": "adjust", "player": me, "resource": own, "delta": 2})
    s.apply({"action": "adjust", "player": me, "resource": own, "delta": 1})
    assert own in active(s)["buildings"]

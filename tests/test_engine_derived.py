"""What the engine works out for the screens (so the app does no rules): final labels and notes,
exports, readable log lines, and the derived numbers of each game's state."""

from __future__ import annotations

import csv
import io
import json
import random
import re

import pytest

from ludoteca.companion.engine import BadArgument, Duplicate, IllegalAction, NotAllowed, NotEnough, Store
from ludoteca.companion.engine.common import copy_state, refusals
from ludoteca.companion.engine.export import SUFFIXES, export_data
from ludoteca.companion.engine.games import ciudadelas as C
from ludoteca.companion.engine.games import el_mapa as M
from ludoteca.companion.engine.games import gladiadores as G
from ludoteca.companion.engine.scoring import score_record
from test_engine_helpers import play_to_end

GAMES = {"ciudadelas": ["Ana", "Luis", "Eva", "Pablo"], "el_mapa": ["Ana", "Luis"], "gladiadores": ["Ana", "Luis"]}


@pytest.fixture()
def store():
    return Store(":memory:")


# -- 1. final scores carry their labels and notes ----------------------------------------------

@pytest.mark.parametrize("game", sorted(GAMES))
def test_final_keeps_labels_and_notes_of_the_scoring(store, game):
    s = store.new_game(game, GAMES[game], seed=5)
    play_to_end(s, seed=5)
    final = s.state["final"]
    expected = score_record(final["record"], {game: s.data}, lenient=True, trusted=True).extras()
    from ludoteca.companion.engine.scoring.records import plain_note

    # the notes as players read them (the CLI's house-rule notes name fields and seeds: not shown)
    assert final["labels"] == expected["labels"] and final["notes"] == [plain_note(n) for n in expected["notes"]]
    for player in final["players"]:
        for key in player["breakdown"]:
            label = final["labels"][key]
            assert label["es"] and label["en"] and label["es"] != key
    for note in final["notes"]:
        assert note["es"] and note["en"]
    json.dumps(s.state)  # still plain JSON


# -- 2. exports live in the engine ---------------------------------------------------------------

def test_export_formats_from_the_engine(tmp_path):
    store = Store(tmp_path / "x.db")
    s = store.new_game("gladiadores", ["Ana", "Luis"], seed=2)
    n = play_to_end(s, seed=2)
    data = json.loads(export_data(store, s.id, "json"))
    assert data["id"] == s.id and len(data["actions"]) == n and data["state"]["finished"]
    rows = list(csv.reader(io.StringIO(export_data(store, s.id, "log"))))
    assert rows[0][:3] == ["seq", "at", "action"] and len(rows) == n + 1
    scores = list(csv.reader(io.StringIO(export_data(store, s.id, "csv"))))
    assert scores[0][0] == "player" and len(scores) == 1 + len(s.players)
    assert {r[0] for r in scores[1:]} == set(s.players)
    play = json.loads(export_data(store, s.id, "bgstats"))["plays"][0]
    winners = {p["name"] for p in s.state["final"]["players"] if p["name"] in s.state["final"]["winners"]}
    assert {s.players[ps["playerRefId"] - 1] for ps in play["playerScores"] if ps["winner"]} == winners
    assert set(SUFFIXES) == {"json", "csv", "log", "bgstats", "bgstats-link"}
    with pytest.raises(BadArgument):
        export_data(store, s.id, "xml")


# -- 3. every log line is words, in both languages -----------------------------------------------

#: Signs of a raw Python value or an untranslated id in a log line.
RAW = re.compile(r"[{}\[\]]|'[a-z_]+'|\b[a-z]+_[a-z_]+\b")
SPANISH_IDS = re.compile(r"\b(?:oro|madera|piedra|hechizo|leva|soldado|arquero|caballero)\b")


def _lines(session, moves) -> set[tuple[str, str]]:
    """Apply the moves the position allows; every log line seen on the way."""
    seen: set[tuple[str, str]] = set()
    for move in moves:
        try:
            session.apply(move)
        except IllegalAction:  # a move this position refuses: nothing logged
            continue
        seen |= {(line["es"], line["en"]) for line in session.state["log"]}
    return seen


@pytest.mark.parametrize("game", sorted(GAMES))
def test_log_lines_are_readable_text(store, game):
    s = store.new_game(game, GAMES[game], seed=9)
    lines = {(line["es"], line["en"]) for line in s.state["log"]}
    rnd = random.Random(9)
    from test_engine_helpers import choose_move

    turns = set()         # a village is one more castle to list builds for: one claim per turn
    while not s.state["finished"] and len(lines) < 3000:
        seat = s.state["active"]
        extra = []
        if game == "el_mapa" and seat is not None and s.state["turn"] <= 4:
            name = s.state["players"][seat]["name"]
            village = [] if (s.state["turn"], seat) in turns else [{"action": "claim", "what": "village"}]
            turns.add((s.state["turn"], seat))
            extra = [{"action": "treasure", "count": 2}, {"action": "claim", "what": "mine", "resource": "piedra"},
                     {"action": "claim", "what": "spell_mine", "level": 2}, *village,
                     {"action": "adjust", "player": name, "resource": "oro", "delta": 3},
                     {"action": "build", "building": "mercado"},
                     {"action": "trade", "give": "oro", "get": "madera"}]
        lines |= _lines(s, extra + [choose_move(s.state, s.legal_actions(), s.data, rnd)])
    assert s.state["finished"] and len(lines) > 20
    for es, en in lines:
        line = {"es": es, "en": en}
        assert not RAW.search(line["es"]) and not RAW.search(line["en"]), line
        assert not SPANISH_IDS.search(line["en"]), line
    if game == "el_mapa":
        kinds = {es.split(" ")[1] for es, _ in lines}
        assert {"abre", "se", "cambia", "construye"} <= kinds, kinds


def test_el_mapa_turn_start_line_names_what_came(store):
    s = store.new_game("el_mapa", ["Ana", "Luis"], seed=1)
    summary = s.state["turn_start"]
    line = s.state["log"][-1]
    for key, n in {**summary["produced"], **summary["recruited"]}.items():
        if n:
            words = M.amounts_text({key: n}, s.data, "en")
            assert words in line["en"] and M.amounts_text({key: n}, s.data, "es") in line["es"]
    assert "{" not in line["en"] and "{" not in line["es"]


# -- 4. derived numbers --------------------------------------------------------------------------

def _warlord_turn(s) -> dict:
    """A position (built from a real setup) where seat 0 plays the Warlord."""
    state = copy_state(s.state)
    state.update(phase="turn", active=0, protected=None, finished=False, turn={
        "character": "warlord", "resource": True, "income": True, "builds": 0, "max_builds": 1,
        "power_used": False, "districts_used": []})
    return state


def test_ciudadelas_destroy_targets_price_is_what_the_engine_charges(store):
    s = store.new_game("ciudadelas", GAMES["ciudadelas"], seed=4)
    plain = [d["id"] for d in s.data.entries("district") if d["colour"] != "purple"]
    state = _warlord_turn(s)
    state["players"][1]["city"] = [plain[0], plain[5], "great_wall"]
    state["players"][2]["city"] = ["keep", plain[3]]
    state["players"][3]["city"] = []
    state["players"][0]["city"] = [plain[1]]
    state["players"][0]["gold"] = 3
    targets = C.destroy_targets(state, s.data)
    assert {(t["seat"], t["district"]) for t in targets} == {(1, plain[0]), (1, plain[5]), (1, "great_wall"),
                                                            (2, plain[3])}  # not the Keep, not his own city
    by = {(t["seat"], t["district"]): t for t in targets}
    for t in targets:
        trial = copy_state(state)
        action = {"action": "destroy", "target": t["target"], "district": t["district"]}
        if t["affordable"]:
            C.DEFINITION.apply(trial, action, random.Random(0), s.data)
            assert trial["players"][0]["gold"] == 3 - t["price"]
            assert t["district"] not in trial["players"][t["seat"]]["city"]
        else:
            with pytest.raises(NotEnough):
                C.DEFINITION.apply(trial, action, random.Random(0), s.data)
    # The Great Wall adds to every other district of its city, not to itself.
    wall = s.data.get("district", "great_wall")
    cost = s.data.get("district", plain[0])["cost"]
    base = by[(2, plain[3])]["price"] - s.data.get("district", plain[3])["cost"]  # minus the discount
    assert by[(1, plain[0])]["price"] == cost + base + wall["params"]["surcharge"]
    assert by[(1, "great_wall")]["price"] == wall["cost"] + base
    # legal_actions offers exactly the affordable ones.
    legal = [a for a in C.DEFINITION.legal_actions(state, s.data) if a["action"] == "destroy"]
    assert sorted((a["target"], a["district"]) for a in legal) == sorted(
        (t["target"], t["district"]) for t in targets if t["affordable"])


def test_ciudadelas_city_points_and_usable_districts(store):
    s = store.new_game("ciudadelas", GAMES["ciudadelas"], seed=6)
    play_to_end(s, seed=6)
    final = {p["name"]: p for p in s.state["final"]["players"]}
    for p in s.state["players"]:
        assert p["city_points"] == final[p["name"]]["breakdown"]["districts"]
        assert len(p["city_colours"]) == len({s.data.get("district", d)["colour"] for d in p["city"]})
    state = _warlord_turn(s)
    state["players"][0]["city"] = ["laboratory", "smithy", "keep"]
    state["players"][0]["hand"] = 2
    state["players"][0]["gold"] = 2  # the Smithy's price: 2 gold for 3 cards
    C.derive(state, s.data)
    assert state["players"][0]["usable"] == ["laboratory", "smithy"]
    # Worked from the cards: Laboratory 5 + Smithy 5 + Keep 3, all purple.
    assert state["players"][0]["city_points"] == 13 and state["players"][0]["city_colours"] == ["purple"]
    uses = [a for a in C.DEFINITION.legal_actions(state, s.data) if a["action"] == "use_district"]
    assert uses == [{"action": "use_district", "district": "laboratory"},
                    {"action": "use_district", "district": "smithy"}]
    state["players"][0]["gold"] = 1  # one short: the Smithy is no longer offered (apply refuses it)
    uses = [a for a in C.DEFINITION.legal_actions(state, s.data) if a["action"] == "use_district"]
    assert uses == [{"action": "use_district", "district": "laboratory"}]


def test_ciudadelas_legal_targets_are_the_ones_the_engine_accepts(store):
    """Worked from the cards: the Assassin (1) names any later character; the Thief (2) names a later
    one but neither the Assassin nor the murdered Magician (3)."""
    s = store.new_game("ciudadelas", GAMES["ciudadelas"], seed=6)
    state = _warlord_turn(s)
    expected = {"assassin": {"thief", "magician", "king", "bishop", "merchant", "architect", "warlord"},
                "thief": {"king", "bishop", "merchant", "architect", "warlord"}}
    for char in ("assassin", "thief"):
        state["turn"]["character"] = char
        state["murdered"] = "magician"
        offered = {a["character"] for a in C.DEFINITION.legal_actions(state, s.data) if a["action"] in ("murder",
                                                                                                        "steal")}
        assert offered == expected[char]
        for c in s.data.entries("character"):
            trial = copy_state(state)
            action = {"action": "murder" if char == "assassin" else "steal", "character": c["id"]}
            try:
                C.DEFINITION.apply(trial, action, random.Random(0), s.data)
                accepted = True
            except NotAllowed:
                accepted = False
            assert accepted == (c["id"] in expected[char]), (char, c["id"])


#: The troops' points, as printed on their cards (cards/el_mapa/troops.yaml).
LEVY_POINTS, KNIGHT_POINTS = 1, 3


def test_el_mapa_trade_limit_battle_points_and_timers(store):
    s = store.new_game("el_mapa", ["Ana", "Luis"], seed=1)
    seat = s.state["active"]
    me = s.state["players"][seat]
    assert me["trades_left"] == 0  # no Market yet
    s.apply({"action": "adjust", "player": me["name"], "resource": "oro", "delta": 5})
    s.apply({"action": "build", "building": "mercado"})
    me = s.state["players"][seat]
    assert me["trade_limit"] == me["villages"] + 1 and me["trades_left"] == me["trade_limit"]
    s.apply({"action": "trade", "give": "oro", "get": "madera"})
    assert s.state["players"][seat]["trades_left"] == me["trade_limit"] - 1
    rival = s.state["players"][1 - seat]["name"]
    defeated = {"leva": 2, "caballero": 1}
    s.apply({"action": "battle", "winner": me["name"], "loser": rival, "defeated": defeated})
    assert s.state["players"][seat]["battle_points"] == 2 * LEVY_POINTS + KNIGHT_POINTS
    # A timer showing 1 turn left recruits at that player's next turn start; more does not.
    s.apply({"action": "adjust", "player": me["name"], "resource": "oro", "delta": 9})
    s.apply({"action": "adjust", "player": me["name"], "resource": "madera", "delta": 3})
    left: dict[str, int] = {}
    for turn in range(4):
        s.apply({"action": "end_turn"})
        s.apply({"action": "end_turn"})
        assert s.state["active"] == seat
        if turn == 0:
            s.apply({"action": "build", "building": "cuartel"})
        else:
            assert {t for t, n in left.items() if n == 1} == set(s.state["turn_start"]["recruited"]), (turn, left)
        left = dict(s.state["players"][seat]["castles"][0]["timers_left"])
        assert len(left) == 2 and all(n >= 1 for n in left.values())
    play_to_end(s, seed=1)
    final = next(p for p in s.state["final"]["players"] if p["name"] == me["name"])
    assert final["breakdown"]["battles"] == s.state["players"][seat]["battle_points"]


def test_gladiadores_derived_and_building_adjust(store):
    s = store.new_game("gladiadores", ["Ana", "Luis"], seed=0)
    seat = s.state["active"]
    me, rival = s.state["players"][seat], s.state["players"][1 - seat]
    for p in s.state["players"]:
        assert p["score"] == 0  # no fight won yet, and no starting building gives points
        for g in p["gladiators"]:  # a Tiro's printed stats; no starting building adds to them here
            card = s.data.get("gladiator", g["card"])
            assert p["glad_stats"][g["uid"]]["construction"] == card["construction"]
    # Two fights won and a building worth points from the centre: 2 + its printed points.
    worth = next(b for b in s.state["centre"]["buildings"] if s.data.get("building", b)["points"] == 2)
    s.apply({"action": "adjust", "player": me["name"], "resource": "combat_wins", "delta": 2})
    s.apply({"action": "adjust", "player": me["name"], "resource": worth, "delta": 1})
    assert s.state["players"][seat]["score"] == 4
    s.apply({"action": "undo"})
    s.apply({"action": "undo"})
    assert s.state["max_buildings"] == s.data.meta["limits"]["max_buildings"]
    uids = [g["uid"] for g in me["gladiators"]]
    chain = {"action": "chain", "gladiator": uids[0], "target": rival["name"],
             "targets": [rival["gladiators"][0]["uid"]]}
    destroy = {"action": "destroy", "target": rival["name"], "building": rival["buildings"][0], "gladiators": uids}
    assert refusals(G.MOVES, s.state, s.data, [chain, destroy]) == [
        {"es": "necesitas la Officina para encadenar", "en": "you need the Officina to chain"},
        {"es": "necesitas el Aries para destruir", "en": "you need the Aries to destroy"}]
    # The table is the truth: give the active player the Officina and the Aries from the centre.
    for b in ("officina", "aries"):
        s.apply({"action": "adjust", "player": me["name"], "resource": b, "delta": 1})
        assert b in s.state["players"][seat]["buildings"] and b not in s.state["centre"]["buildings"]
    with pytest.raises(Duplicate):
        s.apply({"action": "adjust", "player": me["name"], "resource": "aries", "delta": 1})
    me = s.state["players"][seat]
    assert refusals(G.MOVES, s.state, s.data, [chain])[0] is None
    # With the Aries, the rival's Stabulum (cost 3) is refused for the two Tiros' construction 1 + 1.
    assert destroy["building"] == "stabulum"
    assert refusals(G.MOVES, s.state, s.data,
                    [destroy]) == [{"es": "derribar Stabulum cuesta 3 y tus gladiadores suman 2",
                                                              "en": "demolishing Stabulum costs 3; your gladiators "
                                                                    "add up to 2"}]
    assert G.pooled_construction(s.state, seat, uids, s.data) == sum(me["glad_stats"][u]["construction"] for u in uids)
    target = rival["gladiators"][0]["uid"]
    s.apply({"action": "chain", "gladiator": uids[0], "target": rival["name"], "targets": [target]})
    assert target in s.state["chained"]
    again = {**chain, "gladiator": uids[1]}
    assert refusals(G.MOVES, s.state, s.data, [again]) == [{"es": "ya encadenaste este turno",
                                                            "en": "you already chained this turn"}]
    s.apply({"action": "adjust", "player": me["name"], "resource": "officina", "delta": -1})
    assert "officina" in s.state["centre"]["buildings"]
    with pytest.raises(BadArgument):
        s.apply({"action": "adjust", "player": me["name"], "resource": "officina", "delta": 2})
    assert set(rival["removable"]) == {b for b in rival["buildings"] if G.removable(s.data.get("building", b), s.data)}

"""El Mapa through the Session API: turn start, hiring, trading, building, battles, the end."""

from __future__ import annotations

import pytest

from ludoteca.companion.engine.games.el_mapa import amounts_text
from ludoteca.companion.engine import (BadArgument, Duplicate, GameOver, LimitReached, NotAllowed, NotEnough,
                              NotYourTurn, Store)
from test_engine_helpers import play_to_end


@pytest.fixture()
def store():
    return Store(":memory:")


def new(store, seed=1, players=("Ana", "Luis"), **options):
    return store.new_game("el_mapa", list(players), seed=seed, options={"first": "Ana", **options})


def ana(s):
    return s.state["players"][0]


def round_trip(s):
    """End turns until it is Ana's turn again (her turn start is applied)."""
    s.apply({"action": "end_turn"})
    while s.state["active"] != 0:
        s.apply({"action": "end_turn"})


def give(s, **amounts):
    for res, n in amounts.items():
        s.apply({"action": "adjust", "player": "Ana", "resource": res, "delta": n})


def test_setup_and_first_turn_start(store):
    s = new(store)
    data = s.data
    start = data.meta["starting"]
    for p in s.state["players"]:
        assert p["villages"] == 1 and len(p["castles"]) == 1
        assert p["mines"] == {"oro": 0, "madera": 1, "piedra": 1}
        assert [a["troops"] for a in p["armies"]] == [start["troops"]]
    a, luis = s.state["players"]
    out = data.meta["production"]["mine_output"]
    assert (a["oro"], a["madera"], a["piedra"]) == (start["resources"]["oro"], out, out)
    assert (luis["oro"], luis["madera"], luis["piedra"]) == (start["resources"]["oro"], 0, 0)
    assert a["reserve"]["leva"] == 1 and luis["reserve"]["leva"] == 0
    assert s.state["turn_start"]["produced"]["madera"] == out
    m = next(m for m in data.entries("map") if m["players"] == 2)
    assert s.state["map"]["hidden"] == sum(1 for row in m["grid"] for c in row if str(c) in "123")


def test_recruitment_timers_follow_the_troops(store):
    s = new(store)
    give(s, oro=10, madera=5)
    s.apply({"action": "build", "building": "Cuartel"})
    every = s.data.get("troop", "soldado")["recruit_every"]
    seen = []
    for _ in range(4):
        round_trip(s)
        seen.append(ana(s)["reserve"]["soldado"])
    assert seen == [k // every for k in range(1, 5)]
    assert ana(s)["reserve"]["leva"] == 5  # one levy a turn from the castle


def test_armeria_variant_doubles_training(store):
    s = new(store, variants=["armeria_atalaya"])
    give(s, oro=20, madera=5, piedra=5)
    s.apply({"action": "build", "building": "Ayuntamiento"})
    for b in ("Mercado", "Armería"):
        round_trip(s)
        s.apply({"action": "build", "building": b})
    before = ana(s)["reserve"]["leva"]
    round_trip(s)
    assert ana(s)["reserve"]["leva"] - before == 2
    plain = new(store)
    with pytest.raises(NotAllowed):
        plain.apply({"action": "build", "building": "Armería"})


def test_hiring_costs_and_army_limit(store):
    s = new(store)
    with pytest.raises(LimitReached):  # one village = one army, and it is on the map
        s.apply({"action": "hire", "troop": "leva", "count": 1})
    with pytest.raises(NotEnough):
        s.apply({"action": "hire", "troop": "leva", "count": 2, "army": "a1"})
    s.apply({"action": "hire", "troop": "leva", "count": 1, "army": "a1"})
    assert ana(s)["armies"][0]["troops"] == {"leva": 2} and ana(s)["oro"] == 2
    assert ana(s)["trained_troops"] == 1
    give(s, oro=5, madera=5)
    s.apply({"action": "build", "building": "Almacén"})  # one more army
    round_trip(s)
    s.apply({"action": "hire", "troop": "leva", "count": 1})
    assert len(ana(s)["armies"]) == 2 and ana(s)["armies"][1]["storehouse"] is True
    with pytest.raises(NotYourTurn):
        s.apply({"action": "hire", "player": "Luis", "troop": "leva", "count": 1})


def test_bank_trades_need_a_market_and_respect_the_limit(store):
    s = new(store)
    give(s, oro=10)
    with pytest.raises(NotAllowed):
        s.apply({"action": "trade", "give": "oro", "get": "madera"})
    s.apply({"action": "build", "building": "Mercado"})
    limit = 1 + 1  # one village + one market
    state = s.state
    with pytest.raises(BadArgument):
        s.apply({"action": "trade", "give": "madera", "get": "piedra"})
    assert s.state == state
    oro = ana(s)["oro"]
    s.apply({"action": "trade", "give": "Oro", "get": "Madera", "times": limit})
    assert ana(s)["oro"] == oro - 2 * limit and ana(s)["madera"] == 1 + limit
    with pytest.raises(LimitReached):
        s.apply({"action": "trade", "give": "madera", "get": "oro"})
    round_trip(s)
    s.apply({"action": "trade", "give": "piedra", "get": "oro"})
    assert ana(s)["trades_used"] == 1


def test_building_slots_and_the_two_below_rule(store):
    s = new(store)
    give(s, oro=60, madera=20, piedra=10)
    with pytest.raises(NotAllowed):
        s.apply({"action": "build", "building": "Arquería"})  # level 2 needs two level-1 below
    s.apply({"action": "build", "building": "Mercado"})
    with pytest.raises(LimitReached):
        s.apply({"action": "build", "building": "Estatua"})
    round_trip(s)
    with pytest.raises(Duplicate):
        s.apply({"action": "build", "building": "Mercado"})
    with pytest.raises(NotAllowed):
        s.apply({"action": "build", "building": "Estatua", "slot": "n2_a"})  # n1_b still empty
    s.apply({"action": "build", "building": "Estatua", "slot": "n1_b"})
    round_trip(s)
    s.apply({"action": "build", "building": "Arquería"})
    slots = ana(s)["castles"][0]["slots"]
    assert slots == {"n1_a": "mercado", "n1_b": "estatua", "n2_a": "arqueria"}
    round_trip(s)
    with pytest.raises(NotAllowed):
        s.apply({"action": "build", "building": "Ayuntamiento", "slot": "n1_a"})


def test_wonder_ends_the_game_at_the_end_of_the_turn(store):
    s = new(store)
    rows = [("Ayuntamiento", "n1_a"), ("Mercado", "n1_b"), ("Estatua", "n1_c"), ("Almacén", "n1_d"),
            ("Banco", "n2_a"), ("Teatro", "n2_b"), ("Arquería", "n2_c"), ("Coliseo", "n3_a"),
            ("Tesorería", "n3_b")]
    give(s, oro=100, madera=40, piedra=40)
    for b, slot in rows:
        s.apply({"action": "build", "building": b, "slot": slot})
        round_trip(s)
    s.apply({"action": "build", "building": "Pirámides"})
    assert not s.state["finished"]
    s.apply({"action": "end_turn"})
    assert s.state["finished"] and s.state["last_turn_reason"] == "maravilla"
    scores = {p["name"]: p for p in s.state["final"]["players"]}
    a = ana(s)
    levels = sum(s.data.get("building", b)["level"] + s.data.get("building", b).get("extra_points", 0)
                 for b, _ in rows + [("piramides", "")] for b in [s.data.find("building", b)["id"]])
    assert scores["Ana"]["breakdown"]["buildings"] == levels
    assert scores["Ana"]["breakdown"]["wonders"] == 2 * a["piedra"]
    assert scores["Ana"]["breakdown"]["tiles"] == a["tiles_revealed"]
    with pytest.raises(GameOver):
        s.apply({"action": "end_turn"})


def test_a_wonder_can_be_built_once_for_the_whole_table(store):
    s = new(store)
    give(s, oro=100, madera=40, piedra=40)
    for _ in range(2):
        s.apply({"action": "adjust", "player": "Luis", "resource": "oro", "delta": 50})
    rows = ["Ayuntamiento", "Mercado", "Estatua", "Almacén", "Banco", "Teatro", "Arquería", "Coliseo", "Tesorería"]
    for b in rows:
        s.apply({"action": "build", "building": b})
        round_trip(s)
    s.apply({"action": "build", "building": "Templo de Midas"})
    assert s.state["wonders"] == {"templo_midas": 0}
    assert {"action": "build", "building": "templo_midas", "castle": 0} not in s.legal_actions()


def test_battles_score_defeated_units_and_scattered_troops_come_back(store):
    s = new(store)
    s.apply({"action": "hire", "troop": "leva", "count": 1, "army": "a1"})
    s.apply({"action": "battle", "winner": "Ana", "loser": "neutral", "defeated": {"soldado": 2},
             "winner_army": "a1", "winner_losses": {"leva": 1}})
    assert ana(s)["defeated"] == {"soldado": 2} and ana(s)["armies"][0]["troops"] == {"leva": 1}
    s.apply({"action": "end_turn"})  # Luis attacks Ana and loses; Ana's levy survives, Luis flees
    s.apply({"action": "battle", "winner": "Ana", "loser": "Luis", "defeated": {},
             "loser_army": "a2", "fled": True})
    luis = s.state["players"][1]
    assert luis["armies"] == [] and len(s.state["scattered"]) == 1
    group = s.state["scattered"][0]
    assert 1 <= group["turns"] <= 3 and group["troops"] == {"leva": 1}
    reserve, trained = luis["reserve"]["leva"], luis["trained_troops"]
    luis_turns = 0
    while s.state["scattered"]:
        s.apply({"action": "end_turn"})
        luis_turns += s.state["active"] == 1
        assert luis_turns <= 3
    assert luis_turns == group["turns"]
    luis = s.state["players"][1]
    # The scattered levy was hired already: it reappears as an army at the village, not for hire again.
    assert luis["reserve"]["leva"] == reserve + luis_turns  # only the castle's levy each turn
    assert [a["troops"] for a in luis["armies"]] == [{"leva": 1}] and not luis["armies"][0]["storehouse"]
    assert luis["trained_troops"] == trained
    assert s.state["turn_start"]["returned"] == {"leva": 1}
    with pytest.raises(NotAllowed):  # a battle must involve the active player (Luis)
        s.apply({"action": "battle", "winner": "Ana", "loser": "neutral", "defeated": {"leva": 1}})


def test_treasure_rolls_are_seeded_and_follow_the_table(store):
    table = store.data("el_mapa").meta["treasure_table"]
    results = []
    for _ in range(2):
        s = new(store, seed=77)
        before = {r: ana(s)[r] for r in ("oro", "madera", "piedra")}
        s.apply({"action": "treasure", "count": 3})
        rolls = s.state["last_rolls"]
        gain = {r: 0 for r in before}
        for roll in rolls:
            for r, n in next(o for o in table["outcomes"] if o["roll"] == roll)["gain"].items():
                gain[r] += n
        assert {r: ana(s)[r] - before[r] for r in before} == gain
        said = s.state["log"][-1]["en"].split(" and gains ")[1].split(", ")  # the sums, as the log says them
        assert sorted(said) == sorted(amounts_text({r: n}, s.data, "en") for r, n in gain.items() if n), said
        results.append(rolls)
    assert results[0] == results[1] and all(1 <= r <= table["die"] for r in results[0])


def test_last_tile_ends_the_game(store):
    s = new(store)
    hidden = s.state["map"]["hidden"]
    with pytest.raises(NotAllowed):
        s.apply({"action": "reveal", "count": hidden + 1})
    s.apply({"action": "reveal", "count": hidden - 1})
    s.apply({"action": "end_turn"})
    assert not s.state["finished"]
    s.apply({"action": "reveal", "count": 1})
    s.apply({"action": "end_turn"})
    assert s.state["finished"] and s.state["last_turn_reason"] == "ultima_ficha"
    tiles = {p["name"]: p["breakdown"]["tiles"] for p in s.state["final"]["players"]}
    assert tiles == {"Ana": hidden - 1, "Luis": 1}


def test_claims_change_production(store):
    s = new(store)
    s.apply({"action": "claim", "what": "mine", "resource": "oro"})
    s.apply({"action": "claim", "what": "village"})
    assert ana(s)["villages"] == 2 and len(ana(s)["castles"]) == 2
    oro = ana(s)["oro"]
    round_trip(s)
    assert ana(s)["oro"] == oro + 1
    s.apply({"action": "end_turn"})
    s.apply({"action": "claim", "what": "village", "from": "Ana"})
    assert ana(s)["villages"] == 1 and s.state["players"][1]["villages"] == 2
    with pytest.raises(NotAllowed):
        s.apply({"action": "claim", "what": "spell_mine", "level": 2, "from": "Ana"})


def test_whole_game_to_final_score(store):
    s = store.new_game("el_mapa", ["Ana", "Luis", "Eva"], seed=4)
    play_to_end(s, seed=4)
    final = s.state["final"]
    for p, f in zip(s.state["players"], final["players"]):
        assert f["breakdown"]["tiles"] == p["tiles_revealed"]
    assert sum(p["tiles_revealed"] for p in s.state["players"]) == s.state["map"]["tiles"]
    best = max(f["total"] for f in final["players"])
    assert [f["name"] for f in final["players"] if f["total"] == best] == final["winners"]


def test_a_slot_must_be_a_slot_name(store):
    s = new(store)
    give(s, oro=5)
    with pytest.raises(BadArgument):
        s.apply({"action": "build", "building": "Mercado", "slot": {"a": 1}})
    with pytest.raises(BadArgument):
        s.apply({"action": "build", "building": "Mercado", "slot": ["n1_a"]})
    assert ana(s)["castles"][0]["slots"] == {}


def test_battle_losses_fit_the_army_that_suffers_them(store):
    """An army loses at most what it has: all of it is accepted (the army is gone), one more, or a troop
    it does not have, is refused naming the army, the troop and both numbers; losses need an army."""
    s = new(store)
    s.apply({"action": "hire", "troop": "leva", "count": 1, "army": "a1"})
    assert ana(s)["armies"][0]["troops"] == {"leva": 2}
    won = {"action": "battle", "winner": "Ana", "loser": "neutral", "defeated": {"leva": 1}, "winner_army": "a1"}
    for losses, en in (({"leva": 3}, "army a1 has 2 Levy and cannot lose 3"),
                       ({"caballero": 1}, "army a1 has 0 Knight and cannot lose 1")):
        with pytest.raises(NotAllowed) as refused:
            s.apply({**won, "winner_losses": losses})
        assert refused.value.text["en"] == en
    assert refused.value.text["es"] == "el ejército a1 tiene 0 Caballería y no puede perder 1"
    with pytest.raises(BadArgument) as refused:
        s.apply({**won, "winner_army": None, "winner_losses": {"leva": 1}})
    assert refused.value.text["en"] == "the winner's losses come out of an army: name 'winner_army'"
    s.apply({**won, "winner_losses": {"leva": 2}})
    assert ana(s)["armies"] == [] and ana(s)["defeated"] == {"leva": 1}


def test_building_pays_its_cost_from_the_data(store):
    s = new(store)
    give(s, oro=5, madera=5)
    before = dict(ana(s))
    cost = s.data.get("building", "almacen")["cost"]
    s.apply({"action": "build", "building": "Almacén"})
    assert cost and {r: before[r] - ana(s)[r] for r in cost} == cost


def test_each_army_fights_once_a_turn(store):
    s = new(store)
    s.apply({"action": "hire", "troop": "leva", "count": 1, "army": "a1"})
    battle = {"action": "battle", "winner": "Ana", "loser": "neutral", "defeated": {"leva": 1},
              "winner_army": "a1"}
    s.apply(battle)
    assert ana(s)["armies"][0]["tired"] is True
    with pytest.raises(LimitReached):
        s.apply(battle)
    assert ana(s)["defeated"] == {"leva": 1}
    round_trip(s)
    s.apply(battle)  # rested at the start of her next turn
    assert ana(s)["defeated"] == {"leva": 2}


def test_a_storehouse_army_may_not_fight_even_when_it_loses(store):
    s = new(store)
    give(s, oro=5, madera=5)
    s.apply({"action": "build", "building": "Almacén"})
    round_trip(s)
    s.apply({"action": "hire", "troop": "leva", "count": 1})
    extra = ana(s)["armies"][1]
    assert extra["storehouse"] is True
    for battle in ({"winner": "Ana", "loser": "neutral", "winner_army": extra["id"]},
                   {"winner": "Luis", "loser": "Ana", "loser_army": extra["id"], "defeated": {"leva": 1}}):
        with pytest.raises(NotAllowed):
            s.apply({"action": "battle", "defeated": {}, **battle})
    assert ana(s)["armies"][1]["troops"] == {"leva": 1}


def test_troops_coming_back_beyond_the_village_armies_form_a_storehouse_army(store):
    """Ana has one village and a Storehouse: her village army flees, she hires a new one, and when the
    scattered troops come back they form the Storehouse's army, which may not fight (as when hired)."""
    s = new(store)
    give(s, oro=5, madera=5)
    s.apply({"action": "build", "building": "Almacén"})
    s.apply({"action": "battle", "winner": "Luis", "loser": "Ana", "defeated": {}, "loser_army": "a1", "fled": True})
    assert ana(s)["armies"] == [] and s.state["scattered"]
    s.apply({"action": "hire", "troop": "leva", "count": 1})
    assert [a["storehouse"] for a in ana(s)["armies"]] == [False]
    while s.state["scattered"]:
        round_trip(s)
    back = ana(s)["armies"][-1]
    assert s.state["turn_start"]["returned"] == {"leva": 1} and back["troops"] == {"leva": 1}
    assert [a["storehouse"] for a in ana(s)["armies"]] == [False, True]
    with pytest.raises(NotAllowed) as refused:
        s.apply({"action": "battle", "winner": "Ana", "loser": "neutral", "defeated": {}, "winner_army": back["id"]})
    assert "Storehouse" in refused.value.text["en"]


def _edited_cards(tmp_path, edits):
    """A copy of cards/ with text replacements in cards/el_mapa/game.yaml (each must apply once)."""
    import shutil
    from pathlib import Path
    from ludoteca import cards
    root = tmp_path / "cards"
    shutil.copytree(Path(cards.__file__).parent, root, ignore=shutil.ignore_patterns("__pycache__"))
    game = root / "el_mapa" / "game.yaml"
    body = game.read_text(encoding="utf-8")
    for old, new in edits:
        assert body.count(old) == 1, old
        body = body.replace(old, new)
    game.write_text(body, encoding="utf-8")
    return root


def test_the_building_that_enables_trade_comes_from_the_data(tmp_path):
    root = _edited_cards(tmp_path, [("needs_building: mercado", "needs_building: estatua")])
    s = new(Store(tmp_path / "t.db", cards_dir=root))
    give(s, oro=5)
    s.apply({"action": "build", "building": "mercado"})
    assert not [a for a in s.legal_actions() if a["action"] == "trade"]
    with pytest.raises(NotAllowed, match="Statue"):
        s.apply({"action": "trade", "give": "oro", "get": "madera"})
    round_trip(s)
    s.apply({"action": "build", "building": "estatua"})
    trades = [a for a in s.legal_actions() if a["action"] == "trade"]
    assert {"action": "trade", "give": "oro", "get": "madera"} in trades
    assert ana(s)["trades_left"] == ana(s)["trade_limit"] > 0
    s.apply(trades[0])


def test_resources_and_their_names_come_from_the_data(tmp_path):
    root = _edited_cards(tmp_path, [("name: {es: Hechizo, en: Spell}", "name: {es: Conjuro, en: Charm}"),
                                    ("name: {es: Oro, en: Gold}", "name: {es: Ducados, en: Ducats}")])
    s = new(Store(tmp_path / "n.db", cards_dir=root))
    spells = ana(s)["hechizo"]
    s.apply({"action": "adjust", "player": "Ana", "resource": "Charm", "delta": 2})
    s.apply({"action": "adjust", "player": "Ana", "resource": "ducados", "delta": 1})
    assert ana(s)["hechizo"] == spells + 2
    assert "Ducats" in s.state["log"][-1]["en"] and "Ducados" in s.state["log"][-1]["es"]
    s.apply({"action": "adjust", "player": "Ana", "resource": "oro", "delta": -ana(s)["oro"]})
    with pytest.raises(NotEnough, match="Ducats"):
        s.apply({"action": "build", "building": "mercado"})
    with pytest.raises(BadArgument, match="oro, madera, piedra"):
        s.apply({"action": "claim", "what": "mine", "resource": "hechizo"})
    s.apply({"action": "claim", "what": "mine", "resource": "oro"})
    assert "Ducats mine" in s.state["log"][-1]["en"]


def test_spell_levels_come_from_the_tech_cards(store):
    s = new(store)
    levels = sorted({c["level"] for c in s.data.entries("tech_card")})
    assert sorted(int(k) for k in ana(s)["spell_tiles"]) == levels
    s.apply({"action": "claim", "what": "spell_mine", "level": levels[-1]})
    with pytest.raises(BadArgument, match=f"spell levels are {levels[0]} to {levels[-1]}"):
        s.apply({"action": "claim", "what": "spell_mine", "level": levels[-1] + 1})


def test_hiring_more_than_trained_says_how_many_in_words_that_fit_zero(store):
    """No 'only 0 Soldier are trained': the refusal gives the troop, how many are trained and how many
    were asked for, in words that read right for 0 too."""
    s = new(store)
    untrained = next(t for t, n in ana(s)["reserve"].items() if n == 0)
    with pytest.raises(NotEnough) as refused:
        s.apply({"action": "hire", "troop": untrained, "count": 2, "army": "a1"})
    words = refused.value.text
    assert "only 0" not in words["en"] and "solo hay 0" not in words["es"], words
    assert words["en"].endswith(": 0, you ask for 2") and words["es"].endswith(": 0, pides 2"), words


def test_a_map_tile_is_a_loseta_everywhere():
    """One word for a map tile on buttons, counters and the log ('casilla' is a castle slot)."""
    from ludoteca.companion.app.strings import UI
    from ludoteca.companion.engine.games import el_mapa as M
    from ludoteca.companion.engine.scoring.el_mapa import LABELS

    tile_words = [UI[key][0] for key in ("reveal", "hidden_tiles", "tile_found")]
    tile_words += [LABELS["tiles"]["es"], M.TALLIES["tiles_revealed"]["es"], M.REASONS["ultima_ficha"]["es"]]
    assert all("loseta" in w.lower() and "casilla" not in w.lower() for w in tile_words), tile_words

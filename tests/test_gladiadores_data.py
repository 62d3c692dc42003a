"""The Gladiadores data of this kit's edition: counts, setup pools, rules and combat balance.

The combat checks read the rule from ``game.yaml`` and go through every one of the 30 combat
cards exactly (no randomness), so they follow any edit of the data.
"""

from __future__ import annotations

import shutil
from fractions import Fraction
from pathlib import Path

import pytest

from ludoteca.cards import DataError, default_dir, load

GAME = "gladiadores"


@pytest.fixture(scope="module")
def game():
    return load(games=(GAME,))[GAME]


@pytest.fixture(scope="module")
def rules(game):
    return game.meta["combat"]


@pytest.fixture(scope="module")
def deck(game):
    """Every physical combat card, copies expanded."""
    return [card for card in game.entries("combat_card") for _ in range(card["copies"])]


def tiro(game) -> dict:
    return next(g for g in game.entries("gladiator") if g["kind"] == "tiro")


def fighters(game) -> list[dict]:
    return [g for g in game.entries("gladiator") if g["role"] == "fighter"]


def attack_total(glad: dict, card: dict, side: dict) -> int:
    return glad[side["stat"]] + card[side["card"]]


def attacker_wins(att: dict, dfn: dict, card: dict, rules: dict) -> bool:
    """The combat rule as the data states it (no building or ability bonuses)."""
    attack = attack_total(att, card, rules["attack"])
    defence = attack_total(dfn, card, rules["defence"])
    if attack == defence:
        return rules["ties"] == "attacker"
    return attack > defence


def loser_dies(loser: dict, winner: dict, card: dict, rules: dict) -> bool:
    death = rules["death"]
    doomed = card[death["card"]] > loser[death["loser_dies_if_card_exceeds"]]
    spared = death["spared_if_favor_above_winner"] and loser["favor"] > winner["favor"]
    return doomed and not spared


def win_rate(att: dict, dfn: dict, deck: list[dict], rules: dict) -> Fraction:
    return Fraction(sum(attacker_wins(att, dfn, c, rules) for c in deck), len(deck))


# --- counts ---------------------------------------------------------------------------------

def test_counts_match_the_box(game):
    counts = game.counts()
    assert {k: counts[k] for k in ("gladiators", "buildings", "combat_cards")} == \
        {"gladiators": 38, "buildings": 32, "combat_cards": 30}
    tokens = {t["id"]: t["copies"] for t in game.entries("token")}
    assert tokens == {"points_3": 12, "points_1": 12, "coin": 30, "fortune": 15, "star": 5}
    assert {t["id"]: t["points"] for t in game.entries("token") if t["points"]} == \
        {"points_3": 3, "points_1": 1}


def test_edition_is_marked_as_ours(game):
    assert game.meta["edition"] == "ludoteca"
    assert "YAML" in game.meta["edition_note"]["en"] and "YAML" in game.meta["edition_note"]["es"]


def test_split_of_gladiators_matches_the_declared_one(game):
    declared = game.meta["components"]
    by_kind = game.counts()["gladiators_by_kind"]
    assert by_kind == {"tiro": declared["tiros"], "veteran": declared["veterans"]}
    assert declared["tiros"] + declared["veterans"] == game.counts()["gladiators"]


def test_a_broken_total_is_reported(tmp_path: Path):
    copy = tmp_path / GAME
    shutil.copytree(default_dir() / GAME, copy)
    path = copy / "combat.yaml"
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace("copies: 2", "copies: 3", 1), encoding="utf-8")
    with pytest.raises(DataError) as caught:
        load(tmp_path, games=(GAME,))
    assert "combat_cards" in str(caught.value) and "31" in str(caught.value)


# --- gladiators -----------------------------------------------------------------------------

def test_tiros_are_cheap_novices_and_veterans_have_an_auction_price(game):
    for g in game.entries("gladiator"):
        if g["kind"] == "tiro":
            assert g["role"] == "novice" and g["fight_cost"] == 1 and g.get("min_bid") is None, g["id"]
        else:
            assert g["role"] != "novice" and g["fight_cost"] in (2, 3), g["id"]
            assert isinstance(g.get("min_bid"), int) and g["min_bid"] >= 1, g["id"]


def test_veterans_are_specialists_stronger_than_tiros(game):
    novice = tiro(game)
    specialty = {"fighter": "combat", "worker": "work", "builder": "construction"}
    for g in game.entries("gladiator"):
        if g["kind"] == "tiro":
            assert all(g[s] == novice[s] for s in ("combat", "work", "construction", "shields", "favor"))
        elif g["role"] in specialty:
            best = g[specialty[g["role"]]]
            assert best >= novice[specialty[g["role"]]] + 1, g["id"]
            assert best == max(g[s] for s in specialty.values()), g["id"]
        else:
            assert sum(g[s] for s in specialty.values()) > sum(novice[s] for s in specialty.values())


def test_enough_tiros_for_every_player_count(game):
    tiros = game.counts()["gladiators_by_kind"]["tiro"]
    per_player = game.meta["setup"]["starting_tiros"]
    for pc in game.meta["player_counts"]:
        assert tiros >= pc["players"] * per_player, pc["players"]


# --- buildings ------------------------------------------------------------------------------

def test_pool_for_each_player_count_has_enough_starting_buildings(game):
    meta = game.meta
    counts = [pc["players"] for pc in meta["player_counts"]]
    assert counts == list(range(meta["players"]["min"], meta["players"]["expansion_max"] + 1))
    symbols_so_far: set[str] = set()
    for pc in meta["player_counts"]:
        assert pc["expansion"] == (pc["players"] > meta["players"]["max"])
        assert set(pc["symbols"]) >= symbols_so_far, "a bigger game keeps the smaller one's pool"
        symbols_so_far = set(pc["symbols"])
        assert pc["starting_buildings"] == pc["players"] * meta["setup"]["buildings_per_player"]
        pool = [b for b in game.entries("building") if b["symbol"] in pc["symbols"]]
        starting = sum(b["copies"] for b in pool if b["starting"])
        assert starting >= pc["starting_buildings"] + 1, (pc["players"], starting)
        assert any(b["id"] == meta["setup"]["first_player_building"] for b in pool)
        assert any(not b["starting"] for b in pool), "the centre needs buildings to build"
    assert meta["player_counts"][-1]["symbols"] == ["none", "iii", "iv", "v"]


def test_buildings_with_points_cannot_be_demolished(game):
    assert game.meta["building_rules"]["points_block_demolish"] is True
    scoring = [b for b in game.entries("building") if b["points"] > 0]
    assert scoring, "some buildings give victory points"
    for b in game.entries("building"):
        assert b["demolishable"] == (b["points"] == 0), b["id"]


def test_building_names_are_unique(game):
    for lang in ("es", "en"):
        names = [b["name"][lang] for b in game.entries("building")]
        assert len(names) == len(set(names))


def test_casula_is_a_starting_building_that_gives_the_first_turn(game):
    casula = game.get("building", game.meta["setup"]["first_player_building"])
    assert casula["id"] == "casula" and casula["starting"] is True and casula["symbol"] == "none"
    assert {"kind": "first_player", "timing": "setup"} in casula["effects"]


@pytest.mark.parametrize("name", ["Cubiculum", "Palaestra"])
def test_cubiculum_and_palaestra_act_at_start_of_turn(game, name):
    building = game.find("building", name)
    assert building["effects"] and all(e["timing"] == "start_of_turn" for e in building["effects"])


def test_officina_enables_chaining(game):
    officina = game.find("building", "officina")
    chain = [e for e in officina["effects"] if e["kind"] == "chain"]
    assert chain and chain[0]["per_turn"] == game.meta["chain"]["per_turn"] == 1
    action = game.get("action", "chain")
    assert action["requires_effect"] == "chain" and action["per_turn"] == 1


def test_every_required_effect_is_granted_by_some_building(game):
    granted = {e["kind"] for b in game.entries("building") for e in b["effects"]}
    for action in game.entries("action"):
        if action.get("requires_effect"):
            assert action["requires_effect"] in granted, action["id"]


def test_effects_carry_the_values_the_engine_needs(game):
    needs = {"coins": {"amount"}, "recruit_tiro": {"amount"}, "housing": {"amount"},
             "stat_bonus": {"stat", "amount", "applies_to", "when"}, "construction_bonus": {"amount"},
             "auction_discount": {"amount"}, "auction_reveal": {"amount"}, "fight_discount": {"amount"},
             "fight_reward": {"amount"}, "defence_reward": {"amount"}, "save": {"cost_coins"},
             "chain": {"per_turn"}, "destroy": {"per_turn"}, "redraw": {"per_turn"}}
    owners = [(b, False) for b in game.entries("building")] + \
             [(g, True) for g in game.entries("gladiator") if g.get("effects")]
    for owner, is_gladiator in owners:
        if is_gladiator:
            assert owner.get("ability") is not None, owner["id"]
        for effect in owner.get("effects", []):
            missing = needs.get(effect["kind"], set()) - {k for k, v in effect.items() if v is not None}
            assert not missing, (owner["id"], effect["kind"], missing)
            if is_gladiator:
                assert effect.get("applies_to") in ("self", "all"), owner["id"]


# --- texts ----------------------------------------------------------------------------------

def _texts(value, where=""):
    if isinstance(value, dict):
        if "es" in value or "en" in value:
            yield where, value
            return
        for key, item in value.items():
            yield from _texts(item, f"{where}.{key}")
    elif isinstance(value, list):
        for i, item in enumerate(value):
            yield from _texts(item, f"{where}[{i}]")


def test_every_text_is_in_spanish_and_english(game):
    found = list(_texts(game.meta, "game"))
    for kind in game.kinds:
        for entry in game.entries(kind):
            found += list(_texts(dict(entry), f"{kind}.{entry['id']}"))
    assert len(found) > 150
    for where, text in found:
        assert set(text) == {"es", "en"}, where
        assert all(isinstance(text[k], str) and text[k].strip() for k in ("es", "en")), where
        if len(text["en"].split()) > 3:
            assert text["es"] != text["en"], f"{where}: not translated"


# --- combat ---------------------------------------------------------------------------------

def test_the_deck_is_thirty_cards_with_every_symbol(deck):
    assert len(deck) == 30
    for symbol in ("swords", "shields", "skulls"):
        assert any(card[symbol] for card in deck) and not all(card[symbol] for card in deck)


def test_tiro_against_tiro_is_an_even_fight(game, deck, rules):
    rate = win_rate(tiro(game), tiro(game), deck, rules)
    assert Fraction(2, 5) <= rate <= Fraction(3, 5), rate


def test_veteran_fighters_clearly_beat_tiros_but_not_always(game, deck, rules):
    novice = tiro(game)
    even = win_rate(novice, novice, deck, rules)
    for fighter in fighters(game):
        attacking = win_rate(fighter, novice, deck, rules)
        defending = win_rate(novice, fighter, deck, rules)
        assert Fraction(7, 10) <= attacking < 1, (fighter["id"], attacking)
        assert attacking >= even + Fraction(1, 5), fighter["id"]
        assert 0 < defending <= Fraction(3, 10), (fighter["id"], defending)


def test_more_combat_never_wins_less(game, deck, rules):
    novice = tiro(game)
    rates = [win_rate(dict(novice, combat=c), novice, deck, rules) for c in range(0, 6)]
    assert rates == sorted(rates) and rates[0] < rates[-1]


def test_equal_veterans_are_even_too(game, deck, rules):
    for fighter in fighters(game):
        assert Fraction(2, 5) <= win_rate(fighter, fighter, deck, rules) <= Fraction(3, 5)


def test_a_loser_may_die_or_survive_and_shields_protect(game, deck, rules):
    novice = tiro(game)
    assert {loser_dies(novice, novice, c, rules) for c in deck} == {True, False}
    armoured = max(fighters(game), key=lambda g: g["shields"])
    assert armoured["shields"] > novice["shields"]
    tiro_deaths = sum(loser_dies(novice, novice, c, rules) for c in deck)
    armoured_deaths = sum(loser_dies(dict(armoured, favor=0), novice, c, rules) for c in deck)
    assert armoured_deaths < tiro_deaths


def test_crowd_favour_can_spare_the_loser(game, deck, rules):
    novice = tiro(game)
    darling = dict(novice, favor=novice["favor"] + 1)
    assert rules["death"]["spared_if_favor_above_winner"] is True
    assert sum(loser_dies(darling, novice, c, rules) for c in deck) == 0
    assert sum(loser_dies(novice, darling, c, rules) for c in deck) > 0

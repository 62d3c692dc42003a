"""Engine behaviour a mutation run (bench/mutation.py, seed 40925) found unpinned: each test
asserts what a player meets (an option offered, a refusal, an undone move, a saved state)."""

from __future__ import annotations

import random

import pytest

from ludoteca.cards import load
from ludoteca.companion.engine import BadArgument, Store
from ludoteca.companion.engine.common import log, notices
from ludoteca.companion.engine.setup import screen_options
from test_engine_helpers import choose_move

CATALOG = load(games=("el_mapa",))


def test_the_new_game_screen_offers_each_variant_by_its_name():
    # El Mapa's "variants" option lists the data's variants: the screen's toggles read their
    # names, e.g. "Armería y Atalaya / Armoury and Watchtower", not their ids.
    data = CATALOG["el_mapa"]
    [variants] = [o for o in screen_options(data) if o["name"] == "variants"]
    assert variants["type"] == "ids"
    assert variants["choices"] == {v["id"]: v["name"] for v in data.entries("variant")}
    assert variants["choices"]["armeria_atalaya"] == {"es": "Armería y Atalaya", "en": "Armoury and Watchtower"}


def test_an_undone_and_redone_action_keeps_every_credit_in_the_log():
    # Ciudadelas for four, played by the helpers' table through its second round's draft; the move that ends a
    # round (and deals the next round's characters at random) and every fifth move are undone and
    # redone at once. The exported log credits each move to the same player as the log without
    # those pairs, and each undo and redo to whoever made the move they walk: a redone move deals
    # as it did the first time, so the picks after it stay legal and go to the same players.
    store = Store(":memory:")
    session = store.new_game("ciudadelas", ["Ana", "Luis", "Eva", "Pablo"], seed=11)
    rnd = random.Random(0)
    walked_rows: list[bool] = []
    moves = 0
    while session.state["round"] < 2 or session.state["phase"] == "choose":
        before = session.state["round"]
        session.apply(choose_move(session.state, session.legal_actions(), session.data, rnd))
        moves += 1
        walked_rows.append(False)
        if session.state["round"] != before or moves % 5 == 0:
            session.apply({"action": "undo"})
            session.apply({"action": "redo"})
            walked_rows += [True, True]
    rows = [r["action"] for r in store.log(session.id)]
    walked = session.actors(rows)
    plain = session.actors([row for row, pair in zip(rows, walked_rows) if not pair])
    expected: list[str] = []
    made = -1
    for pair in walked_rows:
        made += not pair
        expected.append(plain[made])
    assert walked == expected
    assert set(plain) == {"Ana", "Luis", "Eva", "Pablo"}


def test_the_recent_log_keeps_its_last_forty_lines():
    # The table's recent log is 40 lines (the whole history is the action log): after 45 lines,
    # lines 6 to 45 are kept, oldest first.
    state: dict = {}
    for n in range(1, 46):
        log(state, f"línea {n}", f"line {n}")
    assert [line["en"] for line in state["log"]] == [f"line {n}" for n in range(6, 46)]


def test_an_action_adding_a_notice_to_a_full_recent_log_shows_that_notice():
    # The app shows the notices one action added: with the recent log at its 40 lines, an action
    # that adds one notice (and so drops the oldest line) shows exactly that notice.
    old = [{"es": f"línea {n}", "en": f"line {n}"} for n in range(40)]
    notice = {"es": "¡4 Atalaya!", "en": "4 Watchtower!", "notice": True}
    assert notices(old, old[1:] + [notice]) == [notice]
    assert notices(old, old[1:] + [old[0]]) == []


def test_play_actions_describes_each_argument_by_its_words_else_its_kind():
    # `ludoteca play --actions`: El Mapa's build slot has words of its own, reveal's count only
    # its kind and range.
    from ludoteca.companion.engine.games import el_mapa
    actions = el_mapa.DEFINITION.actions
    assert actions["build"]["args"]["slot"] == "slot id (optional)"
    assert actions["reveal"]["args"]["count"] == "int 1..a limit the cards set"


def test_a_number_out_of_range_is_shown_whole_up_to_twelve_digits():
    # El Mapa's reveal count is 1 to the tiles in the game: 10**12 - 1 is shown whole; 2 * 10**12
    # (13 digits) by its first six and its length.
    store = Store(":memory:")
    s = store.new_game("el_mapa", ["Ana", "Luis"], seed=1, options={"first": "Ana"})
    for count, shown in ((10 ** 12 - 1, "999999999999"), (2 * 10 ** 12, "200000... (13 digits)")):
        with pytest.raises(BadArgument) as refused:
            s.apply({"action": "reveal", "count": count})
        assert refused.value.text["en"].endswith(f", not {shown}")


def test_a_long_wrong_value_is_cut_to_forty_characters_in_the_refusal():
    # A name given as a long list: the refusal quotes its first 37 characters and "...".
    store = Store(":memory:")
    s = store.new_game("el_mapa", ["Ana", "Luis"], seed=1, options={"first": "Ana"})
    wrong = ["n1_a"] * 10
    with pytest.raises(BadArgument) as refused:
        s.apply({"action": "build", "building": "Mercado", "slot": wrong})
    assert refused.value.text["en"] == f"'slot' must be a name, not {repr(wrong)[:37]}..."

"""Exports of a played game (issue 22 #7): the CSV of final scores, the action log with who made
every move, and BG Stats' push-plays link with its players inline."""

from __future__ import annotations

import csv
import io
import json
import random
from urllib.parse import unquote

import pytest

from ludoteca.companion.engine import Store
from ludoteca.companion.engine.export import BGSTATS_PUSH, export_data
from test_engine_helpers import choose_move

NAMES = ["Ana", "Luis", "Eva"]


@pytest.fixture(scope="module")
def played(tmp_path_factory):
    """A Ciudadelas game played to its end with an undo and a redo on the way; with the seat that acted
    before each logged row, worked out by replaying the effective actions one by one."""
    store = Store(tmp_path_factory.mktemp("exports") / "g.db")
    session = store.new_game("ciudadelas", NAMES, seed=11)
    rnd = random.Random(11)
    expected: list[str] = []
    made: list[str] = []       # who made each effective action, for the undo and redo rows
    undone: list[str] = []

    def actor(state: dict, action: dict) -> str:
        if "player" in action:
            return action["player"]
        seat = state["active"] if state["active"] is not None else state["crown"]
        return state["players"][seat]["name"]

    while not session.state["finished"]:
        action = choose_move(session.state, session.legal_actions(), session.data, rnd)
        expected.append(actor(session.state, action))
        made.append(expected[-1])
        session.apply(action)
        if session.seq == 12:
            session.apply({"action": "undo"})
            undone.append(made.pop())
            expected.append(undone[-1])
            session.apply({"action": "redo"})
            made.append(undone.pop())
            expected.append(made[-1])
    yield store, session, expected
    store.close()


def test_the_csv_holds_the_final_scores_one_row_per_player(played):
    store, session, _ = played
    final = session.state["final"]
    rows = list(csv.DictReader(io.StringIO(export_data(store, session.id, "csv"))))
    assert [r["player"] for r in rows] == NAMES
    lines = list(final["labels"])
    assert list(rows[0]) == ["player", *lines, "total", "rank", "winner"]
    for row, player in zip(rows, sorted(final["players"], key=lambda p: NAMES.index(p["name"]))):
        assert {k: int(row[k]) for k in lines} == player["breakdown"]
        assert int(row["total"]) == player["total"] == sum(player["breakdown"].values())
        assert int(row["rank"]) == player["rank"]
        assert row["winner"] == ("1" if player["name"] in final["winners"] else "0")


def test_the_log_names_who_made_every_move(played):
    store, session, expected = played
    rows = list(csv.DictReader(io.StringIO(export_data(store, session.id, "log"))))
    assert len(rows) == len(store.log(session.id)) == len(expected)
    assert [r["player"] for r in rows] == expected
    assert all(r["player"] for r in rows)
    assert {r["action"] for r in rows} >= {"choose", "call", "take_gold", "end_turn", "undo", "redo"}
    assert all("player" not in json.loads(r["arguments"] or "{}") for r in rows)


def test_the_bgstats_link_pushes_the_play_with_its_players_inline(played):
    store, session, _ = played
    final = session.state["final"]
    link = export_data(store, session.id, "bgstats-link").strip()
    assert link.startswith(BGSTATS_PUSH) and " " not in link
    play = json.loads(unquote(link[len(BGSTATS_PUSH):]))
    assert play["sourceName"] == "Ludoteca" and play["sourcePlayId"] == session.id
    assert play["game"]["name"] == "Ciudadelas" and isinstance(play["game"]["bggId"], int)
    by_name = {p["name"]: p for p in final["players"]}
    assert [p["name"] for p in play["players"]] == NAMES
    for seat, p in enumerate(play["players"]):
        assert type(p["score"]) is int and p["score"] == by_name[p["name"]]["total"]
        assert p["rank"] == by_name[p["name"]]["rank"] and p["winner"] == (p["name"] in final["winners"])
        assert p["startPlayer"] == (seat == session.state["first_player"]) and p["seatOrder"] == seat + 1
    assert sum(p["startPlayer"] for p in play["players"]) == 1
    assert len(play["playDate"]) == 19 and isinstance(play["durationMin"], int)


def test_a_reviewed_record_becomes_the_saved_final_score(played):
    """Issue 22 #8: once the game is over, the record the table reviewed (the scan screen's photos)
    replaces the final score, is saved like any move, and undo brings the game's own back."""
    import copy

    from ludoteca.companion.engine import BadArgument, WrongPhase
    from ludoteca.companion.engine.scoring import score_record

    store, session, _ = played
    before = copy.deepcopy(session.state["final"])
    record = copy.deepcopy(before["record"])
    record["players"][0]["city"] = record["players"][0]["city"] + ["temple"]
    expected = score_record(record, {"ciudadelas": session.data}, lenient=True)
    session.apply({"action": "final_record", "record": record})
    try:
        final = store.open(session.id).state["final"]          # saved: a reopened game has it
        assert final["reviewed"] and final["record"] == record
        assert [(p["name"], p["total"]) for p in final["players"]] == [(p.name, p.total) for p in expected.players]
        assert final["players"][0]["total"] == before["players"][0]["total"] + 1  # the Temple's 1 point
        for wrong, words in (({**record, "game": "el_mapa"}, "otro juego"),
                             ({**record, "players": record["players"][::-1]}, "en su orden"),
                             ("Ana 30", "un registro del final")):
            with pytest.raises(BadArgument) as refused:
                session.apply({"action": "final_record", "record": wrong})
            assert words in refused.value.text["es"]
    finally:
        session.apply({"action": "undo"})
    assert session.state["final"] == before
    fresh = store.new_game("ciudadelas", NAMES, seed=1)
    with pytest.raises(WrongPhase) as refused:
        fresh.apply({"action": "final_record", "record": record})
    assert refused.value.text["es"] == "solo cuando la partida ha terminado"

"""Recovery of a damaged database brings back every action whose bytes are intact, whichever page
the damage hit (the issue's three kinds of damage; bench/bench_recovery.py measures 900 actions).
"Intact" is judged by SQLite's own reading of the healthy file (tests/recoverycases.py), not by the
carver under test."""

from __future__ import annotations

import random
import sqlite3

import pytest

import recoverycases as rc
from ludoteca.companion.engine import Store
from datetime import UTC


@pytest.fixture(scope="module")
def healthy(tmp_path_factory):
    path = tmp_path_factory.mktemp("src") / "g.db"
    rows = rc.build(path, games=3, per_game=100)
    return rows, path.read_bytes()


@pytest.mark.parametrize("seed", [1, 2])
@pytest.mark.parametrize("kind", rc.ISSUE_DAMAGE)
def test_every_intact_action_comes_back_in_its_game(tmp_path, healthy, kind, seed):
    rows, data = healthy
    damaged = rc.damage(data, kind, seed)
    path = tmp_path / "g.db"
    path.write_bytes(damaged)
    truth = rc.intact(rows, [damaged])
    store = Store(path)
    assert store.moved_to is not None and store.moved_to.read_bytes() == damaged
    back = {cid for (cid,) in store.conn.execute("SELECT client_id FROM actions")}
    assert truth and truth <= back, f"intact but not back: {sorted(truth - back)}"
    assert back <= truth, f"altered rows taken for actions: {sorted(back - truth)}"  # the crc refuses them
    for game in store.history():  # every recovered game opens and replays to what was saved
        assert store.open(game["id"]).seq == game["seq"]
    assert store.recovery.actions == len(back)


def test_a_game_whose_row_is_lost_comes_back_from_its_setup(tmp_path, healthy):
    """Page 2 holds every game's row: its copy in `setups` (another page) rebuilds the games."""
    rows, data = healthy
    damaged = bytearray(data)
    damaged[rc.PAGE:2 * rc.PAGE] = bytes(rc.PAGE)
    path = tmp_path / "g.db"
    path.write_bytes(bytes(damaged))
    store = Store(path)
    assert (store.recovery.games, store.recovery.actions, store.recovery.apart) == (3, 300, 0)
    assert sorted(len(store.log(g["id"])) for g in store.history()) == [100, 100, 100]


def test_a_database_from_before_the_setup_copy_gets_it_when_opened(tmp_path):
    path = tmp_path / "old.db"
    store = Store(path)
    game_id = store.new_game("ciudadelas", ["Ana", "Luis"], seed=4).id
    store.conn.execute("DROP TABLE setups")
    store.close()
    Store(path).close()
    conn = sqlite3.connect(path)
    assert conn.execute("SELECT game_id, seed FROM setups").fetchall() == [(game_id, 4)]
    conn.close()


def test_two_copies_of_one_action_id_replay_once(tmp_path):
    """A damaged seq can give one action two places: it is replayed once, the other kept apart."""
    path = tmp_path / "g.db"
    store = Store(path)
    session = store.new_game("ciudadelas", ["Ana", "Luis"], seed=1)
    for k in range(5):
        session.apply({"id": f"t{k}", "action": "adjust", "player": "Ana", "resource": "gold", "delta": 1})
    store.conn.execute("DROP INDEX actions_client_id")
    store.conn.execute("INSERT INTO actions (game_id, seq, action, at, client_id) SELECT game_id, 9, action, at,"
                       " client_id FROM actions WHERE seq = 2")
    store.close()
    data = bytearray(path.read_bytes())
    data[:100] = bytes(100)
    path.write_bytes(bytes(data))
    store = Store(path)
    assert (store.recovery.actions, store.recovery.apart) == (5, 1)
    assert "same action id" in store.conn.execute("SELECT reason FROM unreplayed").fetchone()[0]


@pytest.mark.parametrize("where", ["header", "page_2"])
def test_rows_longer_than_a_page_are_read_along_their_overflow_pages(tmp_path, monkeypatch, where):
    """A 3,000-letter name (as an older Ludoteca took, before names had a length) makes the game's
    rows and half its actions longer than a page: SQLite keeps their rest on overflow pages, which
    recovery follows (the other half fit in their page)."""
    from ludoteca.companion.engine import setup

    path = tmp_path / "g.db"
    store = Store(path)
    long = "Ñ" * 3000
    with monkeypatch.context() as older:
        older.setattr(setup, "name_problem", lambda name: None)
        session = store.new_game("ciudadelas", [long, "Luis"], seed=1)
        for k in range(30):
            session.apply({"id": f"t{k}", "action": "adjust", "player": long if k % 2 else "Luis",
                           "resource": "gold", "delta": k})
    store.close()
    data = bytearray(path.read_bytes())
    if where == "header":
        data[:100] = bytes(100)
    else:
        data[rc.PAGE:2 * rc.PAGE] = bytes(random.Random(2).randrange(256) for _ in range(rc.PAGE))
    path.write_bytes(bytes(data))
    store = Store(path)
    assert (store.recovery.games, store.recovery.actions, store.recovery.apart) == (1, 30, 0)
    [game] = store.history()
    assert game["players"] == [long, "Luis"]
    assert [row["action"]["delta"] for row in store.log(game["id"])] == list(range(30))


def test_the_clock_and_rows_kept_apart_come_back_too(tmp_path):
    """A second recovery keeps what the first set apart, and the play's clock is recovered."""
    from datetime import datetime, timedelta

    from ludoteca.companion.engine.clock import GameClock, play_times

    path = tmp_path / "g.db"
    store = Store(path)
    session = store.new_game("ciudadelas", ["Ana", "Luis"], seed=1)
    t0 = datetime(2026, 5, 1, 17, 0, tzinfo=UTC)
    now = [t0]
    clock = GameClock(store, session.id, now=lambda: now[0])
    clock.observe({"active": 0})
    now[0] = t0 + timedelta(minutes=4)
    clock.observe({"active": 1})
    session.apply({"action": "adjust", "player": "Ana", "resource": "gold", "delta": 1})
    store.conn.execute("INSERT INTO unreplayed VALUES ('20260101-abcdef', 3, '{\"action\": \"adjust\"}',"
                       " '2026-01-01T10:00:00.000+00:00', NULL, 'the game''s own record was lost')")
    before = play_times(store, session.id, now=lambda: datetime(2026, 5, 1, 17, 9, tzinfo=UTC))
    store.close()
    data = bytearray(path.read_bytes())
    data[:100] = bytes(100)
    path.write_bytes(bytes(data))
    store = Store(path)
    assert (store.recovery.actions, store.recovery.apart, store.recovery.actions_found) == (1, 1, 2)
    assert store.conn.execute("SELECT game_id, seq, reason FROM unreplayed").fetchall() == [
        ("20260101-abcdef", 3, "the game's own record was lost")]
    after = play_times(store, session.id, now=lambda: datetime(2026, 5, 1, 17, 9, tzinfo=UTC))
    assert after == before and after["thinking"] == {0: 240.0, 1: 300.0}

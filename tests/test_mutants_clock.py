"""The game clock's behaviour a mutation run (bench/mutation.py, seed 40925) found unpinned: played
time as the clock bar shows it, worked by hand with a clock the test moves."""

from __future__ import annotations

import sqlite3
from datetime import UTC, datetime

from ludoteca.companion.engine import Store
from ludoteca.companion.engine.clock import GameClock
from fakeclock import FakeTime

T0 = datetime(2026, 5, 1, 17, 0, tzinfo=UTC)


def test_a_play_started_in_this_run_keeps_counting_when_its_screen_shows_again(tmp_path):
    # Ana starts at 17:00; at 17:10 the play's screen is in front again (back, no away before it):
    # this run saw the play, so the 10 minutes count (600 s), and nothing is added as "away".
    store = Store(tmp_path / "c.db")
    session = store.new_game("gladiadores", ["Ana", "Luis"], seed=1)
    now = FakeTime(T0)
    clock = GameClock(store, session.id, now=now)
    clock.observe({"active": 0})
    now.advance(minutes=10)
    clock.back()
    assert clock.timing().played_s == 600
    assert "away" not in [e.kind for e in clock.events()]


def test_an_older_database_without_a_clock_reads_on_a_read_only_mount(tmp_path):
    # A database saved before the clock existed, opened read-only (history, export): its clock is
    # empty, not an error.
    path = tmp_path / "old.db"
    session = Store(path).new_game("gladiadores", ["Ana", "Luis"], seed=1)
    conn = sqlite3.connect(path)
    conn.execute("DROP TABLE IF EXISTS clock")
    conn.commit()
    conn.close()
    clock = GameClock(Store(path, readonly=True), session.id, now=FakeTime(T0))
    assert clock.events() == [] and clock.timing().start is None

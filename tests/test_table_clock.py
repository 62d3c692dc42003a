"""The game clock, worked by hand with a clock the test moves (no sleeping)."""

from __future__ import annotations

import json
from datetime import datetime, timedelta, UTC

import pytest

from ludoteca.companion.engine import Store
from ludoteca.companion.engine.clock import GameClock, clock_text, play_times

T0 = datetime(2026, 5, 1, 17, 0, tzinfo=UTC)


class FakeTime:
    def __init__(self):
        self.t = T0

    def __call__(self):
        return self.t

    def advance(self, **delta):
        self.t += timedelta(**delta)


def test_turns_pauses_and_the_end_by_hand(tmp_path):
    store = Store(tmp_path / "c.db")
    session = store.new_game("gladiadores", ["Ana", "Luis", "Eva"], seed=1)
    now = FakeTime()
    clock = GameClock(store, session.id, now=now)
    clock.observe({"active": 0})                     # 17:00 start, Ana thinks
    now.advance(seconds=90)
    clock.observe({"active": 0})                     # same seat: nothing new
    now.advance(seconds=30)
    clock.observe({"active": 1})                     # 17:02 Luis (Ana 120 s)
    now.advance(seconds=45)
    clock.pause()                                    # 17:02:45 break (Luis 45 s)
    clock.pause()                                    # a second pause changes nothing
    now.advance(minutes=10)
    t = clock.timing()
    assert t.paused and t.paused_s == 600 and t.turn_s == 45
    clock.resume()                                   # 17:12:45
    now.advance(seconds=15)
    clock.observe({"active": 2})                     # 17:13 Eva (Luis 60 s)
    now.advance(seconds=200)
    clock.observe({"active": 2, "finished": True})   # 17:16:20 the end (Eva 200 s)
    now.advance(hours=2)                             # later: nothing counts any more
    t = GameClock(store, session.id, now=now).timing()  # read back from the database
    assert t.start == T0 and t.end == T0 + timedelta(seconds=980)
    assert t.thinking == {0: 120.0, 1: 60.0, 2: 200.0}
    assert t.played_s == 380 and t.paused_s == 600 and t.minutes == 6
    assert play_times(store, session.id)["minutes"] == 6


def test_an_undone_finish_resumes_the_clock(tmp_path):
    store = Store(tmp_path / "c.db")
    session = store.new_game("gladiadores", ["Ana", "Luis"], seed=1)
    now = FakeTime()
    clock = GameClock(store, session.id, now=now)
    clock.observe({"active": 0})
    now.advance(minutes=1)
    clock.observe({"finished": True})
    now.advance(minutes=3)                           # the final screen stays up 3 minutes
    clock.observe({"active": 0})                     # undo: play on
    now.advance(minutes=1)
    t = clock.timing()
    assert t.end is None and t.running and t.played_s == 120  # the 3 minutes at the end do not count
    assert [e.kind for e in clock.events()] == ["start", "turn", "end", "resume"]


def test_a_game_without_clock_uses_its_log(tmp_path):
    store = Store(tmp_path / "c.db")
    session = store.new_game("gladiadores", ["Ana", "Luis"], seed=1)
    assert play_times(store, session.id)["source"] == "none"
    assert clock_text(59) == "0:59" and clock_text(3600) == "1:00:00"


DAMAGED_ROWS = [("turn", "not a time", 0), ("turn", 12345, 0), ("turn", T0.isoformat(), "Ana"),
                ("turn", T0.isoformat(), -99), ("turn", T0.isoformat(), 7), ("turn", T0.isoformat(), 1.5),
                ("lunch", T0.isoformat(), None)]


@pytest.mark.parametrize("kind, at, seat", DAMAGED_ROWS)
@pytest.mark.parametrize("command", [["history", "last"], ["history", "last", "--json"],
                                     ["export", "last", "--format", "bgstats"], ["export", "last", "--format", "json"]])
def test_a_damaged_clock_row_is_left_out_with_a_note(tmp_path, monkeypatch, capsys, kind, at, seat, command):
    """A time that is not a time, a seat that is text, negative or past the table, an unknown kind:
    the row is left out, the rest of the clock still counts, one note says so (no traceback)."""
    from ludoteca.cli import main

    path = tmp_path / "c.db"
    store = Store(path)
    session = store.new_game("gladiadores", ["Ana", "Luis"], seed=1)
    now = FakeTime()
    clock = GameClock(store, session.id, now=now)
    clock.observe({"active": 0})
    now.advance(minutes=2)
    clock.observe({"active": 1})
    now.advance(minutes=3)
    clock.observe({"active": 1, "finished": True})
    store.conn.execute("INSERT INTO clock (game_id, n, kind, at, seat) VALUES (?, 99, ?, ?, ?)",
                       (session.id, kind, at, seat))
    store.close()
    code = main([*command, "--db", str(path)])
    out, err = capsys.readouterr()
    assert (code, err) == (0, "ludoteca: note: 1 damaged clock row(s) left out of the play times\n")
    if command[-1] == "last":
        assert "5 min" in out and "Ana thinking 2:00" in out and "Luis thinking 3:00" in out
    elif command[-1] == "--json":
        assert json.loads(out)["minutes"] == 5
    elif command[-1] == "bgstats":
        assert json.loads(out)["plays"][0]["durationMin"] == 5
    else:
        assert json.loads(out)["clock"]["thinking_s"] == {"0": 120.0, "1": 180.0}
        assert json.loads(out)["clock"]["skipped_rows"] == 1


def test_a_clock_set_back_counts_no_negative_time(tmp_path):
    """The phone's clock corrected backwards mid-game: the span that runs backwards counts as nothing,
    it does not take time off what was played or thought."""
    store = Store(tmp_path / "c.db")
    session = store.new_game("gladiadores", ["Ana", "Luis"], seed=1)
    now = FakeTime()
    clock = GameClock(store, session.id, now=now)
    clock.observe({"active": 0})                     # 17:00 Ana thinks
    now.advance(seconds=60)
    clock.observe({"active": 1})                     # 17:01 Luis (Ana 60 s)
    now.advance(seconds=-30)                         # the clock is set back half a minute
    clock.observe({"active": 0})                     # Ana again (Luis: -30 s counts 0)
    now.advance(seconds=10)
    t = clock.timing()
    assert t.thinking == {0: 70.0, 1: 0.0}
    assert t.played_s == 70 and t.paused_s == 0


def test_minutes_from_the_log_of_a_game_without_clock():
    """``ludoteca play`` keeps no clock: the minutes are the first action's time to the last one's."""
    log = [{"at": "2026-05-01T17:00:00+00:00"}, {"at": "2026-05-01T17:40:00+00:00"},
           {"at": "2026-05-01T18:30:00+00:00"}]
    times = play_times(Store(":memory:"), "no-such-game", log=log)
    assert times["source"] == "log" and times["minutes"] == 90
    assert times["start"] == T0 and times["end"] == T0 + timedelta(minutes=90)


def test_paused_minutes_are_rounded_from_the_paused_seconds(tmp_path):
    store = Store(tmp_path / "c.db")
    session = store.new_game("gladiadores", ["Ana", "Luis"], seed=1)
    now = FakeTime()
    clock = GameClock(store, session.id, now=now)
    clock.observe({"active": 0})
    clock.pause()
    now.advance(minutes=44, seconds=40)              # 44 min 40 s paused: 45 minutes, rounded
    clock.resume()
    assert play_times(store, session.id, now=now)["paused_min"] == 45


def test_a_clock_event_on_a_full_disk_says_the_disk_is_full(tmp_path):
    """SQLite's own SQLITE_FULL (a database that may not grow past its pages) as the store says it."""
    from ludoteca.companion.engine import StoreError

    store = Store(tmp_path / "c.db")
    session = store.new_game("gladiadores", ["Ana", "Luis"], seed=1)
    clock = GameClock(store, session.id, now=FakeTime())
    pages = store.conn.execute("PRAGMA page_count").fetchone()[0]
    store.conn.execute(f"PRAGMA max_page_count = {pages}")
    with pytest.raises(StoreError, match="cannot save the clock of game .*: the disk is full") as err:
        for _ in range(2000):
            clock.record("pause")
    assert "el disco está lleno" in err.value.text["es"]


def test_time_away_from_the_play_counts_for_nothing(tmp_path):
    """The home screen (or the phone pausing the app) for 15 s adds nothing to the play or to anyone's
    thinking; a pause for everyone taken before leaving is still on when the play is back."""
    store = Store(tmp_path / "c.db")
    session = store.new_game("gladiadores", ["Ana", "Luis"], seed=1)
    now = FakeTime()
    clock = GameClock(store, session.id, now=now)
    clock.observe({"active": 0})                     # Ana thinks
    now.advance(seconds=10)
    clock.away()                                     # the home screen
    clock.away()                                     # twice changes nothing
    now.advance(seconds=15)
    assert clock.timing().played_s == 10
    clock.back()
    now.advance(seconds=5)
    t = clock.timing()
    assert (t.played_s, t.paused_s, t.thinking, t.turn_s) == (15, 0, {0: 15.0}, 15)
    clock.pause()
    now.advance(seconds=20)                          # a break: counted as paused
    clock.away()
    now.advance(minutes=30)                          # then away: counted as nothing
    clock.back()
    t = clock.timing()
    assert t.paused and (t.played_s, t.paused_s) == (15, 20)


def test_a_killed_app_counts_from_when_the_play_shows_again(tmp_path):
    """Killed without a word (no away): the next run counts nothing from the last event to the moment
    the play's screen is in front again."""
    store = Store(tmp_path / "c.db")
    session = store.new_game("gladiadores", ["Ana", "Luis"], seed=1)
    now = FakeTime()
    clock = GameClock(store, session.id, now=now)
    clock.observe({"active": 0})
    now.advance(seconds=5)
    clock.observe({"active": 1})                     # Luis, at 5 s; then the app is killed
    now.advance(seconds=5)
    again = GameClock(store, session.id, now=now)    # the next run of the app
    again.observe({"active": 1})
    again.back()
    again.back()                                     # shown again in the same run: nothing new
    now.advance(seconds=2)
    t = again.timing()
    assert (t.played_s, t.thinking) == (7, {0: 5.0, 1: 2.0})

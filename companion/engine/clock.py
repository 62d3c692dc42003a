"""The table clock: when a play started and ended, its pauses, and each player's thinking time.

The clock is advisory: it never stops anyone from acting.  Its events live in their own table of the
games database, one row per event, so a killed app keeps them::

    start   the play begins (the first time its screen is shown, or its first action)
    pause   everyone stops the clock (a break); resume starts it again
    turn    a seat becomes the active player (the turn timer restarts)
    end     the play is over
    away    no screen of the play is in front (home, history, the app paused by the phone, closed
            or killed): nothing counts, neither play nor pause nor anyone's thinking
    back    the play's screen is in front again

>>> from datetime import datetime, timedelta, timezone
>>> t0 = datetime(2026, 3, 28, 23, 30, tzinfo=timezone.utc)
>>> ev = [Event("start", t0), Event("turn", t0, 0), Event("pause", t0 + timedelta(minutes=5)),
...       Event("resume", t0 + timedelta(minutes=15)), Event("turn", t0 + timedelta(minutes=16), 1),
...       Event("end", t0 + timedelta(minutes=20))]
>>> t = timing(ev, t0 + timedelta(hours=1))
>>> t.played_s, t.paused_s, t.thinking
(600.0, 600.0, {0: 360.0, 1: 240.0})

Time comes from a ``now`` callable (``GameClock(store, id, now=...)``), so tests never sleep.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass, field
from datetime import datetime, UTC
from typing import Any
from collections.abc import Callable, Iterable

from .common import text
from .errors import StoreError

KINDS = ("start", "pause", "resume", "turn", "end", "away", "back")
SCHEMA = """
CREATE TABLE IF NOT EXISTS clock (
    game_id TEXT NOT NULL,
    n INTEGER NOT NULL,
    kind TEXT NOT NULL,
    at TEXT NOT NULL,
    seat INTEGER,
    PRIMARY KEY (game_id, n)
);
"""

Now = Callable[[], datetime]


def utc_now() -> datetime:
    """The current time, in UTC."""
    return datetime.now(UTC)


def parse_time(stamp: str) -> datetime:
    """An ISO time from the database (a time without offset is taken as UTC)."""
    moment = datetime.fromisoformat(stamp)
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


def row_problem(kind: Any, at: Any, seat: Any, seats: int | None = None) -> str | None:
    """Why a saved clock row cannot be an :class:`Event` (``None`` when it can); ``seats``: how many
    seats the table has, when known.

    >>> row_problem("turn", "2026-03-28T23:30:00+00:00", 1, seats=2) is None
    True
    >>> row_problem("turn", "ayer", -99)
    "the time 'ayer' is not an ISO time"
    """
    if kind not in KINDS:
        return f"unknown kind {str(kind)[:40]!r}"
    try:
        parse_time(at)
    except (TypeError, ValueError):
        return f"the time {str(at)[:40]!r} is not an ISO time"
    if seat is not None and (isinstance(seat, bool) or not isinstance(seat, int) or seat < 0
                             or seats is not None and seat >= seats):
        return f"the seat {str(seat)[:40]!r} is not one of the table's"
    return None


@dataclass(frozen=True)
class Event:
    """One clock event: its kind, when, and the seat for a ``turn``."""

    kind: str
    at: datetime
    seat: int | None = None


@dataclass
class Timing:
    """What the events say at a moment: a pure summary (see :func:`timing`)."""

    start: datetime | None = None
    end: datetime | None = None
    played_s: float = 0.0
    paused_s: float = 0.0
    running: bool = False
    away: bool = False
    seat: int | None = None
    turn_s: float = 0.0
    thinking: dict[int, float] = field(default_factory=dict)

    @property
    def paused(self) -> bool:
        """Started, not ended, and stopped by a pause."""
        return self.start is not None and self.end is None and not self.running

    @property
    def minutes(self) -> int:
        """Played time in whole minutes (rounded), pauses left out."""
        return int(self.played_s / 60 + 0.5)


def timing(events: Iterable[Event], now: datetime) -> Timing:
    """Fold the events in order: played and paused seconds, the current turn, thinking per seat.

    Time between a ``turn`` event and the next event counts for that seat while the clock runs;
    time ``away`` (until ``back``) and time after an ``end`` count for nothing (a ``resume`` after it
    reopens the play); an open play is counted up to ``now``.
    """
    out = Timing()
    last: datetime | None = None

    def spend(until: datetime) -> None:
        if last is None or out.start is None or out.end is not None or out.away:
            return
        span = max(0.0, (until - last).total_seconds())
        if out.running:
            out.played_s += span
            out.turn_s += span
            if out.seat is not None:
                out.thinking[out.seat] = out.thinking.get(out.seat, 0.0) + span
        else:
            out.paused_s += span

    for event in events:
        spend(event.at)
        last = event.at
        if event.kind == "start" and out.start is None:
            out.start, out.running = event.at, True
        elif event.kind == "pause":
            out.running = False
        elif event.kind == "resume" and out.start is not None:
            out.end, out.running = None, True  # after an end: the finishing action was undone
        elif event.kind == "turn":
            if out.start is None:
                out.start, out.running = event.at, True
            out.seat, out.turn_s = event.seat, 0.0
            if event.seat is not None:
                out.thinking.setdefault(event.seat, 0.0)
        elif event.kind == "end" and out.start is not None and out.end is None:
            out.end, out.running = event.at, False
        elif event.kind in ("away", "back"):
            out.away = event.kind == "away"
    spend(now)
    return out


def clock_text(seconds: float) -> str:
    """Seconds as ``m:ss`` or ``h:mm:ss``.

    >>> clock_text(75), clock_text(3725)
    ('1:15', '1:02:05')
    """
    whole = int(seconds)
    hours, rest = divmod(whole, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


class GameClock:
    """The clock of one saved game (``store`` is a :class:`~ludoteca.companion.engine.store.Store`)."""

    def __init__(self, store: Any, game_id: str, now: Now = utc_now, seats: int | None = None):
        self.store = store
        self.conn: sqlite3.Connection = store.conn
        self.game_id = game_id
        self.now = now
        self.seats = seats
        #: The rows :meth:`events` left out, as ``(n, why)``: a damaged or edited file may hold anything.
        self.skipped: list[tuple[Any, str]] = []
        #: Whether this clock (this run of the app) has seen the play in front: see :meth:`back`.
        self.seen = False
        ensure_table(self.conn)

    def events(self) -> list[Event]:
        """Every readable event of the game, in order; a row that is not one (an unknown kind, a
        time that is not a time, a seat that is not one of the table's) is left out and noted in
        :attr:`skipped`."""
        out, self.skipped = [], []
        for n, kind, at, seat in self.conn.execute(
                "SELECT n, kind, at, seat FROM clock WHERE game_id = ? ORDER BY n", (self.game_id,)):
            why = row_problem(kind, at, seat, self.seats)
            if why:
                self.skipped.append((n, why))
            else:
                out.append(Event(kind, parse_time(at), seat))
        return out

    def timing(self) -> Timing:
        """The summary now."""
        return timing(self.events(), self.now())

    def record(self, kind: str, seat: int | None = None, at: datetime | None = None) -> None:
        """Append one event, now or ``at`` (committed when this returns)."""
        if kind not in KINDS:
            raise ValueError(f"unknown clock event '{kind}' (known: {', '.join(KINDS)})")
        self.seen = True
        moment = at if at is not None else self.now()
        try:
            self.conn.execute(
                "INSERT INTO clock (game_id, n, kind, at, seat) SELECT ?, COALESCE(MAX(n), 0) + 1, ?, ?, ?"
                " FROM clock WHERE game_id = ?",
                (self.game_id, kind, moment.astimezone(UTC).isoformat(timespec="milliseconds"),
                 seat, self.game_id))
        except sqlite3.Error as exc:
            from .trouble import trouble_error
            raise trouble_error(getattr(self.store, "path", "?"), (f"guardar el reloj de la partida {self.game_id}",
                                                                    f"save the clock of game {self.game_id}"),
                                exc) from None

    def pause(self) -> None:
        """Stop the clock for everyone (nothing else is stopped)."""
        t = self.timing()
        if t.start is not None and t.end is None and t.running:
            self.record("pause")

    def resume(self) -> None:
        """Start the clock again after a pause."""
        if self.timing().paused:
            self.record("resume")

    def away(self) -> None:
        """The play's screen leaves the front (another screen, the app paused, closed): stop counting."""
        t = self.timing()
        if t.start is not None and t.end is None and not t.away:
            self.record("away")

    def back(self) -> None:
        """The play's screen is in front again: count from now.

        A play this run of the app has not seen yet that is not ``away`` was left without a word (the
        app was killed): nothing counts from its last event until now."""
        t = self.timing()
        if t.start is not None and t.end is None:
            if t.away:
                self.record("back")
            elif not self.seen:
                events = self.events()
                self.record("away", at=events[-1].at if events else None)
                self.record("back")
        self.seen = True

    def toggle(self) -> bool:
        """Pause a running clock or resume a paused one; whether it runs afterwards."""
        if self.timing().running:
            self.pause()
        else:
            self.resume()
        return self.timing().running

    def observe(self, state: dict) -> Timing:
        """Follow a game state: start the clock, restart the turn timer when the active seat changes,
        stop it when the game is finished (an undone finish resumes it).  Returns the summary."""
        t = self.timing()
        finished = bool(state.get("finished"))
        if t.start is None:
            if finished:
                return t
            self.record("start")
        elif t.end is not None:
            if finished:
                return t
            self.record("resume")  # the finishing action was undone: play on
        active = state.get("active")
        if not finished and isinstance(active, int) and active != t.seat:
            self.record("turn", active)
        if finished:
            self.record("end")
        return self.timing()


def ensure_table(conn: sqlite3.Connection) -> None:
    """Create the clock table when the database does not have it yet (older databases).

    A database opened read-only (``history``, ``export``) that has it is only read."""
    if conn.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'clock'").fetchone():
        return
    from .trouble import READ_ONLY, trouble

    try:
        conn.executescript(SCHEMA)
    except sqlite3.Error as exc:
        if trouble(exc) != READ_ONLY:
            raise StoreError(text(f"no se puede crear la tabla del reloj: {exc}",
                                  f"cannot create the clock table: {exc}")) from None
        # read-only and no clock saved: an empty one for this connection only
        conn.executescript(SCHEMA.replace("CREATE TABLE", "CREATE TEMP TABLE"))


def play_times(store: Any, game_id: str, log: list[dict] | None = None,
               now: Now = utc_now, seats: int | None = None) -> dict[str, Any]:
    """Start, end and played minutes of a saved game, for exports (``seats``: the table's size).

    From its clock when it has one; else from its log: the first action's time to the last one's
    (a game played through ``ludoteca play`` has no clock).  ``skipped`` counts the clock rows that
    could not be read (left out, see :meth:`GameClock.events`).
    """
    clock = GameClock(store, game_id, now=now, seats=seats)
    t = clock.timing()
    skipped = len(clock.skipped)
    if t.start is not None:
        return {"start": t.start, "end": t.end, "minutes": t.minutes, "paused_min": int(t.paused_s / 60 + 0.5),
                "thinking": t.thinking, "source": "clock", "skipped": skipped}
    rows = log if log is not None else store.log(game_id)
    stamps = []
    for row in rows:
        try:
            stamps.append(parse_time(row["at"]))
        except (TypeError, ValueError):
            skipped += 1
    if not stamps:
        return {"start": None, "end": None, "minutes": 0, "paused_min": 0, "thinking": {}, "source": "none",
                "skipped": skipped}
    start, end = stamps[0], stamps[-1]
    return {"start": start, "end": end, "minutes": max(0, int((end - start).total_seconds() / 60 + 0.5)),
            "paused_min": 0, "thinking": {}, "source": "log", "skipped": skipped}

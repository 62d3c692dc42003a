"""Where sessions live: one SQLite file, every action committed before it is acknowledged.

>>> store = Store(":memory:")
>>> session = store.new_game("gladiadores", ["Ana", "Luis"], seed=1)
>>> [g["id"] for g in store.unfinished()] == [session.id]
True

The file uses WAL with ``synchronous=FULL``: once :meth:`Session.apply` returns, the action
survives a killed process or a power cut.  A file that is not a readable database is moved aside
(``<name>.damaged-<time>``) and a fresh one is started; :attr:`Store.notice` says so.
"""

from __future__ import annotations

import json
import os
import secrets
import sqlite3
import sys
import time
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from .common import text
from .errors import BadArgument, StoreError
from .session import Session

SCHEMA_VERSION = 1
#: Seconds to wait for another program (the phone app, a second ``ludoteca play``) to release a lock.
BUSY_TIMEOUT = 10.0
SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id TEXT PRIMARY KEY,
    game TEXT NOT NULL,
    players TEXT NOT NULL,
    seed INTEGER NOT NULL,
    options TEXT NOT NULL,
    created TEXT NOT NULL,
    updated TEXT NOT NULL,
    status TEXT NOT NULL,
    seq INTEGER NOT NULL,
    final TEXT
);
CREATE TABLE IF NOT EXISTS actions (
    game_id TEXT NOT NULL REFERENCES games(id),
    seq INTEGER NOT NULL,
    action TEXT NOT NULL,
    at TEXT NOT NULL,
    PRIMARY KEY (game_id, seq)
);
"""


def default_db_path() -> Path:
    """``$LUDOTECA_DB``, else ``ludoteca.db`` in the user's data folder."""
    env = os.environ.get("LUDOTECA_DB")
    if env:
        return Path(env).expanduser()
    if sys.platform == "win32":
        base = Path(os.environ.get("APPDATA") or Path.home() / "AppData" / "Roaming")
    elif sys.platform == "darwin":
        base = Path.home() / "Library" / "Application Support"
    else:
        base = Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share")
    return base / "ludoteca" / "ludoteca.db"


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="milliseconds")


class Store:
    """All saved games in one database file (``":memory:"`` for a throw-away store)."""

    def __init__(self, path: str | os.PathLike | None = None, cards_dir: str | os.PathLike | None = None):
        self.path = default_db_path() if path is None else path
        self.cards_dir = cards_dir
        self.notice: dict[str, str] | None = None
        self.moved_to: Path | None = None
        self._data: dict[str, Any] = {}
        try:
            self.conn = self._connect()
        except sqlite3.OperationalError as exc:
            # Busy, locked, read-only or unopenable: the file is not damaged, so it stays where it is.
            raise StoreError(f"{self.path}: cannot open the database: {exc}") from None
        except sqlite3.DatabaseError as exc:
            self._move_aside(exc)
            try:
                self.conn = self._connect()
            except sqlite3.DatabaseError as again:
                raise StoreError(f"{self.path}: cannot start a new database: {again}") from None

    # -- opening --------------------------------------------------------------------------------
    def _connect(self) -> sqlite3.Connection:
        if str(self.path) != ":memory:":
            path = Path(self.path)
            try:
                path.parent.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                raise StoreError(f"{path.parent}: cannot create the data folder: {exc.strerror}") from None
            if path.is_dir():
                raise StoreError(f"{path}: is a folder, not a database file")
        conn = sqlite3.connect(str(self.path), isolation_level=None, timeout=BUSY_TIMEOUT)
        try:
            conn.execute("PRAGMA journal_mode=WAL")
            conn.execute("PRAGMA synchronous=FULL")
            check = conn.execute("PRAGMA quick_check").fetchone()
            if not check or check[0] != "ok":
                raise sqlite3.DatabaseError(f"integrity check failed: {check[0] if check else '?'}")
            conn.executescript(SCHEMA)
            version = conn.execute("PRAGMA user_version").fetchone()[0]
            if version not in (0, SCHEMA_VERSION):
                raise sqlite3.DatabaseError(f"unknown schema version {version}")
            if version != SCHEMA_VERSION:
                conn.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
            for table, cols in (("games", {"id", "game", "players", "seed", "status", "seq", "final"}),
                                ("actions", {"game_id", "seq", "action"})):
                have = {row[1] for row in conn.execute(f"PRAGMA table_info({table})")}
                if not cols <= have:
                    raise sqlite3.DatabaseError(f"table {table} lacks {sorted(cols - have)}")
        except sqlite3.DatabaseError:
            conn.close()
            raise
        return conn

    def _move_aside(self, exc: Exception) -> None:
        path = Path(self.path)
        if str(self.path) == ":memory:" or not path.exists():
            raise StoreError(f"{self.path}: cannot open the database: {exc}") from None
        stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
        target = path.with_name(f"{path.name}.damaged-{stamp}")
        n = 1
        while target.exists():
            n += 1
            target = path.with_name(f"{path.name}.damaged-{stamp}-{n}")
        try:
            os.replace(path, target)
            for suffix in ("-wal", "-shm"):
                extra = Path(str(path) + suffix)
                if extra.exists():
                    os.replace(extra, Path(str(target) + suffix))
        except OSError as err:
            raise StoreError(f"{path}: damaged ({exc}) and cannot be moved aside: {err.strerror}") from None
        self.moved_to = target
        self.notice = text(
            f"La base de datos {path} estaba dañada ({exc}); se ha apartado como {target.name} "
            "y se empieza una nueva.",
            f"The database {path} was damaged ({exc}); it was moved aside as {target.name} "
            "and a new one was started.")

    def close(self) -> None:
        """Close the database connection."""
        self.conn.close()

    def data(self, game: str):
        """The card data of one game (loaded once per store)."""
        if game not in self._data:
            from ludoteca.cards import load
            self._data[game] = load(self.cards_dir, games=(game,))[game]
        return self._data[game]

    # -- sessions -------------------------------------------------------------------------------
    def new_game(self, game: str, players: list[str], seed: int | None = None,
                 options: dict | None = None) -> Session:
        """Start a game; its setup is checked (player count, names) before anything is saved."""
        from .games import GAME_MODULES

        if game not in GAME_MODULES:
            raise BadArgument(text(f"juego desconocido '{game}' (hay: {', '.join(GAME_MODULES)})",
                                   f"unknown game '{game}' (known: {', '.join(GAME_MODULES)})"))
        names = [str(p).strip() for p in players]
        if any(not n for n in names):
            raise BadArgument(text("un jugador no tiene nombre", "a player has no name"))
        if len({n.casefold() for n in names}) != len(names):
            raise BadArgument(text("hay dos jugadores con el mismo nombre",
                                   "two players have the same name"))
        seed = secrets.randbelow(2**31) if seed is None else int(seed)
        options = dict(options or {})
        game_id = f"{time.strftime('%Y%m%d')}-{secrets.token_hex(3)}"
        session = Session(self, game_id, game, names, seed, options, [], 0)  # validates the setup
        now = _now()
        status = "finished" if session.state.get("finished") else "active"
        with self._transaction():
            self.conn.execute(
                "INSERT INTO games (id, game, players, seed, options, created, updated, status, seq, final)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, 0, NULL)",
                (game_id, game, json.dumps(names, ensure_ascii=False), seed,
                 json.dumps(options, ensure_ascii=False), now, now, status))
        return session

    def open(self, game_id: str) -> Session:
        """Resume a saved game: its state is rebuilt from its log."""
        row = self.conn.execute("SELECT game, players, seed, options, seq FROM games WHERE id = ?",
                                (game_id,)).fetchone()
        if row is None:
            raise BadArgument(text(f"no hay ninguna partida con id '{game_id}'",
                                   f"no game with id '{game_id}'"))
        game, players, seed, options, seq = row
        rows = [json.loads(a) for (a,) in self.conn.execute(
            "SELECT action FROM actions WHERE game_id = ? ORDER BY seq", (game_id,))]
        return Session(self, game_id, game, json.loads(players), seed, json.loads(options), rows,
                       len(rows))

    def log(self, game_id: str) -> list[dict]:
        """Every row of a game's log, undo and redo included: ``[{seq, at, action}]``."""
        return [{"seq": seq, "at": at, "action": json.loads(a)} for seq, a, at in self.conn.execute(
            "SELECT seq, action, at FROM actions WHERE game_id = ? ORDER BY seq", (game_id,))]

    def _transaction(self):
        store = self

        class _Tx:
            def __enter__(self):
                try:
                    store.conn.execute("BEGIN IMMEDIATE")
                except sqlite3.OperationalError as exc:
                    raise StoreError(f"{store.path}: cannot write: {exc}") from None

            def __exit__(self, kind, value, tb):
                if kind is None:
                    store.conn.execute("COMMIT")
                else:
                    store.conn.execute("ROLLBACK")
                return False
        return _Tx()

    def _append(self, session: Session, action: dict, state: dict) -> None:
        """Commit one log row and the game's summary; raises if anything fails."""
        seq = session.seq + 1
        now = _now()
        finished = bool(state.get("finished"))
        final = json.dumps(state.get("final"), ensure_ascii=False) if finished else None
        try:
            with self._transaction():
                self.conn.execute("INSERT INTO actions (game_id, seq, action, at) VALUES (?, ?, ?, ?)",
                                  (session.id, seq, json.dumps(action, ensure_ascii=False), now))
                self.conn.execute("UPDATE games SET updated = ?, status = ?, seq = ?, final = ? WHERE id = ?",
                                  (now, "finished" if finished else "active", seq, final, session.id))
        except sqlite3.IntegrityError:
            raise StoreError(f"game {session.id} was changed by another program; open it again") from None
        except sqlite3.OperationalError as exc:
            raise StoreError(f"{self.path}: cannot save the action: {exc}") from None

    # -- reading back ---------------------------------------------------------------------------
    def history(self) -> list[dict]:
        """Every game, newest change first, with final scores when finished."""
        out = []
        for gid, game, players, status, seq, created, updated, final in self.conn.execute(
                "SELECT id, game, players, status, seq, created, updated, final FROM games"
                " ORDER BY updated DESC, id"):
            out.append({"id": gid, "game": game, "players": json.loads(players), "status": status,
                        "seq": seq, "created": created, "updated": updated,
                        "final": json.loads(final) if final else None})
        return out

    def unfinished(self) -> list[dict]:
        """Games that can be resumed, newest change first."""
        return [g for g in self.history() if g["status"] != "finished"]

    def player_stats(self) -> dict[str, dict[str, int]]:
        """Per player name: finished games played and won."""
        stats: dict[str, dict[str, int]] = {}
        for g in self.history():
            if g["status"] != "finished" or not g["final"]:
                continue
            winners = set(g["final"].get("winners", []))
            for name in g["players"]:
                s = stats.setdefault(name, {"games": 0, "wins": 0})
                s["games"] += 1
                s["wins"] += name in winners
        return stats

"""Where sessions live: one SQLite file, every action committed before it is acknowledged.

>>> store = Store(":memory:")
>>> session = store.new_game("gladiadores", ["Ana", "Luis"], seed=1)
>>> [g["id"] for g in store.unfinished()] == [session.id]
True

The file uses WAL with ``synchronous=FULL``: once :meth:`Session.apply` returns, the action
survives a killed process or a power cut.  A file that is not a Ludoteca database is never
touched (:class:`NotOurs`); a damaged Ludoteca database is moved aside (``<name>.damaged-<time>``),
a fresh one is started and every action still readable in the old file is recovered into it
(:attr:`Store.recovery`); :attr:`Store.notice` says so.  An action may carry a client-chosen
``id``: sent again, it is acknowledged again and not applied twice.
"""

from __future__ import annotations

import functools
import json
import os
import secrets
import sqlite3
import stat
import sys
import time
from dataclasses import dataclass
from datetime import datetime, UTC
from pathlib import Path
from typing import Any
from collections.abc import Callable

from ludoteca.atomic import kind_of

from .common import text
from .errors import BadArgument, StoreError
from .recover import carve_files, game_row, looks_like_ours, row_check
from .trouble import DAMAGED, READ_ONLY, UNREACHABLE, Damage, trouble, trouble_error
from .session import Session
from .setup import player_names

SCHEMA_VERSION = 2
#: Seconds to wait for another program (the phone app, a second ``ludoteca play``) to release a lock.
BUSY_TIMEOUT = 10.0
#: ``PRAGMA application_id`` of a Ludoteca database ("Ludo"): written when the file is created.
APPLICATION_ID = 0x4C75646F
SQLITE_MAGIC = b"SQLite format 3\x00"
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
    client_id TEXT,
    crc INTEGER,
    PRIMARY KEY (game_id, seq)
);
CREATE TABLE IF NOT EXISTS setups (
    game_id TEXT PRIMARY KEY,
    game TEXT NOT NULL,
    players TEXT NOT NULL,
    seed INTEGER NOT NULL,
    options TEXT NOT NULL,
    created TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS unreplayed (
    game_id TEXT NOT NULL,
    seq INTEGER NOT NULL,
    action TEXT NOT NULL,
    at TEXT NOT NULL,
    client_id TEXT,
    reason TEXT NOT NULL
);
"""
#: The part of a game's row that never changes, copied into ``setups`` when the game starts: the
#: ``games`` rows of a small database share one page, and a game is replayed from its setup, so
#: a second copy on another page lets recovery rebuild every game when that page is lost.
SETUP_COPY = "SELECT id, game, players, seed, options, created FROM games"
CLIENT_ID_INDEX = ("CREATE UNIQUE INDEX IF NOT EXISTS actions_client_id ON actions (game_id, client_id)"
                   " WHERE client_id IS NOT NULL")
COLUMNS = {"games": {"id", "game", "players", "seed", "status", "seq", "final"},
           "actions": {"game_id", "seq", "action"}}


class NoDatabase(StoreError):
    """A read-only command was pointed at a path where no database exists (nothing is created)."""


class NotOurs(StoreError):
    """The file is not a Ludoteca database; it is left exactly as it was."""


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
    return datetime.now(UTC).isoformat(timespec="milliseconds")


OPEN = ("abrir la base de datos", "open the database")
READ = ("leer la base de datos", "read the database")
SAVE = ("guardar los cambios", "save the changes")
WRITE = ("escribir en la base de datos", "write to the database")
START = ("empezar una base de datos nueva", "start a new database")


def _reading(method: Callable) -> Callable:
    """A read of the database: an error found only now (a bad page, a lost disk) becomes a
    :class:`StoreError` saying which."""
    @functools.wraps(method)
    def wrapper(self: Store, *args: Any, **kwargs: Any) -> Any:
        try:
            return method(self, *args, **kwargs)
        except sqlite3.DatabaseError as exc:
            raise trouble_error(self.path, READ, exc) from None
    return wrapper


@dataclass
class Recovery:
    """What was read back from a damaged file into the new database."""

    games: int = 0
    games_found: int = 0
    actions: int = 0
    actions_found: int = 0
    apart: int = 0

    def text(self) -> dict[str, str]:
        """The sentence the notice ends with."""
        es = (f"Se han recuperado las {self.actions_found} acciones legibles: {self.actions} vuelven a "
              f"su partida ({self.games} partidas recuperadas)")
        en = (f"All {self.actions_found} readable actions were recovered: {self.actions} back in their "
              f"game ({self.games} games recovered)")
        if self.apart:
            es += f" y {self.apart} que ya no se pueden aplicar quedan aparte (tabla unreplayed)"
            en += f" and {self.apart} that no longer apply kept apart (table unreplayed)"
        return text(es, en)


class Store:
    """All saved games in one database file (``":memory:"`` for a throw-away store).

    ``readonly=True`` (``history``, ``export``) never creates, changes or moves the file, and works
    on a file the user may not write.  A file that is not a Ludoteca database raises
    :class:`NotOurs` and is left as it is; a damaged Ludoteca database is moved aside and every
    action that can still be read is recovered into the new one (:attr:`recovery`).
    """

    def __init__(self, path: str | os.PathLike | None = None, cards_dir: str | os.PathLike | None = None,
                 readonly: bool = False):
        self.path = default_db_path() if path is None else path
        self.cards_dir = cards_dir
        self.readonly = readonly
        self.notice: dict[str, str] | None = None
        self.moved_to: Path | None = None
        self.recovery: Recovery | None = None
        self._data: dict[str, Any] = {}
        self.has_client_ids = True
        #: Games whose saved row :meth:`history` could not read (left out of it).
        self.unreadable: list[str] = []
        if str(self.path) == ":memory:":
            self.conn = self._connect()
            return
        path = Path(self.path)
        try:
            mode = path.stat().st_mode
        except OSError:
            mode = None
        if mode is not None and not stat.S_ISREG(mode):  # a folder, or a FIFO that would wait forever
            raise StoreError(f"{path}: is {kind_of(mode)}, not a database file")
        if readonly and not path.exists():
            raise NoDatabase(f"{path}: no database here (nothing was created)")
        damaged = self._identify(path) if path.exists() else None
        if damaged is None:
            try:
                self.conn = self._connect()
                return
            except sqlite3.Error as exc:
                # Full, read-only, busy or unopenable: the file is not damaged, so it stays where it is.
                if trouble(exc, path) != DAMAGED:
                    raise trouble_error(path, READ if readonly else OPEN, exc) from None
                damaged = exc
        if readonly:
            raise trouble_error(path, READ, damaged)
        self._move_aside(damaged)
        try:
            self.conn = self._connect()
        except sqlite3.Error as again:
            raise trouble_error(path, START, again) from None
        self._recover()

    # -- opening --------------------------------------------------------------------------------
    def _identify(self, path: Path) -> Exception | None:
        """``None`` for a readable Ludoteca (or empty) database, the error for a damaged one.

        Raises :class:`NotOurs` for any other file, before anything writes to it.
        """
        try:
            with open(path, "rb") as f:
                head = f.read(100)
        except OSError as exc:
            raise StoreError(f"{path}: cannot read the file: {exc.strerror}") from None
        if not head:
            return None
        if not head.startswith(SQLITE_MAGIC):
            if looks_like_ours(path):
                return sqlite3.DatabaseError("file is not a database")
            raise NotOurs(f"{path}: not a Ludoteca database (not an SQLite file); it was left unchanged")
        probe = None
        try:
            probe = self._open_for_reading(path)
            app_id = probe.execute("PRAGMA application_id").fetchone()[0]
            tables = {name for (name,) in probe.execute("SELECT name FROM sqlite_master WHERE type='table'")}
            columns = {t: {row[1] for row in probe.execute(f"PRAGMA table_info({t})")} for t in COLUMNS
                       if t in tables}
        except sqlite3.Error as exc:
            if trouble(exc, path) != DAMAGED:  # nothing is known of its content: nothing is touched
                raise trouble_error(path, READ if self.readonly else OPEN, exc) from None
            return self._damaged_or_not_ours(path, exc)
        finally:
            if probe is not None:
                probe.close()
        if app_id not in (0, APPLICATION_ID) or tables and not (
                set(COLUMNS) <= tables and all(COLUMNS[t] <= columns[t] for t in COLUMNS)):
            raise NotOurs(f"{path}: an SQLite database of another program, not Ludoteca's; "
                          "it was left unchanged")
        return None

    @staticmethod
    def _damaged_or_not_ours(path: Path, exc: Exception) -> Exception:
        if looks_like_ours(path):
            return exc
        raise NotOurs(f"{path}: not a Ludoteca database (a damaged SQLite file of unknown content: "
                      f"{exc}); it was left unchanged")

    def _open_for_reading(self, path: Path) -> sqlite3.Connection:
        """A connection that cannot write, its header already read.  A read-only store whose file
        SQLite cannot open for reading alone (a read-only folder or mount: no ``-shm`` can be made)
        reads it as immutable; damage, a full disk or a file in use are not retried."""
        uri = path.resolve().as_uri()
        modes = ("mode=ro", "immutable=1") if self.readonly else ("mode=ro",)
        for mode in modes:
            conn = None
            try:
                conn = sqlite3.connect(f"{uri}?{mode}", uri=True, isolation_level=None, timeout=BUSY_TIMEOUT)
                conn.execute("PRAGMA schema_version").fetchone()
                return conn
            except sqlite3.Error as exc:
                if conn is not None:
                    conn.close()
                if mode == modes[-1] or trouble(exc, path) not in (READ_ONLY, UNREACHABLE):
                    raise
        raise AssertionError("unreachable")

    def _connect(self) -> sqlite3.Connection:
        if self.readonly:
            return self._connect_readonly()
        if str(self.path) != ":memory:":
            path = Path(self.path)
            try:
                path.parent.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                raise StoreError(f"{path.parent}: cannot create the data folder: {exc.strerror}") from None
        conn = sqlite3.connect(str(self.path), isolation_level=None, timeout=BUSY_TIMEOUT)
        try:
            conn.execute("PRAGMA journal_mode=WAL")
            conn.execute("PRAGMA synchronous=FULL")
            check = conn.execute("PRAGMA quick_check").fetchone()
            if not check or check[0] != "ok":
                raise Damage(f"integrity check failed: {check[0] if check else '?'}")
            version = conn.execute("PRAGMA user_version").fetchone()[0]
            if version not in (0, 1, SCHEMA_VERSION):
                conn.close()
                raise StoreError(text(
                    f"{self.path}: una base de datos de una versión más nueva de Ludoteca (esquema {version}); "
                    "actualiza Ludoteca (no se ha tocado)",
                    f"{self.path}: a database of a newer Ludoteca (schema {version}); update Ludoteca "
                    "(it was left unchanged)"))
            had_setups = conn.execute("SELECT 1 FROM sqlite_master WHERE name = 'setups'").fetchone()
            conn.executescript(SCHEMA)
            if not had_setups:  # a database from before the copy: copy its games' setups once
                conn.execute(f"INSERT OR IGNORE INTO setups {SETUP_COPY}")
            have = {row[1] for row in conn.execute("PRAGMA table_info(actions)")}
            for column, kind in (("client_id", "TEXT"), ("crc", "INTEGER")):  # older databases
                if column not in have:
                    conn.execute(f"ALTER TABLE actions ADD COLUMN {column} {kind}")
            conn.execute(CLIENT_ID_INDEX)
            if version != SCHEMA_VERSION:
                conn.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
            if conn.execute("PRAGMA application_id").fetchone()[0] != APPLICATION_ID:
                conn.execute(f"PRAGMA application_id={APPLICATION_ID}")
            for table, cols in COLUMNS.items():
                have = {row[1] for row in conn.execute(f"PRAGMA table_info({table})")}
                if not cols <= have:
                    raise Damage(f"table {table} lacks {sorted(cols - have)}")
        except sqlite3.DatabaseError:
            conn.close()
            raise
        return conn

    def _connect_readonly(self) -> sqlite3.Connection:
        """Open without writing anything; a file whose folder is read-only is read as it is."""
        conn = self._open_for_reading(Path(self.path))
        try:
            if not conn.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'games'").fetchone():
                raise NoDatabase(f"{self.path}: an empty database, with no games yet")
            check = conn.execute("PRAGMA quick_check").fetchone()
            if not check or check[0] != "ok":
                raise Damage(f"integrity check failed: {check[0] if check else '?'}")
            self.has_client_ids = "client_id" in {row[1] for row in conn.execute("PRAGMA table_info(actions)")}
        except BaseException:
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

    def _recover(self) -> None:
        """Copy every game and action still readable in the set-aside file into this database.

        Each game's readable actions are applied again in their order, through the rules: those
        that apply go back into the game (numbered again from 1, so a gap closes up); those that no
        longer apply after a lost action, and those of a game whose own row was lost, are kept in
        the table ``unreplayed`` with the reason, so no readable action is left behind.
        """
        from .session import Session

        assert self.moved_to is not None
        carved = carve_files([self.moved_to, Path(str(self.moved_to) + "-wal")])
        games = carved.every_game()
        report = Recovery(games_found=len(games), actions_found=len(carved.actions) + len(carved.apart))
        by_game: dict[str, list[dict]] = {}
        for (gid, _seq), row in sorted(carved.actions.items()):
            by_game.setdefault(gid, []).append(row)
        scratch = Store(":memory:", cards_dir=self.cards_dir)
        scratch._data = self._data
        apart: list[tuple[dict, str]] = []
        for gid, game in games.items():
            rows = by_game.pop(gid, [])
            try:
                session = Session(scratch, gid, game["game"], json.loads(game["players"]), game["seed"],
                                  json.loads(game["options"]), [], 0)
            except Exception as exc:  # recovered bytes: a setup that fails keeps its actions apart
                apart += [(row, f"the game cannot be set up again: {exc}") for row in rows]
                continue
            kept: list[dict] = []
            for row in rows:
                action = json.loads(row["action"])
                if row["client_id"] is not None:
                    action["id"] = row["client_id"]
                try:
                    session.apply(action)
                except Exception as exc:  # an action after a lost one may no longer apply
                    apart.append((row, f"no longer applies: {exc}"))
                    continue
                if session.repeated:  # two rows with one client id: a damaged copy of an action
                    apart.append((row, f"the same action id as the one replayed as {session.acknowledged}"))
                    continue
                kept.append(row)
            self._restore(game, kept, session)
            report.games += 1
            report.actions += len(kept)
        for rows in by_game.values():
            apart += [(row, "the game's own record was lost") for row in rows]
        apart += [(row, row["reason"]) for row in carved.apart.values()]  # kept apart by an earlier recovery
        self._restore_clock([row for key, row in sorted(carved.clock.items()) if key[0] in games])
        if apart:
            with self._transaction():
                self.conn.executemany(
                    "INSERT INTO unreplayed (game_id, seq, action, at, client_id, reason) VALUES (?, ?, ?, ?, ?, ?)",
                    [(r["game_id"], r["seq"], r["action"], r["at"], r["client_id"], why) for r, why in apart])
        report.apart = len(apart)
        scratch.close()
        self.recovery = report
        if self.notice is not None:
            self.notice = {lang: f"{self.notice[lang]} {report.text()[lang]}." for lang in ("es", "en")}

    def _restore_clock(self, rows: list[tuple]) -> None:
        """The clock events read back (``clock`` rows), for the games recovered."""
        from .clock import ensure_table

        if not rows:
            return
        ensure_table(self.conn)
        with self._transaction():
            self.conn.executemany("INSERT INTO clock (game_id, n, kind, at, seat) VALUES (?, ?, ?, ?, ?)", rows)

    def _restore(self, game: dict, rows: list[dict], session: Any) -> None:
        state = session.state
        finished = bool(state.get("finished"))
        updated = max([game["updated"]] + [r["at"] for r in rows])
        final = json.dumps(state.get("final"), ensure_ascii=False) if finished else None
        with self._transaction():
            self.conn.execute(
                "INSERT INTO games (id, game, players, seed, options, created, updated, status, seq, final)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (game["id"], game["game"], game["players"], game["seed"], game["options"], game["created"],
                 updated, "finished" if finished else "active", len(rows), final))
            self.conn.execute(f"INSERT INTO setups {SETUP_COPY} WHERE id = ?", (game["id"],))
            self.conn.executemany(
                "INSERT INTO actions (game_id, seq, action, at, client_id, crc) VALUES (?, ?, ?, ?, ?, ?)",
                [(*row, row_check(*row)) for row in ((game["id"], n, r["action"], r["at"], r["client_id"])
                                                     for n, r in enumerate(rows, start=1))])

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
        names = player_names(players)
        if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**63):
            raise BadArgument(text(f"la semilla es un número de 0 a {2**63 - 1}",
                                   f"the seed is a whole number from 0 to {2**63 - 1}"))
        seed = secrets.randbelow(2**31) if seed is None else seed
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
            self.conn.execute(f"INSERT INTO setups {SETUP_COPY} WHERE id = ?", (game_id,))
        return session

    @_reading
    def open(self, game_id: str) -> Session:
        """Resume a saved game: its state is rebuilt from its log."""
        values = self.conn.execute(
            "SELECT id, game, players, seed, options, created, updated, status, seq, final FROM games WHERE id = ?",
            (game_id,)).fetchone()
        if values is None:
            raise BadArgument(text(f"no hay ninguna partida con id '{game_id}'",
                                   f"no game with id '{game_id}'"))
        row = game_row(values)
        if row is None:
            raise StoreError(text(f"{self.path}: la fila guardada de la partida {game_id} está dañada "
                                  "(valores que Ludoteca no escribe); no se puede abrir",
                                  f"{self.path}: the saved row of game {game_id} is damaged (values "
                                  "Ludoteca does not write); it cannot be opened"))
        game, players, seed, options = row["game"], row["players"], row["seed"], row["options"]
        rows = [json.loads(a) for (a,) in self.conn.execute(
            "SELECT action FROM actions WHERE game_id = ? ORDER BY seq", (game_id,))]
        return Session(self, game_id, game, json.loads(players), seed, json.loads(options), rows,
                       len(rows))

    @_reading
    def log(self, game_id: str) -> list[dict]:
        """Every row of a game's log, undo and redo included: ``[{seq, at, action}]``."""
        return [{"seq": seq, "at": at, "action": json.loads(a)} for seq, a, at in self.conn.execute(
            "SELECT seq, action, at FROM actions WHERE game_id = ? ORDER BY seq", (game_id,))]

    def _transaction(self):
        store = self

        class _Tx:
            def __enter__(self):
                if store.readonly:
                    raise StoreError(f"{store.path}: opened read-only")
                try:
                    store.conn.execute("BEGIN IMMEDIATE")
                except sqlite3.Error as exc:
                    raise trouble_error(store.path, WRITE, exc) from None

            def __exit__(self, kind, value, tb):
                if kind is None:
                    try:
                        store.conn.execute("COMMIT")
                        return False
                    except sqlite3.Error as exc:
                        value = exc
                try:
                    store.conn.execute("ROLLBACK")
                except sqlite3.Error:
                    pass  # the transaction was already rolled back by SQLite itself
                if isinstance(value, sqlite3.Error) and not isinstance(value, sqlite3.IntegrityError):
                    raise trouble_error(store.path, SAVE, value) from None
                if kind is None:
                    raise value  # a commit refused by a constraint: nothing was saved
                return False
        return _Tx()

    @_reading
    def seq_of(self, game_id: str, client_id: str) -> int | None:
        """The seq of the action a client sent with this id, if it was saved."""
        if not self.has_client_ids:
            return None
        row = self.conn.execute("SELECT seq FROM actions WHERE game_id = ? AND client_id = ?",
                                (game_id, client_id)).fetchone()
        return row[0] if row else None

    def append(self, session: Session, action: dict, state: dict, client_id: str | None = None) -> None:
        """Commit one log row and the game's summary; raises if anything fails (:class:`~.session.Keeper`)."""
        seq = session.seq + 1
        now = _now()
        finished = bool(state.get("finished"))
        final = json.dumps(state.get("final"), ensure_ascii=False) if finished else None
        try:
            with self._transaction():
                row = (session.id, seq, json.dumps(action, ensure_ascii=False), now, client_id)
                self.conn.execute("INSERT INTO actions (game_id, seq, action, at, client_id, crc)"
                                  " VALUES (?, ?, ?, ?, ?, ?)", (*row, row_check(*row)))
                self.conn.execute("UPDATE games SET updated = ?, status = ?, seq = ?, final = ? WHERE id = ?",
                                  (now, "finished" if finished else "active", seq, final, session.id))
        except sqlite3.IntegrityError:  # another program saved this seq first: ours was not saved
            raise StoreError(text(f"otro programa ha cambiado la partida {session.id} y esta acción no se ha "
                                  "guardado; vuelve a abrirla",
                                  f"game {session.id} was changed by another program and this action was "
                                  "not saved; open it again")) from None

    # -- reading back ---------------------------------------------------------------------------
    @_reading
    def history(self) -> list[dict]:
        """Every game, newest change first, with final scores when finished.  A row whose values
        are not what the store writes (an edited or damaged file) is left out and named in
        :attr:`unreadable` (id, a few characters of it)."""
        out = []
        self.unreadable = []
        for values in self.conn.execute(
                "SELECT id, game, players, seed, options, created, updated, status, seq, final FROM games"
                " ORDER BY updated DESC, id"):
            row = game_row(values)
            if row is None:
                self.unreadable.append(str(values[0])[:40])
                continue
            out.append({"id": row["id"], "game": row["game"], "players": json.loads(row["players"]),
                        "status": row["status"], "seq": row["seq"], "created": row["created"],
                        "updated": row["updated"], "final": json.loads(row["final"]) if row["final"] else None})
        return out

    def unfinished(self) -> list[dict]:
        """Games that can be resumed, newest change first."""
        return [g for g in self.history() if g["status"] != "finished"]

    def player_stats(self) -> dict[str, dict[str, int]]:
        """Per player name: finished games played and won (counted by ``stats.player_totals``)."""
        from .stats import player_totals

        return player_totals(self.history())

"""Reading the games and actions still in a damaged database file, by their bytes.

SQLite stores each row as a *record*: a header of varints (its own length, then one serial type
per column) followed by the values.  A damaged file may have lost its header page, its page
pointers or whole pages, yet the rows themselves are usually intact somewhere in the main file or
in its ``-wal``.  :func:`carve` finds them without trusting any page structure: every game id in
the bytes (``20261123-a1b2c3``, the first column of both tables) is tried as the start of a row
of ``games`` (10 columns), ``setups`` (6: the copy of a game's setup, on another page) or
``actions`` (4 or 5), and a row is kept only if every value has the type and shape the table gives
it (JSON that parses, a timestamp, a known status).  Pages, their pointers, the freelist and the
``-wal`` frames play no part: a row is found wherever its bytes are, so every action whose own bytes
are intact is found, whichever page the damage hit; copies of one action (an old page, the ``-wal``)
count once.

>>> carve(b"no rows here")
Carved(games={}, actions={}, setups={}, clock={}, apart={})
"""

from __future__ import annotations

import json
import re
import struct
import zlib
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

GAME_ID = re.compile(rb"\d{8}-[0-9a-f]{6}")
TIMESTAMP = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d")
STATUSES = ("active", "finished")
#: The longest record header tried before a game id (10 columns of up to 9-byte varints).
MAX_HEADER = 40
#: Bytes of a damaged file read for recovery (a database of 10,000 games is about 20 MB).
MAX_SCAN_BYTES = 256 * 1024 * 1024
#: Bytes read at a time; consecutive pieces overlap by :data:`OVERLAP`, more than any row we write
#: in one page, so a row across a boundary is still read whole in one of them.
CHUNK = 8 * 1024 * 1024
OVERLAP = 64 * 1024


@dataclass
class Carved:
    """What was read: the newest row of each game, and each action by (game id, seq); each game's
    setup, its clock events by (game id, n), and the rows an earlier recovery kept apart."""

    games: dict[str, dict] = field(default_factory=dict)
    actions: dict[tuple[str, int], dict] = field(default_factory=dict)
    setups: dict[str, dict] = field(default_factory=dict)
    clock: dict[tuple[str, int], tuple] = field(default_factory=dict)
    apart: dict[tuple, dict] = field(default_factory=dict)

    def every_game(self) -> dict[str, dict]:
        """Each game whose row or setup was read, as a ``games`` row; a game known only from its
        setup is given as active with no actions (recovery works out the rest by replaying)."""
        out = {gid: dict(setup, id=gid, updated=setup["created"], status="active", seq=0, final=None)
               for gid, setup in self.setups.items()}
        out.update(self.games)
        return out


def _varint(buf: bytes, pos: int) -> tuple[int, int]:
    """An SQLite varint at ``pos``: (value, position after it)."""
    value = 0
    for i in range(9):
        if pos >= len(buf):
            raise IndexError(pos)
        byte = buf[pos]
        pos += 1
        if i == 8:
            return (value << 8) | byte, pos
        value = (value << 7) | (byte & 0x7F)
        if byte < 0x80:
            return value, pos
    return value, pos


_INT_SIZES = {1: 1, 2: 2, 3: 3, 4: 4, 5: 6, 6: 8}


def _size(serial: int) -> int:
    if serial in _INT_SIZES:
        return _INT_SIZES[serial]
    if serial == 7:
        return 8
    if serial in (0, 8, 9):
        return 0
    if serial >= 12:
        return (serial - 12) // 2
    raise ValueError(serial)


def _value(buf: bytes, pos: int, serial: int) -> Any:
    size = _size(serial)
    raw = buf[pos:pos + size]
    if len(raw) != size:
        raise IndexError(pos)
    if serial == 0:
        return None
    if serial in (8, 9):
        return serial - 8
    if serial in _INT_SIZES:
        return int.from_bytes(raw, "big", signed=True)
    if serial == 7:
        return struct.unpack(">d", raw)[0]
    if serial % 2:
        return raw.decode("utf-8")
    return raw


def _header(buf: bytes, start: int, body: int) -> list[int] | None:
    """The serial types of a record header at ``start`` that ends where the body starts (``body``)."""
    try:
        length, pos = _varint(buf, start)
        if start + length != body:
            return None
        serials = []
        while pos < body:
            serial, pos = _varint(buf, pos)
            if serial in (10, 11):
                return None
            serials.append(serial)
    except IndexError:
        return None
    return serials if pos == body and 4 <= len(serials) <= 10 else None


def _values(buf: bytes, pos: int, serials: list[int]) -> list | None:
    values = []
    try:
        for serial in serials:
            values.append(_value(buf, pos, serial))
            pos += _size(serial)
    except (IndexError, ValueError, UnicodeDecodeError):
        return None
    return values


def _record(buf: bytes, start: int, body: int, pages: Pages | None = None) -> list | None:
    """The values of a record whose header starts at ``start`` and whose body starts at ``body``;
    with ``pages``, a record too long for one page is read on along its overflow pages."""
    serials = _header(buf, start, body)
    if serials is None:
        return None
    total = (body - start) + sum(_size(s) for s in serials)
    if pages is None or total <= pages.usable - 35:  # the whole record is in its page
        return _values(buf, body, serials)
    payload = pages.spilled(buf, start, total)
    return None if payload is None else _values(payload, body - start, serials)


class Pages:
    """The pages of a database file (and its ``-wal``, whose newest copy of a page wins), read by
    number to follow a long record's overflow chain: the only page structure recovery uses, and
    only for records longer than a page.  The page size comes from the file's header, else the
    ``-wal``'s, else SQLite's default."""

    def __init__(self, main: Path, wal: Path | None = None):
        self.main = Path(main)
        self.size, reserved = 4096, 0
        self.frames: dict[int, int] = {}
        self._wal = wal
        try:
            with open(self.main, "rb") as f:
                head = f.read(100)
            if head.startswith(b"SQLite format 3\x00"):
                size = int.from_bytes(head[16:18], "big")
                size = 65536 if size == 1 else size
                if 512 <= size <= 65536 and size & (size - 1) == 0:
                    self.size, reserved = size, head[20]
        except OSError:
            pass
        if wal is not None:
            self._index_wal(wal)
        self.usable = self.size - reserved

    def _index_wal(self, wal: Path) -> None:
        try:
            with open(wal, "rb") as f:
                head = f.read(32)
                size = int.from_bytes(head[8:12], "big") if len(head) == 32 else 0
                if size != self.size and 512 <= size <= 65536 and size & (size - 1) == 0:
                    self.size = size
                at = 32
                while at < MAX_SCAN_BYTES:
                    f.seek(at)
                    frame = f.read(24)
                    if len(frame) < 24:
                        break
                    self.frames[int.from_bytes(frame[:4], "big")] = at + 24
                    at += 24 + self.size
        except OSError:
            self.frames = {}

    def page(self, number: int) -> bytes | None:
        """Page ``number`` (from 1), or ``None`` when neither file holds it whole."""
        if number < 1:
            return None
        where, at = ((self._wal, self.frames[number]) if number in self.frames and self._wal is not None
                     else (self.main, (number - 1) * self.size))
        try:
            with open(where, "rb") as f:
                f.seek(at)
                data = f.read(self.size)
        except OSError:
            return None
        return data if len(data) == self.size else None

    def spilled(self, buf: bytes, start: int, total: int) -> bytes | None:
        """The whole payload (``total`` bytes) of a table-leaf record whose header starts at
        ``start`` in ``buf``, its first part there and the rest on its overflow pages; ``None``
        unless the cell around it says exactly that length and the chain holds all of it."""
        usable = self.usable
        most = usable - 35
        if total <= most or not self._cell_says(buf, start, total):
            return None
        least = (usable - 12) * 32 // 255 - 23
        local = least + (total - least) % (usable - 4)
        local = local if local <= most else least
        if start + local + 4 > len(buf):
            return None
        payload = bytearray(buf[start:start + local])
        following = int.from_bytes(buf[start + local:start + local + 4], "big")
        seen: set[int] = set()
        while len(payload) < total and following and following not in seen:
            seen.add(following)
            page = self.page(following)
            if page is None:
                return None
            payload += page[4:usable]
            following = int.from_bytes(page[:4], "big")
        return bytes(payload[:total]) if len(payload) >= total else None

    @staticmethod
    def _cell_says(buf: bytes, start: int, total: int) -> bool:
        """Whether the cell before ``start`` is (payload length = ``total``, a rowid)."""
        length = _varint_bytes(total)
        for rowid_size in range(1, 10):
            at = start - rowid_size
            if at - len(length) < 0:
                return False
            try:
                if _varint(buf, at)[1] == start and buf[at - len(length):at] == length:
                    return True
            except IndexError:
                return False
        return False


def _varint_bytes(value: int) -> bytes:
    """``value`` as an SQLite varint (up to 2**56, more than any payload)."""
    out = [value & 0x7F]
    value >>= 7
    while value:
        out.append((value & 0x7F) | 0x80)
        value >>= 7
    return bytes(reversed(out))


def _json(text: Any, kind: type) -> Any:
    if not isinstance(text, str):
        return None
    try:
        value = json.loads(text)
    except ValueError:
        return None
    return value if isinstance(value, kind) else None


def _is_time(value: Any) -> bool:
    """Whether a saved value is an ISO time as the store writes them."""
    if not isinstance(value, str) or not TIMESTAMP.match(value):
        return False
    try:
        datetime.fromisoformat(value)
    except ValueError:
        return False
    return True


def _is_final(value: Any) -> bool:
    """A game's final scores as scoring writes them: ``players`` (each a name and a numeric total)
    and ``winners`` (names), both lists."""
    final = _json(value, dict)
    if final is None:
        return False
    players, winners = final.get("players", []), final.get("winners", [])
    return (isinstance(players, list) and isinstance(winners, list) and all(isinstance(w, str) for w in winners)
            and all(isinstance(p, dict) and isinstance(p.get("name"), str) and isinstance(p.get("total"), (int, float))
                    and not isinstance(p.get("total"), bool) for p in players))


def row_check(game_id: str, seq: int, action: str, at: str, client_id: str | None) -> int:
    """The CRC-32 written with each action row (column ``crc``): a row whose bytes were altered
    into other plausible values (a digit of a number, of a time) no longer matches it.

    >>> row_check("20260101-abcdef", 1, '{"action": "undo"}', "2026-01-01T10:00:00.000+00:00", None)
    2394885836
    """
    values = json.dumps([game_id, seq, action, at, client_id], ensure_ascii=False)
    return zlib.crc32(values.encode("utf-8", "surrogatepass"))


def _as_action(values: list) -> dict | None:
    if len(values) not in (4, 5, 6):
        return None
    game_id, seq, action, at = values[:4]
    client_id = values[4] if len(values) >= 5 else None
    crc = values[5] if len(values) == 6 else None  # rows written before the check have none
    parsed = _json(action, dict)
    if (not isinstance(seq, int) or seq < 1 or parsed is None or not isinstance(parsed.get("action"), str)
            or not _is_time(at)
            or client_id is not None and not isinstance(client_id, str)
            or len(values) == 6 and crc is not None and crc != row_check(game_id, seq, action, at, client_id)
            or isinstance(crc, (str, bytes, float))):
        return None
    return {"game_id": game_id, "seq": seq, "action": action, "at": at, "client_id": client_id}


def game_row(values: list | tuple) -> dict | None:
    """A ``games`` row (its 10 columns in order) when every value has the type and shape the store
    gives it, else ``None``: what recovery keeps and what ``history`` can show."""
    if len(values) != 10:
        return None
    gid, game, players, seed, options, created, updated, status, seq, final = values
    names = _json(players, list)
    if (not isinstance(gid, str) or not isinstance(game, str) or not names or not all(isinstance(n, str) for n in names)
            or not isinstance(seed, int) or _json(options, dict) is None
            or not all(_is_time(t) for t in (created, updated))
            or status not in STATUSES or not isinstance(seq, int) or seq < 0
            or final is not None and not _is_final(final)):
        return None
    return {"id": gid, "game": game, "players": players, "seed": seed, "options": options,
            "created": created, "updated": updated, "status": status, "seq": seq, "final": final}


def _as_setup(values: list) -> dict | None:
    if len(values) != 6:
        return None
    gid, game, players, seed, options, created = values
    names = _json(players, list)
    if (not isinstance(game, str) or not names or not all(isinstance(n, str) for n in names)
            or not isinstance(seed, int) or _json(options, dict) is None
            or not _is_time(created)):
        return None
    return {"game": game, "players": players, "seed": seed, "options": options, "created": created}


def _as_clock(values: list) -> tuple | None:
    from .clock import row_problem

    if len(values) != 5 or not isinstance(values[1], int) or row_problem(*values[2:]) is not None:
        return None
    return tuple(values)


def _as_apart(values: list) -> dict | None:
    if len(values) != 6 or not isinstance(values[5], str):
        return None
    action = _as_action(values[:5])
    return None if action is None else dict(action, reason=values[5])


def carve(data: bytes, found: Carved | None = None, pages: Pages | None = None) -> Carved:
    """Every readable ``games`` and ``actions`` row in ``data`` (later copies win for actions);
    ``pages``: the file ``data`` comes from, to read long rows on along their overflow pages."""
    found = found or Carved()
    for match in GAME_ID.finditer(data):
        body = match.start()
        for start in range(body - 2, max(body - MAX_HEADER, 0) - 1, -1):
            values = _record(data, start, body, pages)
            if values is None or values[0] != match.group().decode():
                continue
            action = _as_action(values)
            if action is not None:
                found.actions[(action["game_id"], action["seq"])] = action
                break
            setup = _as_setup(values)
            if setup is not None:
                found.setups[values[0]] = setup
                break
            clock = _as_clock(values)
            if clock is not None:
                found.clock[(clock[0], clock[1])] = clock
                break
            apart = _as_apart(values)
            if apart is not None:
                found.apart[tuple(apart.values())] = apart
                break
            game = game_row(values)
            if game is not None:
                old = found.games.get(game["id"])
                if old is None or (game["seq"], game["updated"]) >= (old["seq"], old["updated"]):
                    found.games[game["id"]] = game
                break
    return found


def carve_files(paths: list[Path]) -> Carved:
    """Carve the main file then its ``-wal`` (newer), reading at most :data:`MAX_SCAN_BYTES` of each."""
    found = Carved()
    main = Path(paths[0]) if paths else None
    for path in paths:
        pages = Pages(main, Path(path) if Path(path) != main else None) if main else None
        try:
            with open(path, "rb") as f:
                tail = b""
                done = 0
                while done < MAX_SCAN_BYTES:
                    piece = f.read(CHUNK)
                    if not piece:
                        break
                    done += len(piece)
                    carve(tail + piece, found, pages)
                    tail = piece[-OVERLAP:]
        except OSError:
            continue
    return found


def looks_like_ours(path: Path, limit: int = 4 * 1024 * 1024) -> bool:
    """Whether a file that SQLite cannot read (or its ``-wal``) holds Ludoteca's tables or rows."""
    for part in (Path(path), Path(f"{path}-wal")):
        try:
            with open(part, "rb") as f:
                head = f.read(limit)
        except OSError:
            continue
        if b"CREATE TABLE games (" in head and b"CREATE TABLE actions (" in head:
            return True
        found = carve(head)
        if found.games or found.actions:
            return True
    return False

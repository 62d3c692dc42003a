"""Damaged databases and the truth to judge their recovery by (used by tests/test_store_recovery.py
and bench/bench_recovery.py).

The truth does not come from the carver it judges: every acknowledged action is read back by SQLite
from the healthy file, encoded again as SQLite stores a row (a header of serial types, then the
values), and counted *intact* when those exact bytes are still somewhere in the damaged file or its
``-wal``.
"""

from __future__ import annotations

import random
import sqlite3
import struct
from pathlib import Path

from ludoteca.companion.engine import Store
from ludoteca.companion.engine.recover import _varint_bytes

PAGE = 4096
#: The issue's three kinds of damage.
ISSUE_DAMAGE = ("random_bytes_on_page_2", "100_flipped_bytes", "truncated_to_half")


def build(path: Path, games: int, per_game: int, seed: int = 9) -> list[tuple]:
    """A database of ``games`` Ciudadelas games of ``per_game`` acknowledged actions each, closed
    cleanly; its ``actions`` rows as SQLite reads them back (each has its client id ``g-k``)."""
    store = Store(path)
    rnd = random.Random(seed)
    for g in range(games):
        session = store.new_game("ciudadelas", ["Ana", "Luis", "Eva"], seed=g)
        for k in range(per_game):
            session.apply({"id": f"{g}-{k}", "action": "adjust", "player": rnd.choice(["Ana", "Luis", "Eva"]),
                           "resource": "gold", "delta": rnd.randint(1, 9)})
    store.close()
    conn = sqlite3.connect(path)
    rows = conn.execute("SELECT game_id, seq, action, at, client_id, crc FROM actions ORDER BY rowid").fetchall()
    conn.close()
    return rows


def damage(data: bytes, kind: str, seed: int = 1) -> bytes:
    """``data`` damaged one of the issue's ways."""
    out = bytearray(data)
    rnd = random.Random(seed)
    if kind == "random_bytes_on_page_2":
        out[PAGE:2 * PAGE] = bytes(rnd.randrange(256) for _ in range(PAGE))
    elif kind == "100_flipped_bytes":
        for _ in range(100):
            at = rnd.randrange(len(out))
            out[at] ^= 1 << rnd.randrange(8)
    elif kind == "truncated_to_half":
        del out[len(out) // 2:]
    else:
        raise ValueError(kind)
    return bytes(out)


def _serial(value) -> tuple[int, bytes]:
    if value is None:
        return 0, b""
    if isinstance(value, int):
        if value in (0, 1):
            return 8 + value, b""
        for serial, size in ((1, 1), (2, 2), (3, 3), (4, 4), (5, 6), (6, 8)):
            if -(1 << (8 * size - 1)) <= value < 1 << (8 * size - 1):
                return serial, value.to_bytes(size, "big", signed=True)
    if isinstance(value, float):
        return 7, struct.pack(">d", value)
    raw = value.encode("utf-8")
    return 13 + 2 * len(raw), raw


def record_bytes(values: tuple) -> bytes:
    """A row as SQLite writes it in a table page: the record header, then the values."""
    serials, body = zip(*(_serial(v) for v in values))
    types = b"".join(_varint_bytes(s) for s in serials)
    size = len(types) + 1
    if size >= 0x80:
        size = len(types) + 2
    return _varint_bytes(size) + types + b"".join(body)


def intact(rows: list[tuple], files: list[bytes]) -> set[str]:
    """The client ids of the actions whose whole row is still in one of ``files``."""
    return {row[4] for row in rows if any(record_bytes(row) in data for data in files)}

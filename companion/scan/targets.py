"""Which printed marker names which component, and where it sits on the face.

Everything comes from ``cards/`` (the entries' ``marker``, names, sizes) and from
``cards.markers.PLACES`` (where each kind of face carries its marker), so the scanner and the
print kit cannot disagree.

>>> from ludoteca.cards import load
>>> t = targets(load(games=("ciudadelas",))["ciudadelas"])
>>> t[0].kind, t[0].id, t[0].size_mm
('district', 'manor', (63.0, 88.0))
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ludoteca.cards import markers

if TYPE_CHECKING:
    from ludoteca.cards import Game

CARD = (63.0, 88.0)

#: points of a round component's outline
CIRCLE_POINTS = 24


@dataclass(frozen=True)
class Target:
    """One kind of marked component: what it is and the geometry of its face."""

    marker: int
    kind: str                      # kind in cards/ ("district", "building", "counter", "token")
    id: str                        # entry id
    name: dict                     # {es, en}
    face: str                      # key of cards.markers.PLACES
    size_mm: tuple[float, float]   # the face's trim
    round: bool                    # a disc (its outline is a circle)
    entry: Any = None              # the data entry

    @property
    def place(self) -> tuple[float, float, float]:
        """(x, y, side) of the marker's black square on the face, mm."""
        return markers.place(self.face, *self.size_mm)

    @property
    def places(self) -> list[tuple[float, float, float, int]]:
        """Every printed copy of the marker: (x, y, side, turn), mm and degrees."""
        return markers.places(self.face, *self.size_mm)

    def outline_mm(self) -> list[tuple[float, float]]:
        """The face's outline on the face, mm: its four corners, or CIRCLE_POINTS round a disc."""
        import math
        w, h = self.size_mm
        if not self.round:
            return [(0.0, 0.0), (w, 0.0), (w, h), (0.0, h)]
        steps = [2 * math.pi * i / CIRCLE_POINTS for i in range(CIRCLE_POINTS)]
        return [(w / 2 + w / 2 * math.cos(t), h / 2 + h / 2 * math.sin(t)) for t in steps]


def _face_of(game: Game, kind: str, entry: dict) -> tuple[str, tuple[float, float], bool]:
    if game.id == "ciudadelas":
        return "ciudadelas/district", CARD, False
    if game.id == "el_mapa" and kind == "building":
        side = float(game.meta["print"]["building_tile_mm"])
        return "el_mapa/building", (side, side), False
    if game.id == "el_mapa":
        side = float(entry["size_mm"])
        return "el_mapa/counter", (side, side), entry.get("shape") == "round"
    if kind == "building":
        return "gladiadores/building", CARD, False
    side = float(entry["size_mm"])
    return "gladiadores/token", (side, side), entry.get("shape") == "disc"


def targets(game: Game) -> dict[int, Target]:
    """Every marked entry of a game, by marker number."""
    out: dict[int, Target] = {}
    for kind in game.kinds:
        if game.schema["kinds"][kind].get("single"):
            continue
        for entry in game.entries(kind):
            number = entry.get("marker")
            if number is None:
                continue
            face, size, rnd = _face_of(game, kind, entry)
            out[int(number)] = Target(int(number), kind, entry["id"], dict(entry["name"]), face, size, rnd, entry)
    return out


def game_targets(game_id: str, cards_dir: str | None = None) -> dict[int, Target]:
    """:func:`targets` of one game of the data in ``cards_dir`` (the shipped data by default),
    kept in a per-user cache file named by a digest of the game's data files and of the code that
    reads them: while none changes, a scan starts without the YAML reader and the data checker
    (a fifth of its CPU).  Data with problems is never cached: it is read, and its
    ``DataError`` raised, every time."""
    import json

    from ludoteca.atomic import cache_dir

    key = _digest(game_id, cards_dir)
    folder = cache_dir("scan-targets") if key else None
    path = folder / f"{game_id}-{key}.json" if folder else None
    if path is not None:
        try:
            return _from_json(json.loads(path.read_text(encoding="utf-8")))
        except (OSError, ValueError, KeyError, TypeError):
            pass
    from ludoteca.cards import load
    table = targets(load(cards_dir, games=(game_id,))[game_id])
    if path is not None:
        text = json.dumps([[t.marker, t.kind, t.id, t.name, t.face, t.size_mm, t.round, t.entry]
                           for t in table.values()], ensure_ascii=False)
        if _from_json(json.loads(text)) == table:      # entries JSON keeps as they are
            from ludoteca.atomic import write_text
            try:
                write_text(path, text)
                _prune(path.parent, game_id)
            except OSError:
                pass
    return table


#: the most cached tables kept per game (one per version of the data or of the code in use)
KEEP = 8


def _prune(folder: Path, game_id: str) -> None:
    """Remove all but the :data:`KEEP` newest cached tables of a game."""
    old = sorted(folder.glob(f"{game_id}-*.json"), key=lambda p: p.stat().st_mtime_ns, reverse=True)[KEEP:]
    for path in old:
        path.unlink(missing_ok=True)


def _from_json(rows: list) -> dict[int, Target]:
    return {int(m): Target(int(m), k, i, dict(n), f, (float(s[0]), float(s[1])), bool(r), e)
            for m, k, i, n, f, s, r, e in rows}


def _digest(game_id: str, cards_dir: str | None) -> str | None:
    """A digest of every file in the game's data folder and of the modules that read it and make
    the table (``ludoteca.cards``' and this one), or None when one cannot be read: two checksums
    and the length (a check against edits, not against forgery: hashlib would load OpenSSL, a
    tenth of the scanner's own start-up)."""
    import zlib

    import ludoteca.cards

    code = Path(ludoteca.cards.__file__).parent
    data = (Path(cards_dir) if cards_dir is not None else code) / game_id
    crc, adler, size = 0, 1, 0
    try:
        files = sorted(p for p in data.iterdir() if p.is_file())
        for path in [*files, *sorted(code.glob("*.py")), Path(__file__)]:
            body = path.read_bytes()
            body = f"{path.name}\0{len(body)}\0".encode() + body
            crc, adler, size = zlib.crc32(body, crc), zlib.adler32(body, adler), size + len(body)
    except OSError:
        return None
    return f"{crc:08x}{adler:08x}{size:x}"


@dataclass
class Found:
    """One recognised component: its marker, what it is, and where (image pixels of the photo).

    ``copies`` is how many printed copies of its marker were read (a card or tile carries two, in
    opposite corners: both read is a sure reading, one a likely one); ``printed`` how many it has.
    """

    target: Target
    corners: list[tuple[float, float]]          # the marker's black square, clockwise from its top-left
    outline: list[tuple[float, float]] = field(default_factory=list)   # the whole face
    copies: int = 1
    printed: int = 1
    seen: list[list[tuple[float, float]]] = field(default_factory=list)   # every copy read, corners

    def __post_init__(self) -> None:
        if not self.seen and self.corners:
            self.seen = [list(self.corners)]

    @property
    def marker(self) -> int:
        return self.target.marker

    @property
    def centre(self) -> tuple[float, float]:
        xs = [p[0] for p in self.outline or self.corners]
        ys = [p[1] for p in self.outline or self.corners]
        return sum(xs) / len(xs), sum(ys) / len(ys)

    @property
    def sure(self) -> bool:
        """Every printed copy of the marker was read (a component added by hand is sure too)."""
        return self.copies >= self.printed

    def as_json(self) -> dict[str, Any]:
        return {"marker": self.marker, "kind": self.target.kind, "id": self.target.id,
                "name": self.target.name, "markers_read": self.copies, "markers_printed": self.printed,
                "sure": self.sure,
                "corners": [[round(x, 1), round(y, 1)] for x, y in self.corners],
                "markers": [[[round(x, 1), round(y, 1)] for x, y in quad] for quad in self.seen],
                "outline": [[round(x, 1), round(y, 1)] for x, y in self.outline]}

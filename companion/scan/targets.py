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

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ludoteca.cards import markers

if TYPE_CHECKING:
    from ludoteca.cards import Game

CARD = (63.0, 88.0)


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

"""Reviewing what the photos show before scoring (the app's scan screen, without Kivy).

Per player: the components found in their photos, which of them a tap has struck out (a marker
read on a piece that is not theirs), and the ones added by hand (a piece whose marker was hidden).
:meth:`Review.record` writes the photographed fields over an end-of-game record (the app's own,
which has everything else: gold, revealed tiles, the target...), ready for ``score_record``.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any
from collections.abc import Mapping

from ludoteca.cards import Game, fold

from .detect import Found
from .tally import player_fields
from .targets import Target


@dataclass
class PlayerScan:
    """One player's photo and what it shows."""

    photo: str = ""
    found: list[Found] = field(default_factory=list)
    struck: set[int] = field(default_factory=set)      # indexes into found
    added: list[Target] = field(default_factory=list)

    def counted(self) -> list[Found]:
        """What counts: the found components not struck out, and those added by hand."""
        kept = [f for i, f in enumerate(self.found) if i not in self.struck]
        return kept + [Found(t, []) for t in self.added]


@dataclass
class Review:
    """The scan of a whole table: one :class:`PlayerScan` per photographed player."""

    game: Game
    table: Mapping[int, Target]
    players: dict[str, PlayerScan] = field(default_factory=dict)

    def scan(self, player: str) -> PlayerScan:
        return self.players.setdefault(player, PlayerScan())

    def toggle_at(self, player: str, x: float, y: float) -> int | None:
        """Strike out (or back in) the component whose outline holds the photo point x, y;
        the index of that component, or None when the point is on none of them."""
        import numpy as np

        from . import require_cv2
        cv2 = require_cv2()
        scan = self.scan(player)
        hits = [i for i, f in enumerate(scan.found)
                if f.outline and cv2.pointPolygonTest(np.float32(f.outline), (float(x), float(y)), False) >= 0]
        if not hits:
            return None
        # the piece on top: the one whose marker is nearest the point
        index = min(hits, key=lambda i: sum((a - b) ** 2 for a, b in zip(scan.found[i].corners[0], (x, y))))
        self.toggle(player, index)
        return index

    def toggle(self, player: str, index: int) -> None:
        scan = self.scan(player)
        scan.struck ^= {index}

    def add(self, player: str, marker: int) -> None:
        self.scan(player).added.append(self.table[marker])

    def record(self, base: Mapping[str, Any]) -> dict:
        """``base`` (a whole end-of-game record) with each photographed player's fields replaced
        by what their photo shows; the other players are left as they are."""
        record = copy.deepcopy(dict(base))
        players = record.get("players") or []
        for name, scan in self.players.items():
            if not scan.photo:
                continue
            fields = player_fields(self.game, scan.counted())
            for p in players:
                if isinstance(p, dict) and fold(str(p.get("name", ""))) == fold(name):
                    if self.game.id == "el_mapa":          # counters: what is not on the table is 0
                        p.pop("resources", None)
                        p.pop("defeated", None)
                    p.update(fields)
        return record

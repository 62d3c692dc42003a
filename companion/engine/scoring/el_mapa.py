"""El Mapa end-of-game scoring: buildings, wonders, battles and revealed tiles.

From ``cards/el_mapa``: each building's ``level`` and ``extra_points``; a wonder's
``wonder_points`` (``points`` per unit of its ``resource``, or per trained troop); each troop's
``points`` for a defeated unit; and the game record's ``scoring`` (``per_revealed_tile`` and the
names of the rules applied, which this module checks it knows).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Sequence

from ludoteca.cards import Game

from .ranking import Result, Text, rank_players
from .records import Reader, RecordError, RecordProblem, line_of

LABELS: dict[str, Text] = {
    "buildings": {"es": "Edificios", "en": "Buildings"},
    "wonders": {"es": "Maravillas", "en": "Wonders"},
    "battles": {"es": "Batallas", "en": "Battles"},
    "tiles": {"es": "Losetas reveladas", "en": "Revealed tiles"},
}
#: The scoring rules of game.yaml this module applies: field -> the value it implements.
KNOWN_RULES = {"building": "level_plus_extra_points", "per_defeated_unit": "troop_points",
               "wonder_bonus": "per_unit_of_wonder_resource"}
PLAYER_FIELDS = ("name", "buildings", "tiles_revealed", "defeated", "resources", "trained_troops")
RECORD_FIELDS = ("game", "players")


@dataclass(frozen=True)
class RealmEnd:
    """One player's position at the end (ids as in the data)."""

    name: str
    buildings: tuple[str, ...] = ()
    tiles_revealed: int = 0
    defeated: dict[str, int] = field(default_factory=dict)
    resources: dict[str, int] = field(default_factory=dict)
    trained_troops: int = 0


def check_rules(game: Game, path: str = "<record>") -> dict:
    """The game's scoring rules, refusing any this module does not implement."""
    rules = game.meta.get("scoring") or {}
    bad = [RecordProblem(path, None, "game", f"cards/el_mapa game.yaml scoring.{k} is '{rules.get(k)}'; "
                                             f"this version scores only '{v}'")
           for k, v in KNOWN_RULES.items() if rules.get(k, v) != v]
    if bad:
        raise RecordError(bad)
    return rules


def wonder_bonus(building: dict, player: RealmEnd) -> int:
    """A wonder's points per unit of its resource (or per trained troop)."""
    spec = building.get("wonder_points")
    if not spec:
        return 0
    if spec["per"] == "trained_troop":
        return spec["points"] * player.trained_troops
    return spec["points"] * player.resources.get(spec.get("resource"), 0)


def score(players: Sequence[RealmEnd], game: Game) -> Result:
    """Score a finished game of El Mapa; players keep their order."""
    rules = check_rules(game)
    per_tile = rules.get("per_revealed_tile", 1)
    breakdowns: list[dict[str, int]] = []
    for p in players:
        built = [game.get("building", b) for b in p.buildings]
        breakdowns.append({
            "buildings": sum(b["level"] + b.get("extra_points", 0) for b in built),
            "wonders": sum(wonder_bonus(b, p) for b in built),
            "battles": sum(game.get("troop", t)["points"] * n for t, n in p.defeated.items()),
            "tiles": per_tile * p.tiles_revealed,
        })

    return rank_players([p.name for p in players], breakdowns, game.id, LABELS)


def _named_counts(reader: Reader, game: Game, kind: str, player: dict, key: str, prefix: str) -> dict[str, int]:
    counts = reader.counts_map(player, key, prefix)
    out: dict[str, int] = {}
    if not counts:
        return out
    mapping = player[key]
    for name, number in counts.items():
        entry = reader.card(game, kind, name, f"{prefix}.{key}.{name}", line_of(mapping, name))
        if entry is not None:
            out[entry["id"]] = out.get(entry["id"], 0) + number
    return out


def from_record(record: dict, game: Game, reader: Reader) -> list[RealmEnd]:
    """Check an El Mapa record; return the players."""
    reader.keys(record, "", RECORD_FIELDS)
    out: list[RealmEnd] = []
    shared: dict[str, str] = {}
    for index, player in reader.players(record, game, PLAYER_FIELDS):
        prefix = f"players[{index}]"
        items = reader.items(player, "buildings", prefix) or []
        ids: list[str] = []
        for j, name in enumerate(items):
            where = f"{prefix}.buildings[{j}]"
            entry = reader.card(game, "building", name, where, line_of(items, j))
            if entry is None:
                continue
            if entry.get("scope") == "shared":
                if entry["id"] in shared:
                    reader.bad(line_of(items, j), where, f"'{name}' is a single building shared by the "
                               f"whole table, already listed at {shared[entry['id']]}")
                shared.setdefault(entry["id"], where)
            ids.append(entry["id"])
        tiles = reader.count(player, "tiles_revealed", prefix)
        trained = reader.count(player, "trained_troops", prefix)
        defeated = _named_counts(reader, game, "troop", player, "defeated", prefix)
        resources = _named_counts(reader, game, "resource", player, "resources", prefix)
        if isinstance(player.get("name"), str):
            out.append(RealmEnd(player["name"].strip(), tuple(ids), tiles or 0, defeated, resources,
                                trained or 0))
    return out


def score_record(record: dict, game: Game, reader: Reader) -> Result:
    """Check a record and score it (raises :class:`RecordError` listing every problem)."""
    players = from_record(record, game, reader)
    reader.raise_if_bad()
    return score(players, game)

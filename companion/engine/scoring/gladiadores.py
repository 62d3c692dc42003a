"""Gladiadores end-of-game scoring: points for combats won plus the victory points of buildings.

From ``cards/gladiadores``: ``combat.points.attacker_wins`` (points per combat started and won),
``combat.points.defender_wins`` (per combat won in defence; a record may leave ``defence_wins`` out),
each building's ``points``, ``target_points.standard`` (when the record gives no ``target``),
``limits.max_buildings`` and ``limits.unique_building_names``.  The winner is whoever reached the
target; the data has no tie rule (only the active player scores, so two players cannot reach the
target together), so if a record shows several, the one with more points wins and equal points share.
"""

from __future__ import annotations

from dataclasses import dataclass
from collections.abc import Sequence

from ludoteca.cards import Game

from .ranking import Result, Text, rank_players
from .records import Reader, finish, line_of

LABELS: dict[str, Text] = {
    "combat": {"es": "Combates ganados", "en": "Combats won"},
    "buildings": {"es": "Edificios", "en": "Buildings"},
}
PLAYER_FIELDS = ("name", "combat_wins", "defence_wins", "buildings", "coins", "gladiators")
RECORD_FIELDS = ("game", "target", "expansion", "players")


@dataclass(frozen=True)
class LudusEnd:
    """One player's position at the end: combats started and won, building ids, combats won in
    defence (coins and gladiators are checked in a record but score nothing)."""

    name: str
    combat_wins: int
    buildings: tuple[str, ...] = ()
    defence_wins: int = 0


def default_target(game: Game) -> int:
    """The data's standard target (``target_points.standard``), used when a record gives none."""
    return game.meta["target_points"]["standard"]


def breakdown(player: LudusEnd, game: Game) -> dict[str, int]:
    """One player's points by line: combats won (as attacker and as defender) and buildings.  The
    engine's live score is this too, over the state of a game being played."""
    per_win = game.meta["combat"]["points"]
    return {"combat": player.combat_wins * per_win["attacker_wins"] + player.defence_wins * per_win["defender_wins"],
            "buildings": sum(game.get("building", b)["points"] for b in player.buildings)}


def score(players: Sequence[LudusEnd], game: Game, target: int | None = None) -> Result:
    """Score a finished game of Gladiadores; players keep their order."""
    goal = default_target(game) if target is None else target
    breakdowns = [breakdown(p, game) for p in players]
    totals = [sum(b.values()) for b in breakdowns]
    at_goal = [i for i, t in enumerate(totals) if t >= goal]
    reached = [players[i].name for i in at_goal]
    notes: list[Text] = []
    if not reached:
        notes.append({"es": f"Nadie llegó al objetivo de {goal} puntos: no hay ganador",
                      "en": f"Nobody reached the target of {goal} points: no winner"})
    elif len(reached) > 1:
        notes.append({"es": f"Varios llegaron al objetivo de {goal} ({', '.join(reached)}); los datos no "
                            "tienen regla de empate (solo puntúa el jugador activo): gana quien tiene más puntos",
                      "en": f"Several reached the target of {goal} ({', '.join(reached)}); the data has no "
                            "tie rule (only the active player scores): the one with more points wins"})

    return rank_players([p.name for p in players], breakdowns, game.id, LABELS, notes=notes,
                        winners_filter=lambda i: i in at_goal)


def from_record(record: dict, game: Game, reader: Reader) -> tuple[list[LudusEnd], int | None]:
    """Check a Gladiadores record; return the players and the target."""
    reader.keys(record, "", RECORD_FIELDS)
    target = reader.count(record, "target", "", default=default_target(game))
    if target == 0:
        reader.bad(line_of(record, "target"), "target", "expected a target of at least 1 point, got 0")
    expansion = reader.flag(record, "expansion", "", False)
    limits = game.meta.get("limits", {})
    out: list[LudusEnd] = []
    for index, player in reader.players(record, game, PLAYER_FIELDS, max_key="expansion_max" if expansion else "max"):
        prefix = f"players[{index}]"
        wins = reader.count(player, "combat_wins", prefix, default=None)
        defences = reader.count(player, "defence_wins", prefix)
        reader.count(player, "coins", prefix)
        reader.count(player, "gladiators", prefix)
        items = reader.items(player, "buildings", prefix, required=False) or []
        ids: list[str] = []
        first_at: dict[str, int] = {}
        for j, name in enumerate(items):
            where = f"{prefix}.buildings[{j}]"
            entry = reader.card(game, "building", name, where, line_of(items, j))
            if entry is None:
                continue
            if limits.get("unique_building_names") and entry["id"] in first_at:
                reader.bad(line_of(items, j), where, f"duplicate building '{name}' (already at "
                           f"buildings[{first_at[entry['id']]}]); a player may not hold two of the same")
            first_at.setdefault(entry["id"], j)
            ids.append(entry["id"])
        most = limits.get("max_buildings")
        if most is not None and len(items) > most:
            reader.bad(line_of(player, "buildings"), f"{prefix}.buildings",
                       f"at most {most} buildings, got {len(items)}")
        if wins is not None and defences is not None and isinstance(player.get("name"), str):
            out.append(LudusEnd(player["name"].strip(), wins, tuple(ids), defences))
    return out, target


def player_count_row(game: Game, count: int) -> dict | None:
    """The row of ``player_counts`` in ``game.yaml`` for ``count`` players (the symbols of the
    buildings in play, the starting buildings), or None when the data has none for that count."""
    return next((r for r in game.meta["player_counts"] if r["players"] == count), None)


def pool_symbols(game: Game, count: int) -> tuple[str, ...] | None:
    """The player-count symbols of the buildings a game of ``count`` players uses (3 players add the
    III buildings to those without a symbol), or None when the data has no row for that count."""
    row = player_count_row(game, count)
    return None if row is None else tuple(row["symbols"])


def check_physical(record: dict, game: Game, reader: Reader, players: Sequence[LudusEnd]) -> None:
    """What the box allows: only the buildings of the player count, none in more hands than it has
    copies."""
    seed = {rule: entry["seed_line"] for rule, entry in game.meta["physical"].items() if rule != "note"}
    symbols = pool_symbols(game, len(players))
    seen: dict[str, list[str]] = {}
    for index, player in enumerate(players):
        items = record["players"][index].get("buildings")
        for j, building in enumerate(player.buildings):
            where = f"players[{index}].buildings[{j}]"
            seen.setdefault(building, []).append(where)
            entry = game.get("building", building)
            if symbols is not None and entry["symbol"] not in symbols:
                first = min(r["players"] for r in game.meta["player_counts"] if entry["symbol"] in r["symbols"])
                used = " and ".join("no symbol" if s == "none" else s.upper() for s in symbols)
                reader.bad(line_of(items, j), where,
                           f"{_shown(entry)} (symbol {entry['symbol'].upper()}) is only in games of {first} "
                           f"or more players, and this one has {len(players)} (buildings with {used}); "
                           f"seed {seed['player_count_buildings']}",
                           plain={lang: (f"{_plain(entry, lang)} solo va en partidas de {first} o más jugadores: "
                                         "se cuenta tal como se jugó en la mesa." if lang == "es" else
                                         f"{_plain(entry, lang)} is only in games of {first} or more players: "
                                         "counted as played at the table.") for lang in ("es", "en")})
            copies = entry["copies"]
            if len(seen[building]) == copies + 1:
                reader.bad(line_of(items, j), where,
                           f"{_shown(entry)} is held {copies + 1} times or more ({', '.join(seen[building][:copies])}, "
                           f"{where}), and the game has {copies}; seed {seed['building_copies']}",
                           plain={"es": f"Más copias de {_plain(entry, 'es')} en los ludus que las {copies} del "
                                        "juego: se cuenta tal como se jugó en la mesa.",
                                  "en": f"More copies of {_plain(entry, 'en')} in the ludi than the game's {copies}: "
                                        "counted as played at the table."})


def _plain(entry: dict, lang: str) -> str:
    """A building's name in one language."""
    name = entry["name"]
    return str(name.get(lang) or name.get("es")) if isinstance(name, dict) else str(name)


def _shown(entry: dict) -> str:
    """A building as the physical checks name it: 'Spanish / English'."""
    name = entry["name"]
    return f"'{name['es']} / {name['en']}'" if isinstance(name, dict) else f"'{name}'"


def score_record(record: dict, game: Game, reader: Reader, lenient: bool = False) -> Result:
    """Check a record and score it (raises :class:`RecordError` listing every problem).

    ``lenient`` scores a state the box does not allow (a house rule) and says so in the notes.
    """
    players, target = from_record(record, game, reader)
    reader.raise_if_bad()
    physical = Reader(reader.path)
    check_physical(record, game, physical, players)
    return finish(score(players, game, target), physical, reader, lenient)

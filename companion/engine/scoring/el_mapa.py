"""El Mapa end-of-game scoring: buildings, wonders, battles and revealed tiles.

From ``cards/el_mapa``: each building's ``level`` and ``extra_points``; a wonder's
``wonder_points`` (``points`` per unit of its ``resource``, or per trained troop); each troop's
``points`` for a defeated unit; and the game record's ``scoring`` (``per_revealed_tile`` and the
names of the rules applied, which this module checks it knows).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from itertools import combinations
from collections.abc import Mapping, Sequence

from ludoteca.cards import Game

from .ranking import Result, Text, rank_players
from .records import Reader, RecordError, RecordProblem, finish, line_of

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
RECORD_FIELDS = ("game", "variants", "players")
#: Steps the castle search of one record may take (about 0.2 ms each): far above what a real end of
#: game needs (a few dozen), so that a record of hundreds of buildings is refused in well under 2 s.
SEARCH_BUDGET = 3_000


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


def battle_points(defeated: Mapping[str, int], game: Game) -> int:
    """What won battles are worth: each defeated troop's ``points``."""
    return sum(game.get("troop", t)["points"] * n for t, n in defeated.items())


def breakdown(player: RealmEnd, game: Game) -> dict[str, int]:
    """One player's points by line: buildings, wonders, battles and revealed tiles.  The engine's
    live score is this too, over the state of a game being played."""
    per_tile = check_rules(game).get("per_revealed_tile", 1)
    built = [game.get("building", b) for b in player.buildings]
    return {"buildings": sum(b["level"] + b.get("extra_points", 0) for b in built),
            "wonders": sum(wonder_bonus(b, player) for b in built),
            "battles": battle_points(player.defeated, game),
            "tiles": per_tile * player.tiles_revealed}


def score(players: Sequence[RealmEnd], game: Game) -> Result:
    """Score a finished game of El Mapa; players keep their order."""
    check_rules(game)
    return rank_players([p.name for p in players], [breakdown(p, game) for p in players], game.id, LABELS)


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
                    seed = game.meta.get("physical", {}).get("shared_buildings", {}).get("seed_line", "")
                    reader.bad(line_of(items, j), where, f"'{name}' is a single building shared by the "
                               f"whole table, already listed at {shared[entry['id']]}; seed {seed}")
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


def castle_board(game: Game) -> dict:
    """The board that holds buildings (the one with ``slots``): its copies and its slots."""
    return next(b for b in game.entries("board") if b.get("slots"))


@lru_cache(maxsize=8)
def _shapes(slots: tuple[tuple[str, int, tuple[str, ...]], ...]) -> frozenset[tuple[int, ...]]:
    """Every count of buildings by level (levels 1..4) that one castle can hold.

    A set of filled slots is possible when every filled slot's ``rests_on`` slots are filled; a
    building goes in a slot of its level or higher, so buildings fit filled slots when, for each
    level, the buildings of that level or higher are no more than the slots of that level or higher
    (and the numbers match).
    """
    top = max(level for _, level, _ in slots)
    out: set[tuple[int, ...]] = set()
    names = [s[0] for s in slots]
    for size in range(1, len(slots) + 1):
        for chosen in combinations(range(len(slots)), size):
            filled = {names[i] for i in chosen}
            if not all(set(slots[i][2]) <= filled for i in chosen):
                continue
            have = [sum(1 for i in chosen if slots[i][1] == lv) for lv in range(1, top + 1)]
            out |= {b for b in _splits(size, top) if all(
                sum(b[lv:]) <= sum(have[lv:]) for lv in range(top))}
    return frozenset(out)


def _splits(total: int, parts: int) -> list[tuple[int, ...]]:
    if parts == 1:
        return [(total,)]
    return [(k, *rest) for k in range(total + 1) for rest in _splits(total - k, parts - 1)]


def castles_needed(levels: dict[str, int], counts: dict[str, int], shapes: frozenset,
                   top: int, most: int, budget: int = SEARCH_BUDGET) -> int | None:
    """The fewest castles that hold these buildings (``counts`` by id, ``levels`` by id), each
    castle holding at most one of each building and a shape from ``shapes``; ``None`` if more than
    ``most`` would be needed.  Raises ``TimeoutError`` past ``budget`` steps.

    Castles are filled one after the other, largest shapes first and in order (castles are alike,
    so only one order of the same shapes is tried); a castle that takes *k* buildings of a level
    takes one each of the *k* ids with the most copies left, which loses nothing (Gale and Ryser:
    a bipartite degree sequence is realised greedily, largest first).  A count of castles below
    what the most crowded level needs is never tried.
    """
    ordered = sorted(shapes, key=lambda sh: (-sum(sh), sh), reverse=False)
    room = [max(sum(sh[lv:]) for sh in shapes) for lv in range(top)]  # most of level >= lv+1 per castle
    state0 = tuple(tuple(sorted((counts[i] for i in counts if levels[i] == lv), reverse=True))
                   for lv in range(1, top + 1))
    steps = [0]
    memo: dict = {}

    def lower_bound(state: tuple) -> int:
        above = [sum(sum(level) for level in state[lv:]) for lv in range(top)]
        widest = max((level[0] for level in state if level), default=0)
        return max([widest] + [-(-above[lv] // room[lv]) for lv in range(top) if room[lv]])

    def fits(state: tuple, left: int, start: int) -> bool:
        if not any(any(level) for level in state):
            return True
        if lower_bound(state) > left:
            return False
        key = (state, left, start)
        if key in memo:
            return memo[key]
        steps[0] += 1
        if steps[0] > budget:
            raise TimeoutError
        found = False
        for index in range(start, len(ordered)):
            shape = ordered[index]
            if any(shape[lv] > len(state[lv]) for lv in range(top)):  # levels hold no zero counts
                continue
            after = tuple(tuple(sorted([c - 1 for c in level[:k]] + list(level[k:]), reverse=True))
                          for level, k in zip(state, shape))
            after = tuple(tuple(c for c in level if c) for level in after)
            if fits(after, left - 1, index):
                found = True
                break
        memo[key] = found
        return found

    state0 = tuple(tuple(c for c in level if c) for level in state0)
    for castles in range(max(1, lower_bound(state0)), most + 1):
        if fits(state0, castles, 0):
            return castles
    return None


def missing_under(game: Game, buildings: list[str], players: int, most_added: int = 4) -> dict[int, int] | None:
    """The fewest buildings, by level, that one player's ``buildings`` (ids) lack to stand by the
    support rule in the castles they may have (the game's boards less one per other player):
    ``{}`` when they stand as they are, ``{1: 2}`` when two level-1 buildings are missing, and
    ``None`` when adding up to ``most_added`` lower buildings does not make them stand.

    What a photo misses is most likely a building under another (hidden by it, or not read): this
    names how many of which level, for the scanner to say instead of refusing the record.
    """
    board = castle_board(game)
    slots = tuple((s["id"], s["level"], tuple(s.get("rests_on", []))) for s in board["slots"])
    shapes = _shapes(slots)
    top = max(level for _, level, _ in slots)
    levels = {e["id"]: e["level"] for e in game.entries("building")}
    most = max(board["copies"] - (players - 1), 1)
    by_level: dict[int, list[str]] = {}
    for entry in game.entries("building"):
        if not entry.get("variant") and entry.get("scope") != "shared":
            by_level.setdefault(entry["level"], []).append(entry["id"])
    counts: dict[str, int] = {}
    for bid in buildings:
        counts[bid] = counts.get(bid, 0) + 1

    def stands(extra: tuple[int, ...]) -> bool:
        trial = dict(counts)
        for lv, k in enumerate(extra, start=1):
            # each added building of a level is one of that level's kinds the player has fewest of
            for _ in range(k):
                bid = min(by_level.get(lv, []), key=lambda b: (trial.get(b, 0), b))
                trial[bid] = trial.get(bid, 0) + 1
        try:
            return castles_needed({b: levels[b] for b in trial}, trial, shapes, top, most) is not None
        except TimeoutError:
            return False

    if not counts:
        return {}
    for added in range(most_added + 1):
        for extra in sorted(_splits(added, top - 1), key=lambda e: tuple(-x for x in e)):
            if stands(extra):
                return {lv: k for lv, k in enumerate(extra, start=1) if k}
    return None


def check_physical(record: dict, game: Game, reader: Reader, castle_ids: list[list[tuple[str, int | None]]],
                   tiles: list[tuple[int, int | None]], enabled: set[str]) -> None:
    """What the box allows: the support rule, building and board copies, tiles, variants.

    ``castle_ids`` holds, per player, the (building id, line) of each building listed.
    """
    seed = {rule: entry["seed_line"] for rule, entry in game.meta["physical"].items() if rule != "note"}
    board = castle_board(game)
    boards = board["copies"]
    slots = tuple((s["id"], s["level"], tuple(s.get("rests_on", []))) for s in board["slots"])
    shapes = _shapes(slots)
    top = max(level for _, level, _ in slots)
    below = {s[0]: s for s in slots}

    def under(slot: str) -> int:
        seen: set[str] = set()
        todo = list(below[slot][2])
        while todo:
            name = todo.pop()
            if name not in seen:
                seen.add(name)
                todo.extend(below[name][2])
        return len(seen)

    needs_under = {lv: min(under(s[0]) for s in slots if s[1] == lv) for lv in range(1, top + 1)}
    players = record["players"] if isinstance(record.get("players"), list) else []
    total_castles = 0
    table: dict[str, int] = {}
    for index, listed in enumerate(castle_ids):
        prefix = f"players[{index}]"
        line = line_of(players[index], "buildings") if index < len(players) else None
        for bid, where in listed:
            entry = game.get("building", bid)
            variant = entry.get("variant")
            if variant and variant not in enabled:
                vname = game.get("variant", variant)["name"]
                reader.bad(where, f"{prefix}.buildings", f"'{entry['name']['es']}' belongs to the variant "
                           f"'{vname['es']} / {vname['en']}', which the record does not enable (add "
                           f"'variants: [{variant}]'); seed {seed['variant_buildings']}")
        counts: dict[str, int] = {}
        for bid, _ in listed:
            counts[bid] = counts.get(bid, 0) + 1
            table[bid] = table.get(bid, 0) + 1
        if not counts:
            total_castles += 1
            continue
        levels = {bid: game.get("building", bid)["level"] for bid in counts}
        most = boards - (len(castle_ids) - 1)
        try:
            need = castles_needed(levels, counts, shapes, top, max(most, 0),
                                  SEARCH_BUDGET // max(len(castle_ids), 1))
        except TimeoutError:
            reader.bad(line, f"{prefix}.buildings",
                       f"{sum(counts.values())} buildings: too many to check against the support rule "
                       f"(the search gives up after {SEARCH_BUDGET // max(len(castle_ids), 1)} steps; "
                       f"--lenient scores it anyway); seed {seed['support']}")
            continue
        if need is None:
            high = max(counts, key=lambda b: levels[b])
            name = game.get("building", high)["name"]["es"]
            reader.bad(line, f"{prefix}.buildings",
                       f"these buildings cannot be placed in the player's castles (at most {max(most, 1)}): "
                       f"a building of level 2 or more goes on the two slots below it, both filled (a level-"
                       f"{levels[high]} building such as '{name}' needs {needs_under[levels[high]]} under it "
                       f"in its castle), one of each building per castle; seed {seed['support']}")
            continue
        total_castles += need
    if total_castles > boards:
        reader.bad(line_of(record, "players"), "players", f"the buildings listed need {total_castles} castles, "
                   f"and the game has {boards} castle boards; seed {seed['castle_boards']}")
    for bid, n in table.items():
        entry = game.get("building", bid)
        copies = 1 if entry.get("scope") == "shared" else boards
        if n > copies and entry.get("scope") != "shared":  # a shared one listed twice is reported where read
            reader.bad(line_of(record, "players"), "players",
                       f"{n} x '{entry['name']['es']}' listed, and the game has {copies} (one per castle board); "
                       f"seed {seed['castle_boards']}")
    exist = game.pieces("tile")
    starting = len(game.meta["starting"]["tiles"]) * len(castle_ids)
    revealed = sum(n for n, _ in tiles)
    if revealed > exist - starting:
        reader.bad(line_of(record, "players"), "players.tiles_revealed",
                   f"{revealed} tiles revealed in all, and the map has {exist} tiles of which {starting} start "
                   f"face up ({len(game.meta['starting']['tiles'])} per player): at most {exist - starting}; "
                   f"seed {seed['tiles']}")


def _variants(record: dict, game: Game, reader: Reader) -> set[str]:
    items = reader.items(record, "variants", "", required=False) or []
    out: set[str] = set()
    for j, name in enumerate(items):
        entry = reader.card(game, "variant", name, f"variants[{j}]", line_of(items, j))
        if entry is not None:
            out.add(entry["id"])
    return out


def score_record(record: dict, game: Game, reader: Reader, lenient: bool = False) -> Result:
    """Check a record and score it (raises :class:`RecordError` listing every problem).

    ``lenient`` scores a state the box does not allow (a house rule) and says so in the notes.
    """
    enabled = _variants(record, game, reader)
    players = from_record(record, game, reader)
    reader.raise_if_bad()
    items = [p.get("buildings") for p in record["players"]]
    castles = [[(b, line_of(items[i], j)) for j, b in enumerate(p.buildings)] for i, p in enumerate(players)]
    physical = Reader(reader.path)
    check_physical(record, game, physical, castles, [(p.tiles_revealed, None) for p in players], enabled)
    return finish(score(players, game), physical, reader, lenient)


"""Ciudadelas end-of-game scoring: districts, five colours, complete cities, Dark City, ties.

Every number and every card rule comes from ``cards/ciudadelas``: district ``cost`` or
``points``, the ``end_any_colour`` ability (with ``params.not_if_built_last_round``), the
Dark City ``points_per_*`` abilities (``params.per``), ``allow_duplicate``, and the
game record's ``bonuses``, ``complete_city``, ``duplicate_districts``, ``tie_break`` and
``dark_city``.  :func:`score` is a pure function over :class:`CityEnd` values; :func:`from_record`
checks a record and turns it into those values.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import product
from collections.abc import Callable, Sequence

from ludoteca.cards import Game, fold

from .ranking import Result, Text, rank_players
from .records import Reader, finish, line_of

ANY_COLOUR = "end_any_colour"      # ability: one colour of the owner's choice for the bonus
DUPLICATE = "allow_duplicate"      # ability: params.max_duplicates repeated districts allowed

#: Dark City end-of-game abilities: what each one counts for its owner (times params.per).
PER_POINT: dict[str, Callable[[CityEnd, int, list[dict]], int]] = {
    "points_per_gold": lambda p, i, city: p.gold,
    "points_per_card_in_hand": lambda p, i, city: p.hand,
    "points_per_tucked_card": lambda p, i, city: p.tucked,
    "points_per_other_purple": lambda p, i, city: sum(
        1 for j, d in enumerate(city) if j != i and d["colour"] == city[i]["colour"]),
}

#: The scoring lines, in order, and their words: the final screen's, ``ludoteca score``'s and the
#: printed score pad's rows (``generator/games/ciudadelas.py`` reads them from here).
LABELS: dict[str, Text] = {
    "districts": {"es": "Distritos", "en": "Districts"},
    "all_colours": {"es": "Cinco colores", "en": "All five colours"},
    "first_complete": {"es": "Primera ciudad completa", "en": "First complete city"},
    "complete": {"es": "Otra ciudad completa", "en": "Other complete city"},
}

TIE_RULES: dict[str, tuple[Text, Callable[[CityEnd, Game], int]]] = {
    "most_gold": ({"es": "más oro", "en": "most gold"}, lambda p, g: p.gold),
    "highest_character": ({"es": "personaje más alto", "en": "highest character"},
                          lambda p, g: max((g.get("character", c)["number"] for c in p.characters),
                                           default=0)),
}

PLAYER_FIELDS = ("name", "gold", "city", "built_last_round", "hand", "tucked", "characters")
RECORD_FIELDS = ("game", "first_complete", "dark_city", "players")


@dataclass(frozen=True)
class CityEnd:
    """One player's position at the end: district ids in the city, gold, and Dark City counts."""

    name: str
    city: tuple[str, ...]
    gold: int = 0
    built_last_round: frozenset[str] = frozenset()
    hand: int = 0
    tucked: int = 0
    characters: tuple[str, ...] = ()


def district_points(district: dict) -> int:
    """What a district is worth in its city: its printed ``points``, else its ``cost``."""
    return district.get("points", district["cost"])


def district_index(game: Game) -> dict[str, dict]:
    """Every district a city may hold, base deck and Dark City, by id."""
    out = {d["id"]: d for d in game.entries("district")}
    if "dark_district" in game.kinds:
        for d in game.entries("dark_district"):
            out.setdefault(d["id"], d)
    return out


def _params(entry: dict) -> dict:
    return entry.get("params") or {}


def colour_choice(city: Sequence[dict], built_last_round: frozenset[str],
                  colours: Sequence[str]) -> tuple[bool, dict[str, str]]:
    """Whether the city shows every colour, and the colour each any-colour district takes for it.

    A district with ``end_any_colour`` may count as one colour of the owner's choice
    (giving up its own) unless ``params.not_if_built_last_round`` and it was built in the
    last round.  The choice that gives the bonus with the fewest changes is taken.
    """
    wanted = set(colours)
    flexible = [d for d in city if ANY_COLOUR in d.get("abilities", [])
                and not (_params(d).get("not_if_built_last_round") and d["id"] in built_last_round)]
    flex_ids = {id(d) for d in flexible}
    fixed = {d["colour"] for d in city if id(d) not in flex_ids}
    options = sorted(product(colours, repeat=len(flexible)),
                     key=lambda combo: sum(c != d["colour"] for c, d in zip(combo, flexible)))
    for combo in [tuple(d["colour"] for d in flexible)] + options:
        if wanted <= fixed | set(combo):
            return True, {d["id"]: c for c, d in zip(combo, flexible) if c != d["colour"]}
    return False, {}


def _lines(p: CityEnd, game: Game, first_complete: str | None,
           cards: dict[str, dict]) -> tuple[dict[str, int], list[Text], dict[str, Text]]:
    """One player's points by line, the notes that explain them and the labels of their Dark City lines."""
    bonuses = game.meta.get("bonuses", {})
    colour_names = {c["id"]: c["name"] for c in game.entries("colour")}
    city = [cards[d] for d in p.city]
    mine: list[Text] = []
    labels: dict[str, Text] = {}
    b = {"districts": sum(district_points(d) for d in city)}
    has_all, chosen = colour_choice(city, p.built_last_round, game.ids("colour"))
    b["all_colours"] = bonuses.get("all_colours", 0) if has_all else 0
    for district_id, colour in chosen.items():
        n, c = cards[district_id]["name"], colour_names[colour]
        mine.append({"es": f"{n['es']} cuenta como {c['es'].lower()}",
                     "en": f"{n['en']} counts as {c['en'].lower()}"})
    for d in city:
        if (ANY_COLOUR in d.get("abilities", []) and _params(d).get("not_if_built_last_round")
                and d["id"] in p.built_last_round):
            mine.append({"es": f"{d['name']['es']}: construido en la última ronda, no cambia de color",
                         "en": f"{d['name']['en']}: built in the last round, keeps its own colour"})
    is_first = first_complete is not None and fold(first_complete) == fold(p.name)
    complete = not districts_short(game, len(city))
    b["first_complete"] = bonuses.get("first_complete", 0) if is_first else 0
    b["complete"] = bonuses.get("complete", 0) if complete and not is_first else 0
    for i, d in enumerate(city):
        for tag in d.get("abilities", []):
            if tag in PER_POINT:
                per = _params(d).get("per", 1)
                b[d["id"]] = b.get(d["id"], 0) + per * PER_POINT[tag](p, i, city)
                labels[d["id"]] = d["name"]
    return b, mine, labels


def breakdown(player: CityEnd, game: Game, first_complete: str | None = None) -> dict[str, int]:
    """One player's points by line (districts, colours, complete city, Dark City districts).  The
    engine's live score is this too, over the state of a game being played."""
    return _lines(player, game, first_complete, district_index(game))[0]


def score(players: Sequence[CityEnd], game: Game, first_complete: str | None = None,
          notes: Sequence[Text] = ()) -> Result:
    """Score a finished game of Ciudadelas; players keep their order."""
    meta = game.meta
    cards = district_index(game)
    labels = dict(LABELS)
    breakdowns: list[dict[str, int]] = []
    player_notes: list[list[Text]] = []
    for p in players:
        b, mine, more = _lines(p, game, first_complete, cards)
        labels.update(more)
        breakdowns.append(b)
        player_notes.append(mine)

    rule = (meta.get("tie_break") or {}).get("rule", "most_gold")
    rule_text, rule_key = TIE_RULES[rule]

    def tie_text(group: list[int]) -> Text:
        """How the data's tie rule separates a group tied on total, and who still shares."""
        names = [players[i].name for i in group]
        total = sum(breakdowns[group[0]].values())
        values = [rule_key(players[i], game) for i in group]
        shown = ", ".join(f"{n} {v}" for n, v in zip(names, values))
        if len(set(values)) == 1:
            return {"es": f"Empate a {total} entre {', '.join(names)}; {rule_text['es']} tampoco desempata "
                          f"({shown}): comparten puesto",
                    "en": f"Tie at {total} between {', '.join(names)}; {rule_text['en']} does not break it "
                          f"({shown}): they share the rank"}
        still = [", ".join(players[i].name for i in group if values[group.index(i)] == v)
                 for v in dict.fromkeys(values) if values.count(v) > 1]
        es_still = "".join(f"; {s} siguen compartiendo puesto" for s in still)
        en_still = "".join(f"; {s} still share the rank" for s in still)
        return {"es": f"Empate a {total} entre {', '.join(names)}: desempata {rule_text['es']} ({shown}){es_still}",
                "en": f"Tie at {total} between {', '.join(names)}: broken by {rule_text['en']} ({shown}){en_still}"}

    return rank_players([p.name for p in players], breakdowns, game.id, labels,
                        tie_key=lambda i: rule_key(players[i], game), tie_text=tie_text,
                        player_notes=player_notes, notes=notes)


def from_record(record: dict, game: Game, reader: Reader, short: Reader | None = None
                ) -> tuple[list[CityEnd], str | None]:
    """Check a Ciudadelas record; return the players and who completed a city first.  A city said to be
    completed first that holds too few districts is refused, or told to ``short`` when given (a
    lenient scoring counts the bonus as played, some districts missing from the record)."""
    reader.keys(record, "", RECORD_FIELDS)
    dark = reader.flag(record, "dark_city", "", bool((game.meta.get("dark_city") or {}).get("enabled")))
    kinds = city_kinds(game)
    dark_ids = {d["id"] for d in game.entries("dark_district")} if "dark_district" in game.kinds else set()
    out: list[CityEnd] = []
    for index, player in reader.players(record, game, PLAYER_FIELDS):
        prefix = f"players[{index}]"
        city, city_ok = _city(reader, game, kinds, player, prefix, dark, dark_ids)
        built_last = _built_last(reader, game, kinds, player, prefix, city)
        characters: list[str] = []
        items = reader.items(player, "characters", prefix, required=False) or []
        for j, name in enumerate(items):
            entry = reader.card(game, "character", name, f"{prefix}.characters[{j}]", line_of(items, j))
            if entry is not None:
                characters.append(entry["id"])
        gold, hand, tucked = (reader.count(player, k, prefix) for k in ("gold", "hand", "tucked"))
        if city is None or not city_ok or not isinstance(player.get("name"), str):
            continue
        out.append(CityEnd(player["name"].strip(), tuple(city), gold or 0, frozenset(built_last),
                           hand or 0, tucked or 0, tuple(characters)))
    first = _first_complete(reader, record, game, out, short)
    return out, first


def _city(reader: Reader, game: Game, kinds: tuple[str, ...], player: dict, prefix: str,
          dark: bool | None, dark_ids: set[str]) -> tuple[list[str] | None, bool]:
    """The district ids of a player's city (those that could be named) and whether all were fine."""
    items = reader.items(player, "city", prefix)
    if items is None:
        return None, False
    ids: list[str] = []
    positions: list[int] = []
    ok = True
    for j, name in enumerate(items):
        where = f"{prefix}.city[{j}]"
        entry = reader.card(game, kinds, name, where, line_of(items, j))
        if entry is None:
            ok = False
            continue
        if entry["id"] in dark_ids and not dark:
            reader.bad(line_of(items, j), where,
                       f"'{name}' is a Dark City district; add 'dark_city: true' to the record to use them")
            ok = False
        ids.append(entry["id"])
        positions.append(j)
    allowed = repeats_allowed(game, ids)
    if allowed is not None:
        cards = district_index(game)
        seen: dict[str, int] = {}
        repeats = 0
        for k, district_id in enumerate(ids):
            if district_id in seen:
                repeats += 1
                if repeats > allowed:
                    name = cards[district_id]["name"]
                    reader.bad(line_of(items, positions[k]), f"{prefix}.city[{positions[k]}]",
                               f"duplicate district '{name['es']} / {name['en']}' "
                               f"(already at city[{seen[district_id]}]); a city may not hold two of the same")
                    ok = False
            seen.setdefault(district_id, positions[k])
    return ids, ok


def repeats_allowed(game: Game, city: Sequence[str]) -> int | None:
    """How many repeated districts a city may hold (None: any, when ``duplicate_districts``): each
    ``allow_duplicate`` district in it (the Quarry) allows ``params.max_duplicates``.  The engine's
    build move asks this too, so the rule is written once."""
    if game.meta.get("duplicate_districts", False):
        return None
    cards = district_index(game)
    return sum(_params(cards[i]).get("max_duplicates", 1) for i in set(city)
               if i in cards and DUPLICATE in cards[i].get("abilities", []))


def _built_last(reader: Reader, game: Game, kinds: tuple[str, ...], player: dict, prefix: str,
                city: list[str] | None) -> set[str]:
    items = reader.items(player, "built_last_round", prefix, required=False) or []
    out: set[str] = set()
    for j, name in enumerate(items):
        where = f"{prefix}.built_last_round[{j}]"
        entry = reader.card(game, kinds, name, where, line_of(items, j))
        if entry is None:
            continue
        if city is not None and entry["id"] not in city:
            reader.bad(line_of(items, j), where, f"'{name}' is not in {prefix}.city")
        out.add(entry["id"])
    return out


def city_kinds(game: Game) -> tuple[str, ...]:
    """The kinds of card a city is built of: districts, and the Dark City's when the game has it."""
    return ("district", "dark_district") if "dark_district" in game.kinds else ("district",)


def districts_short(game: Game, built: int) -> int:
    """How many districts a city of ``built`` lacks to be complete (0 when it is)."""
    return max(0, int(game.meta["complete_city"]) - built)


def _first_complete(reader: Reader, record: dict, game: Game, players: list[CityEnd],
                    short: Reader | None = None) -> str | None:
    complete_at = game.meta["complete_city"]
    if "first_complete" not in record:
        complete = [p.name for p in players if not districts_short(game, len(p.city))]
        if len(complete) > 1:
            reader.bad(line_of(record, "players"), "first_complete",
                       f"missing: {', '.join(complete)} have {complete_at} or more "
                       "districts, so say which of them completed a city first")
        return complete[0] if len(complete) == 1 else None
    name = reader.text(record, "first_complete", "")
    if name is None:
        return None
    line = line_of(record, "first_complete")
    match = [p for p in players if fold(p.name) == fold(name)]
    players_list = record["players"] if isinstance(record.get("players"), list) else []
    named = [p["name"] for p in players_list if isinstance(p, dict) and isinstance(p.get("name"), str)]
    if not match:
        if not any(fold(n) == fold(name) for n in named):
            reader.bad(line, "first_complete", f"'{name}' is not one of the players ({', '.join(named)})")
        return None
    if districts_short(game, len(match[0].city)):
        have = len(match[0].city)
        (short or reader).bad(line, "first_complete",
                              f"'{name}' has {have} districts; a complete city has at least {complete_at}",
                              plain={"es": f"{name} completó su ciudad primero y se ven {have} distritos de "
                                           f"{complete_at}: el premio se cuenta tal como se jugó en la mesa.",
                                     "en": f"{name} completed their city first and {have} districts of "
                                           f"{complete_at} are shown: the bonus is counted as played at the table."})
        if short is None:
            return None
    return match[0].name


def too_many_copies(name: dict, copies: int, built: int | None = None) -> dict:
    """What a player reads when the cities hold more of a district than the deck's ``copies``
    (``built``: how many, when known): the table is the truth, it is counted as played."""
    es = f"{built} copias de {name['es']}" if built else f"Más copias de {name['es']}"
    en = f"{built} copies of {name['en']}" if built else f"More copies of {name['en']}"
    return {"es": f"{es} en las ciudades y la baraja trae {copies}: se cuenta tal como se jugó en la mesa.",
            "en": f"{en} in the cities and the deck holds {copies}: counted as played at the table."}


def check_physical(record: dict, game: Game, reader: Reader, players: Sequence[CityEnd]) -> None:
    """What the box allows: no more copies of a district in the cities than the deck holds, and
    each character card in one hand only (the seed's lines from ``game.yaml`` ``physical``)."""
    seed = {rule: entry["seed_line"] for rule, entry in game.meta["physical"].items() if rule != "note"}
    cards = district_index(game)
    rows = record["players"]
    seen: dict[str, list[str]] = {}
    for index, player in enumerate(players):
        items = rows[index].get("city")
        for j, district_id in enumerate(player.city):
            where = f"players[{index}].city[{j}]"
            seen.setdefault(district_id, []).append(where)
            copies = cards[district_id].get("copies", 1)
            if len(seen[district_id]) == copies + 1:
                name = cards[district_id]["name"]
                reader.bad(line_of(items, j), where,
                           f"'{name['es']} / {name['en']}' is in the cities {copies + 1} times or more "
                           f"({', '.join(seen[district_id][:copies])}, {where}), and the deck holds {copies}; "
                           f"seed {seed['district_copies']}", plain=too_many_copies(name, copies))
    holders: dict[str, str] = {}
    for index, player in enumerate(players):
        items = rows[index].get("characters")
        for j, character in enumerate(player.characters):
            where = f"players[{index}].characters[{j}]"
            if character in holders and not holders[character].startswith(f"players[{index}]."):
                name = game.get("character", character)["name"]
                reader.bad(line_of(items, j), where,
                           f"'{name['es']} / {name['en']}' is also in {holders[character]}: there is one card "
                           f"of each character; seed {seed['characters']}",
                           plain={"es": f"{name['es']} está en más de una mano y solo hay una carta: se cuenta "
                                        "tal como se jugó en la mesa.",
                                  "en": f"{name['en']} is in more than one hand and there is one card: scored "
                                        "as played at the table."})
            holders.setdefault(character, where)


def score_record(record: dict, game: Game, reader: Reader, lenient: bool = False) -> Result:
    """Check a record and score it (raises :class:`RecordError` listing every problem).

    ``lenient`` scores a state the box does not allow (a house rule) and says so in the notes.
    """
    physical = Reader(reader.path)
    players, first = from_record(record, game, reader, physical if lenient else None)
    reader.raise_if_bad()
    check_physical(record, game, physical, players)
    notes: list[Text] = []
    if first is not None and "first_complete" not in record:
        notes.append({"es": f"{first} es la única ciudad completa: se entiende que la completó primero",
                      "en": f"{first} has the only complete city, so completed it first"})
    return finish(score(players, game, first, notes), physical, reader, lenient)

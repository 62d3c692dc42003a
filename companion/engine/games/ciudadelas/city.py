"""Districts and characters read against the data (``cards/ciudadelas``), and what a city makes of
them: a district's price to build or destroy, the cards a draw keeps, whether a repeat may be built.
The draft, the rounds, the moves and the live numbers all read these, so each rule is written once."""

from __future__ import annotations

from typing import Any

from ...caller import characters
from ...common import find_entry, text
from ...errors import BadArgument


RESOURCES = {"gold": text("oro", "gold"), "hand": text("cartas en mano", "cards in hand")}


def _meta(data) -> dict:
    return data.meta


def _district_kinds(state: dict, data) -> tuple[str, ...]:
    return ("district", "dark_district") if state["options"].get("dark_city") else ("district",)


def districts_in_play(state: dict, data) -> list[dict]:
    """Every district kind that may be built in this game (the Dark City ones when it is on)."""
    return [d for kind in _district_kinds(state, data) for d in data.entries(kind)]


def district(data, district_id: str) -> dict:
    """A district of the base deck or of the Dark City by its id."""
    return _district_by_id(data, district_id)


def _district(state: dict, data, name: Any) -> dict:
    return find_entry(data, _district_kinds(state, data), name,
                      text("'district' debe ser un nombre de distrito", "'district' must be a district name"),
                      text("distrito desconocido", "unknown district"))


def _district_by_id(data, district_id: str) -> dict:
    for kind in ("district", "dark_district"):
        if kind in data.kinds:
            for d in data.entries(kind):
                if d["id"] == district_id:
                    return d
    raise KeyError(district_id)


def _character(data, name: Any) -> dict:
    if not isinstance(name, (str, int)) or isinstance(name, bool):
        raise BadArgument(text("'character' debe ser un personaje", "'character' must be a character"))
    if isinstance(name, int) or (isinstance(name, str) and name.isdigit()):
        for c in data.entries("character"):
            if c["number"] == int(name):
                return c
        raise BadArgument(text(f"no hay personaje número {name}", f"no character number {name}"))
    try:
        return data.find("character", name)
    except LookupError as exc:
        raise BadArgument(text(f"personaje desconocido: {exc}", f"unknown character: {exc}")) from None


def _characters(data) -> list[dict]:
    return characters(data)


def _draft_rule(data, players: int) -> dict:
    rules = _meta(data)["character_draft"]["by_players"]
    rule = rules.get(players, rules.get(str(players)))
    if rule is None:
        raise BadArgument(text(f"no hay reglas de reparto de personajes para {players} jugadores",
                               f"no character draft rules for {players} players"))
    return rule


def _abilities(district: dict) -> list[str]:
    return list(district.get("abilities") or [])


def _city_has(state: dict, data, seat: int, ability: str) -> dict | None:
    for did in state["players"][seat]["city"]:
        d = _district_by_id(data, did)
        if ability in _abilities(d):
            return d
    return None


def destroy_price(state: dict, data, owner: int, district: dict, char: dict) -> int:
    """What the Warlord pays to destroy ``district`` in ``owner``'s city: its cost minus the
    character's discount, plus the surcharge of a Great Wall standing in that city (not itself)."""
    price = max(0, district["cost"] - char.get("destroy_discount", 0))
    wall = _city_has(state, data, owner, "destroy_surcharge")
    if wall and wall["id"] != district["id"]:
        price += wall["params"].get("surcharge", 0)
    return price


def build_cost(state: dict, data, seat: int, district: dict) -> int:
    """What ``seat`` pays to build ``district`` (a purple discount from their city applies)."""
    cost = district["cost"]
    discount = _city_has(state, data, seat, "purple_discount")
    if discount and district["colour"] == "purple" and discount["id"] != district["id"]:
        cost = max(0, cost - discount["params"].get("discount", 0))
    return cost


def may_add_duplicate(state: dict, data, seat: int) -> bool:
    """Whether ``seat`` may build a district their city already holds (``duplicate_districts``, or a
    Quarry with a repeat left): the one rule the build move and the scoring share."""
    from ...scoring.ciudadelas import repeats_allowed  # the scoring package loads when first needed

    city = state["players"][seat]["city"]
    allowed = repeats_allowed(data, city)
    return allowed is None or len(city) - len(set(city)) < allowed


def city_complete(data, city: list) -> bool:
    """Whether ``city`` is complete (the end of the game comes into sight; the Warlord spares it):
    the scoring's rule (:func:`~ludoteca.companion.engine.scoring.ciudadelas.districts_short`)."""
    from ...scoring.ciudadelas import districts_short

    return not districts_short(data, len(city))


def _seat(state: dict) -> tuple[int, dict]:
    seat = state["active"]
    return seat, state["players"][seat]


def draw_terms(state: dict, data, seat: int) -> tuple[int, int]:
    """How many cards ``seat`` draws and keeps when taking cards (an Observatory draws more, a Library
    keeps them all): what ``draw_cards`` does and its button says."""
    meta = _meta(data)
    draw, keep = meta["draw_cards"], meta["keep_cards"]
    extra = _city_has(state, data, seat, "extra_draw")
    if extra:
        draw, keep = extra["params"].get("draw", draw), extra["params"].get("keep", keep)
    if _city_has(state, data, seat, "keep_all_drawn"):
        keep = draw
    return draw, keep


def districts_of_deck(data) -> list[dict]:
    """Every district card of the base deck and the Dark City, each copy counted."""
    return [d for kind in ("district", "dark_district") if kind in data.kinds
            for d in data.entries(kind) for _ in range(d.get("copies", 1))]

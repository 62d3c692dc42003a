"""Every part of a book generated from the data (``auto: NAME`` in a texts file), by game: the
one table :func:`.content.blocks` looks a part up in (``"*"``: the parts every game has)."""

from __future__ import annotations

from . import games
from .common import designer_notes, example
from .context import Auto

PARTS: dict[str, dict[str, Auto]] = {
    "*": {"designer_notes": designer_notes, "example": example},
    "ciudadelas": {
        "cover": games.ciudadelas_cover,
        "setup_picture": games.ciudadelas_setup,
        "turn_summary": games.ciudadelas_turn_summary,
        "box": games.ciudadelas_box,
        "colours": games.ciudadelas_colours,
        "characters": games.ciudadelas_characters,
        "draft_table": games.ciudadelas_draft,
        "districts": games.ciudadelas_districts,
        "wonders": games.ciudadelas_wonders,
        "tie": games.ciudadelas_tie,
        "dark_city": games.ciudadelas_dark_city,
    },
    "el_mapa": {
        "cover": games.el_mapa_cover,
        "setup_picture": games.el_mapa_setup,
        "turn_summary": games.el_mapa_turn_summary,
        "box": games.el_mapa_box,
        "tiles": games.el_mapa_tiles,
        "buildings": games.el_mapa_buildings,
        "troops": games.el_mapa_troops,
        "trades": games.el_mapa_trades,
        "treasure": games.el_mapa_treasure,
        "tech": games.el_mapa_tech,
        "maps": games.el_mapa_maps,
        "end": games.el_mapa_end,
        "variants": games.el_mapa_variants,
        "damage_example": games.el_mapa_damage_example,
    },
    "gladiadores": {
        "cover": games.gladiadores_cover,
        "setup_picture": games.gladiadores_setup,
        "turn_summary": games.gladiadores_turn_summary,
        "box": games.gladiadores_box,
        "player_counts": games.gladiadores_player_counts,
        "actions": games.gladiadores_actions,
        "combat": games.gladiadores_combat,
        "auction": games.gladiadores_auction,
        "gladiators": games.gladiadores_gladiators,
        "buildings": games.gladiadores_buildings,
        "combat_cards": games.gladiadores_combat_cards,
        "optional": games.gladiadores_optional,
    },
}

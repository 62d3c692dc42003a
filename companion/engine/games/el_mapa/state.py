"""El Mapa's state, declared: the game's id, one player's keys and the whole state's (TypedDicts the
tests check every state of a seeded game against)."""

from __future__ import annotations

from typing import Any, TypedDict

from ...definition import State


GAME = "el_mapa"


class Player(TypedDict, total=False):
    """An El Mapa player (besides these, one key per resource of the data: ``oro``, ``madera``...)."""

    name: str
    tiles_revealed: int
    villages: int
    mines: dict[str, int]
    spell_tiles: dict[str, int]
    castles: list[dict[str, Any]]
    reserve: dict[str, int]
    armies: list[dict[str, Any]]
    defeated: dict[str, int]
    trained_troops: int
    trades_used: int
    turns_played: int
    score: int
    battle_points: int
    trade_limit: int
    trades_left: int
    army_limit: int


class _Rolled(State, total=False):
    last_rolls: list[int]   # the die rolls of the last treasures opened


class ElMapaState(_Rolled):
    """An El Mapa state: the map, the wonders, why the last turn came."""

    variants: list[str]
    map: dict[str, Any]
    turn: int
    next_army: int
    wonders: dict[str, str]
    last_turn_reason: str | None
    scattered: list[dict[str, Any]]
    turn_start: dict[str, Any] | None

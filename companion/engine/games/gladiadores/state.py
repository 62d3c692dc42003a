"""Gladiadores' state, declared: the game's id, one player's keys and the whole state's (TypedDicts the
tests check every state of a seeded game against)."""

from __future__ import annotations

from typing import Any, TypedDict

from ...definition import State


GAME = "gladiadores"


class Player(TypedDict):
    """A Gladiadores player: coins, wins, buildings, gladiators, and (derived) score and room."""

    name: str
    coins: int
    combat_wins: int
    defence_wins: int
    buildings: list[str]
    gladiators: list[dict[str, Any]]
    score: int
    capacity: int
    glad_stats: dict[str, dict[str, int]]
    removable: list[str]


class GladiadoresState(State):
    """A Gladiadores state: the centre's pools, the auction, the target."""

    target: int
    expansion: bool
    turn: int
    centre: dict[str, Any]
    next_uid: int
    auction: dict[str, Any] | None
    chained: list[Any]
    turn_flags: dict[str, Any]
    max_buildings: int

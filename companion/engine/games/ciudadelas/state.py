"""Ciudadelas' state, declared: the game's id, one player's keys and the whole state's (TypedDicts the
tests check every state of a seeded game against)."""

from __future__ import annotations

from typing import Any, TypedDict

from ...definition import State


GAME = "ciudadelas"


class Player(TypedDict):
    """A Ciudadelas player: what they hold, and (derived) their score and city."""

    name: str
    gold: int
    hand: int
    city: list[str]
    built_round: dict[str, int]
    characters: list[str]
    score: int
    city_points: int
    city_colours: list[str]
    usable: list[str]


class _Called(State, total=False):
    last_call: dict[str, Any]   # from the first call of a character on


class CiudadelasState(_Called):
    """A Ciudadelas state: the draft, the characters called, who holds the crown."""

    options: dict[str, Any]
    crown: int
    draft: dict[str, Any] | None
    picks: list[list[str]]
    called: int
    calling: dict[str, Any] | None
    turn: dict[str, Any] | None
    murdered: str | None
    robbed: str | None
    robbed_by: str | None
    protected: int | None
    pending_reclaim: dict[str, Any] | None
    first_complete: int | None
    last_round: bool

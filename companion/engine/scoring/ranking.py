"""Final scores, ranks and ties: the result every game's scoring returns.

Ranks are "competition" ranks: rank = 1 + the number of players strictly ahead,
so tied players share a rank and the next rank is skipped (1, 1, 3).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any
from collections.abc import Callable, Sequence

Text = dict  # {"es": ..., "en": ...}


@dataclass(frozen=True)
class PlayerScore:
    """One player's final total, rank and the points behind it (breakdown keys in display order)."""

    name: str
    total: int
    rank: int
    breakdown: dict[str, int]
    notes: tuple[Text, ...] = ()


@dataclass(frozen=True)
class Result:
    """The scored end of one game: players in the record's order."""

    game: str
    players: tuple[PlayerScore, ...]
    winners: tuple[str, ...]
    labels: dict[str, Text] = field(default_factory=dict)
    notes: tuple[Text, ...] = ()

    def as_json(self) -> dict[str, Any]:
        """``{"game", "players": [{"name", "total", "rank", "breakdown"}], "winners"}``."""
        return {
            "game": self.game,
            "players": [{"name": p.name, "total": p.total, "rank": p.rank, "breakdown": dict(p.breakdown)}
                        for p in self.players],
            "winners": list(self.winners),
        }

    def extras(self) -> dict[str, Any]:
        """What the table shows beyond the JSON: ``labels`` ({key: {es, en}}) and every note,
        each ``{"es", "en"}`` and, for a player's own note, ``"player"``."""
        notes = [{"player": p.name, **n} for p in self.players for n in p.notes]
        return {"labels": dict(self.labels), "notes": notes + [dict(n) for n in self.notes]}

    def player(self, name: str) -> PlayerScore:
        """The score of the player with exactly this name."""
        for p in self.players:
            if p.name == name:
                return p
        raise KeyError(name)


def competition_ranks(keys: Sequence[Any]) -> list[int]:
    """Rank 1 = best (highest key); equal keys share a rank.

    >>> competition_ranks([(10, 2), (12, 0), (10, 2), (10, 5)])
    [3, 1, 3, 2]
    """
    return [1 + sum(1 for other in keys if other > key) for key in keys]


def shared_rank(names: Sequence[str], total: int) -> Text:
    """The note for players tied on ``total`` whom nothing separates."""
    who = ", ".join(names)
    return {"es": f"Empate a {total} entre {who}: comparten puesto",
            "en": f"Tie at {total} between {who}: they share the rank"}


def rank_players(names: Sequence[str], breakdowns: Sequence[dict[str, int]], game: str,
                 labels: dict[str, Text], tie_key: Callable[[int], Any] | None = None,
                 tie_text: Callable[[list[int]], Text] | None = None,
                 player_notes: Sequence[Sequence[Text]] = (), notes: Sequence[Text] = (),
                 winners_filter: Callable[[int], bool] | None = None) -> Result:
    """Total each breakdown, rank by (total, tie_key(i)) and build the :class:`Result`.

    ``tie_text(indexes)`` explains how a group tied on total was separated (or not); by
    default the group shares the rank.  ``winners_filter(i)`` may refuse the win to a rank-1
    player (e.g. below a target).
    """
    totals = [sum(b.values()) for b in breakdowns]
    if tie_text is None:
        def tie_text(group: list[int]) -> Text:
            return shared_rank([names[i] for i in group], totals[group[0]])
    keys = [(t, tie_key(i) if tie_key else 0) for i, t in enumerate(totals)]
    ranks = competition_ranks(keys)
    all_notes = list(notes)
    for total in sorted(set(totals), reverse=True):
        group = [i for i, t in enumerate(totals) if t == total]
        if len(group) > 1:
            all_notes.append(tie_text(group))
    players = tuple(
        PlayerScore(names[i], totals[i], ranks[i], dict(breakdowns[i]),
                    tuple(player_notes[i]) if i < len(player_notes) else ())
        for i in range(len(names)))
    winners = tuple(p.name for i, p in enumerate(players)
                    if p.rank == 1 and (winners_filter is None or winners_filter(i)))
    return Result(game, players, winners, dict(labels), tuple(all_notes))

"""Pinned seeded playouts: any change of the games' behaviour shows up as a changed pin.

Regenerate deliberately with ``.venv/bin/python tests/pin_playouts.py --write`` (it says what changed).
"""

from __future__ import annotations

import json

import pytest
from pin_playouts import PINS, PLAYOUTS, changes, key, playout

PINNED = json.loads(PINS.read_text(encoding="utf-8"))


def test_every_pinned_playout_is_played():
    assert sorted(PINNED) == sorted(key(g, s) for g, _, seeds in PLAYOUTS for s in seeds)


@pytest.mark.parametrize("game,players,seed", [(g, p, s) for g, p, seeds in PLAYOUTS for s in seeds],
                         ids=lambda v: v if isinstance(v, (str, int)) else "")
def test_playout_ends_as_pinned(game, players, seed):
    name = key(game, seed)
    got = playout(game, players, seed)
    assert got == PINNED[name], changes({name: PINNED[name]}, {name: got})


def test_the_tool_says_which_fields_changed():
    old = {"g:1": {"moves": 10, "totals": {"Ana": 3}, "winners": ["Ana"], "digest": "a"}}
    new = {"g:1": {"moves": 10, "totals": {"Ana": 6}, "winners": ["Ana"], "digest": "b"},
           "g:2": {"moves": 4, "totals": {"Ana": 1}, "winners": ["Ana"], "digest": "c"}}
    assert changes(old, new) == ["g:1: totals {'Ana': 3} -> {'Ana': 6}",
                                 "g:2: new, 4 moves, totals {'Ana': 1}"]
    assert changes(old, old) == []

"""The ``battle`` move: who won and lost, the troops defeated and each named army's losses, checked
against the armies (a Storehouse army may not fight, an army fights once a turn); survivors of a
loser who fled scatter for some turns."""

from __future__ import annotations

import random

from ...common import log, name_of, player_index, text
from ...errors import BadArgument, LimitReached, NotAllowed
from .realm import _army, _counts, _storehouse_may_fight


def _battle_plans(state: dict, a: dict, data) -> tuple[int, int | None, dict[str, int], list]:
    """Who won and lost, the troops defeated and each named army's losses, or the refusal."""
    seat = state["active"]
    win = player_index(state, a["winner"], "winner")
    neutral = isinstance(a["loser"], str) and a["loser"].strip().lower() == "neutral"
    lose = None if neutral else player_index(state, a["loser"], "loser")
    if lose == win:
        raise BadArgument(text("el vencedor y el vencido son el mismo", "winner and loser are the same player"))
    if seat not in (win, lose):
        raise NotAllowed(text("las batallas se libran en el turno de quien ataca",
                              "battles are fought in the attacker's turn"))
    defeated = _counts(data, a["defeated"], "defeated")
    if a["winner_army"] is None and any(_counts(data, a["winner_losses"], "winner_losses").values()):
        raise BadArgument(text("las bajas del vencedor salen de un ejército: indica 'winner_army'",
                               "the winner's losses come out of an army: name 'winner_army'"))
    plans = []
    for who, army_key, loss_key in ((win, "winner_army", "winner_losses"), (lose, "loser_army", None)):
        if who is None or a[army_key] is None:
            continue
        army = _army(state["players"][who], a[army_key])
        losses = _counts(data, a[loss_key], loss_key) if loss_key else defeated
        for tid, n in losses.items():
            have = army["troops"].get(tid, 0)
            if have < n:
                troop = data.get("troop", tid)
                raise NotAllowed(text(f"el ejército {army['id']} tiene {have} {name_of(troop)} y no puede perder {n}",
                                      f"army {army['id']} has {have} {name_of(troop, 'en')} and cannot lose {n}"))
        plans.append((who, army, losses))
    for who, army, _ in plans:
        if who == seat and army.get("storehouse") and not _storehouse_may_fight(state["players"][who], data):
            raise NotAllowed(text(f"el ejército {army['id']} es del Almacén y no puede combatir",
                                  f"army {army['id']} comes from a Storehouse and may not fight"))
        if who == seat and army.get("tired"):
            raise LimitReached(text(f"el ejército {army['id']} ya combatió este turno",
                                    f"army {army['id']} has already fought this turn"))
    return win, lose, defeated, plans


def _battle_check(state: dict, a: dict, data) -> None:
    _battle_plans(state, a, data)


def _battle(state: dict, a: dict, rng: random.Random, data) -> None:
    seat = state["active"]
    win, lose, defeated, plans = _battle_plans(state, a, data)
    winner = state["players"][win]
    for _who, army, losses in plans:
        for tid, n in losses.items():
            army["troops"][tid] -= n
            if not army["troops"][tid]:
                del army["troops"][tid]
    for tid, n in defeated.items():
        winner["defeated"][tid] = winner["defeated"].get(tid, 0) + n
    if a["fled"] and lose is not None:
        army = next((army for who, army, _ in plans if who == lose), None)
        if army is not None and army["troops"]:
            span = data.meta["scatter_turns"]
            turns = rng.randint(span["min"], span["max"])
            loser = state["players"][lose]
            state["scattered"].append({"player": lose, "troops": dict(army["troops"]),
                                       "returns_on": loser["turns_played"] + turns, "turns": turns})
            army["troops"] = {}
            log(state, f"Las tropas de {loser['name']} se dispersan {turns} turno(s)",
                f"{loser['name']}'s troops scatter for {turns} turn(s)")
    for who, army, _ in plans:
        army["tired"] = army.get("tired") or who == seat
        if not army["troops"]:
            state["players"][who]["armies"].remove(army)
    from ...scoring.el_mapa import battle_points  # the scoring package loads when first needed

    points = battle_points(defeated, data)
    log(state, f"{winner['name']} gana la batalla (+{points})", f"{winner['name']} wins the battle (+{points})")

"""What the final screen shows besides the ranking: each player's breakdown as a stacked bar, how
long the play took (breaks left out) and each player's thinking time."""

from __future__ import annotations

from typing import Any

from kivy.metrics import sp

from .charts import StackedBars
from . import theme
from .widgets import GrowLabel, rgba


def label_of(final: dict, key: str, lang: str) -> str:
    """The display name of a breakdown line, from the labels the engine keeps in ``state["final"]``."""
    label = (final.get("labels") or {}).get(key)
    if isinstance(label, dict):
        return str(label.get(lang) or label.get("es") or key)
    return key.replace("_", " ")


def add_final_extras(box: Any, app: Any, state: dict) -> StackedBars:
    """Add the chart and the times to ``box`` (the final screen's scrolling column); return the chart."""
    from ludoteca.companion.engine.clock import clock_text

    from .tableclock import game_clock

    final = state.get("final") or {}
    seats = {p["name"]: i for i, p in enumerate(state.get("players", []))}
    ranked = sorted(final.get("players", []), key=lambda p: (p.get("rank", 99), p.get("name", "")))
    box.add_widget(GrowLabel(text=f"[b]{app.t('breakdown_chart')}[/b]", markup=True, font_size=sp(17)))
    chart = StackedBars()
    chart.wid = "breakdown_chart"
    rows = []
    for player in ranked:
        seat = seats.get(player.get("name"), 0)
        rows.append({"name": player.get("name", ""), "total": player.get("total"),
                     "colour": theme.light(rgba(app.colour_of(seat))),
                     "breakdown": player.get("breakdown") or {}})
    keys = {k for p in ranked for k in (p.get("breakdown") or {})}
    chart.show(rows, {k: label_of(final, k, app.lang) for k in keys})
    box.add_widget(chart)
    clock = game_clock(app)
    if clock is not None:
        clock.observe(state)
        t = clock.timing()
        if t.start is not None:
            box.add_widget(GrowLabel(text=app.t("play_time", minutes=t.minutes), font_size=sp(16),
                                     color=theme.CLOCK_TEXT))
            players = state.get("players", [])
            times = [app.t("thinking_of", name=p.get("name", ""), time=clock_text(t.thinking.get(i, 0.0)))
                     for i, p in enumerate(players)]
            label = GrowLabel(text=f"{app.t('thinking')}: " + ", ".join(times), font_size=sp(16),
                              color=theme.CLOCK_TEXT)
            label.wid = "thinking"
            box.add_widget(label)
    return chart


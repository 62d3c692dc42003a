"""Final scoring: every player's breakdown and the ranking, shared as text or exported."""

from __future__ import annotations

from pathlib import Path

from kivy.app import App
from kivy.lang import Builder
from kivy.metrics import dp, sp
from kivy.properties import StringProperty
from kivy.uix.screenmanager import Screen

from .finalextras import add_final_extras, label_of
from .widgets import GrowLabel, rgba
from . import theme


def note_text(note: dict, lang: str) -> str:
    """A scoring note in one language, with the player it concerns when it is theirs."""
    words = str(note.get(lang) or note.get("es") or "")
    return f"{note['player']}: {words}" if note.get("player") else words


def result_text(app, state: dict) -> str:
    """The final scores as plain text, ranking first (what *Share* sends)."""
    final = state.get("final") or {}
    lines = [f"{app.game_name(state.get('game', ''))} · {app.t('final_scoring')}"]
    ranked = sorted(final.get("players", []), key=lambda p: (p.get("rank", 99), p.get("name", "")))
    for player in ranked:
        lines.append(f"{player.get('rank')}. {player.get('name')}: {player.get('total')}")
        for key, value in (player.get("breakdown") or {}).items():
            lines.append(f"    {label_of(final, key, app.lang)}: {value}")
    lines += [note_text(note, app.lang) for note in final.get("notes") or []]
    winners = ", ".join(final.get("winners", [])) or app.t("nobody")
    lines.append(app.t("winner", name=winners))
    return "\n".join(lines)


class FinalScreen(Screen):
    """The end of a game."""

    notice = StringProperty("")

    def refresh(self) -> None:
        """Show the ranking, each player's breakdown, the notes and the winners from the state's final scores."""
        app = App.get_running_app()
        box = self.ids.ranking
        box.clear_widgets()
        self.notice = ""
        state = app.state or {}
        final = state.get("final") or {}
        seats = {p["name"]: i for i, p in enumerate(state.get("players", []))}
        ranked = sorted(final.get("players", []), key=lambda p: (p.get("rank", 99), p.get("name", "")))
        for player in ranked:
            colour = rgba(app.colour_of(seats.get(player.get("name"), 0)))
            head = GrowLabel(text=f"[b]{player.get('rank')}. {player.get('name')}  ·  {player.get('total')}[/b]",
                             markup=True, font_size=sp(24), color=theme.TEXT)
            head.wid = f"rank_{seats.get(player.get('name'), 0)}"
            head.bind(pos=self._paint(colour), size=self._paint(colour))
            box.add_widget(head)
            # each "label value" kept on one line (no-break spaces), the items wrapped across the width
            lines = [f"{label_of(final, key, app.lang)}: {value}".replace(" ", "\u00a0")
                     for key, value in (player.get("breakdown") or {}).items()]
            if lines:  # one wrapped line of the player's points, across the whole width
                box.add_widget(GrowLabel(text="  ·  ".join(lines), font_size=sp(17)))
        for note in final.get("notes", []) or []:
            box.add_widget(GrowLabel(text=note_text(note, app.lang), font_size=sp(15), color=theme.NOTE_TEXT))
        self.chart = add_final_extras(box, app, state)
        self.ids.scroll.scroll_y = 1
        winners = ", ".join(final.get("winners", [])) or app.t("nobody")
        self.ids.winner.text = app.t("winner", name=winners)
        if final.get("reviewed"):
            self.notice = app.t("reviewed")

    @staticmethod
    def _paint(colour):
        def paint(widget, *_):
            from kivy.graphics import Color, RoundedRectangle

            widget.canvas.before.clear()
            with widget.canvas.before:
                Color(*colour)
                RoundedRectangle(pos=widget.pos, size=widget.size, radius=[dp(6)])
        return paint

    def share(self) -> None:
        """Share the final scoring as text and say where it went."""
        app = App.get_running_app()
        where = app.platform.share_text(app.t("final_scoring"), result_text(app, app.state or {}))
        self.notice = app.t("shared") + (f" ({where})" if where != "android" else "")

    def scan(self) -> None:
        """Open the scan screen (score from photos of each player's pieces)."""
        App.get_running_app().go("scan")

    def export(self, fmt: str) -> None:
        """Write the game in an export format (the engine's exporter) and offer the file itself
        (on a phone, through the share sheet)."""
        app = App.get_running_app()
        from ludoteca.atomic import write_text
        from ludoteca.companion.engine.export import SUFFIXES, export_data

        text = export_data(app.store, app.session.id, fmt)
        if fmt == "bgstats-link":  # BG Stats' own import dialog, through its push-plays link
            where = app.platform.open_link(text.strip())
            self.notice = app.t("exported", path=where) if where != "android" else ""
            return
        path = app.platform.share_folder() / f"ludoteca-{app.session.id}.{SUFFIXES[fmt]}"
        write_text(path, text)
        where = app.platform.share_file(path, f"Ludoteca · {path.name}")
        self.notice = app.t("exported", path=where) if where != "android" else app.t("file_shared")

Builder.load_file(str(Path(__file__).with_suffix(".kv")))

"""El Mapa: per-player gold, wood, stone and spells with + / -, the turn-start summary, each castle
by level with its recruitment timers as turns left, hiring, bank trades (rate and limit), building,
revealed tiles and battle points, the end conditions.  Every rule is the engine's; this screen
shows ``app.state`` and sends actions."""

from __future__ import annotations

from pathlib import Path

from kivy.app import App
from kivy.lang import Builder
from kivy.metrics import dp, sp

from ludoteca.companion.engine.games import el_mapa as rules
from ludoteca.companion.engine.scoring.el_mapa import LABELS as SCORE_LINES

from kivy.uix.boxlayout import BoxLayout
from kivy.uix.textinput import TextInput

from .gamescreen import REASON_HEIGHT, GameScreen
from .strings import count
from . import theme


class ElMapaScreen(GameScreen):
    """The turn screen of El Mapa."""

    def amounts(self, app, amounts: dict) -> str:
        """``{"oro": 2, "leva": 1}`` as "2 Oro, 1 Leva" (resource or troop names)."""
        parts = []
        for key, n in amounts.items():
            if not n:
                continue
            resources = rules.resources(self.data)
            label = (app.n(resources[key]["name"]) if key in resources
                     else app.n(self.entry("troop", key)["name"]))
            parts.append(f"{n} {label}")
        return ", ".join(parts) or "-"

    def fill(self, app, state: dict, body) -> None:
        """Show the turn: the status line, the turn-start summary, the actions, every player."""
        self.data = app.game_data("el_mapa")
        players = state.get("players", [])
        seat = state.get("active")
        if seat is not None:
            self.status = f"{app.t('turn', n=state.get('turn', 1))} · {app.t('turn_of', name=players[seat]['name'])}"
        hidden = state.get("map", {}).get("hidden", 0)
        body.add_widget(self.note(app.t("hidden_tiles", n=hidden), font=sp(18)))
        if state.get("last_turn_reason"):
            reason = state["last_turn_reason"]
            body.add_widget(self.heading(app.t("last_turn", reason=app.n(rules.REASONS[reason])
                                                if reason in rules.REASONS else str(reason)),
                                         colour=theme.HIGHLIGHT))
        summary = state.get("turn_start")
        if summary and seat is not None and not state.get("finished"):
            body.add_widget(self.heading(f"{app.t('turn_start')}: {players[summary['player']]['name']}"))
            body.add_widget(self.note(
                f"{app.t('produced')}: {self.amounts(app, summary.get('produced', {}))}\n"
                f"{app.t('recruited')}: {self.amounts(app, summary.get('recruited', {}))}\n"
                f"{app.t('returned')}: {self.amounts(app, summary.get('returned', {}))}", font=sp(17)))
        if seat is not None and not state.get("finished"):
            self.fill_actions(app, state, body, seat)
        for i, player in enumerate(players):
            self.fill_player(app, state, body, i, player, i == seat)

    # -- the active player's actions -------------------------------------------------------------
    def fill_actions(self, app, state, body, seat) -> None:
        """The active player's buttons (hire, build, trade, reveal, tile, battle) and the open panel."""
        legal = App.get_running_app().session.legal_actions()
        # How many forms of each move are open (the engine's legal actions); a move with none is
        # disabled with the engine's reason.
        open_now = {name: sum(1 for a in legal if a["action"] == name) for name in ("hire", "build", "trade")}
        buttons = [self.move_button(f"{app.t('hire')} ({open_now['hire']})", "hire", "hire",
                                    lambda: self.set_mode("hire"), bg=theme.POWER),
                   self.move_button(f"{app.t('build')} ({open_now['build']})", "build", "build",
                                    lambda: self.set_mode("build"), bg=theme.BUILD),
                   self.move_button(f"{app.t('trade')} ({open_now['trade']})", "trade", "trade",
                                    lambda: self.set_mode("trade"), bg=theme.GOLD),
                   self.move_button(app.t("reveal"), "reveal", "reveal", lambda: self.set_mode("reveal")),
                   self.button(app.t("tile_found"), "tile", lambda: self.set_mode("tile")),
                   self.button(app.t("battle"), "battle", lambda: self.set_mode("battle"), bg=theme.POWER)]
        body.add_widget(self.even_grid(2, *buttons))
        self.panel_starts(body)
        if self.mode == ("hire",):
            options = []
            for a in self.choices("hire"):
                troop = self.entry("troop", a["troop"])
                cost = self.amounts(app, troop.get("cost", {}))
                options.append(self.action_button(f"{app.n(troop['name'])} · {cost}", f"hire_{a['troop']}", a))
            body.add_widget(self.grid(1, *options))
        elif self.mode == ("build",):
            castles = len(state["players"][seat].get("castles", []))
            options = []
            for a in self.choices("build"):
                b = self.entry("building", a["building"])
                where = f"{app.t('castle_board')} {a['castle'] + 1} · " if castles > 1 else ""
                options.append(self.action_button(
                    f"{where}{app.n(b['name'])} · {app.t('level', n=b.get('level', '?'))} · "
                    f"{self.amounts(app, b.get('cost', {}))}",
                    f"build_{a['building']}_{a.get('castle', 0)}", a, height=dp(60)))
            body.add_widget(self.grid(1, *options))
        elif self.mode == ("trade",):
            player = state["players"][seat]
            body.add_widget(self.note(app.t("trades_of", n=player.get("trades_left", 0),
                                            of=player.get("trade_limit", 0)), wid="trades_left"))
            options = []
            for line in rules.trade_lines(self.data):
                a = line["action"]
                options.append(self.action_button(
                    app.t("trade_rate", give=self.amounts(app, line["give"]), get=self.amounts(app, line["get"])),
                    f"trade_{a['give']}_{a['get']}", a))
            body.add_widget(self.grid(1, *options))
        elif self.mode == ("reveal",):
            self.fill_reveal(app, state, body)
        elif self.mode == ("tile",):
            options = [self.action_button(app.t("claim_village"), "claim_village",
                                          {"action": "claim", "what": "village"})]
            for res in rules.counter_ids(self.data):
                options.append(self.action_button(
                    app.t("claim_mine", name=app.n(rules.resources(self.data)[res]["name"])), f"claim_mine_{res}",
                    {"action": "claim", "what": "mine", "resource": res}))
            for level in rules.spell_levels(self.data):
                options.append(self.action_button(app.t("claim_spell", n=level), f"claim_spell_{level}",
                                                  {"action": "claim", "what": "spell_mine", "level": level}))
            options.append(self.action_button(app.t("treasure"), "treasure", {"action": "treasure", "count": 1},
                                              bg=theme.GOLD))
            body.add_widget(self.even_grid(2, *options))
        elif self.mode == ("battle",):
            self.fill_battle(app, state, body, seat)
        self.ids.footer.add_widget(self.action_button(app.t("end_turn"), "end_turn", {"action": "end_turn"},
                                                      bg=theme.END))

    def fill_reveal(self, app, state, body) -> None:
        """How many tiles the table revealed, as one number (typed, or - / +), sent as one reveal."""
        hidden = state.get("map", {}).get("hidden", 0)
        self.reveal_n = min(max(1, getattr(self, "reveal_n", 1)), max(hidden, 1))
        body.add_widget(self.note(app.t("reveal_how_many"), font=sp(17)))
        entry = self.reuse("reveal_count", TextInput)
        if entry is None:
            entry = TextInput(multiline=False, input_filter="int", input_type="number", halign="center",
                              size_hint_y=None, height=dp(56), font_size=sp(28))
            entry.wid = "reveal_count"
            entry.bind(text=lambda _w, text: self._reveal_typed(text))
        entry.text = str(self.reveal_n)
        self.keep("reveal_count", entry)

        def step(delta: int) -> None:
            self.reveal_n = min(max(1, self.reveal_n + delta), max(hidden, 1))
            entry.text = str(self.reveal_n)
        minus = self.button("-", "reveal_minus", lambda: step(-1), bg=theme.POWER, font=sp(28))
        plus = self.button("+", "reveal_plus", lambda: step(1), bg=theme.PLUS, font=sp(28))
        for b in (minus, plus):
            b.size_hint_x, b.width, b.height = None, dp(64), dp(56)
        row = self.spare(BoxLayout)
        row.clear_widgets()
        row.size_hint_y, row.height, row.spacing = None, dp(56), dp(6)
        for w in (minus, entry, plus):
            row.add_widget(w)
        body.add_widget(row)
        body.add_widget(self._reveal_button(app))

    def _reveal_typed(self, text: str) -> None:
        """A number typed in the entry: the confirm button follows it (nothing else is rebuilt, so the
        keyboard stays up)."""
        try:
            self.reveal_n = int(text)
        except ValueError:
            self.reveal_n = 0
        app = App.get_running_app()
        if self.mode == ("reveal",) and app.state is not None:
            self._reveal_button(app)

    def _send_reveal(self) -> None:
        """Send the reveal; the entry starts again from 1 next time."""
        action = dict(self._reveal_action)
        self.reveal_n = 1
        self.send(action)

    def _reveal_button(self, app):
        """The button that sends the reveal of ``reveal_n`` tiles (disabled with the engine's reason)."""
        n = self.reveal_n
        action = {"action": "reveal", "count": n}
        reason = self.why_not(action) if n >= 1 else app.t("reveal_how_many")
        text = count("reveal_tiles", n, app.lang)
        self._reveal_action = action
        button = self._next.get("reveal_confirm")
        if button is None:
            return self.refused_button(text, "reveal_confirm", reason, self._send_reveal,
                                       bg=theme.CONFIRM)
        button.text = f"{text}\n{reason}" if reason else text
        button.disabled, button.why = bool(reason), reason
        button.height = REASON_HEIGHT if reason else dp(52)
        return button

    def fill_battle(self, app, state, body, seat) -> None:
        """Winner, loser (a player or neutral troops), the troops defeated, and optionally the armies
        that fought, the winner's losses and whether the loser fled: one battle action."""
        form = self.form = getattr(self, "form", None) or {"winner": seat, "loser": "neutral", "defeated": {},
                                                           "winner_army": None, "winner_losses": {},
                                                           "loser_army": None, "fled": False}
        players = state["players"]
        names = [p["name"] for p in players]
        gold = theme.SELECTED

        def pick(key, value):
            form[key] = value
            if key == "winner":
                form["winner_army"], form["winner_losses"] = None, {}
            if key in ("loser", "winner"):
                form["loser_army"], form["fled"] = None, False
            self.refresh()
        body.add_widget(self.note(app.t("winner_is"), font=sp(17)))
        body.add_widget(self.grid(3, *[self.button(n, f"winner_{i}", lambda i=i: pick("winner", i),
                                                   bg=gold if form["winner"] == i else None)
                                       for i, n in enumerate(names)]))
        body.add_widget(self.note(app.t("loser_is"), font=sp(17)))
        losers = [("neutral", app.t("neutral"))] + [(i, n) for i, n in enumerate(names)]
        body.add_widget(self.grid(3, *[self.button(label, f"loser_{key}", lambda key=key: pick("loser", key),
                                                   bg=gold if form["loser"] == key else None)
                                       for key, label in losers]))

        def counters(prefix: str, counts: dict) -> None:
            def change(wid, delta):
                tid = wid.split("_", 1)[1]
                counts[tid] = max(0, counts.get(tid, 0) + delta)
                self.refresh()
            body.add_widget(self.grid(2, *[self.counter(app.n(t["name"]), counts.get(t["id"], 0),
                                                        f"{prefix}_{t['id']}", change)
                                           for t in self.data.entries("troop")]))

        def armies(key: str, who: int) -> None:
            options = [self.button(app.t("no_army"), f"{key}_none", lambda: pick(key, None),
                                   bg=gold if form[key] is None else None, height=dp(56), font=sp(16))]
            for a in players[who].get("armies", []):
                label = app.t("army_label", id=a["id"], troops=self.amounts(app, a.get("troops", {})))
                options.append(self.button(label, f"{key}_{a['id']}", lambda a=a: pick(key, a["id"]),
                                           bg=gold if form[key] == a["id"] else None, height=dp(56), font=sp(16)))
            body.add_widget(self.grid(1, *options))
        body.add_widget(self.note(app.t("defeated"), font=sp(17)))
        counters("defeated", form["defeated"])
        body.add_widget(self.note(app.t("winner_army"), font=sp(17)))
        armies("winner_army", form["winner"])
        if form["winner_army"] is not None:
            body.add_widget(self.note(app.t("winner_losses"), font=sp(17)))
            counters("losses", form["winner_losses"])
        if form["loser"] != "neutral":
            body.add_widget(self.note(app.t("loser_army"), font=sp(17)))
            armies("loser_army", form["loser"])
            if form["loser_army"] is not None:
                body.add_widget(self.button(("[x] " if form["fled"] else "[  ] ") + app.t("fled"), "fled",
                                            lambda: pick("fled", not form["fled"]),
                                            bg=gold if form["fled"] else None, height=dp(56), font=sp(16)))

        action = {"action": "battle", "winner": names[form["winner"]],
                  "loser": "neutral" if form["loser"] == "neutral" else names[form["loser"]],
                  "defeated": {t: n for t, n in form["defeated"].items() if n}}
        if form["winner_army"] is not None:
            action["winner_army"] = form["winner_army"]
            action["winner_losses"] = {t: n for t, n in form["winner_losses"].items() if n}
        if form["loser"] != "neutral" and form["loser_army"] is not None:
            action["loser_army"] = form["loser_army"]
            action["fled"] = bool(form["fled"])

        def record():
            self.form, self.mode = None, ()
            if not App.get_running_app().act(action):  # refused: keep the form as it was, to fix it
                self.form, self.mode = form, ("battle",)
        # The battle as the form says it: refused by the engine, the button is disabled with the reason.
        body.add_widget(self.refused_button(app.t("record_battle"), "record_battle", self.why_not(action), record,
                                            bg=theme.POWER))

    # -- players --------------------------------------------------------------------------------
    def fill_player(self, app, state, body, seat, player, active) -> None:
        """A player's band, resource counters, tiles, battle points, armies and castles."""
        body.add_widget(self.player_header(app, seat, player, active))
        adjust = lambda key, delta, p=player: self.send(  # noqa: E731
            {"action": "adjust", "player": p["name"], "resource": key.split("_", 1)[1], "delta": delta})
        body.add_widget(self.grid(2, *[self.counter(app.n(r["name"]), player.get(rid, 0), f"p{seat}_{rid}", adjust)
                                       for rid, r in rules.resources(self.data).items()]))
        battle = player.get("battle_points", 0)
        body.add_widget(self.note(
            f"{app.n(SCORE_LINES['tiles'])}: {player.get('tiles_revealed', 0)} · {app.t('battle_points')}: {battle}\n"
            f"{app.t('reserve')}: {self.amounts(app, player.get('reserve', {}))}\n"
            f"{app.t('armies')}: "
            + "; ".join(self.amounts(app, a.get("troops", {})) for a in player.get("armies", [])),
            font=sp(16)))
        slots = {s["id"]: s for s in self.slots()}
        for index, castle in enumerate(player.get("castles", [])):
            lines = [f"{app.t('castle_board')} {index + 1}"]
            for level in sorted({s.get("level", 1) for s in slots.values()}):
                built = [app.n(self.entry("building", b)["name"]) for sid, b in castle.get("slots", {}).items()
                         if slots.get(sid, {}).get("level") == level]
                lines.append(f"  {app.t('level', n=level)}: {', '.join(built) or app.t('empty_slot')}")
            timers = []
            for tid, left in castle.get("timers_left", {}).items():
                troop = self.entry("troop", tid)
                when = app.t("next_turn") if left <= 1 else app.t("turns_left", n=left)
                timers.append(f"{app.n(troop['name'])}: {when}")
            if timers:
                lines.append("  " + ", ".join(timers))
            body.add_widget(self.note("\n".join(lines), font=sp(16)))

    def slots(self) -> list[dict]:
        """The slots of the castle board (none when the data has no board)."""
        try:
            return self.data.get("board", "castillo")["slots"]
        except KeyError:
            return []


Builder.load_file(str(Path(__file__).with_suffix(".kv")))

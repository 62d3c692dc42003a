"""Gladiadores: coins and combats won per player, gladiators as cards to tap (ready / exhausted),
buildings (up to 5), the phase of the turn, the auction helper that calls the bidders in order,
and the target score.  Every rule is the engine's; this screen shows ``app.state`` and sends actions."""

from __future__ import annotations

from pathlib import Path

from kivy.app import App
from kivy.clock import Clock
from kivy.lang import Builder
from kivy.metrics import dp, sp

from ludoteca.companion.engine.games import gladiadores as rules
from ludoteca.companion.engine.scoring.gladiadores import LABELS as SCORE_LINES

from .gamescreen import GameScreen
from .strings import UI
from . import theme


class GladiadoresScreen(GameScreen):
    """The turn screen of Gladiadores."""

    selected: list = []
    bid_amount: int | None = None

    def close_panel(self) -> None:
        """Any action but a correction clears the selected gladiators, the bid and the open panel."""
        self.selected, self.mode, self.bid_amount = [], (), None

    def toggle(self, uid: str) -> None:
        """Select a gladiator, or unselect it when it is selected."""
        self.selected = [u for u in self.selected if u != uid] if uid in self.selected else self.selected + [uid]
        self.hold = f"glad_{uid}"  # the card stays under the finger
        self.refresh()

    def fill(self, app, state: dict, body) -> None:
        """Show the turn: the status line, the target, the phase's panel and every player."""
        self.data = app.game_data("gladiadores")
        players = state.get("players", [])
        seat = state.get("active")
        phase = state.get("phase", "main")
        phase_name = app.t(f"phase_{phase}") if f"phase_{phase}" in UI else phase
        if seat is not None:
            self.status = f"{app.t('turn_of', name=players[seat]['name'])} · {phase_name}"
        body.add_widget(self.note(app.t("target", n=state.get("target", "?")), font=sp(18)))
        if seat is not None and not state.get("finished"):
            if phase == "main":
                self.fill_main(app, state, body, seat)
            elif phase == "auction":
                self.fill_auction(app, state, body, seat)
            else:
                body.add_widget(self.action_button(app.t("end_turn"), "end_turn", {"action": "end_turn"}))
        first = seat if seat is not None else 0
        for i in sorted(range(len(players)), key=lambda i: (i - first) % len(players)):  # whose turn it is first
            self.fill_player(app, state, body, i, player=players[i], active=i == seat)

    # -- main phase -----------------------------------------------------------------------------
    def fill_main(self, app, state, body, seat) -> None:
        """The main phase: the selected gladiators' actions and the open panel (fight, build, ...)."""
        player = state["players"][seat]
        chosen = [g for g in player["gladiators"] if g["uid"] in self.selected and g["ready"]]
        self.selected = [g["uid"] for g in chosen]
        uids = [g["uid"] for g in chosen]
        power = rules.pooled_construction(state, seat, uids, self.data)
        rivals = [(other, rival) for other, rival in enumerate(state["players"]) if other != seat]
        if not chosen:
            body.add_widget(self.note(app.t("select_gladiators"), font=sp(17)))
        else:
            # Each button asks the engine about the moves it opens, with these gladiators: refused, it
            # is disabled with the engine's reason.
            buttons = []
            if len(chosen) == 1:
                uid = uids[0]
                buttons.append(self.action_button(app.t("work"), "work", {"action": "work", "gladiator": uid},
                                                  bg=theme.GOLD))
                buttons.append(self.refused_button(
                    app.t("fight"), "fight", self.why_none([a for a in self.choices("fight") if a["gladiator"] == uid]),
                    lambda: self.set_mode("fight"), bg=theme.FIGHT))
            builds = [{"action": "build", "building": b, "gladiators": uids}
                      for b in dict.fromkeys(state.get("centre", {}).get("buildings", []))]
            why = self.why_none(builds)  # a refusal names the construction itself: said once
            buttons.append(self.refused_button(app.t("build") if why else f"{app.t('build')}\n"
                                               f"{app.t('construction', n=power)}", "build", why,
                                               lambda: self.set_mode("build"), bg=theme.BUILD))
            demolitions = [{"action": "demolish", "building": b, "gladiators": uids}
                           for b in dict.fromkeys(player.get("buildings", []))]
            buttons.append(self.refused_button(app.t("demolish"), "demolish", self.why_none(demolitions),
                                               lambda: self.set_mode("demolish")))
            buttons.append(self.refused_button(app.t("destroy"), "destroy",
                                               self.why_none(self.destructions(rivals, uids)),
                                               lambda: self.set_mode("destroy"), bg=theme.FIGHT))
            if len(chosen) == 1:
                chains = [{"action": "chain", "gladiator": uids[0], "target": rival["name"], "targets": [g["uid"]]}
                          for _, rival in rivals for g in rival["gladiators"]]
                buttons.append(self.refused_button(app.t("chain"), "chain", self.why_none(chains),
                                                   lambda: self.set_mode("chain")))
            body.add_widget(self.even_grid(2, *buttons))
        if self.mode and self.mode[0] == "fight" and len(chosen) == 1:
            self.fill_fight(app, state, body, seat, chosen[0]["uid"])
        elif self.mode == ("build",) and chosen:
            options = []
            for b in sorted(set(state.get("centre", {}).get("buildings", []))):
                entry = self.entry("building", b)
                options.append(self.action_button(f"{app.n(entry['name'])} · {app.t('cost', n=entry.get('cost', '?'))}",
                                                  f"building_{b}", {"action": "build", "building": b,
                                                                    "gladiators": uids}))
            body.add_widget(self.grid(1, *options))
        elif self.mode == ("demolish",) and chosen:
            body.add_widget(self.grid(1, *[self.action_button(app.n(self.entry("building", b)["name"]), f"demolish_{b}",
                                                              {"action": "demolish", "building": b, "gladiators": uids})
                                           for b in dict.fromkeys(player.get("buildings", []))]))
        elif self.mode == ("destroy",) and chosen:
            seats = {rival["name"]: other for other, rival in rivals}
            body.add_widget(self.grid(1, *[self.action_button(
                f"{a['target']}: {app.n(self.entry('building', a['building'])['name'])}",
                f"destroy_{seats[a['target']]}_{a['building']}", a, bg=theme.FIGHT)
                for a in self.destructions(rivals, uids)]))
        elif self.mode and self.mode[0] == "chain" and len(chosen) == 1:
            self.fill_chain(app, state, body, seat, chosen[0]["uid"])
        body.add_widget(self.action_button(app.t("end_main"), "end_main", {"action": "end_main"}, bg=theme.END))

    def fill_fight(self, app, state, body, seat, uid: str) -> None:
        """The fight panel: the rival picks a defender, then the table reveals a combat card and the
        screen asks which one (one button per kind of card in the data); the app never draws one."""
        if len(self.mode) == 3:
            _, target, defender = self.mode
            fight = {"action": "fight", "gladiator": uid, "target": target, "defender": defender}
            rival = next(i for i, p in enumerate(state["players"]) if p["name"] == target)
            glad = next((g for g in state["players"][rival]["gladiators"] if g["uid"] == defender), None)
            if glad is not None:
                body.add_widget(self.card(app, rival, glad, lambda: self.set_mode("fight"), f"defender_{defender}",
                                          marked=True))
                question = self.heading(app.t("which_combat_card"), wid="which_combat_card")
                body.add_widget(question)
                # once the body is laid out (its height follows its children a frame later)
                Clock.schedule_once(lambda dt: Clock.schedule_once(lambda dt: self.scroll_to_top(question), 0), 0)
                body.add_widget(self.grid(2, *[self.action_button(
                    f"{app.n(c.get('name') or c['id'])}\n{app.t('combat_card_values', **c)}", f"combat_{c['id']}",
                    {**fight, "card": c["id"]}, bg=theme.FIGHT, height=dp(80), font=sp(16))
                    for c in self.data.entries("combat_card")]))
                return
        for other, rival in enumerate(state["players"]):
            if other == seat or not rival["gladiators"]:
                continue
            body.add_widget(self.note(app.t("pick_defender", name=rival["name"])))
            fights = [({"action": "fight", "gladiator": uid, "target": rival["name"], "defender": g["uid"]}, g)
                      for g in rival["gladiators"]]
            body.add_widget(self.grid(2, *[self.card(
                app, other, g, lambda a=a: self.set_mode("fight", a["target"], a["defender"]), f"defender_{g['uid']}",
                why=self.why_not(a)) for a, g in fights]))

    @staticmethod
    def destructions(rivals: list, uids: list[str]) -> list[dict]:
        """Every rival building to destroy with the gladiators ``uids`` (the engine says which it allows)."""
        return [{"action": "destroy", "target": rival["name"], "building": b, "gladiators": uids}
                for _, rival in rivals for b in dict.fromkeys(rival.get("buildings", []))]

    def fill_chain(self, app, state, body, seat, uid: str) -> None:
        """Tap a rival's gladiators to chain them, then confirm (one rival per chain)."""
        marked = list(self.mode[1]) if len(self.mode) > 1 else []
        target = self.mode[2] if len(self.mode) > 2 else None
        for other, rival in enumerate(state["players"]):
            if other == seat or not rival["gladiators"]:
                continue
            body.add_widget(self.note(rival["name"], font=sp(17)))

            def mark(g, other=other):
                picks = [u for u in marked if u != g["uid"]] if g["uid"] in marked else \
                    ([u for u in marked] if target == other else []) + [g["uid"]]
                self.mode = ("chain", tuple(picks), other)
                self.refresh()
            body.add_widget(self.grid(2, *[self.card(app, other, g, lambda g=g, mark=mark: mark(g), f"chain_{g['uid']}",
                                                     marked=g["uid"] in marked)
                                           for g in rival["gladiators"]]))
        if marked and target is not None:
            rival = state["players"][target]["name"]
            body.add_widget(self.action_button(app.t("chain_these", n=len(marked)), "chain_confirm",
                                               {"action": "chain", "gladiator": uid, "target": rival,
                                                "targets": marked},
                                               bg=theme.GOLD))

    # -- auction --------------------------------------------------------------------------------
    def fill_auction(self, app, state, body, seat) -> None:
        """The auction: start it, pick the veteran, then call each bidder in order."""
        auction = state.get("auction")
        player = state["players"][seat]
        body.add_widget(self.heading(app.t("auction"), font=sp(22)))
        if auction is None:
            legal = App.get_running_app().session.legal_actions()
            names = {a["action"] for a in legal}
            if "discard_gladiator" in names:
                body.add_widget(self.grid(2, *[self.card(app, seat, g, lambda g=g: self.send(
                    {"action": "discard_gladiator", "gladiator": g["uid"]}), f"discard_{g['uid']}")
                    for g in player["gladiators"]]))
            body.add_widget(self.even_grid(2, self.action_button(app.t("start_auction"), "start_auction",
                                                                 {"action": "start_auction"}, bg=theme.GOLD),
                                           self.action_button(app.t("end_turn"), "end_turn", {"action": "end_turn"})))
            return
        if auction.get("gladiator") is None:
            picks = [({"action": "pick", "gladiator": c}, i, c) for i, c in enumerate(auction.get("shown", []))]
            body.add_widget(self.grid(1, *[self.card(app, seat, {"uid": f"shown{i}", "card": c, "ready": True},
                                                     lambda a=a: self.send(a), f"pick_{c}", why=self.why_not(a))
                                           for a, i, c in picks]))
            return
        glad = self.entry("gladiator", auction["gladiator"])
        body.add_widget(self.note(app.n(glad["name"]), font=sp(20)))
        high = auction.get("high")
        if high:
            holder = high.get("player")
            holder_name = state["players"][holder]["name"] if isinstance(holder, int) else holder
            body.add_widget(self.note(app.t("high_bid", amount=high.get("amount"), name=holder_name), font=sp(18)))
        bidder = state["players"][auction["order"][auction["next"]]]
        minimum = int(auction.get("min_bid", 0))
        if self.bid_amount is None or self.bid_amount < minimum:
            self.bid_amount = minimum
        body.add_widget(self.heading(app.t("bidder", name=bidder["name"]), font=sp(22)))
        body.add_widget(self.counter(app.t("coins"), self.bid_amount, "bid_amount", self.change_bid))
        body.add_widget(self.even_grid(2,
                                       self.action_button(app.t("bid"), "bid",
                                                          {"action": "bid", "player": bidder["name"],
                                                           "amount": self.bid_amount}, bg=theme.BUILD),
                                       self.action_button(app.t("pass"), "pass",
                                                          {"action": "pass", "player": bidder["name"]})))

    def change_bid(self, _key: str, delta: int) -> None:
        """Raise or lower the bid being prepared (never below 0)."""
        self.bid_amount = max(0, (self.bid_amount or 0) + delta)
        self.refresh()

    # -- players --------------------------------------------------------------------------------
    def card(self, app, seat, glad: dict, on_tap, wid: str, marked: bool = False, why: str = ""):
        """A gladiator as a card: name, ready or exhausted, combat, work, construction and fight cost; a
        button calling ``on_tap``, or a tile to read when ``on_tap`` is None."""
        entry = self.entry("gladiator", glad["card"])
        chosen = glad["uid"] in self.selected or marked
        state_text = app.t("ready") if glad.get("ready") else app.t("exhausted")
        known = (app.state or {}).get("players", [])
        own = known[seat].get("glad_stats", {}).get(glad["uid"]) if seat < len(known) else None
        stats = app.t("glad_stats", **{k: (own or entry).get(k, "?") for k in ("combat", "work", "construction",
                                                                                "fight_cost")})
        if chosen:
            bg = theme.SELECTED
        else:
            bg = theme.READY if glad.get("ready") else theme.EXHAUSTED
        text = f"{app.n(entry['name'])} · {state_text}\n{stats}" + (f"\n{why}" if why else "")
        if on_tap is None:
            return self.tile(text, wid, bg=bg, height=dp(96), font=sp(16))
        button = self.button(text, wid, on_tap, bg=bg, height=dp(96), font=sp(16), disabled=bool(why))
        button.why = why or ""
        return button

    def fill_player(self, app, state, body, seat, player, active) -> None:
        """A player's band, coin and point counters, gladiators and buildings."""
        body.add_widget(self.player_header(app, seat, player, active))
        adjust = lambda key, delta, p=player: self.send(  # noqa: E731
            {"action": "adjust", "player": p["name"], "resource": key.split("_", 1)[1], "delta": delta})
        body.add_widget(self.grid(2, self.counter(app.t("coins"), player.get("coins", 0), f"p{seat}_coins", adjust),
                                  self.counter(app.n(SCORE_LINES["combat"]), player.get("combat_wins", 0),
                                               f"p{seat}_combat_wins", adjust)))
        cards = []
        for g in player.get("gladiators", []):
            tappable = active and not self.why_not({"action": "work", "gladiator": g["uid"]})  # may act now
            cards.append(self.card(app, seat, g, (lambda g=g: self.toggle(g["uid"])) if tappable else None,
                                   f"glad_{g['uid']}"))
        body.add_widget(self.note(f"{app.t('gladiators')} ({len(cards)})", font=sp(17)))
        body.add_widget(self.grid(2, *cards))
        limit = state.get("max_buildings", "?")
        names = ", ".join(app.n(self.entry("building", b)["name"]) for b in player.get("buildings", []))
        body.add_widget(self.note(f"{app.t('score', n=player.get('score', 0))}\n"
                                  f"{app.t('buildings')} {len(player.get('buildings', []))}/{limit}: {names}",
                                  wid=f"p{seat}_score"))


Builder.load_file(str(Path(__file__).with_suffix(".kv")))

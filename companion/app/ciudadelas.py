"""Ciudadelas: the character draft with its discards, the call of characters 1 to 8, the turn
panel of the revealed player, every city with its colours and points, the crown and the banner
of the 8th district.  Every rule is the engine's; this screen shows ``app.state`` and sends actions."""

from __future__ import annotations

from pathlib import Path

from kivy.app import App
from kivy.lang import Builder
from kivy.metrics import dp, sp
from kivy.uix.textinput import TextInput
from kivy.utils import get_color_from_hex

from ludoteca.companion.engine import caller
from ludoteca.companion.engine.games import ciudadelas as rules
from ludoteca.companion.engine.scoring.ciudadelas import district_points

from .gamescreen import GameScreen
from . import theme

#: The label (UI string key) of each character move the engine names (``rules.character_moves``).
POWER_LABELS = {"murder": "murder", "steal": "steal", "exchange_hand": "swap", "discard_and_draw": "swap_deck",
                "destroy": "destroy"}


class CiudadelasScreen(GameScreen):
    """The round screen of Ciudadelas."""

    search = ""

    def fill(self, app, state: dict, body) -> None:
        """Show the round: the status line, the 8th-district banner, the phase's panel and every city."""
        data = app.game_data("ciudadelas")
        self.data = data
        phase = state.get("phase")
        players = state.get("players", [])
        crown = state.get("crown")
        if phase == "choose":
            discarding = bool(self.mode and self.mode[0] == "pick" and state.get("draft", {}).get("needs_discard"))
            self.status = app.t("round", n=state.get("round", 1)) + " · " + \
                app.t("discard_step" if discarding else "pick_step")
        elif phase == "turn" and state.get("active") is not None:
            self.status = app.t("turn_of", name=players[state["active"]]["name"])
        else:
            self.status = app.t("round", n=state.get("round", 1))
        if state.get("first_complete") is not None:
            body.add_widget(self.heading(app.t("complete_banner", name=players[state["first_complete"]]["name"],
                                               n=data.meta["complete_city"]),
                                         colour=theme.HIGHLIGHT, font=sp(20), wid="banner"))
        if phase == "choose":
            self.fill_draft(app, state, body)
        elif phase == "call":
            self.fill_call(app, state, body)
        elif phase == "turn":
            self.fill_turn(app, state, body)
        for seat, player in enumerate(players):
            self.fill_city(app, state, body, seat, player, seat == crown)

    # -- the draft (discard step and picks) -----------------------------------------------------
    def char_name(self, app, cid: str) -> str:
        """A character as "number. name" in the app's language."""
        char = self.data.get("character", cid)
        return f"{char['number']}. {app.n(char['name'])}"

    def fill_draft(self, app, state, body) -> None:
        """The draft: the discarded characters, then the active player's choice (and the discard step, the
        face-down card)."""
        draft = state.get("draft", {})
        up = ", ".join(self.char_name(app, c) for c in draft.get("face_up", [])) or "-"
        body.add_widget(self.note(f"{app.t('face_up')}: {up}\n{app.t('face_down')}: {len(draft.get('face_down', []))}",
                                  font=sp(18)))
        seat = state.get("active")
        if seat is None:
            return
        who = state["players"][seat]["name"]
        body.add_widget(self.heading(app.t("turn_of", name=who), font=sp(22)))
        needs_discard = bool(draft.get("needs_discard"))
        if self.mode and self.mode[0] == "pick" and needs_discard:
            picked = self.mode[1]
            body.add_widget(self.note(app.t("pick_then_discard", name=self.char_name(app, picked)), font=sp(18)))
            options = [self.action_button(self.char_name(app, c), f"discard_{c}",
                                          {"action": "choose", "player": who, "character": picked, "discard": c})
                       for c in draft.get("available", [])]
            body.add_widget(self.even_grid(2, *options))
            return
        def pick(cid: str) -> None:
            if needs_discard:
                self.set_mode("pick", cid)
            else:
                self.send({"action": "choose", "player": who, "character": cid})
        body.add_widget(self.grid(2, *[self.button(self.char_name(app, c), f"choose_{c}",
                                                   lambda c=c: pick(c), bg=theme.CHARACTER)
                                       for c in draft.get("available", [])]))
        hidden = draft.get("face_down_choices") or []  # the last picker may take the face-down card
        if hidden:
            body.add_widget(self.grid(1, *[self.button(app.t("take_face_down", name=self.char_name(app, c)),
                                                       f"choose_face_down_{c}", lambda c=c: pick(c),
                                                       bg=theme.FACE_DOWN)
                                           for c in hidden]))

    # -- calling the characters -----------------------------------------------------------------
    def fill_call(self, app, state, body) -> None:
        """The crown's calls: every character of the round marked as called, just called or still to
        call; what the last call got (nobody, or the murdered one's silence, which names nobody);
        the button of the next call (said aloud when the caller's voice is on)."""
        last = state.get("last_call")
        if last:
            char = self.data.get("character", last["character"])
            text = app.t("calling", n=last["number"], name=app.n(char["name"]))
            if last["character"] == state.get("murdered"):
                text += " · " + app.t("murdered_silent")
            elif not last.get("answered"):
                text += " · " + app.t("nobody_has")
            body.add_widget(self.heading(text, font=sp(20), wid="last_call"))
        called = state.get("called", 0)
        marks = []
        for char in caller.characters(self.data):
            number = int(char["number"])
            bg = theme.CALLING if number == called else theme.CALLED if number < called else theme.TO_CALL
            marks.append(self.tile(f"{number}. {app.n(char['name'])}", f"called_{char['id']}", bg=bg,
                                   height=dp(40), font=sp(14)))
        body.add_widget(self.grid(4, *marks))
        total = len(marks)
        nxt = called + 1
        label = app.t("call_next") + (f"\n{nxt} / {total}" if nxt <= total else "")
        body.add_widget(self.button(label, "call", self.call_next, bg=theme.CALL, height=dp(120), font=sp(28)))

    def call_next(self) -> None:
        """One call of the crown: the engine's ``call``, then the caller says it."""
        app = App.get_running_app()
        if self.send({"action": "call"}):
            app.say_call(app.state["last_call"]["number"])

    # -- the revealed player's turn ---------------------------------------------------------------
    def fill_turn(self, app, state, body) -> None:
        """The revealed player's turn: income, build, the character's power, districts to use, end."""
        turn = state.get("turn") or {}
        seat = state["active"]
        player = state["players"][seat]
        char = self.data.get("character", turn["character"])
        meta = self.data.meta
        body.add_widget(self.heading(f"{char['number']}. {app.n(char['name'])} · {player['name']}",
                                     font=sp(24)))
        if char.get("summary"):
            body.add_widget(self.note(app.n(char["summary"])))
        draw, keep = rules.draw_terms(state, self.data, seat)
        # Every button asks the engine: a refused move is shown disabled, with the engine's reason.
        buttons = [self.action_button(app.t("take_gold", n=meta["take_gold"]), "take_gold", {"action": "take_gold"},
                                      bg=theme.GOLD),
                   self.action_button(app.t("take_card", draw=draw, keep=keep), "draw_cards", {"action": "draw_cards"},
                                      bg=theme.CARDS),
                   self.action_button(app.t("income"), "income", {"action": "income"}),
                   self.move_button(app.t("build"), "build", "build", lambda: self.set_mode("build"), bg=theme.BUILD)]
        for action in rules.character_moves(state, self.data):
            buttons.append(self.move_button(app.t(POWER_LABELS[action]), f"power_{action}", action,
                                            lambda a=action: self.set_mode(a), bg=theme.POWER))
        for did in dict.fromkeys(player.get("usable", [])):
            district = rules.district(self.data, did)
            buttons.append(self.action_button(app.t("use_district", name=app.n(district["name"])), f"use_{did}",
                                              {"action": "use_district", "district": did}, bg=theme.PURPLE_DISTRICT))
        buttons.append(self.action_button(app.t("end_turn"), "end_turn", {"action": "end_turn"}, bg=theme.END))
        body.add_widget(self.even_grid(2, *buttons))
        if state.get("pending_reclaim"):
            who = state["players"][state["pending_reclaim"]["player"]]["name"]
            body.add_widget(self.action_button(f"{app.t('reclaim')}: {who}", "reclaim",
                                               {"action": "reclaim", "player": who}))
        if self.mode:
            self.fill_mode(app, state, body, seat, char)

    def fill_mode(self, app, state, body, seat, char) -> None:
        """The open panel of the turn (build, a power's targets) under its buttons."""
        mode = self.mode[0]
        if mode == "build":
            self.fill_build(app, state, body, seat)
        elif mode in ("murder", "steal"):
            body.add_widget(self.even_grid(2, *[self.action_button(self.char_name(app, a["character"]),
                                                                   f"target_{a['character']}", a, bg=theme.POWER)
                                                for a in self.choices(mode)]))
        elif mode == "exchange_hand":
            seats = {p["name"]: i for i, p in enumerate(state["players"])}
            body.add_widget(self.even_grid(2, *[self.action_button(
                app.t("hand_cards", name=a["target"], n=state["players"][seats[a["target"]]].get("hand", 0)),
                f"target_{seats[a['target']]}", a) for a in self.choices(mode)]))
        elif mode == "discard_and_draw":
            body.add_widget(self.even_grid(2, *[self.action_button(app.t("swap_count", n=a["count"]),
                                                                   f"count_{a['count']}", a)
                                                for a in self.choices(mode)]))
        elif mode == "destroy":
            options = []
            for t in rules.destroy_targets(state, self.data):
                district = rules.district(self.data, t["district"])
                options.append(self.action_button(
                    f"{t['target']}: {app.n(district['name'])}\n{app.t('price', n=t['price'])}",
                    f"destroy_{t['seat']}_{t['district']}",
                    {"action": "destroy", "target": t["target"], "district": t["district"]},
                    height=dp(72), bg=theme.POWER))
            body.add_widget(self.even_grid(2, *options))

    def fill_build(self, app, state, body, seat) -> None:
        """Search the districts by name and offer those the player may build, with their cost."""
        field = TextInput(text=self.search, hint_text=app.t("search"), multiline=False, size_hint_y=None,
                          height=dp(52), font_size=sp(20))
        field.wid = "search"
        results = self.grid(1)

        def show(*_):
            from ludoteca.cards import fold

            self.search = field.text
            results.clear_widgets()
            wanted = fold(field.text)
            for d in rules.districts_in_play(state, self.data):
                names = fold(d["name"]["es"]) + " " + fold(d["name"]["en"])
                if wanted and wanted not in names:
                    continue
                colour = self.colour_rgba(d["colour"])
                cost = rules.build_cost(state, self.data, seat, d)
                results.add_widget(self.action_button(
                    f"{app.n(d['name'])} · {app.t('cost', n=cost)}", f"district_{d['id']}",
                    {"action": "build", "district": d["id"]}, bg=theme.dim(colour, 0.7)))
        field.bind(text=show)
        body.add_widget(field)
        body.add_widget(results)
        show()

    # -- cities ---------------------------------------------------------------------------------
    def colour_rgba(self, colour_id: str):
        """The colour of a district colour id (grey for an unknown id)."""
        try:
            return get_color_from_hex(self.data.get("colour", colour_id)["hex"])
        except KeyError:
            return theme.UNKNOWN

    def fill_city(self, app, state, body, seat, player, crown) -> None:
        """A player's band, gold, cards, characters and city, with the correction counters."""
        chars = ", ".join(self.char_name(app, c) for c in player.get("characters", []))
        extra = (f" · {app.t('crown')}" if crown else "")
        body.add_widget(self.player_header(app, seat, player, seat == state.get("active"), extra))
        city = player.get("city", [])
        summary = (f"{app.t('gold')}: {player.get('gold', 0)}   {app.t('cards')}: {player.get('hand', 0)}   "
                   f"{app.t('city')}: {len(city)} · {app.t('points', n=player.get('city_points', 0))} · "
                   f"{app.t('colours_n', n=len(player.get('city_colours', [])), of=len(self.data.entries('colour')))}")
        if chars:
            summary += f"\n{chars}"
        body.add_widget(self.note(summary, font=sp(18)))
        if self.mode == ("adjust", seat):
            for key, title in (("gold", app.t("gold")), ("hand", app.t("cards"))):
                body.add_widget(self.counter(title, player.get(key, 0), f"adjust_{seat}_{key}",
                                             lambda wid, delta, key=key: self.send(
                                                 {"action": "adjust", "player": player["name"],
                                                  "resource": key, "delta": delta})))
        body.add_widget(self.button(app.t("adjust"), f"adjust_{seat}", lambda: self.set_mode("adjust", seat),
                                    height=dp(48), font=sp(15)))
        chips = []
        for did in city:
            district = rules.district(self.data, did)
            colour = self.colour_rgba(district["colour"])
            chip = self.tile(f"{app.n(district['name'])} ({district_points(district)})",
                             f"city_{seat}_{did}", bg=colour, height=dp(48), font=sp(15))
            chips.append(chip)
        if chips:
            body.add_widget(self.grid(2, *chips))


Builder.load_file(str(Path(__file__).with_suffix(".kv")))

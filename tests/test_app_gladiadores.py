"""A short game of Gladiadores on the app: gladiators tapped from ready to exhausted, work, a
fight, the auction helper calling bidders in order, and the target score ending the game."""

from __future__ import annotations

import csv
import io
import json
from urllib.parse import unquote

from appdriver import both_languages, drv, new_game, table  # noqa: F401  (fixtures)
from ludoteca.companion.app.strings import count
from ludoteca.companion.app.platform import ACTION_VIEW, AUTHORITY, EXTRA_STREAM
from ludoteca.companion.engine.export import BGSTATS_PUSH
from ludoteca.companion.engine.common import refusals
from ludoteca.companion.engine.games import gladiadores as G
from datetime import UTC


def test_full_game_to_final_scoring(table):
    """A whole game through the app's buttons, at 480x800 in Spanish and 720x1280 in English (every
    screen also shot in the other language)."""
    drv = table
    new_game(drv, "gladiadores", ["Ana", "Luis"])
    state = drv.state
    seat = state["active"]
    me = state["players"][seat]
    both_languages(drv, "turn")
    assert f"{len(me['buildings'])}/5" in drv.texts()
    # Tap a ready gladiator (selected), then work: coins go up and it is exhausted.
    ready = [g for g in me["gladiators"] if g["ready"]]
    coins = me["coins"]
    drv.press(f"glad_{ready[0]['uid']}")
    both_languages(drv, "selected")
    drv.press("work")
    me = drv.state["players"][seat]
    assert me["coins"] > coins
    worked = next(g for g in me["gladiators"] if g["uid"] == ready[0]["uid"])
    assert worked["ready"] is False
    assert drv.app.t("exhausted") in drv.find(f"glad_{worked['uid']}").text
    # Fight with the next one when the coins allow it: the defender is tapped on the rival's side.
    if len(ready) > 1 and drv.find(f"glad_{ready[1]['uid']}", missing_ok=True):
        drv.press(f"glad_{ready[1]['uid']}")
        drv.press("fight")
        both_languages(drv, "fight")
        if drv.press_first("defender_") == 0 and drv.wids("combat_"):
            assert drv.press_first("combat_") == 1, drv.app.message
    drv.press("end_main")
    assert drv.state["phase"] == "auction"
    both_languages(drv, "auction")
    if not drv.find("start_auction").disabled:
        drv.press("start_auction")
        assert drv.press_first("pick_") == 1, drv.app.message
        both_languages(drv, "bidding")
        order = [drv.state["players"][i]["name"] for i in drv.state["auction"]["order"]]
        first_bidder = order[0]
        assert drv.app.t("bidder", name=first_bidder) in drv.texts()
        bid = drv.find("bid")
        if bid.disabled:  # the first bidder cannot pay the lowest bid (a random game): the engine says so
            amount = drv.state["auction"]["min_bid"]
            [reason] = refusals(G.MOVES, drv.state, drv.app.game_data("gladiadores"),
                                [{"action": "bid", "player": first_bidder, "amount": amount}])
            assert reason is not None and bid.text.endswith(f"\n{reason[drv.app.lang]}"), bid.text
            drv.press("pass")
        else:
            drv.press("bid")
        for _ in range(len(order)):
            passing = drv.find("pass", missing_ok=True)
            if not drv.state.get("auction") or drv.state["phase"] != "auction" or passing is None or passing.disabled:
                break
            drv.press("pass")
    # The table says the active player has reached the target: correct the combats won by hand.
    seat = drv.state["active"]
    target = drv.state["target"]
    while drv.state["players"][seat]["score"] < target:
        drv.press(f"p{seat}_combat_wins_plus", frames=1)
    for _ in range(5):
        if drv.app.root.current == "final":
            break
        for wid in ("end_main", "end_turn"):
            button = drv.find(wid, missing_ok=True) if drv.app.root.current == "gladiadores" else None
            if button is not None and not button.disabled:
                drv.press(wid)
    assert drv.app.root.current == "final"
    assert drv.state["final"]["winners"] == [drv.state["players"][seat]["name"]]
    both_languages(drv, "final")
    drv.press("export_bgstats")
    name, text = drv.app.platform.shared[-1]
    assert name.endswith(".bgsplay") and '"plays"' in text
    assert (drv.shared / "shared" / name).read_text("utf-8") == text
    # issue 22 #7: the scores as CSV, shared as a file (a content URI on a phone), and BG Stats' push link
    drv.press("export_csv")
    name, text = drv.app.platform.shared[-1]
    intent = drv.app.platform.sent[-1]
    assert intent.extras[EXTRA_STREAM] == f"content://{AUTHORITY}/shared/{name}" and intent.mime == "text/csv"
    rows = list(csv.DictReader(io.StringIO(text)))
    totals = {p["name"]: p["total"] for p in drv.state["final"]["players"]}
    assert [(r["player"], int(r["total"])) for r in rows] == [
        (p["name"], totals[p["name"]]) for p in drv.state["players"]
    ]
    drv.press("export_log")
    name, text = drv.app.platform.shared[-1]
    assert name.endswith(".log.csv") and all(r["player"] for r in csv.DictReader(io.StringIO(text)))
    drv.press("bgstats_push")
    link = drv.app.platform.sent[-1]
    assert link.action == ACTION_VIEW and link.data.startswith(BGSTATS_PUSH)
    assert json.loads(unquote(link.data[len(BGSTATS_PUSH) :]))["sourceName"] == "Ludoteca"
    drv.shot("exported")
    # The history shows the winner, and the winner's statistics count the game and the win.
    winner = drv.state["final"]["winners"][0]
    drv.press("home")
    drv.press("history")
    assert drv.app.t("winner", name=winner) in drv.texts()
    lang = drv.app.lang
    assert f"{winner}[/b]: {count('games', 1, lang)}, {count('wins', 1, lang)}" in drv.texts()
    both_languages(drv, "history")
    drv.press("open_stats")
    both_languages(drv, "stats")


def test_a_fight_records_the_combat_card_revealed_at_the_table(drv):
    """After the defender, the screen asks which combat card the table revealed (one button per kind of
    card in the data); the outcome is the one that card gives, and the app draws nothing itself."""
    new_game(drv, "gladiadores", ["Ana", "Luis"])
    data = drv.app.game_data("gladiadores")
    seat = drv.state["active"]
    me = drv.state["players"][seat]
    attacker = next(g for g in me["gladiators"] if g["ready"])
    while drv.state["players"][seat]["coins"] < 20:  # the table says they can pay: correct the coins
        drv.press(f"p{seat}_coins_plus", frames=1)
    drv.press(f"glad_{attacker['uid']}")
    build = drv.text("build")  # the construction is said once, refused or not
    assert build.count("construcción") <= 1 and "construction" not in build, build
    drv.press("fight")
    other = 1 - seat
    defender = drv.state["players"][other]["gladiators"][0]
    seq = drv.app.session.seq
    drv.press(f"defender_{defender['uid']}")
    assert drv.app.session.seq == seq, "tapping the defender must not fight yet"
    kinds = [c["id"] for c in data.entries("combat_card")]
    assert sorted(drv.wids("combat_")) == sorted(f"combat_{k}" for k in kinds)
    drv.shot("which_card")
    assert drv.cut_texts() == [], drv.cut_texts()
    state = drv.state
    pile = list(state["centre"]["combat"])
    for card_id in ("c_401", "c_030"):  # the best card for the attacker, then the best for the defender
        card = data.get("combat_card", card_id)
        rules = data.meta["combat"]
        attack = G.stat(state, seat, attacker, rules["attack"]["stat"], data, "attack") + card["swords"]
        defence = G.stat(state, other, defender, rules["defence"]["stat"], data, "defence") + card["shields"]
        wins = drv.state["players"][seat]["combat_wins"]
        drv.press(f"combat_{card_id}")
        after = drv.state
        # nothing drawn by the app: the revealed card (one copy) goes from the pile to the discards
        rest = list(pile)
        rest.remove(card_id)
        assert after["centre"]["combat"] == rest and after["centre"]["combat_discard"][-1] == card_id
        assert after["players"][seat]["combat_wins"] == wins + G.attacker_wins(attack, defence, rules)
        assert any(card["name"]["es"] in line["es"] for line in after["log"][-3:]), after["log"][-3:]
        if card_id == "c_401":
            drv.app.undo()
            drv.step(2)
            assert drv.state["players"][seat]["combat_wins"] == wins
            drv.press(f"glad_{attacker['uid']}")
            drv.press("fight")
            drv.press(f"defender_{defender['uid']}")


def test_the_clock_stops_while_the_home_screen_is_in_front(drv):
    """15 s on the home screen add nothing to the play or to Ana's thinking; the phone pausing the app
    stops it too, and it counts again once the play is in front."""
    from datetime import datetime

    from fakeclock import FakeTime
    from ludoteca.companion.app.tableclock import game_clock

    now = FakeTime(datetime(2026, 3, 28, 18, 0, tzinfo=UTC))
    drv.app.clock_now = now
    new_game(drv, "gladiadores", ["Ana", "Luis"])
    seat = drv.state["active"]
    game_id = drv.app.session.id
    now.advance(seconds=10)
    drv.press("home")
    assert drv.app.root.current == "home"
    now.advance(seconds=15)
    drv.press(f"resume_{game_id}")
    assert drv.app.root.current == "gladiadores"
    now.advance(seconds=5)
    drv.app.dispatch("on_pause")  # the phone puts the app aside for a minute
    now.advance(minutes=1)
    drv.app.dispatch("on_resume")
    now.advance(seconds=2)
    t = game_clock(drv.app).timing()
    assert (t.played_s, t.thinking) == (17, {seat: 17.0})
    drv.find("clockbar").tick()
    assert drv.text("clock_text").endswith("Partida 0:17"), drv.text("clock_text")


def test_the_active_school_comes_first_and_a_tap_keeps_the_card_in_place(drv):
    """On the fourth player's turn their school is first (the others after them in seat order), a tap on
    one of their cards leaves it where it was in the view, and rival cards are not buttons."""
    from kivy.uix.behaviors import ButtonBehavior

    new_game(drv, "gladiadores", ["Ana", "Luis", "Eva", "Tom"])
    while drv.state["active"] != 3:
        drv.press("end_main")
        drv.press("end_turn")
    body = drv.find("body")
    heads = sorted(
        (w for w in drv.widgets() if getattr(w, "wid", "").startswith("mark_")), key=lambda w: -w.to_window(*w.pos)[1]
    )
    assert [w.wid for w in heads] == ["mark_3", "mark_0", "mark_1", "mark_2"]
    me = drv.state["players"][3]
    for seat in (0, 1, 2):
        for g in drv.state["players"][seat]["gladiators"]:
            assert not isinstance(drv.find(f"glad_{g['uid']}"), ButtonBehavior), g["uid"]
    ready = [g for g in me["gladiators"] if g["ready"]]
    assert len(ready) >= 2, me["gladiators"]  # a turn starts with the school ready
    scroll = drv.find("scroll")
    for g in ready[:2]:
        card = drv.find(f"glad_{g['uid']}")
        # scroll so that the card sits in the middle of the view
        room = body.height - scroll.height
        below_top = body.top - card.top
        scroll.scroll_y = min(1.0, max(0.0, 1 - (below_top - scroll.height / 2) / room))
        drv.step(2)
        y = drv.find(f"glad_{g['uid']}").to_window(*card.pos)[1]
        drv.press(f"glad_{g['uid']}", frames=4)
        after = drv.find(f"glad_{g['uid']}")
        assert g["uid"] in drv.screen.selected
        assert abs(after.to_window(*after.pos)[1] - y) < 2, (y, after.to_window(*after.pos)[1])
    drv.shot("two_selected")
    scroll.scroll_y = 0
    drv.shot("rivals")

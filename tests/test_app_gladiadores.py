"""A short game of Gladiadores on the app: gladiators tapped from ready to exhausted, work, a
fight, the auction helper calling bidders in order, and the target score ending the game."""

from __future__ import annotations

from appdriver import drv, new_game  # noqa: F401  (drv is a fixture)
from ludoteca.companion.engine.common import refusals
from ludoteca.companion.engine.games import gladiadores as G


def test_short_game_to_final_scoring(drv):
    new_game(drv, "gladiadores", ["Ana", "Luis"])
    state = drv.state
    seat = state["active"]
    me = state["players"][seat]
    drv.shot("turn")
    assert drv.cut_texts() == [], drv.cut_texts()
    assert f"{len(me['buildings'])}/5" in drv.texts()
    # Tap a ready gladiator (selected), then work: coins go up and it is exhausted.
    ready = [g for g in me["gladiators"] if g["ready"]]
    coins = me["coins"]
    drv.press(f"glad_{ready[0]['uid']}")
    drv.shot("selected")
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
        drv.shot("fight")
        assert drv.press_first("defender_") == 1 or drv.app.message
    drv.press("end_main")
    assert drv.state["phase"] == "auction"
    drv.shot("auction")
    if not drv.find("start_auction").disabled:
        drv.press("start_auction")
        assert drv.press_first("pick_") == 1, drv.app.message
        drv.shot("bidding")
        order = [drv.state["players"][i]["name"] for i in drv.state["auction"]["order"]]
        first_bidder = order[0]
        assert drv.app.t("bidder", name=first_bidder) in drv.texts()
        bid = drv.find("bid")
        if bid.disabled:  # the first bidder cannot pay the lowest bid (a random game): the engine says so
            amount = drv.state["auction"]["min_bid"]
            [reason] = refusals(G.MOVES, drv.state, drv.app.game_data("gladiadores"),
                                [{"action": "bid", "player": first_bidder, "amount": amount}])
            assert reason is not None and bid.text.endswith(f"\n{reason['es']}"), bid.text
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
    assert drv.cut_texts() == []
    drv.shot("final")
    drv.press("export_bgstats")
    name, text = drv.app.services.shared[-1]
    assert name.endswith(".bgsplay") and '"plays"' in text
    assert (drv.shared / name).read_text("utf-8") == text
    # The history shows the winner, and the winner's statistics count the game and the win.
    winner = drv.state["final"]["winners"][0]
    drv.press("home")
    drv.press("history")
    assert drv.app.t("winner", name=winner) in drv.texts()
    assert f"{winner}[/b]: 1 partida, 1 victoria" in drv.texts()
    drv.shot("history")

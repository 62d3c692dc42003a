"""The scan screen, from the final scoring of a real game in the app window: open a photo of a
player's pieces, see them outlined, strike one out with a tap on the photo, count it back with
its button, add one by hand, and score (the engine's scoring of the game's record with the
photographed fields)."""

from __future__ import annotations

import pytest

from appdriver import drv, new_game, walk  # noqa: F401  (drv is a fixture)

pytest.importorskip("cv2", reason="the scan extra (opencv) is part of the test extra")

import scanphotos  # noqa: E402
from test_scan_cli import GLADIADORES  # noqa: E402


class Tap:
    """A finger lifted at a window point."""

    def __init__(self, x: float, y: float):
        self.pos = (x, y)
        self.x, self.y = x, y
        self.grab_current = None


def _finish(drv) -> None:
    seat = drv.state["active"]
    name = drv.state["players"][seat]["name"]
    assert drv.app.act({"action": "adjust", "player": name, "resource": "combat_wins",
                        "delta": drv.state["target"]}), drv.app.message
    for _ in range(6):
        if drv.app.root.current == "final":
            return
        for wid in ("end_main", "end_turn"):
            if drv.app.root.current == "gladiadores" and drv.find(wid, missing_ok=True):
                drv.press(wid)
    assert drv.app.root.current == "final"


def _window_point(view, px: float, py: float) -> tuple[float, float]:
    w, h = view.norm_image_size
    left, bottom = view.center_x - w / 2, view.center_y - h / 2
    pw, ph = view.photo_size
    return left + px / pw * w, bottom + (1 - py / ph) * h


def test_scan_a_players_pieces_correct_and_score(drv, tmp_path, monkeypatch):
    home = tmp_path / "home"
    (home / "Pictures").mkdir(parents=True)
    monkeypatch.setenv("HOME", str(home))
    new_game(drv, "gladiadores", ["Ana", "Luis"])
    _finish(drv)
    drv.press("scan")
    assert drv.app.root.current == "scan"
    screen = drv.screen
    drv.shot("empty")
    assert "Sin foto" in drv.find("summary").text
    assert drv.find("scan_camera").disabled          # no camera on a desktop
    # Ana's end of game as in examples/gladiadores.yaml: 4 buildings, discs 3 + 3 + 1
    chosen = scanphotos.pieces("gladiadores", GLADIADORES["Ana"])
    photo, truth = scanphotos.photo(home / "Pictures", "ana", "gladiadores", 41, "1.2MP", chosen, table_mm=460)
    assert len(truth.visible) == 7
    drv.press("scan_open")
    popup = screen.chooser_popup
    chooser = next(w for w in walk(popup) if getattr(w, "wid", "") == "scan_chooser")
    drv.step(4)
    assert chooser.path == str(home / "Pictures") and str(photo) in chooser.files  # not a bare "../"
    drv.shot("picker")
    chooser.selection = [str(photo)]
    choose = next(w for w in walk(popup) if getattr(w, "wid", "") == "scan_choose")
    choose.dispatch("on_release")
    drv.step(4)
    scan = screen.review.scan("Ana")
    assert sorted(f.target.id for f in scan.found) == sorted(
        ["casula", "cubiculum", "templum", "statua", "points_3", "points_3", "points_1"])
    assert len(drv.wids("scan_item_")) == 7
    assert drv.find("summary").text == "edificios: 4 · discos: 3"
    # each piece's number in a badge on the photo: none overlap, each readable (24 px or more across)
    view = drv.find("photo")
    shown = view.norm_image_size[0] / view.texture.width
    assert len(screen.badges) == 7 and 2 * screen.badge_radius * shown >= 22, (screen.badge_radius, shown)
    for i, (ax, ay) in enumerate(screen.badges):
        for bx, by in screen.badges[i + 1:]:
            assert ((ax - bx) ** 2 + (ay - by) ** 2) ** 0.5 >= 2 * screen.badge_radius
    assert sorted(drv.find(f"scan_item_{i}").text.split(".")[0] for i in range(7)) == [str(n) for n in range(1, 8)]
    drv.shot("recognised")
    # a tap on the Statua in the photo strikes it out
    statua = next(i for i, f in enumerate(scan.found) if f.target.id == "statua")
    cx, cy = scan.found[statua].centre
    view = drv.find("photo")
    view.on_touch_up(Tap(*_window_point(view, cx, cy)))
    drv.step(3)
    assert scan.struck == {statua}
    assert drv.find("summary").text == "edificios: 3 · discos: 3"
    drv.shot("struck")
    drv.press("scan_score")
    result = screen.last_result
    assert "Con las fotos" in drv.find("result").text and drv.cut_texts() == [], drv.cut_texts()
    ana = next(p for p in result.players if p.name == "Ana")
    assert (ana.breakdown["combat"], ana.breakdown["buildings"], ana.total) == (7, 2, 9)  # 3+3+1; Templum 2
    luis_app = next(p for p in drv.state["final"]["players"] if p["name"] == "Luis")
    luis = next(p for p in result.players if p.name == "Luis")
    assert luis.total == luis_app["total"]                  # not photographed: the game's own
    drv.shot("scored")
    # its button counts it again: Statua 1 more
    drv.press(f"scan_item_{statua}")
    drv.press("scan_score")
    assert next(p for p in screen.last_result.players if p.name == "Ana").total == 10
    # a piece added by hand (a point disc whose marker was under a card)
    drv.find("add").text = "Disco de 1 punto"
    drv.step(2)
    drv.press("scan_score")
    ana = next(p for p in screen.last_result.players if p.name == "Ana")
    assert (ana.breakdown["combat"], ana.total) == (8, 11)
    assert "Disco de 1 punto" in drv.texts()
    drv.shot("added")
    # issue 22 #8: the reviewed score becomes the game's saved final score
    before = drv.state["final"]
    assert not drv.find("scan_save").disabled
    drv.press("scan_save")
    assert drv.app.root.current == "final"
    final = drv.state["final"]
    assert final["reviewed"] and [(p["name"], p["total"]) for p in final["players"]] == [
        (p.name, p.total) for p in screen.last_result.players]
    assert drv.app.store.open(drv.app.session.id).state["final"]["players"] == final["players"]  # saved
    assert "Ana  ·  11" in drv.texts() and "Puntuación revisada con las fotos" in drv.texts()
    assert drv.cut_texts() == []
    drv.shot("saved_final")
    drv.press("undo")
    assert drv.state["final"]["players"] == before["players"]


def test_a_photo_that_is_not_one_and_discs_that_are_no_combat_are_said_in_spanish(drv, tmp_path):
    new_game(drv, "gladiadores", ["Ana", "Luis"])
    _finish(drv)
    drv.press("scan")
    screen = drv.screen
    fake = tmp_path / "foto.jpg"
    fake.write_text("no soy una foto", "utf-8")
    screen.load_photo(str(fake))
    drv.step(2)
    assert screen.notice == f"{fake}: no es una imagen que Ludoteca sepa leer (una foto JPEG o PNG)"
    assert screen.review.scan("Ana").photo == ""  # nothing read, nothing kept
    drv.shot("not_a_photo")
    # a house rule of 2 points a combat won: discs 3 + 3 + 1 = 7 are no whole number of combats
    points = screen.review.game.meta["combat"]["points"]
    saved = points["attacker_wins"]
    points["attacker_wins"] = 2
    try:
        photo, _truth = scanphotos.photo(tmp_path, "ana", "gladiadores", 41, "1.2MP",
                                         scanphotos.pieces("gladiadores", GLADIADORES["Ana"]), table_mm=460)
        # the photo comes from the platform's camera (a phone's: written to a content URI)
        platform, asked = drv.app.platform, []

        def camera(path, done):
            asked.append(path)
            path.write_bytes(photo.read_bytes())
            done(str(path))
            return True
        platform.has_camera, platform.take_photo = True, camera
        screen.refresh()
        drv.press("scan_camera")
        drv.step(4)
        assert asked == [platform.photo_folder() / "scan-Ana.jpg"]
        assert screen.review.scan("Ana").photo == str(asked[0]) and len(screen.review.scan("Ana").found) == 7
        drv.press("scan_score")
        assert drv.find("result").text == ("los discos de puntos suman 7, que no es un número entero de "
                                           "combates ganados (2 cada uno)")
        assert drv.app.root.current == "scan"
        drv.shot("discs_no_combat")
    finally:
        points["attacker_wins"] = saved

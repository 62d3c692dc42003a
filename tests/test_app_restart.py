"""A closed or killed app reopens exactly where it was: same game, same screen, same state."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import appdriver
from appdriver import AppDriver, new_game

CHILD = r"""
import json, sys, time
sys.path.insert(0, sys.argv[2])
from pathlib import Path
from appdriver import AppDriver, new_game
drv = AppDriver(Path(sys.argv[1]), "test_app_restart.killed_child").start()
new_game(drv, "el_mapa", ["Ana", "Luis", "Eva"])
drv.press("p0_oro_plus")
drv.press("p1_madera_plus")
drv.press("reveal")
drv.press("reveal_confirm")
drv.shot("before_kill")
print(json.dumps({"seq": drv.app.session.seq, "id": drv.app.session.id, "state": drv.state}), flush=True)
time.sleep(60)
"""


def test_close_and_start_again_resumes_the_same_game(tmp_path):
    with AppDriver(tmp_path, "test_app_restart.closed") as drv:
        new_game(drv, "ciudadelas", ["Ana", "Luis", "Eva", "Pablo"])
        drv.press(drv.wids("choose_")[-1])
        drv.press(drv.wids("choose_")[0])
        drv.press("adjust_2")
        drv.press("adjust_2_hand_plus")
        game_id, seq, state = drv.app.session.id, drv.app.session.seq, drv.state
        drv.shot("before_close")
    settings = json.loads((tmp_path / "settings.json").read_text("utf-8"))
    assert settings["open_game"] == game_id
    with AppDriver(tmp_path, "test_app_restart.closed") as drv:
        assert drv.app.root.current == "ciudadelas"
        assert drv.app.session.id == game_id and drv.app.session.seq == seq
        assert drv.state == state
        assert drv.state["players"][2]["hand"] == state["players"][2]["hand"]
        drv.shot("after_start")
        # Going home leaves the game saved and offered for resume.
        drv.press("home")
        assert drv.app.root.current == "home"
        drv.press(f"resume_{game_id}")
        assert drv.app.root.current == "ciudadelas" and drv.state == state


def test_killed_app_reopens_where_it_was(tmp_path):
    appdriver.ensure_display()
    child = subprocess.Popen([sys.executable, "-c", CHILD, str(tmp_path), str(Path(__file__).parent)],
                             stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                             cwd=appdriver.ROOT, env=dict(os.environ))
    try:
        line = child.stdout.readline()
        assert line, "the child app did not report"
        before = json.loads(line)
        os.kill(child.pid, signal.SIGKILL)
        child.wait(10)
    finally:
        if child.poll() is None:
            child.kill()
    with AppDriver(tmp_path, "test_app_restart.killed") as drv:
        assert drv.app.root.current == "el_mapa"
        assert drv.app.session.id == before["id"] and drv.app.session.seq == before["seq"]
        assert drv.state == before["state"]
        drv.shot("after_kill")


def test_a_file_that_is_not_a_ludoteca_database_is_said_and_left_alone(tmp_path):
    drv = AppDriver(tmp_path, "test_app_restart.not_ours")
    drv.db.write_text("notas de la partida\n", "utf-8")
    with drv:
        drv.shot("home")
        assert drv.app.store is None
        assert drv.app.message.startswith("No se pueden guardar partidas: ")
        assert len(drv.app.message.splitlines()) == 1
    assert drv.db.read_text("utf-8") == "notas de la partida\n"

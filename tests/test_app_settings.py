"""Settings in the real window: the settings file, the first start in the system's language, the
voice switch, colours paired with a shape and a number, and every new screen at font scale 1.0 and
1.3 with no text cut off (each scale in its own process: Kivy reads the scale once)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import appdriver
from appdriver import AppDriver, new_game

CHILD = r"""
import json, sys
import pytest  # test_app_table imports appdriver's drv fixture, defined under pytest
sys.path.insert(0, sys.argv[2])
from pathlib import Path
from appdriver import AppDriver, new_game
from test_app_table import finished_game_with_clock
folder, scale = Path(sys.argv[1]), sys.argv[3]
game_id = finished_game_with_clock(folder / "ludoteca.db", 3, 0.5)
cut = {}
drv = AppDriver(folder, f"test_app_settings.font_{scale}").start()
def look(name):
    drv.shot(name)
    cut[name] = drv.cut_texts()
look("home")
new_game(drv, "ciudadelas", ["Ana", "Luis", "Eva", "Pablo"])
look("ciudadelas")
drv.press("call_characters")
drv.step(3)
look("ciudadelas_calling")
drv.press("call_characters")
drv.app.resume(game_id)
drv.step(3)
look("final")
drv.press("home")
drv.press("history")
look("history")
drv.press("open_stats")
look("statistics")
print(json.dumps({"fontscale": __import__("kivy.metrics").metrics.Metrics.fontscale, "cut": cut}), flush=True)
drv.stop()
"""


@pytest.mark.parametrize("scale", ["1.0", "1.3"])
def test_no_text_is_cut_at_the_phones_font_scale(tmp_path, scale):
    appdriver.ensure_display()
    env = dict(os.environ, KIVY_METRICS_FONTSCALE=scale, LANGUAGE="es")
    out = subprocess.run([sys.executable, "-c", CHILD, str(tmp_path), str(Path(__file__).parent), scale],
                         capture_output=True, text=True, cwd=appdriver.ROOT, env=env, timeout=300)
    assert out.returncode == 0, out.stderr[-2000:]
    report = json.loads(out.stdout.strip().splitlines()[-1])
    assert report["fontscale"] == float(scale)
    assert report["cut"] == {name: [] for name in report["cut"]} and len(report["cut"]) == 6


def test_settings_file_first_start_language_voice_switch_and_marks(tmp_path, monkeypatch):
    monkeypatch.setenv("LANGUAGE", "en_GB")
    with AppDriver(tmp_path, "test_app_settings.english_first_start") as drv:
        assert drv.app.lang == "en" and "New game" in drv.texts()
        drv.shot("home_en")
        assert drv.find("voice").active is True
        drv.find("voice").active = False
        drv.step(2)
        new_game(drv, "ciudadelas", ["Ana", "Luis", "Eva"])
        assert drv.find("call_characters", missing_ok=True) is None  # the voice is off
        marks = [drv.find(f"mark_{seat}") for seat in range(3)]
        assert [m.text for m in marks] == ["1", "2", "3"]
        assert len({m.shape for m in marks}) == 3  # three colours, three shapes
        drv.shot("marks")
    assert drv.settings.is_file()
    saved = json.loads(drv.settings.read_text("utf-8"))
    assert saved["lang"] == "en" and saved["voice"] is False
    monkeypatch.setenv("LANGUAGE", "es_ES")
    with AppDriver(tmp_path, "test_app_settings.english_first_start") as drv:
        assert drv.app.lang == "en"  # the saved choice, not the system's language, from now on
        assert drv.app.prefs.voice is False

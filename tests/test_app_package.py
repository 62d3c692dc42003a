"""The phone package starts: exactly the files buildozer.spec packages, in a fresh virtual environment
holding only the spec's requirements that pip can install on a desktop (Kivy and PyYAML, at the
lock's versions), started as python-for-android starts it (``python main.py``) in a real window
under Xvfb."""

from __future__ import annotations

import os
import queue
import subprocess
import threading
import time
from pathlib import Path

import pytest

import androidspec as spec
import lockenv
from appdriver import SHOTS, ensure_display

SHOWN_HOME = "showing the home screen"  # Kivy logs "Ludoteca: ..." as [Ludoteca] ...


@pytest.fixture(scope="module")
def packaged(tmp_path_factory) -> tuple[Path, Path]:
    """(the app folder, the virtual environment) for the packaged files."""
    base = tmp_path_factory.mktemp("android")
    files = spec.copy_package(base / "app")
    assert Path("main.py") in files
    env_dir = base / "venv"
    wanted = spec.requirements(spec.read_spec())
    pip = [f"{spec.PIP_NAMES.get(name, name)}{pin}" for name, pin in wanted.items() if name in spec.DESKTOP_PIP]
    assert any(p.startswith("kivy==") for p in pip)
    lockenv.make_env(env_dir, *pip)
    return base / "app", env_dir


def _reader(stream, lines: queue.Queue) -> None:
    for line in stream:
        lines.put(line)


def test_the_packaged_files_start_on_the_home_screen(packaged, tmp_path):
    app_dir, env_dir = packaged
    ensure_display()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "LUDOTECA", "KIVY"))}
    env.update(HOME=str(tmp_path), KIVY_HOME=str(tmp_path / "kivy"), KIVY_NO_ARGS="1",
               LUDOTECA_DB=str(tmp_path / "games.db"))
    proc = subprocess.Popen([str(env_dir / "bin" / "python"), "main.py"], cwd=app_dir, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    lines: queue.Queue = queue.Queue()
    threading.Thread(target=_reader, args=(proc.stdout, lines), daemon=True).start()
    seen: list[str] = []
    deadline = time.monotonic() + 90
    try:
        while time.monotonic() < deadline and not any(SHOWN_HOME in line for line in seen):
            try:
                seen.append(lines.get(timeout=1))
            except queue.Empty:
                assert proc.poll() is None, "".join(seen)
        assert any(SHOWN_HOME in line for line in seen), "".join(seen)
        from PIL import ImageGrab, ImageStat
        # the first frames follow the log line; on a loaded machine they may take seconds
        drawn = time.monotonic() + 30
        while True:
            time.sleep(0.5)
            shot = ImageGrab.grab(xdisplay=os.environ["DISPLAY"])
            contrast = max(ImageStat.Stat(shot.convert("L")).stddev)
            if contrast > 10 or time.monotonic() > drawn:
                break
        folder = SHOTS / "test_app_package"
        folder.mkdir(parents=True, exist_ok=True)
        shot.save(folder / "home.png")
        assert contrast > 10, "the screen is still blank 30 s after the home screen was shown"
    finally:
        proc.terminate()
        try:
            proc.wait(15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
    time.sleep(0.2)
    while not lines.empty():
        seen.append(lines.get())
    log = "".join(seen)
    assert "Traceback" not in log and "ModuleNotFoundError" not in log, log
    assert (tmp_path / "games.db").is_file()
    # everything the app imported came from the packaged folder or the environment, never the checkout
    assert str(spec.ROOT) not in log

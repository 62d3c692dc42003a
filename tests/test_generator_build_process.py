"""``ludoteca build`` run as its own process ends without the interpreter's tear-down (quick
exit, as ``deck`` and ``scan`` do): every file it wrote is whole and its summary reached the pipe."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

#: the command as ``python -m ludoteca`` runs it, with an exit hook that says whether the
#: interpreter's tear-down ran (it does not after a quick exit)
RUN = ("import atexit, sys\n"
       "atexit.register(lambda: print('tear-down ran', file=sys.stderr))\n"
       "from ludoteca.cli import main\n"
       "sys.argv = ['ludoteca'] + sys.argv[1:]\n"
       "raise SystemExit(main())\n")


def test_a_build_run_as_a_process_quits_at_once_leaving_every_file_whole(tmp_path: Path) -> None:
    out = tmp_path / "out"
    env = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}   # a pipe's buffer kept
    env["XDG_CACHE_HOME"] = str(tmp_path / "cache")
    done = subprocess.run([sys.executable, "-c", RUN, "build", "ciudadelas", "--out", str(out)],
                          capture_output=True, text=True, timeout=180, env=env)
    assert done.returncode == 0, done.stderr
    assert "tear-down ran" not in done.stderr
    assert " written, " in done.stdout                     # the summary line reached the pipe
    manifest = json.loads((out / "manifest.json").read_text(encoding="utf-8"))
    listed = [f["path"] for f in manifest["files"]]
    assert listed and all(p.endswith(".pdf") for p in listed)
    for rel in listed:
        pdf = (out / rel).read_bytes()
        assert pdf.startswith(b"%PDF-") and pdf.rstrip().endswith(b"%%EOF"), rel
    assert not list(out.rglob("*.tmp"))
    assert (out / "LEEME-imprimir.txt").read_text(encoding="utf-8").startswith("Ludoteca")

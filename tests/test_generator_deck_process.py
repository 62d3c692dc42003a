"""``ludoteca deck`` run as its own process ends without the interpreter's tear-down (quick
exit): what it wrote and said must all be there when the process is gone."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

from ludoteca.cli import main
from ludoteca.generator import binding


#: Modules a deck run does without, each a few milliseconds of its start: the pool's
#: concurrent.futures (with logging and queue) is for the kit's workers, and a deck draws in-process;
#: the kit's value classes are generator.record's, not dataclasses (with inspect, ast and dis);
#: packing is for the kit's tokens, never a deck's cards; traceback (with linecache, tokenize and
#: textwrap) only for a face Jinja renders over its budget; argparse (with gettext and locale) only
#: for a command line ludoteca.cli.quick_parse leaves to it; the files are synced on _thread's
#: threads, not threading's; numbers only for a template's ``is number``; a PDF's title in UTF-16 is
#: written by codecs' own encoder, without the codec's module.
HEAVY = {"concurrent.futures", "logging", "queue", "dataclasses", "ludoteca.generator.pack",
         "traceback", "tokenize", "textwrap", "argparse", "gettext", "locale", "threading", "numbers",
         "encodings.utf_16_be"}


def test_a_deck_run_as_a_process_leaves_every_file_whole_and_its_summary_said(tmp_path: Path) -> None:
    data = tmp_path / "cards.csv"
    data.write_text("name,cost,color,text\nUno,1,rojo,Primera\nDos,2,azul,Segunda\nTres,3,verde,\n",
                    encoding="utf-8")
    out = tmp_path / "out"
    env = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}   # a pipe's buffer kept
    binding.load()      # cairo's declarations in the cache as after a first run (pycparser not imported)
    assert main(["deck", str(data), "--out", str(tmp_path / "first"), "-q"]) == 0   # its templates compiled
    done = subprocess.run([sys.executable, "-X", "importtime", "-m", "ludoteca", "deck", str(data), "--out", str(out)],
                          capture_output=True, text=True, timeout=120, env=env)
    assert done.returncode == 0, done.stderr
    imported = set(re.findall(r"^import time:.*\| *(\S+)$", done.stderr, re.M))
    assert "ludoteca.generator.deck" in imported                     # the listing is read right
    assert not imported & HEAVY, f"a deck run imported {sorted(imported & HEAVY)}"
    assert "1 written" in done.stdout                      # the summary line reached the pipe
    pdf = (out / "cards.pdf").read_bytes()
    assert pdf.startswith(b"%PDF-") and pdf.rstrip().endswith(b"%%EOF")
    manifest = json.loads((out / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["complete"] is not False and [f["path"] for f in manifest["files"]] == ["cards.pdf"]
    assert sorted(p.name for p in out.iterdir()) == ["LEEME-imprimir.txt", "cards.pdf", "manifest.json"]

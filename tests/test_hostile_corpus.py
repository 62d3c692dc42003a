"""The hostile corpus (tests/hostile/corpus.py) run as a user runs the command, in one process
whose address space is capped at its idle size plus 200 MB: every case answered with a clear
error or the right result, no traceback, no hang, no memory error."""

from __future__ import annotations

import collections
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

CORPUS = Path(__file__).resolve().parent / "hostile" / "corpus.py"


SHARDS = 4  # the corpus runs in this many processes, side by side under pytest-xdist


@pytest.mark.parametrize("shard", range(SHARDS))
def test_every_hostile_input_gets_a_clear_answer_under_a_memory_limit(tmp_path, shard):
    env = dict(os.environ)
    done = subprocess.run([sys.executable, str(CORPUS), "--shard", f"{shard}/{SHARDS}"], capture_output=True,
                          text=True, cwd=tmp_path, env=env, timeout=3600)
    lines = [json.loads(line) for line in done.stdout.splitlines()]
    assert lines, done.stderr[-3000:]
    summary = lines[-1]
    assert summary.get("summary"), done.stderr[-3000:]
    results = lines[:-1]
    failures = [f"{r['kind']}/{r['name']}: {r['problems']}" for r in results if r["problems"]]
    assert not failures, "\n".join(failures[:40])
    assert summary["address_space_limit"] is not None
    slowest = max(results, key=lambda r: r["seconds"])
    print(collections.Counter(r["kind"] for r in results), "peak RSS", summary["peak_rss"] // 2**20, "MB",
          "slowest", slowest["kind"], slowest["name"], slowest["seconds"], "s")
    assert len(results) >= sum(summary["corpus"].values()) // SHARDS
    assert sum(summary["corpus"].values()) >= 500 and len(summary["corpus"]) >= 15
    assert done.returncode == 0

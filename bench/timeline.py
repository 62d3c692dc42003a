"""Where a cold kit's time goes, process by process: a timeline of the build and its workers.

    python bench/timeline.py [--runs 3] [--fresh] [--against DIR] [-- BUILD ARGS...]

Builds the whole kit cold (``python -m ludoteca.cli build``, the page and rulebook caches emptied;
``--fresh``: the whole user cache emptied, as on a machine that never ran Ludoteca) in a fresh process
whose build steps and render jobs are timed where they run: the parent's steps (cards loaded,
components laid out, books waited for, files joined, staging committed) and each worker's jobs
(warm-up, a rulebook set, a component's pages drawn, a file joined), with the CPU each took.
Prints, per process, its spans, its idle time, when it ended and a chart at 50 ms a character;
then which job ended last.  The bytecode cache is kept between runs as bench_build.py keeps it.
"""

from __future__ import annotations

import argparse
import importlib.abc
import importlib.machinery
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

#: What is timed: module -> names (``Class.method`` for a method).  Spans nest; ``*`` marks a
#: function called often, summed per process instead of drawn.
TIMED = {
    "ludoteca.cards": ["load"],
    "ludoteca.generator.catalogcache": ["load"],
    "ludoteca.generator.build": ["_import_shared", "game_components", "plan", "plan_streamed",
                                 "merge_entries", "_write_manifest", "component_key"],
    "ludoteca.generator.render": ["_render_job", "_render_job_and_file", "_write_pdf", "_warm", "assemble_all",
                                  "Workers.start", "PageSender.finish", "Cache.save_index",
                                  "Cache.prune", "Cache.__init__", "_pages_to_pdf"],
    "ludoteca.generator.staging": ["Stage.commit", "Stage.open", "Stage.write_bytes"],
    "ludoteca.generator.rulebook": ["warm_up", "_serve", "Setter.send", "_make_shared", "_make", "book_pages",
                                    "booklet_of", "_measure", "start_documents", "_documents"],
    "ludoteca.generator.rulebook.content": ["blocks"],
    "ludoteca.generator.rulebook.common": ["scored_example"],
    "ludoteca.generator.rulebook.typeset": ["_set", "_draw_pictures", "_pictured", "_written", "*_drawn",
                                            "pages_set"],
    "ludoteca.generator.rulebook.impose": ["impose", "impose_pages"],
    "ludoteca.generator.templating": ["_import_env", "*environment", "*render"],
    "ludoteca.generator.layout": ["*lay_out"],
}

LOG = None
T0 = 0.0


def _emit(record: dict) -> None:
    os.write(LOG, (json.dumps(record) + "\n").encode())


def _timed(fn, name: str, often: bool):
    """``fn`` timed: a span of its own (nested spans one level deeper), or summed when ``often``."""
    import functools

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        t, c, depth = time.time(), time.process_time(), _DEPTH[0]
        if not often:
            _DEPTH[0] += 1
        try:
            return fn(*args, **kwargs)
        finally:
            _DEPTH[0] = depth
            if often:
                s = _SUMS.setdefault((os.getpid(), name), [0, 0.0, 0.0])
                s[0] += 1
                s[1] += time.time() - t
                s[2] += time.process_time() - c
            else:
                label = name + (" " + _what(name, args) if args else "")
                _emit({"pid": os.getpid(), "name": label.strip(), "start": t - T0, "end": time.time() - T0,
                       "cpu": time.process_time() - c, "depth": depth})
    return wrapper


_SUMS: dict[tuple, list] = {}
#: What a worker's busy time is made of (waiting for the books to set is not).
WORK = ("_warm", "warm_up", "_make", "_render_job", "_write_pdf")
_DEPTH = [0]


def _what(name: str, args: tuple) -> str:
    try:
        if name == "_render_job":
            page = args[0][0][1]
            return f"{page.group or page.label} ({len(args[0])} p)"
        if name in ("_make_shared", "_make"):
            return str(args[0] if name == "_make_shared" else args[1])
        if name == "_write_pdf":
            return Path(args[0][0]).name.split(".")[0] + f" ({len(args[0][2])} p)"
    except Exception:  # noqa: BLE001  only a label
        pass
    return ""


def _patch(module) -> None:
    for entry in TIMED.get(module.__name__, []):
        often = entry.startswith("*")
        entry = entry.lstrip("*")
        owner, attr = module, entry
        if "." in entry:                    # a method: skipped where the class is not (an older checkout)
            owner, attr = getattr(module, entry.split(".")[0], None), entry.split(".")[1]
        original = getattr(owner, attr, None)
        if original is not None:
            setattr(owner, attr, _timed(original, entry, often))


class _Loader(importlib.abc.Loader):
    def __init__(self, loader):
        self.loader = loader

    def create_module(self, spec):
        return self.loader.create_module(spec)

    def exec_module(self, module):
        self.loader.exec_module(module)
        _patch(module)

    def __getattr__(self, name):
        return getattr(self.loader, name)


class _Finder(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path, target=None):
        if name not in TIMED:
            return None
        spec = importlib.machinery.PathFinder.find_spec(name, path, target)
        if spec is not None and spec.loader is not None:
            spec.loader = _Loader(spec.loader)
        return spec


def child() -> None:
    """The build, timed (run by :func:`main` as ``timeline.py --child LOG T0 ARGS...``)."""
    global LOG, T0
    LOG = os.open(sys.argv[2], os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
    T0 = float(sys.argv[3])
    args = sys.argv[4:]
    _emit({"pid": os.getpid(), "name": "python started", "start": 0.0, "end": time.time() - T0,
           "cpu": time.process_time(), "depth": 0})
    sys.meta_path.insert(0, _Finder())
    import concurrent.futures.process as cfp

    worker = cfp._process_worker

    def process_worker(*a, **k):
        _DEPTH[0] = 0                    # forked inside the parent's spans
        try:
            worker(*a, **k)
        finally:
            _flush_sums()
            _emit({"pid": os.getpid(), "name": "worker exits", "start": time.time() - T0, "loaded": _loaded(),
                   "end": time.time() - T0, "cpu": time.process_time(), "depth": 0, "end_of": True})
    cfp._process_worker = process_worker
    real_exit, me = os._exit, os.getpid()

    def leave(code: int) -> None:
        if os.getpid() == me:
            _flush_sums()
            _emit({"pid": me, "name": "parent exits", "start": time.time() - T0, "end": time.time() - T0,
                   "loaded": _loaded(),
                   "cpu": time.process_time(), "depth": 0, "end_of": True, "parent": True})
        real_exit(code)
    os._exit = leave
    t, c = time.time(), time.process_time()
    from ludoteca import cli
    _emit({"pid": me, "name": "import ludoteca.cli", "start": t - T0, "end": time.time() - T0,
           "cpu": time.process_time() - c, "depth": 0})
    sys.argv = ["ludoteca", *args]
    code = cli.main()
    leave(code)


HEAVY = ("reportlab.platypus", "pypdf", "jinja2", "cairocffi", "cairosvg", "ludoteca.companion.engine.scoring")


def _loaded() -> list[str]:
    """Which of the heavy modules this process has loaded."""
    return [name for name in HEAVY if name in sys.modules]


def _flush_sums() -> None:
    for (pid, name), (n, wall, cpu) in _SUMS.items():
        if pid == os.getpid():
            _emit({"pid": pid, "name": f"{name} x{n}", "sum": True, "wall": wall, "cpu": cpu})


def one_run(env: dict, out: Path, log: Path, cwd: Path, build_args: list[str]) -> tuple[float, float, list]:
    """One timed build: (wall, CPU of all its processes, the records)."""
    log.unlink(missing_ok=True)
    t0 = time.time()
    proc = subprocess.Popen([sys.executable, str(Path(__file__).resolve()), "--child", str(log), repr(t0),
                             "build", *build_args, "--out", str(out)], cwd=cwd, env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.time() - t0
    err = proc.stderr.read().decode()
    proc.stderr.close()
    if status != 0:
        raise SystemExit(f"build failed: {err[-2000:]}")
    records = [json.loads(line) for line in log.read_text().splitlines()]
    return wall, usage.ru_utime + usage.ru_stime, records


def show(wall: float, cpu: float, records: list, width: float = 0.05) -> None:
    """One run's timeline as text."""
    parent = next(r["pid"] for r in records if r.get("parent"))
    pids = [parent] + sorted({r["pid"] for r in records} - {parent})
    print(f"wall {wall:.3f} s, CPU {cpu:.3f} s (all processes)")
    for n, pid in enumerate(pids):
        mine = [r for r in records if r["pid"] == pid and not r.get("sum")]
        ends = [r for r in mine if r.get("end_of")]
        label = "parent" if pid == parent else f"worker {n}"
        end = ends[0]["start"] if ends else max(r["end"] for r in mine)
        print(f"\n{label} (pid {pid}): ends at {end:.3f} s" + (f", CPU {ends[0]['cpu']:.3f} s" if ends else "")
              + (f"; loaded {', '.join(ends[0].get('loaded', []))}" if ends else ""))
        spans: list[tuple[float, float]] = []
        last = None
        for r in sorted(mine, key=lambda r: (r["start"], -r["end"])):
            if r.get("end_of"):
                continue
            pad = "  " * r["depth"]
            print(f"  {pad}{r['start']:7.3f} - {r['end']:7.3f}  {r['end'] - r['start']:6.3f} s  "
                  f"cpu {r['cpu']:6.3f}  {r['name']}")
            if pid != parent and r["name"].startswith(WORK):
                spans.append((r["start"], r["end"]))
                if last is None or r["end"] > last["end"]:
                    last = r
        for r in records:
            if r["pid"] == pid and r.get("sum"):
                print(f"  (sum) {r['wall']:6.3f} s  cpu {r['cpu']:6.3f}  {r['name']}")
        busy, reach = 0.0, 0.0
        for a, b in sorted(spans):             # their union: nested spans count once
            busy += max(0.0, b - max(a, reach))
            reach = max(reach, b)
        if pid != parent:
            first = min(r["start"] for r in mine if not r.get("end_of"))
            print(f"  busy {busy:.3f} s of {end - first:.3f} s from its first job; last job: "
                  f"{last['name'] if last else '-'} ending {last['end'] if last else 0:.3f} s")
    # a chart: one row per process, one character per ``width`` seconds
    print(f"\nchart ({width * 1000:.0f} ms a character; letters: r render job, b book, w write pdf, "
          "u warm-up, c cards, l layout, a assemble, s stage, . idle)")
    letters = [("_render_job", "r"), ("_make", "b"), ("_serve", "."), ("_write_pdf", "w"), ("warm_up", "u"),
               ("_warm", "u"),
               ("load", "c"), ("plan", "l"), ("assemble_all", "a"), ("Stage.commit", "s"),
               ("import ludoteca.cli", "i"), ("python started", "p"), ("PageSender.finish", "f"),
               ("_documents", "d"), ("_import_shared", "j"), ("Workers.start", "k")]
    cols = int(wall / width) + 1
    for n, pid in enumerate(pids):
        row = ["." for _ in range(cols)]
        for r in sorted([r for r in records if r["pid"] == pid and not r.get("sum") and not r.get("end_of")],
                        key=lambda r: r["depth"]):          # the innermost span shows
            ch = next((c for k, c in letters if r["name"].startswith(k)), None)
            if ch is None:
                continue
            for i in range(int(r["start"] / width), min(cols, int(r["end"] / width) + 1)):
                row[i] = ch
        print(f"  {'parent' if pid == parent else f'worker {n}':<9}{''.join(row)}")


def main() -> int:
    if len(sys.argv) > 1 and sys.argv[1] == "--child":
        child()
        return 0
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--fresh", action="store_true", help="empty the whole user cache before each build")
    parser.add_argument("--root", type=Path, default=ROOT, help="the checkout to build with (this one)")
    parser.add_argument("--all", action="store_true", help="print every run's timeline, not only the median's")
    parser.add_argument("build_args", nargs="*")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="ludoteca-timeline-") as tmp:
        tmp = Path(tmp)
        env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        env.update(PYTHONPYCACHEPREFIX=str(tmp / "pycache"), XDG_CACHE_HOME=str(tmp / "xdg"),
                   PYTHONPATH=str(args.root))
        out = tmp / "kit"
        one_run(env, out, tmp / "log", args.root, args.build_args)      # warm-up: bytecode, caches
        runs = []
        for _ in range(args.runs):
            shutil.rmtree(out, ignore_errors=True)
            if args.fresh:
                shutil.rmtree(tmp / "xdg", ignore_errors=True)
            else:
                for name in ("kits", "rulebooks"):
                    shutil.rmtree(tmp / "xdg" / "ludoteca" / name, ignore_errors=True)
            runs.append(one_run(env, out, tmp / "log", args.root, args.build_args))
        order = sorted(range(len(runs)), key=lambda i: runs[i][0])
        for i in (range(len(runs)) if args.all else [order[len(order) // 2]]):
            show(*runs[i])
            print()
        print(f"walls {[round(r[0], 3) for r in runs]}, median {statistics.median(r[0] for r in runs):.3f} s; "
              f"CPU {[round(r[1], 3) for r in runs]}, median {statistics.median(r[1] for r in runs):.3f} s; "
              f"load {os.getloadavg()[0]:.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

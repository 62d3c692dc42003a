"""Time and memory of every case of the hostile corpus (tests/hostile/corpus.py): median of several
runs per case, the slowest cases, and the peak resident memory of the whole run.

    python bench/bench_hostile.py [--runs 3] [--only KIND]

The issue's bound: any input up to 1 MB answered in under 2 s and 200 MB.
"""

from __future__ import annotations

import argparse
import resource
import signal
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "hostile"))

import corpus  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--only", default=None)
    args = parser.parse_args()
    from ludoteca.cards import default_dir, load
    load()
    signal.signal(signal.SIGALRM, corpus._alarm)
    cases = [c for c in corpus.all_cases() if args.only is None or c.kind == args.only]
    times: dict[str, list[float]] = {}
    for _ in range(args.runs):
        for case in cases:
            result = corpus.run_case(case, default_dir())
            times.setdefault(f"{case.kind}/{case.name}", []).append(result["seconds"])
    medians = sorted(((statistics.median(v), k) for k, v in times.items()), reverse=True)
    print(f"{len(cases)} cases, {args.runs} runs each; median seconds of the slowest 15:")
    for seconds, name in medians[:15]:
        print(f"  {seconds:7.3f}  {name}")
    print(f"over 2 s: {sum(1 for s, _ in medians if s >= 2.0)}")
    print(f"peak RSS of the whole run: {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024} MB")
    return 0


if __name__ == "__main__":
    sys.exit(main())

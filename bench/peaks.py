"""Run a module as ``python -m`` does, then say the peak memory of this process and of its
largest child (the render workers), and the CPU seconds of all, as one JSON line on stderr, last:

    python bench/peaks.py ludoteca.cli deck cards.csv ...

The peaks are the kernel's (``getrusage``): resident set size, MB.
"""

from __future__ import annotations

import json
import os
import resource
import runpy
import sys


def report() -> None:
    """The JSON line: this process's peak, its largest child's, the CPU of all."""
    me = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    sys.stdout.flush()
    cpu = me.ru_utime + me.ru_stime + children.ru_utime + children.ru_stime
    print(json.dumps({"parent_mb": me.ru_maxrss / 1024, "workers_mb": children.ru_maxrss / 1024,
                      "cpu_s": cpu}), file=sys.stderr, flush=True)


def main() -> None:
    module, sys.argv = sys.argv[1], [sys.argv[1], *sys.argv[2:]]
    code: int | str | None = 0
    quick_exit, me = os._exit, os.getpid()

    def reported_exit(status: int) -> None:   # a command that ends without the tear-down
        if os.getpid() == me:                 # not a forked worker ending
            report()
        quick_exit(status)
    os._exit = reported_exit
    try:
        runpy.run_module(module, run_name="__main__", alter_sys=True)
    except SystemExit as exc:
        code = exc.code
    finally:
        os._exit = quick_exit
        report()
    sys.exit(code)


if __name__ == "__main__":
    main()

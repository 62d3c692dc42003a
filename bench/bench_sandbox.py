"""What jinja2's sandbox costs: the 120 faces of bench/data/cards120.csv rendered with the packaged
deck template in a plain and in a sandboxed environment (medians of N runs, in one process).

    python bench/bench_sandbox.py [--runs 7]

Only the template rendering is timed (fit() and the SVG text included), the way ``ludoteca deck``
renders a user's faces; the page drawing that follows is the same either way.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    from ludoteca.generator import templating
    from ludoteca.generator.deck import deck_component
    folder = str(ROOT / "templates" / "deck")
    comp = deck_component(ROOT / "bench" / "data" / "cards120.csv", "card.svg.j2", None, (63.0, 88.0))
    roots = (folder,)
    times: dict[str, list[float]] = {"plain": [], "sandboxed": []}
    for _ in range(args.runs + 1):                         # the first round warms both up
        for kind, sandboxed in (("plain", False), ("sandboxed", True)):
            env = templating.environment(roots, sandboxed=sandboxed)
            t0 = time.perf_counter()
            for face in comp.fronts:
                context = dict(face.context, w=63.0, h=88.0, bleed=3.0, lang="es", ink_saver=False,
                               t=templating.pick("es"), fit=_fit)
                cur = env.globals["_cur"]
                for key in ("w", "h", "bleed", "lang", "ink_saver", "t", "fit"):
                    setattr(cur, key, context[key])
                env.get_template(face.template).render(context)
            times[kind].append(time.perf_counter() - t0)
    plain, boxed = (statistics.median(times[k][1:]) for k in ("plain", "sandboxed"))
    print(f"{'environment':<12}{'median s':>10}{'per face ms':>13}")
    for kind, value in (("plain", plain), ("sandboxed", boxed)):
        print(f"{kind:<12}{value:>10.4f}{1000 * value / len(comp.fronts):>13.3f}")
    print(f"sandbox cost: {boxed - plain:+.4f} s on 120 faces ({100 * (boxed / plain - 1):+.1f} %), "
          f"{args.runs} runs")
    return 0


def _fit(text, width_mm, height_mm, max_pt, min_pt=6, bold=False):
    from ludoteca.generator.fonts import fit
    return fit(str(text), float(width_mm), float(height_mm), float(max_pt), float(min_pt), bool(bold))


if __name__ == "__main__":
    raise SystemExit(main())

"""Every face of the kit (three games, both languages, ink saver on and off, markers on and off)
and of the 120-card deck (fronts and backs, ink saver on and off), rendered by its compiled
template and by Jinja: the two texts must be the same to the character.  Then the whole kit is
built in this process (no workers, a fresh cache) in both languages with every face its build
renders (the rulebooks' pictures included) rendered both ways and compared.

    python bench/check_compiled.py

Prints how many faces were compared, which templates ran compiled, and every face that differs
(exit 1 if any does).  tests/test_generator_tcompile.py checks a sample of the same faces.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

from ludoteca.cards import load
from ludoteca.generator import templating
from ludoteca.generator.build import GAMES, bleed_of, face_size, game_components
from ludoteca.generator.deck import deck_component
from ludoteca.generator.model import Options
from ludoteca.generator.sheets import data, item_size

ROOT = Path(__file__).resolve().parent.parent


def faces(comp):
    for part in getattr(comp, "parts", None) or [comp]:
        for face in list(part.fronts) + list(part.backs or []):
            yield part, face


def main() -> int:
    start = time.perf_counter()
    catalog = load(None, GAMES)
    kit = (str(templating.TEMPLATES),)
    deck = (str((templating.TEMPLATES / "deck").resolve()),)
    cards = deck_component(ROOT / "bench" / "data" / "cards120.csv", "card.svg.j2", "back.svg.j2",
                           item_size(data()["deck"]["item"]))
    compared, differ, compiled = 0, [], set()
    for lang in ("es", "en"):
        for ink_saver in (False, True):
            for markers in (True, False):
                opts = Options(lang=lang, ink_saver=ink_saver, markers=markers)
                jobs = [(kit, comp) for game in GAMES for comp in game_components(game, catalog, opts, [])]
                jobs += [(deck, cards)] if markers else []
                for roots, comp in jobs:
                    for part, face in faces(comp):
                        size, bleed = face_size(part, opts), bleed_of(part, opts)
                        fast = templating.render(face, size, bleed, opts, "", roots)
                        slow = templating.render(face, size, bleed, opts, "", roots, compiled=False)
                        compared += 1
                        if templating.compiled(face.template, roots):
                            compiled.add(face.template)
                        if fast != slow:
                            differ.append(f"{face.template} {face.name} ({lang}, ink_saver={ink_saver}, "
                                          f"markers={markers})")
    built = builds(differ, compiled)
    print(f"{compared} faces compared, then {built} more in two kit builds, in "
          f"{time.perf_counter() - start:.1f} s; {len(differ)} differ")
    print(f"compiled ({len(compiled)}): {', '.join(sorted(compiled))}")
    for line in differ[:50]:
        print("DIFFERS", line)
    return 1 if differ else 0


def builds(differ: list[str], compiled: set[str]) -> int:
    """Both languages' kits built here, every face rendered both ways; how many were."""
    import os
    import tempfile

    from ludoteca.generator import build
    from ludoteca.generator.rulebook import context
    count = [0]
    real = templating.render

    def both(face, size, bleed, opts, where="", roots=(str(templating.TEMPLATES),), warn=None,
             compiled_=True):
        fast = real(face, size, bleed, opts, where, roots, warn)
        slow = real(face, size, bleed, opts, where, roots, warn, compiled=False)
        count[0] += 1
        if templating.compiled(face.template, roots):
            compiled.add(face.template)
        if fast != slow:
            differ.append(f"{face.template} {face.name} ({where}, {opts.lang})")
        return fast

    templating.render = context.render = both
    os.cpu_count = lambda: 1                       # no workers: every face is rendered here
    with tempfile.TemporaryDirectory() as tmp:
        os.environ["XDG_CACHE_HOME"] = str(Path(tmp) / "cache")
        for lang in ("es", "en"):
            build.build(GAMES, Options(lang=lang), Path(tmp) / lang)
    return count[0]


if __name__ == "__main__":
    sys.exit(main())

"""``ludoteca scan PHOTO... --game GAME``: the scoring components in photos of the table, and
``--score``: the final scores from one photo per player plus what a photo cannot show."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ludoteca.cards.names import json_text, shown


def register(sub: argparse._SubParsersAction) -> None:
    """Add ``scan`` to the ``ludoteca`` command."""
    p = sub.add_parser(
        "scan", help="recognise the printed scoring components in photos (needs ludoteca[scan])",
        description="Find the scan markers printed on the scoring components in photos of the table: "
                    "for each photo, what was recognised, where (outlines) and how many of each kind. "
                    "With --score, one photo per player (--player NAME=PHOTO) plus what a photo cannot "
                    "show (--record PARTIAL.yaml, --set KEY=VALUE) gives the same table as "
                    "`ludoteca score`.",
        epilog="examples:\n"
               "  ludoteca scan mesa.jpg --game ciudadelas\n"
               "  ludoteca scan --game ciudadelas --score --player Ana=ana.jpg --player Luis=luis.jpg \\\n"
               "      --set Ana.gold=2 --set Luis.gold=4 --set first_complete=Ana\n"
               "  ludoteca scan --game gladiadores --score --player Ana=a.jpg --player Luis=l.jpg "
               "--set target=10",
        formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("photos", metavar="PHOTO", nargs="*", help="photos to read (JPEG, PNG)")
    p.add_argument("--game", required=True, help="ciudadelas, el_mapa or gladiadores")
    p.add_argument("--json", action="store_true", help="print JSON instead of a table")
    p.add_argument("--score", action="store_true", help="score the game: needs --player for each player")
    p.add_argument("--player", action="append", default=[], metavar="NAME=PHOTO",
                   help="a player's photo (repeat for each player, in seat order; a name may have several)")
    p.add_argument("--record", metavar="FILE", default=None,
                   help="a partial record (YAML/JSON) with what the photos cannot show")
    p.add_argument("--set", action="append", default=[], metavar="KEY=VALUE", dest="sets",
                   help="one more value: a record field (first_complete=Ana, target=10) or a player's "
                        "(Ana.gold=3, Luis.tiles_revealed=9)")
    p.add_argument("--save-record", metavar="FILE", default=None,
                   help="also write the record that was scored (YAML), to check or edit it")
    p.add_argument("--annotate", metavar="DIR", default=None,
                   help="write each photo with what was recognised drawn on it (PNG) into DIR")
    p.add_argument("--review", metavar="DIR", default=None,
                   help="write into DIR each photo annotated (pieces read from one marker only in orange) "
                        "and the record read, record.yaml, with what each photo showed and what is likely "
                        "missing as comments: check it, edit it, then `ludoteca score DIR/record.yaml`")
    p.add_argument("--lang", choices=("both", "es", "en"), default="both", help="language of the labels")
    p.add_argument("--cards", metavar="DIR", default=None, help="read this copy of the card data")
    # a scan writes its files through ludoteca.atomic and leaves no temporary ones: it may end at once
    p.set_defaults(func=run_scan, quick_exit=True)


def _fail(message: str) -> int:
    print(f"ludoteca scan: {message}", file=sys.stderr)
    return 2


def run_scan(args: argparse.Namespace) -> int:
    """Read the photos; print what they show, or the scores. Exit 2 on bad input or no OpenCV."""
    from ludoteca.cards import fold

    from .scan import ScanError, require_cv2
    game_id = fold(args.game).replace(" ", "_").replace("-", "_")
    if game_id not in ("ciudadelas", "el_mapa", "gladiadores"):
        return _fail(f"--game: unknown game '{args.game}' (one of: ciudadelas, el_mapa, gladiadores)")
    try:
        _check_targets(args)
        require_cv2()
        if args.score:
            from ludoteca.cards import load
            return _score(args, load(args.cards, games=(game_id,)), game_id)
        if args.player or args.record or args.sets:
            return _fail("--player, --record and --set go with --score")
        if not args.photos:
            return _fail("give at least one PHOTO (or --score with --player NAME=PHOTO)")
        return _list(args, game_id)
    except ScanError as exc:
        return _fail(str(exc))


def _check_targets(args: argparse.Namespace) -> None:
    """Before any photo is read: --annotate names a folder and --save-record a file that can be
    written (ludoteca.atomic's one check), else one :class:`ScanError` line."""
    from ludoteca.atomic import Unwritable, file_target, folder_target

    from .scan import ScanError
    if args.review:
        args.annotate = args.annotate or args.review
    for option, value, check in (("--annotate", args.annotate, folder_target),
                                 ("--review", args.review, folder_target),
                                 ("--save-record", args.save_record, file_target)):
        if value:
            try:
                check(value)
            except Unwritable as exc:
                raise ScanError(f"{option} {exc}") from None


def _read(args: argparse.Namespace, paths: list[str], table) -> list:
    """What each photo shows; every photo is read before anything is drawn or printed, so one that
    cannot be read (empty, too large, a FIFO) is told alone."""
    from .scan.detect import scan_photo
    found = [scan_photo(path, table) for path in paths]
    if args.annotate:
        for path, seen in zip(paths, found):
            _annotate(args, path, seen)
    return found


def _annotate(args: argparse.Namespace, path: str, found) -> None:
    import cv2

    from ludoteca.atomic import write_bytes

    from .scan.draw import annotate
    image = cv2.imread(path, cv2.IMREAD_COLOR)
    ok, buf = cv2.imencode(".png", annotate(image, found, "en" if args.lang == "en" else "es"))
    _write(write_bytes, "--annotate", Path(args.annotate) / (Path(path).stem + "-scan.png"), buf.tobytes())


def _write(writer, option: str, target: Path, data) -> None:
    """``writer(target, data)``; a refused target or a failed write is a :class:`ScanError` line."""
    from ludoteca.atomic import Unwritable

    from .scan import ScanError
    try:
        writer(target, data)
    except Unwritable as exc:
        raise ScanError(f"{option} {exc}") from None
    except OSError as exc:
        raise ScanError({"es": f"{option} {target}: no se puede escribir ({exc.strerror})",
                         "en": f"{option} {target}: cannot write ({exc.strerror})"}) from None


def _name(target, lang: str) -> str:
    from .score_cli import say
    return say(target.name, lang)


def _list(args: argparse.Namespace, game_id: str) -> int:
    """What each photo shows (the game's data is read whole only for --review, which writes a
    record; a listing needs the marker table alone)."""
    from .scan.tally import counts, likely_missing, player_fields
    from .scan.targets import game_targets, targets
    if args.review:
        from ludoteca.cards import load
        game = load(args.cards, games=(game_id,))[game_id]
        table = targets(game)
    else:
        table = game_targets(game_id, args.cards)
    photos = []
    seen = _read(args, args.photos, table)
    for path, found in zip(args.photos, seen):
        photos.append({"photo": path, "components": [f.as_json() for f in found],
                       "counts": counts(found), "total": len(found)})
        if not args.json:
            print(f"{path}: {len(found)} component{'s' if len(found) != 1 else ''}")
            for kind, ids in counts(found).items():
                print(f"  {kind}: {sum(ids.values())}")
                for entry_id, n in ids.items():
                    same = [f for f in found if f.target.id == entry_id and f.target.kind == kind]
                    unsure = sum(not f.sure for f in same)
                    print(f"    {n} x {entry_id} ({_name(same[0].target, args.lang)})"
                          + (f", {unsure} {_say(ONE_MARKER, args.lang)}" if unsure else ""))
            for f in found:
                x, y = f.centre
                print(f"  at ({x:.0f}, {y:.0f}) px: {f.target.kind} {f.target.id} "
                      f"[{f.copies}/{f.printed} {_say(MARKERS_READ, args.lang)}], outline "
                      + " ".join(f"{px:.0f},{py:.0f}" for px, py in f.outline[:4])
                      + (" ..." if len(f.outline) > 4 else ""))
    if args.review:
        record = {"game": game.id, "players": [{"name": Path(path).stem, **player_fields(game, found)}
                                               for path, found in zip(args.photos, seen)]}
        read = list(zip(args.photos, seen))
        _write_review(args, game, record, {Path(path).stem: [(path, found)] for path, found in read},
                      {Path(path).stem: likely_missing(game, found, len(seen)) for path, found in read})
    if args.json:
        print(json_text({"game": game_id, "photos": photos}))
    return 0


def _score(args: argparse.Namespace, catalog, game_id: str) -> int:
    from .engine.scoring import RecordError, read_record, score_record
    from .scan import ScanError
    from .scan.tally import build_record, finished_first, likely_missing, merge, missing_json, missing_words
    from .scan.targets import targets
    from .score_cli import format_table
    if args.photos:
        return _fail("with --score, give the photos as --player NAME=PHOTO")
    if not args.player:
        return _fail("--score needs --player NAME=PHOTO for each player")
    game = catalog[game_id]
    table = targets(game)
    pairs: list[tuple[str, str]] = []
    for item in args.player:
        name, sep, path = item.partition("=")
        if not sep or not name.strip() or not path:
            return _fail(f"--player {shown(item)}: expected NAME=PHOTO")
        pairs.append((name.strip(), path))
    shots: dict[str, list] = {}
    for (name, path), found in zip(pairs, _read(args, [path for _name, path in pairs], table)):
        shots.setdefault(name, []).append((path, found))
    photos = {name: merge([found for _path, found in taken]) for name, taken in shots.items()}
    partial = None
    if args.record:
        try:
            partial = read_record(args.record)
        except RecordError as exc:
            for problem in exc.problems:
                print(problem, file=sys.stderr)
            return 2
        if isinstance(partial, dict) and "game" in partial and str(partial["game"]) != game_id:
            raise ScanError(f"{args.record}: game is '{partial['game']}', not '{game_id}'")
    record = build_record(game, photos, partial, args.sets, args.record or "<record>")
    missing = {name: likely_missing(game, found, len(photos), finished_first(record, name))
               for name, found in photos.items()}
    if args.save_record:
        import yaml

        from ludoteca.atomic import write_text
        _write(write_text, "--save-record", Path(args.save_record),
               yaml.safe_dump(record, allow_unicode=True, sort_keys=False))
    if args.review:
        _write_review(args, game, record, shots, missing)
    gaps = {name: gap for name, gap in missing.items() if gap != {}}
    try:
        # pieces the rules need and the photos lack are named below; the rest is scored as read
        result = score_record(record, catalog, path=args.record or "<scan>", lenient=bool(gaps))
    except RecordError as exc:
        for problem in exc.problems:
            print(problem, file=sys.stderr)
        return 2
    for name, gap in gaps.items():
        print(f"ludoteca scan: {name}: {_say(missing_words(game, gap), args.lang)}", file=sys.stderr)
    if args.json:
        out = result.as_json()
        out["scan"] = {name: {"photos": [path for path, _found in taken],
                              "read": [f.as_json() for f in photos[name]],
                              "likely_missing": missing_json(missing[name])}
                       for name, taken in shots.items()}
        print(json_text(out))
    else:
        sys.stdout.write(format_table(result, game.meta.get("name", {}), args.lang))
        print()
        for name, found in photos.items():
            print(_read_line(name, found, args.lang))
    return 0


#: the words of what a scan says about how sure it is
ONE_MARKER = {"es": "de un solo marcador", "en": "from one marker only"}
MARKERS_READ = {"es": "marcadores leídos", "en": "markers read"}


def _say(text: dict, lang: str) -> str:
    from .score_cli import say
    return say(text, lang)


def _read_line(name: str, found, lang: str) -> str:
    """One player's pieces read and how sure: those read from one marker of two named."""
    unsure = [f for f in found if not f.sure]
    sure = len(found) - len(unsure)
    text = {"es": f"{shown(name)}: {len(found)} piezas leídas, {sure} seguras (todos sus marcadores)",
            "en": f"{shown(name)}: {len(found)} pieces read, {sure} sure (every marker)"}
    if unsure:
        names = ", ".join(_name(f.target, "es") for f in unsure)
        names_en = ", ".join(_name(f.target, "en") for f in unsure)
        text = {"es": f"{text['es']}; {len(unsure)} de un solo marcador: {names}",
                "en": f"{text['en']}; {len(unsure)} from one marker only: {names_en}"}
    return _say(text, lang)


def _write_review(args: argparse.Namespace, game, record: dict, shots: dict, missing: dict) -> None:
    """``--review DIR``: the record read, with what each photo showed as comments, into
    DIR/record.yaml (the annotated photos are written by ``_read``)."""
    import yaml

    from ludoteca.atomic import write_text

    from .scan.tally import merge, missing_words
    lines = ["# ludoteca scan --review: lo que muestran las fotos / what the photos show",
             f"# Revisa y edita, luego / check and edit, then: ludoteca score {Path(args.review) / 'record.yaml'}"]
    for name, taken in shots.items():
        for path, found in taken:
            lines.append(f"# {path}: " + _read_line(name, found, "both"))
        if len(taken) > 1:
            lines.append("# " + _read_line(name, merge([found for _path, found in taken]), "both")
                         + " (fotos juntas / photos together)")
        gap = missing.get(name, {})
        if gap != {}:
            lines.append(f"# {shown(name)}: " + _say(missing_words(game, gap), "both"))
    text = "\n".join(lines) + "\n" + yaml.safe_dump(record, allow_unicode=True, sort_keys=False)
    _write(write_text, "--review", Path(args.review) / "record.yaml", text)

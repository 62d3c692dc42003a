"""``ludoteca play``, ``history`` and ``export``: the engine on the command line.

``play`` reads one JSON action per line and answers each with one JSON line, written only once the
action is committed to the database.  Errors are one line and exit 2, never a traceback.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any, BinaryIO
from collections.abc import Iterator

from ludoteca.atomic import Unwritable, write_text
from ludoteca.cards.limits import MAX_LINE_BYTES, InputTooLarge, json_loads
from ludoteca.cards.names import json_text, shown
from datetime import UTC

#: The largest seed: what one SQLite integer holds.
MAX_SEED = 2**63 - 1
#: The ``kind`` of an answer to a line that met a fault of ours rather than a rule (the session goes on).
INTERNAL = "InternalError"
GAME_ALIASES = {"ciudadelas": "ciudadelas", "citadels": "ciudadelas", "el_mapa": "el_mapa",
                "el-mapa": "el_mapa", "elmapa": "el_mapa", "mapa": "el_mapa",
                "gladiadores": "gladiadores", "ludi_gladiatorii": "gladiadores"}


def register(sub: argparse._SubParsersAction) -> None:
    """Add ``play``, ``history`` and ``export`` to the ``ludoteca`` command."""
    play = sub.add_parser("play", help="play a game: one JSON action per line on stdin",
                          description="Play a game: read one JSON action per line on stdin and answer "
                                      "each with one JSON line once it is saved.")
    play.add_argument("game", help="ciudadelas, el_mapa or gladiadores")
    who = play.add_mutually_exclusive_group()
    who.add_argument("--players", help='comma-separated names in seat order, e.g. "Ana,Luis,Eva"')
    who.add_argument("--game-id", help="resume a saved game")
    who.add_argument("--actions", action="store_true", help="list the game's actions and their arguments")
    play.add_argument("--db", help="database file (default: $LUDOTECA_DB or the user data folder)")
    play.add_argument("--seed", type=_seed, help=f"random seed of a new game, 0 to {MAX_SEED} (default: random)")
    play.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                      help="a game option, e.g. crown=Ana (JSON values allowed); repeatable")
    play.add_argument("--cards", help="folder of card data (default: the shipped data)")
    play.set_defaults(func=cmd_play)

    hist = sub.add_parser("history", help="list saved games, one game's detail, or the statistics")
    hist.add_argument("id", nargs="?", help="one game: the id `history` prints, a unique part of it, or `last`")
    hist.add_argument("--db", help="database file")
    hist.add_argument("--stats", action="store_true",
                      help="per game and player: plays, wins, win rate, average and best score")
    hist.add_argument("--json", action="store_true", help="a JSON list instead of a table")
    hist.set_defaults(func=cmd_history)

    from ludoteca.companion.engine.export import FORMATS

    exp = sub.add_parser("export", help="export a saved game: json, csv (final scores), log (actions as CSV), "
                                        "bgstats (BG Stats file) or bgstats-link (BG Stats' push-plays link)")
    exp.add_argument("id", help="the game id `ludoteca history` prints, a unique part of it, or `last`")
    exp.add_argument("--db", help="database file")
    exp.add_argument("--format", choices=FORMATS, default="json")
    exp.add_argument("--out", help="write to this file (atomically) instead of stdout")
    exp.set_defaults(func=cmd_export)


def _seed(value: str) -> int:
    """``--seed``: a whole number from 0 to :data:`MAX_SEED` (argparse turns the error into one line)."""
    text = value.strip()
    if not (text.isascii() and text.isdigit()) or len(text) > len(str(MAX_SEED)) or int(text) > MAX_SEED:
        shown = text if len(text) <= 24 else f"{text[:20]}... ({len(text)} characters)"
        raise argparse.ArgumentTypeError(f"expected a whole number from 0 to {MAX_SEED}, got '{shown}'")
    return int(text)


def _fail(message: str) -> int:
    print(f"ludoteca: error: {message}", file=sys.stderr)
    return 2


def _open_store(db: str | None, cards_dir: str | None = None, readonly: bool = False):
    from ludoteca.companion.engine import Store

    store = Store(db, cards_dir=cards_dir, readonly=readonly)
    if store.notice:
        print(f"ludoteca: {store.notice['en']}", file=sys.stderr)
    return store


def _game_id(name: str) -> str | None:
    return GAME_ALIASES.get(name.strip().lower().replace(" ", "_"))


def _options(pairs: list[str]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key:
            raise ValueError(f"--option {pair!r}: expected KEY=VALUE")
        try:
            out[key] = json_loads(value, f"--option {key}", MAX_LINE_BYTES)
        except InputTooLarge as exc:
            raise ValueError(str(exc)) from None
        except ValueError:
            out[key] = value
    return out


def cmd_play(args: argparse.Namespace) -> int:
    """``ludoteca play``: new or resumed game, one JSON answer per JSON action line."""
    from ludoteca.companion.engine import GAME_MODULES, IllegalAction, StoreError

    game = _game_id(args.game)
    if game is None:
        return _fail(f"unknown game '{args.game}' (known: {', '.join(GAME_MODULES)})")
    if args.actions:
        for name, spec in GAME_MODULES[game].ACTIONS.items():
            params = " ".join(f"{k}=<{v}>" for k, v in spec["args"].items())
            print(f"{name:18} {params}\n{'':18} {spec['help']['en']} / {spec['help']['es']}")
        return 0
    if not args.players and not args.game_id:
        hint = ""
        try:
            waiting = [g for g in _open_store(args.db, args.cards, readonly=True).unfinished()
                       if g["game"] == game]
        except StoreError:
            waiting = []
        if waiting:
            hint = "; unfinished games to resume: " + ", ".join(
                f"{g['id']} ({_players_text(g['players'])})" for g in waiting[:5])
        return _fail("play needs --players \"Ana,Luis\" or --game-id ID (or --actions)" + hint)
    try:
        options = _options(args.option)
        store = _open_store(args.db, args.cards)
        if args.game_id:
            session = store.open(args.game_id)
            if session.game != game:
                return _fail(f"game {args.game_id} is {session.game}, not {game}")
        else:
            names = [n.strip() for n in args.players.split(",")]
            session = store.new_game(game, names, seed=args.seed, options=options)
    except (IllegalAction, StoreError, ValueError) as exc:
        return _fail(str(exc))
    out = sys.stdout
    for number, line in enumerate(_lines(sys.stdin.buffer), start=1):
        if isinstance(line, InputTooLarge):
            answer: dict[str, Any] = {"ok": False, "error": str(line)}
            out.write(json.dumps(answer) + "\n")
            out.flush()
            continue
        if not line.strip():
            continue
        try:
            action = json_loads(line, f"line {number}", MAX_LINE_BYTES)
        except InputTooLarge as exc:
            answer = {"ok": False, "error": str(exc)}
        except ValueError as exc:
            answer = {"ok": False, "error": f"not JSON: {exc}"}
        else:
            try:
                state = session.apply(action)
            except IllegalAction as exc:
                answer = {"ok": False, "error": str(exc), "error_es": exc.text["es"],
                          "kind": type(exc).__name__}
            except StoreError as exc:
                out.write(json.dumps({"ok": False, "error": str(exc)}) + "\n")
                out.flush()
                return 1
            except Exception as exc:  # a fault of ours: this line is refused, the game goes on unchanged
                answer = {"ok": False, "kind": INTERNAL,
                          "error": f"internal error, the action was not applied: {type(exc).__name__}: "
                                   f"{str(exc)[:200]}",
                          "error_es": f"error interno, la acción no se aplicó: {type(exc).__name__}"}
            else:
                answer = {"ok": True, "game_id": session.id, "seq": session.acknowledged, "state": state}
                if session.repeated:
                    answer["repeated"] = True
        out.write(json_text(answer) + "\n")
        out.flush()
    return 0


def _lines(stream: BinaryIO) -> Iterator[str | InputTooLarge]:
    """The lines of ``stream`` as text; a line over :data:`MAX_LINE_BYTES` is skipped unread and
    given as an :class:`InputTooLarge` (so one huge line costs no memory and ends nothing)."""
    number = 0
    while True:
        chunk = stream.readline(MAX_LINE_BYTES + 1)
        if not chunk:
            return
        number += 1
        if len(chunk) > MAX_LINE_BYTES and not chunk.endswith(b"\n"):
            size = len(chunk)
            while chunk and not chunk.endswith(b"\n"):
                chunk = stream.readline(MAX_LINE_BYTES)
                size += len(chunk)
            yield InputTooLarge(f"line {number}", None, "line", f"at most {MAX_LINE_BYTES:,} bytes",
                                f"{size:,}")
            continue
        yield chunk.decode("utf-8", "replace")


def _local_time(stamp: str) -> str:
    """A stored UTC time (ISO 8601) as the clock on the wall shows it: ``2026-03-29 01:10``.
    A stamp that is not one (a recovered database may hold anything) is shown as it is, cut short."""
    from datetime import datetime

    try:
        when = datetime.fromisoformat(str(stamp))
    except ValueError:
        return str(stamp)[:19]
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    return when.astimezone().strftime("%Y-%m-%d %H:%M")


def _players_text(names: list) -> str:
    """Players' names as the terminal shows them (:func:`~ludoteca.cards.names.shown`)."""
    return ", ".join(shown(n) for n in names)


def _scores_text(final: dict | None) -> str:
    if not final:
        return ""
    return ", ".join(f"{shown(p['name'])} {p['total']}" for p in final.get("players", []))


def cmd_history(args: argparse.Namespace) -> int:
    """``ludoteca history``: every saved game, one game (``ID`` or ``last``), or ``--stats``."""
    from ludoteca.companion.engine import IllegalAction, StoreError
    from ludoteca.companion.engine.lookup import find_game
    from ludoteca.companion.engine.store import NoDatabase

    store = None
    try:
        store = _open_store(args.db, readonly=True)
        if args.stats:
            return _print_stats(store, args.json, args.id)
        if args.id:
            return _print_game(store, find_game(store, args.id), args.json)
        games = store.history()
    except NoDatabase as exc:
        games = []
        print(f"ludoteca: {exc}", file=sys.stderr)
    except (IllegalAction, StoreError) as exc:
        return _fail(str(exc))
    finally:
        _note_unreadable(store)
    if args.json:
        rows = [{"id": g["id"], "game": g["game"], "players": g["players"], "status": g["status"],
                 "actions": g["seq"], "updated": g["updated"],
                 "scores": ({p["name"]: p["total"] for p in g["final"]["players"]} if g["final"] else None),
                 "winners": g["final"]["winners"] if g["final"] else None} for g in games]
        print(json_text(rows, indent=1))
        return 0
    if not games:
        print("no saved games")
        return 0
    header = ("id", "game", "players", "status", "actions", "updated", "final scores")
    table = [(g["id"], g["game"], _players_text(g["players"]), g["status"], str(g["seq"]),
              _local_time(g["updated"]), _scores_text(g["final"])) for g in games]
    widths = [max(len(r[i]) for r in table + [header]) for i in range(len(header))]
    for row in [header] + table:
        print("  ".join(cell.ljust(w) for cell, w in zip(row, widths)).rstrip())
    stats = store.player_stats() if games and store is not None else {}
    if stats:
        print()
        print("player stats: " + "; ".join(f"{shown(n)} {s['wins']}/{s['games']} won"
                                           for n, s in sorted(stats.items())))
    return 0


def _print_game(store, game_id: str, as_json: bool) -> int:
    """One saved game: players in seat order, status, play time and final scores."""
    from ludoteca.companion.engine.clock import clock_text, play_times

    game = next(g for g in store.history() if g["id"] == game_id)
    times = play_times(store, game_id, seats=len(game["players"]))
    _note_skipped(times["skipped"])
    if as_json:
        print(json_text({**game, "start": times["start"].isoformat() if times["start"] else None,
                          "end": times["end"].isoformat() if times["end"] else None,
                          "minutes": times["minutes"]}, indent=1))
        return 0
    print(f"{game['id']}  {game['game']}  {game['status']}, {game['seq']} actions")
    print("players (seat order): " + ", ".join(f"{i + 1}. {shown(n)}" for i, n in enumerate(game["players"])))
    if times["start"]:
        end = times["end"].astimezone().strftime("%Y-%m-%d %H:%M") if times["end"] else "-"
        print(f"played: {times['start'].astimezone().strftime('%Y-%m-%d %H:%M %z')} to {end}, "
              f"{times['minutes']} min")
        for seat, seconds in sorted(times["thinking"].items()):
            print(f"  {shown(game['players'][seat])} thinking {clock_text(seconds)}")
    if game["final"]:
        print("final scores: " + _scores_text(game["final"]))
        print("winners: " + _players_text(game["final"].get("winners", [])))
    return 0


def _note_unreadable(store) -> None:
    """One line on stderr naming the games whose saved row could not be read (left out)."""
    if store is not None and store.unreadable:
        print(f"ludoteca: note: {len(store.unreadable)} game(s) left out, their saved row is damaged: "
              + ", ".join(store.unreadable[:5]), file=sys.stderr)


def _note_skipped(count: int) -> None:
    """One line on stderr when clock rows could not be read (they were left out of the times)."""
    if count:
        print(f"ludoteca: note: {count} damaged clock row(s) left out of the play times", file=sys.stderr)


def _print_stats(store, as_json: bool, wanted: str | None) -> int:
    """``history --stats``: the figures the app's statistics screen shows (same engine function)."""
    from ludoteca.companion.engine.stats import compute_stats, stats_table

    stats = compute_stats(store.history())
    if wanted:
        game = _game_id(wanted)
        if game is None:
            return _fail(f"--stats takes a game name (ciudadelas, el_mapa, gladiadores), not '{wanted}'")
        stats = {game: stats[game]} if game in stats else {}
    if as_json:
        print(json_text(stats, indent=1))
        return 0
    print(stats_table(stats) if stats else "no finished games")
    return 0


def cmd_export(args: argparse.Namespace) -> int:
    """``ludoteca export``: one saved game in one of ``export.FORMATS``."""
    from ludoteca.companion.engine import IllegalAction, StoreError
    from ludoteca.companion.engine.export import export_data
    from ludoteca.companion.engine.lookup import find_game

    store = None
    try:
        from ludoteca.companion.engine.clock import play_times

        store = _open_store(args.db, readonly=True)
        game_id = find_game(store, args.id)
        data = export_data(store, game_id, args.format)
        players = next(g["players"] for g in store.history() if g["id"] == game_id)
        _note_skipped(play_times(store, game_id, seats=len(players))["skipped"])
    except (IllegalAction, StoreError) as exc:
        return _fail(str(exc))
    finally:
        _note_unreadable(store)
    if args.out:
        try:
            write_text(Path(args.out), data)
        except OSError as exc:
            return _fail(f"--out {exc}" if isinstance(exc, Unwritable) else
                         f"{args.out}: cannot write: {exc.strerror}")
        return 0
    sys.stdout.write(data)
    return 0

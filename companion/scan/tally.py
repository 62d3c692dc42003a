"""From what the photos show to a scoring record that ``engine.scoring.score_record`` reads.

Each game's photographed fields come from its marked components:

* Ciudadelas: ``city``, the districts (base and Dark City) in the photo.
* El Mapa: ``buildings``; ``resources`` from the resource counters (their ``value``); ``defeated``
  from the battle-point counters, as units of the troop worth one point each (the record counts
  battle points by defeated unit; one point per unit of a 1-point troop is the same total).
* Gladiadores: ``buildings``; ``combat_wins`` from the point discs (their points divided by the
  points of a combat won).

Everything else (gold, who completed first, revealed tiles, coins, the target...) comes from a
partial record and ``--set`` values.  Scoring itself is never done here.

Before that, :func:`pieces` turns the markers read into pieces by where they lie (a card's two
copies vote together, identical cards stay apart), :func:`merge` joins one player's photos, and
:func:`likely_missing` names what the rules say must be there and the photos lack: it is said,
never added.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Any
from collections.abc import Iterable, Mapping, Sequence

from ludoteca.cards.names import fold, shown

from . import ScanError

if TYPE_CHECKING:
    from ludoteca.cards import Game

    from .targets import Found


def counts(found: Iterable[Found]) -> dict[str, dict[str, int]]:
    """How many of each component, by kind then id: ``{"district": {"manor": 2}}``."""
    out: dict[str, Counter] = {}
    for f in found:
        out.setdefault(f.target.kind, Counter())[f.target.id] += 1
    return {kind: dict(sorted(c.items())) for kind, c in sorted(out.items())}


#: two reads of one code are copies on one face when the step from one to the other is within this
#: share of the step their frames foresee (one face seen from a seat at up to 50 degrees: 0.16 at
#: most; a neighbouring card's marker 18 mm from where the other copy is printed: 0.29)
SAME_FACE = 0.3


def _frame(corners, side: float):
    """A marker's centre and its x and y steps per mm in the image, each the mean of two opposite
    sides (steadier than a homography from four corners of a small marker)."""
    import numpy as np

    p = np.asarray(corners, float)
    ex = ((p[1] - p[0]) + (p[2] - p[3])) / (2 * side)
    ey = ((p[3] - p[0]) + (p[2] - p[1])) / (2 * side)
    return p.mean(axis=0), ex, ey


def face_gap(a: Found, b: Found) -> float | None:
    """How far ``b``'s marker is from where ``a``'s face prints its other copy, as a share of the
    step between the two (0: exactly there), or None when the two cannot be copies on one face
    (not turned half a turn from each other, as a face's two copies are).  Each marker's own scale
    is off across a face seen from a seat (the near one larger), one one way and the other the
    other: the mean of the two frames foresees the step."""
    import numpy as np

    x, y, s = a.target.place
    ca, exa, eya = _frame(a.corners, s)
    cb, exb, eyb = _frame(b.corners, s)
    if float(np.dot(exa, exb)) >= 0 or float(np.dot(eya, eyb)) >= 0:
        return None
    gaps = []
    for px, py, side, _turn in a.target.places[1:]:
        dx, dy = px + side / 2 - (x + s / 2), py + side / 2 - (y + s / 2)
        step = ((exa * dx + eya * dy) - (exb * dx + eyb * dy)) / 2
        gaps.append(float(np.linalg.norm(cb - ca - step)) / max(float(np.linalg.norm(step)), 1e-9))
    return min(gaps, default=None)


def _same_copy(a: Found, b: Found) -> bool:
    """Two reads of one printed marker (the same code, the same way up, on each other)."""
    import numpy as np

    ca, exa, _ = _frame(a.corners, 1.0)
    cb, exb, _ = _frame(b.corners, 1.0)
    return float(np.dot(exa, exb)) > 0 and float(np.linalg.norm(ca - cb)) < 0.5 * float(np.linalg.norm(exa))


def pieces(reads: Sequence[Found]) -> list[Found]:
    """Single marker reads grouped into pieces by where they sit: a card's copies of its marker vote
    together only when they lie where one face's copies lie (:func:`face_gap` under
    :data:`SAME_FACE`), the closest pairs first, so that identical cards laid close together are
    each counted once, never merged into one, never twice; one printed marker read twice counts
    once.  Each piece is the first of its reads, with ``copies`` and ``seen`` of all of them."""
    kept: list[Found] = []
    for read in reads:
        if not any(k.marker == read.marker and _same_copy(k, read) for k in kept):
            kept.append(read)
    pairs = []
    for i, a in enumerate(kept):
        for j in range(i + 1, len(kept)):
            b = kept[j]
            if b.marker != a.marker or a.printed < 2:
                continue
            gap = face_gap(a, b)
            if gap is not None and gap < SAME_FACE:
                pairs.append((gap, i, j))
    group = list(range(len(kept)))          # each read's piece: the index of its first read
    members: dict[int, list[int]] = {i: [i] for i in range(len(kept))}
    for _gap, i, j in sorted(pairs):
        gi, gj = group[i], group[j]
        if gi == gj or len(members[gi]) + len(members[gj]) > kept[i].printed:
            continue
        joined = members[gi] + members[gj]
        if any(face_gap(kept[p], kept[q]) is None for p in joined for q in joined if p < q):
            continue                        # two reads the same way up: two faces, not one
        first = min(gi, gj)
        for k in joined:
            group[k] = first
        members[first] = sorted(joined)
        members.pop(max(gi, gj))
    out = []
    for first, index in sorted(members.items()):
        base = kept[first]
        base.copies = len(index)
        base.seen = [list(kept[k].corners) for k in index]
        base.outline = face_outline(base)
        out.append(base)
    return out


def face_outline(piece: Found) -> list[tuple[float, float]]:
    """The whole face of a piece in the photo, from the markers that voted for it: through the
    homography of both copies' eight corners when two were read (they span the face), else through
    the read marker's frame (its mean sides; a homography of one small marker's four corners throws
    a far corner of the face off by more than the face itself)."""
    from . import require_cv2
    cv2 = require_cv2()
    import numpy as np

    face = np.array(piece.target.outline_mm(), float)
    places = piece.target.places
    if len(piece.seen) >= 2 and len(places) >= 2:
        src, dst = [], []
        for (x, y, side, turn), quad in zip(places, piece.seen):
            square = [[x, y], [x + side, y], [x + side, y + side], [x, y + side]]
            src += square[2:] + square[:2] if turn == 180 else square
            dst += [list(p) for p in quad]
        homography, _ = cv2.findHomography(np.float32(src), np.float32(dst), 0)
        if homography is not None:
            mapped = cv2.perspectiveTransform(np.float32(face).reshape(-1, 1, 2), homography).reshape(-1, 2)
            return [(float(a), float(b)) for a, b in mapped]
    x, y, side = piece.target.place
    centre, ex, ey = _frame(piece.corners, side)
    mapped = centre + np.outer(face[:, 0] - (x + side / 2), ex) + np.outer(face[:, 1] - (y + side / 2), ey)
    return [(float(a), float(b)) for a, b in mapped]


def merge(photos: Sequence[Sequence[Found]]) -> list[Found]:
    """One player's photos as one: a second photo of the same pieces adds what the first missed.
    Each kind of piece counts as often as the photo that shows it most often (two photos from two
    sides of one city show its cards twice, and each counts once)."""
    best: dict[int, list[Found]] = {}
    for found in photos:
        by_marker: dict[int, list[Found]] = {}
        for f in found:
            by_marker.setdefault(f.marker, []).append(f)
        for number, seen in by_marker.items():
            if len(seen) > len(best.get(number, [])) or (
                len(seen) == len(best[number]) and sum(f.copies for f in seen) > sum(f.copies for f in best[number])
            ):
                best[number] = seen
    return [f for number in sorted(best) for f in best[number]]


def likely_missing(game: Game, found: Sequence[Found], players: int, finished_first: bool = False
                   ) -> dict[int | str, int] | None:
    """What the rules say must be there and the photos do not show: for El Mapa, the buildings by
    level that the read buildings need under them (``{1: 2}``: two of level 1); for Ciudadelas, the
    districts a city said to be completed first lacks to be complete (``{"district": 1}``);
    ``{}`` when nothing is missing, ``None`` when more than a few are."""
    if game.id == "ciudadelas":
        from ludoteca.companion.engine.scoring.ciudadelas import city_kinds, districts_short

        short = districts_short(game, sum(f.target.kind in city_kinds(game) for f in found))
        return {"district": short} if finished_first and short else {}
    if game.id != "el_mapa":
        return {}
    from ludoteca.companion.engine.scoring.el_mapa import missing_under

    needed = missing_under(game, [f.target.id for f in found if f.target.kind == "building"], players)
    return None if needed is None else {level: n for level, n in needed.items()}


def missing_words(game: Game, gap: dict | None) -> dict[str, str]:
    """What :func:`likely_missing` found, in words ({es, en}): what the rules need, how many, and that
    the score counts only what was read."""
    if gap is None:
        return {"es": "las fotos muestran edificios que necesitan debajo más edificios de los que se ven "
                      "(regla de apoyo); puntuado como se leyó: añade los que falten con --review",
                "en": "the photos show buildings that need more buildings under them than are seen "
                      "(support rule); scored as read: add the missing ones with --review"}
    if "district" in gap:
        n, full = gap["district"], game.meta["complete_city"]
        return {"es": f"probablemente faltan {n} distrito{'s' if n != 1 else ''} de su ciudad: quien la completó "
                      f"primero tiene al menos {full} (ocultos o sin leer); puntuados los leídos y el premio de "
                      "primera ciudad completa: añade los que falten con --review o --record",
                "en": f"likely missing {n} district{'s' if n != 1 else ''} of their city: the first to complete "
                      f"it has at least {full} (hidden or not read); scored: those read and the first-complete "
                      "bonus: add the missing ones with --review or --record"}
    es = ", ".join(f"{n} de nivel {lv}" for lv, n in sorted(gap.items()))
    en = ", ".join(f"{n} of level {lv}" for lv, n in sorted(gap.items()))
    return {"es": f"probablemente faltan edificios que la regla de apoyo exige debajo de los leídos: {es} "
                  f"(ocultos o sin leer); puntuado como se leyó: añádelos con --review o --record",
            "en": f"likely missing buildings the support rule needs under those read: {en} "
                  f"(hidden or not read); scored as read: add them with --review or --record"}


def missing_json(gap: dict | None) -> dict[str, Any]:
    """:func:`likely_missing`'s answer for ``--json``: ``{"level_1": 2}``, ``{"district": 1}``."""
    if gap is None:
        return {"more_than_a_few": True}
    return {(k if isinstance(k, str) else f"level_{k}"): n for k, n in sorted(gap.items(), key=str)}


def finished_first(record: Mapping[str, Any], name: str) -> bool:
    """Whether the record says ``name`` completed a city first (Ciudadelas' ``first_complete``)."""
    said = record.get("first_complete")
    return isinstance(said, str) and fold(said) == fold(name)


def _one_point_troop(game: Game) -> str:
    ones = [t["id"] for t in game.entries("troop") if t.get("points") == 1]
    if not ones:
        raise ScanError(
            {
                "es": "cards/el_mapa: ninguna tropa vale 1 punto, así que las fichas de puntos "
                "de batalla no se pueden anotar como unidades derrotadas",
                "en": "cards/el_mapa: no troop is worth 1 point, so battle-point counters cannot be "
                "written as defeated units",
            }
        )
    return ones[0]


def player_fields(game: Game, found: Sequence[Found]) -> dict[str, Any]:
    """The record fields one player's photos give."""
    if game.id == "ciudadelas":
        return {"city": [f.target.id for f in found if f.target.kind in ("district", "dark_district")]}
    if game.id == "el_mapa":
        fields: dict[str, Any] = {"buildings": [f.target.id for f in found if f.target.kind == "building"]}
        resources: Counter = Counter()
        battle = 0
        for f in found:
            entry = f.target.entry or {}
            if f.target.kind == "counter" and entry.get("what") == "resource":
                resources[entry["resource"]] += int(entry.get("value", 1))
            elif f.target.kind == "counter" and entry.get("what") == "battle_points":
                battle += int(entry.get("value", 1))
        if resources:
            fields["resources"] = dict(sorted(resources.items()))
        if battle:
            fields["defeated"] = {_one_point_troop(game): battle}
        return fields
    per_win = game.meta["combat"]["points"]["attacker_wins"]
    points = sum(int((f.target.entry or {}).get("points", 0)) for f in found if f.target.kind == "token")
    if per_win <= 0 or points % per_win:
        raise ScanError(
            {
                "es": f"los discos de puntos suman {points}, que no es un número entero de "
                f"combates ganados ({per_win} cada uno)",
                "en": f"the point discs show {points} points, not a whole number of combats won ({per_win} each)",
            }
        )
    return {"buildings": [f.target.id for f in found if f.target.kind == "building"], "combat_wins": points // per_win}


def parse_set(item: str) -> tuple[list[str], Any]:
    """``--set KEY=VALUE``: the key path (``first_complete``, ``Ana.gold``) and the YAML value."""
    import yaml

    from ludoteca.cards.yamlread import YamlProblem, prescan
    key, sep, value = item.partition("=")
    if not sep or not key.strip():
        raise ScanError(f"--set {shown(item)}: expected KEY=VALUE (e.g. Ana.gold=3 or first_complete=Ana)")
    try:
        prescan(value, f"--set {key}")
        parsed = yaml.safe_load(value) if value.strip() else ""
    except YamlProblem as exc:  # beyond the limits every YAML Ludoteca reads keeps to
        raise ScanError(f"--set {shown(key)}: {exc.message}") from None
    except yaml.YAMLError:
        parsed = value
    return [k.strip() for k in key.split(".")], parsed


def build_record(
    game: Game,
    photos: Mapping[str, Sequence[Found]],
    partial: Any = None,
    sets: Sequence[str] = (),
    where: str = "<record>",
) -> dict[str, Any]:
    """The whole record: players in the order given, their photographed fields, then what the
    partial record and the ``--set`` values add.  A field given both ways is refused."""
    base: dict[str, Any] = {"game": game.id}
    given: dict[str, dict] = {}
    if partial is not None:
        if not isinstance(partial, dict):
            raise ScanError(f"{where}: expected a mapping (game, players, ...)")
        for key, value in partial.items():
            if key not in ("game", "players"):
                base[key] = value
        for i, p in enumerate(partial.get("players") or []):
            if not isinstance(p, dict) or not isinstance(p.get("name"), str):
                raise ScanError(f"{where}: players[{i}]: expected a mapping with a name")
            given[fold(p["name"])] = dict(p)
    players = []
    names = {fold(n): n for n in photos}
    for fold_name in given:
        if fold_name not in names:
            raise ScanError(
                f"{where}: player '{given[fold_name]['name']}' has no photo "
                f"(add --player {given[fold_name]['name']}=PHOTO)"
            )
    for name, found in photos.items():
        fields = player_fields(game, found)
        extra = given.get(fold(name), {})
        for key in fields:
            if key in extra:
                raise ScanError(f"{where}: {name}: '{key}' comes from the photo; leave it out of the record")
        players.append({"name": name, **{k: v for k, v in extra.items() if k != "name"}, **fields})
    record = {**base, "players": players}
    for item in sets:
        path, value = parse_set(item)
        if len(path) == 1:
            record[path[0]] = value
            continue
        match = [p for p in players if fold(p["name"]) == fold(path[0])]
        if not match:
            raise ScanError(f"--set {item}: no player '{path[0]}' (players: {', '.join(photos)})")
        target = match[0]
        for key in path[1:-1]:
            target = target.setdefault(key, {})
            if not isinstance(target, dict):
                raise ScanError(f"--set {item}: '{key}' is not a mapping")
        if path[-1] in player_fields(game, photos[match[0]["name"]]) and len(path) == 2:
            raise ScanError(f"--set {item}: '{path[-1]}' comes from the photo")
        target[path[-1]] = value
    return record

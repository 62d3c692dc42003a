"""``--shop PROFILE``: one image per unique face at the pixel size, bleed and format a print shop
expects, a listing of quantities and one ZIP to upload.

The profiles are data (``shops.yaml``), each citing the shop's published specification.  Faces
are rendered again with the shop's bleed (independently of the PDFs' ``--bleed``) and scaled so
that the trim fills exactly the shop's trim in pixels.
"""

from __future__ import annotations

import csv
import functools
import io
import math
import zipfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from .model import Component, GeneratorError, Options
from .raster import Task, digest
from .svgroot import with_root
from .units import MM_PER_INCH, num



@dataclass(frozen=True)
class Profile:
    """One shop's image specification."""

    id: str
    name: str
    trim_mm: tuple[float, float] | None
    pixels: tuple[int, int] | None
    bleed_px: float | None
    bleed_mm: float | None
    dpi: int
    colour_space: str
    format: str
    naming: str
    spec_url: str | None
    spec_note: str

    def geometry(self, trim: tuple[float, float]) -> tuple[int, int, float, float]:
        """(width px, height px, bleed x mm, bleed y mm) of the image of a face of ``trim`` mm.

        With fixed pixels, the trim fills the shop's trim in pixels exactly (``pixels`` minus the
        bleed on both sides) and the bleed in mm follows from that scale on each axis.

        >>> p = profile("mpc-poker")
        >>> w, h, bx, by = p.geometry((63.0, 88.0))
        >>> (w, h, round(bx, 3), round(by, 3))
        (822, 1122, 3.024, 3.017)
        """
        w, h = trim
        if self.pixels is not None:
            pw, ph = self.pixels
            b = float(self.bleed_px or 0)
            return pw, ph, b * w / (pw - 2 * b), b * h / (ph - 2 * b)
        b = float(self.bleed_mm or 0)
        return (round((w + 2 * b) / MM_PER_INCH * self.dpi), round((h + 2 * b) / MM_PER_INCH * self.dpi),
                b, b)

    def fits(self, trim: tuple[float, float], tolerance: float) -> bool:
        """Whether a component of ``trim`` mm is the card this profile is for."""
        if self.trim_mm is None:
            return True
        return all(abs(a - b) <= tolerance for a, b in zip(trim, self.trim_mm))


@functools.lru_cache(maxsize=1)
def _data() -> dict:
    from . import owndata
    return owndata.load(Path(__file__).with_name("shops.yaml"))


def profiles() -> dict[str, Profile]:
    """Every profile of shops.yaml, by id."""
    out = {}
    for key, p in _data()["profiles"].items():
        if p["colour_space"] != "sRGB" or p["format"] != "png":
            raise GeneratorError(f"shops.yaml: {key}: only sRGB PNG images can be written")
        out[key] = Profile(key, p["name"], tuple(p["trim_mm"]) if p.get("trim_mm") else None,
                           tuple(p["pixels"]) if p.get("pixels") else None, p.get("bleed_px"),
                           p.get("bleed_mm"), int(p["dpi"]), p["colour_space"], p["format"],
                           p["naming"], (p.get("spec") or {}).get("url"),
                           " ".join(str((p.get("spec") or {}).get("note", "")).split()))
    return out


def profile(key: str) -> Profile:
    found = profiles()
    if key not in found:
        raise GeneratorError(f"unknown shop profile '{key}' (choose {', '.join(found)})")
    return found[key]


def cropped(svg: str, trim: tuple[float, float], bleed: tuple[float, float]) -> str:
    """The face cut to its trim plus ``bleed`` (x, y mm), stretched to whatever size it is drawn."""
    w, h = trim
    bx, by = bleed
    return with_root(svg, width=f"{num(w + 2 * bx)}mm", height=f"{num(h + 2 * by)}mm",
                     viewBox=f"{num(-bx)} {num(-by)} {num(w + 2 * bx)} {num(h + 2 * by)}",
                     preserveAspectRatio="none")


def needed_bleed(prof: Profile, trim: tuple[float, float]) -> float:
    """The bleed (mm) faces are rendered with so the shop's bleed is all drawn."""
    _w, _h, bx, by = prof.geometry(trim)
    return math.ceil(max(bx, by) * 10) / 10


@dataclass
class Item:
    """One unique face image: where it goes, what it shows, how many copies."""

    comp: Component
    side: str
    name: str
    svg: str
    count: int


def plan_shop(comps: list[Component], opts: Options, out_dir: Path, roots: tuple[str, ...],
              notes: list[str], render_faces: Callable[..., list[str]]) -> tuple[list, list[dict], Profile]:
    """The image tasks of every component the profile fits, and the listing rows; ``render_faces``
    renders faces to SVG as the build does (:func:`.build.render_faces`), at the shop's bleed."""
    from .layout import face_size
    assert opts.shop is not None, "plan_shop is called for a build with --shop"
    prof = profile(opts.shop)
    tolerance = float(_data()["match_mm"])
    folder = out_dir / "shop" / prof.id
    tasks: list[Task] = []
    rows: list[dict] = []
    for comp in comps:
        trim = face_size(comp, opts)
        if comp.layout != "grid" or not prof.fits(trim, tolerance):
            notes.append(f"{comp.game}/{comp.id}: {trim[0]:g}x{trim[1]:g} mm is not the card of "
                         f"shop profile {prof.id}; not exported")
            continue
        width, height, bx, by = prof.geometry(trim)
        bleed = needed_bleed(prof, trim)
        local = Options(**{**opts.__dict__, "bleed_mm": bleed})
        for side, faces in (("front", comp.fronts), ("back", comp.backs or [])):
            svgs = render_faces(comp, faces, local, roots, notes)
            counts: dict[str, int] = {}
            first: dict[str, int] = {}
            for i, svg in enumerate(svgs):
                counts[svg] = counts.get(svg, 0) + 1
                first.setdefault(svg, i)
            for n, svg in enumerate(sorted(counts, key=first.__getitem__), start=1):
                name = faces[first[svg]].name
                rel = Path(f"{comp.game}-{comp.id}") / prof.naming.format(side=side, n=n, name=name)
                path = folder / rel
                image = cropped(svg, trim, (bx, by))
                tasks.append(Task(path, digest(prof, width, height, image), "shop",
                                  (image, (width, height), prof.dpi)))
                rows.append({"file": str(rel), "side": side, "count": counts[svg],
                             "component": f"{comp.game}/{comp.id}", "name": name,
                             "pixels": f"{width}x{height}"})
    return tasks, rows, prof


def write_bundle(rows: list[dict], prof: Profile, opts: Options, out_dir: Path, stage) -> dict:
    """The listing of quantities and the ZIP of every image and the listing; the manifest entry."""
    folder = out_dir / "shop" / prof.id
    es = opts.lang == "es"
    listing = folder / ("cantidades.csv" if es else "quantities.csv")
    buf = io.StringIO()
    writer = csv.DictWriter(buf, fieldnames=["file", "side", "count", "component", "name", "pixels"],
                            lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)
    readme = (f"# {prof.name}\n# {prof.spec_url or ''}\n# {prof.spec_note}\n")
    stage.write_text(listing, buf.getvalue())
    stage.write_text(folder / "LEEME.txt" if es else folder / "README.txt", readme)
    target = out_dir / "shop" / f"{prof.id}.zip"
    with zipfile.ZipFile(stage.path(target), "w", compression=zipfile.ZIP_STORED) as zf:
        for row in rows:
            zf.write(stage.current(folder / row["file"]), row["file"])
        zf.write(stage.current(listing), listing.name)
    stage.keep_if_changed(target)
    fronts = [r for r in rows if r["side"] == "front"]
    return {"game": "kit", "component": "shop", "path": str(target.relative_to(out_dir)),
            "title": {"es": f"Imprenta: {prof.name}", "en": f"Print shop: {prof.name}"},
            "profile": prof.id, "spec": prof.spec_url, "listing": str(listing.relative_to(out_dir)),
            "images": len(rows), "items": sum(r["count"] for r in fronts), "pages": 0, "sheets": 0,
            "duplex": False, "fold": False, "gutter_mm": None}

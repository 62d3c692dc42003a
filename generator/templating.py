"""Jinja2: one template renders one face as a complete SVG document in millimetres."""

from __future__ import annotations

import functools
import gc
import math
import os
import re
from pathlib import Path
from stat import S_ISREG
from typing import Any
from collections.abc import Callable

from .fonts import MIN_PT, FitError, fit as fit_text
from .units import pt_to_mm
from ludoteca import folder_of
from ludoteca.atomic import files_under
from ludoteca.cards import markers
from .model import Face, GeneratorError, Options
from . import budget as _budget, trun
from .budget import OverBudget, SvgRefused, check_svg
from .trun import Current, f_num as _num_filter

TEMPLATES = folder_of("ludoteca.templates").resolve()  # the same path however reached


class TemplateError(GeneratorError):
    """A template failed: the message is ``template <name>:<line>: <message>``."""


_frozen = False  # whether this process froze what it holds (environment)


@functools.lru_cache(maxsize=8)
def environment(roots: tuple[str, ...] = (str(TEMPLATES),), sandboxed: bool = False):
    """The Jinja2 environment: StrictUndefined, autoescaped (texts may hold & and <).

    ``roots`` are searched in order; the shared templates/ folder is always last.  Templates
    that come from users (``ludoteca deck``) run ``sandboxed``: jinja2's SandboxedEnvironment,
    so a shared template cannot reach Python's internals (no ``__class__``, no ``__globals__``),
    with a budget of time and memory per face (:mod:`.sandbox`).
    """
    import jinja2
    from .sandbox import Sandbox
    search = list(_search(roots))
    kind = Sandbox if sandboxed else jinja2.Environment
    # the sandbox's compiled code meters its loops: a cache of its own, never code compiled without
    env = kind(loader=jinja2.FileSystemLoader(search), undefined=jinja2.StrictUndefined,
               bytecode_cache=_bytecode_cache("jinja-budget" if sandboxed else "jinja"),
               autoescape=True, trim_blocks=True, lstrip_blocks=True, keep_trailing_newline=False)
    env.filters["num"] = _num_filter
    env.globals.update(_globals())
    # What is alive now (every module imported, jinja's among them) lives as long as the process:
    # left out of the garbage collector's full passes, which otherwise walk it all again while
    # the faces are rendered and drawn (5 % of a small deck's build).  Once a process, at the
    # first environment: what is frozen is never freed, so a long process (tests, the app) must
    # not freeze each later build's data; a collection first would cost 2 % of a small deck
    _freeze()
    return env


def _search(roots: tuple[str, ...]) -> tuple[str, ...]:
    """Where templates are looked for, in order: the roots, then the kit's templates/."""
    return tuple(roots) + ((str(TEMPLATES),) if str(TEMPLATES) not in roots else ())


#: Set to "0" to render every face with Jinja (the compiled templates of :mod:`.trun` left out).
FAST_ENV = "LUDOTECA_COMPILED_TEMPLATES"


@functools.lru_cache(maxsize=8)
def loader(roots: tuple[str, ...] = (str(TEMPLATES),), sandboxed: bool = False):
    """The compiled templates (:mod:`.tcompile`) of these roots, for a user's templates
    (``sandboxed``) or the kit's own; their code is kept in the user cache."""
    from .fonts import cache_dir
    from .trun import Loader
    fast = Loader(_search(roots), sandboxed, _globals(), lambda: environment(roots, sandboxed),
                  cache_dir("templates-compiled"))
    _freeze()                             # as environment() does: see there
    return fast


def module(template: str, roots: tuple[str, ...] = (str(TEMPLATES),)) -> Any:
    """What ``{% import template as x %}`` makes of one of the kit's templates: its public macros
    and top-level values as attributes (from its compiled code; Jinja's when it has none)."""
    if os.environ.get(FAST_ENV) != "0":
        fast = loader(roots, False)
        try:
            if fast.unit(template) is not None:
                return fast.module(template)
        except Exception:             # left to Jinja, which says what is wrong in its words
            fast.refuse(template)
    return environment(roots).get_template(template).module


def compiled(template: str, roots: tuple[str, ...] = (str(TEMPLATES),)) -> bool:
    """Whether ``template`` renders through its compiled code (not Jinja) in this process."""
    sandboxed = _user_root(template, roots) is not None
    return loader(roots, sandboxed).unit(template) is not None


def _render_compiled(template: str, context: dict, roots: tuple[str, ...], sandboxed: bool,
                     markers_on: bool, seen: tuple[str, float] | None = None) -> str | None:
    """The face rendered by the template's compiled code; None when it has none or it raised
    (then that template is left to Jinja for the rest of the process).  ``seen``: the template's
    file and its modification time, just read (:func:`_user_file`)."""
    fast = loader(roots, sandboxed)
    unit = fast.unit(template, seen)
    if unit is None:
        return None
    _set_current(fast.globals["_cur"], context, markers_on)
    state = trun.S_
    state.fit, state.t, state.depth = context["fit"], context["t"], 0
    try:
        if not sandboxed:
            return "".join(fast.render(unit, context))
        with _budget.face(_compiled_budget(_budget.BUDGET)) as meter:
            state.meter = meter
            return meter.output(fast.render(unit, context))
    except Exception:               # Jinja renders it again, and says what is wrong in its words
        fast.refuse(template)
        return None
    finally:
        state.meter = state.fit = state.t = None


def _set_current(cur: Any, context: dict, markers_on: bool) -> None:
    """``_cur`` (what the shared macros read) made the face being rendered: its size, bleed,
    language, ink saving, fit, t and markers."""
    for key in ("w", "h", "bleed", "lang", "ink_saver", "t", "fit"):
        setattr(cur, key, context[key])
    cur.markers = markers_on


@functools.lru_cache(maxsize=4)
def _compiled_budget(whole: Any) -> Any:
    """A face's budget for its compiled code: a third of its time (a face that needs more is
    rendered by Jinja, on the whole budget), the rest the same."""
    return whole._replace(seconds=whole.seconds / 3)


def _freeze() -> None:
    global _frozen
    if not _frozen:
        gc.freeze()
        _frozen = True


def _globals() -> dict:
    """The names every template sees besides its face's (Jinja's environment adds its own)."""
    return {"_cur": Current(), "pt": pt, "marker_path": markers.path, "marker_quiet": markers.quiet,
            "marker_cell": markers.cell, "marker_place": markers.place,
            "marker_places": markers.places, "cos": math.cos, "sin": math.sin, "pi": math.pi,
            "sqrt": math.sqrt}


def pt(size_pt: Any) -> float:
    """A font size in points as millimetres (the SVG user unit); refuses sizes under 6 pt."""
    size = float(size_pt)
    if size < MIN_PT - 1e-9:
        raise FitError(f"text of {size:g} pt is under the 6 pt minimum")
    return pt_to_mm(size)


def _bytecode_cache(name: str = "jinja"):
    """Compiled templates kept between runs (keyed by each template's source checksum)."""
    import jinja2
    from .fonts import cache_dir
    folder = cache_dir(name)
    return jinja2.FileSystemBytecodeCache(str(folder)) if folder else None


def _template_name(name: str) -> bool:
    return name.endswith(".j2")


def fingerprint(roots: tuple[str, ...]) -> str:
    """A hash of every template file the roots hold (path, size, mtime): what faces depend on."""
    import hashlib
    digest = hashlib.sha256()
    for root in list(roots) + [str(TEMPLATES)]:
        # the order of rglob's paths once sorted (by their parts)
        for path in sorted(files_under(str(Path(root)), _template_name), key=lambda p: p.split(os.sep)):
            st = os.stat(path)
            digest.update(f"{path}\0{st.st_size}\0{st.st_mtime_ns}\n".encode())
    return digest.hexdigest()[:32]


def _where(exc: BaseException, fallback: str) -> tuple[str, int]:
    """The innermost template frame of a Jinja2 error outside _lib.svg.j2: (name, line).

    The traceback is walked as it is, reading no source line: this runs after a face ran out of
    memory too, while its frames still hold what filled it."""
    frames: list[tuple[str, int]] = []
    tb = exc.__traceback__
    while tb is not None:
        filename = tb.tb_frame.f_code.co_filename or ""
        if filename.endswith((".j2", ".svg")):
            frames.append((filename, tb.tb_lineno or 0))
        tb = tb.tb_next
    if not frames:
        return fallback, 0
    # an error inside a shared macro is reported where the face's template called it
    own = [f for f in frames if Path(f[0]).name != "_lib.svg.j2"] or frames
    name, line = _display_name(own[-1][0]), own[-1][1]
    return name, line


def _at(name: str, line: int) -> str:
    """``name:line``, or the name alone when the line is not known."""
    return f"{name}:{line}" if line else name


def _display_name(filename: str) -> str:
    """A template path as the user knows it: relative to templates/ or to the working folder."""
    path = Path(filename)
    for base in (TEMPLATES, Path.cwd()):
        try:
            return str(path.resolve().relative_to(base))
        except ValueError:
            continue
    return filename


_FONT_SIZE = re.compile(r'font-size[=:]\s*"?\s*([\d.]+)\s*(pt|mm|px)?')
_UNIT_MM = {None: 1.0, "mm": 1.0, "pt": 25.4 / 72, "px": 25.4 / 96}


def check_text_sizes(svg: str, face: Face, where: str) -> None:
    """Refuse a face with any font size under 6 pt (sizes are in mm, the faces' user unit)."""
    smallest = min((float(v) * _UNIT_MM[u or None] for v, u in _FONT_SIZE.findall(svg)), default=None)
    if smallest is not None and smallest < pt_to_mm(MIN_PT) - 1e-3:
        size = smallest * 72 / 25.4
        raise FitError(f"template {face.template}: text of {size:.2f} pt is under the 6 pt minimum"
                       f"{_in(where, face)}")


def _in(where: str, face: Face) -> str:
    """`` (in <where>, <file:line>)``: the face of an error and the row it comes from."""
    place = ", ".join(p for p in (where, face.source) if p)
    return f" (in {place})" if place else ""


def pick(lang: str):
    """``t(x)``: the text in ``lang`` from an {es, en} mapping; anything else unchanged."""
    def t(value: Any) -> Any:
        if isinstance(value, dict) and ("es" in value or "en" in value):
            return value.get(lang) or value.get("es") or value.get("en")
        return value
    return t


@functools.cache
def _kit_templates() -> Path:
    """The kit's own templates/ folder, resolved (once: it does not move)."""
    return TEMPLATES.resolve()


def _user_root(template: str, roots: tuple[str, ...]) -> Path | None:
    """The user's folder that holds ``template``, or None for the kit's own templates (looked
    at for every face: a file the user adds or removes meanwhile counts at once)."""
    found = _user_file(template, roots)
    return None if found is None else found[0]


def _user_file(template: str, roots: tuple[str, ...]) -> tuple[Path, str, float] | None:
    """:func:`_user_root`, with the file found there and its modification time: the one look at
    it that also tells the compiled templates whether it changed (:meth:`.trun.Loader.unit`)."""
    for root, base in _user_folders(roots):
        path = os.path.join(root, template)     # as the loader joins it: its file's very name
        try:
            st = os.stat(path)
        except (OSError, ValueError):          # as os.path.isfile: not there, or not a path
            continue
        if S_ISREG(st.st_mode):
            return base, path, st.st_mtime
    return None


@functools.lru_cache(maxsize=8)
def _user_folders(roots: tuple[str, ...]) -> tuple[tuple[str, Path], ...]:
    """Each root as given and resolved, the kit's own templates/ left out (once per roots:
    resolving a path for every face cost 0.1 ms, a tenth of the sandbox's cost of a face)."""
    return tuple((root, base) for root, base in ((root, Path(root).resolve()) for root in roots)
                 if base != _kit_templates())


#: An href or url() of a face, compiled at its first use (re's own cache): only faces that refer to
#: something need it.
_REFERENCE = (r"""(?P<head>\b(?:xlink:)?href\s*=\s*)(?P<q>["'])(?P<ref>[^"']*)(?P=q)"""
              r"""|(?P<url>url\(\s*(?P<uq>["']?)(?P<uref>[^"')]*)(?P=uq)\s*\))""")
_MIME = {".png": "image/png", ".jpg": "image/jpeg", ".jpeg": "image/jpeg", ".gif": "image/gif",
         ".svg": "image/svg+xml", ".webp": "image/webp", ".ttf": "font/ttf", ".otf": "font/otf",
         ".woff": "font/woff", ".woff2": "font/woff2"}
EMBED_MAX_BYTES = 8_000_000


#: What a reference left out becomes: an id no element has, so that it draws nothing (an empty
#: href would make a ``<use>`` draw the whole face inside itself, without end).
LEFT_OUT = "#ludoteca-left-out"


@functools.lru_cache(maxsize=256)
def _refused_svg(path: Path, mtime_ns: int, size: int) -> str | None:
    """Why cairosvg could not draw an SVG file a template embeds, or None (other files: None)."""
    if path.suffix.lower() != ".svg":
        return None
    try:
        check_svg(path.read_bytes())
    except SvgRefused as exc:
        return str(exc)
    return None


@functools.lru_cache(maxsize=256)
def _data_uri(path: Path, mtime_ns: int, size: int) -> str:
    import base64
    mime = _MIME.get(path.suffix.lower(), "application/octet-stream")
    return f"data:{mime};base64," + base64.b64encode(path.read_bytes()).decode("ascii")


def embed_references(svg: str, folder: Path, template: str, warn: Callable[[str], None]) -> str:
    """Files the face refers to in the template's own folder, embedded as data URIs (with the
    ``#fragment`` the reference names); any other reference (outside the folder, absolute, another
    scheme, missing) left out with a warning.  An SVG file cairosvg could not draw is refused
    (:class:`~.budget.SvgRefused`)."""
    if "href" not in svg and "url(" not in svg:
        return svg
    import html                          # only for faces that refer to something

    def resolve(ref: str) -> str | None:
        ref = html.unescape(ref).strip()
        if not ref or ref.startswith(("#", "data:")):
            return None                                  # kept as it is
        if re.match(r"^[a-zA-Z][a-zA-Z0-9+.-]*:", ref) or ref.startswith(("/", "\\")):
            warn(f"template {template}: refers to {ref!r}, outside its folder; left out")
            return LEFT_OUT
        target = (folder / ref.split("#")[0].split("?")[0]).resolve()
        if not target.is_relative_to(folder):
            warn(f"template {template}: refers to {ref!r}, outside its folder; left out")
            return LEFT_OUT
        if not target.is_file():
            warn(f"template {template}: refers to {ref!r}, which is not in {folder}; left out")
            return LEFT_OUT
        st = target.stat()
        if st.st_size > EMBED_MAX_BYTES:
            warn(f"template {template}: {ref!r} is over {EMBED_MAX_BYTES // 1_000_000} MB; left out")
            return LEFT_OUT
        refused = _refused_svg(target, st.st_mtime_ns, st.st_size)
        if refused:
            raise SvgRefused(f"refers to {ref!r}, which {refused}")
        fragment = ref.split("#", 1)[1] if "#" in ref else ""
        return _data_uri(target, st.st_mtime_ns, st.st_size) + (f"#{fragment}" if fragment else "")

    def replace(m: re.Match) -> str:
        if m.group("head") is not None:
            new = resolve(m.group("ref"))
            return m.group(0) if new is None else f'{m.group("head")}{m.group("q")}{new}{m.group("q")}'
        new = resolve(m.group("uref"))
        return m.group(0) if new is None else (f'url("{new}")' if new != LEFT_OUT else "none")

    return re.sub(_REFERENCE, replace, svg)


_SVG_ROOT = re.compile(r"<svg\b", re.I)


def render(face: Face, size: tuple[float, float], bleed: float, opts: Options,
           where: str = "", roots: tuple[str, ...] = (str(TEMPLATES),),
           warn: Callable[[str], None] | None = None, compiled: bool = True) -> str:
    """Render one face to SVG text; errors name the template and line (and the face).

    A user's template (one outside the kit's templates/) runs in the sandbox, and the files it
    refers to are embedded from its own folder (:func:`embed_references`).  A template that
    compiles (:mod:`.tcompile`) runs its compiled code, which gives Jinja's text to the
    character; Jinja renders the others, and any face the compiled code could not render.
    """
    found = _user_file(face.template, roots)
    user = None if found is None else found[0]

    def fit(text: Any, width_mm: float, height_mm: float, max_pt: float, min_pt: float = 6,
            bold: bool = False):
        result = fit_text(str(text), float(width_mm), float(height_mm), float(max_pt),
                          float(min_pt), bool(bold))
        if not result.fits:
            raise FitError(f"text does not fit {width_mm:g}x{height_mm:g} mm even at 6 pt: "
                           f"{str(text)[:60]!r}")
        return result

    context = dict(face.context)
    context.update(w=size[0], h=size[1], bleed=bleed, lang=opts.lang, ink_saver=opts.ink_saver,
                   t=pick(opts.lang), fit=fit)
    svg = None
    if compiled and os.environ.get(FAST_ENV) != "0":
        svg = _render_compiled(face.template, context, roots, user is not None,
                               getattr(opts, "markers", True), None if found is None else found[1:])
    if svg is None:
        svg = _render_jinja(face, context, roots, user is not None, opts, where)
    if not _SVG_ROOT.search(svg):
        raise TemplateError(f"template {face.template}: produced no <svg> element{_in(where, face)}")
    if user is not None:
        try:
            root = check_svg(svg)
        except SvgRefused as exc:
            raise TemplateError(f"template {face.template}: its SVG {exc}{_in(where, face)}") from None
        try:
            checked, svg = svg, embed_references(svg, user, face.template, warn or (lambda _m: None))
        except SvgRefused as exc:
            raise TemplateError(f"template {face.template}: {exc}{_in(where, face)}") from None
        if svg is checked:                  # drawn in this process: not parsed a second time
            from . import fastsvg
            fastsvg.parsed(svg, root)
    return svg


def _render_jinja(face: Face, context: dict, roots: tuple[str, ...], sandboxed: bool, opts: Options,
                  where: str) -> str:
    """The face rendered by Jinja; errors name the template and line (and the face)."""
    import traceback                       # here, not at the top: a deck's compiled faces never need it
    import jinja2
    env = environment(roots, sandboxed=sandboxed)
    _set_current(env.globals["_cur"], context, getattr(opts, "markers", True))
    suffix = _in(where, face)
    try:
        if not sandboxed:
            svg = env.get_template(face.template).render(context)
        else:
            with env.face() as meter:
                svg = meter.output(env.get_template(face.template).generate(context))
    except (OverBudget, MemoryError) as exc:
        name, line = _where(exc, face.template)
        traceback.clear_frames(exc.__traceback__)  # let go of what filled the face before saying so
        exc.__traceback__ = None
        if not sandboxed:
            what = "out of memory"
        else:
            over = exc if isinstance(exc, OverBudget) else env.meter.over_memory()
            what = f"over the budget of one face: {over}"
        raise TemplateError(f"template {_at(name, line)}: {what}{suffix}") from None
    except jinja2.TemplateSyntaxError as exc:
        name = _display_name(exc.filename) if exc.filename else (exc.name or face.template)
        raise TemplateError(f"template {name}:{exc.lineno}: {exc.message}{suffix}") from None
    except jinja2.TemplateNotFound as exc:
        raise TemplateError(f"template {face.template}: not found: {exc.name}{suffix}") from None
    except jinja2.exceptions.SecurityError as exc:
        name, line = _where(exc, face.template)
        raise TemplateError(f"template {name}:{line}: refused by the sandbox: "
                            f"{str(exc).splitlines()[0]}{suffix}") from None
    except Exception as exc:  # any error inside a template, a text that does not fit included
        name, line = _where(exc, face.template)
        message = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        kind = FitError if isinstance(exc, FitError) else TemplateError
        raise kind(f"template {name}:{line}: {message}{suffix}") from None
    return svg

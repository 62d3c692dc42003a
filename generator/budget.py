"""What a face of a user's template may spend, and the SVG it may produce: jinja-free.

:class:`Meter` counts a face's loop steps, the size of what it makes and writes, its time and
its memory against one :class:`Budget`; :func:`memory_cap` caps the address space while a face
renders.  :func:`check_svg` refuses, with a reason, the SVG that cairosvg would refuse or loop
on later: XML entities, and ``<use>`` elements that draw themselves.  Both the Jinja sandbox
(:mod:`.sandbox`) and the compiled templates (:mod:`.trun`) use them.
"""

from __future__ import annotations

import contextlib
import functools
import math
import os
import time
from types import ModuleType
from typing import Any, NamedTuple
from collections.abc import Callable, Iterable, Iterator

from markupsafe import Markup

MB = 1024 * 1024
_monotonic = time.monotonic          # read at every tick of a face: one lookup, not two
#: A product of two whole numbers of at most this many bits together is far inside any budget.
SMALL_BITS = 64


class Budget(NamedTuple):
    """What one face of a user's template may spend (compiling the template included)."""

    seconds: float = 3.0          # wall-clock time
    memory_mb: int = 256          # address space beyond what the process holds when the face starts
    steps: int = 1_000_000        # loop iterations, range() items and lipsum() words, summed
    size: int = 8_000_000         # characters or items of any value it makes, and of its SVG
    digits: int = 4_300           # digits of a whole number made by * or ** (Python prints no more)
    uses: int = 10_000            # elements its <use> elements draw, copies of copies included


BUDGET = Budget()


class OverBudget(Exception):
    """A face ran over its budget; the message says what ran over (not a ValueError, so that no
    filter that catches bad values can swallow it)."""


class Meter:
    """What one face has spent so far, against its budget."""

    def __init__(self, budget: Budget) -> None:
        self.budget = budget
        self.deadline = time.monotonic() + budget.seconds
        self.steps = 0
        self.memory_mb = budget.memory_mb      # what the face may use, said when it runs over
        self._line: int | None = None          # resident memory the face must stay under
        self._looked = 0.0
        self._due = self.deadline              # when a tick must look: the deadline, or the memory

    def watch(self, resident: int, allowed: int) -> None:
        """Stop the face when the resident memory grows ``allowed`` bytes past ``resident``
        (``resident`` was just read: the next look is a few milliseconds on)."""
        self._line = resident + allowed
        self.memory_mb = allowed // MB
        self._looked = time.monotonic()
        self._due = min(self.deadline, self._looked + 0.005)

    def over_memory(self) -> OverBudget:
        return OverBudget(f"it used more than {self.memory_mb} MB of memory")

    def tick(self) -> None:
        """Stop the face past its deadline, or over its memory (looked at every 5 ms): one
        reading of the clock against the first of the two that is due."""
        if _monotonic() > self._due:
            self._look()

    def _look(self) -> None:
        now = _monotonic()
        if now > self.deadline:
            raise OverBudget(f"it ran longer than {self.budget.seconds:g} s")
        if self._line is not None:
            if now - self._looked > 0.005:
                self._looked = now
                memory = _memory()
                if memory is not None and memory[1] > self._line:
                    raise self.over_memory()
            self._due = min(self.deadline, self._looked + 0.005)

    def step(self, n: int = 1) -> None:
        if n > 0:
            self.steps += n
        if self.steps > self.budget.steps:
            raise OverBudget(f"its loops ran more than {self.budget.steps:,} steps "
                             "(loop turns, range() items and lipsum() words)")
        self.tick()

    def made(self, value: Any) -> Any:
        """``value``, refused when it is larger than any value may be."""
        kind = type(value)
        if kind is float or kind is bool or value is None:      # most of what a face makes
            return value
        if kind is Markup or kind is str:                       # what its macros return
            if len(value) > self.budget.size:
                self._size(len(value), value, "it made")
            return value
        if isinstance(value, int):
            self._digits(value.bit_length() * math.log10(2), "it made")
        elif isinstance(value, (str, bytes, list, tuple, dict, set)):
            self._size(len(value), value, "it made")
        return value

    def binop(self, operator: str, left: Any, right: Any) -> None:
        """Refuse ``left ** right`` or ``left * right`` before it is computed when the result
        would be over the budget (computing it could take hours)."""
        if isinstance(left, int) and isinstance(right, (str, list, tuple)):
            left, right = right, left
        def said() -> str:          # made only to be said: most products are small
            return f"{_short(left)} {operator} {_short(right)} would make"
        if _whole(left) and _whole(right):
            if operator == "**" and right > 0 and abs(left) > 1:
                self._digits(right * math.log10(abs(left)), said)
            elif operator == "*":
                self._digits((left.bit_length() + right.bit_length()) * math.log10(2), said)
        elif operator == "*" and _whole(right) and isinstance(left, (str, list, tuple)):
            self._size(len(left) * right, left, said)

    def _digits(self, digits: float, said: str | Callable[[], str]) -> None:
        if digits > self.budget.digits + 1:
            raise OverBudget(f"{_said(said)} a number of about {digits:,.0f} digits, over "
                             f"{self.budget.digits:,}")

    def _size(self, n: int, like: Any, said: str | Callable[[], str]) -> None:
        if n > self.budget.size:
            what = "text of {:,} characters" if isinstance(like, str) else "list of {:,} items"
            raise OverBudget(f"{_said(said)} a {what.format(n)}, over {self.budget.size:,}")

    def output(self, chunks: Iterable[str]) -> str:
        """The SVG a template writes, chunk by chunk, within the size and the time."""
        parts: list[str] = []
        written = 0
        for chunk in chunks:
            written += len(chunk)
            if written > self.budget.size:
                raise OverBudget(f"it wrote more than {self.budget.size:,} characters of SVG")
            self.tick()
            parts.append(chunk)
        return "".join(parts)


def _said(said: str | Callable[[], str]) -> str:
    return said() if callable(said) else said


def _whole(x: Any) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def _short(x: Any) -> str:
    """A value as the message shows it: itself when short, else its kind."""
    text = repr(x)
    kinds = {int: "a number", str: "a text", list: "a list", tuple: "a list"}
    return text if len(text) <= 24 else kinds.get(type(x), f"a {type(x).__name__}")


def _memory() -> tuple[int, int] | None:
    """The process's address space and resident memory in bytes, or None where unknown (read
    with plain system calls: it is looked at for every face and every few milliseconds)."""
    try:
        fd = os.open("/proc/self/statm", os.O_RDONLY)
        try:
            size, resident = os.read(fd, 256).split()[:2]
        finally:
            os.close(fd)
        page = _page_size()
        return int(size) * page, int(resident) * page
    except (OSError, ValueError, AttributeError):
        return None


@functools.cache
def _page_size() -> int:
    return os.sysconf("SC_PAGE_SIZE")


#: Kept free under a cap already set (``ulimit -v``): what stopping a face and saying why takes.
RESERVE = 32 * MB
#: The least a face may grow, however little room a cap already set leaves.
FLOOR = 16 * MB


class face:
    """A fresh meter for one face (on ``budget``, else :data:`BUDGET`), its memory capped while it
    lasts (``with face() as meter``; a plain class, not a generator: it is entered for every face)."""

    __slots__ = ("meter", "cap")

    def __init__(self, budget: Budget | None = None) -> None:
        self.meter = Meter(budget or BUDGET)
        self.cap = memory_cap(self.meter)

    def __enter__(self) -> Meter:
        self.cap.__enter__()
        return self.meter

    def __exit__(self, kind: Any, exc: Any, tb: Any) -> None:
        self.cap.__exit__(kind, exc, tb)


class _Run:
    """The cap armed for a run of faces (:func:`faces`): the limits found before it, the address
    space and resident memory when it was armed, and the room each face is given."""

    __slots__ = ("limits", "memory_mb", "resident", "allowed")

    def __init__(self) -> None:
        self.limits: tuple[int, int] | None = None     # (soft, hard) before the run capped them
        self.memory_mb: int | None = None              # the budget the cap was armed for
        self.resident = 0
        self.allowed = 0


_run: _Run | None = None


@contextlib.contextmanager
def faces() -> Iterator[None]:
    """Faces rendered one after another: the address space is capped once, at the first face,
    at what the process holds then plus the face's budget, and lifted when the run ends (not
    capped and lifted again for every face).  The process grows little between faces, so a face
    still cannot take more than its budget beyond what the process held before it; a face that
    raises (over its budget, or refused) ends the armed cap, and the next face arms it afresh."""
    global _run
    if _run is not None:                      # inside a run already: that run holds the cap
        yield
        return
    run = _run = _Run()
    try:
        yield
    finally:
        _run = None
        if run.limits is not None:
            import resource
            resource.setrlimit(resource.RLIMIT_AS, run.limits)


class memory_cap:
    """The face's memory, two ways, while it renders.  Values that grow bit by bit are seen by
    the meter (the process's resident memory, looked at every few milliseconds): past
    ``budget.memory_mb``, or :data:`RESERVE` short of a cap already set, the face is stopped
    cleanly.  One allocation too big fails at once: the address space is capped at the budget
    plus :data:`RESERVE` (never above a cap already set).  Restored afterwards (inside
    :func:`faces`, when the run ends); nothing of this where the platform cannot say its size."""

    __slots__ = ("meter", "run", "restore")

    def __init__(self, meter: Meter) -> None:
        self.meter = meter
        self.run: _Run | None = None         # the run whose cap this face keeps, if it keeps one
        self.restore: tuple[int, int] | None = None

    def __enter__(self) -> None:
        meter, run = self.meter, _run
        self.run = run
        if run is not None and run.memory_mb == meter.budget.memory_mb:
            meter.watch(run.resident, run.allowed)      # armed by an earlier face of the run
            return
        resource: ModuleType | None
        try:
            import resource
        except ImportError:
            resource = None
        now = _memory() if resource is not None else None
        if resource is None or now is None:
            self.run = None
            return
        size, resident = now
        if run is not None and run.limits is not None:
            soft, hard = run.limits                     # what held before the run capped it
        else:
            soft, hard = resource.getrlimit(resource.RLIMIT_AS)
        allowed = meter.budget.memory_mb * MB
        cap = size + allowed + RESERVE
        for limit in (soft, hard):
            if limit != resource.RLIM_INFINITY:
                allowed = min(allowed, max(limit - size - RESERVE, FLOOR))
                cap = min(cap, limit)
        meter.watch(resident, allowed)
        resource.setrlimit(resource.RLIMIT_AS, (cap, hard))
        if run is None:
            self.restore = (soft, hard)
        else:
            run.limits = (soft, hard)
            run.resident, run.allowed = resident, allowed
            run.memory_mb = None                        # set when this face ends well

    def __exit__(self, kind: Any, exc: Any, tb: Any) -> None:
        run = self.run
        if run is not None:
            # the next faces keep this cap; after a face that raised, the next measures afresh
            run.memory_mb = self.meter.budget.memory_mb if kind is None else None
        elif self.restore is not None:
            import resource
            resource.setrlimit(resource.RLIMIT_AS, self.restore)


class SvgRefused(Exception):
    """The SVG a template produced is refused: the message says what and why."""


_XLINK_HREF = "{http://www.w3.org/1999/xlink}href"


@functools.cache
def _xml() -> tuple[Any, Any, type[Exception]]:
    """ElementTree's C parser, its tree builder and the ParseError it raises, taken from
    ``_elementtree`` (CPython's C half of ElementTree) where it is there: importing
    xml.etree.ElementTree's Python half as well cost every build 1 ms that parsing never uses."""
    try:
        from _elementtree import ParseError, TreeBuilder, XMLParser  # type: ignore[import-not-found]
    except ImportError:                   # another Python: the same, through ElementTree
        from xml.etree.ElementTree import ParseError, TreeBuilder, XMLParser
    return XMLParser, TreeBuilder, ParseError


def parse_xml(text: str | bytes) -> Any:
    """The root element of an XML document, as ``ElementTree.fromstring`` builds it (its
    ParseError, ``_xml()[2]``, when it is malformed)."""
    make, builder, _error = _xml()
    parser = make(target=builder())
    parser.feed(text)
    return parser.close()


def check_svg(svg: str | bytes, budget: Budget | None = None) -> Any:
    """Refuse what cairosvg would refuse, or draw without end, with a reason a user can act on;
    the parsed SVG (its root element) when it is not refused.

    cairosvg parses with defusedxml: entity declarations and external references are refused as
    expat meets them.  The same expat handlers refuse them here (defusedxml's own parser builds
    its tree in Python, four times slower than the C one); the tree is then built by
    ElementTree's C parser, which reports malformed XML with the same messages.  Then its
    ``<use>`` elements are followed: one that draws an element holding it (no href, ``href="#"``,
    its own group) would draw itself for ever; copies of copies are counted against
    ``budget.uses``.
    """
    data: str | bytes = svg
    # A text (a template's output, UTF-8 here) without "<!" has no DTD, so no entity; without
    # "<?" it names no encoding: expat's first pass is for those.  Bytes may be in any encoding.
    # A text naming no encoding is parsed as it is: its parser reads the same UTF-8 (no copy).
    if not isinstance(svg, str) or "<!" in svg or "<?" in svg:
        data = svg.encode("utf-8") if isinstance(svg, str) else svg
        _refuse_entities(data)
    try:
        root = parse_xml(data)
    except _xml()[2] as exc:
        raise SvgRefused(f"is not well-formed XML ({exc})") from None
    if not isinstance(svg, str) or "use" in svg:     # no <use> can be written without those letters
        _check_uses(root, (budget or BUDGET).uses)
    return root


def _refuse_entities(data: bytes) -> None:
    """Refuse an entity declaration or an external reference, as defusedxml's parser does
    (``forbid_entities``, ``forbid_external``); malformed XML is left to the tree's parser."""
    from xml.parsers import expat

    from defusedxml import EntitiesForbidden, ExternalReferenceForbidden

    def entity(name, _parameter, value, base, sysid, pubid, notation):
        raise EntitiesForbidden(name, value, base, sysid, pubid, notation)

    def unparsed(name, base, sysid, pubid, notation):
        raise EntitiesForbidden(name, None, base, sysid, pubid, notation)

    def external(context, base, sysid, pubid):
        raise ExternalReferenceForbidden(context, base, sysid, pubid)

    parser = expat.ParserCreate(namespace_separator="}")
    parser.EntityDeclHandler = entity
    parser.UnparsedEntityDeclHandler = unparsed
    parser.ExternalEntityRefHandler = external
    try:
        parser.Parse(data, True)
    except EntitiesForbidden as exc:
        source = f" (SYSTEM '{exc.sysid}')" if exc.sysid else ""
        raise SvgRefused(f"declares the XML entity '{exc.name}'{source}; entities are refused "
                         "(they can read files or grow without end): write the text itself") from None
    except ExternalReferenceForbidden as exc:
        raise SvgRefused(f"refers to an external DTD or entity ({exc}); refused: nothing is read "
                         "from outside the template's folder") from None
    except LookupError as exc:              # <?xml encoding="..."?> naming no codec Python has
        raise SvgRefused(f"declares an encoding that cannot be read ({exc}); write it in UTF-8") from None
    except expat.ExpatError:
        pass                                  # said by the tree's parser, in its words


def _check_uses(root: Any, limit: int) -> None:
    """Count what the ``<use>`` elements draw; refuse a loop or more than ``limit`` elements."""
    uses = [el for el in root.iter() if isinstance(el.tag, str) and el.tag.rsplit("}", 1)[-1] == "use"]
    if not uses:
        return
    ids = {el.get("id"): el for el in root.iter() if el.get("id")}
    is_use = set(uses)

    def href(use: Any) -> str:
        return (use.get(_XLINK_HREF, use.get("href")) or "").strip()

    def target(use: Any) -> Any:
        ref = href(use)
        if ref in ("", "#"):
            return root                         # cairosvg draws the whole document
        if ref.startswith("#"):
            return ids.get(ref[1:])             # none: cairosvg draws nothing
        return None                             # another document (an embedded file)

    drawn: dict[Any, int] = {}                  # element -> elements its <use>s draw
    open_: set[Any] = set()                     # being counted: reaching one again is a loop
    stack: list[tuple[Any, bool, Any]] = [(root, False, None)]
    while stack:
        el, done, via = stack.pop()
        if done:
            open_.discard(el)
            total = sum(drawn[child] for child in el)
            if el in is_use:
                t = target(el)
                total += 1 + (drawn[t] if t is not None else 0)
            drawn[el] = min(total, limit + 1)
            continue
        if el in drawn:
            continue
        if el in open_:
            if el is root and via is not None:
                raise SvgRefused(f"has a <use> with href={href(via)!r}, which draws the whole "
                                 "face, itself included, without end")
            ref = f" with href={href(via)!r}" if via is not None else ""
            raise SvgRefused(f"has a <use>{ref} that draws an element holding it, so it would "
                             "draw itself without end")
        open_.add(el)
        stack.append((el, True, None))
        for child in el:
            stack.append((child, False, None))
        if el in is_use and target(el) is not None:
            stack.append((target(el), False, el))
    if drawn[root] > limit:
        raise SvgRefused(f"has <use> elements that draw more than {limit:,} elements (copies of "
                         "copies included)")

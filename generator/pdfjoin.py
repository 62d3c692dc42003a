"""Join pages of PDFs written by cairo into one file, fast and without a PDF library.

Cairo writes plain PDFs: a classic cross-reference table, no object streams, a flat page tree.
The objects a page uses are copied once, renumbered (references are rewritten in the dictionary
part, stream data is copied byte for byte), and each page gets its TrimBox and BleedBox.  An
object that is byte for byte another one already copied, with the same objects below it (a font
subset that several cached pages of one render job carry, a face drawn on several pages), is
copied once and shared.  A source that does not look like that raises :class:`Unsupported` and
the caller falls back to pypdf.  :func:`split` cuts a cairo PDF of several pages into one-page
PDFs (each carrying what its page uses).
"""

from __future__ import annotations

import codecs
import collections
import hashlib
import re
from array import array
from pathlib import Path
from typing import BinaryIO
from collections.abc import Callable, Iterable

from .record import record

#: a reference to the catalog, the info or the page tree (one pattern, not three to compile)
_OBJ_HEAD = re.compile(rb"(\d+)\s+0\s+obj\b")
_REF = re.compile(rb"(\d+)\s+0\s+R\b")
_PAGE_TYPE = re.compile(rb"/Type\s*/Page\b(?!s)")
_PARENT = re.compile(rb"/Parent\s+\d+\s+0\s+R")
_STREAM = re.compile(rb">>\s*(stream)\r?\n")

Box = tuple[float, float, float, float]          # x0, y0, x1, y1 in points (PDF coordinates)


class Unsupported(ValueError):
    """A source PDF is not in the simple form cairo writes."""


class Source:
    """One parsed PDF: its objects (number -> body bytes after ``N 0 obj``) and its pages.

    Compared by identity: a page source that is already parsed is one of these."""

    __slots__ = ("version", "objects", "pages", "skip", "_read")

    def __init__(self, version: bytes, objects: dict[int, bytes], pages: list[int],
                 skip: frozenset[int]) -> None:
        self.version = version
        self.objects = objects
        self.pages = pages            # the page objects, in order
        self.skip = skip              # catalog, page tree and info: not copied
        self._read: dict[int, tuple[list[int], bytes, list[bytes], memoryview]] = {}

    def read(self, n: int) -> tuple[list[int], bytes, list[bytes], memoryview]:
        """Object ``n`` taken apart, once for every page copied from this source: the objects
        its dictionary refers to, the dictionary with those references masked (what its digest
        is made of), the dictionary's text between them, and its stream part (not copied)."""
        found = self._read.get(n)
        if found is None:
            body = self.objects[n]
            cut = _stream_at(body)
            head = body[:cut]
            pieces = _REF.split(head)       # text, referred number, text, ..., text
            found = ([int(m) for m in pieces[1::2]], _REF.sub(b"@", head), pieces[0::2], memoryview(body)[cut:])
            self._read[n] = found
        return found


def parse(data: bytes) -> Source:
    """The objects of a PDF with a classic xref table and a flat page tree (as cairo writes it)."""
    start = xref_start(data)
    version = data[5:8]                   # "%PDF-1.5": a digit, a dot, a digit
    if start is None or data[:5] != b"%PDF-" or not (version[:1].isdigit() and version[1:2] == b"."
                                                    and version[2:].isdigit()):
        raise Unsupported("no startxref")
    head = _xref_head(data, start)
    trailer = _trailer(data, start)
    if head is None or trailer is None:
        raise Unsupported("no classic xref table")
    count, after = head
    table = data[after:after + 20 * count]
    offsets: list[tuple[int, int]] = []
    for n in range(1, count):
        entry = table[20 * n:20 * n + 20]
        if entry[17:18] == b"n":
            offsets.append((int(entry[:10]), n))
    offsets.sort()
    objects: dict[int, bytes] = {}
    for i, (offset, n) in enumerate(offsets):
        stop = offsets[i + 1][0] if i + 1 < len(offsets) else start
        obj = _OBJ_HEAD.match(data, offset)
        if obj is None or int(obj.group(1)) != n:
            raise Unsupported(f"object {n} is not where the xref says")
        body = data[obj.end():stop].rstrip()
        if not body.endswith(b"endobj"):
            raise Unsupported(f"object {n} does not end with endobj")
        objects[n] = body[:-len(b"endobj")].strip(b"\r\n ")
    catalog = _named_ref(b"Root", trailer)
    info = _named_ref(b"Info", trailer)
    if catalog is None or catalog not in objects:
        raise Unsupported("no catalog")
    tree = _named_ref(b"Pages", objects[catalog])
    if tree is None or tree not in objects:
        raise Unsupported("no page tree")
    kids = _kids(objects[tree])
    numbers = [int(n) for n in _REF.findall(kids)] if kids is not None else []
    if not numbers or not all(n in objects and _PAGE_TYPE.search(_split(objects[n])[0]) for n in numbers):
        raise Unsupported("not a flat tree of pages")
    skip = {catalog, tree} | ({info} if info is not None else set())
    return Source(version, objects, numbers, frozenset(skip))


# The file's frame (where its xref table is, its trailer, its catalog's and page tree's entries)
# is read with bytes' own methods, each exactly what the pattern in its docstring finds: five
# patterns fewer compiled by every process that joins.  ``\s`` is bytes' white space.
_SPACE = frozenset(b" \t\n\r\f\v")


def _spaces(data: bytes, i: int) -> int:
    """Where the white space that starts at ``i`` ends."""
    n = len(data)
    while i < n and data[i] in _SPACE:
        i += 1
    return i


def _digits(data: bytes, i: int) -> int:
    """Where the digits that start at ``i`` end."""
    n = len(data)
    while i < n and 48 <= data[i] <= 57:
        i += 1
    return i


def _ref_at(data: bytes, i: int, space: bool) -> tuple[int, int] | None:
    """``\\s+(\\d+)\\s+0\\s+R`` (``\\s*`` first when not ``space``) at ``i``: (its number, its end)."""
    j = _spaces(data, i)
    if space and j == i:
        return None
    k = _digits(data, j)
    if k == j:
        return None
    m = _spaces(data, k)
    if m == k or data[m:m + 1] != b"0":
        return None
    r = _spaces(data, m + 1)
    if r == m + 1 or data[r:r + 1] != b"R":
        return None
    return int(data[j:k]), r + 1


def xref_start(data: bytes) -> int | None:
    """Where the xref table starts, as the file's last 64 bytes say: ``startxref\\s+(\\d+)\\s+%%EOF\\s*$``
    (None without it)."""
    tail = data[-64:]
    at = tail.rfind(b"startxref")          # a match runs to the end: no other startxref after it
    if at < 0:
        return None
    rest = tail[at + len(b"startxref"):]
    words = rest.split()
    if not rest[:1].isspace() or len(words) != 2 or not words[0].isdigit() or words[1] != b"%%EOF":
        return None
    return int(words[0])


def _xref_head(data: bytes, start: int) -> tuple[int, int] | None:
    """``xref\\s+0\\s+(\\d+)\\s+`` at ``start``: (its count of entries, its end)."""
    if not data.startswith(b"xref", start):
        return None
    i = _spaces(data, start + 4)
    if i == start + 4 or data[i:i + 1] != b"0":
        return None
    j = _spaces(data, i + 1)
    k = _digits(data, j)
    if j == i + 1 or k == j:
        return None
    end = _spaces(data, k)
    return None if end == k else (int(data[j:k]), end)


def _trailer(data: bytes, start: int) -> bytes | None:
    """The trailer's dictionary, as ``trailer\\s*<<(.*?)>>\\s*startxref`` (dot-all) searched from
    ``start`` finds it."""
    at = data.find(b"trailer", start)
    while at >= 0:
        i = _spaces(data, at + len(b"trailer"))
        if data.startswith(b"<<", i):
            end = data.find(b">>", i + 2)
            while end >= 0:
                if data.startswith(b"startxref", _spaces(data, end + 2)):
                    return data[i + 2:end]
                end = data.find(b">>", end + 1)
        at = data.find(b"trailer", at + 1)
    return None


def _kids(tree: bytes) -> bytes | None:
    """The references of a page tree's kids, as ``/Kids\\s*\\[((?:\\s*\\d+\\s+0\\s+R)+)\\s*\\]``
    finds them (its group)."""
    at = tree.find(b"/Kids")
    while at >= 0:
        i = _spaces(tree, at + len(b"/Kids"))
        if tree[i:i + 1] == b"[":
            end = None
            ref = _ref_at(tree, i + 1, False)
            while ref is not None:
                end = ref[1]
                ref = _ref_at(tree, end, False)
            close = _spaces(tree, end) if end is not None else 0
            if end is not None and tree[close:close + 1] == b"]":
                return tree[i + 1:end]
        at = tree.find(b"/Kids", at + 1)
    return None


def _named_ref(name: bytes, text: bytes) -> int | None:
    """The object the first ``/name N 0 R`` of ``text`` refers to (None without one), as the
    first of ``/(Root|Info|Pages)\\s+(\\d+)\\s+0\\s+R`` named ``name`` finds it."""
    key = b"/" + name
    at = text.find(key)
    while at >= 0:
        ref = _ref_at(text, at + len(key), True)
        if ref is not None:
            return ref[0]
        at = text.find(key, at + 1)
    return None


def _split(body: bytes) -> tuple[bytes, bytes]:
    """(dictionary part, ``stream ... endstream`` part) of an object body."""
    cut = _stream_at(body)
    return body[:cut], body[cut:]


def _stream_at(body: bytes) -> int:
    """Where an object body's ``stream ... endstream`` part starts (its end: none)."""
    keyword = _STREAM.search(body)      # after the dictionary ("BitstreamVera" is a font name)
    return len(body) if keyword is None else keyword.start(1)


def _renumbered(pieces: list[bytes], numbers: list[int]) -> bytes:
    """A dictionary's text (``pieces`` between its references) referring to ``numbers``."""
    out = [pieces[0]]
    for number, piece in zip(numbers, pieces[1:]):
        out += (b"%d 0 R" % number, piece)
    return b"".join(out)


def _num(v: float) -> str:
    text = f"{v:.4f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def _box(box: Box) -> bytes:
    return ("[ " + " ".join(_num(v) for v in box) + " ]").encode()


@record
class Meta:
    """What a PDF says about itself: document info, language and outline (title, page index)."""

    title: str = ""
    author: str = "Ludoteca"
    subject: str = ""
    lang: str = ""
    producer: str = "Ludoteca"
    creator: str = "ludoteca build"
    outline: list[tuple[str, int]] | None = None


PageSource = bytes | Path | Source        # a page PDF, the file that holds one, or it parsed
SHARED_KEPT = 4096                        # objects remembered for sharing (those written last)
PAGES_KEPT = 64                           # page objects remembered for placing again (the last)
#: A page: its PDF (its first page), or (the PDF, the index of the page in it).
PageRef = PageSource | tuple[PageSource, int]


def join(pages: Iterable[tuple[PageRef, Box | None, Box | None]], out: BinaryIO,
         meta: Meta | None = None, version: bytes = b"1.7") -> None:
    """Write one PDF of ``pages`` (source PDF or its path, TrimBox, BleedBox) to ``out``.

    Streamed: each object is written as soon as it is made and only object offsets (8 bytes
    each) and the digests of the objects and pages written last are kept, so memory barely grows
    with the pages (a refused first source writes nothing).  An object equal to one already written
    (same bytes, same objects below it) is not written again; each page still gets its own page
    object.  A box of None is not set.  Raises :class:`Unsupported` when a source is not simple
    enough (the caller starts over with pypdf on an emptied file).
    """
    meta = meta or Meta()
    header = b"%PDF-" + version + b"\n%\xb5\xed\xae\xfb\n"
    offsets = array("q", [0, 0])              # offsets[n] of object n; 1 = the page tree, last
    size = len(header)
    tree = 1

    def emit(body: bytes, number: int | None = None) -> int:
        nonlocal size
        if len(offsets) == 2 and not offsets[1]:
            out.write(header)                 # at the first object: a first source that is
            offsets[1] = -1                   # refused leaves nothing written
        if number is None:
            number = len(offsets)
            offsets.append(size)
        else:
            offsets[number] = size
        chunk = b"%d 0 obj\n" % number + body + b"\nendobj\n"
        out.write(chunk)
        size += len(chunk)
        return number

    #: a page placed again: its page object (for the pages placed last; an older one is copied
    #: again, its objects shared through ``written``)
    bodies: collections.OrderedDict[tuple[PageSource, int], bytes] = collections.OrderedDict()
    last: tuple[PageSource | None, Source | None, dict[int, int]] = (None, None, {})
    #: digest of an object (and all below it) -> its number, for the objects written last
    written: collections.OrderedDict[bytes, int] = collections.OrderedDict()
    kids = array("q")
    for ref, trim, bleed in pages:
        src, index = ref if isinstance(ref, tuple) else (ref, 0)
        boxes = b"".join(b"   /%s %s\n" % (name, _box(box))
                         for name, box in ((b"TrimBox", trim), (b"BleedBox", bleed)) if box is not None)
        if (src, index) in bodies:
            bodies.move_to_end((src, index))
            kids.append(emit(bodies[src, index] + boxes + b">>"))
            continue
        if last[0] is not src and last[0] != src:   # one source parsed at a time: flat memory
            if isinstance(src, Source):
                source = src
            else:
                source = parse(src if isinstance(src, bytes) else Path(src).read_bytes())
            if source.version > version:
                raise Unsupported(f"PDF {source.version.decode()} source")
            last = (src, source, {})
        _src, parsed, numbers = last
        assert parsed is not None
        source = parsed
        if not 0 <= index < len(source.pages):
            raise Unsupported(f"no page {index + 1} in a PDF of {len(source.pages)}")
        page = source.pages[index]

        head, stream = _split(source.objects[page])
        if stream:
            raise Unsupported("the page object is a stream")
        head = _PARENT.sub(b"/Parent \0", head)
        inner = iter([_copy(int(m), source, numbers, written, emit) for m in _REF.findall(head)])
        body = _REF.sub(lambda _m: b"%d 0 R" % next(inner), head).replace(
            b"/Parent \0", b"/Parent %d 0 R" % tree).rstrip()
        if not body.endswith(b">>"):
            raise Unsupported("the page object is not a dictionary")
        bodies[src, index] = body[:-2]
        if len(bodies) > PAGES_KEPT:
            bodies.popitem(last=False)
        kids.append(emit(body[:-2] + boxes + b">>"))
    emit(b"<< /Type /Pages\n   /Kids [ " + b" ".join(b"%d 0 R" % k for k in kids)
         + b" ]\n   /Count %d\n>>" % len(kids), tree)
    fields = [("Title", meta.title), ("Author", meta.author), ("Subject", meta.subject),
              ("Producer", meta.producer), ("Creator", meta.creator)]
    info = emit(b"<< " + b"\n   ".join(b"/" + k.encode() + b" " + text_string(v)
                                       for k, v in fields if v) + b"\n>>")
    extra = b""
    if meta.lang:
        extra += b"\n   /Lang " + text_string(meta.lang)
    items = [(t, i) for t, i in (meta.outline or []) if 0 <= i < len(kids)]
    if items:
        root = len(offsets) + len(items)
        first = len(offsets)
        for k, (title, index) in enumerate(items):
            n = first + k
            links = b"/Parent %d 0 R" % root
            if k > 0:
                links += b" /Prev %d 0 R" % (n - 1)
            if k < len(items) - 1:
                links += b" /Next %d 0 R" % (n + 1)
            emit(b"<< /Title " + text_string(title) + b" " + links
                 + b" /Dest [ %d 0 R /Fit ] >>" % kids[index])
        emit(b"<< /Type /Outlines /First %d 0 R /Last %d 0 R /Count %d >>"
             % (first, first + len(items) - 1, len(items)))
        extra += b"\n   /Outlines %d 0 R\n   /PageMode /UseOutlines" % root
    catalog = emit(b"<< /Type /Catalog\n   /Pages %d 0 R" % tree + extra + b"\n>>")
    out.write(b"xref\n0 %d\n0000000000 65535 f \n" % len(offsets))
    for start in range(1, len(offsets), 4096):          # a piece at a time: flat memory
        out.write(b"".join(b"%010d 00000 n \n" % o for o in offsets[start:start + 4096]))
    out.write(b"trailer\n<< /Size %d\n   /Root %d 0 R\n   /Info %d 0 R\n>>\nstartxref\n%d\n%%%%EOF\n"
              % (len(offsets), catalog, info, size))


def _copy(n: int, source: Source, numbers: dict[int, int], written: collections.OrderedDict[bytes, int],
          emit: Callable[[bytes], int], below: tuple[int, ...] = ()) -> int:
    """Object ``n`` of ``source`` written by ``emit`` (after everything it refers to), or shared
    with an equal one ``written`` already; ``numbers`` maps the source's objects to the output's.
    A function of its own, not a closure in :func:`join`: a closure that calls itself is a cycle,
    which kept every page's closures and buffers until the garbage collector's next pass (0.6 ms
    of the 120-card deck's CPU went to that one pass)."""
    if n in numbers:
        return numbers[n]
    if n not in source.objects or n in source.skip or n in source.pages or n in below:
        raise Unsupported(f"reference to object {n} outside the page")
    refers, masked, pieces, stream = source.read(n)
    inner = [_copy(m, source, numbers, written, emit, below + (n,)) for m in refers]
    digest = hashlib.sha1(masked + b"%r" % inner)
    digest.update(stream)
    key = digest.digest()
    if key in written:
        written.move_to_end(key)
    else:
        written[key] = emit(_renumbered(pieces, inner) + stream)
        if len(written) > SHARED_KEPT:
            written.popitem(last=False)
    numbers[n] = written[key]
    return numbers[n]


def text_string(text: str) -> bytes:
    """A PDF text string: ``(ASCII)`` escaped, else UTF-16BE with its byte-order mark, in hex."""
    if text.isascii():
        raw = text.encode("ascii")
        return b"(" + raw.replace(b"\\", b"\\\\").replace(b"(", b"\\(").replace(b")", b"\\)") + b")"
    # codecs' own encoder: the codec "utf-16-be" is looked up and its module imported (~0.3 ms)
    return b"<FEFF" + codecs.utf_16_be_encode(text)[0].hex().upper().encode() + b">"


def split(data: bytes | Source) -> list[bytes]:
    """Each page of a cairo PDF (or of it parsed) as a one-page PDF of its own, with what that
    page uses."""
    import io
    parts = []
    source = data if isinstance(data, Source) else parse(data)      # once, not once per page
    for index in range(len(source.pages)):
        out = io.BytesIO()
        join([((source, index), None, None)], out, Meta(author="", producer="", creator=""))
        parts.append(out.getvalue())
    return parts

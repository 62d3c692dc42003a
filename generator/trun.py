"""What compiled templates (:mod:`.tcompile`) run on, without jinja: values, checks, filters,
and the loader that keeps their code in the user's cache.

A compiled template computes what Jinja computes, the same text to the character; whatever it
cannot answer the way Jinja would, it raises (:class:`Bail`, or the error itself), and
:func:`~.templating.render` renders that face with Jinja instead.  For a user's template (the
sandbox) every attribute or item read, every call, loop step, ``*`` and ``**`` is checked here:
only public attributes of a few known types, only calls to the compiled macros, the known
globals and a few methods of str, dict, list and tuple, within the face's :mod:`.budget`.
"""

from __future__ import annotations

import functools
import hashlib
import marshal
import math
import os
import sys
import types
from itertools import chain
from pathlib import Path
from typing import Any
from collections.abc import Callable, Mapping

from markupsafe import Markup, escape, soft_str

try:
    from markupsafe._speedups import _escape_inner
except ImportError:                                          # markupsafe without its C part
    from markupsafe._native import _escape_inner

from . import shipped
from .budget import SMALL_BITS
from .current import CURRENT, Current
from .fonts import FIT_FIELDS, Fit
from .units import num

MAX_RANGE = 100_000          # jinja's sandbox refuses larger ranges
MAX_DEPTH = 48               # macro calls inside macro calls: deeper, Jinja answers


class Bail(Exception):
    """The compiled code cannot answer the way Jinja would: Jinja renders the face."""


class UndefinedUse(Exception):
    """An undefined value was used (Jinja's StrictUndefined raises here too)."""


class Undef:
    """A name or attribute that is not there, as Jinja's StrictUndefined: it may be passed on
    and tested (``is defined``, ``default``), and raises on any other use."""

    __slots__ = ()

    def _fail(self, *args: Any, **kwargs: Any) -> Any:
        raise UndefinedUse("undefined")

    def __getattr__(self, name: str) -> Any:
        if name[:2] == "__":            # Python's own questions (copy, doctest...), as Jinja's
            raise AttributeError(name)
        raise UndefinedUse("undefined")

    __str__ = __iter__ = __len__ = __eq__ = __ne__ = __bool__ = __hash__ = __contains__ = _fail
    __add__ = __radd__ = __sub__ = __rsub__ = __mul__ = __rmul__ = __truediv__ = _fail
    __rtruediv__ = __floordiv__ = __rfloordiv__ = __mod__ = __rmod__ = __pos__ = __neg__ = _fail
    __call__ = __getitem__ = __lt__ = __le__ = __gt__ = __ge__ = __int__ = __float__ = _fail
    __complex__ = __pow__ = __rpow__ = __index__ = __format__ = __html__ = _fail


UNDEF = Undef()
MISS = object()              # a macro parameter not given
UNSURE = object()            # an exported name whose value may not be the template's own


class State:
    """The face being rendered: its meter (user templates), its fit and t, the macro depth."""

    meter: Any = None
    fit: Any = None
    t: Any = None
    depth: int = 0


S_ = State()


class CMacro:
    """A compiled macro: called with positional and keyword arguments as Jinja's Macro is."""

    __slots__ = ("fn", "name", "params", "argc", "caller", "where")

    def __init__(self, fn: Callable, name: str, params: tuple[str, ...], caller: bool = False) -> None:
        self.fn, self.name, self.params, self.argc, self.caller = fn, name, params, len(params), caller
        self.where = {param: i for i, param in enumerate(params)}

    def bind(self, args: tuple | list, kw: dict) -> list:
        """The arguments in the parameters' order, keywords placed, then the caller of a macro
        that reads one (as Jinja's Macro does); unknown keywords refused, and keywords for a
        parameter given by position."""
        given = len(args)
        if given > self.argc:
            raise Bail("too many arguments")
        bound = [*args, *[MISS] * (self.argc - given)]
        caller = UNDEF
        where = self.where
        for name, value in kw.items():
            i = where.get(name)
            if i is None:
                if name == "caller" and self.caller:
                    if value is not None:
                        caller = value
                    continue
                raise Bail("unknown keyword arguments")
            if i < given:
                raise Bail("unknown keyword arguments")
            bound[i] = value
        if self.caller:
            bound.append(caller)
        return bound

    def __call__(self, *args: Any, **kw: Any) -> Markup:
        return self.call(args, kw)

    def call(self, args: tuple | list, kw: dict) -> Markup:
        """The macro's text (the depth counted; a face that raises starts again from 0)."""
        if kw or len(args) > self.argc or self.caller:
            args = self.bind(args, kw)
        state = S_
        if state.depth >= MAX_DEPTH:
            raise Bail("macros nested too deep")
        state.depth += 1
        text = self.fn(*args)
        state.depth -= 1
        return text


class TList(list):
    """A list a template made (``[]``, ``[a, b]``): its own, so it may grow (``.append``); a
    list of the face's data may not (a face given up half-way would leave it changed)."""

    __slots__ = ()


class Namespace:
    """Jinja's ``namespace()``: attributes a template may set from inside its loops."""

    __slots__ = ("attrs",)

    def __init__(self, attrs: dict) -> None:
        self.attrs = attrs

    def __repr__(self) -> str:
        return f"<Namespace {self.attrs!r}>"


def namespace(*args: Any, **kwargs: Any) -> Namespace:
    return Namespace(dict(*args, **kwargs))


class TModule:
    """An imported template: what it exports (its public macros and top-level values) are its
    attributes, as they are of Jinja's TemplateModule."""

    def __init__(self, exports: dict) -> None:
        self.__dict__.update(exports)


def make_module(root: Callable, ctx: dict) -> TModule:
    """Run an imported template's top level (its output dropped, as Jinja drops it)."""
    gen = root(ctx)
    try:
        while True:
            next(gen)
    except StopIteration as stop:
        exports = stop.value
    if any(v is UNSURE for v in exports.values()):
        raise Bail("a name of the module is read before it is set")
    return TModule(exports)


# -- attribute and item reads, calls -------------------------------------------------------------

_STR_METHODS = frozenset({"lower", "upper", "strip", "lstrip", "rstrip", "startswith", "endswith",
                          "split", "rsplit", "splitlines", "replace", "count", "find", "rfind",
                          "index", "rindex", "isdigit", "isalpha", "isalnum", "isspace", "islower",
                          "isupper", "join", "partition", "rpartition", "casefold"})
_METHODS: dict[type, frozenset[str]] = {str: _STR_METHODS, Markup: _STR_METHODS,
            dict: frozenset({"get", "items", "keys", "values"}),
            list: frozenset({"index", "count"}),
            TList: frozenset({"index", "count", "append"}),
            tuple: frozenset({"index", "count"})}
_SCALARS = (int, float, bool, type(None))
_ITERABLE = frozenset({list, TList, tuple, types.GeneratorType, str, Markup, dict, range, type({}.keys()),
                       type({}.values()), type({}.items())})
_BUILTIN_METHOD = type("".lower)


#: Methods that change a list or a dict in place: a face whose compiled code called one and then
#: gave up would leave Jinja a changed value to render again, so they are left to Jinja.
_CHANGING = frozenset({"append", "extend", "insert", "pop", "remove", "clear", "update", "setdefault",
                       "popitem", "sort", "reverse", "__setitem__", "__delitem__", "__iadd__"})


def ga_plain(obj: Any, name: str) -> Any:
    """Jinja's Environment.getattr: the attribute, else the item, else undefined."""
    if type(obj) is Namespace:
        if name.startswith("_"):
            raise Bail(name)
        return obj.attrs.get(name, UNDEF)
    try:
        value = getattr(obj, name)
    except AttributeError:
        pass
    else:
        if name in _CHANGING and isinstance(obj, (list, dict)) and type(obj) is not TList:
            raise Bail(name)
        return value
    try:
        return obj[name]
    except (TypeError, LookupError, AttributeError):
        return UNDEF


def gi_plain(obj: Any, key: Any) -> Any:
    """Jinja's Environment.getitem: the item, else the attribute, else undefined."""
    if type(obj) is Namespace:
        return ga_plain(obj, key) if isinstance(key, str) else UNDEF
    try:
        return obj[key]
    except (AttributeError, TypeError, LookupError):
        if isinstance(key, str):
            try:
                return getattr(obj, key)
            except AttributeError:
                pass
        return UNDEF


def ga_safe(obj: Any, name: str) -> Any:
    """``obj.name`` in a user's template: public attributes of known types only."""
    kind = type(obj)
    if kind is TModule:                     # a macro of an imported template: the most read
        if name.startswith("_"):
            raise Bail(name)
        return obj.__dict__.get(name, UNDEF)
    if kind is Fit:
        if name in FIT_FIELDS:
            return getattr(obj, name)
        raise Bail(name)
    if kind is Current:
        if name in CURRENT:
            return getattr(obj, name)
        raise Bail(name)
    if kind is dict:
        if hasattr(dict, name):
            if name in _METHODS[dict]:
                return getattr(obj, name)
            raise Bail(name)
        return obj[name] if name in obj else UNDEF
    if kind is Namespace:
        if name.startswith("_"):
            raise Bail(name)
        return obj.attrs.get(name, UNDEF)
    if kind in _METHODS:
        if hasattr(kind, name):
            if name in _METHODS[kind]:
                return getattr(obj, name)
            raise Bail(name)
        return UNDEF
    if kind in _SCALARS:
        if hasattr(kind, name):
            raise Bail(name)
        return UNDEF
    if kind is Undef:
        raise UndefinedUse(name)
    raise Bail(name)


def gi_safe(obj: Any, key: Any) -> Any:
    """``obj[key]`` in a user's template: items of dicts, lists, tuples and texts; a text key
    that is no item is read as an attribute (:func:`ga_safe`)."""
    kind = type(obj)
    if kind in _METHODS or kind is Fit:
        try:
            return obj[key]
        except (TypeError, LookupError):
            pass
    elif kind is Undef:
        raise UndefinedUse(key)
    elif kind not in (Current, TModule, Namespace) and kind not in _SCALARS:
        raise Bail(kind.__name__)
    if isinstance(key, str):
        return ga_safe(obj, key)
    return UNDEF


def call_plain(f: Any, /, *args: Any, **kw: Any) -> Any:
    if type(f) is CMacro:
        return f.call(args, kw)
    return f(*args, **kw)


_SAFE_CALLS: set[int] = set()   # ids of the globals a user's template may call (kept alive by G)


def call_safe(f: Any, /, *args: Any, **kw: Any) -> Any:
    """A call in a user's template: compiled macros, the known globals, the face's fit and t,
    and the whitelisted methods of texts, dicts, lists and tuples."""
    meter = S_.meter
    kind = type(f)
    if kind is CMacro:                      # most calls of a face are these
        meter.tick()
        text = f.call(args, kw)
        if len(text) > meter.budget.size:
            meter.made(text)
        return text
    if id(f) in _SAFE_CALLS or f is S_.fit or f is S_.t:     # bounded work: no tick needed
        value = f(*args, **kw)
        return value if type(value) is float else meter.made(value)    # cos(), pt(): a float
    if kind is _BUILTIN_METHOD or kind is types.MethodType:
        owner = type(f.__self__)
        if owner in _METHODS and f.__name__ in _METHODS[owner]:
            meter.tick()
            return meter.made(f(*args, **kw))
    raise Bail("a call of something else")


def slice_plain(obj: Any, start: Any, stop: Any, step: Any) -> Any:
    return obj[start:stop:step]


def slice_safe(obj: Any, start: Any, stop: Any, step: Any) -> Any:
    if type(obj) in (str, Markup, list, TList, tuple):
        return obj[start:stop:step]
    raise Bail("a slice of something else")


def f_format(value: Any, *args: Any, **kwargs: Any) -> str:
    if args and kwargs:
        raise Bail("format with both kinds of arguments")
    return soft_str(value) % (kwargs or args)


def _refused(*args: Any, **kwargs: Any) -> Any:
    raise Bail("not in a user's template")


def range_safe(*args: int) -> range:
    items = range(*args)
    if len(items) > MAX_RANGE:
        raise Bail("range too big")
    S_.meter.step(len(items))
    return items


def made_safe(value: Any) -> Any:
    meter = S_.meter
    meter.tick()
    return meter.made(value)


def iter_safe(value: Any) -> Any:
    if type(value) in _ITERABLE:
        return value
    raise Bail("a loop over something else")


def mul_safe(left: Any, right: Any) -> Any:
    """``*`` as the sandbox computes it: refused before it is computed when over the budget."""
    if type(left) is float or type(right) is float:
        return left * right
    if type(left) is int and type(right) is int and left.bit_length() + right.bit_length() <= SMALL_BITS:
        return left * right
    meter = S_.meter
    meter.binop("*", left, right)
    return meter.made(left * right)


def pow_safe(left: Any, right: Any) -> Any:
    if type(left) is float or type(right) is float:
        return left ** right
    meter = S_.meter
    meter.binop("**", left, right)
    return meter.made(left ** right)


def mod(left: Any, right: Any) -> Any:
    """``%`` of numbers (``%`` formatting of a text is left to Jinja)."""
    if isinstance(left, str):
        raise Bail("% of a text")
    return left % right


def cat(seq: tuple) -> str:
    """``~``: Jinja's markup_join."""
    buf = []
    iterator = map(soft_str, seq)
    for arg in iterator:
        buf.append(arg)
        if hasattr(arg, "__html__"):
            return Markup("").join(chain(buf, iterator))
    return "".join(buf)


def esc(value: Any) -> str:
    """The text of ``escape(value)`` (what an output writes: only its characters count)."""
    kind = type(value)
    if kind is Markup:
        return value
    if kind is str:
        return _escape_inner(value)
    return escape(value)


def _identity(value: Any) -> Any:
    return value


# -- filters and tests: each as Jinja computes it --------------------------------------------------

#: :func:`~.units.num` of the numbers faces write, each worked out once (a deck's faces repeat
#: them), the first 4,096 kept: read without a call for most of a face's numbers.
_NUMS: dict[float, str] = {}


def f_num(x: Any) -> str:
    if type(x) is not float:
        x = float(x)
    text = _NUMS.get(x)
    if text is None:
        text = num(x)
        if len(_NUMS) < 4096:
            _NUMS[x] = text
    return text


def f_lower(s: Any) -> str:
    return soft_str(s).lower()


def f_upper(s: Any) -> str:
    return soft_str(s).upper()


def f_safe(value: Any) -> Markup:
    return Markup(value)


def f_round(value: float, precision: int = 0, method: str = "common") -> float:
    if method not in {"common", "ceil", "floor"}:
        raise Bail("round method")
    if method == "common":
        return round(value, precision)
    func = getattr(math, method)
    return func(value * (10**precision)) / (10**precision)


def f_int(value: Any, default: int = 0, base: int = 10) -> int:
    try:
        if isinstance(value, str):
            return int(value, base)
        return int(value)
    except (TypeError, ValueError):
        try:
            return int(float(value))
        except (TypeError, ValueError, OverflowError):
            return default


def f_float(value: Any, default: float = 0.0) -> float:
    try:
        return float(value)
    except (TypeError, ValueError):
        return default


def f_default(value: Any, default_value: Any = "", boolean: bool = False) -> Any:
    if isinstance(value, Undef) or (boolean and not value):
        return default_value
    return value


def f_join(value: Any, d: str = "", attribute: Any = None) -> str:
    if attribute is not None:
        raise Bail("join by attribute")
    if not hasattr(d, "__html__"):
        value = list(value)
        do_escape = False
        for idx, item in enumerate(value):
            if hasattr(item, "__html__"):
                do_escape = True
            else:
                value[idx] = str(item)
        d = escape(d) if do_escape else str(d)
        return d.join(value)
    return soft_str(d).join(map(soft_str, value))


def f_trim(value: Any, chars: str | None = None) -> str:
    return soft_str(value).strip(chars)


def f_first(seq: Any) -> Any:
    try:
        return next(iter(seq))
    except StopIteration:
        return UNDEF


def f_last(seq: Any) -> Any:
    try:
        return next(iter(reversed(seq)))
    except StopIteration:
        return UNDEF


def _parts(attribute: Any) -> list:
    """Jinja's _prepare_attribute_parts: ``"a.0.b"`` -> ``["a", 0, "b"]``."""
    if attribute is None:
        return []
    if isinstance(attribute, str):
        return [int(x) if x.isdigit() else x for x in attribute.split(".")]
    return [attribute]


def _item_filters(getitem: Callable) -> dict:
    """selectattr, rejectattr, map (by attribute), sum, min and max (by attribute): Jinja's,
    reading items with ``getitem`` (the environment's, checked in a user's template)."""

    def attrgetter(attribute: Any, postprocess: Callable | None = None, default: Any = None) -> Callable:
        parts = _parts(attribute)

        def get(item: Any) -> Any:
            for part in parts:
                item = getitem(item, part)
                if default is not None and isinstance(item, Undef):
                    item = default
            if postprocess is not None:
                item = postprocess(item)
            return item
        return get

    def chooser(args: tuple, keep: bool) -> Callable:
        if not args:
            raise Bail("select without an attribute")
        get = attrgetter(args[0])
        if len(args) > 1:
            test = _TESTS_WITH_ARGS.get(args[1])
            if test is None:
                raise Bail(f"the test {args[1]}")
            rest = args[2:]
            return lambda item: bool(test(get(item), *rest)) is keep
        return lambda item: bool(get(item)) is keep

    def select_or_reject(value: Any, func: Callable) -> Any:
        if value:
            for item in value:
                if func(item):
                    yield item

    def f_selectattr(value: Any, *args: Any) -> Any:
        return select_or_reject(value, chooser(args, True))

    def f_rejectattr(value: Any, *args: Any) -> Any:
        return select_or_reject(value, chooser(args, False))

    def f_map(value: Any, *args: Any, **kwargs: Any) -> Any:
        if args or "attribute" not in kwargs:
            raise Bail("map by a filter")
        attribute = kwargs.pop("attribute")
        default = kwargs.pop("default", None)
        if kwargs:
            raise Bail("map with other keywords")
        func = attrgetter(attribute, default=default)

        def mapped() -> Any:
            if value:
                for item in value:
                    yield func(item)
        return mapped()

    def f_sum(iterable: Any, attribute: Any = None, start: Any = 0) -> Any:
        if attribute is not None:
            iterable = map(attrgetter(attribute), iterable)
        return sum(iterable, start)

    def min_or_max(value: Any, func: Callable, case_sensitive: bool, attribute: Any) -> Any:
        it = iter(value)
        try:
            first = next(it)
        except StopIteration:
            return UNDEF
        key = attrgetter(attribute, postprocess=None if case_sensitive else _ignore_case)
        return func(chain([first], it), key=key)

    def f_min(value: Any, case_sensitive: bool = False, attribute: Any = None) -> Any:
        return min_or_max(value, min, case_sensitive, attribute)

    def f_max(value: Any, case_sensitive: bool = False, attribute: Any = None) -> Any:
        return min_or_max(value, max, case_sensitive, attribute)

    return {"f_selectattr": f_selectattr, "f_rejectattr": f_rejectattr, "f_map": f_map,
            "f_sum": f_sum, "f_min": f_min, "f_max": f_max}


def _ignore_case(value: Any) -> Any:
    return value.lower() if isinstance(value, str) else value


def t_sequence(value: Any) -> bool:
    try:
        len(value)
        value.__getitem__  # noqa: B018
    except Exception:
        return False
    return True


_Number: type | None = None       # numbers.Number, imported by the first ``is number`` test


def t_number(value: Any) -> bool:
    """Jinja's ``number`` test; numbers (~0.4 ms) is imported by the first template that asks."""
    global _Number
    if _Number is None:
        from numbers import Number
        _Number = Number
    return isinstance(value, _Number)


#: The tests of one value compiled code has (``t_NAME`` in its namespace), as Jinja's.
TESTS: dict[str, Callable[[Any], bool]] = {
    "defined": lambda v: not isinstance(v, Undef),
    "undefined": lambda v: isinstance(v, Undef),
    "none": lambda v: v is None,
    "odd": lambda v: v % 2 == 1,
    "even": lambda v: v % 2 == 0,
    "number": t_number,
    "string": lambda v: isinstance(v, str),
    "mapping": lambda v: isinstance(v, Mapping),
    "sequence": t_sequence,
    "true": lambda v: v is True,
    "false": lambda v: v is False,
    "boolean": lambda v: v is True or v is False,
    "integer": lambda v: isinstance(v, int) and v is not True and v is not False,
    "float": lambda v: isinstance(v, float),
}
#: The tests ``selectattr`` and ``rejectattr`` may name (with an argument, or one of ``TESTS``).
_TESTS_WITH_ARGS: dict[str, Callable] = {
    "equalto": lambda v, other: v == other, "eq": lambda v, other: v == other,
    "==": lambda v, other: v == other, "ne": lambda v, other: v != other,
    "!=": lambda v, other: v != other, "in": lambda v, seq: v in seq,
    **{name: TESTS[name] for name in ("none", "defined", "undefined", "true", "false")},
}


@functools.cache
def compiled_names() -> tuple[frozenset[str], frozenset[str]]:
    """The filters and the tests compiled code has (``f_NAME``, ``t_NAME`` in its namespace): the
    ones :mod:`.tcompile` translates, any other keeps Jinja."""
    space = _namespace(False)
    return frozenset(k[2:] for k in space if k.startswith("f_")), frozenset(TESTS)


def _namespace(sandboxed: bool) -> dict:
    """What a compiled template's code sees besides its own names."""
    space = {
        "UNDEF": UNDEF, "MISS": MISS, "UNSURE": UNSURE, "Current": Current, "Markup": Markup, "escape": esc,
        "Fit": Fit, "TModule": TModule,
        "mk_": str.__new__,
        "CMacro": CMacro,
        "S_": S_, "cat_": cat, "mod_": mod, "list_": list,
        "ga_": ga_safe if sandboxed else ga_plain, "gi_": gi_safe if sandboxed else gi_plain,
        "call_": call_safe if sandboxed else call_plain, "made_": made_safe,
        "iter_": iter_safe if sandboxed else _identity, "mul_": mul_safe, "pow_": pow_safe,
        "f_num": f_num, "nums_": _NUMS, "f_lower": f_lower, "f_upper": f_upper, "f_safe": f_safe,
        "f_length": len, "f_count": len, "f_round": f_round, "f_int": f_int, "f_float": f_float,
        "f_default": f_default, "f_d": f_default, "f_join": f_join, "f_e": escape,
        "f_escape": escape, "f_trim": f_trim, "f_string": soft_str, "f_list": list,
        "f_first": f_first, "f_last": f_last,
        "f_abs": abs, "f_format": _refused if sandboxed else f_format,
        "Namespace": Namespace, "Bail": Bail, "TList": TList, "sl_": slice_safe if sandboxed else slice_plain,
    }
    space.update((f"t_{name}", test) for name, test in TESTS.items())
    space.update(_item_filters(gi_safe if sandboxed else gi_plain))
    return space


# -- the loader: templates found as Jinja finds them, their code cached ----------------------------

def _split(template: str) -> list[str] | None:
    """Jinja's split_template_path: None where Jinja would not find it (``..``, separators)."""
    pieces = []
    for piece in template.split("/"):
        if os.path.sep in piece or (os.path.altsep and os.path.altsep in piece) or piece == os.path.pardir:
            return None
        if piece and piece != ".":
            pieces.append(piece)
    return pieces


class _Unit:
    """One template's compiled code, as loaded from one version of its file."""

    __slots__ = ("path", "mtime", "root", "module")

    def __init__(self, path: str, mtime: float, root: Callable) -> None:
        self.path, self.mtime, self.root = path, mtime, root
        self.module: TModule | None = None


class Loader:
    """The compiled templates of one search path (roots, the kit's templates/ last) and one kind
    (a user's, sandboxed, or the kit's own): the same files Jinja's FileSystemLoader reads, each
    compiled once (kept in the user cache) or refused once (then Jinja renders it)."""

    def __init__(self, search: tuple[str, ...], sandboxed: bool, globals_: dict,
                 parse_env: Callable[[], Any], cache: Path | None) -> None:
        self.search, self.sandboxed, self.cache = search, sandboxed, cache
        self.globals = dict(globals_, range=range_safe if sandboxed else range, dict=dict,
                            namespace=namespace)
        if sandboxed:
            _SAFE_CALLS.update(id(v) for k, v in self.globals.items() if callable(v) and k != "_cur")
        self.parse_env = parse_env
        self.units: dict[str, _Unit] = {}
        self.refused: set[str] = set()
        self.loading: set[str] = set()
        self.space = _namespace(sandboxed)
        self.space["import_"] = self.module

    def unit(self, name: str, seen: tuple[str, float] | None = None) -> _Unit | None:
        """The compiled code of template ``name`` (None: Jinja renders it); ``seen``: a file
        and the modification time the caller has just read of it, taken for this one's when it
        is this one (not read a second time)."""
        if name in self.refused:
            return None
        unit = self.units.get(name)
        if unit is not None:
            if seen is not None and seen[0] == unit.path:
                if seen[1] == unit.mtime:
                    return unit
            else:
                try:
                    if os.path.getmtime(unit.path) == unit.mtime:
                        return unit
                except OSError:
                    pass
        unit = self._load(name)
        if unit is None:
            self.refused.add(name)
        else:
            self.units[name] = unit
        return unit

    def refuse(self, name: str) -> None:
        """Render ``name`` with Jinja for the rest of the process."""
        self.refused.add(name)
        self.units.pop(name, None)

    def module(self, name: str) -> TModule:
        """``import name as x``: the module, made once per version of the file (as Jinja does)."""
        unit = self.unit(name)
        if unit is None:
            raise Bail(f"{name} is not compiled")
        if unit.module is None:
            unit.module = make_module(unit.root, self.globals)
        return unit.module

    def render(self, unit: _Unit, context: dict) -> Any:
        """The face's chunks of text (a generator: the caller meters or joins them)."""
        ctx = dict(self.globals)
        ctx.update(context)
        return unit.root(ctx)

    def find(self, name: str) -> str | None:
        """The file of template ``name``, found as Jinja's FileSystemLoader finds it."""
        pieces = _split(name)
        if pieces is None:
            return None
        for base in self.search:
            path = os.path.join(base, *pieces)
            if os.path.isfile(path):
                return path
        return None

    def _load(self, name: str) -> _Unit | None:
        path = self.find(name)
        if path is None:
            return None
        try:
            with open(path, encoding="utf-8") as fh:
                source = fh.read()
            mtime = os.path.getmtime(path)
        except (OSError, UnicodeDecodeError):
            return None
        found = self._code(name, source)
        if found is None:
            return None
        code, imports = found
        self.loading.add(name)
        try:                  # a template whose imports are not all compiled is left to Jinja
            if any(imp in self.loading or self.unit(imp) is None for imp in imports):
                return None
        finally:
            self.loading.discard(name)
        space = dict(self.space)
        exec(code, space)
        return _Unit(path, mtime, space["root"])

    def _code(self, name: str, source: str) -> tuple[types.CodeType, list[str]] | None:
        """The code of ``source`` and the templates it imports: shipped with the package
        (:mod:`.shipped`), else from the user cache, else compiled (and cached there); None if the
        compiler refuses it."""
        found = _shipped(self.sandboxed, source)      # looked at first: its key needs no stamp of jinja's files
        if found is not MISS:
            return found
        key = template_key(self.sandboxed, source)
        path = self.cache / f"{key}.bin" if self.cache is not None else None
        if path is not None:
            try:
                cached = marshal.loads(path.read_bytes())
                if cached == ("refused",):
                    return None
                kind, code, imports = cached
                if kind == "code" and isinstance(code, types.CodeType) and isinstance(imports, list) \
                        and all(isinstance(i, str) for i in imports):
                    return code, imports
            except (OSError, ValueError, EOFError, TypeError):
                pass                                  # not cached, or damaged: compiled again
        try:
            made = self.translate(name, source)
        except Exception:                          # a syntax error: Jinja says it in its words
            return None
        entry: tuple
        if made is None:
            found, entry = None, ("refused",)
        else:
            text, imports = made
            try:
                code = compile(text, f"<compiled {name}>", "exec")
            except Exception:
                return None
            found, entry = (code, imports), ("code", code, imports)
        if path is not None:
            from ludoteca.atomic import write_bytes
            try:
                write_bytes(path, marshal.dumps(entry), durable=False)
            except OSError:
                pass
        return found

    def translate(self, name: str, source: str) -> tuple[str, list[str]] | None:
        """The Python text of template ``name`` (its text ``source``) and the templates it
        imports, as :mod:`.tcompile` writes them; None if the compiler refuses it (a template Jinja
        cannot parse raises)."""
        from .tcompile import Unsupported, compile_template
        try:
            return compile_template(self.parse_env(), source, name, self.sandboxed, compiled_names())
        except Unsupported:
            return None


def template_key(sandboxed: bool, source: str, shipped: bool = False) -> str:
    """What a compiled template is kept under: the compiler, the kind, the template's text and
    jinja, which parsed it.  In the user cache (marshal'd code): this Python and that jinja's
    files; ``shipped`` with the package (Python source, made elsewhere): jinja's version."""
    made_by = (jinja_version(),) if shipped else (sys.version, _jinja_stamp())
    return hashlib.sha256("\0".join((_compiler_stamp(), *made_by, "sandboxed" if sandboxed else "kit", source))
                          .encode("utf-8", "surrogatepass")).hexdigest()[:40]


def _shipped(sandboxed: bool, source: str) -> Any:
    """The compiled template of ``source`` shipped with the package: (code, imports), None if the
    compiler refuses it, MISS if it is not there (or its file does not compile)."""
    entries = shipped.templates()
    if not entries or not jinja_version():        # a jinja whose version cannot be told: compiled here
        return MISS
    key = template_key(sandboxed, source, shipped=True)
    if key not in entries:
        return MISS
    imports = entries[key]
    if imports is None:
        return None
    code = shipped.code(shipped.FOLDER / shipped.template_file(key))
    return MISS if code is None else (code, imports)


@functools.cache
def _compiler_stamp() -> str:
    """What the cached code was made by: the compiler's and this module's own text."""
    here = Path(__file__).resolve().parent
    digest = hashlib.sha256()
    for name in ("tcompile.py", "trun.py"):
        try:
            digest.update((here / name).read_bytes())
        except OSError:
            digest.update(name.encode())
    return digest.hexdigest()


@functools.cache
def _jinja_origin() -> str | None:
    """jinja's ``__init__.py``, found without importing it."""
    from importlib.util import find_spec
    try:
        spec = find_spec("jinja2")
    except (ImportError, ValueError):
        return None
    return spec.origin if spec else None


@functools.cache
def _jinja_stamp() -> str:
    """Which jinja parsed the cached templates (its files' size and time), found without
    importing it."""
    origin = _jinja_origin()
    try:
        st = os.stat(origin) if origin else None
    except (OSError, ValueError):
        return ""
    return f"{origin}:{st.st_size}:{st.st_mtime_ns}" if st else ""


@functools.cache
def jinja_version() -> str:
    """jinja's version, found without importing it: its ``__init__.py``'s ``__version__``, else its
    dist-info folder's name ("" if neither tells)."""
    origin = _jinja_origin()
    if not origin:
        return ""
    try:
        found = _version_in(Path(origin).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError):
        found = ""
    if found:
        return found
    infos = sorted(Path(origin).parent.parent.glob("[Jj]inja2-*.dist-info"))
    return infos[0].name[len("jinja2-"):-len(".dist-info")] if len(infos) == 1 else ""


def _version_in(text: str) -> str:
    """The first ``__version__ = "..."`` at the start of a line of ``text`` ("" if none): what
    ``^__version__\\s*=\\s*["']([^"']+)["']`` (multi-line) finds, read without compiling it."""
    at = -1
    while True:
        at = text.find("__version__", at + 1)
        if at < 0:
            return ""
        if at and text[at - 1] != "\n":
            continue
        i = _spaces(text, at + len("__version__"))
        if text[i:i + 1] != "=":
            continue
        i = _spaces(text, i + 1)
        if text[i:i + 1] not in ("'", '"'):
            continue
        ends = [end for end in (text.find("'", i + 1), text.find('"', i + 1)) if end >= 0]
        if ends and min(ends) > i + 1:
            return text[i + 1:min(ends)]


def _spaces(text: str, i: int) -> int:
    """Where the white space (as a pattern's \\s) that starts at ``i`` ends."""
    while i < len(text) and text[i].isspace():
        i += 1
    return i

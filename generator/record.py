"""The print kit's value classes (Face, Component, Options, a sheet's grid...) without the
dataclasses module.

``@record`` makes what ``@dataclasses.dataclass`` makes of a class of annotated fields: an
``__init__`` taking the fields in order (a base class's first), ``__repr__`` and ``__eq__`` over
them, and with ``frozen=True`` no assignment and a ``__hash__``; ``slots=True`` gives the class
``__slots__``.  It writes one ``__init__`` per class and the rest as plain methods, where
dataclasses writes five or six and imports :mod:`inspect` (with ast, dis and tokenize): 7 ms of
a deck run's start, and 0.3-0.5 ms for each of the 17 classes a deck run defines.

>>> @record(frozen=True)
... class Size:
...     w: float
...     h: float = 1.0
...     tags: list = field(default_factory=list, compare=False)
>>> Size(2.0), Size(2.0) == Size(2.0, tags=["x"]), replace(Size(2.0), h=3.0).h
(Size(w=2.0, h=1.0, tags=[]), True, 3.0)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar, dataclass_transform

T = TypeVar("T")

_NONE: Any = object()   # "no default", told apart from a default of None


class _Field:
    """What :func:`field` says of one field."""

    __slots__ = ("default", "default_factory", "compare", "repr")

    def __init__(self, default: Any, default_factory: Callable[[], Any] | None, compare: bool, repr: bool) -> None:  # noqa: A002
        self.default, self.default_factory, self.compare, self.repr = default, default_factory, compare, repr


def field(*, default: Any = _NONE, default_factory: Callable[[], Any] | None = None, compare: bool = True,
          repr: bool = True) -> Any:  # noqa: A002
    """A field's default made per instance (``default_factory``), or a field left out of the
    comparisons (``compare=False``) or of the repr (``repr=False``), as dataclasses' field()."""
    return _Field(default, default_factory, compare, repr)


class FrozenError(AttributeError):
    """An assignment to a field of a frozen record."""


@dataclass_transform(field_specifiers=(field,))
def record(cls: type[T] | None = None, *, frozen: bool = False, slots: bool = False) -> Any:
    """Give ``cls`` (fields as annotations) an ``__init__``, ``__repr__``, ``__eq__`` and, frozen,
    a ``__hash__`` and no assignment (see the module's doc)."""

    def make(cls: type[T]) -> type[T]:
        fields: dict[str, _Field] = {}
        for base in reversed(cls.__mro__[1:]):
            fields.update(getattr(base, "__record_fields__", {}))
        for name in cls.__dict__.get("__annotations__", {}):
            given = cls.__dict__.get(name, _NONE)
            spec = given if isinstance(given, _Field) else _Field(given, None, True, True)
            fields[name] = spec
            if isinstance(given, _Field):
                if spec.default is _NONE:
                    delattr(cls, name)
                else:
                    setattr(cls, name, spec.default)
        if slots:
            own = {k: v for k, v in cls.__dict__.items() if k not in fields and k not in ("__dict__", "__weakref__")}
            own["__slots__"] = tuple(fields)
            metaclass: Any = type(cls)
            cls = metaclass(cls.__name__, cls.__bases__, own)
        made: dict[str, Any] = {"__record_fields__": fields, "__init__": _init(cls, fields, frozen)}
        shown = tuple(name for name, spec in fields.items() if spec.repr)
        compared = tuple(name for name, spec in fields.items() if spec.compare)

        def __repr__(self: Any) -> str:
            inner = ", ".join(f"{name}={getattr(self, name)!r}" for name in shown)
            return f"{type(self).__qualname__}({inner})"

        def __eq__(self: Any, other: object) -> bool:
            if other.__class__ is not self.__class__:
                return NotImplemented
            return tuple(getattr(self, name) for name in compared) == tuple(getattr(other, name) for name in compared)

        made.update(__repr__=__repr__, __eq__=__eq__, __hash__=None)
        if frozen:
            def __hash__(self: Any) -> int:
                return hash(tuple(getattr(self, name) for name in compared))

            def __setattr__(self: Any, name: str, value: Any) -> None:
                raise FrozenError(f"cannot assign to field {name!r}")

            def __delattr__(self: Any, name: str) -> None:
                raise FrozenError(f"cannot delete field {name!r}")

            made.update(__hash__=__hash__, __setattr__=__setattr__, __delattr__=__delattr__)
        for name, value in made.items():
            if name not in cls.__dict__ or name == "__hash__" and cls.__dict__[name] is None:  # its own stay
                if callable(value):
                    value.__qualname__ = f"{cls.__qualname__}.{name}"
                setattr(cls, name, value)
        return cls

    return make if cls is None else make(cls)


def _init(cls: type, fields: dict[str, _Field], frozen: bool) -> Callable[..., None]:
    """The ``__init__`` of a record: written out and compiled once per class, as fast to call
    as one written by hand."""
    names: dict[str, Any] = {"_NONE": _NONE, "_set": object.__setattr__}
    params, lines = ["self"], []
    for name, spec in fields.items():
        if spec.default_factory is not None:
            names[f"_make_{name}"] = spec.default_factory
            params.append(f"{name}=_NONE")
            value = f"_make_{name}() if {name} is _NONE else {name}"
        elif spec.default is not _NONE:
            names[f"_default_{name}"] = spec.default
            params.append(f"{name}=_default_{name}")
            value = name
        else:
            if params[-1].count("="):
                raise TypeError(f"{cls.__name__}: field {name!r} without a default follows one with a default")
            params.append(name)
            value = name
        lines.append(f"_set(self, {name!r}, {value})" if frozen else f"self.{name} = {value}")
    source = f"def __init__({', '.join(params)}):\n    " + ("\n    ".join(lines) or "pass") + "\n"
    exec(_code(source), names)  # noqa: S102 - our own field names, checked as annotations
    return names["__init__"]


#: The code of each ``__init__`` written so far, by its source: kept in the user cache, read once
#: a process (None: not read yet).  Compiling one costs 0.1 ms, a dozen of them a deck's run.
_CODES: dict[str, Any] | None = None
#: How many are kept (the last written): the kit's classes several times over, and a checkout
#: whose classes change keeps no more than that.
CODES_KEPT = 256


def _code_file() -> Any:
    """Where the compiled ``__init__`` code is kept for this Python (None: nowhere)."""
    import sys

    from ludoteca.atomic import cache_dir
    folder = cache_dir("code")
    return folder / f"records-{sys.implementation.cache_tag}.bin" if folder is not None else None


def _code(source: str) -> Any:
    """The compiled code of an ``__init__``'s source: from the user cache, else compiled (and
    the cache written again with it)."""
    import marshal
    import sys

    global _CODES
    if _CODES is None:
        _CODES = {}
        path = _code_file()
        try:
            version, codes = marshal.loads(path.read_bytes()) if path is not None else ("", {})
            if version == sys.version and isinstance(codes, dict):
                _CODES = codes
        except (OSError, ValueError, EOFError, TypeError):
            pass                                   # not kept yet, or damaged: compiled again
    code = _CODES.get(source)
    if type(code) is not type(_code.__code__):
        code = _CODES[source] = compile(source, "<record>", "exec")
        while len(_CODES) > CODES_KEPT:
            del _CODES[next(iter(_CODES))]
        path = _code_file()
        if path is not None:
            from ludoteca.atomic import write_bytes
            try:
                write_bytes(path, marshal.dumps((sys.version, _CODES)), durable=False)  # a cache
            except (OSError, ValueError):
                pass
    return code


def replace(obj: T, **changes: Any) -> T:
    """A copy of the record ``obj`` with ``changes`` to some of its fields."""
    values = {name: getattr(obj, name) for name in type(obj).__record_fields__}  # type: ignore[attr-defined]
    values.update(changes)
    return type(obj)(**values)


def as_dict(obj: Any) -> dict[str, Any]:
    """The fields of the record ``obj`` by name (its values as they are, not copied)."""
    return {name: getattr(obj, name) for name in type(obj).__record_fields__}

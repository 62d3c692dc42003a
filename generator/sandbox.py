"""A user's template (``ludoteca deck --template``): what it may touch and what it may spend.

jinja2's SandboxedEnvironment keeps a template away from Python's internals, but not from
running for ever: :class:`Sandbox` gives every face one budget (:data:`.budget.BUDGET`) of
wall-clock time, memory, loop steps, the size of any value it makes and of the SVG it writes.  A
face that runs over is stopped with :class:`OverBudget`, whose message says which part ran over.
The budget itself (and :func:`check_svg`) lives in :mod:`.budget`, which needs no jinja: the
compiled templates of :mod:`.trun` spend the same budget.
"""

from __future__ import annotations

import contextlib
import functools
import types
from typing import Any
from collections.abc import Iterable, Iterator

from jinja2 import nodes
from jinja2.compiler import CodeGenerator, Frame
from jinja2.runtime import Macro
from jinja2.sandbox import SandboxedEnvironment, safe_range

from . import budget as _budget
from .budget import SMALL_BITS, Budget, Meter

#: Types of bound methods: jinja wraps a ``str.format`` read as an attribute, so their safety is
#: never remembered by type.
_METHODS = (types.MethodType, types.BuiltinMethodType)
#: (type, attribute) verdicts a sandbox remembers; names made on the fly beyond it are looked at
#: every time.
SAFE_KEPT = 4096


class _CountingCodeGenerator(CodeGenerator):
    """Jinja2's code generator with the iterable of every ``{% for %}`` passed through
    ``environment.counted``, so that each step is counted against the face's budget."""

    def visit_For(self, node: nodes.For, frame: Frame) -> None:
        counted = nodes.EnvironmentAttribute("counted")
        if not (isinstance(node.iter, nodes.Call) and node.iter.node == counted):
            node.iter = nodes.Call(counted, [node.iter], [], None, None, lineno=node.lineno)
        super().visit_For(node, frame)


class Sandbox(SandboxedEnvironment):
    """jinja2's sandbox with a budget: loops, calls, filters, ``*`` and ``**`` and the output are
    metered against :attr:`meter`, which :meth:`face` starts afresh for every face."""

    intercepted_binops = frozenset({"*", "**"})
    code_generator_class = _CountingCodeGenerator

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        self.meter = Meter(_budget.BUDGET)
        self._safe: set[tuple[type, str]] = set()       # attributes found safe (see getattr)
        self.filters = {name: self._metered(f) for name, f in self.filters.items()}
        self.globals["range"] = self._range
        self.globals["lipsum"] = self._lipsum

    @contextlib.contextmanager
    def face(self, budget: Budget | None = None) -> Iterator[Meter]:
        """A fresh budget for one face, its memory capped while it lasts."""
        with _budget.face(budget) as meter:
            self.meter = meter
            yield meter

    def call_binop(self, context: Any, operator: str, left: Any, right: Any) -> Any:
        if type(left) is float or type(right) is float:     # most of a face's sums: cheap
            return self.binop_table[operator](left, right)
        if operator == "*" and type(left) is int and type(right) is int \
                and left.bit_length() + right.bit_length() <= SMALL_BITS:   # 2 * bleed: cheap too
            return left * right
        self.meter.binop(operator, left, right)
        return self.meter.made(super().call_binop(context, operator, left, right))

    def call(__self, __context: Any, __obj: Any, *args: Any, **kwargs: Any) -> Any:  # noqa: N805
        __self.meter.tick()
        if type(__obj) is Macro:     # a template's macro: no Python sets one unsafe, jinja's check passes
            return __self.meter.made(__context.call(__obj, *args, **kwargs))
        return __self.meter.made(super().call(__context, __obj, *args, **kwargs))

    def getattr(self, obj: Any, attribute: str) -> Any:
        """jinja's sandboxed ``obj.attribute``, its verdict on a type's attribute remembered: it
        depends only on the attribute's name and the object's type (a bound method, which may
        be a ``str.format`` that jinja wraps, is looked at every time)."""
        try:
            value = getattr(obj, attribute)
        except AttributeError:
            return super().getattr(obj, attribute)
        if type(value) not in _METHODS:
            key = (type(obj), attribute)
            if key in self._safe:
                return value
            if self.is_safe_attribute(obj, attribute, value):
                if len(self._safe) < SAFE_KEPT:
                    self._safe.add(key)
                return value
        return super().getattr(obj, attribute)

    def counted(self, iterable: Iterable) -> Iterator:
        meter = self.meter
        for item in iterable:
            meter.step()
            yield item

    def _metered(self, f: Any) -> Any:
        @functools.wraps(f)        # keeps jinja's pass_context / pass_environment marks
        def metered(*args: Any, **kwargs: Any) -> Any:
            self.meter.tick()
            return self.meter.made(f(*args, **kwargs))
        return metered

    def _range(self, *args: int) -> range:
        items = safe_range(*args)
        self.meter.step(len(items))
        return items

    def _lipsum(self, n: int = 5, html: bool = True, min: int = 20, max: int = 100) -> str:  # noqa: A002
        from jinja2.utils import generate_lorem_ipsum
        self.meter.step(abs(int(n)) * abs(int(max)))
        return generate_lorem_ipsum(n, html, min, max)

"""A template compiled to plain Python that needs no jinja at run time (see :mod:`.trun`).

Jinja's own parser reads the template (the environment's lexer options apply: trim_blocks,
lstrip_blocks, the trailing newline) and Jinja's own symbol tracking says which name each
variable reads, scope by scope, exactly as Jinja's code generator would; what is written here is
the code, for a subset: text, ``{{ }}``, ``set``, if/elif/else, ``for`` (``loop.index0``,
``index``, ``first``, ``last``, ``length``, ``revindex``, ``revindex0``; ``else``), macros at the
top of a template, ``import "x" as y`` without context, the filters and tests of :mod:`.trun`,
literals, arithmetic, comparisons, ``~``, ``in``, and/or/not, conditional expressions, attribute
and item access, calls.  Anything else is refused with :class:`Unsupported` and the template
keeps Jinja.

The code calls what :mod:`.trun` provides: every attribute and item read, every call, ``*``,
``**`` and ``%`` go through its checks (for a user's template, the sandbox's: a whitelist of
types and attributes, the face's budget).  A face whose compiled code raises anything is
rendered again by Jinja, which says what is wrong in its words.
"""

from __future__ import annotations

from typing import Any, NoReturn

from .current import CURRENT
from .fonts import FIT_FIELDS

#: Names Jinja provides that the compiled code does not: a template that reads one keeps Jinja.
JINJA_ONLY = {"lipsum", "cycler", "joiner", "caller", "varargs", "kwargs", "self", "loop"}
#: Expressions Jinja's code generator folds to constants where it can (its ``optimizeconst``).
FOLDED = {"Add", "Sub", "Mul", "Div", "FloorDiv", "Mod", "Pow", "And", "Or", "Not", "Neg", "Pos",
          "Concat", "Compare", "Getattr", "Getitem", "Filter", "Test", "CondExpr", "Call"}
LOOP_ATTRS = {"index0", "index", "first", "last", "length", "revindex", "revindex0"}
_BINOPS = {"Add": "+", "Sub": "-", "Div": "/", "FloorDiv": "//"}
_CMP = {"eq": "==", "ne": "!=", "gt": ">", "gteq": ">=", "lt": "<", "lteq": "<=", "in": "in",
        "notin": "not in"}


class Unsupported(Exception):
    """The template uses something the compiler does not translate: it keeps Jinja."""


def compile_template(env: Any, source: str, name: str, sandboxed: bool,
                     names: tuple[frozenset[str], frozenset[str]]) -> tuple[str, list[str]]:
    """Python source of ``source`` (the template ``name``) and the names of the templates it
    imports; :class:`Unsupported` when it uses what is not translated.  ``names``: the filters
    and the tests the run time offers (:func:`.trun.compiled_names`)."""
    import contextlib
    from jinja2 import nodes
    ast = env.parse(source, name)
    # constants are folded as Jinja folds them, in a face's budget (as Jinja compiles in one)
    with env.face() if sandboxed else contextlib.nullcontext():
        try:
            writer = _Writer(env, name, sandboxed, nodes, names)
            return writer.template(ast), writer.imports
        except RecursionError:
            raise Unsupported("nested too deep") from None


class _Writer:
    """One template's code, line by line."""

    def __init__(self, env: Any, name: str, sandboxed: bool, nodes: Any,
                 names: tuple[frozenset[str], frozenset[str]]) -> None:
        from jinja2 import idtracking
        from jinja2.optimizer import Optimizer
        self.n = nodes
        self.eval_ctx = nodes.EvalContext(env, name)
        self.optimizer = Optimizer(env)
        self.id = idtracking
        self.sandboxed = sandboxed
        self.filters, self.tests = names
        self.lines: list[str] = []
        self.depth = 0
        self.count = 0
        self.loops: dict[str, tuple[str, str]] = {}     # loop ref -> (index var, length var)
        self.exports: dict[str, str] = {}               # exported name -> its ref
        self.imports: list[str] = []
        self.in_macro = False

    # -- helpers -----------------------------------------------------------------------------
    def line(self, text: str) -> None:
        self.lines.append("    " * self.depth + text)

    def tmp(self, kind: str) -> str:
        self.count += 1
        return f"{kind}{self.count}_"

    def refuse(self, what: str, node: Any = None) -> NoReturn:
        where = f" (line {node.lineno})" if node is not None and getattr(node, "lineno", None) else ""
        raise Unsupported(f"{what}{where}")

    def enter(self, frame: Any) -> None:
        """What Jinja's enter_frame does: each name of the scope read from where Jinja reads it."""
        undefs = []
        for target, (action, param) in frame.symbols.loads.items():
            if action == self.id.VAR_LOAD_PARAMETER:
                continue
            if action == self.id.VAR_LOAD_RESOLVE:
                if param in JINJA_ONLY:
                    self.refuse(f"'{param}' is Jinja's")
                self.line(f"{target} = res_({param!r}, UNDEF)")
            elif action == self.id.VAR_LOAD_ALIAS:
                self.line(f"{target} = {param}")
            elif action == self.id.VAR_LOAD_UNDEFINED:
                undefs.append(target)
            else:
                self.refuse("an unknown load")
        if undefs:
            self.line(f"{' = '.join(undefs)} = UNDEF")

    # -- the template --------------------------------------------------------------------------
    def template(self, node: Any) -> str:
        from jinja2.compiler import Frame
        n = self.n
        for kind in (n.Extends, n.Block, n.Include, n.FromImport, n.FilterBlock,
                     n.With, n.Scope, n.ScopedEvalContextModifier, n.EvalContextModifier,
                     n.AssignBlock, n.ExprStmt, n.Continue, n.Break):
            found = next(iter(node.find_all(kind)), None)
            if found is not None:
                self.refuse(f"{kind.__name__}", found)
        frame = Frame(self.eval_ctx)
        frame.symbols.analyze_node(node)
        frame.toplevel = frame.rootlevel = True
        self.line("def root(ctx):")
        self.depth += 1
        self.line("res_ = ctx.get")
        if self.sandboxed:
            self.line("st_ = S_.meter.step")
        self.line("if 0: yield None")
        self.enter(frame)
        self.body(node.body, frame)
        exports = ", ".join(f"{k!r}: {v}" for k, v in self.exports.items())
        self.line(f"return {{{exports}}}")
        self.depth -= 1
        return "\n".join(self.lines) + "\n"

    def body(self, nodes_: list, frame: Any) -> None:
        for node in nodes_:
            method = getattr(self, "stmt_" + type(node).__name__, None)
            if method is None:
                self.refuse(type(node).__name__, node)
            method(node, frame)

    def out(self, parts: list[str]) -> None:
        if not parts:
            return
        value = parts[0] if len(parts) == 1 else f"''.join(({', '.join(parts)},))"
        self.line(f"out_({value})" if self.in_macro else f"yield {value}")

    # -- statements ----------------------------------------------------------------------------
    def stmt_Output(self, node: Any, frame: Any) -> None:
        from markupsafe import escape
        parts = []
        for child in node.nodes:
            try:                                 # what Jinja writes as it compiles, it is here
                text = str(escape(child.as_const(self.eval_ctx)))
            except Exception:                    # nodes.Impossible included: written at run time
                pass
            else:
                if text:
                    parts.append(repr(text))
                continue
            if isinstance(child, self.n.Filter) and child.name == "num" and not child.args \
                    and not child.kwargs and not child.dyn_args and not child.dyn_kwargs:
                parts.append(self.expr(child, frame))        # digits, '-' and '.': nothing to escape
            else:
                parts.append(f"escape({self.expr(child, frame)})")
        self.out(parts)

    def stmt_Assign(self, node: Any, frame: Any) -> None:
        refs = [node.target] if isinstance(node.target, self.n.NSRef) else node.target.find_all(self.n.NSRef)
        for ref in dict.fromkeys(frame.symbols.ref(nsref.name) for nsref in refs):
            self.line(f"if type({ref}) is not Namespace:")
            self.line("    raise Bail('an attribute set on something else')")
        target = self.target(node.target, frame)
        self.line(f"{target} = {self.expr(node.node, frame)}")
        if frame.toplevel:
            names = [node.target] if isinstance(node.target, self.n.Name) else node.target.find_all(self.n.Name)
            for name in names:
                if not name.name.startswith("_"):
                    self.export(name.name, frame)

    def export(self, name: str, frame: Any) -> None:
        """A public name at the top, what an import of the template sees (one that may hold a
        value from elsewhere, read before it was set, is refused when imported)."""
        ref = frame.symbols.ref(name)
        load = frame.symbols.find_load(ref)
        self.exports[name] = ref if load is None or load[0] == self.id.VAR_LOAD_UNDEFINED else "UNSURE"

    def stmt_If(self, node: Any, frame: Any) -> None:
        frame = frame.soft()
        self.line(f"if {self.expr(node.test, frame)}:")
        self.block(node.body, frame)
        for elif_ in node.elif_:
            self.line(f"elif {self.expr(elif_.test, frame)}:")
            self.block(elif_.body, frame)
        if node.else_:
            self.line("else:")
            self.block(node.else_, frame)

    def block(self, body: list, frame: Any) -> None:
        self.depth += 1
        self.line("pass")
        self.body(body, frame)
        self.depth -= 1

    def stmt_For(self, node: Any, frame: Any) -> None:
        from jinja2.compiler import find_undeclared
        if node.recursive:
            self.refuse("a recursive loop", node)
        loop_frame = frame.inner()
        loop_frame.loop_frame = True
        test_frame = frame.inner()
        else_frame = frame.inner()
        extended = "loop" in find_undeclared(node.iter_child_nodes(only=("body",)), ("loop",))
        loop_ref: Any = loop_frame.symbols.declare_parameter("loop") if extended else None
        loop_frame.symbols.analyze_node(node, for_branch="body")
        if node.else_:
            else_frame.symbols.analyze_node(node, for_branch="else")
        for name in node.find_all(self.n.Name):
            if name.ctx == "store" and name.name == "loop":
                self.refuse("a store to loop", node)
        target = self.target(node.target, loop_frame)
        counted = self.sandboxed
        if node.test is not None:     # ``for x in xs if test``: Jinja's filter function
            test_frame.symbols.analyze_node(node, for_branch="test")
            pick = self.tmp("t")
            self.line(f"def {pick}(fiter):")
            self.depth += 1
            self.enter(test_frame)
            self.line(f"for {target} in fiter:")
            if self.sandboxed:                   # every item counted, as Jinja's sandbox counts them
                self.line("    st_()")
            self.line(f"    if {self.expr(node.test, test_frame)}:")
            self.line(f"        yield {target}")
            self.depth -= 1
            source = self.expr(node.iter, frame)
            seq = f"{pick}({f'iter_({source})' if self.sandboxed else source})"
            counted = False
        else:
            seq = self.expr(node.iter, frame)
            if self.sandboxed:
                seq = f"iter_({seq})"
        flag = self.tmp("e") if node.else_ else None
        if flag:
            self.line(f"{flag} = 1")
        if extended:
            items, index, length = self.tmp("q"), self.tmp("i"), self.tmp("n")
            self.line(f"{items} = list_({seq})")
            self.line(f"{length} = len({items})")
            self.line(f"for {index}, {target} in enumerate({items}):")
            self.loops[loop_ref] = (index, length)
        else:
            self.line(f"for {target} in {seq}:")
        self.depth += 1
        if counted:
            self.line("st_()")
        self.enter(loop_frame)
        self.body(node.body, loop_frame)
        if flag:
            self.line(f"{flag} = 0")
        self.depth -= 1
        if extended:
            del self.loops[loop_ref]
        if flag:
            self.line(f"if {flag}:")
            self.depth += 1
            self.line("pass")
            self.enter(else_frame)
            self.body(node.else_, else_frame)
            self.depth -= 1

    def stmt_Macro(self, node: Any, frame: Any) -> None:
        if not frame.toplevel or self.in_macro:
            self.refuse("a macro inside a block", node)
        fn, params, caller = self.macro(node, frame)
        ref = frame.symbols.ref(node.name)
        self.line(f"{ref} = CMacro({fn}, {node.name!r}, {params!r}, {caller})")
        if not node.name.startswith("_"):
            self.export(node.name, frame)

    def stmt_CallBlock(self, node: Any, frame: Any) -> None:
        """``{% call m(...) %}body{% endcall %}``: the body is a macro given to ``m`` as caller,
        and what ``m`` returns is written as it is (as Jinja writes it)."""
        fn, params, takes_caller = self.macro(node, frame)
        caller = self.tmp("c")
        self.line(f"{caller} = CMacro({fn}, 'caller', {params!r}, {takes_caller})")
        call = node.call
        if call.dyn_args is not None or call.dyn_kwargs is not None \
                or any(kw.key == "caller" for kw in call.kwargs):
            self.refuse("a call block of this kind", node)
        text = self.x_Call(call, frame, caller)
        self.line(f"out_({text})" if self.in_macro else f"yield {text}")

    def macro(self, node: Any, frame: Any) -> tuple[str, tuple[str, ...], bool]:
        """What Jinja's macro_body writes: the function of a macro or a call block's body; its
        name, its parameters' names and whether it takes a caller (for :class:`~.trun.CMacro`)."""
        from jinja2.compiler import find_undeclared
        mframe = frame.inner()
        mframe.symbols.analyze_node(node)
        args = []
        for arg in node.args:
            if arg.name in ("caller", "kwargs", "varargs"):
                self.refuse(f"a macro parameter named {arg.name}", node)
            args.append(mframe.symbols.ref(arg.name))
        undeclared = find_undeclared(node.body, ("caller", "kwargs", "varargs"))
        if "kwargs" in undeclared or "varargs" in undeclared:
            self.refuse("kwargs or varargs in a macro", node)
        caller = "caller" in undeclared
        if caller:
            args.append(mframe.symbols.declare_parameter("caller"))
        mframe.symbols.analyze_node(node)
        fn = self.tmp("m")
        self.line(f"def {fn}({', '.join(a + '=MISS' for a in args)}):")
        self.depth += 1
        was, self.in_macro = self.in_macro, True
        self.line("o_ = []")
        self.line("out_ = o_.append")
        if self.sandboxed and next(iter(node.find_all(self.n.For)), None) is not None:
            self.line("st_ = S_.meter.step")
        self.enter(mframe)
        for idx, arg in enumerate(node.args):
            ref = mframe.symbols.ref(arg.name)
            self.line(f"if {ref} is MISS:")
            try:
                default = node.defaults[idx - len(node.args)]
            except IndexError:
                self.line(f"    {ref} = UNDEF")
            else:
                self.line(f"    {ref} = {self.expr(default, mframe)}")
        self.body(node.body, mframe)
        self.line("return mk_(Markup, ''.join(o_))")      # Markup's own __new__, without its checks
        self.in_macro = was
        self.depth -= 1
        return fn, tuple(arg.name for arg in node.args), caller

    def stmt_Import(self, node: Any, frame: Any) -> None:
        if not frame.toplevel or self.in_macro or node.with_context \
                or not isinstance(node.template, self.n.Const) or not isinstance(node.template.value, str):
            self.refuse("an import other than 'import \"x\" as y' at the top", node)
        self.imports.append(node.template.value)
        self.line(f"{frame.symbols.ref(node.target)} = import_({node.template.value!r})")

    # -- targets and expressions -----------------------------------------------------------------
    def target(self, node: Any, frame: Any) -> str:
        n = self.n
        if isinstance(node, n.Name) and node.ctx == "store":
            return frame.symbols.ref(node.name)
        if isinstance(node, n.NSRef):
            return f"{frame.symbols.ref(node.name)}.attrs[{node.attr!r}]"
        if isinstance(node, n.Tuple) and node.ctx == "store":
            return "(" + "".join(self.target(item, frame) + ", " for item in node.items) + ")"
        self.refuse(f"an assignment to {type(node).__name__}", node)
        return ""

    def expr(self, node: Any, frame: Any) -> str:
        if type(node).__name__ in FOLDED:            # folded where Jinja's generator folds it
            folded = self.optimizer.visit(node, self.eval_ctx)
            if folded != node:
                return self.expr(folded, frame)
        method = getattr(self, "x_" + type(node).__name__, None)
        if method is None:
            self.refuse(type(node).__name__, node)
        return method(node, frame)

    def x_Const(self, node: Any, frame: Any) -> str:
        if not _plain(node.value):
            self.refuse("a constant of another kind", node)
        if type(node.value) is list:                    # the template's own list: it may grow
            return f"TList({node.value!r})"
        return repr(node.value)

    def x_TemplateData(self, node: Any, frame: Any) -> str:
        return f"Markup({node.data!r})"

    def x_Name(self, node: Any, frame: Any) -> str:
        if node.ctx != "load":
            self.refuse("a store in an expression", node)
        ref = frame.symbols.ref(node.name)
        if ref in self.loops or node.name in ("loop", "varargs", "kwargs", "self"):
            self.refuse(f"'{node.name}' as a value", node)
        return ref

    def x_Tuple(self, node: Any, frame: Any) -> str:
        return "(" + "".join(self.expr(i, frame) + ", " for i in node.items) + ")"

    def x_List(self, node: Any, frame: Any) -> str:
        return "TList([" + ", ".join(self.expr(i, frame) for i in node.items) + "])"

    def x_Dict(self, node: Any, frame: Any) -> str:
        return "{" + ", ".join(f"{self.expr(p.key, frame)}: {self.expr(p.value, frame)}"
                               for p in node.items) + "}"

    def x_Getattr(self, node: Any, frame: Any) -> str:
        inner = node.node
        if isinstance(inner, self.n.Name) and inner.ctx == "load":
            ref = frame.symbols.ref(inner.name)
            if ref in self.loops:
                if node.attr not in LOOP_ATTRS:
                    self.refuse(f"loop.{node.attr}", node)
                i, length = self.loops[ref]
                return {"index0": i, "index": f"({i} + 1)", "first": f"({i} == 0)",
                        "last": f"({i} == {length} - 1)", "length": length,
                        "revindex": f"({length} - {i})", "revindex0": f"({length} - {i} - 1)"}[node.attr]
            obj = self.expr(inner, frame)
            if node.attr in CURRENT:             # _cur.w: read at once when it is the face's
                return f"({obj}.{node.attr} if type({obj}) is Current else ga_({obj}, {node.attr!r}))"
            if node.attr in FIT_FIELDS:          # f.lines of a fit: the same
                return f"({obj}.{node.attr} if type({obj}) is Fit else ga_({obj}, {node.attr!r}))"
            if not node.attr.startswith("_"):    # lib.text of an imported template: its macro
                return (f"({obj}.__dict__.get({node.attr!r}, UNDEF) if type({obj}) is TModule "
                        f"else ga_({obj}, {node.attr!r}))")
        return f"ga_({self.expr(inner, frame)}, {node.attr!r})"

    def x_Getitem(self, node: Any, frame: Any) -> str:
        if node.ctx != "load":
            self.refuse("an item store", node)
        if isinstance(node.arg, self.n.Slice):          # Jinja slices in Python, unchecked
            bounds = ", ".join("None" if part is None else self.expr(part, frame)
                               for part in (node.arg.start, node.arg.stop, node.arg.step))
            return f"sl_({self.expr(node.node, frame)}, {bounds})"
        return f"gi_({self.expr(node.node, frame)}, {self.expr(node.arg, frame)})"

    def x_Call(self, node: Any, frame: Any, caller: str | None = None) -> str:
        if node.dyn_args is not None or node.dyn_kwargs is not None:
            self.refuse("*args or **kwargs in a call", node)
        func = self.expr(node.node, frame)
        args = [self.expr(a, frame) for a in node.args]
        for kw in node.kwargs:
            if not kw.key.isidentifier() or kw.key.startswith("__"):
                self.refuse("a keyword that is not a name", node)
            args.append(f"{kw.key}={self.expr(kw.value, frame)}")
        if caller is not None:
            args.append(f"caller={caller}")
        return f"call_({', '.join([func] + args)})"

    def x_Filter(self, node: Any, frame: Any) -> str:
        if node.name not in self.filters or node.dyn_args is not None or node.dyn_kwargs is not None:
            self.refuse(f"the filter {node.name}", node)
        if node.node is None:
            self.refuse("a filter block", node)
        args = [self.expr(node.node, frame)] + [self.expr(a, frame) for a in node.args]
        for kw in node.kwargs:
            if not kw.key.isidentifier():
                self.refuse("a keyword that is not a name", node)
            args.append(f"{kw.key}={self.expr(kw.value, frame)}")
        if node.name == "num" and len(args) == 1:
            # a number written before is read from f_num's own table, without a call (a face
            # writes dozens, most of them seen before); any other value is f_num's to turn
            value = self.tmp("v")
            return f"(nums_.get({value} := {args[0]}) or f_num({value}))"
        call = f"f_{node.name}({', '.join(args)})"
        if self.sandboxed and node.name != "num":
            return f"made_({call})"
        return call

    def x_Test(self, node: Any, frame: Any) -> str:
        if node.name not in self.tests or node.args or node.kwargs or node.dyn_args is not None \
                or node.dyn_kwargs is not None:
            self.refuse(f"the test {node.name}", node)
        return f"t_{node.name}({self.expr(node.node, frame)})"

    def x_CondExpr(self, node: Any, frame: Any) -> str:
        if node.expr2 is None:
            self.refuse("a conditional expression without else", node)
        return (f"({self.expr(node.expr1, frame)} if {self.expr(node.test, frame)} "
                f"else {self.expr(node.expr2, frame)})")

    def x_Not(self, node: Any, frame: Any) -> str:
        return f"(not {self.expr(node.node, frame)})"

    def x_Neg(self, node: Any, frame: Any) -> str:
        return f"(-{self.expr(node.node, frame)})"

    def x_Pos(self, node: Any, frame: Any) -> str:
        return f"(+{self.expr(node.node, frame)})"

    def x_And(self, node: Any, frame: Any) -> str:
        return f"({self.expr(node.left, frame)} and {self.expr(node.right, frame)})"

    def x_Or(self, node: Any, frame: Any) -> str:
        return f"({self.expr(node.left, frame)} or {self.expr(node.right, frame)})"

    def _binop(self, node: Any, frame: Any) -> str:
        kind = type(node).__name__
        left, right = self.expr(node.left, frame), self.expr(node.right, frame)
        if kind in _BINOPS:
            return f"({left} {_BINOPS[kind]} {right})"
        if kind == "Mod":          # a text's % formatting is left to Jinja in a user's template
            return f"mod_({left}, {right})" if self.sandboxed else f"({left} % {right})"
        # the sandbox meters * and ** unless a side is a float (as Sandbox.call_binop does)
        floats = any(isinstance(side, self.n.Const) and type(side.value) is float
                     for side in (node.left, node.right))
        if kind == "Mul":
            if not self.sandboxed or floats:
                return f"({left} * {right})"
            # a float on either side is multiplied at once, as mul_ would (both sides evaluated
            # in order: | does not stop at the first); anything else is mul_'s to meter
            a, b = self.tmp("v"), self.tmp("v")
            return (f"({a} * {b} if (type({a} := {left}) is float) | (type({b} := {right}) is float) "
                    f"else mul_({a}, {b}))")
        return f"pow_({left}, {right})" if self.sandboxed and not floats else f"({left} ** {right})"

    x_Add = x_Sub = x_Div = x_FloorDiv = x_Mod = x_Mul = x_Pow = _binop

    def x_Concat(self, node: Any, frame: Any) -> str:
        return "cat_((" + "".join(self.expr(i, frame) + ", " for i in node.nodes) + "))"

    def x_Compare(self, node: Any, frame: Any) -> str:
        text = self.expr(node.expr, frame)
        for op in node.ops:
            text += f" {_CMP[op.op]} {self.expr(op.expr, frame)}"
        return f"({text})"


def _plain(value: Any) -> bool:
    """Whether ``repr(value)`` reads back as ``value`` in the compiled code (Jinja writes
    constants, folded ones included, by their repr)."""
    from markupsafe import Markup
    kind = type(value)
    if kind in (str, Markup, int, bool, type(None), range):
        return True
    if kind is float:
        return value == value and value not in (float("inf"), float("-inf"))
    if kind in (tuple, list):
        return all(_plain(v) for v in value)
    if kind is dict:
        return all(_plain(k) and _plain(v) for k, v in value.items())
    return False

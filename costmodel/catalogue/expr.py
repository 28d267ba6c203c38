"""A small expression form for the formulas of line items, written once and
rendered two ways: :meth:`Expr.numpy` evaluates it on arrays (vectorised as the
engine runs it: over variants, model years and shapes), :meth:`Expr.excel` writes
it as the workbook's formula text.

>>> from costmodel.catalogue.expr import Num, Ref
>>> e = Ref("rate") * (Ref("hw") + Ref("fac")) / Num(12)
>>> e.excel(lambda name: "{" + name + "}")
'{rate}*({hw}+{fac})/12'
>>> float(e.numpy({"rate": 0.012, "hw": 1000.0, "fac": 200.0}))
1.2
>>> sorted(e.refs())
['fac', 'hw', 'rate']
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

#: binding precedence of the operators (higher binds tighter)
_PRECEDENCE = {"+": 1, "-": 1, "*": 2, "/": 2}


class Expr:
    """An expression of named quantities (:class:`Ref`), numbers (:class:`Num`)
    and the four operations, left-associative as written."""

    def numpy(self, env: Mapping[str, Any]) -> Any:
        """The value with each :class:`Ref` read from ``env`` (numbers or arrays that
        broadcast), the operations applied in the order the formula is written."""
        raise NotImplementedError

    def excel(self, name: Callable[[str], str]) -> str:
        """The formula text (without ``=``), each :class:`Ref` written as ``name(ref)``."""
        raise NotImplementedError

    def refs(self) -> set[str]:
        """The names the expression reads."""
        raise NotImplementedError

    def _wrap(self, other: Expr | float) -> Expr:
        return other if isinstance(other, Expr) else Num(float(other))

    def __add__(self, other: Expr | float) -> Expr:
        return Op("+", self, self._wrap(other))

    def __sub__(self, other: Expr | float) -> Expr:
        return Op("-", self, self._wrap(other))

    def __mul__(self, other: Expr | float) -> Expr:
        return Op("*", self, self._wrap(other))

    def __truediv__(self, other: Expr | float) -> Expr:
        return Op("/", self, self._wrap(other))

    def __rsub__(self, other: float) -> Expr:
        return Op("-", Num(float(other)), self)


@dataclass(frozen=True, eq=False)
class Ref(Expr):
    """A named quantity: an input, a row of the workbook, a driver of the engine."""

    name: str

    def numpy(self, env: Mapping[str, Any]) -> Any:
        return env[self.name]

    def excel(self, name: Callable[[str], str]) -> str:
        return name(self.name)

    def refs(self) -> set[str]:
        return {self.name}


@dataclass(frozen=True, eq=False)
class Num(Expr):
    """A number, written in the formula as the shortest text that reads back to it."""

    value: float

    def numpy(self, env: Mapping[str, Any]) -> Any:
        return self.value

    def excel(self, name: Callable[[str], str]) -> str:
        return f"{self.value:g}" if float(f"{self.value:g}") == self.value else repr(self.value)

    def refs(self) -> set[str]:
        return set()


@dataclass(frozen=True, eq=False)
class Op(Expr):
    """``left op right`` for op in ``+ - * /``."""

    op: str
    left: Expr
    right: Expr

    def numpy(self, env: Mapping[str, Any]) -> Any:
        a, b = self.left.numpy(env), self.right.numpy(env)
        if self.op == "+":
            return a + b
        if self.op == "-":
            return a - b
        if self.op == "*":
            return a * b
        return a / b

    def excel(self, name: Callable[[str], str]) -> str:
        p = _PRECEDENCE[self.op]
        left = self.left.excel(name)
        if isinstance(self.left, Op) and _PRECEDENCE[self.left.op] < p:
            left = f"({left})"
        right = self.right.excel(name)
        # the right operand is bracketed unless it binds tighter: a-(b-c), a/(b*c)
        if isinstance(self.right, Op) and _PRECEDENCE[self.right.op] <= p:
            right = f"({right})"
        return f"{left}{self.op}{right}"

    def refs(self) -> set[str]:
        return self.left.refs() | self.right.refs()

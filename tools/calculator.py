"""A safe arithmetic calculator: parsed with `ast`, evaluated by a small interpreter, never `eval`.

Grammar (Python's own syntax for these pieces)::

    expr   := expr ("+" | "-" | "*" | "/" | "//" | "%" | "**") expr
            | ("+" | "-") expr
            | "(" expr ")"
            | number
    number := a Python int or float literal: 42, 1_000, 3.5, .5, 2e3 (and so 0x10 is 16)

Conveniences applied before parsing, each unambiguous:

- ``×`` and a spaced `` x `` (``3 x 4``) multiply, ``÷`` divides, ``^`` is a power,
  ``−`` (U+2212) is a minus.
- ``$``, ``€`` and ``£`` are dropped; commas inside numbers group thousands (``1,250``).
- A percent sign right after a number is a percentage when it ends the expression or is
  followed by ``)``, ``*`` or ``/``: ``18% * 250`` is ``0.18 * 250``. Anywhere else ``%`` is
  the modulo operator (``10 % 3``).

Results are formatted the way Python prints them: ``2+3`` gives ``"5"``, ``0.18 * 250``
gives ``"45.0"``, ``7/2`` gives ``"3.5"``.

Every bad or hostile input returns a short ``"error: <why>"`` string instead of raising,
in well under a second: the input is limited to `MAX_INPUT_CHARS` characters, integers to
`MAX_INT_DIGITS` digits, and the size of a power or product is estimated from the operands'
bit lengths *before* it is computed, so ``9**9**9`` and ``2**100000`` are refused at once.
"""

from __future__ import annotations

import ast
import math
import operator
import re
from collections.abc import Callable

from langchain_core.tools import BaseTool, StructuredTool, ToolException
from pydantic import BaseModel, Field

MAX_INPUT_CHARS = 1000
"""Longest expression accepted."""

MAX_INT_DIGITS = 400
"""Integers (literals, intermediate values and results) may have at most this many digits."""

MAX_EXPONENT = 10_000
"""Largest absolute exponent accepted by ``**``."""

ERROR_TEMPLATE = "error: {reason}"
"""Shape of every failure message (the string always contains "error")."""

_MAX_INT = 10**MAX_INT_DIGITS
_MAX_BITS = _MAX_INT.bit_length()

Number = int | float

_BINARY: dict[type[ast.operator], Callable[[Number, Number], Number]] = {
    ast.Add: operator.add,
    ast.Sub: operator.sub,
    ast.Mult: operator.mul,
    ast.Div: operator.truediv,
    ast.FloorDiv: operator.floordiv,
    ast.Mod: operator.mod,
    ast.Pow: operator.pow,
}

_NUMBER = r"(?:\d[\d_]*(?:\.[\d_]*)?|\.\d[\d_]*)(?:[eE][+-]?\d+)?"
_PERCENT_RE = re.compile(rf"(?<![\w.])({_NUMBER})\s*%(?=\s*(?:$|[)*/]))")
_THOUSANDS_RE = re.compile(r"(?<=\d),(?=\d{3}(?!\d))")
_SPACED_X_RE = re.compile(r"(?<=[\d.)])\s+[xX]\s+(?=[\d.(+-])")
_TRANSLATE = str.maketrans({"×": "*", "÷": "/", "^": "**", "−": "-", "$": "", "€": "", "£": ""})

_FORBIDDEN: dict[type[ast.AST], str] = {
    ast.Name: "names are not allowed",
    ast.Call: "function calls are not allowed",
    ast.Attribute: "attributes are not allowed",
    ast.Subscript: "subscripts are not allowed",
    ast.Lambda: "lambdas are not allowed",
    ast.Compare: "comparisons are not allowed",
    ast.BoolOp: "boolean operators are not allowed",
    ast.Tuple: "tuples are not allowed (use '.' for decimals)",
}


_ONLY_ARITHMETIC = "only numbers, + - * / // % ** and parentheses are allowed"


class CalculatorError(ValueError):
    """An expression that cannot be evaluated; the message is the short reason."""


def evaluate_expression(expression: str) -> str:
    """Evaluate an arithmetic expression; return the result or ``"error: <why>"``.

    See the module docstring for the grammar. Never raises and never runs code.
    """
    try:
        return _format(_evaluate(_parse(expression)))
    except CalculatorError as e:
        return ERROR_TEMPLATE.format(reason=e)
    except ZeroDivisionError:
        return ERROR_TEMPLATE.format(reason="division by zero")
    except OverflowError:
        return ERROR_TEMPLATE.format(reason="result too large")
    except (RecursionError, MemoryError):
        return ERROR_TEMPLATE.format(reason="expression nested too deeply")
    except (ValueError, TypeError, ArithmeticError) as e:
        return ERROR_TEMPLATE.format(reason=f"cannot evaluate ({type(e).__name__})")


def _normalize(expression: str) -> str:
    """Apply the documented conveniences (x, ×, ÷, ^, currency, thousands, percent)."""
    text = expression.translate(_TRANSLATE)
    text = _SPACED_X_RE.sub(" * ", text)
    text = _THOUSANDS_RE.sub("", text)
    return _PERCENT_RE.sub(r"(\1/100)", text)


def _parse(expression: str) -> ast.expr:
    """Check the raw input and parse it into an expression tree."""
    if not isinstance(expression, str):
        raise CalculatorError("the expression must be a string")
    if len(expression) > MAX_INPUT_CHARS:
        raise CalculatorError(f"expression longer than {MAX_INPUT_CHARS} characters")
    if not expression.strip():
        raise CalculatorError("empty expression")
    try:
        tree = ast.parse(_normalize(expression).strip(), mode="eval")
    except SyntaxError as e:
        raise CalculatorError(f"not valid arithmetic ({e.msg})") from None
    except ValueError:  # e.g. NUL bytes in the source
        raise CalculatorError("not valid arithmetic") from None
    return tree.body


def _evaluate(node: ast.expr) -> Number:
    """Evaluate one node of the tree, refusing anything outside the grammar."""
    if isinstance(node, ast.Constant):
        value = node.value
        if isinstance(value, bool) or not isinstance(value, int | float):
            kind = "strings" if isinstance(value, str | bytes) else f"{type(value).__name__} values"
            raise CalculatorError(f"{kind} are not allowed")
        return _checked(value)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.UAdd | ast.USub):
        value = _evaluate(node.operand)
        return value if isinstance(node.op, ast.UAdd) else -value
    if isinstance(node, ast.BinOp) and type(node.op) in _BINARY:
        left, right = _evaluate(node.left), _evaluate(node.right)
        _guard(node.op, left, right)
        return _checked(_BINARY[type(node.op)](left, right))
    for node_type, reason in _FORBIDDEN.items():
        if isinstance(node, node_type):
            raise CalculatorError(reason)
    raise CalculatorError(_ONLY_ARITHMETIC)


def _bits(value: Number) -> float:
    """Approximate number of bits in the integer part of ``|value|``."""
    magnitude = abs(value)
    if isinstance(magnitude, int):
        return magnitude.bit_length()
    return math.log2(magnitude) + 1 if magnitude >= 1 else 0.0


def _guard(op: ast.operator, left: Number, right: Number) -> None:
    """Refuse an operation whose result would be too large, before computing it."""
    if isinstance(op, ast.Pow):
        if abs(right) > MAX_EXPONENT:
            raise CalculatorError(f"exponent larger than {MAX_EXPONENT}")
        if right > 0 and abs(left) > 1 and (_bits(left) - 1) * right > _MAX_BITS:
            raise CalculatorError("result too large")
        if left == 0 and right < 0:
            raise ZeroDivisionError
        if left < 0 and not float(right).is_integer():
            raise CalculatorError("fractional power of a negative number")
    elif isinstance(op, ast.Mult) and isinstance(left, int) and isinstance(right, int):
        if _bits(left) + _bits(right) > _MAX_BITS + 1:
            raise CalculatorError("result too large")


def _checked(value: Number) -> Number:
    """Return ``value`` if it is finite and within the integer digit limit."""
    if isinstance(value, float):
        if not math.isfinite(value):
            raise CalculatorError("result is not a finite number")
    elif isinstance(value, int):
        if abs(value) >= _MAX_INT:
            raise CalculatorError(f"integer with more than {MAX_INT_DIGITS} digits")
    else:
        raise CalculatorError("result is not a real number")
    return value


def _format(value: Number) -> str:
    """Format a result the way Python's ``repr`` does (``5``, ``45.0``, ``1e+16``)."""
    return repr(value)


class CalculatorInput(BaseModel):
    """Arguments of the calculator tool."""

    expression: str = Field(
        description=(
            "Arithmetic only, e.g. '0.18 * 250', '(3 + 4) * 2', '2 ** 10', '18% * 250'. "
            "Numbers and + - * / // % ** ( ); no variables, units or functions."
        )
    )


CALCULATOR_DESCRIPTION = (
    "Evaluate an arithmetic expression and return the number. Use it for any "
    "arithmetic (percentages, sums, products, ratios) instead of computing in your head; "
    "it does not search anything. Returns the result (e.g. '45.0'), or a message starting "
    "with 'error:' when the expression is not plain arithmetic."
)


def _run_calculator(expression: str) -> str:
    """Evaluate for the tool; a failure becomes a ToolException (an error ToolMessage)."""
    result = evaluate_expression(expression)
    if result.startswith("error"):
        raise ToolException(result)
    return result


CALCULATOR_TOOL = "calculator"
"""The calculator tool's name (the one place it is spelled)."""

calculator: BaseTool = StructuredTool.from_function(
    func=_run_calculator,
    name=CALCULATOR_TOOL,
    description=CALCULATOR_DESCRIPTION,
    args_schema=CalculatorInput,
    handle_tool_error=True,
)
"""The calculator as a LangChain tool: errors come back as ToolMessage(status="error")."""

"""Arithmetic: the expressions, percentages and amounts a question asks to compute."""

from __future__ import annotations

import re

MATH_WORDS = frozenset("calculate compute evaluate equal equals result sum".split())
"""Words that ask for a computation: with only these beside an expression, it is arithmetic."""

SIGNIFICANT_DIGITS = 12
"""Digits an answer keeps: float noise (87.50000000000001) is rounded away."""

NUMBER = r"\d[\d,]*(?:\.\d+)?(?:[eE][+-]?\d+)?"
"""A number as people write it: thousands commas, decimals, scientific notation ("1.5e3")."""
POWERED = rf"{NUMBER}(?:\s*(?:\*\*|\^)\s*{NUMBER})*"
"""A number or a power of numbers ("2**10", "10^3"): the calculator computes it."""
PERCENT_RE = re.compile(
    rf"(?<![\w.*^])(?P<rate>{POWERED})\s*(?:%|percent\b)\s+of\s+"
    r"(?P<phrase>[^?!]*?\d[^?!]*?)\s*[?!.]*\s*$",
    re.I,
)
"""A percentage of an amount ("18% of a $250 order")."""
AMOUNT_RE = re.compile(rf"(?P<currency>[$€£])?\s*(?P<number>{POWERED})")
"""An amount, with its currency sign."""
PLAIN_RATE_RE = re.compile(r"\d+(?:\.\d+)?")
"""A rate the answer can show as a decimal fraction ("18" -> 0.18) without the calculator."""
WORD_OPERATORS = (
    (re.compile(r"\bdivided by\b", re.I), "/"),
    (re.compile(r"\bmultiplied by\b|\btimes\b", re.I), "*"),
    (re.compile(r"\bplus\b", re.I), "+"),
    (re.compile(r"\bminus\b", re.I), "-"),
    (re.compile(r"[×x](?=\s*[\d(])", re.I), "*"),
    (re.compile(r"÷"), "/"),
    (re.compile(r"\^"), "**"),
)
"""Operators written as words or signs, and the calculator's spelling of them."""
OPERAND = r"\d[\d.,]*(?:[eE][+-]?\d+)?"
"""One operand of an expression."""
EXPRESSION_RE = re.compile(
    rf"[-+(]*\s*{OPERAND}(?:\s*(?:\*\*|[-+*/%])\s*[-+(]*\s*{OPERAND}\)*)+\)*"
)
"""An arithmetic expression in a question ("12 * (3 + 4)")."""

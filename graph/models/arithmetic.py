"""Arithmetic questions: spotting them, the calculator expression, and the answer sentence."""

from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import Context, Decimal, InvalidOperation

from graph.models.reading import QUESTION_WORDS, STOPWORDS, words

PERCENT_RE = re.compile(
    r"(?P<rate>\d+(?:\.\d+)?)\s*(?:%|percent\b)\s+of\s+(?P<phrase>[^?!]*?\d[^?!]*?)\s*[?!.]*\s*$",
    re.I,
)
AMOUNT_RE = re.compile(r"(?P<currency>[$€£])?\s*(?P<number>\d[\d,]*(?:\.\d+)?)")
WORD_OPERATORS = (
    (re.compile(r"\bdivided by\b", re.I), "/"),
    (re.compile(r"\bmultiplied by\b|\btimes\b", re.I), "*"),
    (re.compile(r"\bplus\b", re.I), "+"),
    (re.compile(r"\bminus\b", re.I), "-"),
    (re.compile(r"[×x](?=\s*[\d(])", re.I), "*"),
    (re.compile(r"÷"), "/"),
    (re.compile(r"\^"), "**"),
)
EXPRESSION_RE = re.compile(r"[-+(]*\s*\d[\d.,]*(?:\s*(?:\*\*|[-+*/%])\s*[-+(]*\s*\d[\d.,]*\)*)+\)*")
MATH_WORDS = frozenset("calculate compute evaluate equal equals result sum".split())


@dataclass(frozen=True)
class Arithmetic:
    """A question the calculator answers."""

    expression: str
    """What the calculator gets ("0.18 * 250")."""
    template: str
    """The answer sentence with a {value} placeholder."""
    currency: str
    """The currency sign to format the value with, or ""."""


def parse_arithmetic(question: str) -> Arithmetic | None:
    """The calculation a question asks for ("18% of a $250 order", "12 * (3 + 4)"), or None."""
    percent = PERCENT_RE.search(question)
    if percent:
        amount = AMOUNT_RE.search(percent.group("phrase"))
        if amount:
            try:
                rate = Decimal(percent.group("rate")) / 100
            except InvalidOperation:
                return None
            number = amount.group("number").replace(",", "")
            phrase = " ".join(percent.group("phrase").split())
            return Arithmetic(
                expression=f"{format(rate.normalize(), 'f')} * {number}",
                template=f"{percent.group('rate')}% of {braces_escaped(phrase)} is {{value}}.",
                currency=amount.group("currency") or "",
            )
    text = question
    for pattern, operator in WORD_OPERATORS:
        text = pattern.sub(f" {operator} ", text)
    match = EXPRESSION_RE.search(text)
    if not match:
        return None
    leftover = words(text[: match.start()] + " " + text[match.end() :])
    if any(
        w not in STOPWORDS and w not in QUESTION_WORDS and w not in MATH_WORDS for w in leftover
    ):
        return None
    expression = " ".join(match.group(0).replace(",", "").split())
    return Arithmetic(expression=expression, template=f"{expression} = {{value}}.", currency="")


def braces_escaped(text: str) -> str:
    """`text` safe inside a `str.format` template (the user's words may hold braces)."""
    return text.replace("{", "{{").replace("}", "}}")


SIGNIFICANT_DIGITS = 12
"""Digits an answer keeps: float noise (87.50000000000001) is rounded away."""


def format_value(result: str, currency: str) -> str | None:
    """The calculator's result as the answer shows it ("$45.00", "7", "87.5"), or None."""
    try:
        value = Context(prec=SIGNIFICANT_DIGITS).plus(Decimal(result.strip()))
    except InvalidOperation:
        return None
    if currency:
        return f"{currency}{value:,.2f}"
    if value == value.to_integral_value():
        return f"{int(value):,}".replace(",", "")
    return format(value.normalize(), "f")

"""Arithmetic questions: spotting them, the calculator expression, and the answer sentence."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Context, Decimal, InvalidOperation

from graph.models.offline.reading import words
from graph.models.offline.tuning.arithmetic import (
    AMOUNT_RE,
    EXPRESSION_RE,
    MATH_WORDS,
    PERCENT_RE,
    PLAIN_RATE_RE,
    SIGNIFICANT_DIGITS,
    WORD_OPERATORS,
)
from graph.models.support import FUNCTION_WORDS


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
            number = _operand(amount.group("number"))
            phrase = " ".join(percent.group("phrase").split())
            return Arithmetic(
                expression=f"{_rate(percent.group('rate'))} * {number}",
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
    if any(w not in FUNCTION_WORDS and w not in MATH_WORDS for w in leftover):
        return None
    expression = " ".join(match.group(0).replace(",", "").split())
    return Arithmetic(expression=expression, template=f"{expression} = {{value}}.", currency="")


def _operand(text: str) -> str:
    """A number or power for the calculator ("2^10" -> "(2**10)", "1,200" -> "1200")."""
    plain = text.replace(",", "").replace("^", "**")
    return f"({plain})" if "**" in plain else plain


def _rate(text: str) -> str:
    """The percentage as a factor: "18" -> "0.18", "2**10" -> "(2**10) / 100" (calculator)."""
    if PLAIN_RATE_RE.fullmatch(text):
        return format((Decimal(text) / 100).normalize(), "f")
    return f"{_operand(text)} / 100"


def braces_escaped(text: str) -> str:
    """`text` safe inside a `str.format` template (the user's words may hold braces)."""
    return text.replace("{", "{{").replace("}", "}}")


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

"""How a Thought prints the number that decided next to its bar: never "0.80 < 0.80"."""

from __future__ import annotations


def figure(value: float, bar: float) -> str:
    """`value` with two decimals, or as many more as set it apart from `bar`.

    A coverage of 0.7999 against `COVERED` 0.80 reads "0.7999 < COVERED 0.80", not "0.80 <";
    past four decimals it is written in full.
    """
    for places in (2, 3, 4):
        shown = f"{value:.{places}f}"
        if value == bar or float(shown) != bar:
            return shown
    return repr(value)

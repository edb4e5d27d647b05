"""How rare a word is in general English text: the weight of a word no searched corpus holds.

A small corpus lacks most words of any question, so its lacking one says little when the word
is common ("long", "number", "call") and a lot when it is rare ("password", "warranty"): a
question about those is about something the corpus does not hold. `rarity` is a word's
inverse document frequency in the background table (`background_df.tsv`, paragraphs of
Wikipedia text holding each stem, built by `benchmarks/build_background.py`), scaled to 0..1:
1.0 for a stem the table lacks, near 0 for one in almost every paragraph. The table is read
once, on first use.
"""

from __future__ import annotations

import math
from functools import cache
from pathlib import Path

from tools.expand import stem

TABLE = Path(__file__).with_name("background_df.tsv")


@cache
def _table() -> tuple[int, dict[str, int]]:
    """The number of background paragraphs and, per stem, how many hold it."""
    total, counts = 1, {}
    for line in TABLE.read_text(encoding="utf-8").splitlines():
        if not line or line.startswith("#"):
            continue
        key, _, value = line.partition("\t")
        if key == "*":
            total = int(value)
        else:
            counts[key] = int(value)
    return total, counts


def rarity(term: str) -> float:
    """How rare `term` (a search token) is in general text, from 0 (everywhere) to 1 (unknown)."""
    total, counts = _table()
    held = counts.get(stem(term), 0)
    return math.log((total + 1) / (held + 1)) / math.log(total + 1)

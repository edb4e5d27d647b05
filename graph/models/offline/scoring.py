"""Scoring one sentence, or a chain of two, against the question, with the corpora's term weights.

A sentence scores the question's idf weight (the word after "how" left out: `HOW_RE`) it holds
(`SENTENCE_SHARE`) and its passage holds (the rest; an identifier joining two next question
words, "anchorlink" for "anchor links", holds both: `compounds`), the weight its densest
stretch of `WINDOW` words holds (`WINDOW_WEIGHT`), the proximity of the matched words
(`PROXIMITY_WEIGHT`), whether it holds a candidate of the kind asked for (`KIND_WEIGHT`), and
whether it names another ordinal than the question (`ORDINAL_COST`). Where a sentence sits (its
neighbour, its passage's rank) is `answering.bonus`.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Collection, Sequence

from graph.models.offline.reading import how_words, words
from graph.models.offline.short_answers import candidates
from graph.models.offline.tuning.sentences import (
    KIND_WEIGHT,
    ORDINAL_COST,
    ORDINALS,
    PROXIMITY_WEIGHT,
    SENTENCE_SHARE,
    WINDOW,
    WINDOW_WEIGHT,
)
from graph.models.support import weights
from tools.expand import compounds as joinable_pairs
from tools.expand import stem


class Scorer:
    """Scores sentences against one question, with the searched corpora's term weights."""

    def __init__(
        self,
        question: str,
        kind: str | None,
        weight: Callable[[str], float],
        known: str,
        capitalised: Collection[str],
        asked: str = "",
    ) -> None:
        """Score against `question` (a two-hop question's outer part, its bridge filled in).

        `known` holds what the question and the bridge name, `asked` the question as asked
        (its names never link a chain).
        """
        self.weight = weight
        self.known = known
        self.asked_text = asked or question
        form = how_words(question)
        table = {stem(t): w for t, w in weights(question, weight).items()}
        self.table = {s: w for s, w in table.items() if s not in form}
        self.total = sum(self.table.values()) or 1.0
        self.compounds = compounds(question, self.table)
        self.kind = kind
        self.asked = {stem(w) for w in words(known)}
        self.in_question = {stem(w) for w in words(asked or question)}
        self.ordinals = ORDINALS & set(words(asked or question))
        self.capitalised = capitalised
        self.question = question

    def whole(self) -> Scorer:
        """The same scoring against the question as asked (a two-hop one's clause kept)."""
        return Scorer(self.asked_text, self.kind, self.weight, self.known, self.capitalised)

    def read(self, text: str) -> list[tuple[int, str]]:
        """The stems of `text`'s words with their places, a compound read as its two words."""
        return [
            (i, part)
            for i, token in enumerate(words(text))
            for part in self.compounds.get(stem(token), (stem(token),))
        ]

    def stems(self, text: str) -> set[str]:
        """The stems `text` holds (`read`)."""
        return {s for _, s in self.read(text)}

    def coverage(self, text: str) -> float:
        """The share of the question's weight whose words `text` holds."""
        have = self.stems(text)
        return sum(w for s, w in self.table.items() if s in have) / self.total

    def window(self, text: str) -> float:
        """The share of the question's weight the densest `WINDOW` words of `text` hold."""
        at = [(i, s) for i, s in self.read(text) if s in self.table]
        best = 0.0
        for first, (start, _) in enumerate(at):
            held = {s for i, s in at[first:] if i < start + WINDOW}
            best = max(best, math.fsum(self.table[s] for s in held) / self.total)  # any order
        return best

    def proximity(self, text: str) -> float:
        """Matched question words over the span they take (0 with fewer than two)."""
        at = sorted({i for i, s in self.read(text) if s in self.table})
        return len(at) / (at[-1] - at[0] + 1) if len(at) >= 2 else 0.0

    def has_kind(self, text: str) -> bool:
        """Whether `text` holds a candidate of the asked-for kind new to the question."""
        if self.kind in (None, "yesno", "choice"):
            return False
        return bool(candidates(str(self.kind), text, self.asked, self.capitalised, self.question))

    def score(self, texts: Sequence[str], passages: Sequence[str]) -> float:
        """The score of a sentence (or a chain of them) from its passages."""
        joined = " ".join(texts)
        return (
            SENTENCE_SHARE * self.coverage(joined)
            + (1 - SENTENCE_SHARE) * self.coverage(" ".join(passages))
            + WINDOW_WEIGHT * max(self.window(t) for t in texts)
            + PROXIMITY_WEIGHT * max(self.proximity(t) for t in texts)
            + KIND_WEIGHT * any(self.has_kind(t) for t in texts)
            - ORDINAL_COST * self.other_ordinal(joined)
        )

    def other_ordinal(self, text: str) -> bool:
        """Whether `text` names another of `ORDINALS` than the question does (none: False)."""
        return bool(self.ordinals) and bool(ORDINALS & set(words(text)) - self.ordinals)

    def added(self, text: str, to: str) -> float:
        """The share of the question's weight `text` holds that `to` lacks."""
        extra = self.stems(text) - self.stems(to)
        return sum(w for s, w in self.table.items() if s in extra) / self.total


def compounds(question: str, table: dict[str, float]) -> dict[str, tuple[str, str]]:
    """Two next question words written as one, by stem ("anchorlink" for "anchor links").

    The pairs are those the search joins (`tools.expand.compounds`), so the sentence read and
    the passage searched agree on which words a joined word holds.

    Identifiers join words (`anchorlink_class`, `tablength`): a sentence naming the joined
    word names both. One more markdown answer right (the anchor link's class, not the
    permanent link's), no other tune set moved.
    """
    found = {stem(a + b): (stem(a), stem(b)) for a, b in joinable_pairs(words(question))}
    return {c: p for c, p in found.items() if all(s in table for s in p)}

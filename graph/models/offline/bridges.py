"""The bridge of a two-hop question: the new entity a first search found that the rest is about."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass

from graph.models.offline.actions import Hit
from graph.models.offline.reading import names, statements, stems, words
from graph.models.offline.tuning import (
    BRIDGE_HEADED,
    BRIDGE_MULTIWORD,
    BRIDGE_OPENING_WORD,
    BRIDGE_PASSAGES,
    BRIDGE_TITLED,
    BRIDGE_TOP_RANK,
    KNOWN_NAME_SHARE,
    STOPWORDS,
)
from tools.expand import stem


@dataclass(frozen=True)
class Bridge:
    """An entity found in a first hop that the rest of the question is about."""

    name: str
    """The entity as the passage writes it ("Fleet Platform team")."""
    doc_id: str
    """The passage it came from."""
    sentence: str
    """The sentence that names it."""


def find_bridge(
    hits: Sequence[Hit],
    question: str,
    head: str,
    inner_query: str,
    titles: Collection[str] = (),
) -> Bridge | None:
    """The best new entity in the first hop's passages, or None.

    A candidate is a capitalised span the question does not already name. It scores for being
    followed by the clause's head noun ("... the Austin office" for "the office where"), for
    sitting in a sentence that matches the clause, for a top-ranked passage, for several words,
    and for being the title of a passage in the corpus.
    """
    question_stems = {stem(word) for word in words(question)}
    clause_stems = stems(inner_query)
    head_stem = stem(head)
    best: tuple[tuple[float, ...], Bridge] | None = None
    for rank, hit in enumerate(hits[:BRIDGE_PASSAGES]):
        for position, sentence in enumerate(statements(str(hit.get("text", "")))):
            overlap = len(stems(sentence) & clause_stems)
            for name in names(sentence):
                tokens = words(name.text)
                known = sum(stem(token) in question_stems for token in tokens)
                if (
                    not tokens
                    or known >= KNOWN_NAME_SHARE * len(tokens)
                    or all(t in STOPWORDS for t in tokens)
                ):
                    continue
                following = sentence[name.end :].split()[:1]
                headed = bool(following) and stem(following[0].strip(".,;:")) == head_stem
                text = f"{name.text} {following[0].strip('.,;:')}" if headed else name.text
                score = (
                    BRIDGE_HEADED * headed
                    + BRIDGE_TITLED * (name.text.lower() in titles)
                    + overlap
                    + (BRIDGE_TOP_RANK if rank == 0 else 0.0)
                    + BRIDGE_MULTIWORD * (len(tokens) > 1)
                    - BRIDGE_OPENING_WORD * (name.start == 0 and len(tokens) == 1),
                    -rank,
                    -position,
                    -name.start,
                )
                if best is None or score > best[0]:
                    best = (score, Bridge(text, str(hit["id"]), sentence))
    return best[1] if best else None

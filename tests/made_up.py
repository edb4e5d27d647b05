"""A corpus of made-up passages, for the policy's tests."""

from __future__ import annotations

from corpora import Corpus, Passage


def corpus(name: str, texts: dict[str, str]) -> Corpus:
    """A corpus `name` of the passages `texts` (id -> text), in order."""
    return Corpus(name, tuple(Passage(id=i, text=t) for i, t in texts.items()))


def flat(term: str) -> float:
    """A term weight under which every word weighs 1."""
    return 1.0

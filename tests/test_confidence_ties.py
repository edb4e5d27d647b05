"""The answer must be singled out and on the question to be confident, and a short question
whose passages hold few of its words is declined: `word_share`, `rival_ties`, `is_confident`'s
ties and words, and `rules.declines`' word share. Made-up passages only."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from graph.models.offline.rules import declines
from graph.models.offline.tuning.declining import DECLINE_SUPPORT, DECLINE_WORD_SHARE
from graph.models.support import (
    ANSWER_WORD_SHARE,
    RIVAL_TIES,
    SUPPORT_BAR,
    confidence,
    is_confident,
    rival_ties,
    weights,
    word_share,
)

WEIGHTS = {"parking": 1.0, "cost": 5.0, "harbour": 1.0, "opened": 1.0, "lighthouse": 1.0}
"""Made-up idf: "cost" is the rare word of its question."""


def weight(term: str) -> float:
    """The made-up idf of `term` (1.0 for a word not listed)."""
    return WEIGHTS.get(term, 1.0)


def turn(question: str) -> Any:
    """What `declines` reads of a turn: the question and the word weight."""
    return SimpleNamespace(question=question, weight=weight)


def test_word_share_counts_the_words_held_not_their_weight() -> None:
    table = weights("How much does parking cost at the harbour?", weight)
    assert word_share(table, ["Tickets cost 15 euros."]) == 1 / 3
    assert word_share(table, ["Parking at the harbour costs 3 euros."]) == 1.0
    assert word_share(table, []) == 0.0 and word_share({}, ["anything"]) == 0.0


def test_rival_ties_counts_the_distinct_other_sentences_covering_as_much() -> None:
    table = weights("Who opened the lighthouse?", weight)
    answer = "The lighthouse has a red lamp."
    retrieved = [
        f"{answer} The lighthouse stands on a rock.",
        "The lighthouse stands on a rock. The lighthouse keeper lives below it.",
        "The harbour has two piers.",
    ]
    # two distinct other sentences hold "lighthouse", as the answer does; the repeat counts once
    assert rival_ties(table, answer, [answer], retrieved, 0.5) == 2
    assert rival_ties(table, answer, [answer], retrieved, 0.6) == 0


def test_an_answer_tied_with_rivals_or_holding_few_question_words_is_not_confident() -> None:
    assert is_confident(SUPPORT_BAR, ties=RIVAL_TIES - 1, words=ANSWER_WORD_SHARE)
    assert not is_confident(SUPPORT_BAR, ties=RIVAL_TIES)
    assert not is_confident(1.0, words=ANSWER_WORD_SHARE - 0.01)


def test_an_answer_whose_words_are_in_many_sentences_is_not_confident() -> None:
    cited = ["The lighthouse has a red lamp. It was painted in spring."]
    retrieved = [*cited, "The lighthouse stands on a rock.", "The lighthouse keeper lives below."]
    judged = confidence(
        "Who opened the lighthouse?", "The lighthouse has a red lamp.", cited, retrieved, weight
    )
    assert judged.support == 0.5 and judged.ties == 2 and not judged.confident


def test_a_short_question_whose_passages_hold_one_word_of_three_is_declined() -> None:
    question = "How much does parking cost at the harbour?"
    cited = ["Tickets cost 15 euros and include a drink."]
    why = declines(turn(question), cited)
    assert why is not None and f"DECLINE_WORD_SHARE {DECLINE_WORD_SHARE:.2f}" in why
    assert "'parking'" in why and "'harbour'" in why
    # the heavy word alone gives it support above the other bar
    table = weights(question, weight)
    assert word_share(table, cited) < DECLINE_WORD_SHARE
    assert declines(turn(question), ["Harbour tickets cost 15 euros."]) is None


def test_the_support_decline_still_names_its_own_bar() -> None:
    why = declines(turn("Who opened the lighthouse?"), ["The harbour has two piers."])
    assert why is not None and f"DECLINE_SUPPORT {DECLINE_SUPPORT:.2f}" in why

"""The answer must be singled out and on the question to be confident, and a short question
whose passages hold few of its words is declined: `word_share`, `rivals`' ties, `is_confident`'s
ties and words, and `declines`' word share (`is_declined`). Made-up passages only."""

from __future__ import annotations

from graph.models.confidence import (
    ANSWER_WORD_SHARE,
    RIVAL_TIES,
    SUPPORT_BAR,
    confidence,
    is_confident,
    rivals,
)
from graph.models.offline.declines import declines, is_declined
from graph.models.offline.tuning.declining import (
    DECLINE_SUPPORT,
    DECLINE_WORD_SHARE,
    FULL_BAR_WORDS,
    LONGER_DECLINE_SUPPORT,
    MEDIUM_DECLINE_SUPPORT,
    MEDIUM_QUESTION_WORDS,
    SHORT_QUESTION_WORDS,
)
from graph.models.support import covered, question_terms, support_weights, weights, word_share

WEIGHTS = {"luggage": 1.0, "fee": 5.0, "ferry": 1.0, "opened": 1.0, "lighthouse": 1.0}
"""Made-up idf: "fee" is the rare word of its question."""

QUESTION = "What is the luggage fee on the ferry?"
"""A made-up short question of three meaningful words, one of them heavy."""


def weight(term: str) -> float:
    """The made-up idf of `term` (1.0 for a word not listed)."""
    return WEIGHTS.get(term, 1.0)


def declined(question: str, cited: list[str]) -> str | None:
    """`declines` as the `answer` rule calls it: on the question's support table."""
    table = support_weights(question, weight)
    return declines(question, table, cited, covered(table, cited))


def test_word_share_counts_the_words_held_not_their_weight() -> None:
    table = weights(QUESTION, weight)
    assert word_share(table, ["The fee is 15 euros."]) == 1 / 3
    assert word_share(table, ["Luggage on the ferry has a fee of 3 euros."]) == 1.0
    assert word_share(table, []) == 0.0 and word_share({}, ["anything"]) == 0.0


def test_rival_ties_count_the_distinct_other_sentences_covering_as_much() -> None:
    table = weights("Who opened the lighthouse?", weight)
    answer = "The lighthouse has a red lamp."
    retrieved = [
        f"{answer} The lighthouse stands on a rock.",
        "The lighthouse stands on a rock. The lighthouse keeper lives below it.",
        "The harbour has two piers.",
    ]
    # two distinct other sentences hold "lighthouse", as the answer does; the repeat counts once
    assert rivals(table, answer, [answer], retrieved, 0.5) == (0.5, 2)
    assert rivals(table, answer, [answer], retrieved, 0.6) == (0.5, 0)


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
    cited = ["The fee is 15 euros and includes a drink."]
    why = declined(QUESTION, cited)
    assert why is not None and f"DECLINE_WORD_SHARE {DECLINE_WORD_SHARE:.2f}" in why
    assert "'luggage'" in why and "'ferry'" in why
    # the heavy word alone gives it support above the other bar
    table = weights(QUESTION, weight)
    assert covered(table, cited) >= DECLINE_SUPPORT
    assert word_share(table, cited) < DECLINE_WORD_SHARE
    assert declined(QUESTION, ["Ferry tickets have a fee of 15 euros."]) is None


def test_the_support_decline_still_names_its_own_bar() -> None:
    why = declined("Who opened the lighthouse?", ["The harbour has two piers."])
    assert why is not None and f"DECLINE_SUPPORT {DECLINE_SUPPORT:.2f}" in why


def test_only_a_short_question_is_declined_and_on_either_bar() -> None:
    assert is_declined(3, 0.7, 1 / 3, 8, 0.51, 0.4)  # few words held
    assert is_declined(3, 0.5, 1.0, 8, 0.51, 0.4)  # little support
    assert not is_declined(3, 0.7, 1 / 3, 8, 0.51, 0.3)
    assert not is_declined(9, 0.1, 0.0, 8, 0.51, 0.4)  # a long question is answered


def test_a_longer_short_question_is_held_to_the_lower_support_bar() -> None:
    """Eight words spent on a case: a passage answering it in its own words may lack more."""
    longer = "Which zorvat glaze keeps Varn kiln shelves from cracking overnight?"
    shorter = "Which zorvat glaze keeps kiln shelves cool?"
    assert FULL_BAR_WORDS < len(question_terms(longer)) <= SHORT_QUESTION_WORDS
    assert len(question_terms(shorter)) <= FULL_BAR_WORDS
    cited = ["A zorvat glaze coats the Varn shelves."]
    for question in (longer, shorter):
        table = support_weights(question, weight)
        value = covered(table, cited)
        assert LONGER_DECLINE_SUPPORT <= value < DECLINE_SUPPORT, (question, value)
    assert declined(longer, cited) is None
    why = declined(shorter, cited)
    assert why is not None and f"< DECLINE_SUPPORT {DECLINE_SUPPORT:.2f}" in why
    table = support_weights(longer, weight)
    bare = ["Varn shelves are stacked by hand."]
    assert covered(table, bare) < LONGER_DECLINE_SUPPORT
    why = declined(longer, bare)
    assert why is not None and f"< LONGER_DECLINE_SUPPORT {LONGER_DECLINE_SUPPORT:.2f}" in why


def test_a_question_of_a_few_more_words_is_declined_only_on_thin_support() -> None:
    """Nine to eleven words still name what is asked; a case told at length is answered."""
    medium = "Which zorvat glaze keeps Varn kiln shelves from cracking when cooled overnight?"
    long = (
        "Our Varn kiln shelves keep cracking overnight after a zorvat glaze firing, the "
        "cooling fan hums and the door seal smells burnt, what is wrong?"
    )
    assert SHORT_QUESTION_WORDS < len(question_terms(medium)) <= MEDIUM_QUESTION_WORDS
    assert len(question_terms(long)) > MEDIUM_QUESTION_WORDS
    thin = ["Varn shelves are stacked by hand."]
    for question in (medium, long):
        table = support_weights(question, weight)
        assert covered(table, thin) < MEDIUM_DECLINE_SUPPORT, question
    why = declined(medium, thin)
    assert why is not None and f"< MEDIUM_DECLINE_SUPPORT {MEDIUM_DECLINE_SUPPORT:.2f}" in why
    assert "'zorvat'" in why
    assert declined(long, thin) is None
    held = ["A zorvat glaze keeps Varn kiln shelves from cracking: cool them overnight."]
    assert covered(support_weights(medium, weight), held) >= MEDIUM_DECLINE_SUPPORT
    assert declined(medium, held) is None

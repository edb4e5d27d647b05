"""A short question is declined only when its cited passages lack a word that is not common in
general text (`declines.rarest_missing`, `DECLINE_RARE_WORD`): lacking "take place" is how
passages say the same in other words, lacking "refund" is a question about something else.
Made-up passages only."""

from __future__ import annotations

from made_up import flat

from graph.models.offline.declines import declines, is_declined, rarest_missing
from graph.models.offline.tuning.declining import (
    DECLINE_RARE_WORD,
    DECLINE_SUPPORT,
    DECLINE_WORD_SHARE,
)
from graph.models.support import covered, support_weights

FESTIVAL = "The Orla festival ran every summer from 1920 to 1935 on the harbour front."
"""A made-up passage answering "When did the Orla festival take place?" in other words."""


def declined(question: str, cited: list[str]) -> str | None:
    """`declines` as the `answer` rule calls it: on the question's support table."""
    table = support_weights(question, flat)
    return declines(question, table, cited, covered(table, cited))


def test_passages_lacking_only_common_words_answer_the_question() -> None:
    question = "When did the Orla festival take place?"
    table = support_weights(question, flat)
    assert covered(table, [FESTIVAL]) < DECLINE_SUPPORT  # "take" and "place" are not held
    assert rarest_missing(["take", "place"]) < DECLINE_RARE_WORD
    assert declined(question, [FESTIVAL]) is None


def test_passages_lacking_a_rare_word_decline_it_and_the_thought_names_its_rarity() -> None:
    why = declined("What is the Orla festival refund window?", [FESTIVAL])
    assert why is not None and "'refund'" in why and "DECLINE_RARE_WORD" in why
    assert rarest_missing(["refund"]) >= DECLINE_RARE_WORD
    assert rarest_missing([]) == 1.0  # nothing lacking excuses nothing


def test_is_declined_needs_a_rare_word_lacking() -> None:
    bars = (8, DECLINE_SUPPORT, DECLINE_WORD_SHARE)
    assert is_declined(4, 0.5, 0.5, *bars, 0.9, DECLINE_RARE_WORD)
    assert not is_declined(4, 0.5, 0.5, *bars, 0.4, DECLINE_RARE_WORD)
    assert is_declined(4, 0.5, 0.5, *bars)  # without a rarity bar, support alone decides

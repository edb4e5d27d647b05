"""An answer opening with "this", "it" or "they" carries the sentence it points back at.

Made-up passages only: the sentence before is shown (`answering.antecedent`), counted as the
answer's source by the confidence measure, and not taken for the statement where a decline
asks what the answer states.
"""

from __future__ import annotations

from typing import Any

import pytest
from made_up import ask, flat

from graph.models.confidence import source_sentences
from graph.models.offline import rules
from graph.models.offline.answering import compose_answer
from graph.models.offline.scoring import Scorer

KETTLES = {
    "id": "k1",
    "text": "Kettles are sold with a lid. You can boil water without a filter by pouring it "
    "through the spout. This is a reasonable default for the Quillon kettle if you are not "
    "sure which filter to buy. The lid is sold apart.",
    "score": 2.0,
}


def scorer(question: str) -> Scorer:
    return Scorer(question, None, flat, question, set(), question)


def test_a_sentence_pointing_back_is_shown_with_the_sentence_it_points_at() -> None:
    question = "Which filter is a reasonable default for the Quillon kettle?"
    answer = compose_answer(scorer(question), [KETTLES])
    assert answer is not None
    assert answer.sentences == [
        "You can boil water without a filter by pouring it through the spout.",
        "This is a reasonable default for the Quillon kettle if you are not sure which "
        "filter to buy.",
    ]
    assert answer.context == 1 and answer.citations == ["k1"]


def test_a_sentence_standing_on_its_own_carries_nothing_before_it() -> None:
    answer = compose_answer(scorer("How do I boil water without a filter?"), [KETTLES])
    assert answer is not None and answer.sentences == [
        "You can boil water without a filter by pouring it through the spout."
    ]
    assert answer.context == 0


def test_an_answer_quoting_two_adjacent_sentences_has_them_as_its_source() -> None:
    cited = ["Greda Foods is the largest baker in Ostrava. It is based in Lenno, on the coast."]
    said = "Greda Foods is the largest baker in Ostrava. It is based in Lenno, on the coast."
    assert source_sentences(said, cited) == [
        "Greda Foods is the largest baker in Ostrava.",
        "It is based in Lenno, on the coast.",
    ]
    assert source_sentences("Lenno, on the coast", cited)[-1] == (
        "It is based in Lenno, on the coast."
    )


def test_a_decline_reads_the_statement_not_the_sentence_it_points_back_at(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The decline checks (a "how much" answer stating no quantity) see the statement alone:
    the number of the sentence "This" points back at is no quantity the answer states."""
    seen: list[str | None] = []

    def spy(*args: Any, **kwargs: Any) -> str | None:
        seen.append(args[5] if len(args) > 5 else kwargs.get("answer"))
        return None

    monkeypatch.setattr(rules, "declines", spy)
    state = ask(
        "How much quieter is the Quillon kettle on a gas hob?",
        {
            "k1": "Two felt pads line the lid. This makes the Quillon kettle quieter on a gas hob.",
            "k2": "The Ferro kettle is sold in three colours.",
            "k3": "Gas hobs heat quickly.",
        },
    )
    assert state["answer"].startswith("Two felt pads line the lid.")  # shown with it
    assert seen == ["This makes the Quillon kettle quieter on a gas hob."]

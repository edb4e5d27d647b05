"""`grounded`: the share of an answer's content words its cited passages hold, in every run's
result and trace; an uncited answer to a question the corpora could answer is ungrounded."""

from __future__ import annotations

from typing import Any

import pytest

from corpora import Corpus, Passage
from graph.agent.budget import run_config
from graph.agent.context import Context
from graph.agent.graph import build_agent
from graph.agent.grounding import groundedness
from graph.app.render_trace import render_result
from graph.models.scripted import ScriptedModel
from tools.finish import finish
from tools.search import make_search_tool

KETTLES = Corpus(
    name="shop",
    passages=(
        Passage(id="k1", text="The Quillon kettle has a 2-year warranty."),
        Passage(id="k2", text="The Marlow fan has three speeds and a timer."),
        Passage(id="k3", text="Orders over 50 euros ship free within the EU."),
    ),
)


@pytest.mark.parametrize(
    ("answer", "texts", "expected"),
    [
        (
            "The Quillon kettle has a 2-year warranty.",
            ["The Quillon kettle has a 2-year warranty."],
            1.0,
        ),
        # content words: quillon, kettle, lifetime, warranty -> 3 of 4 in the passage
        ("The Quillon kettle has a lifetime warranty", ["Quillon kettles: 2-year warranty."], 0.75),
        ("Lifetime cover", ["The Quillon kettle has a 2-year warranty."], 0.0),
        ("The Quillon kettle has a 2-year warranty.", [], 0.0),  # cites nothing
        (None, ["The Quillon kettle has a 2-year warranty."], 0.0),
        ("", ["The Quillon kettle has a 2-year warranty."], 0.0),
        ("no", ["The fan has no timer."], 1.0),  # no content words, but cited
        ("Yes.", ["The fan has a timer."], 1.0),  # a verdict on what is cited
    ],
)
def test_groundedness_by_hand(answer: str | None, texts: list[str], expected: float) -> None:
    assert groundedness(answer, texts) == pytest.approx(expected)


def run(turns: list[dict[str, Any]], question: str) -> dict[str, Any]:
    """A scripted model over the made-up shop corpus; returns the final state."""
    agent = build_agent(model=ScriptedModel(turns=turns), tools=[make_search_tool(KETTLES), finish])
    return agent.invoke({"question": question}, run_config(6), context=Context())


def test_a_cited_answer_saying_what_the_passage_does_not_is_partly_grounded() -> None:
    state = run(
        [
            {
                "thought": "look",
                "tool": "search_shop",
                "args": {"query": "Quillon kettle warranty"},
            },
            {
                "thought": "done",
                "tool": "finish",
                "args": {"answer": "Quillon kettle: lifetime warranty", "citations": ["k1"]},
            },
        ],
        "What warranty does the Quillon kettle have?",
    )
    assert state["citations"] == ["k1"]
    assert state["grounded"] == pytest.approx(3 / 4) and state["ungrounded"] is False
    lines = render_result(state, [])
    assert any(line.startswith("  GROUNDED: 0.75") for line in lines)


def test_an_uncited_answer_the_corpora_could_back_is_marked_ungrounded() -> None:
    state = run(
        [{"thought": "I know", "tool": "finish", "args": {"answer": "It has a 10-year warranty."}}],
        "What warranty does the Quillon kettle have?",
    )
    assert state["grounded"] == 0.0 and state["ungrounded"] is True
    assert any("UNGROUNDED" in line for line in render_result(state, []))


def test_an_uncited_answer_nothing_in_the_corpora_covers_is_not_flagged() -> None:
    state = run(
        [{"thought": "chat", "tool": "finish", "args": {"answer": "Hello there."}}],
        "How are you feeling today?",
    )
    assert state["grounded"] == 0.0 and state["ungrounded"] is False
    assert not any("GROUNDED" in line for line in render_result(state, []))

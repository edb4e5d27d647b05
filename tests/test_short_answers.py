"""The answer's form follows the question: a short name, number, date, yes/no or option when
one is asked for (the supporting sentence kept in the thought and citations), a sentence for an
explanation, and the sentence chosen is the one that answers. Made-up passages only."""

from __future__ import annotations

from typing import Any

import pytest
from langchain_core.messages import AIMessage

from corpora import Corpus, Passage
from graph.agent.budget import run_config
from graph.agent.context import Context
from graph.agent.graph import build_agent
from graph.app.render_trace import model_steps
from graph.models.offline.reading import answer_type
from graph.models.offline.short_answers import choice_options, number_in, question_form
from tools.finish import finish
from tools.search import make_search_tool

PASSAGES = {
    "v1": "Ida Marr (born 1931) was a Velish painter. She lived in Tessaly.",
    "v2": "Tomas Quell (born 1958) was a Velish sculptor.",
    "v3": "The Lantern Bridge was designed by Ida Marr. It spans the river Oss.",
    "v4": "Standard delivery takes 3 to 5 days. Same-day delivery costs 12 euros.",
    "v5": "Staff at Vantor get parental leave of 16 weeks at full pay.",
    "v6": "The Oss floods each spring because snow melts in the Harl mountains.",
    "v7": "Brightwell is a Velish kettle brand. Quorra is a Danish kettle brand.",
    "v8": "Pellan is a Velish bakery chain.",
}


def run(question: str) -> tuple[dict[str, Any], list[AIMessage]]:
    """The policy over the made-up corpus; the final state and its AI messages."""
    corpus = Corpus(name="vel", passages=tuple(Passage(id=i, text=t) for i, t in PASSAGES.items()))
    graph = build_agent(tools=[make_search_tool(corpus), finish])
    *_, state = graph.stream(
        {"question": question}, run_config(6), context=Context(), stream_mode="values"
    )
    return state, [m for m in state["messages"] if isinstance(m, AIMessage)]


@pytest.mark.parametrize(
    ("question", "form"),
    [
        ("Who designed the Lantern Bridge?", "name"),
        ("The Lantern Bridge spans what river?", "name"),
        ("How long is parental leave at Vantor?", "number"),
        ("When was Tomas Quell born?", "number"),
        ("Are both Brightwell and Pellan Velish?", "yesno"),
        ("Who is older, Ida Marr or Tomas Quell?", "choice"),
        ("who was born first Ida Marr or Tomas Quell ?", "choice"),
        ("Why does the Oss flood each spring?", "sentence"),
        ("what's our refund window?", "sentence"),
    ],
)
def test_the_form_of_answer_the_question_asks_for(question: str, form: str) -> None:
    assert question_form(question, answer_type(question)) == form


def test_the_two_options_of_a_choice_question() -> None:
    assert choice_options("Who is older, Ida Marr or Tomas Quell?") == ("Ida Marr", "Tomas Quell")
    assert choice_options("who was born first Ida Marr or Tomas Quell ?") == (
        "Ida Marr",
        "Tomas Quell",
    )


@pytest.mark.parametrize(
    ("question", "answer", "cited"),
    [
        ("Who designed the Lantern Bridge?", "Ida Marr", "v3"),
        ("How long is parental leave at Vantor?", "16 weeks", "v5"),
        ("How long does standard delivery take?", "3 to 5 days", "v4"),
        ("When was Tomas Quell born?", "1958", "v2"),
        ("Who is older, Ida Marr or Tomas Quell?", "Ida Marr", None),
        ("Who is younger, Ida Marr or Tomas Quell?", "Tomas Quell", None),
        ("Are both Brightwell and Quorra kettle brands?", "yes", None),
        ("Are both Quorra and Pellan kettle brands?", "no", None),
    ],
)
def test_short_answers_keep_the_supporting_sentence_in_the_trace(
    question: str, answer: str, cited: str | None
) -> None:
    state, messages = run(question)
    assert state["answer"] == answer
    assert state["citations"] and (cited is None or cited in state["citations"])
    finish_step = model_steps(messages)[-1]  # the transcript then closes on the answer message
    assert "supporting sentence" in str(finish_step.content)  # the sentence stays in the trace


def test_an_explanation_keeps_the_whole_sentence() -> None:
    state, _ = run("Why does the Oss flood each spring?")
    assert state["answer"] == "The Oss floods each spring because snow melts in the Harl mountains."
    assert state["citations"] == ["v6"]


def test_the_sentence_that_answers_is_chosen_not_the_first_of_the_passage() -> None:
    state, _ = run("what does same-day delivery cost?")
    assert "12 euros" in state["answer"] and "Standard delivery" not in state["answer"]
    assert state["citations"] == ["v4"]


@pytest.mark.parametrize(
    ("sentence", "question", "answer"),
    [
        (
            "The Orrin kettle comes with a two-year guarantee.",
            "How long is the guarantee?",
            "two-year",
        ),
        (
            "Every Tallis plan starts with a 30-day trial period.",
            "How long is the trial?",
            "30-day",
        ),
        (
            "The Orrin kettle has a two-year limited guarantee.",
            "What guarantee has it?",
            "two-year",
        ),
        ("Tallis trials last 30 days.", "How long are Tallis trials?", "30 days"),
    ],
)
def test_a_number_joined_to_its_unit_by_a_hyphen_keeps_the_unit(
    sentence: str, question: str, answer: str
) -> None:
    assert number_in(sentence, question) == answer

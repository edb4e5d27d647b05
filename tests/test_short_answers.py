"""The answer is the sentence that answers; the short answer is set only when the question asks
for a kind and that sentence holds exactly one candidate of it. Made-up passages only."""

from __future__ import annotations

from typing import Any

import pytest
from langchain_core.messages import AIMessage

from corpora import Corpus, Passage
from graph.agent.budget import run_config
from graph.agent.context import Context
from graph.agent.graph import build_agent
from graph.models.offline.short_answers import choice_options
from graph.models.offline.short_numbers import frequencies, quantities
from tools.finish import finish
from tools.search import make_search_tool

PASSAGES = {
    "s1": "The cooling loop is flushed every night. It must stay below 40 degrees Celsius.",
    "s2": "Servers at the Dunmore site are cooled by chillers from Frostline.",
    "s3": "Guided tours run every Saturday at 14:00 from the north gate.",
    "s4": "The Harbour shop opens at 9am on weekdays.",
    "s5": "Standard shipping takes 3 to 5 business days. Express shipping arrives the next day.",
    "s6": "The Rowan team is led by Mira Casel and sits in the Oslo office.",
    "s7": "Windows is not supported by the Tern client. Linux is supported on every release.",
    "s8": "Please ask Dana Holt to approve refunds over 200 euros.",
    "s9": "Parental leave at Vantor lasts 16 weeks at full pay.",
    "s10": "The Lantern Bridge was designed by Ida Marr in 1931.",
    "s11": "The Oss floods each spring because snow melts in the Harl mountains.",
    "s12": "The museum cafe serves soup and bread.",
    "s13": "Bicycles can be parked behind the library.",
    "s14": "The annual report is printed on recycled paper.",
    "s15": "The Tern client is free for open source projects.",
}


def run(question: str) -> tuple[dict[str, Any], list[AIMessage]]:
    """The policy over the made-up corpus; the final state and its AI messages."""
    corpus = Corpus(name="town", passages=tuple(Passage(id=i, text=t) for i, t in PASSAGES.items()))
    graph = build_agent(tools=[make_search_tool(corpus), finish])
    *_, state = graph.stream(
        {"question": question}, run_config(6), context=Context(), stream_mode="values"
    )
    return state, [m for m in state["messages"] if isinstance(m, AIMessage)]


@pytest.mark.parametrize(
    ("question", "short", "cited"),
    [
        ("How often is the cooling loop flushed?", "every night", "s1"),  # not the temperature
        ("Below what temperature must the cooling loop stay?", "40 degrees", "s1"),
        ("When does the Harbour shop open?", "9am", "s4"),  # not a bare 9
        ("What office does the Rowan team sit in?", "Oslo", "s6"),  # a place, not the lead
        ("Who leads the Rowan team?", "Mira Casel", "s6"),
        ("Who approves refunds over 200 euros?", "Dana Holt", "s8"),  # never "Please"
        ("How long is parental leave at Vantor?", "16 weeks", "s9"),
        ("Is Windows supported by the Tern client?", "no", "s7"),  # negation is read
        ("Who designed the Lantern Bridge?", "Ida Marr", "s10"),
        ("In what year was the Lantern Bridge designed?", "1931", "s10"),
    ],
)
def test_a_short_answer_of_the_kind_asked_for(question: str, short: str, cited: str) -> None:
    state, _ = run(question)
    assert state["short_answer"] == short
    assert short.lower() in state["answer"].lower() or short in ("yes", "no")
    assert state["citations"] == [cited] and state["confident"] is True


@pytest.mark.parametrize(
    ("question", "holds", "cited"),
    [
        ("What cools the servers at the Dunmore site?", "chillers from Frostline", "s2"),
        ("Why does the Oss flood each spring?", "snow melts", "s11"),
        ("How does express shipping arrive?", "Express shipping arrives the next day", "s5"),
    ],
)
def test_no_kind_asked_keeps_the_sentence_alone(question: str, holds: str, cited: str) -> None:
    state, _ = run(question)
    assert state["short_answer"] is None and holds in state["answer"]
    assert state["citations"] == [cited]


def test_two_candidates_of_the_kind_give_no_short_answer() -> None:
    """Saturday and 14:00 are both times: the sentence answers, no span is picked."""
    state, _ = run("When do guided tours run?")
    assert state["short_answer"] is None
    assert state["answer"] == PASSAGES["s3"] and state["citations"] == ["s3"]


def test_the_sentence_of_the_option_asked_about_is_chosen() -> None:
    state, _ = run("How long does standard shipping take?")
    assert state["answer"].startswith("Standard shipping takes 3 to 5 business days")
    assert state["short_answer"] == "3 to 5 business days"


def test_no_yes_is_said_of_a_case_the_passages_never_name() -> None:
    state, _ = run("Is the Tern client free for open source projects?")
    assert state["citations"] == ["s15"] and state["short_answer"] == "yes"
    state, _ = run("Is the Tern client free for commercial projects?")  # no passage says it
    assert state["short_answer"] is None


def test_a_question_the_passages_do_not_cover_is_declined() -> None:
    state, messages = run("Who designed the Harbour shop windows?")
    assert state["stopped"] == "no_answer" and state["answer"] is None
    assert "support" in str(messages[-2].content) and "DECLINE_SUPPORT" in str(messages[-2].content)


def test_the_two_options_of_a_choice_question() -> None:
    assert choice_options("Who is older, Ida Marr or Tomas Quell?") == ("Ida Marr", "Tomas Quell")
    assert choice_options("Which is faster: standard or express?") == ("standard", "express")
    assert choice_options("What is the refund window?") is None


@pytest.mark.parametrize(
    ("kind", "sentence", "question", "found"),
    [
        (
            "duration",
            "The Orrin kettle comes with a two-year guarantee.",
            "How long?",
            ["two-year"],
        ),
        ("duration", "Tallis trials last 30 days.", "How long are trials?", ["30 days"]),
        ("duration", "It runs at 40 degrees for 2 hours.", "How long?", ["2 hours"]),
        (
            "duration",
            "The Orrin launch was pushed back to a month after the fair.",
            "How long was the launch delayed?",
            ["a month"],
        ),  # an article before a unit of time counts one
        ("number", "A month later, 300 seats were added.", "How many seats?", ["300 seats"]),
        ("duration", "A guide leads an old tour.", "How long?", []),  # no unit of time: none
        (
            "duration",
            "Refunds reach the card within five working days.",
            "How long do refunds take?",
            ["five working days"],
        ),  # a word before a unit of time joins it
        ("duration", "Orrin ships in a working day.", "How long?", ["a working day"]),
        ("duration", "The Orrin fair lasted a rainy day.", "How long?", []),  # no qualifier
        ("number", "It was built in 1931 with 300 seats.", "How many seats?", ["300 seats"]),
        ("number", "Set it to 40 °C.", "How many fans?", []),  # a temperature is no count
        (
            "temperature",
            "It stops below 40 degrees Celsius.",
            "Below what temperature?",
            ["40 degrees"],
        ),
    ],
)
def test_numbers_keep_their_unit_and_their_quantity(
    kind: str, sentence: str, question: str, found: list[str]
) -> None:
    assert quantities(kind, sentence, set(), question) == found


@pytest.mark.parametrize(
    ("sentence", "found"),
    [
        ("Descale the Orrin kettle every six weeks.", ["every six weeks"]),
        ("The Orrin filter is swapped every 3 months.", ["every 3 months"]),
        ("The Orrin kettle is serviced twice a year.", ["twice a year"]),
        ("A five minute walk; the Orrin shuttle runs every 20 minutes.", ["every 20 minutes"]),
    ],
)
def test_frequencies_spelled_or_in_digits(sentence: str, found: list[str]) -> None:
    assert frequencies(sentence, set()) == found


def test_hits_without_scores_are_ranked_by_the_policys_own_term_weighting() -> None:
    """A remote search may return its hits unscored and in any order: the same answer wins."""
    from graph.models.offline.answering import compose_answer
    from graph.models.offline.scoring import Scorer

    hits = [
        {"id": f"r{i}", "text": text, "score": 0.0}
        for i, text in enumerate(
            [
                "The museum cafe serves soup and bread.",
                "The Lantern Bridge was designed by Ida Marr in 1931.",
                "Bicycles can be parked behind the library.",
            ]
        )
    ]
    question = "Who designed the Lantern Bridge?"
    scorer = Scorer(question, "person", lambda term: 1.0, question, set())
    forward, backward = compose_answer(scorer, hits), compose_answer(scorer, hits[::-1])
    assert forward is not None and backward is not None
    assert forward.text == backward.text == hits[1]["text"] and forward.citations == ["r1"]

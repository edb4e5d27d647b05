"""`confident` from measurable evidence, for any model's answer, and the offline policy's
declines: a covered question is answered confident, an off-corpus one declined, an answer the
passages cover only in part is kept but not confident, and a real (scripted) model's answer whose
own words miss the question is not confident. Made-up passages only."""

from __future__ import annotations

from typing import Any

import pytest

from corpora import Corpus, Passage
from graph.agent.budget import run_config
from graph.agent.context import Context
from graph.agent.graph import build_agent
from graph.agent.grounding import doubt
from graph.app.render_trace import render_result
from graph.common.chat import ANSWER_DOUBT, NOT_CONFIDENT_ANSWER, answer_message
from graph.models.confidence import (
    RIVAL_MARGIN,
    SUPPORT_BAR,
    Confidence,
    answer_coverage,
    confidence,
    doubts,
    is_confident,
    rivals,
    source_sentences,
)
from graph.models.offline.model import PolicyModel
from graph.models.support import missing_words, weights
from tools.finish import finish
from tools.search import make_search_tool

FACTS = {
    "r1": "Refunds are accepted within 30 days; after that the return window closes.",
    "t1": "The terminal window closes when the session ends.",
    "p1": "The Pylon gateway is run by the Harbor team.",
    "p2": "The Harbor team is led by Ines Carvalho and works from the Porto office.",
    "k1": "The Quillon kettle boils a litre in three minutes.",
    "k2": "The Quillon kettle has a steel body and a blue lid.",
    "v1": "The Vega scheduler assigns delivery jobs to robots. It is owned by the Kestrel team.",
}
FILLER = [
    f"Shelf {n} in aisle {n % 7} holds {word} boxes stacked by colour."
    for n, word in enumerate(("paper", "cable", "glue", "tape", "ink", "chalk", "twine") * 15)
]
"""Made-up filler: with over a hundred passages a word no passage holds weighs in full."""
STORE = Corpus(
    name="store",
    passages=(
        *(Passage(id=key, text=text) for key, text in FACTS.items()),
        *(Passage(id=f"f{n}", text=text) for n, text in enumerate(FILLER)),
    ),
)


def flat(question: str) -> dict[str, float]:
    """Every meaningful word of `question` weighing 1."""
    return weights(question, lambda term: 1.0)


def run(question: str, turns: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    """The final state of a run over the made-up store: the offline policy, or a script."""
    from graph.models.scripted import ScriptedModel

    model = PolicyModel() if turns is None else ScriptedModel(turns=turns)
    agent = build_agent(model=model, tools=[make_search_tool(STORE), finish])
    return agent.invoke({"question": question}, run_config(6), context=Context())


def search(query: str) -> dict[str, Any]:
    return {"thought": "look", "tool": "search_store", "args": {"query": query}}


def answer(text: str, cited: list[str]) -> dict[str, Any]:
    return {"thought": "done", "tool": "finish", "args": {"answer": text, "citations": cited}}


def test_the_source_is_the_cited_sentence_holding_most_of_the_answer_and_the_one_before() -> None:
    cited = [FACTS["r1"] + " Store credit never expires."]
    assert source_sentences("30 days", cited) == [FACTS["r1"]]
    assert source_sentences("Store credit never runs out.", cited) == [
        FACTS["r1"],  # where a pronoun of the source would point
        "Store credit never expires.",
    ]
    assert source_sentences("Gift cards last forever.", cited) == []  # no cited sentence says it
    assert source_sentences("Yes.", cited) == []  # no content word to look for


def test_answer_coverage_counts_the_source_sentence_and_a_chain_it_names() -> None:
    question = "Who leads the team that runs the Pylon gateway?"
    table = flat(question)
    cited = [FACTS["p1"], FACTS["p2"]]
    said = "Ines Carvalho leads the Harbor team."
    source = source_sentences(said, cited)
    assert source == [FACTS["p2"]]
    # the answer's words hold leads and team; p1 names "Harbor" (new to the question): the chain
    assert answer_coverage(table, said, cited, source) == pytest.approx(1.0)
    unlinked = answer_coverage(table, "Ines Carvalho leads it.", [FACTS["p1"]], [])
    assert unlinked == pytest.approx(1 / 5)  # p1 names nothing of this answer: only "leads"


def test_the_best_rival_is_the_best_retrieved_sentence_the_answer_does_not_use() -> None:
    question = "How long does the Quillon kettle take to boil a litre?"
    table = flat(question)
    retrieved = [FACTS["k1"], FACTS["k2"]]
    # long, quillon, kettle, take, boil, litre: k1 holds four, k2 two
    assert rivals(table, FACTS["k1"], [FACTS["k1"]], retrieved, 1.0)[0] == pytest.approx(2 / 6)
    assert rivals(table, FACTS["k2"], [FACTS["k2"]], retrieved, 1.0)[0] == pytest.approx(4 / 6)
    assert rivals(table, "anything", [], [], 0.5) == (0.0, 0)


def test_is_confident_needs_the_bar_and_no_rival_clearly_ahead() -> None:
    assert is_confident(SUPPORT_BAR, 0.5, 0.5 + RIVAL_MARGIN / 2)
    assert not is_confident(SUPPORT_BAR, 0.5, 0.5 + RIVAL_MARGIN * 2)
    assert not is_confident(SUPPORT_BAR - 0.01, 1.0, 0.0)
    judged = confidence(
        "How long does the Quillon kettle take to boil a litre?",
        FACTS["k2"],
        [FACTS["k2"]],
        [FACTS["k1"], FACTS["k2"]],
        lambda term: 1.0,
    )
    assert judged.support < judged.rival and not judged.confident


def test_missing_words_are_the_question_words_no_passage_holds_heaviest_first() -> None:
    idf = {"refund": 3.0, "window": 1.0, "policy": 2.0}
    question = "What's our refund window policy?"
    table = weights(question, lambda t: idf[t])
    assert missing_words(table, [FACTS["t1"]]) == ["refund", "policy"]
    assert missing_words(table, [FACTS["r1"] + " The policy"]) == []


def test_a_covered_question_is_answered_confident() -> None:
    state = run("How long does the Quillon kettle take to boil a litre?")
    assert state["stopped"] == "answer" and state["citations"] == ["k1"]
    assert state["confident"] is True and state["support"] >= SUPPORT_BAR


def test_an_off_corpus_question_is_declined() -> None:
    state = run("Which GPU does the Pylon gateway need for video encoding?")
    assert state["stopped"] == "no_answer" and state["answer"] is None
    assert state["confident"] is False
    assert str(state["messages"][-1].content).startswith("No answer:")


def test_a_long_question_its_passages_cover_in_part_is_answered_not_confident() -> None:
    """A case told in the asker's words (nine of them): the passages hold few, and answer."""
    question = "My Quillon kettle at the Porto office rattles every single morning before it boils"
    state = run(question)
    assert state["stopped"] == "answer" and state["citations"]
    assert state["support"] < SUPPORT_BAR and state["confident"] is False
    said = state["doubts"][0]
    assert said.startswith("the cited passages cover ") and said.endswith(", under the 60% bar")
    assert f"(not confident: {said}" in str(state["messages"][-1].content)
    assert any(f"(NOT CONFIDENT: {said}" in line for line in render_result(state, []))


def test_a_real_models_answer_whose_own_words_miss_the_question_is_not_confident() -> None:
    question = "What's the refund window?"
    state = run(question, [search("refund window"), answer("Returns are simple.", ["r1"])])
    assert state["support"] == pytest.approx(1.0)  # its citation covers the question ...
    assert state["confident"] is False  # ... but the answer does not say what r1 says
    said = "another retrieved sentence covers 100% of the question, the answer 0%"
    assert (
        said in state["doubts"] and "the answer holds 0% of the question's words" in state["doubts"]
    )
    assert f"(not confident: {said}; " in str(state["messages"][-1].content)
    assert any(said in line for line in render_result(state, []))


def test_a_result_stored_before_doubts_were_kept_still_says_why_it_is_in_doubt() -> None:
    """A checkpoint written before ``doubts`` existed is replayed with the older, general words."""
    state = run(
        "What's the refund window?",
        [search("refund window"), answer("Returns are simple.", ["r1"])],
    )
    del state["doubts"]
    assert any(ANSWER_DOUBT in line for line in render_result(state, []))
    assert NOT_CONFIDENT_ANSWER in str(answer_message({**state, "doubt": doubt(state)}).content)


def test_a_real_models_short_answer_drawn_from_its_citation_is_confident() -> None:
    state = run("What's the refund window?", [search("refund window"), answer("30 days", ["r1"])])
    assert state["confident"] is True


def test_a_short_answer_from_a_sentence_naming_its_subject_by_a_pronoun_is_confident() -> None:
    """ "It is owned by the Kestrel team.": the sentence before it names the Vega scheduler."""
    turns = [search("Vega scheduler owner"), answer("The Kestrel team", ["v1"])]
    state = run("Who owns the Vega scheduler?", turns)
    assert state["support"] == pytest.approx(1.0) and state["confident"] is True


def short(text: str, short_answer: str, cited: list[str]) -> dict[str, Any]:
    args = {"answer": text, "short_answer": short_answer, "citations": cited}
    return {"thought": "done", "tool": "finish", "args": args}


def test_a_short_answer_is_kept_only_when_the_answer_is_confident() -> None:
    """Issue 19: a short answer only when sure. The sentence stays; the short answer goes."""
    sure = run(
        "What's the refund window?",
        [search("refund window"), short("Refunds are accepted within 30 days.", "30 days", ["r1"])],
    )
    assert sure["confident"] is True and sure["short_answer"] == "30 days"
    unsure = run(
        "What's the refund window?",
        [search("refund window"), short("Returns are simple.", "30 days", ["r1"])],
    )
    assert unsure["confident"] is False and unsure["stopped"] == "answer"
    assert unsure["answer"] == "Returns are simple." and unsure["short_answer"] is None
    assert not any("SHORT ANSWER" in line for line in render_result(unsure, []))


def test_doubts_name_each_failed_check_with_its_figures_and_none_when_confident() -> None:
    assert doubts(Confidence(support=0.9, answer=0.8, rival=0.5)) == []
    assert doubts(Confidence(support=0.9, answer=0.8, rival=0.5, counted=False, named=False)) == [
        "it states no quantity, version or default where one is asked",
        "it names no one where the question asks who",
    ]
    assert doubts(Confidence(support=0.9, answer=0.8, rival=0.5, called=False)) == [
        "it names no thing where the question asks which one"
    ]
    assert doubts(Confidence(support=0.9, answer=0.8, rival=0.5, ties=3)) == [
        "3 other retrieved sentences cover as much of the question"
    ]

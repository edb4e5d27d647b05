"""`support`, `confident` and the decline: every run's result says how much of the question its
citations cover, a finish call without an answer declines, and an uncited answer is checked
against the corpora with the search tool's own analyzer. Made-up passages and the scripted
model only (no policy wording)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from corpora import Corpus, Passage
from graph.agent.budget import run_config
from graph.agent.context import Context
from graph.agent.graph import build_agent
from graph.agent.grounding import corpora_hold
from graph.app.render_trace import render_result
from graph.models.confidence import SUPPORT_BAR
from graph.models.scripted import ScriptedModel
from graph.models.support import missing_words, support, weights
from graph.models.tool_weight import tool_weight
from tests.cli_helpers import run_cli
from tools.calculator import calculator
from tools.finish import finish
from tools.search import make_search_tool

DOCS = Corpus(
    name="docs",
    passages=(
        Passage(
            id="r1",
            text="Refunds are accepted within 30 days; after that the return window closes.",
        ),
        Passage(id="t1", text="The terminal window closes when the session ends."),
        Passage(id="t2", text="Sessions end after ten idle minutes."),
        Passage(id="t3", text="Themes change the colours of the prompt."),
        Passage(id="t4", text="Plugins load from the user folder at start."),
        Passage(id="t5", text="Logs rotate every night at midnight."),
        Passage(id="t6", text="Keyboard shortcuts are listed in the help page."),
    ),
)
QUESTION = "What's our refund window?"


def run(turns: list[dict[str, Any]], question: str = QUESTION) -> dict[str, Any]:
    """The final state of a scripted run over the made-up docs."""
    tools = [make_search_tool(DOCS), calculator, finish]
    agent = build_agent(model=ScriptedModel(turns=turns), tools=tools)
    return agent.invoke({"question": question}, run_config(6), context=Context())


def search(query: str) -> dict[str, Any]:
    return {"thought": "look", "tool": "search_docs", "args": {"query": query}}


def answer(text: str | None, cited: list[str], short: str | None = None) -> dict[str, Any]:
    args: dict[str, Any] = {"answer": text, "citations": cited}
    if short is not None:
        args["short_answer"] = short
    return {"thought": "done", "tool": "finish", "args": args}


def test_support_by_hand_weighs_words_by_idf_and_unknown_words_the_most() -> None:
    idf = {"refund": 2.0, "window": 1.0}.get
    table = weights("What's our refund window policy?", lambda t: idf(t) or 0.0, unseen=1.0)
    # "policy" is in no corpus: it weighs as the rarest indexed word (2.0)
    assert table == {"refund": 2.0, "window": 1.0, "policy": 2.0}
    assert weights("What's our refund window policy?", lambda t: idf(t) or 0.0) == {
        "refund": 2.0,
        "window": 1.0,
    }  # unseen=0: only what a search can find
    passages = ["The terminal window closes."]
    assert support("What's our refund window policy?", passages, lambda t: idf(t) or 0.0) == (
        pytest.approx(1.0 / 5.0)
    )
    assert support("What's our refund window?", [], lambda t: 1.0) == 0.0


def test_according_to_the_docs_is_no_word_a_passage_must_hold() -> None:
    """A passage answering "What is Quill, according to the guide?" never says "according"."""
    question = "What is Quill, according to the guide?"
    assert weights(question, lambda t: 1.0) == {"quill": 1.0, "guide": 1.0}
    held = ["Quill guide: Quill is a message broker."]
    assert support(question, held, lambda t: 1.0) == pytest.approx(1.0)


def test_the_docs_as_the_questions_subject_are_the_corpus_not_a_word_to_hold() -> None:
    """ "Which tool do the docs recommend ...?": the docs are what is searched."""
    question = "Which tool do the docs recommend for cleaning Quill output?"
    assert "docs" not in weights(question, lambda t: 1.0)
    assert "documentation" in weights("Where is the documentation text kept?", lambda t: 1.0)
    held = ["Quill output is cleaned by Scrubber, the recommended tool."]
    assert support(question, held, lambda t: 1.0) == pytest.approx(1.0)


def test_never_is_a_negation_no_passage_must_hold() -> None:
    """A passage answering "... if I never configure it?" says "unless it is configured"."""
    question = "Which sink does Quill use if I never configure it?"
    assert weights(question, lambda t: 1.0) == {
        "sink": 1.0,
        "quill": 1.0,
        "use": 1.0,
        "configure": 1.0,
    }
    held = ["Unless it is configured, Quill will use the console sink."]
    assert support(question, held, lambda t: 1.0) == pytest.approx(1.0)


def test_support_reads_the_question_as_the_search_does() -> None:
    """ "refund" is not indexed, "refunds" is: it weighs as the word the search expands it to."""
    weight = tool_weight([make_search_tool(DOCS)])
    assert weight("refund") == pytest.approx(weight("refunds")) and weight("refund") > 0
    assert support(QUESTION, [DOCS.get("r1").text], weight) == pytest.approx(1.0)
    assert support(QUESTION, [DOCS.get("t1").text], weight) < SUPPORT_BAR


def test_an_uncited_answer_is_ungrounded_when_a_passage_holds_the_stemmed_words() -> None:
    assert corpora_hold(QUESTION, [make_search_tool(DOCS)])
    state = run([answer("The refund window is 10 days.", [])])
    assert state["ungrounded"] is True and state["grounded"] == 0.0
    assert state["support"] == 0.0 and state["confident"] is False


def test_a_finish_call_without_an_answer_declines_and_says_what_was_searched() -> None:
    for empty in (None, "", "   "):
        state = run([search("refund window"), answer(empty, [])])
        assert state["stopped"] == "no_answer" and state["answer"] is None
        assert state["short_answer"] is None and state["confident"] is False
        said = str(state["messages"][-1].content)
        assert said.startswith("No answer:") and 'search_docs "refund window"' in said
    lines = render_result(state, [])
    assert "  NO ANSWER: the passages found do not cover the question" in lines
    # the Thought gives the support of the passages the decline weighed; the cited none is 0
    assert not any("support" in line for line in lines)


def test_an_answer_below_the_bar_is_kept_but_not_confident_everywhere() -> None:
    state = run(
        [
            search("terminal window"),
            answer("The terminal window closes when the session ends.", ["t1"]),
        ]
    )
    assert state["stopped"] == "answer" and state["answer"].startswith("The terminal window")
    assert state["support"] < SUPPORT_BAR and state["confident"] is False
    assert state["grounded"] == 1.0  # quoted from its citation, and still not an answer
    assert "not confident" in str(state["messages"][-1].content)
    assert any("NOT CONFIDENT" in line for line in render_result(state, []))


def test_a_covering_answer_is_confident_and_keeps_its_short_answer() -> None:
    state = run(
        [search("refund window"), answer("Refunds are accepted within 30 days.", ["r1"], "30 days")]
    )
    assert state["confident"] is True and state["support"] == pytest.approx(1.0)
    assert state["short_answer"] == "30 days"
    lines = render_result(state, [])
    assert "  SHORT ANSWER: 30 days" in lines
    assert any(line.startswith("  SUPPORT: 1.00") and "(confident)" in line for line in lines)
    assert "not confident" not in str(state["messages"][-1].content)


def test_a_computed_answer_citing_nothing_is_confident() -> None:
    turns = [
        {"thought": "math", "tool": "calculator", "args": {"expression": "6 * 7"}},
        answer("6 * 7 = 42.", []),
    ]
    state = run(turns, "what is 6 * 7?")
    assert state["confident"] is True and state["ungrounded"] is False
    computed = "  SUPPORT: nothing cited; the answer is computed (confident)"
    assert computed in render_result(state, [])


def test_quiet_ask_exits_1_on_a_decline(
    agent_home: Path, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    script = tmp_path / "decline.json"
    turns = [{"tool": "search_policy", "args": {"query": "refund window"}}, answer(None, [])]
    script.write_text(json.dumps(turns))
    code, out, err = run_cli(capsys, "ask", QUESTION, "--model", f"scripted:{script}", "-q")
    assert code == 1 and out == "" and "do not cover the question" in err
    code, out, _ = run_cli(capsys, "ask", QUESTION, "--model", f"scripted:{script}", "--json")
    result = json.loads(out)
    assert result["stopped"] == "no_answer" and result["answer"] is None
    assert {"short_answer", "support", "confident"} <= set(result)


def test_a_computed_answer_is_not_ungrounded_where_a_passage_shares_its_words() -> None:
    question = "How many idle minutes end ten sessions: what is 10 * 10?"
    assert corpora_hold(question, [make_search_tool(DOCS)])
    turns = [
        {"thought": "math", "tool": "calculator", "args": {"expression": "10 * 10"}},
        answer("10 * 10 = 100.", []),
    ]
    state = run(turns, question)
    assert state["ungrounded"] is False and state["confident"] is True
    uncomputed = run([answer("10 * 10 = 100.", [])], question)
    assert uncomputed["ungrounded"] is True


def test_a_consonant_doubled_before_ing_or_ed_does_not_hide_the_base_word() -> None:
    """ "emitting" is covered by "emit", "stopped" by "stops"; "called" and "added" keep theirs."""
    question = "How do I stop the pump emitting sparks?"
    held = ["The pump stops when it emits sparks."]
    assert support(question, held, lambda t: 1.0) == pytest.approx(1.0)
    assert missing_words(weights("Who stopped it?", lambda t: 1.0), ["It stops."]) == []
    assert missing_words(weights("What called it?", lambda t: 1.0), ["A cal."]) == ["called"]
    assert missing_words(weights("What added it?", lambda t: 1.0), ["An ad."]) == ["added"]


def test_a_passage_stating_a_year_or_a_version_holds_the_word() -> None:
    """ "In what year ...?" is answered by "In 1875, ..."; "which version" by "in 4.2.0"."""
    idf = lambda t: 1.0  # noqa: E731
    assert support(
        "In what year did Ada open the mill?", ["In 1875, Ada opened the mill."], idf
    ) == (pytest.approx(1.0))
    assert missing_words(weights("Which version renamed it?", idf), ["Renamed in 4.2.0."]) == []
    assert missing_words(weights("Which version is it?", idf), ["Part PN-2003."]) == ["version"]
    assert missing_words(weights("What year was it?", idf), ["Part PN-2003."]) == ["year"]

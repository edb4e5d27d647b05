"""The policy's arithmetic with scientific notation, powers and overflow (issue 9, item 9):
every such question is computed correctly or refused, never answered with a wrong number."""

from __future__ import annotations

from typing import Any

import pytest
from langchain_core.messages import AIMessage

from graph.agent.budget import run_config
from graph.agent.context import Context
from graph.agent.graph import build_agent


def run(question: str) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """Run the default agent (policy model, built-in tools) on one question."""
    graph = build_agent()
    *_, state = graph.stream(
        {"question": question}, run_config(6), context=Context(), stream_mode="values"
    )
    calls = [dict(c) for m in state["messages"] if isinstance(m, AIMessage) for c in m.tool_calls]
    return state, calls


@pytest.mark.parametrize(
    ("question", "answer"),
    [
        ("what is 15% of 1e3?", "15% of 1e3 is 150."),
        ("what is 2**10 percent of 50?", "2**10% of 50 is 512."),
        ("what is 1.5e3 + 2?", "1.5e3 + 2 = 1502."),
        ("what is 4% of 2.5E2 bolts?", "4% of 2.5E2 bolts is 10."),
        ("what is 10% of 2^4?", "10% of 2^4 is 1.6."),
        ("what is 3 ** 4 - 1e1?", "3 ** 4 - 1e1 = 71."),
    ],
)
def test_notation_and_powers_are_computed_not_misread(question: str, answer: str) -> None:
    state, calls = run(question)
    assert [c["name"] for c in calls] == ["calculator", "finish"]
    assert state["answer"] == answer and state["citations"] == []


@pytest.mark.parametrize(
    "question", ["18% of $1e400", "what is 1e400 + 1?", "what is 9**9**9 percent of 3?"]
)
def test_overflow_is_refused_not_answered(question: str) -> None:
    state, calls = run(question)
    assert calls[0]["name"] == "calculator"
    assert state["answer"].startswith("I could not compute this: error:")
    assert not any(ch.isdigit() for ch in state["answer"].split("error:")[0])

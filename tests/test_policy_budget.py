"""The policy spends its step budget: a step is always kept for the answer, a short budget
answers from what was found, a longer one reads further (follow-ups, deeper pages of the first
ranking), never repeats a search, and stops when the question is covered. Made-up corpora."""

from __future__ import annotations

from typing import Any

from langchain_core.messages import AIMessage
from made_up import corpus

from graph.agent.budget import run_config
from graph.agent.context import Context
from graph.agent.graph import build_agent
from tools.finish import finish
from tools.search import make_search_tool

OPS = corpus(
    "ops",
    {
        "o1": "The Orion billing service sends invoices nightly. It is maintained by the "
        "Ledger team.",
        "o2": "The Ledger team is managed by Amara Okafor and works from the Dublin office.",
        "o3": "Halcyon is the search cluster. It is run by the Discovery team.",
        "o4": "The Discovery team is managed by Kenji Watanabe and works from Osaka.",
        "o5": "Servers in the Dublin office are cooled by chillers from Frostline.",
        "o6": "The Dublin office has a rooftop garden and a bike room.",
        "o7": "Orion retries a failed invoice five times before alerting finance.",
        "o8": "The Osaka office opened in spring with a tea room.",
        "o9": "Billing audits happen every quarter in the finance wing.",
    },
)
TWO_HOP = "Who manages the team that maintains the Orion billing service?"


def run(question: str, max_steps: int, k: int = 3) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """Run the policy over the ops corpus with this budget; the state and the tool calls."""
    graph = build_agent(tools=[make_search_tool(OPS), finish])
    *_, state = graph.stream(
        {"question": question},
        run_config(max_steps),
        context=Context(max_steps=max_steps, k=k),
        stream_mode="values",
    )
    calls = [dict(c) for m in state["messages"] if isinstance(m, AIMessage) for c in m.tool_calls]
    return state, calls


def searches(calls: list[dict[str, Any]]) -> list[tuple[str, int]]:
    """(query, page) of each search call."""
    return [(c["args"]["query"], c["args"].get("page", 1)) for c in calls if c["name"] != "finish"]


def test_one_step_answers_at_once_instead_of_ending_on_the_budget() -> None:
    state, calls = run(TWO_HOP, 1)
    assert [c["name"] for c in calls] == ["finish"]
    assert state["stopped"] == "no_answer" and state["citations"] == []
    assert state["answer"] is None  # nothing was searched: a decline, not a made-up answer


def test_two_steps_search_the_whole_question_once_then_answer_from_it() -> None:
    state, calls = run(TWO_HOP, 2)
    assert [c["name"] for c in calls] == ["search_ops", "finish"]
    query = calls[0]["args"]["query"]
    assert "Orion" in query and "manages" in query  # both halves, not the first hop alone
    assert state["stopped"] == "answer" and state["citations"]  # answered from what it found


def test_three_steps_take_both_hops_and_answer() -> None:
    state, calls = run(TWO_HOP, 3)
    assert [c["name"] for c in calls] == ["search_ops", "search_ops", "finish"]
    assert "Amara Okafor" in state["answer"] and state["stopped"] == "answer"
    assert set(state["citations"]) == {"o1", "o2"}


def test_eight_steps_read_further_without_repeating_and_keep_a_step_to_answer() -> None:
    question = "Which vendor cools the servers of the office with the bike room and the garden?"
    state, calls = run(question, 8, k=1)  # one passage a search: the first cannot be enough
    done = searches(calls)
    assert len(done) == len(set(done))  # never the same query and page twice
    assert calls[-1]["name"] == "finish" and state["stopped"] == "answer"
    assert len(done) >= 2  # the budget was used to look further
    assert "o5" in {i for ids in state["retrieved"].values() for i in ids}


def test_a_covered_question_stops_early_even_with_budget_left() -> None:
    state, calls = run("How many times does Orion retry a failed invoice?", 8)
    assert [c["name"] for c in calls] == ["search_ops", "finish"]
    assert state["steps"] == 2 and "five" in state["answer"]


def test_a_deeper_read_is_the_next_page_of_the_same_query_until_it_runs_dry() -> None:
    from graph.models.actions import Observation
    from graph.models.offline.rules import read_deeper
    from graph.models.offline.turn import Turn

    tools = [make_search_tool(OPS), finish]
    query = "Orion invoices finance quarter"
    first = Observation("search_ops", {"query": query}, hits=[{"id": "o7", "text": "Orion."}])
    action = read_deeper(Turn("Orion invoices finance quarter?", [first], tools, 8))
    assert action is not None and action.tool == "search_ops"
    assert action.args == {"query": query, "page": 2}  # same words, further down: not a repeat
    assert action.thought.startswith("read_deeper: coverage 0.")
    dry = Observation("search_ops", {"query": query, "page": 2}, hits=[])
    assert read_deeper(Turn("Orion invoices finance quarter?", [first, dry], tools, 8)) is None


def test_the_repeat_rule_counts_the_page() -> None:
    from langchain_core.messages import HumanMessage

    from graph.agent.transcript import find_earlier_search

    call = {"name": "search_ops", "args": {"query": "Orion retry"}, "id": "c1", "type": "tool_call"}
    messages = [HumanMessage("q"), AIMessage("", tool_calls=[call])]
    assert find_earlier_search(messages, "search_ops", "orion  RETRY", "c2", 1) == 1
    assert find_earlier_search(messages, "search_ops", "Orion retry", "c2", 2) is None

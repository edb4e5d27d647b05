"""The offline policy on structured tools: the field-service set, and tools it has never seen."""

from __future__ import annotations

from typing import Any

import pytest
from faults import flaky
from langchain_core.messages import AIMessage, ToolMessage
from langchain_core.tools import BaseTool, tool
from langgraph.checkpoint.base import BaseCheckpointSaver
from langgraph.checkpoint.memory import InMemorySaver

from graph.agent.budget import run_config
from graph.agent.graph import build_agent
from graph.common.chat import is_answer_message
from graph.models.offline.model import PolicyModel
from graph.models.structured.findings import find_lead, key_field
from graph.models.structured.schemas import (
    classify_arg,
    first_identifier_example,
    shape_of,
    similar_names,
    structured_tools,
    tool_spec,
)
from graph.router import agent_outcome
from tools import default_tools
from tools.field_service import field_service_tools
from tools.finish import finish

CLEAR = "AC-250-A in a server room: the condensate pump isn't running and the float alarm is lit."


def run_agent(
    question: str, tools: list[BaseTool], saver: BaseCheckpointSaver | None = None
) -> tuple[dict[str, Any], list[AIMessage], list[ToolMessage]]:
    graph = build_agent(model=PolicyModel(), tools=tools, checkpointer=saver or InMemorySaver())
    config = run_config(6, "t1")
    result = graph.invoke({"question": question}, config)
    messages = graph.get_state(config).values["messages"]
    ais = [m for m in messages if isinstance(m, AIMessage) and not is_answer_message(m)]
    observations = [m for m in messages if isinstance(m, ToolMessage)]
    return result, ais, observations


def calls(ais: list[AIMessage]) -> list[tuple[str, dict[str, Any]]]:
    return [(m.tool_calls[0]["name"], m.tool_calls[0]["args"]) for m in ais]


# -- the field-service tools ----------------------------------------------------------------


def test_clear_request_answers_with_the_fault_code_part_stock_and_manual(
    checkpointer: BaseCheckpointSaver,
) -> None:
    result, ais, _ = run_agent(CLEAR, [*field_service_tools(), finish], checkpointer)
    steps = calls(ais)
    assert [name for name, _ in steps] == [
        "search_tickets", "check_availability", "search_manual", "finish"
    ]  # fmt: skip
    assert steps[0][1]["model_variant"] == "AC-250-A"
    assert "condensate pump" in steps[0][1]["symptom"] and "AC-250-A" not in steps[0][1]["symptom"]
    assert steps[1][1] == {"part_no": "PN-80150"}  # read from the F-109 ticket's resolution
    assert steps[2][1]["product_family"] == "AC-250" and steps[2][1]["query"].startswith("F-109")
    answer = result["answer"]
    assert "F-109" in answer and "PN-80150" in answer and "p.41" in answer
    assert "F-110" not in answer  # no runner-up in the answer: it names one finding
    cited = result["citations"] + result["unsupported"]
    assert "AC-250-p41" in cited and any(c.startswith("T-") for c in cited)
    assert result["stopped"] == "answer" and result["steps"] == 4
    assert agent_outcome(result) == "answered"


def test_one_call_per_turn_with_thoughts_and_stable_ids() -> None:
    _, first, _ = run_agent(CLEAR, [*field_service_tools(), finish])
    _, again, _ = run_agent(CLEAR, [*field_service_tools(), finish])
    assert all(len(m.tool_calls) == 1 and str(m.content).strip() for m in first)
    assert [m.tool_calls[0]["id"] for m in first] == [m.tool_calls[0]["id"] for m in again]
    assert "F-109" in str(first[1].content)  # the Thought names the finding it follows


def test_request_without_a_variant_calls_nothing_and_says_what_is_missing() -> None:
    result, ais, _ = run_agent(
        "The air conditioner in meeting room 3 is leaking water.", [*field_service_tools(), finish]
    )
    assert [name for name, _ in calls(ais)] == ["finish"]
    assert "no model_variant" in result["answer"] and "e.g. AC-250-S" in result["answer"]
    assert result["citations"] == [] and result["unsupported"] == []
    assert agent_outcome(result) == "aborted"


def test_no_fitting_part_is_said_not_substituted_from_another_fault() -> None:
    result, ais, _ = run_agent(
        "AC-250-S outdoor fan not spinning; the fan blade turns freely by hand.",
        [*field_service_tools(), finish],
    )
    assert "check_availability" not in [name for name, _ in calls(ais)]
    assert "F-104" in result["answer"] and "no part_no" in result["answer"]
    assert "PN-" not in result["answer"]


def test_vague_request_is_answered_with_a_guess_not_refused() -> None:
    result, _, _ = run_agent(
        "AC-250-B is dripping water from the indoor unit.", [*field_service_tools(), finish]
    )
    assert agent_outcome(result) == "answered"  # the agent does not refuse to guess
    assert ("F-109" in result["answer"]) != ("F-110" in result["answer"])


def test_unknown_variant_errors_are_reported_and_nothing_is_cited() -> None:
    result, ais, observations = run_agent(
        "AC-999-B outdoor fan not spinning.", [*field_service_tools(), finish]
    )
    assert [name for name, _ in calls(ais)] == ["search_tickets", "search_manual", "finish"]
    assert "unknown model variant AC-999-B" in result["answer"]
    assert agent_outcome(result) == "aborted"


def test_a_tool_that_raises_is_retried_once() -> None:
    tickets = flaky(field_service_tools()[0], failures=1, kind="timeout")
    result, ais, observations = run_agent(CLEAR, [tickets, *field_service_tools()[1:], finish])
    names = [name for name, _ in calls(ais)]
    assert names[:2] == ["search_tickets", "search_tickets"]
    assert observations[0].status == "error" and "timed out" in str(observations[0].content)
    assert "F-109" in result["answer"] and "PN-80150" in result["answer"]


def test_search_tools_keep_the_search_policy() -> None:
    assert structured_tools(default_tools()) == []
    assert [t.name for t in structured_tools([*field_service_tools(), finish])] == [
        "search_tickets", "check_availability", "search_manual"
    ]  # fmt: skip


# -- reading schemas ------------------------------------------------------------------------


def test_field_service_schemas_are_classified_from_their_text() -> None:
    tickets, availability, manual = (tool_spec(t) for t in field_service_tools())
    kinds = {a.name: (a.kind, a.required) for a in tickets.args}
    assert kinds == {
        "model_variant": ("identifier", True),
        "symptom": ("text", True),
        "limit": ("number", False),
        "include_family": ("flag", False),
    }
    (part_no,) = availability.args
    assert part_no.kind == "identifier" and part_no.pattern is not None
    assert part_no.pattern.search("Fitted PN-80150.") and not part_no.pattern.search("AC-250")
    family = {a.name: a for a in manual.args}["product_family"]
    assert family.pattern is not None and family.pattern.search("AC-250-S").group() == "AC-250"


@pytest.mark.parametrize(
    ("description", "example"),
    [
        ("the exact variant from the rating plate, e.g. AC-250-S.", "AC-250-S"),
        ("the family without its suffix, e.g. AC-250 for AC-250-S.", "AC-250"),
        ("what to look for, e.g. a fault code and the part to replace.", None),
        ("a ticket, for example `TK-00912`", "TK-00912"),
        ("Keywords to look up, e.g. 'Atlas scheduler owner'", None),
    ],
)
def test_identifier_examples(description: str, example: str | None) -> None:
    assert first_identifier_example(description) == example


def test_shapes_match_same_runs_of_letters_and_digits() -> None:
    shape = shape_of("AB-12-C")
    assert [m.group() for m in shape.finditer("ab-34-x, AB-123-C, XY-99-Z9, QQ-01-Q")] == [
        "ab-34-x",
        "QQ-01-Q",
    ]


def test_names_are_similar_when_only_id_words_differ() -> None:
    assert similar_names("part_no", "part_no")
    assert similar_names("book_no", "bookRef")
    assert similar_names("part", "part_number")
    assert not similar_names("part_no", "fault_code")
    assert not similar_names("id", "ticket_no")


def test_an_enum_argument_is_a_choice() -> None:
    arg = classify_arg("channel", {"type": "string", "enum": ["email", "phone"]}, True)
    assert arg.kind == "choice" and arg.choices == ("email", "phone")


# -- tools it has never seen ----------------------------------------------------------------

LOANS = [
    {"id": "L-7", "member_code": "MB-4412", "shelf": "SH-20", "note": "spine torn (MB-4412)",
     "score": 3.5},
    {"id": "L-2", "member_code": "MB-4412", "shelf": "SH-11", "note": "pages loose; BK-01203",
     "score": 2.0},
    {"id": "L-5", "member_code": "MB-4412", "shelf": "SH-11", "note": "cover stained, BK-01203",
     "score": 1.8},
    {"id": "L-9", "member_code": "MB-4412", "shelf": "SH-20", "note": "rebound as BK-03301",
     "score": 0.4},
]  # fmt: skip
"""Loans of one member: shelf SH-20 holds the best match (L-7), and its book is in L-9."""


@tool("find_loans", response_format="content_and_artifact", parse_docstring=True)
def find_loans(member_code: str, complaint: str) -> tuple[str, dict[str, Any]]:
    """Find a library member's past loans that match a complaint.

    Args:
        member_code: the member's card code, e.g. MB-0001.
        complaint: what the member reports, in plain words.

    """
    rows = [row for row in LOANS if row["member_code"] == member_code.upper()]
    return f"{len(rows)} loans", {"ok": True, "member_code": member_code, "loans": rows}


@tool("hold_status", response_format="content_and_artifact", parse_docstring=True)
def hold_status(book_ref: str) -> tuple[str, dict[str, Any]]:
    """How many copies of a book are free and the wait in days, for a book like BK-00001.

    Args:
        book_ref: the catalogue reference of the book.

    """
    copies = {"BK-01203": 2, "BK-03301": 0}.get(book_ref)
    if copies is None:
        return f"error: unknown book {book_ref}", {"ok": False, "error": f"unknown {book_ref}"}
    return "ok", {"ok": True, "book_ref": book_ref, "copies_free": copies, "wait_days": 3}


@tool("open_case", parse_docstring=True)
def open_case(case_id: str) -> str:
    """Open a case by its id.

    Args:
        case_id: the case's id.

    """
    return "opened"


def test_unseen_tools_are_filled_from_schemas_and_results() -> None:
    request = "Member mb-4412 says the pages of a borrowed book are coming loose"
    result, ais, _ = run_agent(request, [find_loans, hold_status, finish])
    steps = calls(ais)
    complaint = "Member says the pages of a borrowed book are coming loose"
    assert steps[0] == ("find_loans", {"member_code": "mb-4412", "complaint": complaint})
    # the book comes from the leading shelf's records (L-9), not from the higher-ranked L-2
    # of the other shelf, and not from the member code echoed in L-7
    assert steps[1] == ("hold_status", {"book_ref": "BK-03301"})
    assert steps[2][0] == "finish"
    answer = result["answer"]
    assert "SH-20 is the best-supported shelf" in answer and "SH-11" not in answer
    assert "BK-03301: copies free 0, wait days 3" in answer
    assert set(result["citations"] + result["unsupported"]) == {"L-7", "L-9"}
    assert agent_outcome(result) == "answered"


def test_dependent_tool_waits_for_the_value_whatever_the_bound_order() -> None:
    request = "Member MB-4412 says the pages are loose"
    _, ais, _ = run_agent(request, [hold_status, find_loans, finish])
    assert [name for name, _ in calls(ais)] == ["find_loans", "hold_status", "finish"]


def test_a_tool_nothing_can_fill_is_not_called_and_the_answer_says_so() -> None:
    result, ais, _ = run_agent(
        "Member MB-4412 reports loose pages", [find_loans, open_case, finish]
    )
    assert [name for name, _ in calls(ais)] == ["find_loans", "finish"]
    assert "open_case not called: no case_id" in result["answer"]


def test_the_lead_is_the_best_single_match_and_values_come_from_its_records() -> None:
    from graph.models.structured.findings import Result

    result = Result("find_loans", {"member_code": "MB-4412"}, {"loans": LOANS}, "", True, False)
    assert key_field(LOANS, {"mb-4412"}) == "shelf"  # not id, not the echoed member code
    lead = find_lead(result)
    assert lead is not None
    assert (lead.value, lead.runner_up) == ("SH-20", "SH-11")
    assert [r["id"] for r in lead.records] == ["L-7", "L-9"]

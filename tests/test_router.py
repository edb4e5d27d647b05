"""The router: its decisions, both routes end to end, and an escalation paused and resumed."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from faults import flaky
from langgraph.checkpoint.base import BaseCheckpointSaver
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.types import Command

from graph.agent.context import Context
from graph.app.persistence import open_checkpointer
from graph.app.router_runs import resume_router, router_result, run_router
from graph.flow.human import ResumeError
from graph.models.scripted import ScriptedModel
from graph.router import (
    agent_outcome,
    build_router,
    choose_route,
    route_after_request,
    router_config,
)
from tools.field_service import search_tickets

CLEAR = "AC-250-A in a server room: the condensate pump isn't running and the float alarm is lit."
VAGUE = "AC-250-B is dripping water from the indoor unit."
NO_PART = "AC-250-S outdoor fan not spinning; the fan blade turns freely by hand."


@pytest.mark.parametrize(
    ("request_text", "route"),
    [
        (CLEAR, "flow"),
        ("ac-400-b: the float switch cuts the unit out", "flow"),
        ("AC-999-B outdoor fan not spinning.", "flow"),  # the flow's shape; the flow refuses it
        ("AC-250 unit, serial 25S-0042-1187: condensate pump not running.", "agent"),
        ("Heat pump shows flow error E9, serial number HP120-77812.", "agent"),
        ("How long does standard shipping take?", "agent"),
        ("", "agent"),
    ],
)
def test_choose_route_by_the_request_shape(request_text: str, route: str) -> None:
    assert choose_route(request_text)[0] == route


def test_route_after_request_is_typed_and_raises_without_a_route() -> None:
    assert route_after_request({"request": "x", "route": "flow"}) == "flow"
    assert route_after_request({"request": "x", "route": "agent"}) == "ask_agent"
    with pytest.raises(RuntimeError, match="no route decided"):
        route_after_request({"request": "x"})


def test_graph_wiring() -> None:
    edges = {(e.source, e.target) for e in build_router().get_graph().edges}
    assert edges == {
        ("__start__", "route_request"),
        ("route_request", "flow"),
        ("route_request", "ask_agent"),
        ("flow", "record_flow_result"),
        ("record_flow_result", "__end__"),
        ("ask_agent", "__end__"),
    }


@pytest.mark.parametrize(
    ("result", "outcome"),
    [
        ({"stopped": "answer", "answer": "x", "citations": ["d1"]}, "answered"),
        ({"stopped": "answer", "answer": "x", "unsupported": ["T-1"]}, "answered"),
        ({"stopped": "answer", "answer": "Cannot act on this request", "citations": []}, "aborted"),
        ({"stopped": "budget", "answer": None, "citations": ["d1"]}, "aborted"),
        ({"stopped": "error", "answer": None}, "aborted"),
    ],
)
def test_agent_outcome(result: dict[str, Any], outcome: str) -> None:
    assert agent_outcome(result) == outcome


def test_variant_request_goes_to_the_flow(checkpointer: BaseCheckpointSaver) -> None:
    result = run_router(build_router(checkpointer), CLEAR, thread_id="r1")
    assert result["route"] == "flow" and result["outcome"] == "answered"
    assert (result["fault_code"], result["part_no"]) == ("F-109", "PN-80150")
    assert result["steps"] == 6 and "PN-80150" in result["answer"]
    assert result["citations"] == []


def test_request_without_a_variant_goes_to_the_agent() -> None:
    result = run_router(
        build_router(InMemorySaver()),
        "Compressor hums and will not start on the rooftop unit.",
        thread_id="r2",
    )
    assert result["route"] == "agent" and result["fault_code"] is None
    assert result["steps"] >= 1 and result["outcome"] in {"answered", "aborted"}


@pytest.mark.parametrize(
    ("question", "contains", "doc"),
    [
        ("How long does standard shipping take?", "3 to 5 business days", "pol-4"),
        ("Who leads the Fleet Platform team?", "Priya Raman", "d2"),
        ("What is the battery life of the wireless earbuds with the charging case?", "24 hours",
         "prod-4"),
    ],
)  # fmt: skip
def test_off_topic_questions_are_answered_by_the_agent_from_the_built_ins(
    question: str, contains: str, doc: str
) -> None:
    result = run_router(build_router(InMemorySaver()), question, thread_id="r3")
    assert result["route"] == "agent" and result["outcome"] == "answered"
    assert contains in result["answer"] and doc in result["citations"]


def test_the_agent_model_can_be_fixed(scripted: Callable[..., ScriptedModel]) -> None:
    model = scripted(
        ("search_policy", {"query": "shipping time"}),
        ("finish", {"answer": "Three to five days.", "citations": ["pol-4"]}),
    )
    result = run_router(
        build_router(InMemorySaver(), model=model), "How fast is shipping?", thread_id="r4"
    )
    assert result["answer"] == "Three to five days." and result["citations"] == ["pol-4"]
    assert result["steps"] == 2


def test_escalation_pauses_the_router_thread_and_a_fault_code_resumes_it(
    checkpointer: BaseCheckpointSaver,
) -> None:
    router = build_router(checkpointer)
    paused = run_router(router, VAGUE, thread_id="e1")
    assert paused["outcome"] == "escalated" and paused["route"] == "flow"
    assert paused["interrupt"]["stage"] == "diagnose"
    assert paused["interrupt"]["candidates"] == ["F-109", "F-110"]
    assert paused["steps"] == 3  # parse, history, diagnose: read from the paused subgraph
    assert router.get_state(router_config("e1")).next == ("flow",)
    done = resume_router(router, "e1", "F-110")
    assert done["outcome"] == "answered"
    assert (done["fault_code"], done["part_no"]) == ("F-110", "PN-80310")
    assert "chosen by a human" in done["answer"] and done["steps"] == 6
    assert router.get_state(router_config("e1")).next == ()


def test_no_part_escalation_closed_through_the_router(checkpointer: BaseCheckpointSaver) -> None:
    router = build_router(checkpointer)
    paused = run_router(router, NO_PART, thread_id="e2")
    assert paused["interrupt"]["stage"] == "part" and paused["fault_code"] == "F-104"
    done = resume_router(router, "e2", {"action": "close", "note": "ordered from the OEM"})
    assert done["outcome"] == "escalated"
    assert "Closed by a human: ordered from the OEM" in done["answer"]


def test_a_bad_resume_value_pauses_the_router_again_with_the_error() -> None:
    router = build_router(InMemorySaver())
    run_router(router, VAGUE, thread_id="e3")
    again = resume_router(router, "e3", "F-999")
    assert (
        again["outcome"] == "escalated"
        and "unknown fault code F-999" in again["interrupt"]["error"]
    )
    assert resume_router(router, "e3", "F-109")["outcome"] == "answered"


def test_resume_router_refuses_unknown_and_finished_threads() -> None:
    router = build_router(InMemorySaver())
    with pytest.raises(ResumeError, match="unknown thread"):
        resume_router(router, "nope", "F-109")
    run_router(router, CLEAR, thread_id="done")
    with pytest.raises(ResumeError, match="not waiting"):
        resume_router(router, "done", "F-109")
    with pytest.raises(ValueError, match="already exists"):
        run_router(router, CLEAR, thread_id="done")


def test_a_fresh_router_on_the_same_sqlite_file_resumes_the_thread(tmp_path: Path) -> None:
    db = str(tmp_path / "router.sqlite")
    with open_checkpointer(db) as saver:
        assert run_router(build_router(saver), VAGUE, thread_id="s1")["outcome"] == "escalated"
    with open_checkpointer(db) as saver:
        router = build_router(saver)
        config = router_config("s1")
        router.invoke(Command(resume="F-109"), config, context=Context())
        result = router_result(router, "s1")
    assert result["outcome"] == "answered" and result["part_no"] == "PN-80150"


def test_a_transient_tool_failure_inside_the_routed_flow_is_retried() -> None:
    tickets = flaky(search_tickets, failures=1, kind="rate_limit")
    router = build_router(InMemorySaver(), flow_tools=[tickets])
    result = run_router(router, CLEAR, thread_id="f1")
    assert result["outcome"] == "answered"
    stages = [
        (entry["stage"], entry["ok"])
        for entry in router.get_state(router_config("f1")).values["log"]
    ]
    assert stages[:3] == [("parse", True), ("history", False), ("history", True)]

"""The three graphs' schemas and inputs, as Studio and chat panels use them.

JSON schemas that pydantic can build on Python 3.11 (so Studio shows the input form), the flow and
the router fed `{"messages": [...]}`, and the server's bad inputs as clear error results.
"""

from __future__ import annotations

from typing import Any

import pytest
from langchain_core.messages import AIMessage, HumanMessage
from langgraph.checkpoint.memory import InMemorySaver

from graph.agent.graph import build_agent
from graph.common.chat import is_answer_message
from graph.flow.graph import RECURSION_LIMIT, build_flow
from graph.flow.stages import NO_REQUEST
from graph.router import build_router, router_config

CLEAR = "AC-250-A in a plant room: the condensate pump is silent and the float alarm is on."
OFF_TOPIC = "How long does standard shipping take?"


@pytest.mark.parametrize(
    ("build", "fields"),
    [
        (build_agent, {"question", "messages"}),
        (build_flow, {"request", "messages"}),
        (build_router, {"request", "messages"}),
    ],
    ids=["agent", "flow", "router"],
)
def test_every_graph_has_input_and_output_json_schemas(build: Any, fields: set[str]) -> None:
    graph = build()
    input_schema = graph.get_input_jsonschema()
    output_schema = graph.get_output_jsonschema()
    assert set(input_schema["properties"]) == fields
    assert fields <= set(output_schema["properties"])
    assert {"answer"} <= set(output_schema["properties"])


def test_the_agent_output_schema_shows_the_transcript_and_the_result() -> None:
    properties = build_agent().get_output_jsonschema()["properties"]
    assert {"messages", "answer", "citations", "stopped", "error"} <= set(properties)


def flow_config(thread: str) -> dict[str, Any]:
    return {"configurable": {"thread_id": thread}, "recursion_limit": RECURSION_LIMIT}


def test_the_flow_takes_a_chat_message_as_its_request_and_answers_in_chat() -> None:
    flow = build_flow(checkpointer=InMemorySaver())
    out = flow.invoke({"messages": [HumanMessage(CLEAR)]}, flow_config("f1"))
    assert out["request"] == CLEAR and out["outcome"] == "answered"
    last = out["messages"][-1]
    assert isinstance(last, AIMessage) and is_answer_message(last)
    assert last.content == out["answer"] and "PN-80150" in last.content


@pytest.mark.parametrize("payload", [{}, {"request": "   "}, {"messages": []}])
def test_the_flow_without_a_request_aborts_with_a_clear_reason(payload: dict[str, Any]) -> None:
    out = build_flow().invoke(payload, {"recursion_limit": RECURSION_LIMIT})
    assert out["outcome"] == "aborted"
    assert out["reason"] == NO_REQUEST
    assert out["messages"][-1].content == out["answer"]


def test_the_router_takes_chat_messages_for_both_routes() -> None:
    router = build_router(checkpointer=InMemorySaver())
    config = router_config("r1")
    first = router.invoke({"messages": [HumanMessage(OFF_TOPIC)]}, config)
    assert first["route"] == "agent" and first["request"] == OFF_TOPIC
    assert "business days" in first["messages"][-1].content
    assert "[pol-4]" in first["messages"][-1].content
    second = router.invoke({"messages": [HumanMessage(CLEAR)]}, config)
    assert second["route"] == "flow" and second["request"] == CLEAR
    assert "PN-80150" in second["messages"][-1].content
    humans = [m.content for m in second["messages"] if isinstance(m, HumanMessage)]
    assert humans == [OFF_TOPIC, CLEAR]


def test_the_router_without_a_request_is_a_clear_result() -> None:
    out = build_router().invoke({}, router_config("none"))
    assert out["route"] == "agent" and out["outcome"] == "aborted"
    assert out["reason"] == "the question is empty"


@pytest.mark.parametrize("build", [build_flow, build_router], ids=["flow", "router"])
def test_flow_and_router_refuse_a_string_input_in_one_line(build: Any) -> None:
    with pytest.raises(ValueError, match='must be an object with "request" or "messages"'):
        build().invoke("AC-250-A leaking", {"recursion_limit": 20})

"""The agent in a chat panel: `{"messages": [...]}` in, the answer as the last AI message out.

Graph-level tests with the offline policy over a made-up corpus, using the inputs the LangGraph
server passes (a dict of messages, a bad recursion limit, an empty input).
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from langchain_core.messages import AIMessage, HumanMessage, SystemMessage, ToolMessage
from langgraph.checkpoint.memory import InMemorySaver

from corpora import Corpus, Passage
from graph.agent.budget import run_config
from graph.agent.context import Context
from graph.agent.graph import AgentGraph, build_agent
from graph.agent.reason_node import TOO_LOW_LIMIT
from graph.common.chat import NO_QUESTION, is_answer_message
from graph.models.offline.model import PolicyModel
from tools.finish import finish
from tools.search import make_search_tool

ORCHARD = Corpus(
    name="orchard",
    passages=(
        Passage("orc-1", "The Quillmere orchard harvests its pears in late September."),
        Passage("orc-2", "Quillmere pears are shipped to the Dunmore market by barge."),
        Passage("orc-3", "The orchard's cider press was rebuilt after the spring flood."),
        Passage("orc-4", "Visitors may tour the orchard on Saturdays from May to October."),
        Passage("orc-5", "The beekeeper tends forty hives along the orchard's north wall."),
    ),
)
PEARS = "When does the Quillmere orchard harvest its pears?"
HIVES = "How many hives does the beekeeper tend?"


def make_agent() -> AgentGraph:
    return build_agent(
        model=PolicyModel(),
        tools=[make_search_tool(ORCHARD, k=2), finish],
        checkpointer=InMemorySaver(),
    )


def chat(agent: AgentGraph, thread: str, *messages: Any, **config: Any) -> dict[str, Any]:
    """Send chat messages the way Studio's chat view does, and return the run's output."""
    cfg = {**run_config(6, thread), **config}
    return agent.invoke({"messages": list(messages)}, cfg, context=Context())


def stored(agent: AgentGraph, thread: str) -> list[Any]:
    return list(agent.get_state({"configurable": {"thread_id": thread}}).values["messages"])


def test_a_chat_message_is_the_question_and_the_answer_is_the_last_ai_message() -> None:
    agent = make_agent()
    out = chat(agent, "c1", {"role": "user", "content": PEARS})
    assert out["stopped"] == "answer" and out["question"] == PEARS
    assert "late September" in out["answer"] and out["citations"] == ["orc-1"]
    last = out["messages"][-1]
    assert isinstance(last, AIMessage) and is_answer_message(last)
    assert last.content == f"{out['answer']} [orc-1]"
    messages = stored(agent, "c1")
    assert not any(isinstance(m, SystemMessage) for m in messages)  # sent per call, not stored
    assert isinstance(messages[0], HumanMessage) and messages[0].content == PEARS


def test_a_second_chat_turn_on_the_thread_answers_the_new_question() -> None:
    agent = make_agent()
    chat(agent, "c2", HumanMessage(PEARS))
    out = chat(agent, "c2", HumanMessage(HIVES))
    assert out["question"] == HIVES and out["stopped"] == "answer"
    assert "forty hives" in out["answer"] and out["citations"] == ["orc-5"]
    messages = stored(agent, "c2")
    assert [m.content for m in messages if isinstance(m, HumanMessage)] == [PEARS, HIVES]
    answers = [m.content for m in messages if is_answer_message(m)]
    assert len(answers) == 2 and "forty hives" in answers[1]
    assert not any(isinstance(m, SystemMessage) for m in messages)


def test_question_and_chat_turns_mix_on_one_thread() -> None:
    agent = make_agent()
    first = agent.invoke({"question": PEARS}, run_config(6, "mix"), context=Context())
    second = chat(agent, "mix", HumanMessage(HIVES))
    assert "late September" in first["answer"] and "forty hives" in second["answer"]
    third = agent.invoke({"question": PEARS}, run_config(6, "mix"), context=Context())
    assert third["question"] == PEARS and "late September" in third["answer"]
    humans = [m.content for m in stored(agent, "mix") if isinstance(m, HumanMessage)]
    assert humans == [PEARS, HIVES, PEARS]


def test_earlier_turns_sent_by_a_client_are_the_conversation_so_far() -> None:
    agent = make_agent()
    out = chat(
        agent,
        "c3",
        HumanMessage("Hello there"),
        AIMessage("Hello! Ask me about the orchard."),
        HumanMessage(HIVES),
    )
    assert out["question"] == HIVES and "forty hives" in out["answer"]
    messages = stored(agent, "c3")
    assert [m.content for m in messages[:2]] == ["Hello there", "Hello! Ask me about the orchard."]


def test_a_tool_call_left_open_by_a_cut_run_is_answered_before_the_next_chat_question() -> None:
    agent = make_agent()
    agent.invoke(
        {"question": PEARS}, run_config(6, "cut"), context=Context(), interrupt_before=["act"]
    )
    out = chat(agent, "cut", HumanMessage(HIVES))
    assert "forty hives" in out["answer"]
    messages = stored(agent, "cut")
    asked = [c["id"] for m in messages if isinstance(m, AIMessage) for c in m.tool_calls]
    answered = [m.tool_call_id for m in messages if isinstance(m, ToolMessage)]
    assert sorted(asked) == sorted(answered)
    second = next(i for i, m in enumerate(messages) if m.content == HIVES)
    not_run = [m for m in messages[:second] if isinstance(m, ToolMessage)]
    assert not_run and not_run[-1].status == "error" and "new question" in not_run[-1].content


def test_control_characters_in_a_chat_question_are_made_printable() -> None:
    agent = make_agent()
    out = chat(agent, "ctl", HumanMessage("When does the \x1b[2JQuillmere orchard harvest pears?"))
    assert "\x1b" not in out["question"]
    assert all("\x1b" not in str(m.content) for m in stored(agent, "ctl"))
    assert "late September" in out["answer"]


def test_a_recursion_limit_of_2_is_an_error_result_not_a_graph_recursion_error() -> None:
    agent = make_agent()
    config = {"configurable": {"thread_id": "low"}, "recursion_limit": 2}
    out = agent.invoke({"question": PEARS}, config, context=Context())
    assert out["stopped"] == "error" and out["error"] == TOO_LOW_LIMIT and out["answer"] is None
    assert is_answer_message(out["messages"][-1])
    assert out["messages"][-1].content.startswith("No answer: the recursion limit")


@pytest.mark.parametrize(
    "payload", [{}, {"messages": []}, {"messages": [{"role": "assistant", "content": "hi"}]}]
)
def test_an_input_without_a_question_is_an_error_result(payload: dict[str, Any]) -> None:
    agent = make_agent()
    out = agent.invoke(payload, run_config(6, "none"), context=Context())
    assert out["stopped"] == "error" and out["error"] == NO_QUESTION
    assert out["messages"][-1].content == f"No answer: {NO_QUESTION}."


def test_an_empty_chat_message_is_an_error_result() -> None:
    out = chat(make_agent(), "empty", HumanMessage("   "))
    assert out["stopped"] == "error" and out["error"] == "the question is empty"


def test_the_updates_stream_shows_each_step_as_it_happens() -> None:
    agent = make_agent()
    updates = list(
        agent.stream(
            {"messages": [HumanMessage(PEARS)]},
            run_config(6, "stream"),
            context=Context(),
            stream_mode="updates",
        )
    )
    nodes = [next(iter(update)) for update in updates]
    assert nodes == ["reason", "act", "reason", "finish"]
    call = updates[0]["reason"]["messages"][-1].tool_calls[0]
    assert call["name"] == "search_orchard"
    observation = updates[1]["act"]["messages"][0]
    assert isinstance(observation, ToolMessage) and "[orc-1]" in observation.content


@pytest.mark.parametrize("limit", [0, 1, "3", None])
def test_a_recursion_limit_no_run_can_use_is_refused_in_one_line(limit: Any) -> None:
    agent = make_agent()
    config = {"configurable": {"thread_id": "refused"}, "recursion_limit": limit}
    if limit is None:
        config.pop("recursion_limit")
        assert agent.invoke({"question": PEARS}, config)["stopped"] == "answer"
        return
    with pytest.raises(ValueError, match="recursion_limit must be an integer of at least 2") as e:
        agent.invoke({"question": PEARS}, config, context=Context())
    assert "\n" not in str(e.value)


@pytest.mark.parametrize("payload", ["When are pears harvested?", 42, ["a question"]])
def test_an_input_that_is_not_an_object_is_refused_in_one_line(payload: Any) -> None:
    with pytest.raises(ValueError) as error:
        make_agent().invoke(payload, run_config(6, "bad-input"), context=Context())
    message = str(error.value)
    assert message.startswith('the input of agent must be an object with "question" or "messages"')
    assert message.endswith(f"not a {type(payload).__name__}") and "\n" not in message


def test_the_server_path_astream_refuses_a_string_too() -> None:
    async def run() -> None:
        async for _ in make_agent().astream("a question", run_config(6, "async")):
            pass

    with pytest.raises(ValueError, match="must be an object"):
        asyncio.run(run())

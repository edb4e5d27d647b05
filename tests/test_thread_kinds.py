"""A thread's kind (agent, flow, router) is written into checkpoint metadata by every run and
resume, and read from there; threads saved before kinds were recorded fall back to a guess.

Real SQLite threads of each kind, made through the application layer (`Session`, `run_flow` /
`resume_flow`, `run_router` / `resume_router`) and, for the old-thread fallback, by invoking
the graphs without any metadata.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from langgraph.checkpoint.base import BaseCheckpointSaver

from corpora import Corpus, Passage
from graph.agent.budget import run_config
from graph.agent.graph import build_agent
from graph.app.agent_threads import NotAnAgentThread
from graph.app.flow_runs import flow_config, flow_for, resume_flow, run_flow
from graph.app.persistence import open_checkpointer
from graph.app.router_runs import resume_router, run_router
from graph.app.session import Session
from graph.app.thread_list import list_threads
from graph.app.thread_settings import AGENT, FLOW, ROUTER, kind_of
from graph.cli.flow import flow_thread_state
from graph.router import build_router, router_config

BAKERY = Corpus(
    name="bakery",
    passages=(
        Passage("bk-1", "The Fennimore bakery bakes rye loaves every Tuesday."),
        Passage("bk-2", "Its sourdough starter is fed with spelt flour."),
        Passage("bk-3", "The bakery closes early on the harvest fair day."),
    ),
)
QUESTION = "When does the Fennimore bakery bake rye loaves?"
UNSURE = "AC-250-B: water dripping from the indoor unit onto the floor."
"""A request whose diagnosis is too close to call: the flow escalates it to a human."""


@pytest.fixture
def saver(tmp_path: Path) -> Iterator[BaseCheckpointSaver]:
    """A real SQLite checkpoint store in the test's own directory."""
    with open_checkpointer(str(tmp_path / "threads.sqlite")) as store:
        yield store


def latest_kind(saver: BaseCheckpointSaver, thread_id: str) -> object:
    """The kind recorded in the metadata of the thread's latest checkpoint."""
    saved = saver.get_tuple({"configurable": {"thread_id": thread_id}})
    assert saved is not None
    return (saved.metadata or {}).get("graph")


def test_every_run_and_resume_records_the_threads_kind(saver: BaseCheckpointSaver) -> None:
    Session(saver, corpora=[BAKERY], builtins=False).ask(QUESTION, thread_id="agent-1")
    assert run_flow(UNSURE, checkpointer=saver, thread_id="flow-1")["outcome"] == "escalated"
    assert latest_kind(saver, "flow-1") == FLOW
    assert resume_flow("flow-1", "F-110", checkpointer=saver)["outcome"] == "answered"
    router = build_router(saver)
    assert run_router(router, UNSURE, thread_id="router-1")["outcome"] == "escalated"
    assert resume_router(router, "router-1", "F-110")["outcome"] == "answered"
    kinds = {"agent-1": AGENT, "flow-1": FLOW, "router-1": ROUTER}
    for thread_id, kind in kinds.items():
        assert latest_kind(saver, thread_id) == kind  # after a resume too
        assert kind_of(saver.get_tuple({"configurable": {"thread_id": thread_id}})) == kind
    assert flow_thread_state(saver, "flow-1") == "finished"
    assert flow_thread_state(saver, "router-1") is None
    assert flow_thread_state(saver, "agent-1") is None
    with pytest.raises(NotAnAgentThread):
        Session(saver, builtins=False).snapshot("router-1")


def test_the_recorded_kind_decides_not_the_state(saver: BaseCheckpointSaver) -> None:
    config = {**run_config(3, "odd"), "metadata": {"graph": FLOW}}
    build_agent(checkpointer=saver).invoke({"question": QUESTION}, config)
    saved = saver.get_tuple({"configurable": {"thread_id": "odd"}})
    assert kind_of(saved) == FLOW  # though its channels are an agent's
    with pytest.raises(NotAnAgentThread):
        Session(saver, builtins=False).snapshot("odd")
    (row,) = list_threads(saver)
    assert row.question == ""  # summarised as a flow thread: it has no request


def test_threads_saved_without_a_kind_fall_back_to_their_channels(
    saver: BaseCheckpointSaver,
) -> None:
    build_agent(checkpointer=saver).invoke({"question": QUESTION}, run_config(3, "old-agent"))
    flow_for(saver).invoke({"request": UNSURE}, flow_config("old-flow"))
    build_router(saver).invoke({"request": QUESTION}, router_config("old-router"))
    for thread_id, kind in {"old-agent": AGENT, "old-flow": FLOW, "old-router": ROUTER}.items():
        assert latest_kind(saver, thread_id) is None
        assert kind_of(saver.get_tuple({"configurable": {"thread_id": thread_id}})) == kind
    rows = {row.thread_id: row for row in list_threads(saver)}
    assert rows["old-agent"].question == QUESTION and rows["old-flow"].question == UNSURE
    assert rows["old-router"].question == QUESTION
    assert flow_thread_state(saver, "old-flow") == "paused"
    assert Session(saver, builtins=False).snapshot("old-agent").values["question"] == QUESTION

"""Crash windows: a run killed after `act`'s writes were saved but before the next checkpoint.

The store then holds the tool results as pending writes of the step and no checkpoint after
it (`snapshot.next` is empty). Asking again, resuming and re-running an eval must continue
from those writes: the search is not run again and no tool call is left without its reply.
"""

from __future__ import annotations

import threading
from typing import Any

import pytest
from crash_window import die_after_writes_of
from langchain_core.messages import AIMessage, ToolMessage
from langgraph.checkpoint.base import BaseCheckpointSaver

from graph.app.session import Session
from tools.search import SearchTool

QUESTION = "Who leads the team that owns Beacon?"


class Killed(BaseException):
    """The process dying: not an Exception, so nothing turns it into data."""


def die() -> None:
    """Stand-in for SIGKILL."""
    raise Killed("killed between act's writes and the next checkpoint")


@pytest.fixture
def searches(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The queries the search tools actually ran, in order."""
    ran: list[str] = []
    original = SearchTool._run

    def counted(self: SearchTool, query: str, *args: Any, **kwargs: Any) -> Any:
        ran.append(query)
        return original(self, query, *args, **kwargs)

    monkeypatch.setattr(SearchTool, "_run", counted)
    return ran


def crash_in_the_window(checkpointer: BaseCheckpointSaver, thread_id: str) -> None:
    """Run QUESTION on `thread_id` until the first `act` writes are saved, then die."""
    put, put_writes = checkpointer.put, checkpointer.put_writes
    die_after_writes_of(checkpointer, "act", die)
    try:
        with pytest.raises(Killed):
            Session(checkpointer).ask(QUESTION, thread_id=thread_id)
    finally:
        checkpointer.put, checkpointer.put_writes = put, put_writes  # type: ignore[method-assign]


def assert_every_call_answered_once(messages: list[Any]) -> None:
    """Each tool call has exactly one reply and no step is repeated."""
    ids = [c["id"] for m in messages if isinstance(m, AIMessage) for c in m.tool_calls]
    replies = [m.tool_call_id for m in messages if isinstance(m, ToolMessage)]
    assert len(ids) == len(set(ids))
    assert sorted(replies) == sorted(ids)


@pytest.mark.parametrize("how", ["ask", "resume"])
def test_a_crash_after_acts_writes_continues_from_them(
    checkpointer: BaseCheckpointSaver, searches: list[str], how: str
) -> None:
    reference = Session(checkpointer).ask(QUESTION, thread_id="reference")
    reference_searches = list(searches)
    searches.clear()

    crash_in_the_window(checkpointer, "window")
    session = Session(checkpointer)
    stopped = session.snapshot("window")
    assert stopped.next == () and [t.name for t in stopped.tasks] == ["act"]
    searches.clear()

    if how == "ask":
        result = session.ask(QUESTION, thread_id="window")
    else:
        result = session.resume("window")
    assert searches == reference_searches[1:]  # the saved search was not run again
    for key in ("answer", "citations", "steps", "stopped", "retrieved"):
        assert result[key] == reference[key], key
    messages = session.messages("window")
    assert [m.type for m in messages] == [m.type for m in session.messages("reference")]
    assert_every_call_answered_once(messages)


def test_a_crash_right_after_the_input_was_saved_is_resumed(
    checkpointer: BaseCheckpointSaver, monkeypatch: pytest.MonkeyPatch
) -> None:
    put = checkpointer.put
    dead = threading.Event()

    def save_the_input_then_die(config: Any, checkpoint: Any, metadata: Any, versions: Any) -> Any:
        if metadata.get("source") == "input" and not dead.is_set():
            saved = put(config, checkpoint, metadata, versions)
            dead.set()
            return saved
        return config  # the process is dead: nothing more reaches the store

    with monkeypatch.context() as patch:
        patch.setattr(checkpointer, "put", save_the_input_then_die)
        patch.setattr(checkpointer, "put_writes", lambda *args, **kwargs: None)
        Session(checkpointer).ask(QUESTION, thread_id="input-only")
    session = Session(checkpointer)
    assert [t.name for t in session.snapshot("input-only").tasks] == ["__start__"]
    result = session.resume("input-only")
    assert result["stopped"] == "answer" and "Tomas Ekberg" in result["answer"]
    assert [m.type for m in session.messages("input-only")].count("human") == 1

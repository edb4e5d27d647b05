"""The question is checked by one function, where it enters: the session or the graph.

`graph.agent.question` holds the check; the CLI reaches it through `Session.ask` (no thread is
touched, nothing but the error line prints), and a run that enters through the graph itself (the
LangGraph server's path) meets it in the `reason` node, which ends the turn with the same line.
"""

from __future__ import annotations

import pytest
from cli_helpers import run_cli
from langgraph.checkpoint.memory import InMemorySaver

from graph.agent import question
from graph.agent.budget import run_config
from graph.agent.context import Context
from graph.agent.graph import build_agent
from graph.app.session import Session

LONG = "Which ferry leaves the Marrow pier first on Sundays?"
TOO_LONG = f"the question is {len(LONG)} characters; the limit is 12"


@pytest.fixture
def limit_of_12(monkeypatch: pytest.MonkeyPatch) -> None:
    """A question limit of 12 characters, set only in `graph.agent.question`."""
    monkeypatch.setattr(question, "MAX_QUESTION_CHARS", 12)


@pytest.mark.usefixtures("limit_of_12")
def test_the_session_refuses_with_the_one_check_and_saves_nothing() -> None:
    saver = InMemorySaver()
    with pytest.raises(ValueError) as error:
        Session(saver).ask(LONG, thread_id="long")
    assert str(error.value) == TOO_LONG
    assert list(saver.list(None)) == []


@pytest.mark.usefixtures("limit_of_12")
def test_the_server_path_meets_the_same_check_in_the_node() -> None:
    result = build_agent().invoke({"question": LONG}, run_config(3), context=Context())
    assert result["stopped"] == "error" and result["error"] == TOO_LONG


@pytest.mark.usefixtures("limit_of_12", "agent_home")
def test_the_cli_prints_only_the_sessions_error_line(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run_cli(capsys, "ask", LONG)
    assert code != 0 and out == "" and err == f"error: {TOO_LONG}\n"


@pytest.mark.parametrize(
    ("asked", "line"),
    [
        ("", "the question is empty"),
        (" \t\n", "the question is empty"),
        ("a\x00b", "the question contains a NUL character"),
        ("\ud800 lone surrogate", "the question is not valid UTF-8 text"),
        (42, "the question must be text, got int"),
    ],
)
def test_check_question_raises_the_problem_as_one_line(asked: object, line: str) -> None:
    assert question.question_problem(asked) == line
    with pytest.raises(ValueError, match=f"^{line}$"):
        question.check_question(asked)
    assert question.check_question("Is the pier open?") == "Is the pier open?"

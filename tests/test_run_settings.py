"""`Context` is the one source of a run's model, k and step budget.

A Session hands each run one Context (the call's values, else the session's, else the
thread's, else the defaults); a fixed chat-model object refuses a run naming another model;
the seed-004 search tool takes the run's k like every search tool.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from langchain_core.messages import ToolMessage
from langgraph.checkpoint.memory import InMemorySaver

from corpora import Corpus, Passage
from graph.agent.budget import DEFAULT_MAX_STEPS, run_config
from graph.agent.context import Context
from graph.agent.graph import build_agent
from graph.app.run_context import Override, RunSettings, SessionDefaults, resolve
from graph.app.session import Session
from graph.app.takehome import FunctionSearchTool
from graph.app.thread_settings import ThreadSettings, read_settings
from graph.models.scripted import ScriptedModel
from tools.finish import finish
from tools.search_settings import DEFAULT_K

QUARRY = Corpus(
    name="quarry",
    passages=(
        *(
            Passage(f"qy-{n}", f"Ledger page {n} lists {n * 7} granite blocks cut.")
            for n in (1, 2, 3, 4, 5)
        ),
        Passage("qy-6", "The quarry's canteen serves barley soup on Fridays."),
        Passage("qy-7", "A rope bridge crosses the flooded east pit."),
        Passage("qy-8", "Blasting is forbidden after dusk by the county rules."),
        Passage("qy-9", "The foreman's dog is called Pumice."),
        Passage("qy-10", "Visitors sign in at the weighbridge office."),
        *(
            Passage(f"qy-{n}", f"Lorry {n} carries gravel to the coast road.")
            for n in range(11, 17)
        ),
    ),
)
QUESTION = "What does the Tallow quarry ledger list?"
SEARCH = ("search_quarry", {"query": "ledger granite blocks"})
ANSWER = ("finish", {"answer": "Granite blocks cut.", "citations": ["qy-1"]})
Script = Callable[..., ScriptedModel]
ScriptFile = Callable[..., str]


def hits_per_search(session: Session, thread_id: str) -> list[int]:
    """How many passages each search of the thread returned."""
    return [
        len(message.artifact)
        for message in session.messages(thread_id)
        if isinstance(message, ToolMessage) and isinstance(message.artifact, list)
    ]


def test_a_call_names_the_runs_model_over_the_sessions_name(script_file: ScriptFile) -> None:
    session = Session(InMemorySaver(), model="policy", corpora=[QUARRY], builtins=False)
    spec = script_file(SEARCH, ANSWER)
    result = session.ask(QUESTION, model=spec, thread_id="named")
    assert result["answer"] == "Granite blocks cut."  # the scripted model ran, not the policy
    settings = read_settings(session.checkpointer, "named")
    assert settings is not None and settings.model == spec


def test_a_fixed_model_object_refuses_a_run_naming_another(scripted: Script) -> None:
    session = Session(InMemorySaver(), model=scripted(SEARCH, ANSWER), corpora=[QUARRY])
    with pytest.raises(ValueError, match="fixed chat model .*ScriptedModel.*cannot run model"):
        session.ask(QUESTION, model="policy", thread_id="fixed")
    result = session.ask(QUESTION, thread_id="fixed")
    assert result["answer"] == "Granite blocks cut."
    settings = read_settings(session.checkpointer, "fixed")
    assert settings is not None and settings.model is None  # not loadable by name: not recorded


def test_k_comes_from_the_call_then_the_session_then_the_thread(scripted: Script) -> None:
    saver = InMemorySaver()
    model = scripted(SEARCH, ANSWER)
    first = Session(saver, model=model, corpora=[QUARRY], builtins=False, k=4)
    first.ask(QUESTION, k=1, thread_id="k")
    assert hits_per_search(first, "k") == [1]  # the call's k over the session's
    first.ask(QUESTION, thread_id="k2")
    assert hits_per_search(first, "k2") == [4]  # the session's
    again = Session(saver, model=model, corpora=[QUARRY], builtins=False)
    again.ask(QUESTION, thread_id="k")
    assert hits_per_search(again, "k") == [1, 1]  # the thread's recorded k
    again.ask(QUESTION, thread_id="fresh")
    assert hits_per_search(again, "fresh") == [DEFAULT_K]


def test_the_seed_004_search_tool_takes_the_runs_k(scripted: Script) -> None:
    calls: list[tuple[str, int]] = []

    def search(query: str, k: int) -> list[tuple[str, str]]:
        calls.append((query, k))
        return [(f"d{n}", f"passage {n}") for n in range(k)]

    model = scripted(("search", {"query": "granite"}), ("finish", {"answer": "x"}))
    graph = build_agent(model=model, tools=[FunctionSearchTool(search=search), finish])
    result: dict[str, Any] = graph.invoke(
        {"question": QUESTION}, run_config(4), context=Context(k=2)
    )
    assert calls == [("granite", 2)] and result["stopped"] == "answer"


def test_resolve_takes_the_call_then_session_then_thread_then_default() -> None:
    saved = ThreadSettings(model="policy", max_steps=4, k=2)
    assert resolve(RunSettings(), SessionDefaults(), ThreadSettings()).context == Context(
        model=Context().model, max_steps=DEFAULT_MAX_STEPS, k=DEFAULT_K
    )
    assert resolve(RunSettings(), SessionDefaults(), saved).context == Context(
        model="policy", max_steps=4, k=2
    )
    session = SessionDefaults(model="scripted:x.json", k=5)
    assert resolve(RunSettings(), session, saved).context == Context(
        model="scripted:x.json", max_steps=4, k=5
    )
    given = RunSettings(model="openai:m", max_steps=9, k=1, require_search=True)
    chosen = resolve(given, session, saved)
    assert chosen.context == Context(model="openai:m", max_steps=9, k=1, require_search=True)


def test_resolve_notes_each_given_setting_that_overrides_the_thread() -> None:
    saved = ThreadSettings(model="policy", max_steps=4, k=2)
    resolved = resolve(RunSettings(max_steps=4, k=5), SessionDefaults(model="openai:m"), saved)
    assert resolved.overrides == [Override("k", 5, 2)]  # equal max_steps, session model: no note
    assert resolved.overrides[0].line("--k") == "--k 5 overrides the thread's 2"


def test_resolve_checks_the_settings_once_in_the_context() -> None:
    with pytest.raises(ValueError, match="k must be an integer between 1 and 50"):
        resolve(RunSettings(k=0), SessionDefaults(k=3))
    with pytest.raises(ValueError, match="bad corpus name"):
        Context(corpora=["../etc"])


def test_resolve_names_a_fixed_model_and_refuses_another(scripted: Script) -> None:
    fixed = SessionDefaults(fixed_model=scripted("done"))
    name = resolve(RunSettings(), fixed, ThreadSettings(model="policy")).context.model
    assert "ScriptedModel" in name  # the thread's recorded model does not override it
    assert resolve(RunSettings(model=name), fixed).context.model == name
    with pytest.raises(ValueError, match="fixed chat model"):
        resolve(RunSettings(model="policy"), fixed)

"""The seed-004 contract: `graph.app.takehome.run_agent(question, model, search, max_steps, k)`."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from graph.app.takehome import run_agent

DOCS = {
    "d1": "The Atlas scheduler assigns delivery jobs. It is owned by the Fleet Platform team.",
    "d2": "The Fleet Platform team is led by Priya Raman and sits in the Austin office.",
    "d3": "Beacon is the telemetry pipeline. It is owned by the Observability team.",
    "d4": "The Observability team is led by Tomas Ekberg.",
}
RESULT_KEYS = {"answer", "citations", "unsupported", "steps", "stopped"}


class Search:
    """`search(query, k)` over DOCS by shared words; records every call."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, int]] = []

    def __call__(self, query: str, k: int) -> list[tuple[str, str]]:
        self.calls.append((query, k))
        wanted = {w.strip("?.,").lower() for w in query.split()}
        hits = [
            (doc_id, text)
            for doc_id, text in DOCS.items()
            if wanted & {w.strip("?.,").lower() for w in text.split()}
        ]
        return hits[:k]


class Scripted:
    """A seed-004 model callable replaying actions; records the messages of every call."""

    def __init__(self, *actions: Any) -> None:
        self.actions = list(actions)
        self.seen: list[list[dict[str, str]]] = []

    def __call__(self, messages: list[dict[str, str]]) -> Any:
        self.seen.append([dict(m) for m in messages])
        return self.actions[len(self.seen) - 1]


def tool_contents(messages: Sequence[dict[str, str]]) -> list[str]:
    """The contents of the tool messages the callable was given."""
    return [m["content"] for m in messages if m["role"] == "tool"]


def test_answer_with_citations() -> None:
    model = Scripted(
        {"search": "Atlas scheduler"},
        {"search": "Fleet Platform led"},
        {"answer": "Priya Raman", "citations": ["d1", "d2"]},
    )
    search = Search()
    result = run_agent("Who leads the team that owns Atlas?", model, search)
    assert set(result) == RESULT_KEYS
    assert result == {
        "answer": "Priya Raman",
        "citations": ["d1", "d2"],
        "unsupported": [],
        "steps": 3,
        "stopped": "answer",
    }
    assert search.calls == [("Atlas scheduler", 3), ("Fleet Platform led", 3)]


def test_cited_ids_never_retrieved_are_unsupported() -> None:
    model = Scripted({"search": "Beacon"}, {"answer": "Tomas", "citations": ["d3", "d4", "d3"]})
    result = run_agent("Who leads the team that owns Beacon?", model, Search())
    assert (result["citations"], result["unsupported"]) == (["d3"], ["d4"])
    assert result["stopped"] == "answer"


def test_an_answer_without_searching_cites_nothing_supported() -> None:
    result = run_agent("q", Scripted({"answer": "Priya", "citations": ["d2"]}), Search())
    assert result == {
        "answer": "Priya",
        "citations": [],
        "unsupported": ["d2"],
        "steps": 1,
        "stopped": "answer",
    }


@pytest.mark.parametrize("max_steps", [1, 2, 4])
def test_budget(max_steps: int) -> None:
    model = Scripted(*({"search": f"Atlas {i}"} for i in range(20)))
    search = Search()
    result = run_agent("q", model, search, max_steps=max_steps)
    assert result == {
        "answer": None,
        "citations": [],
        "unsupported": [],
        "steps": max_steps,
        "stopped": "budget",
    }
    assert len(model.seen) == max_steps
    assert len(search.calls) == max_steps - 1


def test_an_answer_on_the_last_allowed_step_counts() -> None:
    model = Scripted({"search": "Atlas"}, {"answer": "Fleet Platform", "citations": ["d1"]})
    result = run_agent("q", model, Search(), max_steps=2)
    assert (result["stopped"], result["steps"], result["citations"]) == ("answer", 2, ["d1"])


def test_a_repeated_query_is_not_run_again_and_the_model_is_told() -> None:
    model = Scripted(
        {"search": "Atlas scheduler"},
        {"search": "  atlas   SCHEDULER "},
        {"answer": "Fleet Platform", "citations": ["d1"]},
    )
    search = Search()
    result = run_agent("Who owns Atlas?", model, search)
    assert search.calls == [("Atlas scheduler", 3)]
    told = tool_contents(model.seen[2])[-1]
    assert "Not run again" in told and "step 1" in told
    assert (result["steps"], result["citations"]) == (3, ["d1"])


@pytest.mark.parametrize(
    "action",
    [{"lookup": "Atlas"}, "search Atlas", {"search": "x", "answer": "y"}, None, ["search"]],
    ids=["unknown-key", "string", "both", "none", "list"],
)
def test_an_invalid_action_is_an_error_the_model_sees_and_a_step(action: Any) -> None:
    model = Scripted(action, {"answer": "done", "citations": []})
    search = Search()
    result = run_agent("q", model, search)
    assert (result["stopped"], result["steps"], result["answer"]) == ("answer", 2, "done")
    error = tool_contents(model.seen[1])[-1]
    assert error.startswith("Error: an action is")
    assert search.calls == []


def test_an_invalid_action_counts_against_the_budget() -> None:
    model = Scripted({"bogus": 1}, {"bogus": 2}, {"answer": "late", "citations": []})
    result = run_agent("q", model, Search(), max_steps=2)
    assert (result["stopped"], result["steps"], result["answer"]) == ("budget", 2, None)


def test_every_search_result_goes_back_as_a_tool_message() -> None:
    model = Scripted({"search": "team"}, {"search": "nothing-matches-this"}, {"answer": "x"})
    search = Search()
    run_agent("q", model, search, k=4)
    first, second = tool_contents(model.seen[2])
    for doc_id, text in search("team", 4):
        assert f'id="{doc_id}"' in first and text in first
    assert first.count("<document ") == len(search("team", 4)) == 4
    assert second  # an empty result is still an observation the model sees
    assert search.calls[:2] == [("team", 4), ("nothing-matches-this", 4)]


def test_k_reaches_the_search_function() -> None:
    search = Search()
    run_agent("q", Scripted({"search": "team"}, {"answer": "x"}), search, k=1)
    assert search.calls == [("team", 1)]


def test_the_callable_receives_openai_style_dicts() -> None:
    model = Scripted({"search": "Beacon"}, {"answer": "Tomas", "citations": ["d3"]})
    run_agent("Who owns Beacon?", model, Search())
    first, second = model.seen
    assert all(set(m) == {"role", "content"} for m in second)
    assert all(isinstance(m["content"], str) for m in second)
    assert [m["role"] for m in first] == ["system", "user"]
    assert [m["role"] for m in second] == ["system", "user", "assistant", "tool"]
    assert first[1]["content"] == "Who owns Beacon?"
    assert "Beacon" in second[2]["content"]
    assert "d3" in second[3]["content"]


def test_the_adapter_prompt_shows_single_braces() -> None:
    model = Scripted({"answer": "x"})
    run_agent("q", model, Search())
    prompt = model.seen[0][0]["content"]
    assert '{"search": "<query>"}' in prompt and "{{" not in prompt

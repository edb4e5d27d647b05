"""A FAQ page answers the question its heading asks: made-up Markdown read through the loader."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from corpora import parse_corpus_spec
from graph.agent.budget import run_config
from graph.agent.context import Context
from graph.agent.graph import build_agent
from graph.models.offline.reading import continued
from tools.finish import finish
from tools.search import make_search_tool

FAQ = """# Questions

## How do I report a bug?

Open an issue on the tracker and include the output of `quill --version`.

## Can I use Quill offline?

Yes. Quill works without a network connection once its models are downloaded.

## Which editors does Quill support?

Quill ships plugins for Vim and Emacs.
"""


def ask(folder: Path, question: str) -> dict[str, Any]:
    """The offline policy over the folder's pages: the final state."""
    graph = build_agent(tools=[make_search_tool(parse_corpus_spec(f"kb={folder}")), finish])
    *_, state = graph.stream(
        {"question": question}, run_config(6), context=Context(), stream_mode="values"
    )
    return state


def test_the_first_sentence_under_a_question_heading_answers_it(tmp_path: Path) -> None:
    """No sentence holds "report" or "bug": only the heading asks it."""
    (tmp_path / "faq.md").write_text(FAQ, encoding="utf-8")
    state = ask(tmp_path, "How do I report a bug?")
    assert state["stopped"] == "answer"
    assert state["answer"].startswith("Open an issue on the tracker")


def test_a_bare_yes_is_shown_with_the_sentence_that_explains_it(tmp_path: Path) -> None:
    (tmp_path / "faq.md").write_text(FAQ, encoding="utf-8")
    state = ask(tmp_path, "Can I use Quill offline?")
    assert state["answer"] == (
        "Yes. Quill works without a network connection once its models are downloaded."
    )
    assert continued(["No.", "Quill sends nothing.", "Ask us."]) == [
        "No. Quill sends nothing.",
        "Ask us.",
    ]

"""Change notes (changelog and release-notes passages): which titles are, and the offline
policy reading a feature's page rather than a changelog line naming it."""

from __future__ import annotations

import pytest

from graph.models.actions import Observation
from graph.models.offline.rules import decide
from graph.models.offline.turn import Turn
from tools.change_notes import asks_about_changes, is_change_note
from tools.finish import FINISH_TOOL, finish


@pytest.mark.parametrize(
    "title",
    [
        "changelog.md > Kettle Changelog > [2.1.0] - 2024-03-01 > Changed",
        "CHANGES.rst > Version 2.1.0",
        "HISTORY.md",
        "docs/release-notes/v2.md > Highlights",
        "change_log/release-1.4.md > Kettle 1.4 Release Notes",
        "news.md > 2.0 (2023-05-01)",
        "versionhistory.rst > Version history",  # releases as bold lines, no headings
        "kettle/updates.rst > Version history",
    ],
)
def test_a_changelog_or_release_notes_passage_is_a_change_note(title: str) -> None:
    assert is_change_note(title)


@pytest.mark.parametrize(
    "title",
    [
        "guide.md > Descaling > Usage",
        "contributing.md > Release Process",
        "newsletter.md > Subscribe",
        "guide.md > Versions > 2.0 support",
        "History of Rome",  # no file: a Wikipedia article's title
        "2.0 (album)",
        "",
    ],
)
def test_a_page_or_an_article_is_no_change_note(title: str) -> None:
    assert not is_change_note(title)


def test_a_question_naming_a_version_or_a_change_asks_about_changes() -> None:
    assert asks_about_changes("Which Python version stopped being supported in Kettle 2.1?")
    assert asks_about_changes("In which release was the spout added?")
    assert not asks_about_changes("Which element heats the water in the kettle?")


SPOUT = {
    "id": "changelog.md#4",
    "title": "changelog.md > Kettle Changelog > [2.1.0] - 2024-03-01 > Changed",
    "text": "The spout filter now uses the Brightmesh element for heating water faster.",
}
PAGE = {
    "id": "guide.md#2",
    "title": "guide.md > Heating",
    "text": "The kettle heats water with a coil of Nichrome wire under its base plate.",
}


class Search:
    """A search tool over two made-up hits, enough for `Turn` to read them."""

    name = "search_kettle"
    collection = "kettle"

    def evidence(self, query: str) -> object:  # pragma: no cover - never routed
        raise AssertionError

    def term_weight(self, term: str) -> float:
        return 1.0


def test_the_policy_reads_the_feature_page_not_the_changelog_line() -> None:
    """A question about no change is answered from the page, though the changelog line
    shares more of its words."""
    question = "Which element heats water in the kettle?"
    seen = [
        Observation("search_kettle", {"query": "element heats water kettle"}, hits=[SPOUT, PAGE])
    ]
    turn = Turn(question, seen, [Search(), finish], 1)
    assert [h["id"] for h in turn.hits] == ["guide.md#2"]
    action = decide([Search(), finish], 1, question, seen)
    assert action.tool == FINISH_TOOL and action.args["citations"] == ["guide.md#2"]


def test_a_question_about_a_release_reads_the_changelog() -> None:
    seen = [Observation("search_kettle", {"query": "element release"}, hits=[SPOUT, PAGE])]
    turn = Turn("Which element came in release 2.1.0?", seen, [Search(), finish], 1)
    assert [h["id"] for h in turn.hits] == ["changelog.md#4", "guide.md#2"]


def test_change_notes_are_read_when_nothing_else_was_found() -> None:
    seen = [Observation("search_kettle", {"query": "spout filter"}, hits=[SPOUT])]
    turn = Turn("What does the spout filter use?", seen, [Search(), finish], 1)
    assert [h["id"] for h in turn.hits] == ["changelog.md#4"]

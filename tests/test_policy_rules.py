"""Each rule of the offline policy's table, on made-up passages: when it fires, what it calls,
and the rule name and numbers its Thought shows."""

from __future__ import annotations

import re
from typing import Any

import pytest
from made_up import corpus

from corpora import Corpus, Passage
from graph.models.actions import Action, Observation
from graph.models.confidence import SUPPORT_BAR
from graph.models.offline.declines import unknown_names
from graph.models.offline.rules import RULES, decide
from graph.models.offline.tuning.declining import DECLINE_SUPPORT, SHORT_QUESTION_WORDS
from graph.models.offline.turn import Turn, find_bridge, new_name
from tools.calculator import calculator
from tools.finish import FINISH_TOOL, finish
from tools.search import make_search_tool

OPS = corpus(
    "ops",
    {
        "o1": "The Orion billing service is maintained by the Ledger team.",
        "o2": "The Ledger team is managed by Amara Okafor and works from the Dublin office.",
        "o3": "Servers in the Dublin office are cooled by chillers from Frostline.",
        "o4": "Orion retries a failed invoice five times before alerting finance.",
        "o5": "The Dublin office has a rooftop garden and a bike room.",
        "o6": "Halcyon keeps search snapshots for 14 days.",
    },
)
HR = Corpus("hr", (Passage(id="h1", text="Employees accrue 25 vacation days per year."),))


def tools() -> list[Any]:
    return [make_search_tool(OPS), make_search_tool(HR), calculator, finish]


def observe(tool: Any, action: Action) -> Observation:
    """Run a search action and record what came back."""
    message = tool.invoke(
        {"type": "tool_call", "id": "c", "name": action.tool, "args": action.args}
    )
    return Observation(action.tool, action.args, hits=list(message.artifact or []))


def test_rules_are_tried_in_the_table_order() -> None:
    assert [rule.__name__ for rule in RULES] == [
        *("compute", "answer_computed", "fill_schemas", "no_search_tool", "last_call"),
        *("first_search", "second_hop", "second_part", "follow_up", "read_deeper", "answer"),
    ]


def test_first_search_then_second_hop_name_the_bridge_and_its_coverage() -> None:
    question = "Who manages the team that maintains the Orion billing service?"
    first = decide(tools(), 6, question, [])
    assert first.thought.startswith("first_search: two hops") and first.args == {
        "query": "who maintains the Orion billing service"
    }
    seen = [observe(tools()[0], first)]
    second = decide(tools(), 6, question, seen)
    assert re.match(
        r"second_hop: bridge 'Ledger team' \(clause coverage \d\.\d\d\)", second.thought
    )
    assert second.args["query"].startswith("Ledger team")
    seen.append(observe(tools()[0], second))
    done = decide(tools(), 6, question, seen)
    assert done.tool == FINISH_TOOL and "Amara Okafor" in done.args["answer"]
    assert done.args["citations"] == ["o1", "o2"]
    assert re.match(rf"answer: support \d\.\d\d >= SUPPORT_BAR {SUPPORT_BAR:.2f}", done.thought)


def test_a_bridge_is_read_from_the_passages_prose_not_its_title_line() -> None:
    """A title ("guide.md > Quartz Handbook > Extensions") labels a passage: it names no bridge,
    though "Quartz Handbook" is followed there by the clause's noun."""
    title = "guide.md > Quartz Handbook > Extensions > Debug"
    text = f"{title}. The debug tag is added by Tracer when enabled."
    seen = [Observation("search_ops", {"query": "who adds the debug tag"}, hits=[
        {"id": "g1", "title": title, "text": text}])]  # fmt: skip
    question = "What is the import name of the extension that adds the debug tag?"
    bridge = find_bridge(Turn(question, seen, tools(), 6))
    assert bridge is not None and bridge.name == "Tracer"


@pytest.mark.parametrize(
    "prose",
    [
        # a question the passage asks states nothing, and an address's path names nothing
        "Does Quill add the debug tag? The debug tag is added by Tracer.",
        "See https://example.invalid/Zephyr-Tools/adds-the-debug-tag. The debug tag is added by "
        "Tracer.",
    ],
)
def test_a_bridge_is_never_read_from_a_question_or_a_web_address(prose: str) -> None:
    seen = [Observation("search_ops", {"query": "who adds the debug tag"}, hits=[
        {"id": "g1", "text": prose}])]  # fmt: skip
    question = "What is the import name of the extension that adds the debug tag?"
    bridge = find_bridge(Turn(question, seen, tools(), 6))
    assert bridge is not None and bridge.name == "Tracer"


@pytest.mark.parametrize(
    "body",
    [
        "Cooling comes from Frostline chillers.",
        "cooling comes from Frostline chillers.",  # a chunk's cut sentence runs into the title
    ],
)
def test_follow_up_leads_with_a_name_of_the_prose_not_of_the_title_line(body: str) -> None:
    title = "ops.md > Quartz Handbook > Dublin office servers"
    hit = {"id": "g2", "title": title, "text": f"{title}. {body}"}
    seen = [Observation("search_ops", {"query": "Dublin office servers"}, hits=[hit])]
    turn = Turn("Which vendor cools the Dublin office servers?", seen, tools(), 6)
    lead = new_name(turn)
    assert lead is not None and lead.name == "Frostline"


def test_follow_up_shows_the_coverage_below_covered() -> None:
    hits = [{"id": "o5", "text": OPS.get("o5").text}]
    seen = [Observation("search_ops", {"query": "rooftop office"}, hits=hits)]
    action = decide(tools(), 6, "Which company cools the rooftop office servers?", seen)
    assert re.match(r"follow_up: coverage 0\.\d\d < COVERED 0\.80; lead 'Dublin'", action.thought)
    assert action.args["query"].startswith("Dublin") and "servers" in action.args["query"]


def test_last_call_answers_with_what_was_found_and_names_itself() -> None:
    hits = [{"id": "o4", "text": OPS.get("o4").text}]
    seen = [Observation("search_ops", {"query": "Orion retries invoice"}, hits=hits)]
    action = decide(tools(), 2, "How many times does Orion retry a failed invoice?", seen)
    assert action.tool == FINISH_TOOL and action.thought.startswith("last_call: 1 call left")
    # "how many times": the count alone, its unit is the question's word
    assert action.args["short_answer"] == "five" and action.args["citations"] == ["o4"]


def test_answer_declines_a_short_question_below_the_lower_bar_with_the_numbers() -> None:
    """Orion's passages hold neither "snapshots" nor "keep": a short question, no answer."""
    hits = [{"id": i, "text": OPS.get(i).text} for i in ("o1", "o4")]
    seen = [Observation("search_ops", {"query": "Orion snapshots"}, hits=hits)]
    action = decide(tools(), 2, "How many snapshots does Orion keep?", seen)
    assert action.tool == FINISH_TOOL and action.args == {"answer": None, "citations": []}
    assert re.search(
        rf"support 0\.\d\d < DECLINE_SUPPORT {DECLINE_SUPPORT:.2f} for 3 question words "
        rf"\(<= SHORT_QUESTION_WORDS {SHORT_QUESTION_WORDS}\); no cited passage holds "
        r"'snapshots', 'keep'.*; decline$",
        action.thought,
    )


def test_answer_declines_a_short_question_naming_what_no_corpus_holds() -> None:
    """The Ledger team's passage covers all but "Zephyr", which no passage holds."""
    hits = [{"id": "o1", "text": OPS.get("o1").text}]
    seen = [Observation("search_ops", {"query": "Zephyr team Orion"}, hits=hits)]
    action = decide(tools(), 2, "Which Zephyr team maintains the Orion billing service?", seen)
    assert action.args == {"answer": None, "citations": []}
    assert "no searched passage holds 'zephyr', which the question names" in action.thought
    answered = decide(tools(), 2, "Which team maintains the Orion billing service?", seen)
    assert answered.args["citations"] == ["o1"]


def test_a_long_question_naming_what_no_corpus_holds_is_answered() -> None:
    """A longer question describes a case in the asker's own words (`SHORT_QUESTION_WORDS`)."""
    hits = [{"id": "o1", "text": OPS.get("o1").text}]
    seen = [Observation("search_ops", {"query": "Orion billing"}, hits=hits)]
    question = (
        "Our Zephyr auditors keep asking which team maintains and runs the Orion billing "
        "service for the whole company every single night?"
    )
    assert unknown_names(Turn(question, seen, tools(), 2)) == ["zephyr"]
    assert decide(tools(), 2, question, seen).args["citations"] == ["o1"]


def test_unknown_names_are_whole_words_past_each_sentences_first_word() -> None:
    question = "Crew report an xPhone fault. Does the Ledger team fix it?"
    # "Crew" opens a sentence; "xPhone" is read whole ("Phone" alone is no word of it)
    assert unknown_names(Turn(question, [], tools(), 6)) == ["xphone"]


def test_a_lowercase_word_joined_to_a_name_is_no_name_word() -> None:
    # "Orion" is held; "throttled" is in no passage, but it is no name of the question's
    assert unknown_names(Turn("Is Orion-throttled billing retried?", [], tools(), 6)) == []
    assert unknown_names(Turn("Is Orion-Zephyr billing retried?", [], tools(), 6)) == ["zephyr"]


def test_a_yes_no_question_with_a_relative_clause_is_searched_in_one_hop() -> None:
    """The clause describes what is asked about; it is no bridge to find first."""
    question = "Is the service that the Ledger team maintains retried on failure?"
    assert Turn(question, [], tools(), 6).hop is None
    first = decide(tools(), 6, question, [])
    assert first.thought.startswith("first_search:") and "two hops" not in first.thought
    assert Turn("Who manages the team that maintains Orion?", [], tools(), 6).hop is not None


def test_a_which_that_asks_the_question_after_a_preposition_opens_no_hop() -> None:
    """ "of which team does ..." is the question's own "which" (a noun, then "do")."""
    question = "The rooftop garden of which office does the Ledger team use?"
    assert Turn(question, [], tools(), 6).hop is None
    first = decide(tools(), 6, question, [])
    assert first.thought.startswith("first_search:") and "two hops" not in first.thought
    assert Turn(
        "Who cools the servers of the office in which the Ledger team works?", [], tools(), 6
    ).hop


def test_first_search_adds_the_finite_form_of_a_does_questions_closing_verb() -> None:
    """ "does Orion retry" is answered by "Orion retries": the form the passages hold joins."""
    question = "How many times does the Orion billing service retry?"
    first = decide(tools(), 6, question, [])
    assert first.args["query"].split()[-1] == "retries"
    assert "'retries' (the verb as a statement writes it)" in first.thought
    short = decide(tools(), 6, "When does Orion retry?", [])  # 2 words: the form would lead
    assert "retries" not in short.args["query"]
    unheld = decide(tools(), 6, "Which office does the Ledger team manage?", [])
    assert "manages" not in unheld.args["query"]  # no passage writes "manages"


def test_a_search_without_term_statistics_knows_no_name_to_be_unknown() -> None:
    class Remote:
        """A search tool that weighs every word the same, like a remote one."""

        name = "search_remote"

        def term_weight(self, term: str) -> float:
            return 1.0

    assert unknown_names(Turn("Which Zephyr team is it?", [], [Remote()], 6)) == []


def test_answer_between_the_bars_is_given_with_its_support_below_the_bar() -> None:
    """Orion's passage covers the service but not its snapshots: answered, not confident."""
    hits = [{"id": i, "text": OPS.get(i).text} for i in ("o1", "o6")]
    seen = [Observation("search_ops", {"query": "Orion snapshots"}, hits=hits)]
    action = decide(tools(), 2, "Which snapshots does the Orion billing service keep?", seen)
    assert action.tool == FINISH_TOOL and action.args["citations"] == ["o1"]
    value = float(re.findall(r"support (\d\.\d\d)", action.thought)[0])
    assert DECLINE_SUPPORT <= value < SUPPORT_BAR
    assert f"< SUPPORT_BAR {SUPPORT_BAR:.2f}" in action.thought
    # asked how many, the same answer states no quantity: declined (`declines.unquantified`)
    counted = decide(tools(), 2, "How many snapshots does the Orion billing service keep?", seen)
    assert counted.args == {"answer": None, "citations": []}
    assert "the answer states no quantity where the question asks for one" in counted.thought


def test_compute_then_answer_computed() -> None:
    action = decide(tools(), 6, "what is 6 * 7?", [])
    assert action.tool == "calculator" and action.thought.startswith("compute:")
    done = Observation("calculator", action.args, content="42")
    answer = decide(tools(), 6, "what is 6 * 7?", [done])
    assert answer.args == {"answer": "6 * 7 = 42.", "citations": []}
    assert answer.thought == "answer_computed: the calculator gave 42"


def test_no_search_tool_declines() -> None:
    action = decide([finish], 6, "Who manages the Ledger team?", [])
    assert action.args == {"answer": None, "citations": []}
    assert action.thought.startswith("no_search_tool:")


KETTLE = corpus(
    "kettle",
    {
        "k1": "The Kettle firmware is built on the Brewix runtime.",
        "k2": "A descaling cycle can run on a schedule: the cycle runs at night when you make one.",
        "k3": "To make the Kettle run a descaling cycle, hold its power button for five seconds.",
        "k4": "The descaling cycle uses citric acid and runs for twenty minutes.",
        "k5": "The Kettle holds 1.7 litres of water.",
    },
)


def test_a_question_asking_two_things_searches_and_answers_each_ask() -> None:
    question = (
        "Which runtime is the Kettle firmware built on, and how do I make it run a descaling cycle?"
    )
    tool = make_search_tool(KETTLE, k=1)
    kit = [tool, finish]
    first = decide(kit, 6, question, [])
    assert first.thought.startswith("first_search: two asks")
    assert first.args == {"query": "runtime Kettle firmware built"}
    seen = [observe(tool, first)]
    second = decide(kit, 6, question, seen)
    assert second.thought.startswith("second_part: the second ask")
    assert second.args == {"query": "Kettle make run descaling cycle"}
    seen.append(observe(tool, second))
    done = decide(kit, 6, question, seen)
    assert done.tool == FINISH_TOOL and done.args["citations"] == ["k1", "k3"]
    assert "Brewix" in done.args["answer"] and "five seconds" in done.args["answer"]
    assert "short_answer" not in done.args  # one short answer would answer half the question


def test_a_word_capitalised_only_in_a_title_and_at_a_sentence_start_is_no_short_answer() -> None:
    docs = Corpus(
        "guide",
        (
            Passage(
                id="g1",
                title="guide.md > Gates > Guards",
                text="Guards at the gate check the badge of every visitor.",
            ),
            Passage(id="g2", text="The lobby opens at eight and closes at six."),
            Passage(id="g3", text="Visitors sign the register at the front desk."),
            Passage(id="g4", text="The car park has forty spaces."),
            Passage(id="g5", text="Lost badges are replaced by the security office."),
        ),
    )
    tool = make_search_tool(docs, k=1)
    question = "What checks the badge of every visitor?"
    seen = [observe(tool, decide([tool, finish], 6, question, []))]
    done = decide([tool, finish], 6, question, seen)
    assert done.tool == FINISH_TOOL and done.args["citations"] == ["g1"]
    assert "short_answer" not in done.args  # "Guards" opens its sentence: no name

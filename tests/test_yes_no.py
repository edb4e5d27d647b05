"""A yes or no is read from the sentence that states what was asked, its negation where it
attaches to the question's predicate; unsure gives None. Made-up passages only."""

from __future__ import annotations

import pytest

from graph.models.offline.short_answers import question_kind, short_answer
from graph.models.offline.yes_no import yes_or_no


@pytest.mark.parametrize(
    ("question", "answer", "said"),
    [
        ("Is Linux supported by Tern?", ["Linux is supported by Tern."], "yes"),
        ("Is Windows supported by Tern?", ["Windows isn't supported by Tern."], "no"),
        ("Is Windows supported by Tern?", ["Windows is not supported by Tern."], "no"),
        # the negation sits in the condition, which the question holds too
        (
            "Does the Pellam pump stop when the tank is not full?",
            ["The Pellam pump stops automatically if the tank is not connected or not full."],
            "yes",
        ),
        # a condition the question does not hold: its negation is still no "no"
        (
            "Does the Pellam pump stop on its own?",
            ["The Pellam pump stops on its own unless the valve is not closed."],
            "yes",
        ),
        # "including" states a yes; the subject said again in a later sentence of the passage
        (
            "Does Vantor support Linux?",
            ["Vantor is a reader. Vantor supports every desktop system including Linux."],
            "yes",
        ),
        # the statement's subject is a pronoun continuing the sentence before
        (
            "Does the Tallis reader export notes to plain text?",
            ["The Tallis reader is a small app.", "It exports notes to plain text."],
            "yes",
        ),
        (
            "Does the old exporter still run on Quill?",
            ["The old exporter no longer runs on Quill."],
            "no",
        ),
        # a negation in another clause, about something the question does not ask
        (
            "Does the Rowan client support Linux?",
            ["The Rowan client supports Linux, but there is no installer for Quill."],
            "yes",
        ),
        (
            "Does the Harl ferry carry bicycles?",
            ["The Harl ferry not only carries cars but also bicycles."],
            "yes",
        ),
        (
            "Is the Orrin kettle not safe in a dishwasher?",
            ["The Orrin kettle is not safe in a dishwasher."],
            "yes",
        ),
        # the other side of the contrast adds no question word: the main clause decides
        (
            "Are ponies allowed in the Brell greenhouse?",
            ["Ponies are not allowed in the Brell greenhouse, although guide ponies are welcome."],
            "no",
        ),
        # "without" denies its object ("a session cookie"), not what the question asks
        (
            "Is the Tarn cache enabled by default?",
            [
                "If the Tarn cache is enabled (the default), a request to the cache without "
                "a session cookie is answered from memory."
            ],
            "yes",
        ),
        # ... and a name of code is one word: "an alive ping" is not the asked "keep_alive"
        (
            "Is keep_alive enabled by default in Tarn?",
            [
                "When keep_alive is enabled (the default), a Tarn client without an alive "
                "ping is dropped."
            ],
            "yes",
        ),
        # its object is what the question asks about: a no
        (
            "Does the Brell tool need root access?",
            ["The Brell tool runs without root access."],
            "no",
        ),
        # the question holds "without" itself: the statement's answers it
        (
            "Can the Brell tool run without root access?",
            ["The Brell tool can run without root access."],
            "yes",
        ),
        # a need avoided is no need: a no to "do I have to" ...
        (
            "Do I have to register a Brell plugin before the tool can load it?",
            ["The Brell tool loads a brell.py file, which avoids the need to register a plugin."],
            "no",
        ),
        # ... but "avoid" alone denies nothing, even of a word the question asks about
        (
            "Does the Brell tool register plugins itself?",
            ["The Brell tool registers plugins itself to avoid a slow start."],
            "yes",
        ),
        (
            "Does the Brell server cache responses?",
            ["The Brell server caches responses to avoid slow responses."],
            "yes",
        ),
        # a statement opening with a pronoun is read with the sentence it points back at
        (
            "Must a zone added by a Brell plugin's add_zones hook be listed in brell.toml?",
            [
                "Brell plugins add zones that don't need to be listed in brell.toml. "
                "This uses the add_zones hook to name each zone."
            ],
            "no",
        ),
        (
            "Must a zone added by a Brell plugin's add_zones hook be listed in brell.toml?",
            [
                "Brell plugins add zones that need to be listed in brell.toml. "
                "This uses the add_zones hook to name each zone."
            ],
            "yes",
        ),
        # the other side of a contrast, turned the other way, is the case asked: it decides
        (
            "Are guide ponies allowed in the Brell greenhouse?",
            ["Ponies are not allowed in the Brell greenhouse, although guide ponies are welcome."],
            "yes",
        ),
        (
            "Does Quill write a changelog entry by default?",
            ["Quill will gladly write a changelog entry for you, however it will not by default."],
            "no",
        ),
        (
            "Does Tern run on Windows?",
            ["Tern runs on Linux and macOS, but not on Windows."],
            "no",
        ),
        # "different ... than" is one comparison, stated by "different" without a "than"
        (
            "Can a Tarn field use a different name for reading than for writing?",
            [
                "The same name is used for reading and writing. It is not possible to give "
                "a Tarn field a different name for reading and writing."
            ],
            "no",
        ),
        # a hyphenated name is one word of the question: its subject said as "This" misses one
        (
            "Is Brell-Tarn a fork of Quill?",
            ["Note This is not a fork of Quill; nor does it try to be."],
            "no",
        ),
        # a negation in a parenthesis is no contrast ("super() ever" splits at its brackets)
        (
            "Does Quill ever call reset()?",
            ["Please note that Quill does not call reset() ever."],
            "no",
        ),
        # a word negating a question word by its prefix is a negation ...
        ("Can I return a used Orrin kettle?", ["You can return any unused Orrin kettle."], "no"),
        ("Is the Orrin socket blocking?", ["Orrin sockets are non-blocking."], "no"),
        (
            "Are refunds offered for opened items?",
            ["Refunds are offered for unopened items."],
            "no",
        ),
        # ... unless the question writes it too, or it opens a condition
        ("Is Orrin unsupported on Windows?", ["Orrin is unsupported on Windows."], "yes"),
        # an action undone is no denial, nor is a word the sentence also writes plainly
        ("Can I install Orrin with pip?", ["Orrin is uninstalled with pip too."], "yes"),
        ("Can I install Orrin with pip?", ["Orrin can be installed or uninstalled."], "yes"),
        # a FAQ's bare "No." replies to its heading: the sentence after it is read
        ("Does Orrin work offline?", ["No. Orrin works fully offline once installed."], "yes"),
        ("Does Orrin collect telemetry?", ["No. Orrin never collects telemetry."], "no"),
        ("Does Orrin retry a request?", ["Orrin retries a request unless it times out."], "yes"),
    ],
)
def test_yes_or_no_reads_the_negation_of_the_statement(
    question: str, answer: list[str], said: str
) -> None:
    assert yes_or_no(question, answer) == said


@pytest.mark.parametrize(
    ("question", "answer"),
    [
        # a restriction says no to what is asked without a negation: unsure
        ("Are refunds offered for opened items?", ["Refunds are offered for sealed items only."]),
        # a comparison of two entities no single sentence states
        (
            "Are Ida Marr and Tomas Quell both architects?",
            ["Ida Marr is an architect from Oslo.", "Tomas Quell is an architect from Bergen."],
        ),
        (
            "Is the Lantern Bridge older than the Harl Bridge?",
            ["The Lantern Bridge opened in 1931."],
        ),
        # "Brell" is not the asked "Brell-Tarn": a compound missing a part is a word missing
        ("Is Brell-Tarn thread-safe?", ["Brell is thread-safe."]),
        # the sentence lacks most of what the question asks
        (
            "Are hidden commands shown in shell completion suggestions?",
            ["Hidden commands are not shown."],
        ),
        # the question holds a negation the sentence does not: which way it leans is unclear
        (
            "Is the Orrin kettle not safe in a dishwasher?",
            ["The Orrin kettle is safe in a dishwasher."],
        ),
        # the side turned the other way holds the asked-for word, but is about something else
        # (a subject and object of its own): the sentence says both
        (
            "Does Tern support Linux by default?",
            ["Tern supports Linux, but the default build does not include the GUI."],
        ),
        # ... or is not the case asked ("Windows 95" for "Windows 11")
        ("Does Tern run on Windows 11?", ["Tern runs on Linux, but not on Windows 95."]),
        # two sides turned the other way, each adding a question word
        (
            "Do guide ponies and show ponies enter the Brell greenhouse?",
            [
                "Ponies do not enter the Brell greenhouse, but guide ponies may, "
                "although show ponies may too."
            ],
        ),
    ],
)
def test_unsure_gives_no_yes_or_no(question: str, answer: list[str]) -> None:
    assert yes_or_no(question, answer) is None


def test_advice_against_a_setting_reads_as_no() -> None:
    said = [
        "If you oil the Brell hinge often, dust sticks to it, "
        "so we recommend you do not oil it in winter."
    ]
    question = "Should I oil the Brell hinge in winter?"
    assert short_answer(question, question_kind(question), said, "", set()) == "no"


def test_no_yes_for_a_question_word_no_corpus_holds() -> None:
    said = ["Tern is free for open source projects."]
    assert yes_or_no("Is Tern free for commercial projects?", said) == "yes"
    assert yes_or_no("Is Tern free for commercial projects?", said, {"commercial"}) is None
    asked = "Does Tern currently support Windows?"  # an adverb names no case
    assert yes_or_no(asked, ["Tern supports Windows."], {"currently"}) == "yes"
    assert yes_or_no("Is it possible to run Tern on ARM?", ["Tern runs on ARM."], {"possible"})
    denied = ["Tern is not free for projects."]  # a "no" denies what both share: it stands
    assert yes_or_no("Is Tern free for commercial projects?", denied, {"commercial"}) == "no"


def test_the_short_answer_of_a_yes_no_question_is_the_reading() -> None:
    said = ["Windows isn't supported by Tern."]
    assert short_answer("Is Windows supported by Tern?", "yesno", said, "", set()) == "no"


@pytest.mark.parametrize(
    ("question", "answer", "said"),
    [
        (
            "Does the Tallis store keep notes encrypted?",
            ["The Tallis store keeps notes on disk as they are, without encrypting them."],
            "no",
        ),
        (
            "Do I have to restart Brell to load a Quill plugin?",
            ["Brell loads Quill plugins while it runs, so it doesn't need a restart."],
            "no",
        ),
        (
            "Will Tern reformat the examples inside my notes?",
            [
                "Thus, text inside notes or manuals (e.g. examples), "
                "will not be reformatted by Tern."
            ],
            "no",
        ),
        # the other clause holds no question word the main one lacks: it says nothing asked
        (
            "Does Tern format the code?",
            ["Tern formats the code, not the comments."],
            "yes",
        ),
    ],
)
def test_the_clause_saying_what_is_asked_of_the_subject_decides(
    question: str, answer: list[str], said: str
) -> None:
    """The subject in one clause, the asked predicate (and its negation) in another."""
    assert yes_or_no(question, answer) == said

"""Which span of the answer sentence is the short answer, kind by kind. Made-up passages only.

Each case is a question, the answer's sentences and the short answer expected (None: the
sentence stands alone). `short_answer` reads them the way the policy's `answer` rule calls it:
the question is also what is already known, and the capitalised words are those the sentences
write capitalised mid-sentence.
"""

from __future__ import annotations

import pytest

from graph.models.offline.reading import mid_capitals, names, split_statements
from graph.models.offline.short_answers import question_kind, short_answer


def short(question: str, *answer: str) -> str | None:
    """The short answer of `question` from the sentences `answer`."""
    capitalised = mid_capitals([*answer, question])
    return short_answer(question, question_kind(question), list(answer), question, capitalised)


@pytest.mark.parametrize(
    ("question", "sentence", "expected"),
    [
        # a one-word modifier stays with its number; a spelled multiplier joins it
        (
            "How many maps does the Vell archive hold?",
            "The Vell archive holds over 1,600 maps.",
            "over 1,600",
        ),
        (
            "How many records has the Pell label sold?",
            "The Pell label has sold 118 million records.",
            "118 million",
        ),
        # "several hundred" counts nothing
        (
            "How many visitors came to the Orrin fair?",
            "Several hundred visitors came to the Orrin fair.",
            None,
        ),
        # a parenthesised conversion is no second number
        (
            "How high is Mount Harl?",
            "Mount Harl rises 2,100 metres (6,890 ft) high.",
            "2,100 metres",
        ),
        # a date's day is no count
        (
            "What was the population of Vell in 2015?",
            "The population of Vell was 12,400 on July 1, 2015.",
            "12,400",
        ),
        # of two numbers, the one standing next to the question's noun
        (
            "What was the depth of the Dunmore wreck?",
            "The Dunmore wreck lies 80 kilometres west of Vell, at a depth of 19 km.",
            "19 km",
        ),
        # "how old" wants an age, never a year
        (
            "How old was Ida Marr when she won the Harl prize?",
            "In 1931, at the age of 20, Ida Marr won the Harl prize.",
            "20",
        ),
        (
            "What percent of Vell staff work remotely?",
            "About 6.3 percent of Vell staff work remotely.",
            "About 6.3 percent",
        ),
        # "how many" counts the noun it names, as the sentence words it
        (
            "How many undergrad students attend Vell College?",
            "Vell College has over 1,200 undergraduates in six departments.",
            "over 1,200",
        ),
        (
            "How many dorms for women does Vell have?",
            "Vell has 15 male dorms and 14 female dorms.",
            None,
        ),
        # an amount is its own unit
        (
            "How much will the Vell library cost?",
            "The Vell library is a $215 million development.",
            "$215 million",
        ),
        # a duration is no count
        (
            "How many staff does the Orrin depot have?",
            "The Orrin depot opened 3 years ago and has 40 staff.",
            "40",
        ),
    ],
)
def test_numbers_of_the_quantity_asked(question: str, sentence: str, expected: str | None) -> None:
    assert short(question, sentence) == expected


@pytest.mark.parametrize(
    ("question", "sentence", "expected"),
    [
        (
            "In what month did the Harbour shop reopen?",
            "The Harbour shop reopened on 12 March 2019.",
            "March",
        ),
        # of two years, the one right after the question's words
        (
            "When did the Harl line reach Dunmore from the west?",
            "The Harl line reached Dunmore from the west in 1881 and from the east in 1882.",
            "1881",
        ),
        (
            "When did owners of the Tern player complain about its screen?",
            "In late 2005, owners of the Tern player complained about its screen.",
            "late 2005",
        ),
        # no date gives a century
        (
            "In what century was the Lantern Bridge built?",
            "The Lantern Bridge was built in 1831.",
            None,
        ),
        # a clause before the question does not make it a "when" question
        (
            "When the Tern store opened, what format did it sell?",
            "The Tern store opened in May 2003.",
            None,
        ),
    ],
)
def test_dates_of_the_part_asked(question: str, sentence: str, expected: str | None) -> None:
    assert short(question, sentence) == expected


@pytest.mark.parametrize(
    ("question", "sentence", "expected"),
    [
        # a name written against the question's noun
        (
            "Which magazine named Ida Marr architect of the year?",
            "Ida Marr was in Vell Weekly, and the Harbor magazine named her architect of the year.",
            "Harbor",
        ),
        (
            "Which package uses Orrin under the hood?",
            "An example is the package tern-config that uses Orrin under the hood.",
            "tern-config",
        ),
        # "what <noun>" inside the question asks for a name too
        (
            "To what league did the Vell Rovers move after 1990?",
            "After 1990 the Vell Rovers moved to the Harl League.",
            "Harl League",
        ),
        # one of a kind is named ("what is the refund policy" asks for a sentence)
        (
            "What is the main seminary of the Vell order?",
            "Its main seminary, Orrin Seminary, is in Dunmore.",
            "Orrin Seminary",
        ),
        (
            "What is the refund policy of the Vell shop?",
            "The Vell shop refunds unopened items within 30 days at Dunmore.",
            None,
        ),
        # of "A and B", the part the question does not name
        (
            "Vell and what other member of the Harl board voted no?",
            "Two members of the Harl board, Orrin and Vell, voted no.",
            "Orrin",
        ),
        # the question's own noun alone names nothing
        (
            "Which internet radio station does Vell run?",
            "Vell runs an Internet radio station, WVFI, for students.",
            "WVFI",
        ),
        # a thing of code is never another capitalised word of the sentence
        (
            "Which function combines echo and style in Tern?",
            "The echo function of Tern supports ANSI colors and styles.",
            None,
        ),
        (
            "Which undefined type fails on every undefined value?",
            "Use StrictUndefined, which fails on every undefined value.",
            "StrictUndefined",
        ),
        # a capitalised word joined to lowercase ones is an English compound, no code
        (
            "Which function checks that Tern code yields?",
            "Tern code that is CPU-bound seldom yields, so the checker is run on it first.",
            None,
        ),
        (
            "Which pool method starts a Tern job?",
            "The pool methods have some Pond-specific quirks when they start a job.",
            None,
        ),
        # a title the sentence quotes answers "which song"
        (
            "Which other song did better in the charts?",
            'Another of her songs, "Summer Rain", did better in the charts.',
            "Summer Rain",
        ),
        # a people's adjective, a possessor, part of a longer token: no names asked for
        (
            "What television station aired the Harl film?",
            "The Harl film was shown on Italian television.",
            None,
        ),
        ("Who edited the Vell catalogue?", "Ida Marr's Vell catalogue was edited that year.", None),
        ("What company builds the Tern dock?", "The iPod dock is built by Tern.", None),
    ],
)
def test_names_of_the_thing_asked(question: str, sentence: str, expected: str | None) -> None:
    assert short(question, sentence) == expected


@pytest.mark.parametrize(
    ("question", "sentence", "expected"),
    [
        (
            "Who denied the testing?",
            "The testing was denied by the Vell council.",
            "the Vell council",
        ),
        (
            "Who patrolled the north gate?",
            "The rangers were compared with the Harl guards who patrolled the north gate.",
            "the Harl guards",
        ),
        (
            "Who declared a day of mourning?",
            "The State Board declared a day of mourning.",
            "The State Board",
        ),
        (
            "The Vell team got a new coach in 1918, who was it?",
            "In 1918, Knut Rask became coach of the Vell team.",
            "Knut Rask",
        ),
        # "was shut" asks what was acted on: the airport, not a doer
        (
            "Which airport was shut down?",
            "After the storm, Dunmore Airport was shut down by the police.",
            "Dunmore Airport",
        ),
        # an opening phrase that is no name is no doer
        (
            "Who approves refunds over 200 euros?",
            "Please ask Dana Holt to approve refunds over 200 euros.",
            "Dana Holt",
        ),
        # a sentence's first word stays its first past a parenthetical before it
        (
            "Which tool checks the Vell kiosk's receipts?",
            "(Kiosk builds only) Quiet checks should be marked with a flag.",
            None,
        ),
    ],
)
def test_the_doer_of_the_questions_verb(question: str, sentence: str, expected: str) -> None:
    assert short(question, sentence) == expected


@pytest.mark.parametrize(
    ("question", "sentence", "expected"),
    [
        (
            "Where did Ida Marr make her debut?",
            "Ida Marr was born in Vell and made her debut in Dunmore.",
            "Dunmore",
        ),
        # a place the sentence does not tie to the question is a guess
        ("Where did Ida Marr study?", "Ida Marr lived in Vell for ten years.", None),
        (
            "Tysons Gallery is located in what county?",
            "Tysons Gallery is in Fairfax County near the Vell Metro.",
            "Fairfax County",
        ),
        # "which country music star" asks for no place
        ("Which country music star recorded Harl Road?", "Harl Road was recorded in Vell.", None),
    ],
)
def test_places_tied_to_the_question(question: str, sentence: str, expected: str | None) -> None:
    assert short(question, sentence) == expected


def test_a_direction_for_which_direction() -> None:
    answer = ["The Oss rises near Harl Peak.", "It flows north through Vell Park to Dunmore."]
    assert short("Which direction does the Oss flow through Vell Park?", *answer) == "north"


def test_the_statement_holding_most_of_the_question_is_read_first() -> None:
    """A chain's two sentences: the span comes from the one about what was asked."""
    answer = ["Acme was acquired by Globex in 2001.", "Globex earbuds carry a 2-year warranty."]
    question = "How long is the warranty on Globex earbuds?"
    assert short(question, *answer) == "2-year"


def test_statements_split_before_lowercase_words_but_not_after_initials() -> None:
    assert split_statements(["It won. attrs is old.", "C. W. Grafton wrote it."]) == [
        "It won.",
        "attrs is old.",
        "C. W. Grafton wrote it.",
    ]


@pytest.mark.parametrize(
    ("sentence", "found"),
    [
        # a heading word run into the sentence opens it, then a function word: neither is a name
        ("Extension In older versions of Tallis it was an add-on.", ["Tallis"]),
        ("In Tallis the reader is built in.", ["Tallis"]),
        ("The Fleet Platform team owns Beacon.", ["Fleet Platform", "Beacon"]),
    ],
)
def test_names_never_start_with_the_opening_word_or_a_function_word(
    sentence: str, found: list[str]
) -> None:
    assert [name.text for name in names(sentence)] == found


@pytest.mark.parametrize(
    ("question", "kind"),
    [
        ("Which object lets me limit how many lamps glow at once?", "name"),
        ("Which tool tells how long the kiln has been firing?", "name"),
        ("How many lamps does the Orla kit hold?", "number"),
        ("For how long is the kiln fired?", "duration"),
        ("Which version of the Orla kit added dimming?", "number"),
        ("What year did the Orla kiln open?", "date"),
    ],
)
def test_an_opening_which_noun_says_the_kind_not_a_later_how_clause(
    question: str, kind: str
) -> None:
    assert question_kind(question) == kind


def test_the_object_asked_for_is_the_short_answer_not_the_count_beside_it() -> None:
    question = "Which object lets me limit how many lamps glow at once?"
    sentence = "A LampLimiter object caps how many lamps glow, at most 3 at a time."
    assert short(question, sentence) == "LampLimiter"


@pytest.mark.parametrize(
    ("question", "sentence", "expected"),
    [
        (
            "What exit code does the kiln tool return when the lid is open?",
            "When the lid is open, the kiln tool stops and returns exit code 3.",
            "3",
        ),
        (
            "Which status code does the Orla gateway send when the queue is full?",
            "The Orla gateway answers with a 503 status code when its queue is full.",
            "503",
        ),
        (
            "What exit status does kiln-check return when it hits an internal error?",
            "kiln-check exits with code 123 if there was an internal error.",
            "123",
        ),
        # a status is a whole number, bare: not a version, not "206 Partial" of its reason
        (
            "Which HTTP status does the Orla gateway answer a range request with?",
            "Since Orla 0.3 the gateway answers a range request with 206 Partial Content.",
            "206",
        ),
    ],
)
def test_a_status_or_exit_code_is_asked_as_a_number(
    question: str, sentence: str, expected: str
) -> None:
    assert question_kind(question) == "number"
    assert short(question, sentence) == expected


@pytest.mark.parametrize(
    ("question", "counting", "naming", "expected"),
    [
        (
            "With --quiet, what exit code does kiln-check give when a firing is due?",
            "To make checks scriptable, kiln-check offers two options: --json and --quiet.",
            "With --quiet, kiln-check exits with 2 when a firing is due.",
            "2",
        ),
        (
            "Which port does the Orla gateway listen on?",
            "The Orla gateway listens on three ports at once, one per queue.",
            "The Orla gateway listens on port 8040.",
            "8040",
        ),
    ],
)
def test_a_code_or_port_is_written_in_digits_never_a_spelled_count(
    question: str, counting: str, naming: str, expected: str
) -> None:
    assert question_kind(question) == "number"
    assert short(question, counting) is None
    assert short(question, naming) == expected


def test_a_label_after_a_colon_is_no_name_a_chain_may_take() -> None:
    # "Firing:" is capitalised after a colon as a first word is: no evidence of a name, so
    # the second sentence, which opens with it, gives no short answer
    first = "The Orla kiln is started by a helper on boot: orla.start."
    second = "Firing: Orla heats the chamber and logs each zone."
    listing = "The Orla kiln works in two phases: Firing: Orla heats the chamber."
    assert "firing" not in mid_capitals([listing, first, second])
    capitalised = mid_capitals([listing, first, second])
    question = "What line starts the Orla kiln on boot?"
    assert short_answer(question, "name", [first, second], question, capitalised) is None
    # a name written mid-sentence after anything else still counts
    assert "vell" in mid_capitals(["Orla kilns are made in Vell since 1990."])


def test_a_name_after_a_colon_is_still_a_name() -> None:
    found = mid_capitals(
        ["The Orla kiln had two makers: Ada Vell and Tam Orrin. Note: Orla 3 runs."]
    )
    assert {"ada", "vell", "tam", "orrin", "orla"} <= found
    assert "note" not in found

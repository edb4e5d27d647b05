"""The answer sentence (issue 19, item 1): which sentence of which retrieved passage answers.

Made-up passages only: code a sentence introduces, sentences that start with an identifier,
where a passage stands in the rankings, the sentence before a sentence, yes/no answers kept to
one statement, and a two-hop reading that does not fit the question.
"""

from __future__ import annotations

from made_up import ask, flat

from graph.models.offline.answering import (
    bonus,
    compose_answer,
    joined,
    retrieved_sentences,
)
from graph.models.offline.reading import (
    how_words,
    sentences,
    split_relative_clause,
    statements_with_code,
)
from graph.models.offline.scoring import Scorer

FENCE = "```"


def scorer(question: str, kind: str | None = None, asked: str = "") -> Scorer:
    return Scorer(question, kind, flat, question, set(), asked)


# --- code a sentence introduces -----------------------------------------------------------------

LOOPS = (
    "Loops can number their rows. To alternate classes, call the cycle helper on the loop:\n\n"
    f"{FENCE}\n{{{{ loop.cycle('odd', 'even') }}}}\n{FENCE}\n\n"
    "The helper takes any number of strings.\n\n"
    f"{FENCE}\nplain = True\n{FENCE}"
)


def test_a_sentence_ending_in_a_colon_carries_the_code_block_after_it() -> None:
    found = statements_with_code(LOOPS)
    assert [s.text for s in found] == [
        "Loops can number their rows.",
        "To alternate classes, call the cycle helper on the loop:",
        "The helper takes any number of strings.",
    ]
    assert found[1].code == f"{FENCE}\n{{{{ loop.cycle('odd', 'even') }}}}\n{FENCE}"
    assert found[0].code == found[2].code == ""  # a block after a full stop is not introduced


def test_the_answer_shows_the_code_its_sentence_introduces_as_written() -> None:
    hit = {"id": "loops.md", "text": LOOPS, "score": 2.0}
    answer = compose_answer(scorer("How do you alternate classes with the cycle helper?"), [hit])
    assert answer is not None
    assert answer.sentences == ["To alternate classes, call the cycle helper on the loop:"]
    assert answer.text == (
        "To alternate classes, call the cycle helper on the loop:\n\n"
        f"{FENCE}\n{{{{ loop.cycle('odd', 'even') }}}}\n{FENCE}"
    )


def test_sentences_with_code_are_a_blank_line_apart_and_prose_a_space() -> None:
    assert joined(["One.", "Two."]) == "One. Two."
    assert joined(["Run this:\n\n```\nx\n```", "Done."]) == "Run this:\n\n```\nx\n```\n\nDone."


def test_an_answer_sentence_found_by_the_policy_keeps_its_code() -> None:
    state = ask(
        "How do you print to standard error with echo?",
        {
            "echo.md": "The echo helper writes a line and flushes it. You can also print to "
            f"standard error by passing err=True:\n\n{FENCE}\necho('hi', err=True)\n{FENCE}",
            "style.md": "The style helper colours text. Colours are dropped on plain pipes.",
            "pager.md": "The pager helper pages long output through less.",
            "exit.md": "A command exits with code 0 when it returns.",
            "args.md": "Arguments are positional and required by default.",
        },
    )
    assert "err=True:\n\n```\necho('hi', err=True)\n```" in state["answer"]
    assert state["citations"] == ["echo.md"]


def test_a_reference_entrys_first_sentence_shows_the_term_its_heading_names() -> None:
    entry = "A note printed once a kiln firing has finished. Format: str. Default value: none."
    hits = [
        {
            "id": "settings.md#4",
            "title": "settings.md > Settings > note_after_firing",
            "text": f"settings.md > Settings > note_after_firing. {entry}",
            "score": 3.0,
        },
        {
            "id": "guide.md",
            "title": "guide.md",
            "text": "guide.md. A kiln firing ends with a note on the panel.",
            "score": 1.0,
        },
    ]
    found, _ = retrieved_sentences(hits)
    terms = [(s.term, s.position) for s in found if s.doc_id == "settings.md#4"]
    assert terms[0] == ("note_after_firing", 0) and all(t == "" for t, _ in terms[1:])
    # a title without a heading is the file's path: no term ("guide.md")
    assert all(s.term == "" for s in found if s.doc_id == "guide.md")
    answer = compose_answer(scorer("Which setting prints a note once a firing has finished?"), hits)
    assert answer is not None
    assert answer.text.startswith("note_after_firing: A note printed once")


def test_a_heading_that_names_no_code_or_that_the_sentence_names_adds_nothing() -> None:
    hits = [
        {
            "id": "a.md#1",
            "title": "a.md > Firing > Missed firings",
            "text": "a.md > Firing > Missed firings. A missed firing runs once.",
            "score": 2.0,
        },
        {
            "id": "b.md#1",
            "title": "b.md > Kiln > max_heat",
            "text": "b.md > Kiln > max_heat. Set max_heat to limit the kiln.",
            "score": 1.0,
        },
    ]
    found, _ = retrieved_sentences(hits)
    assert [s.term for s in found] == ["", ""]


# --- sentences ----------------------------------------------------------------------------------


def test_a_sentence_may_start_with_a_lowercase_identifier() -> None:
    text = (
        "Users miss it most in plain classes. frobnik supports every interpreter (e.g. pypy "
        "and others). It says... nothing more. Done."
    )
    assert sentences(text) == [
        "Users miss it most in plain classes.",
        "frobnik supports every interpreter (e.g. pypy and others).",
        "It says... nothing more.",
        "Done.",
    ]


def test_a_sentence_may_end_inside_a_bracket_or_a_quote() -> None:
    text = '(Nothing is kept if text comes first.) With both set, lines go. He said "stop." Then.'
    assert sentences(text) == [
        "(Nothing is kept if text comes first.)",
        "With both set, lines go.",
        'He said "stop."',
        "Then.",
    ]


def test_a_numbering_abbreviation_or_a_title_ends_no_sentence() -> None:
    text = (
        "The first record was the Serenade in D Op. 12 No. 3, issued by Fr. Albin. "
        "It is printed in Vol. 2 on pp. 40-41. Fig. 7 shows its cover."
    )
    assert sentences(text) == [
        "The first record was the Serenade in D Op. 12 No. 3, issued by Fr. Albin.",
        "It is printed in Vol. 2 on pp. 40-41.",
        "Fig. 7 shows its cover.",
    ]


# --- which sentence -----------------------------------------------------------------------------


def test_a_scored_hits_rank_is_kept_and_an_unscored_hits_is_not() -> None:
    hits = [
        {"id": "a", "text": "Alpha one.", "score": 3.0},
        {"id": "b", "text": "Beta two.", "score": 1.5},
        {"id": "c", "text": "Gamma three.", "score": 0.0},
    ]
    found, _ = retrieved_sentences(hits)
    assert [(s.doc_id, s.rank) for s in found] == [("a", 1.0), ("b", 0.5), ("c", 0.0)]


def test_the_search_ranking_decides_between_sentences_the_words_cannot_tell_apart() -> None:
    question = "Which port does the relay listen on?"
    one = "The relay listens, once started, on port 7100."
    two = "The relay listens on port 7200."  # its words a little closer together
    for texts in ([one, two], [two, one]):  # the search ranked texts[0] first
        hits = [{"id": t[-12:], "text": t, "score": 4.0 - i} for i, t in enumerate(texts)]
        answer = compose_answer(scorer(question, "number"), hits)
        assert answer is not None and answer.text == texts[0]


def test_the_words_of_the_question_close_together_beat_the_same_words_scattered() -> None:
    question = "How long does the harbour pump run after a power cut?"
    scattered = (
        "The harbour crew said the pump, which was serviced in spring by the yard, would run "
        "for a week if nothing went wrong, they thought, barring a power cut."
    )
    together = "After a power cut the harbour pump runs for 40 minutes on its battery."
    hits = [{"id": "s", "text": scattered, "score": 1.0}, {"id": "t", "text": together}]
    sc = scorer(question, "duration")
    assert sc.window(together) == sc.coverage(together) > sc.window(scattered)
    answer = compose_answer(sc, hits)
    assert answer is not None and answer.text == together


def test_the_sentence_before_names_the_subject_a_sentence_goes_on_about() -> None:
    question = "Which seminary belongs to the Ardent Order?"
    hits = [
        {
            "id": "p1",
            "text": "The college is home to the Ardent Order. Its main seminary, "
            "Marrow House, stands by the lake.",
        },  # fmt: skip
        {"id": "p2", "text": "A seminary in Tessaly trains choir singers. It stands by a lake."},
    ]
    sc = scorer(question, "name")
    found, _ = retrieved_sentences(hits)
    assert bonus(sc, found[1], found[0].text) > bonus(sc, found[1], "")
    answer = compose_answer(sc, hits)
    assert answer is not None and "Marrow House" in answer.text and answer.citations == ["p1"]


def test_a_yes_no_answer_is_one_statement_not_its_neighbour_too() -> None:
    hits = [
        {
            "id": "k1",
            "text": "The Quillon kettle is dishwasher safe. It is not sold outside the EU.",
            "score": 2.0,
        }
    ]
    answer = compose_answer(scorer("Is the Quillon kettle sold dishwasher safe?", "yesno"), hits)
    assert answer is not None and answer.text == "The Quillon kettle is dishwasher safe."


def test_a_yes_no_answer_is_never_chained_to_another_passage() -> None:
    """Two passages sharing a name ("Ferro") make no chain: one statement answers yes or no."""
    hits = [
        {"id": "k1", "text": "The Quillon kettle is built on a Ferro base.", "score": 2.0},
        {"id": "k2", "text": "Every Ferro base is tested and safe.", "score": 1.0},
    ]
    answer = compose_answer(scorer("Is the Quillon kettle base safe?", "yesno"), hits)
    assert answer is not None and answer.citations == ["k1"]
    assert answer.text == "The Quillon kettle is built on a Ferro base."
    chained = compose_answer(scorer("What makes the Quillon kettle base safe?"), hits)
    assert chained is not None and chained.citations == ["k1", "k2"]  # a chain elsewhere


def test_a_statement_carries_the_conclusion_drawn_from_it() -> None:
    """ "Therefore, ..." says what the statement before it means: it is part of the answer."""
    hits = [
        {
            "id": "k1",
            "text": "The Quillon kettle is built on the standard steel base. Therefore, no "
            "adapter is required. The lid is sold apart.",
            "score": 2.0,
        }
    ]
    answer = compose_answer(scorer("Can the Quillon kettle use the standard base?", "yesno"), hits)
    assert answer is not None and answer.sentences == [
        "The Quillon kettle is built on the standard steel base.",
        "Therefore, no adapter is required.",
    ]
    plain = compose_answer(scorer("Which base is the Quillon kettle built on?"), hits)
    assert plain is not None and plain.sentences[-1] == "Therefore, no adapter is required."


def test_the_conclusion_after_the_best_sentence_can_hold_the_answer() -> None:
    hits = [
        {
            "id": "w1",
            "text": "Since you call make_wick at import time, it runs before the lamp is "
            "lit. Therefore it returns a paper stand-in until the first flame. "
            "Lamps are sold apart.",
            "score": 2.0,
        }
    ]
    question = "What does make_wick give back when it runs at import time before the lamp is lit?"
    answer = compose_answer(scorer(question), hits)
    assert answer is not None and "paper stand-in" in answer.text


def test_a_two_hop_reading_that_does_not_fit_gives_way_to_the_question_as_asked() -> None:
    question = "What is the default of a retry setting that is not set in the config file?"
    outer = "What is the default of Vexor?"  # a wrong bridge filled in
    hits = [
        {"id": "c1", "text": "Vexor reads its config file at start.", "score": 2.0},
        {
            "id": "c2",
            "text": "If the retry setting is not set in the config file, the default is 3.",
            "score": 1.0,
        },
    ]
    answer = compose_answer(scorer(outer, None, asked=question), hits)
    assert answer is not None and answer.whole
    assert answer.text == hits[1]["text"] and answer.citations == ["c2"]
    right = compose_answer(scorer("Who leads the Kestrel team?", "person", asked="x"), [])
    assert right is None


def test_so_that_joins_clauses_and_names_no_bridge() -> None:
    assert split_relative_clause("What do you add to a tag so that a missing file is ok?") is None
    assert split_relative_clause("Which flag is set such that the build stops?") is None
    hop = split_relative_clause("Who leads the team that owns the Zephyr service?")
    assert hop is not None and hop.head == "team"


def test_each_sentence_of_a_pair_brings_a_question_word_or_the_kind_asked_for() -> None:
    asked = "Which company builds the charging docks in the office where the Kestrel team sits?"
    question = "Which company builds the charging docks in the Lyon office?"  # the bridge in
    hits = [
        {"id": "t1", "text": "The Kestrel team is led by Ana Moreno and sits in the Lyon office."},
        {"id": "t2", "text": "Robots in the Lyon office charge at docks built by Voltmark."},
    ]
    for hit, score in zip(hits, (3.0, 1.0), strict=True):
        hit["score"] = score  # the bridge's passage ranks first: its rank must not carry it in
    answer = compose_answer(scorer(question, "name", asked), hits)
    assert answer is not None and answer.text == hits[1]["text"] and answer.citations == ["t2"]


def test_a_sentence_opening_with_a_pronoun_is_about_what_the_one_before_names() -> None:
    text = (
        "Token cards are sold at the tour desk from 10 to 200 euros. They never expire and can be "
        "spent in the shop and the cafe, but not on tour tickets."
    )
    answer = compose_answer(
        scorer("Can token cards be spent on tour tickets?", "yesno"),
        [{"id": "s1", "text": text, "score": 2.0}],
    )
    assert answer is not None and answer.context == 1  # the sentence "They" points back at
    assert answer.sentences[1:] == [
        "They never expire and can be spent in the shop and the cafe, but not on tour tickets."
    ]
    assert answer.sentences[0].startswith("Token cards are sold")


def test_the_word_after_how_says_what_is_asked_for_not_what_it_is_about() -> None:
    question = "How heavy was the bell cast for the Orrin chapel?"
    crowd = "A heavy rain fell on the Orrin chapel the day its bell was cast."
    bell = "The bell cast for the Orrin chapel weighed 640 kilograms."
    sc = scorer(question, "number")
    assert "heavy" not in sc.table
    hits = [{"id": "c", "text": crowd}, {"id": "b", "text": bell}]
    answer = compose_answer(sc, hits)
    assert answer is not None and answer.text == bell


def test_the_word_after_how_is_kept_when_no_verb_follows_it() -> None:
    assert how_words("How heavy was the bell?") == {"heavy"}
    assert how_words("Explain how Quill routes requests") == set()
    assert "quill" in scorer("Explain how Quill routes requests").table


def test_a_sentence_naming_another_ordinal_is_about_another_of_the_series() -> None:
    question = "When was the first harbour festival held?"
    second = "A second harbour festival was held in 1884 on the pier."
    first = "The town held a harbour festival in 1866 for the new quay."
    sc = scorer(question, "date")
    assert sc.other_ordinal(second) and not sc.other_ordinal(first)
    assert not scorer("When was the harbour festival held?", "date").other_ordinal(second)
    answer = compose_answer(sc, [{"id": "h", "text": f"{second} {first}", "score": 1.0}])
    assert answer is not None and answer.text == first


def test_two_possessives_are_no_shared_name() -> None:
    question = "Which friend of Marek copied scores?"
    hits = [
        {"id": "m1", "text": "In Vienna, Ilse was Marek's closest friend.", "score": 2.0},
        {
            "id": "z9",
            "text": "Engineers at Zenith's lab copied the scores of rivals.",
            "score": 1.0,
        },
    ]
    answer = compose_answer(scorer(question, "name"), hits)
    assert answer is not None and answer.citations == ["m1"]


def test_a_connector_or_a_number_in_two_names_is_no_shared_name() -> None:
    question = "Which friend of Marek copied scores?"
    for friend, rival in (
        (
            "In the words of Holm and Berg, Ilse was Marek's closest friend.",
            "Engineers Dale and Rowe at Zenith copied the scores of rivals.",
        ),
        (
            "Since 2009, Ilse was Marek's closest friend.",
            "In 2009 engineers at Zenith copied the scores of rivals.",
        ),
    ):
        hits = [{"id": "m1", "text": friend, "score": 2.0}, {"id": "z9", "text": rival}]
        answer = compose_answer(scorer(question, "name"), hits)
        assert answer is not None and answer.citations == ["m1"]


def test_a_sentence_that_does_not_point_back_takes_nothing_from_the_one_before() -> None:
    question = "Who painted the tower of the Velm lighthouse?"
    found, _ = retrieved_sentences(
        [
            {
                "id": "v",
                "text": "The Velm lighthouse stands on a cliff. Tomas Reed painted the tower.",
            }
        ]
    )
    sc = scorer(question, "person")
    assert bonus(sc, found[1], found[0].text) == bonus(sc, found[1], "")


def test_here_opening_a_sentence_points_back_at_the_place_before() -> None:
    question = "What music did Anton hear for the first time while staying in Brellin?"
    hits = [
        {
            "id": "b",
            "text": "In 1824 Anton spent his summers at Brellin as a guest of a friend. "
            "Here for the first time he heard rural folk music.",
            "score": 1.0,
        },
        {
            "id": "c",
            "text": "His letters home from Brellin, written while staying there, amused them.",
            "score": 1.0,
        },
    ]
    sc = scorer(question)
    found, _ = retrieved_sentences(hits[:1])
    assert bonus(sc, found[1], found[0].text) > bonus(sc, found[1], "")
    answer = compose_answer(sc, hits)
    assert answer is not None and answer.sentences == [
        "In 1824 Anton spent his summers at Brellin as a guest of a friend.",
        "Here for the first time he heard rural folk music.",
    ]


def test_a_chain_covering_less_than_the_best_sentence_with_the_kind_does_not_replace_it() -> None:
    """Two sentences' best window and proximity do not outweigh the question words they lack.

    The pair (the notable alumna, then the college's name) holds "notable", "studied", "Velm"
    and "College", less weight than the astronaut's sentence, which names the person asked
    for too.
    """
    weight = {"astronaut": 5.0, "notable": 4.0, "studied": 2.9, "velm": 1.0, "college": 1.0}
    question = "Which notable astronaut studied at Velm College?"
    sc = Scorer(question, "person", lambda t: weight.get(t, 0.5), question, set(), question)
    astronaut = (
        "Other notable alumni include the retired banker and yacht owner Carl Moss and the "
        "astronaut Ivo Stark."
    )
    text = (
        f"{astronaut} A notable alumna of the science school is the chemist Ada Brill. "
        "Heads of schools studied at Velm College too, among them Otto Lang."
    )
    answer = compose_answer(sc, [{"id": "v", "text": text, "score": 1.0}])
    assert answer is not None and answer.text == astronaut


# --- a question a passage asks ------------------------------------------------------------------


def test_a_question_the_passage_asks_is_never_the_answer() -> None:
    hit = {
        "id": "setup.md",
        "text": "Does your kiosk print receipts? The Larkspur kiosk prints them on thermal paper.",
        "score": 2.0,
    }
    answer = compose_answer(scorer("Does the Larkspur kiosk print receipts?", "yesno"), [hit])
    assert answer is not None
    assert answer.sentences == ["The Larkspur kiosk prints them on thermal paper."]
    sentences_read, _ = retrieved_sentences([hit])
    assert [s.text for s in sentences_read] == [answer.sentences[0]]


def test_a_passage_title_is_never_part_of_an_answer_sentence() -> None:
    title = "kiosk.md > Setup > Receipts"
    hit = {
        "id": "kiosk.md#2",
        "title": title,
        "text": f"{title}. ...) and the Larkspur kiosk prints receipts on thermal paper.",
        "score": 2.0,
    }
    answer = compose_answer(scorer("What paper does the Larkspur kiosk print receipts on?"), [hit])
    assert answer is not None
    assert title not in answer.text
    assert "thermal paper" in answer.text

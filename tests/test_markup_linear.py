"""Inline markup cleaning takes linear time on any input (issue 20.11).

The old regexes rescanned the rest of the line from every opener: 34 s on 128 KB of ``<`` and
7.2 s on 32 KB of backticks, each doubling costing 3-6 times more. These inputs are sized so
the old code needs minutes; the linear code about a second at most. The `timeout` marker
(pytest-timeout) is a generous hang guard, not a speed assertion: a quadratic regression fails
by running out of it, and nothing here compares a measured time.
"""

from __future__ import annotations

import pytest

from corpora.inline import clean_inline
from graph.models.offline.reading import sentences, split_statements

N = 1 << 18  # 256 Ki characters: twice the 128 KB that took the old code 34 s

HOSTILE = [
    "<" * N,
    "`" * (N // 4),
    "`a" * (N // 2),
    "``a`" * (N // 4),
    "*a " * (N // 3),
    "**a " * (N // 4),
    "_a " * (N // 3),
    "[a](" * (N // 4),
    "![" * (N // 2),
    "<a " * (N // 3),
    ":r:" * (N // 3) + "`x`",
    "{r}" * (N // 3) + "`x`",
    "&a" * (N // 2),
]


@pytest.mark.timeout(30)
@pytest.mark.parametrize("text", HOSTILE, ids=lambda t: repr(t[:4]))
def test_hostile_lines_are_cleaned_in_linear_time(text: str) -> None:
    cleaned = clean_inline(text)
    assert len(cleaned) <= len(text)


@pytest.mark.timeout(30)
def test_what_hostile_lines_leave() -> None:
    assert clean_inline("<" * N) == "<" * N  # no tag in it: nothing removed
    assert clean_inline("`" * (N // 4)) == "`" * (N // 4)  # one run, no partner: text
    assert clean_inline("`a`b`c`d") == "abcd"  # two code spans, the text between them kept
    assert clean_inline("x *a " * 3) == "x *a x *a x *a"  # no closing mark: left as written


def test_character_references_read_as_their_character_outside_code() -> None:
    assert clean_inline("&nbsp; &nbsp; Descaling &amp; rinsing &#8212; `a &amp; b`") == (
        "Descaling & rinsing \u2014 a &amp; b"
    )
    assert clean_inline("AT&T; R&D, &unknownthing") == "AT&T; R&D, &unknownthing"


@pytest.mark.timeout(30)
@pytest.mark.parametrize("text", ["No.\n\n" * (N // 8), "Op. " * (N // 4)], ids=["replies", "op"])
def test_a_run_of_abbreviations_is_split_into_sentences_in_linear_time(text: str) -> None:
    # each abbreviation joins the next piece; the old code searched the whole joined sentence
    # again for every piece (16,000 "No." took about a minute)
    (sentence,) = sentences(text)
    assert sentence == " ".join(text.split())
    assert split_statements([text]) == [sentence]


@pytest.mark.timeout(30)
@pytest.mark.parametrize(
    "text",
    [":a:" * (N // 3), ":r:`" + " " * N + "x`", "`" + " " * N + "<x>`_", "`a" + " \\<" * N + "`"],
    ids=["names", "role-spaces", "reference-spaces", "escapes"],
)
def test_rst_references_and_roles_are_read_in_linear_time(text: str) -> None:
    # a run of name characters had taken the named-reference pattern 154 s, and a role of
    # spaces the target pattern 442 s: every start rescanned the rest of the line
    assert len(clean_inline(text, rst=True)) <= len(text)

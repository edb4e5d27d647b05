"""The Markdown reader on mkdocs-style pages: front matter, setext headings, admonitions, links."""

from __future__ import annotations

from pathlib import Path

import pytest
from folder_text import read

from corpora.markup import markdown_sections

PAGE = """---
title: Kettle Guide
hide:
  - toc
---

Kettle Guide
============

The kettle boils [water][w] in 90 seconds; see [Descaling].

[w]: https://example.org/water
[Descaling]: descale.md

!!! warning "Hot surface"
    Never touch the lid while it boils.

    Let it cool for 5 minutes first.

        # indented code inside the admonition
        kettle.cool()

??? tip
    Fill it above the minimum mark.

Cleaning {: #cleaning }
--------

Rinse it *weekly*{ .strong } with `dict[str, int]` in hand.

/// html | div.result
Wipe the base dry.
///
"""


def test_front_matter_setext_headings_and_admonitions_read_as_written(tmp_path: Path) -> None:
    got = read(tmp_path, "kettle.md", PAGE)
    assert list(got) == ["kettle.md > Kettle Guide", "kettle.md > Kettle Guide > Cleaning"]
    assert got["kettle.md > Kettle Guide"] == (
        "The kettle boils water in 90 seconds; see Descaling. Hot surface "
        "Never touch the lid while it boils. Let it cool for 5 minutes first.\n\n"
        "```\n# indented code inside the admonition\nkettle.cool()\n```\n\n"
        "Fill it above the minimum mark."
    )
    assert got["kettle.md > Kettle Guide > Cleaning"] == (
        "Rinse it weekly with dict[str, int] in hand. Wipe the base dry."
    )


def test_a_thematic_break_after_a_list_and_a_lone_rule_stay_breaks(tmp_path: Path) -> None:
    text = "# Notes\n\n- one item\n---\n\nSome text.\n\n---\n\nMore [x] and list[int] text.\n\n[x]: https://example.org/x\n"
    got = read(tmp_path, "notes.md", text)
    assert got == {"notes.md > Notes": "one item Some text. More x and list[int] text."}


N = 1 << 17


@pytest.mark.timeout(30)
@pytest.mark.parametrize(
    "text",
    [
        "!!! a" + " " * N + "!",
        "!!! " + "a " * N + '"',
        "[" * N + "]:",
        ("[a\n" * N) + "]: x",
        "x\n" + "=" * N + " x",
        "{ #a" * (N // 4),
        "{:" * (N // 2),
    ],
    ids=lambda t: repr(t[:6]),
)
def test_hostile_mkdocs_lines_are_read_in_linear_time(text: str) -> None:
    assert markdown_sections(text) is not None


def test_a_table_row_is_a_sentence_of_its_own_and_its_cells_stay_apart() -> None:
    page = (
        "Options:\n\n"
        "| Option | Default | Meaning |\n"
        "| ------ | :-----: | ------- |\n"
        "| `tab_length` | 4 | Spaces a [tab](tabs.md) stands for |\n"
        "| Strict Mode | off | Rejects unknown keys |\n\n"
        "Set them in the config."
    )
    (section,) = markdown_sections(page)
    assert section.text == (
        "Options:\n\nOption | Default | Meaning\n\ntab_length | 4 | Spaces a tab stands for"
        "\n\nStrict Mode | off | Rejects unknown keys\n\nSet them in the config."
    )


def test_a_table_without_outer_pipes_is_a_table_too() -> None:
    """GFM and Python-Markdown tables may leave out the outer pipes.

    A header row, then a delimiter row holding a pipe, start one.
    """
    page = (
        "Kettles:\n\n"
        "Model    | Litres | Element\n"
        "-------- | ------ | -------\n"
        "`Brio`   | 1.7    | coil\n"
        "Stout    | 2      | plate\n\n"
        "Pick one.\n\n---\n\nA break | then prose."
    )
    (section,) = markdown_sections(page)
    assert section.text == (
        "Kettles:\n\nModel | Litres | Element\n\nBrio | 1.7 | coil\n\nStout | 2 | plate"
        "\n\nPick one. A break | then prose."
    )


def test_a_pipe_inside_a_list_item_or_prose_is_no_table() -> None:
    (section,) = markdown_sections("- run `a | b` first.\n\nUse x | y to pipe.")
    assert "\n" not in section.text and "a | b" in section.text


def test_a_definition_list_reads_as_term_colon_definition() -> None:
    page = (
        "Formatters:\n\n"
        "{func}`plain_wick`\n\n"
        ": Is the default if Lantern is not installed.\n"
        "  It prints plain text.\n\n"
        "{class}`BrightWick`\n\n"
        ": Uses Lantern.\n"
        ": It is the default if Lantern is installed.\n\n"
        "`add_flame`:\n"
        ": Adds the flame to the record."
    )
    (section,) = markdown_sections(page)
    assert section.text == (
        "Formatters: plain_wick: Is the default if Lantern is not installed. "
        "It prints plain text. BrightWick: Uses Lantern. "
        "BrightWick: It is the default if Lantern is installed. "
        "add_flame: Adds the flame to the record."
    )


def test_a_footnote_definition_leaves_its_text() -> None:
    (section,) = markdown_sections("The wick glows.[^w]\n\n[^w]: Needs Lantern on Quill.\n")
    assert section.text == "The wick glows. Needs Lantern on Quill."


def test_a_fence_inside_a_longer_code_fence_is_its_text_not_a_nested_directive() -> None:
    """An example fence with an attribute list ("``` { .python }") nests nothing: the longer
    fence around it closes at its own closing line, and the page reads on as prose."""
    page = (
        "# Kettle\n\n## Syntax\n\nAn example:\n\n"
        '```` md-render\n``` { .python title="Kettle" }\nboil()\n```\n````\n\n'
        "## Usage\n\nThe spout_prefix option sets the prefix. Default: `spout-`.\n"
    )
    sections = markdown_sections(page)
    assert [s.headings for s in sections] == [("Kettle", "Syntax"), ("Kettle", "Usage")]
    assert sections[1].text == "The spout_prefix option sets the prefix. Default: spout-."


def test_directives_nested_in_a_directive_still_close_in_order() -> None:
    page = ":::{glossary}\nWick\n:::{note}\nTrim it.\n:::\nKeep it dry.\n:::\n\nAfter.\n"
    (section,) = markdown_sections(page)
    assert section.text == "Wick Trim it. Keep it dry. After."


def test_a_list_item_ending_without_punctuation_ends_its_sentence() -> None:
    """A changelog item ("* Drop support for Kettle 1") is a statement of its own; an item
    ending in a full stop or a colon runs on as before."""
    page = (
        "* Drop support for Kettle 1\n\n    Kettle 1 reaches end of life.\n\n"
        "* Fix the lid latch.\n* Options:\n* `spout`\n"
    )
    (section,) = markdown_sections(page)
    assert section.text == (
        "Drop support for Kettle 1\n\nKettle 1 reaches end of life. Fix the lid latch. Options: "
        "spout"
    )


def test_an_html_comment_leaves_the_text_beside_it_on_its_lines(tmp_path: Path) -> None:
    page = (
        "# Kettle\n\n"
        "Default value: 3 minutes <!-- was 2 before v4 -->\n"
        "for the boil timer.\n\n"
        "<!-- a note to editors\nspanning lines --> The lid locks when hot.\n\n"
        "```html\n<!-- kept: code is code -->\n```\n"
    )
    text = read(tmp_path, "kettle.md", page)["kettle.md > Kettle"]
    assert "Default value: 3 minutes for the boil timer." in text
    assert "The lid locks when hot." in text
    assert "<!-- kept: code is code -->" in text
    assert "editors" not in text and "was 2" not in text


def test_links_autolinks_placeholders_and_highlight_marks_read_as_rendered(tmp_path: Path) -> None:
    page = (
        "# Kettle\n\n"
        "It does [code scaffolding](<https://example.org/wiki/Scaffold_(programming)>) well.\n"
        "Docs live at <https://example.org/kettle>.\n"
        "Put the file in <YOUR_HOME_FOLDER>/kettle, <b>bold</b> aside.\n"
        "Render it with `#!jinja {{ boil() }}` in a template.\n\n"
        "[descale-hook]:\n    <https://example.org/descale>\n\n"
        "The lid locks when hot.\n"
    )
    text = read(tmp_path, "kettle.md", page)["kettle.md > Kettle"]
    assert "It does code scaffolding well." in text
    assert "Docs live at https://example.org/kettle." in text
    assert "Put the file in <YOUR_HOME_FOLDER>/kettle, bold aside." in text
    assert "Render it with {{ boil() }} in a template." in text
    assert "descale-hook" not in text and "https://example.org/descale" not in text
    assert text.endswith("The lid locks when hot.")


def test_a_footnote_whose_text_is_indented_below_its_mark_is_prose(tmp_path: Path) -> None:
    page = (
        "# Kettle\n\nThe kettle boils fast.[^1]\n\n"
        "[^1]:\n    Only with the lid closed, and only\n    on a level surface.\n"
    )
    text = read(tmp_path, "kettle.md", page)["kettle.md > Kettle"]
    assert text == "The kettle boils fast. Only with the lid closed, and only on a level surface."


def test_an_empty_comment_opener_is_read_without_error(tmp_path: Path) -> None:
    """ "<!-->" holds "-->" inside its own opener: the comment closes at a later "-->"."""
    page = "# Kettle\n\nText <!--> more\n\nstill the comment --> The lid locks.\n"
    assert read(tmp_path, "kettle.md", page)["kettle.md > Kettle"] == "Text The lid locks."


@pytest.mark.timeout(60)
def test_many_comments_and_footnotes_are_read_in_linear_time() -> None:
    """A hang guard, not a speed assertion: rebuilding the page's lines at every comment or
    footnote (quadratic) runs out of the timeout on this page; reading in place takes about a
    second."""
    lines = 100_000
    page = "# Kettle\n\n" + "Boil <!-- note --> fast.\n" * lines
    notes = "# Kettle\n\n" + "[^1]:\n    A note.\n\n" * (lines // 2)
    sections = markdown_sections(page) + markdown_sections(notes)
    assert sum(len(b.text) for s in sections for b in s.blocks) > lines

"""The document loader: kinds of file, heading-aware splitting, clean text, skipped files."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from corpora import CorpusError, load_corpus
from corpora.markup import markdown_sections, rst_sections
from tools.search import make_search_tool

MARKDOWN = """# Kettle Manual

Intro text about the **Brewmaster** kettle.

## Descaling

Use *white vinegar* once a month; see [the guide](https://example.invalid/descale).

```
# not a heading: a shell comment
descale --now
```

## Warranty

- The heating element is covered for 3 years.
- The lid hinge for 1 year.
"""

RST = """Lamp Notes
==========

The Lumen lamp ships with a ``USB-C`` cable.

Brightness
----------

Hold the button for *two seconds* to dim.
"""

HTML = """<html><head><title>x</title><style>p {color: red}</style>
<script>var secret = "do not index";</script></head><body>
<h1>Bike Guide</h1><p>The Cadence bike folds in 10 seconds.</p>
<h2>Tyres</h2><p>Pump the tyres to 4 bar &amp; check monthly.</p></body></html>
"""


def minimal_pdf(text: str) -> bytes:
    """A one-page PDF whose content stream shows `text` (enough for pypdf's extractor)."""
    return pdf_with_stream(f"BT /F1 12 Tf 72 720 Td ({text}) Tj ET".encode())


def pdf_with_stream(stream: bytes) -> bytes:
    """A one-page PDF with this content stream."""
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R "
        b"/Resources << /Font << /F1 5 0 R >> >> >>",
        b"<< /Length %d >>\nstream\n" % len(stream) + stream + b"\nendstream",
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
    ]
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % number + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % offset for offset in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (
        len(objects) + 1,
        xref,
    )
    return bytes(out)


def test_markdown_is_split_on_headings_with_clean_text(tmp_path: Path) -> None:
    (tmp_path / "kettle.md").write_text(MARKDOWN)
    corpus = load_corpus(tmp_path, name="kb")
    by_title = {p.title: p for p in corpus.passages}
    assert list(by_title) == [
        "kettle.md > Kettle Manual",
        "kettle.md > Kettle Manual > Descaling",
        "kettle.md > Kettle Manual > Warranty",
    ]
    assert [p.id for p in corpus.passages] == ["kettle.md#1", "kettle.md#2", "kettle.md#3"]
    intro = by_title["kettle.md > Kettle Manual"]
    assert intro.text == "Intro text about the Brewmaster kettle."
    descale = by_title["kettle.md > Kettle Manual > Descaling"].text
    # code is kept as code: as written, in its own fenced block after the prose
    assert descale == (
        "Use white vinegar once a month; see the guide.\n\n"
        "```\n# not a heading: a shell comment\ndescale --now\n```"
    )
    warranty = by_title["kettle.md > Kettle Manual > Warranty"]
    assert warranty.text == "The heating element is covered for 3 years. The lid hinge for 1 year."
    assert warranty.metadata["headings"] == ["Kettle Manual", "Warranty"]


def test_rst_and_html_are_split_on_headings(tmp_path: Path) -> None:
    (tmp_path / "lamp.rst").write_text(RST)
    (tmp_path / "bike.html").write_text(HTML)
    corpus = load_corpus(tmp_path, name="kb")
    got = {p.title: p.text for p in corpus.passages}
    assert got == {
        "bike.html > Bike Guide": "The Cadence bike folds in 10 seconds.",
        "bike.html > Bike Guide > Tyres": "Pump the tyres to 4 bar & check monthly.",
        "lamp.rst > Lamp Notes": "The Lumen lamp ships with a USB-C cable.",
        "lamp.rst > Lamp Notes > Brightness": "Hold the button for two seconds to dim.",
    }


def test_pdf_text_is_read_with_pypdf(tmp_path: Path) -> None:
    (tmp_path / "sheet.pdf").write_bytes(minimal_pdf("The Orbit drone flies for 31 minutes."))
    (tmp_path / "broken.pdf").write_bytes(b"%PDF-1.4\nthis is not really a pdf")
    corpus = load_corpus(tmp_path, name="kb")
    assert [(p.id, p.title, p.text) for p in corpus.passages] == [
        ("sheet.pdf", "sheet.pdf > page 1", "The Orbit drone flies for 31 minutes.")
    ]
    assert corpus.skipped == (("broken.pdf", "unreadable"),)


DEEP = 100_000


def test_a_deeply_nested_pdf_is_skipped_with_its_reason(tmp_path: Path) -> None:
    """A content stream nesting arrays 100,000 deep used to end the folder in RecursionError."""
    arrays = b"[" * DEEP + b"(x)" + b"]" * DEEP
    (tmp_path / "deep.pdf").write_bytes(pdf_with_stream(b"BT /F1 12 Tf " + arrays + b" TJ ET"))
    (tmp_path / "good.txt").write_text("The Quill pen holds 2 ml of ink.")
    corpus = load_corpus(tmp_path, name="kb")
    assert [p.id for p in corpus.passages] == ["good.txt"]
    assert corpus.skipped == (("deep.pdf", "unreadable"),)
    with pytest.raises(CorpusError) as info:  # the file alone: one line naming why
        load_corpus(tmp_path / "deep.pdf")
    assert "nested too deeply" in str(info.value) and "\n" not in str(info.value)


@pytest.mark.timeout(60)  # a hang guard: reading nested levels one by one took minutes
def test_deeply_nested_markup_is_read_with_bounded_work(tmp_path: Path) -> None:
    """2,000 nested quotes, 5,000 nested directives are read (past 32 levels as paragraphs)."""
    quotes = "".join(" " * depth + f"level {depth}\n\n" for depth in range(1, 2000))
    (tmp_path / "quotes.rst").write_text(quotes)
    notes = ":::{note}\n" * 5000 + "deep inside\n" + ":::\n" * 5000
    (tmp_path / "notes.md").write_text(notes)
    corpus = load_corpus(tmp_path, name="kb")
    assert corpus.skipped == ()
    words = set(" ".join(p.text for p in corpus.passages).split())
    assert {str(depth) for depth in range(1, 2000)} <= words  # every level's text kept
    assert "inside" in words


def test_agent_index_skips_a_deep_pdf_in_one_line(
    agent_home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from cli_helpers import run_cli

    docs = tmp_path / "docs"
    docs.mkdir()
    arrays = b"[" * DEEP + b"]" * DEEP
    (docs / "deep.pdf").write_bytes(pdf_with_stream(b"BT " + arrays + b" TJ ET"))
    (docs / "good.txt").write_text("The Quill pen holds 2 ml of ink.")
    code, out, err = run_cli(capsys, "index", "kb", str(docs))
    assert code == 0, err
    assert "1 unreadable" in out + err
    assert "Recursion" not in out + err and "Traceback" not in out + err


def test_every_skipped_kind_is_named_and_a_fifo_is_never_opened(tmp_path: Path) -> None:
    (tmp_path / "good.txt").write_text("The Quill pen holds 2 ml of ink.")
    (tmp_path / "data.csv").write_text("a,b")
    (tmp_path / "blank.md").write_text("#   \n\n   \n")
    (tmp_path / "latin1.txt").write_bytes(b"caf\xe9 au lait")
    os.mkfifo(tmp_path / "pipe.txt")  # opening this for reading would block forever
    (tmp_path / "dangling.md").symlink_to(tmp_path / "missing.md")
    corpus = load_corpus(tmp_path, name="kb")
    assert [p.id for p in corpus.passages] == ["good.txt"]
    assert dict(corpus.skipped) == {
        "blank.md": "empty",
        "dangling.md": "unreadable",
        "data.csv": "unsupported type",
        "latin1.txt": "not UTF-8",
        "pipe.txt": "not a regular file",
    }


def test_a_fifo_given_as_the_corpus_file_is_one_line(tmp_path: Path) -> None:
    fifo = tmp_path / "feed.jsonl"
    os.mkfifo(fifo)
    with pytest.raises(CorpusError) as info:
        load_corpus(fifo)
    assert str(info.value) == f"{fifo}: cannot read file: not a regular file"


def test_titles_are_searchable_by_file_name_and_section(tmp_path: Path) -> None:
    (tmp_path / "zircon-LICENSE.txt").write_text("Permission is granted to use and copy.")
    (tmp_path / "other-README.md").write_text("# Other\n\nPermission to copy is not needed.")
    (tmp_path / "kettle.md").write_text(MARKDOWN)
    (tmp_path / "notes.txt").write_text("Nothing here about permission or licences.")
    tool = make_search_tool(load_corpus(tmp_path, name="kb"), k=1)
    content = tool.invoke(
        {"type": "tool_call", "id": "c1", "name": tool.name, "args": {"query": "zircon license"}}
    ).content
    assert content.startswith("[zircon-LICENSE.txt] zircon-LICENSE.txt. Permission is granted")
    message = tool.invoke(
        {"type": "tool_call", "id": "c2", "name": tool.name, "args": {"query": "descaling"}}
    )
    assert message.artifact[0]["id"] == "kettle.md#2"


def test_markup_cleaning_units() -> None:
    (quote,) = markdown_sections("> **Note:** run `make`\n> 1. then [docs](x)")
    assert quote.text == "Note: run make then docs"
    (table,) = markdown_sections("| a | b |\n|---|---|\n| 1 | 2 |")
    assert table.text == "a | b\n\n1 | 2"
    top, sub = rst_sections("Top\n===\n\nintro\n\nSub\n---\ntext")
    assert (top.headings, top.text, sub.headings, sub.text) == (
        ("Top",),
        "intro",
        ("Top", "Sub"),
        "text",
    )


def test_ask_over_a_folder_with_a_fifo_says_what_it_skipped(
    agent_home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from cli_helpers import run_cli

    docs = tmp_path / "kb"
    docs.mkdir()
    (docs / "kettle.md").write_text(MARKDOWN)
    (docs / "lamp.rst").write_text(RST)
    os.mkfifo(docs / "feed.txt")
    code, out, err = run_cli(
        capsys, "ask", "How long is the heating element covered?", "--corpus", f"kb={docs}"
    )
    assert code == 0
    assert err.strip() == "note: corpus kb: 1 file skipped (1 not a regular file)"
    assert "ANSWER: 3 years" in out, out  # the short answer to "how long"


def test_a_pipe_without_a_known_suffix_is_not_a_regular_file(tmp_path: Path) -> None:
    (tmp_path / "good.txt").write_text("The Quill pen holds 2 ml of ink.")
    os.mkfifo(tmp_path / "feed")  # no extension at all
    os.mkfifo(tmp_path / "stream.log")  # an extension the loader does not read
    (tmp_path / "notes.csv").write_text("a,b")
    (tmp_path / "gone.csv").symlink_to(tmp_path / "missing.csv")
    corpus = load_corpus(tmp_path, name="kb")
    assert dict(corpus.skipped) == {
        "feed": "not a regular file",
        "stream.log": "not a regular file",
        "notes.csv": "unsupported type",
        "gone.csv": "unsupported type",
    }

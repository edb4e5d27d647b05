import json
from pathlib import Path

import pytest

from corpora import (
    BUILTIN_CORPORA,
    Corpus,
    CorpusError,
    Passage,
    describe,
    load_builtin,
    load_corpus,
    parse_corpus_spec,
)
from corpora.documents import SPLIT_THRESHOLD, skip_summary
from corpora.loader import name_from_path

# Copied from the seeds (000_945bd75bea0d8372 POLICY_KB / PRODUCTS, 004_1596d4479540cc42 DOCS).
SEED_POLICY = [
    "Refunds are accepted within 30 days of purchase, provided the item is unused and in its original packaging.",  # noqa: E501
    "To start a return, email support@example.com with your order number. Refunds are processed within five business days of us receiving the item.",  # noqa: E501
    "Error E-4042 means the payment was declined by the bank; ask the customer to retry with a different card or contact their bank.",  # noqa: E501
    "Standard shipping takes 3 to 5 business days. Express shipping arrives the next business day.",
    "All electronics include a one-year limited warranty covering manufacturing defects.",
]
SEED_PRODUCTS = [
    "Acme Corp was acquired by Globex in 2024.",
    "Globex now manufactures the wireless earbuds product line it inherited from Acme.",
    "Globex-branded wireless earbuds carry a 2-year limited warranty.",
    "The wireless earbuds deliver up to 8 hours of battery life, and up to 24 hours with the charging case.",  # noqa: E501
]
SEED_NOTES = {
    "d1": "The Atlas scheduler assigns delivery jobs to robots. It is owned by the Fleet Platform team.",  # noqa: E501
    "d2": "The Fleet Platform team is led by Priya Raman and sits in the Austin office.",
    "d3": "Beacon is the telemetry pipeline. It is owned by the Observability team and stores data for 30 days.",  # noqa: E501
    "d4": "The Observability team is led by Tomas Ekberg and sits in the Lisbon office.",
    "d5": "Robots in the Austin office charge at docks built by Voltline. Each dock charges two robots at once.",  # noqa: E501
    "d6": "Robots in the Lisbon office charge at docks built by Ampere Works. Each dock charges four robots at once.",  # noqa: E501
    "d7": "The Austin office runs 120 robots. The Lisbon office runs 80 robots.",
    "d8": "Atlas retries a failed job three times before paging the on-call engineer.",
    "d9": "Incident 412: Beacon dropped data for six hours after a disk filled up. The fix was a retention alarm.",  # noqa: E501
    "d10": "The cafeteria in the Austin office serves tacos on Fridays.",
}


# --- built-ins -------------------------------------------------------------------------


def test_builtin_texts_and_ids_are_verbatim_from_the_seeds() -> None:
    policy = load_builtin("policy")
    products = load_builtin("products")
    notes = load_builtin("notes")
    assert [(p.id, p.text) for p in policy.passages] == [
        (f"pol-{i}", t) for i, t in enumerate(SEED_POLICY, start=1)
    ]
    assert [(p.id, p.text) for p in products.passages] == [
        (f"prod-{i}", t) for i, t in enumerate(SEED_PRODUCTS, start=1)
    ]
    assert [(p.id, p.text) for p in notes.passages] == list(SEED_NOTES.items())
    assert all(p.title is None for c in (policy, products, notes) for p in c.passages)


def test_builtins_have_names_descriptions_and_lookup() -> None:
    assert BUILTIN_CORPORA == ("policy", "products", "notes")
    for name in BUILTIN_CORPORA:
        corpus = load_builtin(name)
        assert corpus.name == name
        assert corpus.description and "\n" not in corpus.description
    notes = load_builtin("notes")
    assert "robotics" in notes.description
    assert notes.get("d10").text == SEED_NOTES["d10"]
    assert notes.texts() == SEED_NOTES
    with pytest.raises(KeyError):
        notes.get("d11")


def test_unknown_builtin_is_a_corpus_error() -> None:
    with pytest.raises(CorpusError, match="unknown built-in corpus 'nope'"):
        load_builtin("nope")


def test_builtin_data_files_are_one_object_per_line() -> None:
    data = Path(__file__).resolve().parents[1] / "corpora" / "data"
    for name in BUILTIN_CORPORA:
        rows = [json.loads(line) for line in (data / f"{name}.jsonl").read_text().splitlines()]
        assert all(set(row) == {"id", "text"} for row in rows)
    assert set(json.loads((data / "corpora.json").read_text())) == set(BUILTIN_CORPORA)


# --- Corpus / Passage ------------------------------------------------------------------


def test_texts_prefix_the_title() -> None:
    corpus = Corpus(
        name="c",
        passages=(Passage("a", "body a", title="Title A"), Passage("b", "body b")),
    )
    assert corpus.texts() == {"a": "Title A. body a", "b": "body b"}
    assert len(corpus) == 2


def test_corpus_rejects_bad_name_duplicates_and_emptiness() -> None:
    with pytest.raises(CorpusError, match="bad corpus name"):
        Corpus(name="Bad-Name", passages=(Passage("a", "x"),))
    with pytest.raises(CorpusError, match="duplicate id 'a'"):
        Corpus(name="c", passages=(Passage("a", "x"), Passage("a", "y")))
    with pytest.raises(CorpusError, match="no passages"):
        Corpus(name="c", passages=())


def test_passage_with_metadata_is_hashable() -> None:
    corpus = Corpus(name="c", passages=(Passage("a", "x", metadata={"k": [1]}),))
    assert hash(corpus) == hash(Corpus(name="c", passages=(Passage("a", "x"),)))


# --- jsonl loading ---------------------------------------------------------------------


def test_load_jsonl_with_title_metadata_blank_lines_and_bom(tmp_path: Path) -> None:
    path = tmp_path / "My Docs-2024.jsonl"
    lines = [
        json.dumps({"id": "a", "text": "Alpha text.", "title": "Alpha", "metadata": {"k": 1}}),
        "",
        "   ",
        json.dumps({"id": "b", "text": "Beta\ttext\nsecond line."}),
    ]
    path.write_bytes(b"\xef\xbb\xbf" + "\r\n".join(lines).encode() + b"\n")
    corpus = load_corpus(path)
    assert corpus.name == "my_docs_2024"
    assert [p.id for p in corpus.passages] == ["a", "b"]
    assert corpus.get("a").title == "Alpha"
    assert corpus.get("a").metadata == {"k": 1}
    assert corpus.get("b").text == "Beta\ttext\nsecond line."
    assert corpus.description.startswith("2 passages; frequent topics: ")


def test_control_characters_are_stripped_from_text_but_tabs_and_newlines_kept(
    tmp_path: Path,
) -> None:
    path = tmp_path / "c.jsonl"
    path.write_text(json.dumps({"id": "a", "text": "no\x00 nul\x07\tand\nlines\x1b"}) + "\n")
    assert load_corpus(path).get("a").text == "no nul\tand\nlines"


def test_explicit_name_wins(tmp_path: Path) -> None:
    path = tmp_path / "x.jsonl"
    path.write_text('{"id": "a", "text": "t"}\n')
    assert load_corpus(path, name="handbook").name == "handbook"


def _write(tmp_path: Path, name: str, content: str | bytes) -> Path:
    path = tmp_path / name
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content, encoding="utf-8")
    return path


GOOD = '{"id": "ok", "text": "fine"}\n'

# (file name, content, expected line or None, expected fragment of the message)
BAD_INPUTS = [
    ("bad.jsonl", GOOD + '{"id": "x", "text": }\n', 2, "malformed JSON"),
    ("bad.jsonl", GOOD + '{"id": "x", "text": "t"\n', 2, "malformed JSON"),
    ("bad.jsonl", '["id", "text"]\n', 1, "expected a JSON object, got list"),
    ("bad.jsonl", '"just a string"\n', 1, "expected a JSON object, got str"),
    ("bad.jsonl", GOOD + '{"text": "t"}\n', 2, 'missing "id"'),
    ("bad.jsonl", '{"id": "", "text": "t"}\n', 1, 'empty "id"'),
    ("bad.jsonl", '{"id": "  ", "text": "t"}\n', 1, 'empty "id"'),
    ("bad.jsonl", '{"id": 7, "text": "t"}\n', 1, '"id" must be a string, got int'),
    ("bad.jsonl", '{"id": "a]b", "text": "t"}\n', 1, "bad id"),
    ("bad.jsonl", '{"id": "a\\nb", "text": "t"}\n', 1, "bad id"),
    ("bad.jsonl", '{"id": " a", "text": "t"}\n', 1, "bad id"),
    ("bad.jsonl", GOOD + '{"id": "p", "text": "x"}\n{"id": "a"}\n', 3, 'missing "text"'),
    ("bad.jsonl", '{"id": "a", "text": ""}\n', 1, 'empty "text"'),
    ("bad.jsonl", '{"id": "a", "text": " \\u0000\\n "}\n', 1, 'empty "text"'),
    ("bad.jsonl", '{"id": "a", "text": ["t"]}\n', 1, '"text" must be a string, got list'),
    ("bad.jsonl", '{"id": "a", "text": "t", "title": 3}\n', 1, '"title" must be a string'),
    ("bad.jsonl", '{"id": "a", "text": "t", "metadata": []}\n', 1, '"metadata" must be an object'),
    ("bad.jsonl", '{"id": "a", "text": "t", "txet": "t"}\n', 1, "unknown key 'txet'"),
    ("bad.jsonl", GOOD + "\n" + GOOD, 3, "duplicate id 'ok' (first on line 1)"),
    ("bad.jsonl", GOOD.encode() * 2 + b'{"id": "z", "text": "caf\xe9"}\n', 3, "not UTF-8"),
    ("bad.jsonl", "[" * 100_000 + "]" * 100_000 + "\n", 1, "malformed JSON"),
    ("bad.jsonl", "", None, "empty corpus"),
    ("bad.jsonl", "\n  \n\n", None, "empty corpus"),
    ("bad.csv", "id,text\n", None, "unsupported file type '.csv'"),
    ("bad.md", b"# Title\n\xff\xfe\n", 2, "not UTF-8"),
    ("bad.txt", "   \n", None, "empty corpus"),
]


@pytest.mark.parametrize(("fname", "content", "line", "fragment"), BAD_INPUTS)
def test_bad_input_is_one_line_naming_file_and_line(
    tmp_path: Path, fname: str, content: str | bytes, line: int | None, fragment: str
) -> None:
    path = _write(tmp_path, fname, content)
    with pytest.raises(CorpusError) as info:
        load_corpus(path)
    message = str(info.value)
    where = f"{path}:{line}: " if line is not None else f"{path}: "
    assert message.startswith(where), message
    assert fragment in message
    assert "\n" not in message
    assert info.value.path == str(path)
    assert info.value.line == line


def test_missing_path(tmp_path: Path) -> None:
    path = tmp_path / "nope.jsonl"
    with pytest.raises(CorpusError, match="no such file or folder") as info:
        load_corpus(path)
    assert str(info.value).startswith(f"{path}: ")


def test_unreadable_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = _write(tmp_path, "locked.jsonl", GOOD)

    def deny(path: object, flags: int) -> int:
        raise PermissionError(13, "Permission denied", str(path))

    monkeypatch.setattr("corpora.documents.os.open", deny)
    with pytest.raises(CorpusError) as info:
        load_corpus(path)
    assert str(info.value) == f"{path}: cannot read file: Permission denied"


def test_bad_explicit_name(tmp_path: Path) -> None:
    path = _write(tmp_path, "ok.jsonl", GOOD)
    for bad in ("1abc", "Policy", "has-dash", "", "x" * 58):
        with pytest.raises(CorpusError, match="bad corpus name"):
            load_corpus(path, name=bad)


def test_name_from_path_sanitizes() -> None:
    assert name_from_path("data/My Notes-2024.jsonl") == "my_notes_2024"
    assert name_from_path("/x/Handbook/") == "handbook"
    assert name_from_path("2024_notes.md") == "notes"
    with pytest.raises(CorpusError, match="cannot derive a corpus name"):
        name_from_path("123.jsonl")


# --- folders ---------------------------------------------------------------------------


def test_load_folder_ids_are_relative_posix_paths(tmp_path: Path) -> None:
    root = tmp_path / "Team Wiki"
    (root / "sub").mkdir(parents=True)
    (root / ".git").mkdir()
    (root / "b.txt").write_text("Bravo file.")
    (root / "sub" / "a.md").write_text("# A\n\nAlpha file.\n")
    (root / "empty.md").write_text("\n\n")
    (root / "ignored.csv").write_text("x,y")
    (root / ".hidden.md").write_text("secret")
    (root / ".git" / "c.md").write_text("git")
    corpus = load_corpus(root)
    assert corpus.name == "team_wiki"
    assert [p.id for p in corpus.passages] == ["b.txt", "sub/a.md"]
    assert corpus.get("sub/a.md").text == "Alpha file."
    assert corpus.get("sub/a.md").title == "sub/a.md > A"
    assert corpus.get("b.txt").metadata == {"path": "b.txt"}
    assert corpus.get("b.txt").title == "b.txt"
    assert corpus.skipped == (("empty.md", "empty"), ("ignored.csv", "unsupported type"))


def _long_markdown() -> str:
    paragraphs = [
        f"## Section {i}\n\n" + " ".join(f"Sentence {i}.{j} about topic{i}." for j in range(20))
        for i in range(1, 7)
    ]
    return "# Handbook\n\n" + "\n\n".join(paragraphs) + "\n"


def test_long_markdown_file_is_split_into_numbered_passages(tmp_path: Path) -> None:
    root = tmp_path / "docs"
    root.mkdir()
    text = _long_markdown()
    assert len(text) > 3 * SPLIT_THRESHOLD
    (root / "guide.md").write_text(text)
    (root / "short.txt").write_text("Short.")
    corpus = load_corpus(root)
    ids = [p.id for p in corpus.passages]
    parts = [i for i in ids if i.startswith("guide.md#")]
    assert ids == [*parts, "short.txt"]
    assert parts == [f"guide.md#{n}" for n in range(1, len(parts) + 1)]
    assert len(parts) >= 3
    for n, pid in enumerate(parts, start=1):
        passage = corpus.get(pid)
        assert 0 < len(passage.text) <= SPLIT_THRESHOLD
        assert "#" not in passage.text and "\n" not in passage.text
        assert passage.title is not None and passage.title.startswith("guide.md > Handbook > ")
        assert passage.metadata["part"] == n and passage.metadata["parts"] == len(parts)
    # every word of the file lands in some passage, and splitting is deterministic
    words = {w for w in text.split() if not w.startswith("#")}
    found = {w for pid in parts for w in corpus.get(pid).text.split()}
    found |= {w for pid in parts for w in (corpus.get(pid).title or "").split()}
    assert words <= found
    assert load_corpus(root) == corpus


def test_single_markdown_file_is_a_corpus(tmp_path: Path) -> None:
    path = _write(tmp_path, "Guide.md", _long_markdown())
    corpus = load_corpus(path)
    assert corpus.name == "guide"
    assert corpus.passages[0].id == "Guide.md#1"


def test_folder_without_text_files_is_empty(tmp_path: Path) -> None:
    (tmp_path / "x.csv").write_text("a")
    with pytest.raises(CorpusError, match="empty corpus") as info:
        load_corpus(tmp_path)
    assert str(info.value).startswith(f"{tmp_path}: ")


def test_folder_file_with_bad_bytes_names_that_file(tmp_path: Path) -> None:
    (tmp_path / "good.txt").write_text("fine")
    _write(tmp_path, "bad.txt", b"line one\nline two \x80\n")
    corpus = load_corpus(tmp_path)
    assert [p.id for p in corpus.passages] == ["good.txt"]
    assert corpus.skipped == (("bad.txt", "not UTF-8"),)
    (tmp_path / "good.txt").unlink()
    with pytest.raises(CorpusError, match=r"no readable documents .*1 not UTF-8"):
        load_corpus(tmp_path)


AWKWARD_NAMES = ["report [final].txt", " leading.txt", "new\nline.txt", "esc\x1b[2J.txt"]


def test_folder_files_named_unlike_an_id_are_skipped_and_named(tmp_path: Path) -> None:
    _write(tmp_path, "good.txt", "Kestrel hums in the morning.")
    for name in AWKWARD_NAMES:
        _write(tmp_path, name, "Kestrel hums at night.")
    corpus = load_corpus(tmp_path)
    assert [p.id for p in corpus.passages] == ["good.txt"]
    assert sorted(corpus.skipped) == sorted((n, "bad file name") for n in AWKWARD_NAMES)
    summary = skip_summary(list(corpus.skipped))
    assert "\n" not in summary and "\x1b" not in summary
    assert "'esc\\x1b[2J.txt'" in summary and "'new\\nline.txt'" in summary
    assert summary.startswith("4 files skipped (4 bad file name: ") and "and 1 more" in summary
    (tmp_path / "good.txt").unlink()
    with pytest.raises(CorpusError, match="no readable documents .*4 bad file name"):
        load_corpus(tmp_path)


def test_a_lone_document_named_unlike_an_id_is_a_one_line_error(tmp_path: Path) -> None:
    bad = _write(tmp_path, "draft[1].md", "text")
    with pytest.raises(CorpusError, match="bad id") as info:
        load_corpus(bad)
    assert str(info.value).startswith(f"{bad}: ")


# --- specs and descriptions ------------------------------------------------------------


def test_parse_corpus_spec(tmp_path: Path) -> None:
    path = _write(tmp_path, "x.jsonl", GOOD)
    assert parse_corpus_spec(f"handbook={path}").name == "handbook"
    assert parse_corpus_spec(str(path)).name == "x"
    odd = _write(tmp_path, "a=b.jsonl", GOOD)
    assert parse_corpus_spec(str(odd)).name == "a_b"
    with pytest.raises(CorpusError, match="bad corpus name 'Bad Name'"):
        parse_corpus_spec(f"Bad Name={path}")
    with pytest.raises(CorpusError, match="no path after"):
        parse_corpus_spec("name=")
    with pytest.raises(CorpusError, match="no such file"):
        parse_corpus_spec(f"name={tmp_path / 'missing.jsonl'}")


def test_describe_picks_recurring_content_words() -> None:
    passages = [
        Passage("1", "The robot charges at the dock."),
        Passage("2", "The robot drives to the dock at 9."),
        Passage("3", "Lunch is served on Fridays."),
    ]
    desc = describe(passages, n_terms=2)
    assert desc == "3 passages; frequent topics: dock, robot"
    assert describe([Passage("1", "a 12 of")]) == "1 passage"

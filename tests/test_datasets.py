import json
import re
from pathlib import Path

import numpy as np
import pytest
from rank_bm25 import BM25Okapi

from corpora import BUILTIN_CORPORA, load_builtin
from evals.baselines import (
    budgets_from_records,
    index_for,
    single_shot_recall_at_budgets,
)
from evals.datasets import (
    BUILTIN_DATASETS,
    Dataset,
    DatasetError,
    ParagraphPool,
    Question,
    load_dataset,
    load_hotpotqa,
)
from evals.metrics import RunRecord, evaluate, make_record, micro_recall
from tools.bm25 import BM25, recall_at_k

HOTPOT_DIR = Path(__file__).resolve().parent.parent / "evals" / "datasets" / "hotpotqa"


def single_shot_recall(dataset: Dataset, budget: int) -> float:
    """Share of all supporting documents found in each question's top `budget` BM25 hits."""
    index = index_for(dataset)
    found = [[doc for doc, _ in index.search(q.question, k=budget)] for q in dataset.questions]
    return micro_recall(found, (q.supporting for q in dataset.questions))


# seed 004's QUESTIONS, verbatim
SEED_004 = [
    ("Who leads the team that owns the Atlas scheduler?", ["Priya Raman"], ["d1", "d2"]),
    ("Who leads the team that owns Beacon?", ["Tomas Ekberg"], ["d3", "d4"]),
    ("How many times does Atlas retry a failed job?", ["three", "3"], ["d8"]),
    (
        "Which company builds the charging docks in the office where the Fleet Platform team sits?",
        ["Voltline"],
        ["d2", "d5"],
    ),
    ("How many days of data does the telemetry pipeline keep?", ["30"], ["d3"]),
]


# -- built-in datasets ---------------------------------------------------------------------


def test_builtin_names() -> None:
    assert BUILTIN_DATASETS == (
        *("notes", "seed_runs", "hotpotqa-dev", "hotpotqa-hard"),
        *("hotpotqa-dev-tune", "hotpotqa-dev-test"),
    )


def test_notes_dataset() -> None:
    ds = load_dataset("notes")
    assert ds.name == "notes"
    assert ds.triples() == SEED_004
    assert [q.id for q in ds.questions] == ["q1", "q2", "q3", "q4", "q5"]
    assert ds.corpus is load_builtin("notes")
    assert ds.corpora() == [load_builtin("notes")]
    assert ds.description and "\n" not in ds.description
    assert load_dataset("notes") is ds  # built-ins are cached


def test_seed_runs_dataset() -> None:
    ds = load_dataset("seed_runs")
    assert len(ds) == 3
    assert ds.corpus is None
    assert [c.name for c in ds.corpora()] == list(BUILTIN_CORPORA)
    a, b, c = ds.questions
    assert a.question == (
        "what is the warranty on the earbuds made by the company that acquired Acme?"
    )
    assert a.tools == ("search_products", "search_products")
    assert a.supporting == ("prod-1", "prod-3")
    assert {s.casefold() for s in (*a.answers, *a.must_contain)} == {"globex", "2-year"}
    assert b.question == "what is 18% of a $250 order?"
    assert b.tools == ("calculator",)
    assert b.supporting == ()
    assert b.answers == ("$45.00",)
    assert c.question == "what's our refund window?"
    assert c.tools == ("search_policy",)
    assert c.supporting == ("pol-1",)
    assert c.answers == ("30 days",)
    # the answers the seed's runs gave satisfy the dataset's rules
    seed_answers = [
        "The earbuds are made by Globex (which acquired Acme), and they carry a 2-year limited "
        "warranty.",
        "18% of a $250 order is $45.00.",
        "Refunds are accepted within 30 days of purchase, provided the item is unused and in "
        "its original packaging.",
    ]
    results = [
        {"answer": ans, "citations": list(q.supporting), "unsupported": [], "steps": n}
        for ans, q, n in zip(seed_answers, ds.questions, (3, 2, 2), strict=True)
    ]
    assert evaluate(results, ds.triples())["accuracy"] == 1.0


def test_hotpotqa_dev_dataset() -> None:
    ds = load_dataset("hotpotqa-dev")
    assert len(ds) == 500
    assert ds.corpus is not None and ds.corpus.name == "hotpotqa_dev"
    assert len(ds.corpus) == 4858
    assert ds.questions[0].id == "5a8c7595554299585d9e36b6"
    assert ds.questions[0].answers == ("Chief of Protocol",)
    assert set(ds.questions[0].supporting) == {"Shirley Temple", "Kiss and Tell (1945 film)"}
    assert load_dataset("hotpotqa-dev") is ds


def test_hotpotqa_hard_dataset() -> None:
    ds = load_dataset("hotpotqa-hard")
    assert len(ds) == 100
    assert ds.corpus is not None and ds.corpus.name == "hotpotqa_hard"
    assert len(ds.corpus) == 1000
    first = ds.questions[0]
    assert first.id == "5a7613c15542994ccc9186bf"
    assert first.supporting == ("VIVA Media", "Gesellschaft mit beschränkter Haftung")
    assert first.metadata == {"type": "bridge", "level": "hard"}


@pytest.mark.parametrize("name", ["hotpotqa-dev", "hotpotqa-hard"])
def test_hotpot_pooling_invariants(name: str) -> None:
    ds = load_dataset(name)
    assert ds.corpus is not None
    ids = [p.id for p in ds.corpus.passages]
    assert len(ids) == len(set(ids))
    assert len({q.id for q in ds.questions}) == len(ds)
    texts = ds.corpus.texts()
    for p in ds.corpus.passages:
        assert p.title is not None
        assert p.id == p.title or re.fullmatch(re.escape(p.title) + r"#\d+", p.id)
        assert texts[p.id] == f"{p.title}. {p.text}"
    for q in ds.questions:
        assert len(q.supporting) == 2, q.id
        assert len(set(q.supporting)) == 2
        assert all(doc_id in texts for doc_id in q.supporting)
    # stable: rebuilding from the file gives the same ids in the same order
    fresh = load_hotpotqa(ds.path or "", name=name, corpus_name=ds.corpus.name)
    assert fresh.corpus is not None
    assert [p.id for p in fresh.corpus.passages] == ids
    assert [q.supporting for q in fresh.questions] == [q.supporting for q in ds.questions]


def test_hotpot_dev_matches_raw_file() -> None:
    """Pooled = the distinct (title, text) pairs; supporting = the is_supporting paragraphs."""
    rows = [json.loads(line) for line in (HOTPOT_DIR / "dev_500.jsonl").open(encoding="utf-8")]
    pairs = {(c["title"], c["paragraph_text"]) for r in rows for c in r["contexts"]}
    ds = load_dataset("hotpotqa-dev")
    assert ds.corpus is not None
    assert {(p.title, p.text) for p in ds.corpus.passages} == pairs
    assert sum(len(r["contexts"]) for r in rows) > len(pairs)  # duplicates were merged
    for row, q in zip(rows, ds.questions, strict=True):
        gold = {(c["title"], c["paragraph_text"]) for c in row["contexts"] if c["is_supporting"]}
        got = {(ds.corpus.get(i).title, ds.corpus.get(i).text) for i in q.supporting}
        assert got == gold


def test_hotpot_hard_matches_raw_file() -> None:
    rows = json.loads((HOTPOT_DIR / "distractor_100.json").read_text(encoding="utf-8"))
    ds = load_dataset("hotpotqa-hard")
    assert ds.corpus is not None
    for row, q in zip(rows, ds.questions, strict=True):
        assert q.answers == (row["answer"],)
        assert [ds.corpus.get(i).title for i in q.supporting] == list(
            dict.fromkeys(row["supporting_facts"]["title"])
        )
        for i in q.supporting:
            p = ds.corpus.get(i)
            idx = row["context"]["title"].index(p.title)
            assert p.text == "".join(row["context"]["sentences"][idx])


# -- pooling rule on synthetic data ------------------------------------------------------------


def test_paragraph_pool_dedup_rule() -> None:
    pool = ParagraphPool()
    assert pool.add("Paris", "Capital of France.") == "Paris"
    assert pool.add("Paris", "Capital of France.") == "Paris"  # same title + text: same doc
    assert pool.add("Paris", "A town in Texas.") == "Paris#2"  # same title, other text
    assert pool.add("Paris", "A town in Ontario.") == "Paris#3"
    assert pool.add("Paris", "A town in Texas.") == "Paris#2"
    assert pool.add("Lyon", "Capital of France.") == "Lyon"  # same text, other title
    assert pool.add("Lyon#2", "A title that looks like an index.") == "Lyon#2"
    assert pool.add("Lyon", "Another Lyon.") == "Lyon#3"  # Lyon#2 is taken
    assert [p.id for p in pool.passages] == [
        "Paris",
        "Paris#2",
        "Paris#3",
        "Lyon",
        "Lyon#2",
        "Lyon#3",
    ]


def _ircot_line(qid: str, contexts: list[tuple[str, str, bool]]) -> str:
    return json.dumps(
        {
            "question_id": qid,
            "question_text": f"question {qid}?",
            "answers_objects": [{"spans": [f"answer {qid}"]}],
            "contexts": [
                {"id": str(i), "title": t, "paragraph_text": x, "is_supporting": s}
                for i, (t, x, s) in enumerate(contexts)
            ],
        }
    )


def test_load_hotpotqa_ircot_pools_across_questions(tmp_path: Path) -> None:
    path = tmp_path / "mini.jsonl"
    lines = [
        _ircot_line("a", [("X", "x one", True), ("Y", "y", True), ("Z", "z", False)]),
        _ircot_line("b", [("X", "x one", False), ("X", "x two", True), ("Y", "y", True)]),
    ]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    ds = load_hotpotqa(path, name="mini", corpus_name="mini")
    assert ds.corpus is not None
    assert [p.id for p in ds.corpus.passages] == ["X", "Y", "Z", "X#2"]
    assert [q.supporting for q in ds.questions] == [("X", "Y"), ("X#2", "Y")]
    assert ds.corpus.texts()["X#2"] == "X. x two"


def test_load_hotpotqa_original_format(tmp_path: Path) -> None:
    item = {
        "id": "h1",
        "question": "q?",
        "answer": "yes",
        "type": "comparison",
        "level": "hard",
        "supporting_facts": {"title": ["B", "A", "B"], "sent_id": [0, 1, 1]},
        "context": {"title": ["A", "B"], "sentences": [["A one.", " A two."], ["B one."]]},
    }
    path = tmp_path / "mini.json"
    path.write_text(json.dumps([item]), encoding="utf-8")
    ds = load_hotpotqa(path, name="mini", corpus_name="mini")
    assert ds.corpus is not None
    assert ds.corpus.get("A").text == "A one. A two."
    assert ds.questions[0].supporting == ("B", "A")
    assert ds.questions[0].metadata == {"type": "comparison", "level": "hard"}

    item["supporting_facts"] = {"title": ["C"], "sent_id": [0]}
    path.write_text(json.dumps([item]), encoding="utf-8")
    with pytest.raises(DatasetError, match=r"mini\.json: item 0: supporting title 'C'"):
        load_hotpotqa(path, name="mini", corpus_name="mini")


def test_load_hotpotqa_errors_name_the_line(tmp_path: Path) -> None:
    path = tmp_path / "bad.jsonl"
    good = _ircot_line("a", [("X", "x", True)])
    path.write_text(good + "\n" + json.dumps({"question_id": "b"}) + "\n", encoding="utf-8")
    with pytest.raises(DatasetError) as err:
        load_hotpotqa(path, name="bad", corpus_name="bad")
    assert str(err.value) == f"{path}:2: missing 'question_text'"
    path.write_text(good + "\n" + good + "\n", encoding="utf-8")
    with pytest.raises(DatasetError, match="duplicate question id 'a'"):
        load_hotpotqa(path, name="bad", corpus_name="bad")
    path.write_text(_ircot_line("a", [("[X]", "x", True)]) + "\n", encoding="utf-8")
    with pytest.raises(DatasetError, match=r"bad\.jsonl:1: title '\[X\]' cannot be a document id"):
        load_hotpotqa(path, name="bad", corpus_name="bad")


# -- user dataset files ------------------------------------------------------------------------


def write(tmp_path: Path, text: str, name: str = "mine.jsonl") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_unanswerable_questions_load_and_a_decline_is_their_right_result(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        '{"id": "u1", "question": "What is the refund window?", "unanswerable": true}\n'
        '{"id": "u2", "question": "Same, answers given empty?", "answers": [], '
        '"unanswerable": true}\n'
        '{"id": "a1", "question": "Who leads Beacon?", "answers": ["Tomas"], '
        '"unanswerable": false}\n',
    )
    u1, u2, a1 = load_dataset(path).questions
    assert (u1.unanswerable, u1.answers, u1.supporting) == (True, (), ())
    assert u2.unanswerable and u2.answers == ()
    assert not a1.unanswerable and a1.answers == ("Tomas",)
    base = {"citations": [], "unsupported": [], "steps": 1}
    declined = make_record(u1, {**base, "answer": None}, retrieved=[], latency_s=0, thread_id="t")
    answered = make_record(
        u1, {**base, "answer": "Tomas leads it."}, retrieved=[], latency_s=0, thread_id="t"
    )
    assert declined["correct"] and declined["em"] == declined["f1"] == 1.0
    assert not answered["correct"] and answered["em"] == answered["f1"] == 0.0
    wrong = make_record(a1, {**base, "answer": None}, retrieved=[], latency_s=0, thread_id="t")
    assert not wrong["correct"]


def test_user_file_without_header_uses_builtins(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        '\n{"id": "r1", "question": "refund window?", "answers": ["30 days"], '
        '"supporting": ["pol-1"], "tools": ["search_policy"], "corpus": "policy", '
        '"metadata": {"topic": "refunds"}}\n\n'
        '{"id": "r2", "question": "earbuds?", "answers": ["Globex"], "must_contain": ["2"]}\n',
    )
    ds = load_dataset(path)
    assert ds.name == "mine"
    assert ds.corpus is None
    assert ds.path == str(path)
    r1, r2 = ds.questions
    assert r1 == Question(
        id="r1",
        question="refund window?",
        answers=("30 days",),
        supporting=("pol-1",),
        tools=("search_policy",),
        corpus="policy",
    )
    assert r1.metadata == {"topic": "refunds"}
    assert r2.tools is None and r2.supporting == () and r2.must_contain == ("2",)
    assert ds.get("r2") is r2
    with pytest.raises(KeyError):
        ds.get("r3")
    assert load_dataset(str(path)) == ds  # str or Path


def test_user_file_with_corpus_folder(tmp_path: Path) -> None:
    (tmp_path / "runbooks").mkdir()
    (tmp_path / "runbooks" / "atlas.md").write_text("Atlas is owned by Fleet Platform.")
    (tmp_path / "runbooks" / "beacon.md").write_text("Beacon keeps data for 30 days.")
    (tmp_path / "runbooks" / "docks.md").write_text("Voltline builds the Austin docks.")
    path = write(
        tmp_path,
        '{"dataset": "my_eval", "description": "runbook questions", '
        '"corpus": "runbooks=runbooks/"}\n'
        '{"id": "q1", "question": "Who owns Atlas?", "answers": ["Fleet Platform"], '
        '"supporting": ["atlas.md"], "tools": ["search_runbooks"]}\n',
    )
    ds = load_dataset(path)
    assert ds.name == "my_eval"
    assert ds.description == "runbook questions"
    assert ds.corpus is not None and ds.corpus.name == "runbooks"
    assert sorted(ds.corpus.texts()) == ["atlas.md", "beacon.md", "docks.md"]
    assert single_shot_recall(ds, 1) == 1.0


def test_user_file_with_corpus_file_and_hotpot_corpus(tmp_path: Path) -> None:
    write(tmp_path, '{"id": "k1", "text": "The kettle boils at 100 degrees."}\n', "kb.jsonl")
    ds = load_dataset(
        write(
            tmp_path,
            '{"dataset": "k", "corpus": "kb.jsonl"}\n'
            '{"id": "1", "question": "kettle?", "answers": ["100"], "supporting": ["k1"]}\n',
        )
    )
    assert ds.corpus is not None and ds.corpus.name == "kb"
    hp = load_dataset(
        write(
            tmp_path,
            '{"dataset": "hp", "corpus": "hotpotqa_dev"}\n'
            '{"id": "1", "question": "Corliss Archer?", "answers": ["Chief of Protocol"], '
            '"supporting": ["Shirley Temple"]}\n',
            "hp.jsonl",
        )
    )
    assert hp.corpus is load_dataset("hotpotqa-dev").corpus


Q = '{"id": "q1", "question": "Who leads Beacon?", "answers": ["Tomas"], "supporting": ["d4"]}'
H = '{"dataset": "bad", "corpus": "notes"}'

BAD_FILES = [
    # (file content, line, message)
    ("", 1, "empty dataset: no questions"),
    ("\n\n", 1, "empty dataset: no questions"),
    (H + "\n", 1, "no questions after the header"),
    (
        H + "\n" + Q + "\n{oops\n",
        3,
        "malformed JSON: Expecting property name enclosed in double quotes (column 2)",
    ),
    (H + "\n[1, 2]\n", 2, "expected a JSON object, got a list"),
    (H + '\n{"id": "q1", "question": "x?"}\n', 2, "missing 'answers'"),
    (H + '\n{"question": "x?"}\n', 2, "missing 'id', 'answers'"),
    (
        H + '\n{"id": "q1", "question": "x?", "answers": "Tomas"}\n',
        2,
        "'answers' must be a list of strings, got a string",
    ),
    (
        H + '\n{"id": "q1", "question": "x?", "answers": []}\n',
        2,
        "'answers' is empty: give at least one accepted answer "
        '(or mark a question the corpus cannot answer "unanswerable": true)',
    ),
    (
        H + '\n{"id": "q1", "question": "x?", "unanswerable": "yes"}\n',
        2,
        "'unanswerable' must be true or false, got a string",
    ),
    (
        H + '\n{"id": "q1", "question": "x?", "unanswerable": true, "answers": ["Tomas"]}\n',
        2,
        "an unanswerable question has no 'answers': its right result is a decline",
    ),
    (
        H + '\n{"id": "q1", "question": "x?", "unanswerable": true, "supporting": ["d1"]}\n',
        2,
        "an unanswerable question has no 'supporting': its right result is a decline",
    ),
    (
        H + '\n{"id": "q1", "question": "x?", "answers": [30]}\n',
        2,
        "'answers' must be a list of strings, but holds a number 30",
    ),
    (
        H + '\n{"id": "q1", "question": "x?", "answers": [""]}\n',
        2,
        "'answers' holds an empty string",
    ),
    (
        H + '\n{"id": 1, "question": "x?", "answers": ["a"]}\n',
        2,
        "'id' must be a string, got a number 1",
    ),
    (
        H + '\n{"id": " q1", "question": "x?", "answers": ["a"]}\n',
        2,
        "bad id ' q1': non-empty, no control characters or surrounding spaces",
    ),
    (
        H + '\n{"id": "q1", "question": "  ", "answers": ["a"]}\n',
        2,
        "'question' is empty",
    ),
    (
        H + '\n{"id": "q1", "question": 5, "answers": ["a"]}\n',
        2,
        "'question' must be a string, got a number",
    ),
    (H + "\n" + Q + "\n" + Q + "\n", 3, "duplicate id 'q1' (first on line 2)"),
    (
        H + '\n{"id": "q1", "question": "x?", "answers": ["a"], "suporting": ["d1"]}\n',
        2,
        "unknown key 'suporting' (allowed: answers, corpus, id, metadata, must_contain, "
        "question, supporting, tools, unanswerable)",
    ),
    (
        H + '\n{"id": "q1", "question": "x?", "answers": ["a"], "supporting": ["d99"]}\n',
        2,
        "supporting id 'd99' is not in corpus notes",
    ),
    (
        '{"id": "q1", "question": "x?", "answers": ["a"], "supporting": ["d99"]}\n',
        1,
        "supporting id 'd99' is not in the built-in corpora",
    ),
    (
        H
        + '\n{"id": "q1", "question": "x?", "answers": ["a"], "tools": ["calculator", "finish"]}\n',
        2,
        "leave 'finish' out of 'tools': every run ends with it",
    ),
    (
        H + '\n{"id": "q1", "question": "x?", "answers": ["a"], "tools": ["search_policy"]}\n',
        2,
        "tool 'search_policy' searches no corpus of this dataset (notes)",
    ),
    (
        H + '\n{"id": "q1", "question": "x?", "answers": ["a"], "tools": "calculator"}\n',
        2,
        "'tools' must be a list of strings, got a string",
    ),
    (
        H + '\n{"id": "q1", "question": "x?", "answers": ["a"], "corpus": "policy"}\n',
        2,
        "question corpus 'policy' is not a corpus of this dataset (notes)",
    ),
    (
        H + '\n{"id": "q1", "question": "x?", "answers": ["a"], "metadata": [1]}\n',
        2,
        "'metadata' must be an object, got a list",
    ),
    (
        '{"dataset": "bad", "corpus": "notez"}\n' + Q + "\n",
        1,
        "unknown corpus 'notez' (known: policy, products, notes, hotpotqa_dev, hotpotqa_hard, "
        "or a saved index; or a corpus file path relative to the dataset file, "
        "as PATH or NAME=PATH)",
    ),
    (
        '{"dataset": "bad", "corpus": 3}\n' + Q + "\n",
        1,
        "'corpus' must be a corpus name or file path, or null, got a number",
    ),
    (
        '{"dataset": "bad", "corpus": "notes", "note": "x"}\n' + Q + "\n",
        1,
        "unknown header key 'note' (allowed: dataset, description, corpus)",
    ),
    (
        '{"dataset": "bad name", "corpus": "notes"}\n' + Q + "\n",
        1,
        "bad dataset name 'bad name': use letters, digits, '_' and '-'",
    ),
    (Q + "\n" + H + "\n", 2, "a header (an object with 'dataset') must be the first line"),
]


@pytest.mark.parametrize(("content", "line", "message"), BAD_FILES)
def test_bad_dataset_files(tmp_path: Path, content: str, line: int, message: str) -> None:
    path = write(tmp_path, content, "bad.jsonl")
    with pytest.raises(DatasetError) as err:
        load_dataset(path)
    assert str(err.value) == f"{path}:{line}: {message}"
    assert "\n" not in str(err.value)
    assert err.value.line == line and err.value.path == str(path)


def test_bad_corpus_file_is_reported_with_the_dataset_line(tmp_path: Path) -> None:
    write(tmp_path, '{"id": "k1"}\n', "kb.jsonl")
    path = write(tmp_path, '{"dataset": "k", "corpus": "kb.jsonl"}\n' + Q + "\n")
    with pytest.raises(DatasetError) as err:
        load_dataset(path)
    msg = str(err.value)
    assert msg.startswith(f"{path}:1: corpus 'kb.jsonl': ")
    assert f'{tmp_path / "kb.jsonl"}:1: missing "text"' in msg
    assert "\n" not in msg


def test_not_utf8_names_the_line(tmp_path: Path) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_bytes((H + "\n" + Q + "\n").encode() + b'{"id": "\xff"}\n')
    with pytest.raises(DatasetError) as err:
        load_dataset(path)
    assert str(err.value) == f"{path}:3: not UTF-8 text (byte 0xff)"


def test_unknown_dataset_and_missing_file(tmp_path: Path) -> None:
    with pytest.raises(DatasetError) as err:
        load_dataset("hotpot")
    assert str(err.value) == (
        "unknown dataset 'hotpot': not a built-in (notes, seed_runs, hotpotqa-dev, "
        "hotpotqa-hard, hotpotqa-dev-tune, hotpotqa-dev-test) and no such file"
    )
    missing = tmp_path / "nope.jsonl"
    with pytest.raises(DatasetError) as err:
        load_dataset(missing)
    assert str(err.value) == f"{missing}: no such file"
    with pytest.raises(DatasetError, match="not a file"):
        load_dataset(tmp_path)


# -- single-shot BM25 baselines ------------------------------------------------------------------


def rank_bm25_recalls(ds: Dataset, ks: list[int], pattern: str = r"[a-z0-9]+") -> list[float]:
    """Micro recall of rank_bm25's top k (score > 0, ties by id), as our search returns them."""
    assert ds.corpus is not None
    texts = ds.corpus.texts()
    ids = list(texts)
    id_rank = np.argsort(np.argsort(np.array(ids, dtype=object)))
    bm = BM25Okapi([re.findall(pattern, texts[i].lower()) for i in ids])
    hits = dict.fromkeys(ks, 0)
    total = 0
    for q in ds.questions:
        scores = bm.get_scores(re.findall(pattern, q.question.lower()))
        ranked = np.lexsort((id_rank, -scores))
        for k in ks:
            got = {ids[j] for j in ranked[:k] if scores[j] > 0}
            hits[k] += len(got & set(q.supporting))
        total += len(set(q.supporting))
    return [hits[k] / total for k in ks]


def test_single_shot_recall_notes_matches_rank_bm25() -> None:
    ds = load_dataset("notes")
    figures = [single_shot_recall(ds, k) for k in (1, 2, 3, 4)]
    assert figures == pytest.approx(rank_bm25_recalls(ds, [1, 2, 3, 4]))
    # and the contract's recall_at_k agrees
    index = BM25(load_builtin("notes").texts())
    assert figures == pytest.approx([recall_at_k(index, ds.triples(), k=k) for k in (1, 2, 3, 4)])
    assert figures[-1] == 1.0


def test_single_shot_recall_seed_runs_pools_builtins() -> None:
    ds = load_dataset("seed_runs")
    assert index_for(ds).n_docs == sum(len(load_builtin(n)) for n in BUILTIN_CORPORA)
    assert index_for(ds) is index_for(ds)
    assert 0.0 <= single_shot_recall(ds, 3) <= 1.0


def test_single_shot_recall_at_budgets() -> None:
    ds = load_dataset("notes")
    ids = [q.id for q in ds.questions]
    assert single_shot_recall_at_budgets(ds, dict.fromkeys(ids, 2)) == single_shot_recall(ds, 2)
    # budget 0 finds nothing; the others find what single-shot at that k finds for them
    index = index_for(ds)
    budgets = {"q1": 0, "q3": 1, "q4": 3}
    expected_hits = sum(
        len(set(ds.get(qid).supporting) & {d for d, _ in index.search(ds.get(qid).question, k=k)})
        for qid, k in budgets.items()
        if k
    )
    expected = expected_hits / (2 + 1 + 2)
    assert single_shot_recall_at_budgets(ds, budgets) == pytest.approx(expected)
    with pytest.raises(ValueError, match="'nope' is not in dataset notes"):
        single_shot_recall_at_budgets(ds, {"nope": 1})
    with pytest.raises(ValueError, match="negative budget"):
        single_shot_recall_at_budgets(ds, {"q1": -1})
    with pytest.raises(ValueError, match="no question budgets"):
        single_shot_recall_at_budgets(ds, {})


def test_budgets_from_records() -> None:
    base: RunRecord = {
        "question_id": "q1",
        "question": "?",
        "answer": None,
        "citations": [],
        "unsupported": [],
        "retrieved": ["d1", "d2", "d1"],
        "supporting": ["d1"],
        "steps": 1,
        "stopped": "budget",
        "latency_s": 0.1,
        "thread_id": "t",
        "correct": False,
        "retrieval_recall": 1.0,
    }
    other: RunRecord = {**base, "question_id": "q2", "retrieved": []}
    assert budgets_from_records([base, other]) == {"q1": 2, "q2": 0}


def test_single_shot_recall_hotpotqa_dev_figures() -> None:
    """Our tokenizer keeps Unicode letters: 0.561 / 0.690 against the README's 0.559 / 0.686."""
    ds = load_dataset("hotpotqa-dev")
    assert single_shot_recall(ds, 2) == pytest.approx(0.561)
    assert single_shot_recall(ds, 4) == pytest.approx(0.690)
    hard = load_dataset("hotpotqa-hard")
    assert single_shot_recall(hard, 2) == pytest.approx(0.530)
    assert single_shot_recall(hard, 4) == pytest.approx(0.645)


@pytest.mark.slow
def test_pooled_dev_reproduces_readme_with_rank_bm25() -> None:
    """rank_bm25 with the README's ASCII tokens over our pooled corpus gives its exact figures,
    and with Unicode-letter tokens gives ours."""
    ds = load_dataset("hotpotqa-dev")
    assert rank_bm25_recalls(ds, [2, 4]) == pytest.approx([0.559, 0.686])
    ours = [single_shot_recall(ds, 2), single_shot_recall(ds, 4)]
    assert rank_bm25_recalls(ds, [2, 4], r"[^\W_]+") == pytest.approx(ours)

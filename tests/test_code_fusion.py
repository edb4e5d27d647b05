"""The query-adaptive hybrid weight (codes trust BM25 more) and the made-up tune sets it was
chosen on."""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pytest

from evals.datasets import load_dataset
from tools.bm25 import BM25
from tools.hybrid import ALPHA, ALPHA_CODE, HybridSearch, code_alpha, fuse, query_alpha
from tools.query_codes import code_share, code_terms, is_code

DATASETS = Path(__file__).resolve().parent.parent / "evals" / "datasets"
CODES_TUNE = DATASETS / "codes_tune.jsonl"
SERVICE_TUNE = DATASETS / "service_tune.jsonl"
FIELD_SERVICE_TUNE = DATASETS / "field_service_tune.jsonl"
REPORTED_REQUESTS = DATASETS / "field_service_requests.jsonl"

# made-up pages: two variants of one machine, same fault, near-identical prose
PAGES = {
    "k7-a": "Fault Q-31 on the KV-7-A kiln: the door seal leaks heat; replace seal kit ZK-880.",
    "k7-b": "Fault Q-31 on the KV-7-B kiln: the door seal leaks heat; replace seal kit ZK-881.",
    "glaze": "Glazes crawl when the bisque was dusty or handled with greasy hands.",
    "firing": "A slow cool through the quartz inversion keeps large pots from cracking.",
    "clay": "Wedge reclaimed clay until no air pockets remain before throwing.",
    "wheel": "Centre the clay on the wheel head with wet hands and steady pressure.",
    "trim": "Trim leather-hard pots upside down and tap them to centre them.",
    "studio": "Sweep the studio floor wet so silica dust never rises into the air.",
}


@pytest.mark.parametrize(
    ("word", "expected"),
    [
        ("Q-31", True),
        ("ZK-880", True),
        ("KV-7-B", True),
        ("3B2", True),
        ("v2.1", True),
        ("2019", False),  # a year
        ("1990s", False),  # a decade
        ("21st", False),  # an ordinal
        ("25-foot", False),  # a number joined to a word
        ("kiln", False),
    ],
)
def test_is_code(word: str, expected: bool) -> None:
    assert is_code(word) is expected


def test_code_terms_are_the_bm25_tokens_of_code_words() -> None:
    assert code_terms("Q-31 on a KV-7-B in 2019, the 21st time") == {"q", "31", "kv", "7", "b"}
    assert code_terms("why do glazes crawl") == set()


def test_code_share_is_the_idf_share_of_indexed_code_terms() -> None:
    bm25 = BM25(PAGES)
    query = "KV-7-B door seal"
    terms = {"kv", "7", "b", "door", "seal"}
    idf = {t: bm25.idf(t) for t in terms}
    assert all(v > 0 for v in idf.values())
    expected = sum(idf[t] for t in ("kv", "7", "b")) / sum(idf.values())
    assert code_share(bm25, query) == pytest.approx(expected)
    # a code the corpus never mentions weighs nothing; a prose query has share 0
    assert code_share(bm25, "XJ-404 door seal") == 0.0
    assert code_share(bm25, "why do glazes crawl") == 0.0
    assert code_share(bm25, "KV-7-B") == pytest.approx(1.0)
    assert code_share(bm25, "") == 0.0


def test_a_query_holding_an_indexed_code_gets_the_code_weight() -> None:
    assert ALPHA_CODE < ALPHA
    assert code_alpha(0.0) == ALPHA
    assert code_alpha(0.05) == code_alpha(1.0) == ALPHA_CODE
    bm25 = BM25(PAGES)
    assert query_alpha(bm25, "why do glazes crawl") == ALPHA
    assert query_alpha(bm25, "Q-31 on KV-7-B") == ALPHA_CODE
    # one code among prose words is enough
    assert query_alpha(bm25, "the door seal of my KV-7-B leaks heat, what kit?") == ALPHA_CODE
    # a code the corpus never mentions does not count: the query is prose to this index
    assert query_alpha(bm25, "XJ-404 door seal") == ALPHA
    assert query_alpha(bm25, "") == ALPHA


def _zscores(values: list[float]) -> list[float]:
    mean = sum(values) / len(values)
    sd = math.sqrt(sum((v - mean) ** 2 for v in values) / len(values))
    return [(v - mean) / sd for v in values]


def test_fuse_weighs_dense_by_the_given_alpha() -> None:
    lexical = [4.0, 1.0, 0.0, 0.0]
    semantic = [0.50, 0.90, 0.10, 0.20]
    rank = np.arange(4)
    for alpha in (ALPHA, ALPHA_CODE, 0.35):
        expected = [
            alpha * s + (1 - alpha) * b
            for s, b in zip(_zscores(semantic), _zscores(lexical), strict=True)
        ]
        got = fuse(np.asarray(lexical), np.asarray(semantic), "convex", rank, alpha)
        assert got.tolist() == pytest.approx(expected, abs=1e-5)
    # the weight decides the winner: dense's favourite at ALPHA, BM25's at ALPHA_CODE
    fixed = fuse(np.asarray(lexical), np.asarray(semantic), "convex", rank, ALPHA)
    adapted = fuse(np.asarray(lexical), np.asarray(semantic), "convex", rank, ALPHA_CODE)
    assert int(np.argmax(fixed)) == 1 and int(np.argmax(adapted)) == 0


class ScriptedEncoder:
    """Vectors fixed by hand: the query looks most like k7-a (the embedding blurs variants)."""

    def __init__(self, vectors: dict[str, list[float]]) -> None:
        self.vectors = vectors

    def encode(self, texts: list[str], batch_size: int = 64) -> np.ndarray:
        """The scripted vector of each text."""
        return np.asarray([self.vectors[t] for t in texts], dtype=np.float32)


def test_hybrid_search_lets_a_variant_code_decide() -> None:
    from tools.dense import DenseIndex, normalize

    bm25 = BM25(PAGES)
    vectors = {
        "k7-a": [1, 0.1, 0],
        "k7-b": [0.9, 0.9, 0],
        "glaze": [0, 1, 0],
        "firing": [0, 0, 1],
        "clay": [0, 1, 1],
        "wheel": [0.2, 1, 0],
        "trim": [0, 0.3, 1],
        "studio": [0.1, 0, 1],
    }
    dense = DenseIndex(list(PAGES), normalize(np.asarray([vectors[d] for d in PAGES])))
    query = "Q-31 KV-7-B"
    encoder = ScriptedEncoder({query: [1.0, 0.0, 0.0]})
    lexical = bm25.get_scores(query).tolist()
    semantic = dense.scores(np.asarray([1.0, 0.0, 0.0])).tolist()
    alpha = query_alpha(bm25, query)
    assert alpha == ALPHA_CODE
    expected = [
        alpha * s + (1 - alpha) * b
        for s, b in zip(_zscores(semantic), _zscores(lexical), strict=True)
    ]
    order = sorted(zip(PAGES, expected, strict=True), key=lambda x: (-x[1], x[0]))
    hits = HybridSearch(bm25, dense, encoder).search(query, k=2)
    assert [h.id for h in hits] == [d for d, _ in order[:2]]
    assert [h.score for h in hits] == pytest.approx([s for _, s in order[:2]], abs=1e-5)
    assert hits[0].id == "k7-b"  # BM25 tells the variant apart; dense alone prefers k7-a
    assert dense.search_vector(np.asarray([1.0, 0.0, 0.0]), k=1)[0][0] == "k7-a"
    fixed = [
        ALPHA * s + (1 - ALPHA) * b
        for s, b in zip(_zscores(semantic), _zscores(lexical), strict=True)
    ]
    assert max(zip(fixed, PAGES, strict=True))[1] == "k7-a"  # the fixed weight got it wrong


@pytest.mark.parametrize(
    ("path", "name"), [(CODES_TUNE, "codes_tune"), (SERVICE_TUNE, "service_tune")]
)
def test_tune_dataset_loads_and_every_gold_id_is_in_its_corpus(path: Path, name: str) -> None:
    dataset = load_dataset(path)
    assert dataset.name == name and dataset.corpus is not None
    assert 30 <= len(dataset.questions) <= 70
    ids = {p.id for p in dataset.corpus.passages}
    for question in dataset.questions:
        assert question.supporting, question.id
        assert set(question.supporting) <= ids, question.id
    # read the raw files too, independently of the loader's own check
    lines = [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines() if x]
    corpus_file = path.parent / lines[0]["corpus"].split("=", 1)[1]
    raw_ids = {json.loads(x)["id"] for x in corpus_file.read_text(encoding="utf-8").splitlines()}
    assert raw_ids == ids
    assert all(set(row["supporting"]) <= raw_ids for row in lines[1:])


def test_codes_tune_mixes_code_and_prose_questions() -> None:
    questions = load_dataset(CODES_TUNE).questions
    with_code = sum(1 for q in questions if code_terms(q.question))
    assert with_code >= len(questions) // 2
    assert len(questions) - with_code >= 10


def test_service_tune_requests_name_a_variant_and_mostly_describe_the_fault_in_words() -> None:
    dataset = load_dataset(SERVICE_TUNE)
    for question in dataset.questions:
        assert code_terms(question.question), question.id  # every request names a variant
    naming_the_fault = [q for q in dataset.questions if q.answers[0] in q.question]
    assert 0 < len(naming_the_fault) <= len(dataset.questions) // 3
    # every page answering a fault is gold: a request's supporting pages all carry its code
    assert dataset.corpus is not None
    text = {p.id: p.text for p in dataset.corpus.passages}
    for question in dataset.questions:
        pages = {pid for pid, body in text.items() if question.answers[0] in body}
        assert set(question.supporting) == pages, question.id


def test_field_service_tune_split_is_sound_and_disjoint_from_the_reported_requests() -> None:
    from corpora.field_service import VARIANT_RE, load

    data = load()
    paged = {code for page in data.manual for code in page["fault_codes"]}
    rows = [json.loads(x) for x in FIELD_SERVICE_TUNE.read_text(encoding="utf-8").splitlines()]
    header, requests = rows[0], rows[1:]
    assert header["dataset"] == "field_service_tune" and 30 <= len(requests) <= 70
    assert len({r["id"] for r in requests}) == len(requests)
    for row in requests:
        code = row["expected"]["fault_code"]
        assert code in paged, row["id"]  # every request has a relevant manual page
        families = {m.group(1).upper() for m in VARIANT_RE.finditer(row["request"])}
        assert len(families) == 1, row["id"]  # names one variant ...
        assert families <= set(data.faults[code]["families"]), row["id"]  # ... that can have it
    # a tune split: no request, and no 6-word run of one, appears among the reported requests
    reported = REPORTED_REQUESTS.read_text(encoding="utf-8").lower()
    for row in requests:
        words = row["request"].lower().split()
        runs = {" ".join(words[i : i + 6]) for i in range(max(1, len(words) - 5))}
        assert not any(run in reported for run in runs), row["id"]

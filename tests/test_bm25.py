import math
import random
from pathlib import Path

import numpy as np
import pytest
from rank_bm25 import BM25Okapi

import tools.bm25 as bm25_module
import tools.bm25_tokens as bm25_tokens_module
from tools.bm25 import BM25, recall_at_k
from tools.bm25_tokens import tokenize

# Verbatim from seed 004_1596d4479540cc42.txt.
DOCS = {
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
}  # fmt: skip

QUESTIONS = [
    ("Who leads the team that owns the Atlas scheduler?", ["Priya Raman"], ["d1", "d2"]),
    ("Who leads the team that owns Beacon?", ["Tomas Ekberg"], ["d3", "d4"]),
    ("How many times does Atlas retry a failed job?", ["three", "3"], ["d8"]),
    ("Which company builds the charging docks in the office where the Fleet Platform team sits?", ["Voltline"], ["d2", "d5"]),  # noqa: E501
    ("How many days of data does the telemetry pipeline keep?", ["30"], ["d3"]),
]  # fmt: skip


class Reference(BM25Okapi):  # type: ignore[misc]
    """rank_bm25's Okapi BM25 with our two departures: an idf of exactly 0 is floored like a
    negative one, and where the floor (0.25 x mean idf) is not above 0, every term weighs
    Lucene's idf ln(1 + (N - n + 0.5) / (n + 0.5))."""

    def _calc_idf(self, nd: dict[str, int]) -> None:
        super()._calc_idf(nd)
        eps = self.epsilon * self.average_idf
        if eps <= 0:
            n = self.corpus_size
            self.idf = {w: math.log1p((n - f + 0.5) / (f + 0.5)) for w, f in nd.items()}
        else:
            self.idf = {w: eps if idf == 0 else idf for w, idf in self.idf.items()}


def reference_top(ref: BM25Okapi, ids: list[str], query: str, k: int) -> list[tuple[str, float]]:
    """Top k from rank_bm25 scores, score > 0, ties by doc id in str order."""
    scores = ref.get_scores(tokenize(query))
    hits = [(d, float(s)) for d, s in zip(ids, scores, strict=True) if s > 0]
    return sorted(hits, key=lambda h: (-h[1], h[0]))[:k]


def assert_same_as_reference(docs: dict[str, str], queries: list[str], k: int) -> None:
    index = BM25(docs)
    ref = Reference([tokenize(t) for t in docs.values()])
    for query in queries:
        ours = index.get_scores(query)
        theirs = ref.get_scores(tokenize(query))
        assert ours.dtype == np.float64 and ours.shape == (len(docs),)
        np.testing.assert_allclose(ours, theirs, rtol=0, atol=1e-9, err_msg=query)
        got = index.search(query, k=k)
        want = reference_top(ref, list(docs), query, k)
        assert [d for d, _ in got] == [d for d, _ in want], query
        np.testing.assert_allclose([s for _, s in got], [s for _, s in want], rtol=0, atol=1e-9)


# -- tokenize ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "tokens"),
    [
        ("E-4042 x2 Hello,World", ["e", "4042", "x2", "hello", "world"]),
        ("Café", ["café"]),
        ("snake_case and__more", ["snake", "case", "and", "more"]),
        ("", []),
        ("  ...!?  ", []),
        ("ÜBER straße 3.14", ["über", "straße", "3", "14"]),
        ("日本語 テキスト", ["日本語", "テキスト"]),
        ("tab\tnew\nline", ["tab", "new", "line"]),
        ("it's O'Brien", ["it", "s", "o", "brien"]),
    ],
)
def test_tokenize(text: str, tokens: list[str]) -> None:
    assert tokenize(text) == tokens


def test_tokenize_is_idempotent_on_its_output() -> None:
    text = "İstanbul ÅNGSTRÖM E-4042 x_y Hello,World ǅemal"
    tokens = tokenize(text)
    assert tokenize(" ".join(tokens)) == tokens


def test_tokenize_rejects_non_str() -> None:
    with pytest.raises(ValueError, match="expects a str"):
        tokenize(b"bytes")  # type: ignore[arg-type]


# -- parity with rank_bm25 -------------------------------------------------------------------


def test_seed_notes_match_rank_bm25() -> None:
    queries = [q for q, _, _ in QUESTIONS] + [
        "Austin office robots",
        "the the the",  # a term in more than half the docs, repeated
        "atlas ATLAS atlas beacon",
        "nothing matches zebra",
        "",
        "office",
    ]
    for k in (1, 3, 10, 50):
        assert_same_as_reference(DOCS, queries, k)


def test_seed_notes_search_output() -> None:
    index = BM25(DOCS)
    hits = index.search("Who leads the team that owns the Atlas scheduler?", k=3)
    assert [d for d, _ in hits] == ["d1", "d8", "d4"]  # d2 says "led", not "leads"
    assert all(isinstance(d, str) and isinstance(s, float) for d, s in hits)
    assert hits[0][1] > hits[1][1] > hits[2][1] > 0
    assert index.search("zebra quagga", k=3) == []
    assert index.n_docs == 10
    assert list(index.doc_ids) == list(DOCS)


def random_corpus(rng: random.Random) -> tuple[dict[str, str], list[str]]:
    vocab = [f"w{i}" for i in range(rng.randint(1, 6))]
    n_docs = rng.randint(1, 40)
    docs: dict[str, str] = {}
    for i in range(n_docs):
        if docs and rng.random() < 0.15:  # duplicate an earlier document
            text = rng.choice(list(docs.values()))
        else:
            text = " ".join(rng.choices(vocab, k=rng.randint(0, 8)))
        docs[f"d{rng.randint(0, 3 * n_docs)}-{i}"] = text
    ids = list(docs)
    rng.shuffle(ids)  # insertion order differs from str order
    docs = {d: docs[d] for d in ids}
    queries = [
        " ".join(rng.choices([*vocab, "unknown", "W1"], k=rng.randint(0, 6))) for _ in range(6)
    ]
    return docs, queries


@pytest.mark.parametrize("seed", range(40))
def test_random_tiny_vocab_corpora_match_rank_bm25(seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(10):
        docs, queries = random_corpus(rng)
        if not any(tokenize(t) for t in docs.values()):
            continue  # rank_bm25 divides by zero on a corpus without a single token
        assert_same_as_reference(docs, queries, k=rng.choice([1, 2, 3, 5, 100]))


def test_random_corpora_exercise_ties_and_negative_idf() -> None:
    """The randomized corpora really contain what the parity test claims to cover."""
    rng = random.Random(0)
    seen = {"tie": False, "negative_idf": False, "repeated_term": False, "floor_not_above_0": False}
    for _ in range(100):
        docs, queries = random_corpus(rng)
        if not any(tokenize(t) for t in docs.values()):
            continue
        index = BM25(docs)
        floored = index.average_idf > 0
        seen["negative_idf"] |= floored and any(
            index.doc_freq(t) > index.n_docs / 2 for t in ("w0", "w1")
        )
        seen["floor_not_above_0"] |= not floored
        for query in queries:
            toks = tokenize(query)
            seen["repeated_term"] |= len(set(toks)) < len(toks)
            scores = [s for _, s in index.search(query, k=100)]
            seen["tie"] |= len(set(scores)) < len(scores)
    assert all(seen.values()), seen


# Each search strategy, forced through the module's tuning constants. "auto" lets the cost
# model choose (by default corpora this small always take the sparse path).
STRATEGIES: dict[str, dict[str, float]] = {
    "auto": {"_SPARSE_MIN": 0, "_MAXSCORE_MIN": 0.0},
    "sparse": {"_SPARSE_RATIO": 0, "_SPARSE_MIN": 10**9},
    "dense": {
        "_SPARSE_RATIO": 10**9,
        "_SPARSE_MIN": -1,
        "_COST_ADD_AT": 0.0,
        "_COST_ROW_ADD": 0.0,
        "_COST_DENSE_DOC": 0.0,
    },
    "maxscore": {
        "_SPARSE_RATIO": 10**9,
        "_SPARSE_MIN": -1,
        "_COST_UNIQUE": 0.0,
        "_COST_LOOKUP": 0.0,
        "_COST_ROW_LOOKUP": 0.0,
        "_COST_ADD_AT": 1e9,
        "_COST_ROW_ADD": 1e9,
        "_MAXSCORE_MIN": 0.0,
    },
}


def force_strategy(monkeypatch: pytest.MonkeyPatch, name: str) -> None:
    for constant, value in STRATEGIES[name].items():
        monkeypatch.setattr(bm25_module, constant, value)


@pytest.mark.parametrize("strategy", sorted(STRATEGIES))
def test_every_search_strategy_matches_rank_bm25(
    monkeypatch: pytest.MonkeyPatch, strategy: str
) -> None:
    force_strategy(monkeypatch, strategy)
    monkeypatch.setattr(bm25_module, "_SEED_DOCS", 3)  # tiny seeds: weak bounds, still exact
    rng = random.Random(strategy)
    for _ in range(60):
        docs, queries = random_corpus(rng)
        if any(tokenize(t) for t in docs.values()):
            assert_same_as_reference(docs, queries, k=rng.choice([1, 2, 3, 10]))


def test_maxscore_prunes_and_stays_exact(monkeypatch: pytest.MonkeyPatch) -> None:
    """On a Zipfian corpus, MaxScore really leaves terms out of the candidate set."""
    force_strategy(monkeypatch, "maxscore")
    plans: list[int] = []
    original = BM25._maxscore_plan

    def spy(self: BM25, *args: object) -> object:
        plan = original(self, *args)  # type: ignore[arg-type]
        plans.append(len(plan.terms[1]) if plan else -1)
        return plan

    monkeypatch.setattr(BM25, "_maxscore_plan", spy)
    rng = random.Random(3)
    words = [f"w{i}" for i in range(300)]
    weights = [1 / (i + 1) for i in range(300)]
    docs = {
        f"doc{i}": " ".join(rng.choices(words, weights, k=rng.randint(5, 40))) for i in range(400)
    }
    queries = [" ".join(rng.choices(words, weights, k=rng.randint(2, 6))) for _ in range(40)]
    assert_same_as_reference(docs, queries, k=10)
    assert any(n > 0 for n in plans), plans


def test_zipfian_corpus_matches_rank_bm25_with_cost_model_choices(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    force_strategy(monkeypatch, "auto")
    rng = random.Random(11)
    words = [f"{chr(97 + i % 26)}{i}" for i in range(2000)]
    weights = [1 / (i + 1) for i in range(2000)]
    docs = {
        f"id-{rng.randint(0, 999)}-{i}": " ".join(rng.choices(words, weights, k=rng.randint(1, 60)))
        for i in range(3000)
    }
    queries = [" ".join(rng.choices(words, weights, k=rng.randint(1, 6))) for _ in range(40)]
    assert_same_as_reference(docs, queries, k=10)


TORTURE = [
    "Plain ASCII, with PUNCTUATION!!! and under_scores",
    "nul\x00inside\x00text",
    "control\x01\x1fchars\x7fdel",
    "Ünïcödé Straße İstanbul ǅemal",
    "mixed ascii and 日本語テキスト",
    "",
    "tabs\tand\nnewlines\r\n",
    "digits 123 4.56 ७८९ ²",
    "\x00",
    "UPPER lower MiXeD",
]


@pytest.mark.parametrize("chunk_docs", [1, 3, 1000])
def test_indexing_tokenizes_exactly_like_tokenize(
    monkeypatch: pytest.MonkeyPatch, chunk_docs: int
) -> None:
    """The indexer's fast paths (whole ASCII chunks, per-document fallback) agree with tokenize."""
    monkeypatch.setattr(bm25_tokens_module, "_CHUNK_DOCS", chunk_docs)
    rng = random.Random(chunk_docs)
    alphabet = [chr(c) for c in range(128)] + list("éÉßİı日本ǅ²७_")
    docs = {f"t{i}": text for i, text in enumerate(TORTURE)}
    for i in range(60):
        docs[f"r{i}"] = "".join(rng.choices(alphabet, k=rng.randint(0, 40)))
    index = BM25(docs)
    counts: dict[str, int] = {}
    for text in docs.values():
        for token in set(tokenize(text)):
            counts[token] = counts.get(token, 0) + 1
    assert index.n_terms == len(counts)
    assert all(index.doc_freq(token) == n for token, n in counts.items())
    queries = [" ".join(tokenize(t)) for t in docs.values()][:30]
    assert_same_as_reference(docs, queries, k=5)


def test_negative_idf_is_floored_to_epsilon_times_mean_idf() -> None:
    docs = {"a": "x y", "b": "x", "c": "x z", "d": "q"}
    index = BM25(docs)
    ref = BM25Okapi([tokenize(t) for t in docs.values()])
    assert index.doc_freq("x") == 3
    assert index.idf("x") == pytest.approx(0.25 * ref.average_idf, abs=1e-12)
    for term in ("x", "y", "z", "q"):
        assert index.idf(term) == pytest.approx(ref.idf[term], abs=1e-12)
    assert index.idf("missing") == 0.0
    assert index.doc_freq("missing") == 0


@pytest.mark.parametrize(
    "docs",
    [
        {"only": "Descale the kettle every six weeks."},
        {"a": "Descale the kettle every six weeks.", "b": "The kettle boils water fast."},
    ],
)
def test_a_corpus_of_one_or_two_passages_finds_them(docs: dict[str, str]) -> None:
    """rank_bm25's idf is 0 or below for every word here; no passage could ever be found."""
    assert Reference([tokenize(t) for t in docs.values()]).average_idf <= 0
    index = BM25(docs)
    assert [d for d, _ in index.search("how often to descale", k=2)] == [
        "a" if "a" in docs else "only"
    ]
    assert {d for d, _ in index.search("kettle", k=2)} == set(docs)
    assert index.idf("kettle") > 0
    if "b" in docs:  # the word one passage holds weighs more than the word both hold
        assert index.idf("descale") > index.idf("kettle")
        assert index.search("kettle boils", k=2)[0][0] == "b"


def test_a_word_in_exactly_half_the_passages_weighs_the_floor() -> None:
    """rank_bm25 leaves its idf at 0, under the floor a commoner word gets: nothing matched."""
    docs = {
        "a#1": "guide.md Deploy billing: run make release.",
        "a#2": "guide.md Deploy billing: the Payments team owns it.",
        "b": "Access needs a lead's approval.",
        "c": "Alerts page the on-call engineer.",
    }
    index = BM25(docs)
    assert index.doc_freq("billing") == 2 and index.n_docs == 4
    assert index.idf("billing") == pytest.approx(0.25 * index.average_idf)
    assert index.idf("billing") > 0
    assert index.idf("billing") == index.idf("guide")  # in 2 and 2 of 4: the same floor
    assert {d for d, _ in index.search("deploy billing", k=4)} == {"a#1", "a#2"}


def test_repeated_query_term_counts_each_time() -> None:
    index = BM25(DOCS)
    once = index.get_scores("beacon")
    np.testing.assert_allclose(index.get_scores("beacon beacon"), 2 * once, rtol=0, atol=1e-12)


def test_ties_broken_by_doc_id_in_str_order() -> None:
    docs = {"d2": "same words", "d10": "same words", "d1": "same words", "x": "other", "y": "more"}
    docs |= {"z": "stuff", "w": "here"}
    assert [d for d, _ in BM25(docs).search("same", k=3)] == ["d1", "d10", "d2"]


def test_bm25_parameters_match_rank_bm25() -> None:
    index = BM25(DOCS, k1=0.9, b=0.4)
    ref = Reference([tokenize(t) for t in DOCS.values()], k1=0.9, b=0.4)
    for query, _, _ in QUESTIONS:
        np.testing.assert_allclose(
            index.get_scores(query), ref.get_scores(tokenize(query)), rtol=0, atol=1e-9
        )


def test_documents_without_tokens_are_indexed_but_never_found() -> None:
    index = BM25({"empty": "", "punct": "!!", "a": "alpha beta", "b": "beta", "c": "gamma"})
    assert index.n_docs == 5
    assert [d for d, _ in index.search("alpha beta", k=10)] == ["a", "b"]


# -- recall_at_k -----------------------------------------------------------------------------


def test_recall_at_k_on_seed_notes() -> None:
    index = BM25(DOCS)
    assert recall_at_k(index, QUESTIONS, k=3) == pytest.approx(0.75)
    assert recall_at_k(index, QUESTIONS, k=10) == pytest.approx(1.0)


def test_recall_at_k_is_micro_averaged() -> None:
    index = BM25({"a": "apple", "b": "banana", "c": "cherry"})
    questions: list[tuple[str, list[str], list[str]]] = [
        ("apple", [], ["a"]),
        ("banana", [], ["b", "c"]),
    ]
    assert recall_at_k(index, questions, k=1) == pytest.approx(2 / 3)


# -- save / load -----------------------------------------------------------------------------


@pytest.mark.parametrize("mmap", [True, False])
def test_save_load_round_trip(tmp_path: Path, mmap: bool) -> None:
    rng = random.Random(7)
    words = [f"t{i}" for i in range(50)] + ["café", "日本"]
    docs = {f"doc-{i}": " ".join(rng.choices(words, k=rng.randint(0, 30))) for i in range(300)}
    docs["ünï-id"] = "café 日本 t1"
    index = BM25(docs, k1=1.2, b=0.6)
    index.save(tmp_path / "idx")
    loaded = BM25.load(tmp_path / "idx", mmap=mmap)

    assert list(loaded.doc_ids) == list(index.doc_ids)
    assert loaded.doc_ids[-1] == "ünï-id" and len(loaded.doc_ids) == 301
    assert loaded.n_docs == index.n_docs
    assert (loaded.k1, loaded.b) == (1.2, 0.6)
    for query in ["t1 t2 t2", "café", "日本 t49 nope", "", "t0 t1 t2 t3 t4 t5"]:
        assert np.array_equal(loaded.get_scores(query), index.get_scores(query))
        assert loaded.search(query, k=7) == index.search(query, k=7)
    assert list(loaded.vocabulary) == list(index.vocabulary) == sorted(index.vocabulary)
    assert "café" in list(loaded.vocabulary) and len(loaded.vocabulary) == loaded.n_terms
    for term in ["t1", "café", "日本", "nope", "", "t10"]:
        assert loaded.idf(term) == index.idf(term)
        assert loaded.doc_freq(term) == index.doc_freq(term)
    arrays = [loaded._postings_doc, loaded._postings_weight, loaded._indptr]
    assert all(isinstance(a, np.memmap) for a in arrays) is mmap


def test_load_errors_are_clear(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="not a saved BM25 index"):
        BM25.load(tmp_path)
    (tmp_path / "params.json").write_text("{not json", encoding="utf-8")
    with pytest.raises(ValueError, match="unreadable"):
        BM25.load(tmp_path)
    BM25(DOCS).save(tmp_path)
    (tmp_path / "postings_doc.npy").unlink()
    with pytest.raises(ValueError, match="cannot read index arrays"):
        BM25.load(tmp_path)


# -- bad input -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("docs", "kwargs", "message"),
    [
        ({}, {}, "empty corpus"),
        ([("d1", "text")], {}, "must be a mapping"),
        ({"d1": 3}, {}, "text of doc 'd1' must be str"),
        ({"d1": None}, {}, "text of doc 'd1' must be str"),
        ({1: "text"}, {}, "doc ids must be str"),
        ({"d1": "text"}, {"k1": -1}, "k1 must be >= 0"),
        ({"d1": "text"}, {"b": 1.5}, "b must be between 0 and 1"),
        ({"d1": "text"}, {"k1": float("nan")}, "k1 must be finite"),
        ({"d1": "text"}, {"b": "0.5"}, "b must be a number"),
    ],
)
def test_bad_corpus_or_params(docs: object, kwargs: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError, match=message) as err:
        BM25(docs, **kwargs)  # type: ignore[arg-type]
    assert "\n" not in str(err.value)


@pytest.mark.parametrize(
    ("query", "k", "message"),
    [
        ("atlas", 0, "k must be >= 1"),
        ("atlas", -3, "k must be >= 1"),
        ("atlas", 2.5, "k must be an int"),
        ("atlas", True, "k must be an int"),
        (None, 3, "query must be a str"),
        (["atlas"], 3, "query must be a str"),
    ],
)
def test_bad_search_arguments(query: object, k: object, message: str) -> None:
    index = BM25(DOCS)
    with pytest.raises(ValueError, match=message):
        index.search(query, k=k)  # type: ignore[arg-type]


def test_bad_recall_arguments() -> None:
    index = BM25(DOCS)
    with pytest.raises(ValueError, match="k must be >= 1"):
        recall_at_k(index, QUESTIONS, k=0)
    with pytest.raises(ValueError, match="question 0 must be"):
        recall_at_k(index, [("only a question",)], k=3)  # type: ignore[list-item]
    with pytest.raises(ValueError, match="not a str"):
        recall_at_k(index, [("q", [], "d1")], k=3)
    with pytest.raises(ValueError, match="at least one supporting document"):
        recall_at_k(index, [("q", [], [])], k=3)

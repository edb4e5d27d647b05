"""Answer quality of the offline policy and of a retrieve-and-quote baseline on every tune set.

For each set (`TUNE_SETS`, or the files given on the command line) every question is asked
in-process (`evals.runner.make_session`, an in-memory checkpointer, the offline policy, k=3,
6 steps), and `evals.baselines.quote_baseline` answers it too: one search, the best-covering
sentence of the top passage. Both are scored the same way (`score`):

- **contains**: of the answerable questions, the share whose ``answer`` is or holds a gold
  answer as whole words (SQuAD normalization, `evals.answer_metrics.contains_word`; every
  `must_contain` string too). For a yes/no question (its first gold answer is ``yes`` or
  ``no``) the bare word does not count inside a sentence ("no" is in any sentence saying
  "not"): the sentence must hold one of the other gold phrases, or the short answer (else the
  answer) be the gold word;
- **right+cited**: of all questions, the share answered right (as above; a yes/no short answer
  must not contradict the gold yes/no) *and* citing a supporting passage (a question without
  supporting ids needs no citation); for an unanswerable question, a decline;
- **EM**, **F1**: of the answerable questions, SQuAD exact match and token F1 of
  ``short_answer`` when the result has one, else of ``answer`` (a decline scores 0);
- **declined**: of all questions, the share with ``stopped == "no_answer"`` or no answer;
- **wrong+conf**: of the answers given (not declined), the share that are not right but
  ``confident`` (a result without that field counts as confident, as today's main has none);
- **right conf**: of the right answers to answerable questions, the share marked confident;
- **off-corpus**: unanswerable questions declined, of those in the set.

The tune sets are never the reported ones: the documentation folders of Jinja2, click and attrs
with questions written from them, a made-up museum's pages (`pages`), Werkzeug's documentation
(`werkzeug`, added after the rules were chosen: its first measurement is out of sample),
Python-Markdown's (`markdown`, Markdown pages by another author, added the same way), a SQuAD
v1.1 train sample, hotpotqa-dev-tune, notes, seed_runs and the made-up codes/service sets
(`evals/datasets/README.md`).

Writes benchmarks/results/answer_quality.md (not with --limit or --no-write); with --dump DIR,
every question's answers, citations and verdicts to DIR/SET.jsonl, to read the failures.
Usage: python benchmarks/answer_quality.py [--sets jinja,click] [--limit N] [--no-write]
       [--dump DIR] [DATASET.jsonl ...]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from langgraph.checkpoint.memory import InMemorySaver

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from evals.answer_metrics import (  # noqa: E402
    best,
    contains_word,
    exact_match,
    normalize_answer,
    token_f1,
)
from evals.baselines import quote_baseline  # noqa: E402
from evals.datasets import Dataset, Question, load_dataset  # noqa: E402
from evals.runner import make_session  # noqa: E402
from graph.agent.messages import one_line  # noqa: E402
from graph.models import default_model_spec  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
DATASETS = ROOT / "evals" / "datasets"
RESULTS = Path(__file__).resolve().parent / "results" / "answer_quality.md"
TUNE_SETS: dict[str, str] = {
    "jinja": str(DATASETS / "jinja_docs_tune.jsonl"),
    "click": str(DATASETS / "click_docs_tune.jsonl"),
    "attrs": str(DATASETS / "attrs_docs_tune.jsonl"),
    "pages": str(DATASETS / "pages_docs_tune.jsonl"),
    "werkzeug": str(DATASETS / "werkzeug_docs_tune.jsonl"),
    "markdown": str(DATASETS / "markdown_docs_tune.jsonl"),
    "structlog": str(DATASETS / "structlog_docs_tune.jsonl"),
    "marshmallow": str(DATASETS / "marshmallow_docs_tune.jsonl"),
    "trio": str(DATASETS / "trio_docs_tune.jsonl"),
    "anyio": str(DATASETS / "anyio_docs_tune.jsonl"),
    "copier": str(DATASETS / "copier_docs_tune.jsonl"),
    "babel": str(DATASETS / "babel_docs_tune.jsonl"),
    "starlette": str(DATASETS / "starlette_docs_tune.jsonl"),
    "flask_sqlalchemy": str(DATASETS / "flask_sqlalchemy_docs_tune.jsonl"),
    "cattrs": str(DATASETS / "cattrs_docs_tune.jsonl"),
    "apscheduler": str(DATASETS / "apscheduler_docs_tune.jsonl"),
    "black": str(DATASETS / "black_docs_tune.jsonl"),
    "itsdangerous": str(DATASETS / "itsdangerous_docs_tune.jsonl"),
    "pluggy": str(DATASETS / "pluggy_docs_tune.jsonl"),
    "coverage": str(DATASETS / "coverage_docs_tune.jsonl"),
    "tox": str(DATASETS / "tox_docs_tune.jsonl"),
    "squad": str(DATASETS / "squad_train_tune.jsonl"),
    "hotpotqa-dev-tune": "hotpotqa-dev-tune",
    "notes": "notes",
    "seed_runs": "seed_runs",
    "codes_tune": str(DATASETS / "codes_tune.jsonl"),
    "service_tune": str(DATASETS / "service_tune.jsonl"),
}
"""Short name -> what `load_dataset` takes, in the order the table lists them."""
YES_NO = ("yes", "no")
Result = Mapping[str, Any]
Answerer = Callable[[Question], Result]


@dataclass(frozen=True)
class Scores:
    """One answerer's figures on one set (see the module docstring for each)."""

    n: int
    contains: float
    right_cited: float
    em: float
    f1: float
    declined: float
    wrong_confident: float
    right_confident: float
    off_declined: int
    off_total: int
    errors: int
    seconds: float


def declined(result: Result) -> bool:
    """Whether the run declined: ``stopped == "no_answer"`` or no answer at all."""
    return result.get("stopped") == "no_answer" or result.get("answer") is None


def confident(result: Result) -> bool:
    """The result's ``confident`` field; a result without one counts as confident."""
    return result.get("confident", True) is not False


def scored_text(result: Result) -> str | None:
    """What EM and F1 are computed on: ``short_answer`` when there is one, else ``answer``."""
    short = result.get("short_answer")
    return short if isinstance(short, str) and short.strip() else result.get("answer")


def contradicts_yes_no(question: Question, result: Result) -> bool:
    """A yes/no gold (its first answer) met by the other word as the short answer."""
    gold = normalize_answer(question.answers[0]) if question.answers else ""
    given = normalize_answer(scored_text(result) or "")
    return gold in YES_NO and given in YES_NO and given != gold


def holds_gold(question: Question, answer: str | None) -> bool:
    """Whether `answer` holds a gold answer as whole words, and every `must_contain` string.

    A bare ``yes``/``no`` gold never counts inside a sentence; a yes/no question's other gold
    phrases do.
    """
    if answer is None:
        return False
    golds = [a for a in question.answers if normalize_answer(a) not in YES_NO]
    folded = answer.casefold()
    return best(contains_word, answer, golds) == 1.0 and all(
        m.casefold() in folded for m in question.must_contain
    )


def is_right(question: Question, result: Result) -> bool:
    """Right regardless of citations: a decline when unanswerable, else a gold answer held."""
    if question.unanswerable:
        return declined(result)
    if declined(result) or contradicts_yes_no(question, result):
        return False
    exact = best(exact_match, scored_text(result), question.answers) == 1.0
    return exact or holds_gold(question, result.get("answer"))


def cites_support(question: Question, result: Result) -> bool:
    """Whether the result cites a supporting passage (always, when the question names none)."""
    return not question.supporting or bool(
        set(result.get("citations") or ()) & set(question.supporting)
    )


def score(questions: Sequence[Question], results: Sequence[Result], seconds: float) -> Scores:
    """The figures of one answerer's `results` (in question order) on `questions`."""
    pairs = list(zip(questions, results, strict=True))
    answerable = [(q, r) for q, r in pairs if not q.unanswerable]
    answered = [(q, r) for q, r in pairs if not declined(r)]
    right = [(q, r) for q, r in answerable if is_right(q, r)]
    off = [r for q, r in pairs if q.unanswerable]
    return Scores(
        n=len(pairs),
        contains=share(
            holds_gold(q, r.get("answer")) or best(exact_match, r.get("answer"), q.answers) == 1
            for q, r in answerable
        ),
        right_cited=share(is_right(q, r) and cites_support(q, r) for q, r in pairs),
        em=mean(best(exact_match, scored_text(r), q.answers) for q, r in answerable),
        f1=mean(best(token_f1, scored_text(r), q.answers) for q, r in answerable),
        declined=share(declined(r) for _, r in pairs),
        wrong_confident=share(not is_right(q, r) and confident(r) for q, r in answered),
        right_confident=share(confident(r) for _, r in right),
        off_declined=sum(declined(r) for r in off),
        off_total=len(off),
        errors=sum(r.get("stopped") == "error" for _, r in pairs),
        seconds=seconds,
    )


def share(flags: Any) -> float:
    """The share of true flags (0.0 of none)."""
    values = [bool(f) for f in flags]
    return sum(values) / len(values) if values else 0.0


def mean(values: Any) -> float:
    """The mean (0.0 of none)."""
    numbers = list(values)
    return sum(numbers) / len(numbers) if numbers else 0.0


def policy_answerer(dataset: Dataset, max_steps: int, k: int) -> Answerer:
    """Ask each question on its own thread of one in-process session (the offline policy)."""
    session = make_session(dataset, InMemorySaver(), k)
    model = default_model_spec()

    def answer(question: Question) -> Result:
        try:
            return session.ask(
                question.question, model=model, max_steps=max_steps, thread_id=f"aq-{question.id}"
            )
        except Exception as error:  # one failing question must not end the benchmark
            return {"answer": None, "citations": [], "stopped": "error", "error": one_line(error)}

    return answer


def run(questions: Sequence[Question], answerer: Answerer) -> tuple[list[Result], float]:
    """Every question's result, in order, and the seconds taken."""
    start = time.perf_counter()
    results = [answerer(q) for q in questions]
    return results, time.perf_counter() - start


@dataclass(frozen=True)
class Measured:
    """One set's scores, and right+cited by question kind (``metadata.kind``, when given)."""

    policy: Scores
    baseline: Scores
    kinds: dict[str, tuple[int, float, float]]
    """kind -> (questions, policy right+cited, baseline right+cited)."""
    rows: list[dict[str, Any]]
    """One row a question: what each answerer said and whether it was right and cited."""


def measure(spec: str, limit: int | None, max_steps: int, k: int) -> Measured:
    """The policy's and the baseline's scores on one set."""
    dataset = load_dataset(spec)
    questions = dataset.questions[:limit] if limit else dataset.questions
    policy, policy_s = run(questions, policy_answerer(dataset, max_steps, k))
    baseline, baseline_s = run(questions, lambda q: quote_baseline(dataset, q.question))
    kinds: dict[str, tuple[int, float, float]] = {}
    for kind in dict.fromkeys(str(q.metadata["kind"]) for q in questions if "kind" in q.metadata):
        picked = [i for i, q in enumerate(questions) if q.metadata.get("kind") == kind]
        right = [
            share(
                is_right(questions[i], results[i]) and cites_support(questions[i], results[i])
                for i in picked
            )
            for results in (policy, baseline)
        ]
        kinds[kind] = (len(picked), right[0], right[1])
    rows = [
        {
            "id": q.id,
            "question": q.question,
            "kind": q.metadata.get("kind"),
            "answers": list(q.answers),
            "unanswerable": q.unanswerable,
            "supporting": list(q.supporting),
            **{
                f"{who}_{key}": result.get(key)
                for who, result in (("policy", p), ("baseline", b))
                for key in (
                    "answer",
                    "short_answer",
                    "citations",
                    "confident",
                    "support",
                    "stopped",
                )
            },
            "policy_retrieved": retrieved_ids(p),
            "policy_steps": p.get("steps"),
            "policy_right_cited": is_right(q, p) and cites_support(q, p),
            "baseline_right_cited": is_right(q, b) and cites_support(q, b),
        }
        for q, p, b in zip(questions, policy, baseline, strict=True)
    ]
    return Measured(
        score(questions, policy, policy_s), score(questions, baseline, baseline_s), kinds, rows
    )


def retrieved_ids(result: Result) -> list[str]:
    """Every passage id a result's searches returned, in order, each once."""
    found = result.get("retrieved") or {}
    return list(dict.fromkeys(i for ids in found.values() for i in ids))


def kind_table(rows: Sequence[tuple[str, Measured]]) -> str:
    """Right+cited by question kind, for the sets whose questions name their kind."""
    kinds = list(dict.fromkeys(kind for _, m in rows for kind in m.kinds))
    if not kinds:
        return ""
    out = [
        "| set | " + " | ".join(f"{kind}: policy / baseline" for kind in kinds) + " |",
        "|---|" + "---:|" * len(kinds),
    ]
    for name, m in rows:
        if m.kinds:
            cells = [
                f"{m.kinds[kind][1]:.2f} / {m.kinds[kind][2]:.2f} (n={m.kinds[kind][0]})"
                if kind in m.kinds
                else "-"
                for kind in kinds
            ]
            out.append(f"| {name} | " + " | ".join(cells) + " |")
    return "\n".join(out)


def table(rows: Sequence[tuple[str, Measured]]) -> str:
    """The Markdown table: two rows a set (the policy, then the baseline)."""
    out = [
        "| set | n | answerer | contains | right+cited | vs baseline | EM | F1 | declined "
        "| wrong+conf | right conf | off-corpus declined | s |",
        "|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for name, m in rows:
        policy, baseline = m.policy, m.baseline
        for who, s in (("policy", policy), ("baseline", baseline)):
            versus = f"{s.right_cited - baseline.right_cited:+.3f}" if who == "policy" else ""
            off = f"{s.off_declined}/{s.off_total}" if s.off_total else "-"
            errors = f" ({s.errors} errors)" if s.errors else ""
            out.append(
                f"| {name if who == 'policy' else ''} | {s.n if who == 'policy' else ''} "
                f"| {who}{errors} | {s.contains:.3f} | {s.right_cited:.3f} | {versus} "
                f"| {s.em:.3f} | {s.f1:.3f} | {s.declined:.3f} | {s.wrong_confident:.3f} "
                f"| {s.right_confident:.3f} | {off} | {s.seconds:.1f} |"
            )
    return "\n".join(out)


def main(argv: Sequence[str] | None = None) -> None:
    """Measure the chosen sets, print the table and write the results file."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("datasets", nargs="*", help="dataset files to measure instead")
    parser.add_argument("--sets", help=f"comma-separated, of: {', '.join(TUNE_SETS)}")
    parser.add_argument("--limit", type=int, help="only the first N questions of each set")
    parser.add_argument("--max-steps", type=int, default=6)
    parser.add_argument("-k", type=int, default=3)
    parser.add_argument("--no-write", action="store_true", help="print only")
    parser.add_argument("--dump", type=Path, help="write each set's answers to DIR/SET.jsonl")
    args = parser.parse_args(argv)
    chosen = {Path(p).stem: p for p in args.datasets} or {
        name: TUNE_SETS[name]
        for name in (args.sets.split(",") if args.sets else TUNE_SETS)
        if name in TUNE_SETS or parser.error(f"unknown set {name!r}")
    }
    load = os.getloadavg()[0]
    rows = []
    for name, spec in chosen.items():
        measured = measure(spec, args.limit, args.max_steps, args.k)
        rows.append((name, measured))
        if args.dump:
            args.dump.mkdir(parents=True, exist_ok=True)
            lines = (json.dumps(row, ensure_ascii=False) + "\n" for row in measured.rows)
            (args.dump / f"{name}.jsonl").write_text("".join(lines))
        print(
            f"{name}: right+cited {measured.policy.right_cited:.3f} "
            f"(baseline {measured.baseline.right_cited:.3f})"
        )
    kinds = kind_table(rows)
    text = table(rows) + (f"\n\nRight+cited by question kind:\n\n{kinds}" if kinds else "")
    print(text)
    if args.limit or args.no_write or args.datasets:
        return
    RESULTS.write_text(
        "# Answer quality on the tune sets\n\n"
        f"`python benchmarks/answer_quality.py` on {platform.python_implementation()} "
        f"{platform.python_version()}, {os.cpu_count()} CPUs, load average {load:.2f} at the "
        f"start, {time.strftime('%Y-%m-%d')}. The offline policy (k={args.k}, "
        f"{args.max_steps} steps) against the retrieve-and-quote baseline "
        "(`evals.baselines.quote_baseline`); every figure is defined in the script's "
        "docstring. All sets are tune sets: scores are in-sample.\n\n" + text + "\n"
    )


if __name__ == "__main__":
    main()

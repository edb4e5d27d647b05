"""Re-find the supporting passage ids of the documentation tune sets from their evidence phrases.

A folder's passage ids (``templates.rst#42``) move whenever the reader (`corpora.documents`,
`corpora.markup`) splits a file differently. Each question of `SETS` keeps in
``metadata.evidence`` the phrases its supporting passages were chosen by; this script reads the
folder with the project's own loader and sets ``supporting`` to every passage holding one of
the phrases (compared lowercased, punctuation as spaces), in phrase order. It reports a phrase
no passage holds and a question whose passages hold none of its answers, and rewrites a file
only with ``--write``.

Usage: python benchmarks/refind_support.py [--write]
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from evals.datasets import load_dataset  # noqa: E402

DATASETS = Path(__file__).resolve().parent.parent / "evals" / "datasets"
SETS = (
    "jinja_docs_tune.jsonl",
    "click_docs_tune.jsonl",
    "attrs_docs_tune.jsonl",
    "pages_docs_tune.jsonl",
    "werkzeug_docs_tune.jsonl",
    "markdown_docs_tune.jsonl",
    "structlog_docs_tune.jsonl",
    "marshmallow_docs_tune.jsonl",
    "trio_docs_tune.jsonl",
    "anyio_docs_tune.jsonl",
    "copier_docs_tune.jsonl",
    "babel_docs_tune.jsonl",
    "starlette_docs_tune.jsonl",
    "flask_sqlalchemy_docs_tune.jsonl",
    "cattrs_docs_tune.jsonl",
    "apscheduler_docs_tune.jsonl",
    "black_docs_tune.jsonl",
    "itsdangerous_docs_tune.jsonl",
    "pluggy_docs_tune.jsonl",
    "coverage_docs_tune.jsonl",
    "tox_docs_tune.jsonl",
)


def normalized(text: str) -> str:
    """Lowercase words and digits separated by single spaces."""
    return " ".join(re.sub(r"[^a-z0-9]+", " ", text.lower()).split())


def refind(path: Path) -> tuple[list[dict[str, Any]], list[str]]:
    """The file's rows with ``supporting`` re-found, and the problems met."""
    corpus = load_dataset(path, check_ids=False).corpus  # the ids are what it re-finds
    assert corpus is not None, f"{path.name} names no corpus"
    folded = {p.id: normalized(p.text) for p in corpus.passages}
    rows = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    problems: list[str] = []
    for row in rows[1:]:
        if row.get("unanswerable"):
            continue
        found: list[str] = []
        for phrase in row["metadata"]["evidence"]:
            hits = [pid for pid, text in folded.items() if normalized(phrase) in text]
            if not hits:
                problems.append(f"{row['id']}: no passage holds {phrase!r}")
            found += [pid for pid in hits if pid not in found]
        held = " ".join(folded[pid] for pid in found)  # punctuation as spaces, as graded
        if not any(normalized(answer) in held for answer in row["answers"]):
            problems.append(f"{row['id']}: no answer of {row['answers']} in {found}")
        row["supporting"] = found
    return rows, problems


def main() -> None:
    """Re-find every set's supporting ids, print the problems, write with --write."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", action="store_true", help="rewrite the dataset files")
    args = parser.parse_args()
    for name in SETS:
        path = DATASETS / name
        rows, problems = refind(path)
        print(f"{name}: {len(rows) - 1} questions, {len(problems)} problems")
        for problem in problems:
            print(f"  {problem}")
        if args.write:
            text = "".join(json.dumps(row, ensure_ascii=False) + "\n" for row in rows)
            path.write_text(text)


if __name__ == "__main__":
    main()

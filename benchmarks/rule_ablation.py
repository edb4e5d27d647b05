"""Rule ablation: the offline policy's table with each optional rule removed, on every tune set.

For each rule of `graph.models.offline.rules.RULES` that the table can run without
(`OPTIONAL`), every tune set of `answer_quality.TUNE_SETS` is asked again with that rule taken
out of the tuple (patched in-process for the run, restored after), and once with all of them
out (only the structural rules: one search, then the answer). Each question is asked as
`answer_quality` asks it (`policy_answerer`: an in-process session, k=3, 6 steps) and scored by
its `score`; no baseline is run. A cell is what the rule adds: right+cited of the full table
minus right+cited without the rule, in questions (``+3/-1``: three questions right and cited
only with the rule, one only without it) and, where the set names supporting passages,
the change in retrieval recall (supporting ids retrieved at any step, `evals.metrics.micro_recall`).

A rule **keeps** when it helps (net > 0) on sets of at least two shapes (`SHAPES`) and hurts
(net < 0) on none, as issue 19 asks; the verdict reads retrieval recall the same way after it.
The structural rules (`STRUCTURAL`) are not removed: each says why. hotpotqa-dev-test is held
out and never measured here.

Writes benchmarks/results/rule_ablation.md (with --base-without R, the table without R as the base:
rule_ablation_without_R.md; nothing with --limit, --sets, --rules or --no-write).
Usage: python benchmarks/rule_ablation.py [--sets jinja,squad] [--rules follow_up,read_deeper]
       [--base-without read_deeper] [--limit N] [--no-write]
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import time
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from answer_quality import TUNE_SETS, cites_support, is_right, policy_answerer, run, score  # noqa: E402

from evals.datasets import Dataset, Question, load_dataset  # noqa: E402
from evals.metrics import micro_recall  # noqa: E402
from graph.models.offline import rules  # noqa: E402

RESULTS = Path(__file__).resolve().parent / "results" / "rule_ablation.md"
SHAPES: dict[str, str] = {
    "jinja": "docs",
    "click": "docs",
    "attrs": "docs",
    "pages": "docs",
    "werkzeug": "docs",
    "markdown": "docs",
    "structlog": "docs",
    "marshmallow": "docs",
    "trio": "docs",
    "anyio": "docs",
    "copier": "docs",
    "babel": "docs",
    "starlette": "docs",
    "flask_sqlalchemy": "docs",
    "cattrs": "docs",
    "apscheduler": "docs",
    "black": "docs",
    "itsdangerous": "docs",
    "pluggy": "docs",
    "coverage": "docs",
    "tox": "docs",
    "squad": "reading",
    "hotpotqa-dev-tune": "multi-hop",
    "notes": "made-up",
    "seed_runs": "made-up",
    "codes_tune": "made-up",
    "service_tune": "made-up",
}
"""Tune set -> its shape; a rule must help on sets of two shapes."""
STRUCTURAL: dict[str, str] = {
    "compute": "the only way to the calculator: without it an arithmetic question is searched "
    "(seed run b)",
    "answer_computed": "the only way to say the calculator's value: without it the run searches "
    "after computing",
    "fill_schemas": "the only way to the structured controller (field-service tools, no search "
    "tool)",
    "no_search_tool": "without it a run with no search tool reaches first_search, which has no "
    "tool to route to",
    "first_search": "without it nothing is searched and `answer` declines every question",
    "answer": "the last rule: it always answers or declines, so the table always decides",
}
"""Rules the table cannot run without, and why; they are never removed here."""
ALL_OUT = "(all optional out)"


def optional_rules() -> list[str]:
    """The rules of the table that are not structural, in table order."""
    return [r.__name__ for r in rules.RULES if r.__name__ not in STRUCTURAL]


@contextmanager
def without(names: Sequence[str]) -> Iterator[None]:
    """`rules.RULES` with the rules `names` taken out, restored on exit."""
    full = rules.RULES
    unknown = set(names) - {r.__name__ for r in full}
    if unknown:
        raise SystemExit(f"no rule named {', '.join(sorted(unknown))} in the table")
    rules.RULES = tuple(r for r in full if r.__name__ not in names)
    try:
        yield
    finally:
        rules.RULES = full


@dataclass(frozen=True)
class Run:
    """One variant of the table on one set: who was right and cited, and retrieval recall."""

    right: frozenset[str]
    """Ids of the questions right and cited."""
    recall: float | None
    """Supporting ids retrieved, of all (None when the set names no supporting passages)."""
    rate: float
    """Right+cited as `answer_quality.score` computes it (of all questions)."""
    seconds: float


def run_variant(dataset: Dataset, questions: Sequence[Question], k: int, max_steps: int) -> Run:
    """Ask `questions` of `dataset` with the table as it is now (`rules.RULES`)."""
    results, seconds = run(questions, policy_answerer(dataset, max_steps, k))
    right = frozenset(
        q.id
        for q, r in zip(questions, results, strict=True)
        if is_right(q, r) and cites_support(q, r)
    )
    with_gold = [(q, r) for q, r in zip(questions, results, strict=True) if q.supporting]
    recall = (
        micro_recall(
            ([d for ids in (r.get("retrieved") or {}).values() for d in ids] for _, r in with_gold),
            (q.supporting for q, _ in with_gold),
        )
        if with_gold
        else None
    )
    return Run(right, recall, score(questions, results, seconds).right_cited, seconds)


def cell(full: Run, cut: Run) -> str:
    """What the rule adds on one set: net questions (+gained/-lost), and recall's change."""
    gained, lost = len(full.right - cut.right), len(cut.right - full.right)
    text = f"{gained - lost:+d} (+{gained}/-{lost})"
    if full.recall is not None and cut.recall is not None and full.recall != cut.recall:
        text += f", recall {full.recall - cut.recall:+.3f}"
    return text


def verdict(full: dict[str, Run], cut: dict[str, Run]) -> str:
    """Keeps when it helps on sets of two shapes or more and hurts none (right+cited); the
    same reading of retrieval recall follows, for the rules that search."""
    net = {s: len(full[s].right - cut[s].right) - len(cut[s].right - full[s].right) for s in cut}
    recall = {
        s: (full[s].recall or 0.0) - (cut[s].recall or 0.0)
        for s in cut
        if full[s].recall is not None and cut[s].recall is not None
    }
    return f"{judge(net)}; recall: {judge(recall)}"


def judge(change: Mapping[str, float]) -> str:
    """Keeps when the change helps sets of two shapes and hurts none; else why not."""
    helped = sorted({SHAPES[s] for s, n in change.items() if n > 0})
    hurt = [s for s, n in change.items() if n < 0]
    if hurt:
        return f"drop: hurts {', '.join(hurt)}"
    if len(helped) < 2:
        return f"drop: helps {len(helped)} shape(s) ({', '.join(helped) or 'none'})"
    return f"keeps: helps {', '.join(helped)}, hurts none"


def render(sets: list[str], full: dict[str, Run], ablated: dict[str, dict[str, Run]]) -> str:
    """The Markdown table: one row a removed rule, one column a set, then the verdict."""
    head = "| rule removed | " + " | ".join(f"{s} ({SHAPES[s]})" for s in sets) + " | verdict |"
    out = [head, "|---|" + "---:|" * len(sets) + "---|"]
    base = [
        f"{full[s].rate:.3f}"
        + (f", recall {full[s].recall:.3f}" if full[s].recall is not None else "")
        for s in sets
    ]
    out.append("| (base table: right+cited) | " + " | ".join(base) + " | |")
    for rule, cut in ablated.items():
        cells = [cell(full[s], cut[s]) for s in sets]
        said = verdict(full, cut) if rule != ALL_OUT else "(together: what the optional rules add)"
        out.append(
            f"| {rule if rule == ALL_OUT else f'`{rule}`'} | " + " | ".join(cells) + f" | {said} |"
        )
    return "\n".join(out)


def changed(sets: list[str], full: dict[str, Run], ablated: dict[str, dict[str, Run]]) -> str:
    """Which questions each rule wins (right only with it) and loses, to read them."""
    lines = []
    for rule, cut in ablated.items():
        for s in sets:
            won, lost = sorted(full[s].right - cut[s].right), sorted(cut[s].right - full[s].right)
            if won or lost:
                wins, loses = ", ".join(won) or "-", ", ".join(lost) or "-"
                lines.append(f"- `{rule}` on {s}: wins {wins}; loses {loses}")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> None:
    """Run the full table and each ablation on the chosen sets; print and write the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sets", help=f"comma-separated, of: {', '.join(TUNE_SETS)}")
    parser.add_argument("--rules", help="comma-separated optional rules to remove (default: all)")
    parser.add_argument(
        "--base-without", default="", help="comma-separated rules the base table leaves out"
    )
    parser.add_argument("--limit", type=int, help="only the first N questions of each set")
    parser.add_argument("--max-steps", type=int, default=6)
    parser.add_argument("-k", type=int, default=3)
    parser.add_argument("--no-write", action="store_true", help="print only")
    args = parser.parse_args(argv)
    sets = args.sets.split(",") if args.sets else list(TUNE_SETS)
    for name in sets:
        if name not in TUNE_SETS:
            parser.error(f"unknown set {name!r}")
    dropped = [r for r in args.base_without.split(",") if r]
    optional = [r for r in optional_rules() if r not in dropped]
    chosen = args.rules.split(",") if args.rules else optional
    for rule in chosen:
        if rule not in optional:
            parser.error(f"{rule!r} is not an optional rule (optional: {', '.join(optional)})")
    variants = {rule: [*dropped, rule] for rule in chosen}
    if len(chosen) > 1:
        variants[ALL_OUT] = [*dropped, *chosen]
    load = os.getloadavg()[0]
    full: dict[str, Run] = {}
    ablated: dict[str, dict[str, Run]] = {v: {} for v in variants}
    for name in sets:
        dataset = load_dataset(TUNE_SETS[name])
        questions = dataset.questions[: args.limit] if args.limit else dataset.questions
        with without(dropped):
            full[name] = run_variant(dataset, questions, args.k, args.max_steps)
        for variant, names in variants.items():
            with without(names):
                ablated[variant][name] = run_variant(dataset, questions, args.k, args.max_steps)
        seconds = full[name].seconds + sum(r[name].seconds for r in ablated.values())
        print(f"{name}: {len(variants) + 1} runs, {seconds:.0f} s", flush=True)
    text = render(sets, full, ablated)
    details = changed(sets, full, ablated)
    print(text + "\n\n" + details)
    if args.limit or args.no_write or args.sets or args.rules:
        return
    base = f"The base table leaves out {', '.join(f'`{r}`' for r in dropped)}. " if dropped else ""
    structural = "\n".join(f"- `{rule}`: {why}" for rule, why in STRUCTURAL.items())
    path = (
        RESULTS.with_name(f"rule_ablation_without_{'_'.join(dropped)}.md") if dropped else RESULTS
    )
    path.write_text(
        "# Rule ablation on the tune sets\n\n"
        f"`python benchmarks/rule_ablation.py` on {platform.python_implementation()} "
        f"{platform.python_version()}, {os.cpu_count()} CPUs, load average {load:.2f} at the "
        f"start, {time.strftime('%Y-%m-%d')}; the offline policy, k={args.k}, "
        f"{args.max_steps} steps. A cell is what the rule adds (the full table minus the table "
        "without it): right and cited, in questions (net, then +won/-lost), and the change in "
        "retrieval recall of the supporting passages where the set names them and it moved. "
        "A rule keeps when it helps on sets of two shapes or more and hurts none. "
        + base
        + "\n\n"
        + text
        + "\n\nStructural rules, not removed:\n\n"
        + structural
        + "\n\nThe questions each rule wins and loses:\n\n"
        + (details or "(none)")
        + "\n"
    )


if __name__ == "__main__":
    main()

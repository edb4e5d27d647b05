"""Answer quality and retrieval against the step budget, with single-shot BM25 as the peer.

For each dataset and each `--max-steps` budget, runs the offline policy over the dataset
(`evals.runner.run_dataset`, in-memory checkpointer) and prints one row: EM, token F1, the
seed's accuracy, grounded, retrieval recall, single-shot BM25 recall given the same number of
paragraphs per question, their ratio, mean steps, and the runs that ended on the budget with
evidence in hand (something retrieved but no answer: the goal is 0).

Usage: python benchmarks/eval_budget.py [--datasets hotpotqa-dev-test,hotpotqa-hard]
                                        [--steps 2,3,4,6,8] [--concurrency 2]
Writes benchmarks/results/eval_budget.md.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from langgraph.checkpoint.memory import InMemorySaver

from evals.datasets import load_dataset
from evals.metrics import summarize
from evals.run_threads import compare_retrieval
from evals.runner import run_dataset

HEADER = (
    "| dataset | max steps | EM | F1 | accuracy | grounded | retrieval recall | single-shot BM25 "
    "(same paragraphs) | agent / BM25 | paragraphs / question | mean steps | budget stops "
    "with evidence |"
)


def row(dataset_name: str, max_steps: int, concurrency: int) -> str:
    """One table row: run the dataset at this budget and summarize it."""
    dataset = load_dataset(dataset_name)
    records = run_dataset(
        dataset, max_steps=max_steps, concurrency=concurrency, checkpointer=InMemorySaver()
    )
    summary = summarize(records)
    comparison = compare_retrieval(dataset, records)
    stuck = sum(r["stopped"] == "budget" and bool(r["retrieved"]) for r in records)
    peer = comparison.single_shot if comparison else float("nan")
    agent = comparison.agent if comparison else float("nan")
    ratio = agent / peer if peer else float("nan")
    cells = [
        dataset_name,
        str(max_steps),
        f"{summary['em']:.3f}",
        f"{summary['f1']:.3f}",
        f"{summary['accuracy']:.3f}",
        f"{summary['grounded']:.3f}",
        f"{agent:.3f}",
        f"{peer:.3f}",
        f"{ratio:.2f}x",
        f"{summary['mean_retrieved']:.2f}",
        f"{summary['mean_steps']:.2f}",
        str(stuck),
    ]
    return "| " + " | ".join(cells) + " |"


def main() -> None:
    """Parse the arguments, print the table as rows complete, and write it to results/."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--datasets", default="hotpotqa-dev-test,hotpotqa-hard")
    parser.add_argument("--steps", default="2,3,4,6,8")
    parser.add_argument("--concurrency", type=int, default=2)
    parser.add_argument("--out", default=str(Path(__file__).parent / "results" / "eval_budget.md"))
    args = parser.parse_args()
    lines = [HEADER, "|" + "---|" * (HEADER.count("|") - 1)]
    print("\n".join(lines), flush=True)
    for name in args.datasets.split(","):
        for steps in (int(s) for s in args.steps.split(",")):
            lines.append(row(name, steps, args.concurrency))
            print(lines[-1], flush=True)
    Path(args.out).write_text(
        "# Eval quality against the step budget (offline policy)\n\n"
        + "\n".join(lines)
        + "\n\nhotpotqa-dev-tune is in-sample (the policy is tuned on it); hotpotqa-dev-test "
        "and hotpotqa-hard are held out.\n",
        encoding="utf-8",
    )


if __name__ == "__main__":
    main()

"""`agent shapes` against `agent threads --all` on stores of 1,000 and 10,000 agent runs.

Goal (issue 23): `agent shapes` over 10,000 stored runs in at most 10x the time `agent threads
--all` takes to list them: one pass over the store, nothing re-executed but the offline flow.

The 1,000-run store is written by ``traffic.py`` (every run a real agent invocation). The
10,000-run store holds that traffic ten times: its checkpoint rows copied under new thread ids
(``copy_threads``), so both stores have the same mix; the flow then runs once per distinct
request, as it would on any traffic that repeats itself. Each command runs as a subprocess
(``python -m graph ...``, startup included), the two interleaved, best of ``--rounds``; the
CPU time of each child is reported beside the wall time (CPU is what a busy machine does not
inflate). The results file also records `agent shapes` on the 1,000 runs: the bundled traffic
the README's flow-and-agent section quotes.

Usage: python benchmarks/shapes_scale.py [--runs 1000] [--copies 10] [--rounds 3]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from traffic import MIX, counts_for, write_traffic

from graph.app.persistence import open_checkpointer

RESULTS = Path(__file__).parent / "results" / "shapes_scale.md"
GOAL = 10.0
ROOT = Path(__file__).resolve().parents[1]


def copy_threads(path: Path, copies: int) -> None:
    """Copy every thread's rows `copies - 1` more times, under ids ending ``-c<n>``."""
    columns = {
        "checkpoints": "checkpoint_ns, checkpoint_id, parent_checkpoint_id, type, checkpoint, "
        "metadata",
        "writes": "checkpoint_ns, checkpoint_id, task_id, task_path, idx, channel, type, value",
    }
    with sqlite3.connect(path) as conn:
        for copy in range(1, copies):
            for table, rest in columns.items():
                conn.execute(
                    f"INSERT INTO {table} (thread_id, {rest}) SELECT thread_id || '-c{copy}', "
                    f"{rest} FROM {table} WHERE thread_id NOT LIKE '%-c%'"
                )


def timed(args: list[str]) -> tuple[float, float, str]:
    """Run `python -m graph ARGS`; (wall s, child CPU s, stdout)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "graph", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, "PYTHONPATH": str(ROOT), "COLUMNS": "200"},
    )
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, done.stdout


def measure(db: Path, rounds: int) -> dict[str, tuple[float, float]]:
    """Best wall and CPU seconds of each command, the two interleaved round by round."""
    commands = {
        "agent threads --all": ["threads", "--all", "--limit", "10000", "--db", str(db)],
        "agent shapes": ["shapes", "--json", "--db", str(db)],
    }
    best = {name: (float("inf"), float("inf")) for name in commands}
    for _ in range(rounds):
        for name, args in commands.items():
            wall, cpu, _ = timed(args)
            best[name] = (min(best[name][0], wall), min(best[name][1], cpu))
    return best


def main() -> None:
    """Write the stores, time both commands on each, write the results file."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=1000, help="agent runs in the first store")
    parser.add_argument("--copies", type=int, default=10, help="the second store: runs x this")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    load_start = os.getloadavg()
    rows = []
    with tempfile.TemporaryDirectory(prefix="shapes-scale-") as tmp:
        small, large = Path(tmp) / "runs.sqlite", Path(tmp) / "runs-x.sqlite"
        start = time.perf_counter()
        with open_checkpointer(str(small)) as saver:
            sent = write_traffic(saver, counts_for(args.runs, MIX), seed=args.seed)
        print(f"wrote {len(sent)} runs in {time.perf_counter() - start:.0f} s")
        large.write_bytes(small.read_bytes())
        copy_threads(large, args.copies)
        bundled = timed(["shapes", "--db", str(small), "--propose"])[2]
        bundled_json = json.loads(timed(["shapes", "--json", "--db", str(small)])[2])
        for db, runs in ((small, len(sent)), (large, len(sent) * args.copies)):
            best = measure(db, args.rounds)
            (tw, tc), (sw, sc) = best["agent threads --all"], best["agent shapes"]
            rows.append(f"| {runs:,} | {tw:.2f} | {tc:.2f} | {sw:.2f} | {sc:.2f} | "
                        f"{sw / tw:.2f}x | {sc / tc:.2f}x |")  # fmt: skip
            print(rows[-1])
    load_end = os.getloadavg()
    last = rows[-1].split("|")
    verdict = "met" if float(last[6].strip(" x")) <= GOAL else "NOT met"
    flow = bundled_json["flow"]
    text = "\n".join(
        [
            "# agent shapes at scale",
            "",
            f"`python benchmarks/shapes_scale.py --runs {args.runs} --copies {args.copies} "
            f"--rounds {args.rounds}`; Python {platform.python_version()}, {os.cpu_count()} "
            f"CPUs; load average {load_start[0]:.1f} at the start, {load_end[0]:.1f} at the end "
            "(cores shared with other jobs). Subprocesses, startup included, best of the "
            "rounds; the second store is the first's threads copied ten times.",
            "",
            "| agent runs | threads --all s | CPU s | shapes s | CPU s | shapes / threads "
            "(wall) | (CPU) |",
            "|---:|---:|---:|---:|---:|---:|---:|",
            *rows,
            "",
            f"Goal: `agent shapes` on the larger store within {GOAL:.0f}x `agent threads --all` "
            f"(wall): {verdict}.",
            "",
            f"## The bundled traffic ({len(sent)} runs, `benchmarks/traffic.py` mix)",
            "",
            "```",
            *bundled.rstrip().splitlines(),
            "```",
            "",
            f"flow share {flow['share']:.1%}; outcomes {flow['outcomes']}; agreement "
            f"{flow['agreement']}; saving {flow['saving']}",
            "",
        ]
    )
    RESULTS.write_text(text, encoding="utf-8")
    print(f"wrote {RESULTS}")


if __name__ == "__main__":
    main()

"""How long a user waits for `agent` to start: each command against its floor, in one run.

Every row is a fresh interpreter, as a user starts it. The peers are measured in the same
rounds: ``python -c "import click"`` (the floor of any click program, ``llm --version``
habits) for ``agent``, ``--version``, ``--help`` and ``agent X --help``, and the import floor
of a run (langgraph + langchain-core + the SQLite saver) for an offline ``agent ask`` with
bm25 on a fresh store. Rounds interleave every row; the table reports the median wall time,
the median CPU time (user + system: steadier on a loaded machine) and each ratio to its peer.
The children may write bytecode (``PYTHONDONTWRITEBYTECODE`` is dropped), so the warm-up round
caches the project's as a user's first run does and no row times compiling its source.

    python benchmarks/cli_latency.py [--repeats 7]
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CLICK = "python -c 'import click'"
FLOOR = "import floor (langgraph, langchain-core, SQLite saver)"
PEERS: dict[str, list[str]] = {
    CLICK: ["-c", "import click"],
    FLOOR: [
        "-c",
        "import langchain_core.messages, langgraph.graph, langgraph.checkpoint.sqlite",
    ],
}
ASK = "agent ask QUESTION (offline, bm25)"
AGENT: dict[str, tuple[list[str], str]] = {
    "agent": ([], CLICK),
    "agent --version": (["--version"], CLICK),
    "agent --help": (["--help"], CLICK),
    "agent ask --help": (["ask", "--help"], CLICK),
    "agent threads --help": (["threads", "--help"], CLICK),
    "agent eval --help": (["eval", "--help"], CLICK),
    "agent index --help": (["index", "--help"], CLICK),
    ASK: (["ask", "What is 18% of a $250 order?", "--retriever", "bm25"], FLOOR),
}
"""Each row: the `agent` arguments, and the peer its ratio is to."""


def run(argv: list[str], env: dict[str, str]) -> tuple[float, float]:
    """Run `python ARGV`; its wall and CPU (user + system) seconds."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(
        [sys.executable, *argv], env=env, cwd=ROOT, capture_output=True, text=True
    )
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(argv[:3])} failed: {done.stderr.strip()[-500:]}")
    return wall, after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime


def measure(repeats: int, env: dict[str, str]) -> dict[str, list[tuple[float, float]]]:
    """Every peer and `agent` row, `repeats` interleaved rounds (after one warm-up round)."""
    rows = {**PEERS, **{name: ["-m", "graph", *argv] for name, (argv, _) in AGENT.items()}}
    times: dict[str, list[tuple[float, float]]] = {name: [] for name in rows}
    for round_number in range(repeats + 1):
        for name, argv in rows.items():
            measured = run(argv, env)
            if round_number:  # the first round warms the file cache
                times[name].append(measured)
    return times


def table(times: dict[str, list[tuple[float, float]]]) -> list[str]:
    """The markdown table: median wall and CPU seconds, and the ratios to each row's peer."""
    wall = {name: statistics.median(w for w, _ in runs) for name, runs in times.items()}
    cpu = {name: statistics.median(c for _, c in runs) for name, runs in times.items()}
    lines = [
        "| command | wall (median) | CPU (median) | vs | wall ratio | CPU ratio |",
        "|---|---:|---:|---|---:|---:|",
    ]
    for name in PEERS:
        lines.append(f"| `{name}` | {wall[name]:.3f} s | {cpu[name]:.3f} s | | | |")
    for name, (_, peer) in AGENT.items():
        lines.append(
            f"| `{name}` | {wall[name]:.3f} s | {cpu[name]:.3f} s | {peer.split(' (')[0]} | "
            f"{wall[name] / wall[peer]:.2f}x | {cpu[name] / cpu[peer]:.2f}x |"
        )
    return lines


def main() -> None:
    """Time the rows, print the table and save it."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=7, help="Measured rounds.")
    parser.add_argument("--out", type=Path, default=ROOT / "benchmarks/results/cli_latency.md")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="cli-latency-") as home:
        env = {**os.environ, "AGENT_HOME": home, "PYTHONPATH": str(ROOT)}
        env.pop("AGENT_MODEL", None)
        env.pop("PYTHONDONTWRITEBYTECODE", None)  # the floor's packages have theirs cached
        times = measure(args.repeats, env)
    note = (
        f"Medians of {args.repeats} interleaved rounds, each command a fresh interpreter; "
        f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores."
    )
    lines = [*table(times), "", note]
    print("\n".join(lines))
    text = "# CLI start-up (`benchmarks/cli_latency.py`)\n\n" + "\n".join(lines) + "\n"
    args.out.write_text(text, encoding="utf-8")


if __name__ == "__main__":
    main()

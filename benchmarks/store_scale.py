"""Do `agent` commands stay as fast on a store of 10,000 threads as on an empty one?

For SQLite and (with ``--pg DSN`` or ``$AGENT_TEST_PG_DSN``) PostgreSQL, a store is made with
two real threads (``seed`` and ``target``, asked through `Session` with the offline policy),
then the seed is copied in SQL as 0, 1,000 and 10,000 more threads (every column of
LangGraph's tables copied, the thread id renamed; the heads table follows by its triggers).
Each command then runs as a user runs it, a fresh ``python -m graph ... --db STORE``, timed
wall clock: ``ask`` (a new thread), ``threads --limit 20``, ``replay target`` and ``resume
target`` (finished: it prints its result). Rounds interleave stores, sizes and commands; the
table reports each command's CPU time (median) and wall time (fastest run), and each size's
CPU ratio to the empty store measured in the same run. The CPU is the command's own process:
for PostgreSQL the server's share is not in it (the wall time includes it).

For SQLite the first write command after the copy (an outside change) runs the integrity check
once: that one run is reported on its own row; every later command finds the file as it was
left and skips the check.

    python benchmarks/store_scale.py [--sizes 0,1000,10000] [--repeats 3] [--pg DSN]
"""

from __future__ import annotations

import argparse
import os
import resource
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from contextlib import closing
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SEED_QUESTION = "How many times does Atlas retry a failed job?"
TARGET_QUESTION = "what's our refund window?"
ASK_QUESTION = "What is 18% of a $250 order?"
COMMANDS: dict[str, list[str]] = {
    "ask": ["ask", ASK_QUESTION],
    "threads --limit 20": ["threads", "--limit", "20"],
    "replay": ["replay", "target"],
    "resume": ["resume", "target"],
}
FIRST_ASK = "ask, first after the copy"


def seed_store(db: str) -> None:
    """Ask the two real threads on the store `db` (a SQLite path or a PostgreSQL URL)."""
    from graph.app.persistence import open_checkpointer
    from graph.app.session import Session

    with open_checkpointer(db) as saver:
        agent = Session(saver)
        agent.ask(SEED_QUESTION, thread_id="seed")
        agent.ask(TARGET_QUESTION, thread_id="target")


def copy_sqlite(path: Path, copies: int) -> None:
    """Copy the seed thread's rows `copies` times, as threads `bulk-00001`..."""
    with closing(sqlite3.connect(path)) as conn, conn:
        for table in ("checkpoints", "writes"):
            columns = [row[1] for row in conn.execute(f"PRAGMA table_info({table})")]
            values = [
                "printf('bulk-%05d', n.i)" if name == "thread_id" else f"t.{name}"
                for name in columns
            ]
            conn.execute(
                "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?) "
                f"INSERT INTO {table} ({', '.join(columns)}) SELECT {', '.join(values)} "
                f"FROM n, {table} AS t WHERE t.thread_id = 'seed'",
                (copies,),
            )


def copy_postgres(url: str, copies: int) -> None:
    """`copy_sqlite` for PostgreSQL: LangGraph's three tables, in the URL's schema."""
    import psycopg

    with psycopg.connect(url, autocommit=True) as conn:
        for table in ("checkpoints", "checkpoint_blobs", "checkpoint_writes"):
            rows = conn.execute(
                "SELECT column_name FROM information_schema.columns WHERE table_name = %s "
                "AND table_schema = current_schema() ORDER BY ordinal_position",
                (table,),
            ).fetchall()
            columns = [str(row[0]) for row in rows]
            values = [
                "'bulk-' || lpad(n::text, 5, '0')" if name == "thread_id" else f"t.{name}"
                for name in columns
            ]
            conn.execute(
                f"INSERT INTO {table} ({', '.join(columns)}) SELECT {', '.join(values)} "
                f"FROM generate_series(1, %s) AS n, {table} AS t WHERE t.thread_id = 'seed'",
                (copies,),
            )


def pg_schema_url(dsn: str, schema: str) -> str:
    """`dsn` with its search path set to `schema` (created first)."""
    import psycopg

    with psycopg.connect(dsn, autocommit=True) as conn:
        conn.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')
        conn.execute(f'CREATE SCHEMA "{schema}"')
    separator = "&" if "?" in dsn else "?"
    return f"{dsn}{separator}options=-csearch_path%3D{schema}"


def drop_schema(dsn: str, schema: str) -> None:
    """Remove a benchmark schema."""
    import psycopg

    with psycopg.connect(dsn, autocommit=True) as conn:
        conn.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')


def run_agent(argv: list[str], env: dict[str, str]) -> tuple[float, float]:
    """Run `python -m graph ARGV` as a user would; its wall and CPU (user + system) seconds."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "graph", *argv],
        env=env,
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    elapsed = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise SystemExit(f"agent {' '.join(argv[:2])} failed: {done.stderr.strip()[-500:]}")
    cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
    return elapsed, cpu


def build_stores(
    sizes: list[int], work: Path, dsn: str | None, schemas: list[str]
) -> dict[tuple[str, int], str]:
    """Every (store kind, size) -> its `--db` value, seeded and copied."""
    stores: dict[tuple[str, int], str] = {}
    for size in sizes:
        path = work / f"threads-{size}.sqlite"
        seed_store(str(path))
        copy_sqlite(path, size)
        stores[("SQLite", size)] = str(path)
        if dsn:
            schema = f"store_scale_{size}_{uuid.uuid4().hex[:6]}"
            schemas.append(schema)
            url = pg_schema_url(dsn, schema)
            seed_store(url)
            copy_postgres(url, size)
            stores[("PostgreSQL", size)] = url
        print(f"built the stores of {size:,} copied threads", file=sys.stderr)
    return stores


Times = dict[tuple[str, int, str], list[tuple[float, float]]]
"""(store kind, size, command) -> its (wall, CPU) seconds, one pair per run."""


def measure(stores: dict[tuple[str, int], str], repeats: int, env: dict[str, str]) -> Times:
    """Time every command on every store, `repeats` interleaved rounds."""
    times: Times = {}
    for (kind, size), db in stores.items():  # the first write after the copy, once
        times[(kind, size, FIRST_ASK)] = [run_agent([*COMMANDS["ask"], "--db", db], env)]
    for _ in range(repeats):
        for (kind, size), db in stores.items():
            for name, argv in COMMANDS.items():
                seconds = run_agent([*argv, "--db", db], env)
                times.setdefault((kind, size, name), []).append(seconds)
    return times


def table(times: Times, sizes: list[int]) -> list[str]:
    """The markdown table: per size the CPU median and the fastest wall time, and the ratios.

    The ratio is of CPU seconds (user + system, the command's own process): on a shared,
    loaded machine wall times vary several-fold between identical runs, CPU time much less.
    """
    others = [size for size in sizes if size != sizes[0]]
    head = ["store", "command", *(f"{size:,} threads: CPU (wall)" for size in sizes)]
    head += [f"CPU {size:,} / {sizes[0]:,}" for size in others]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * 2 + "---:|" * (len(head) - 2)]
    kinds = list(dict.fromkeys(kind for kind, _, _ in times))
    for kind in kinds:
        for name in [*COMMANDS, FIRST_ASK]:
            runs = [times[(kind, size, name)] for size in sizes]
            cpu = [statistics.median(c for _, c in each) for each in runs]
            wall = [min(w for w, _ in each) for each in runs]
            cells = [f"{c:.2f} s ({w:.2f} s)" for c, w in zip(cpu, wall, strict=True)]
            cells += [f"{c / cpu[0]:.2f}x" for c in cpu[1:]]
            lines.append(f"| {kind} | `{name}` | " + " | ".join(cells) + " |")
    return lines


def main() -> None:
    """Build the stores, time the commands, print (and save) the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="0,1000,10000", help="Copied threads per store.")
    parser.add_argument("--repeats", type=int, default=3, help="Rounds of every command.")
    parser.add_argument("--pg", default=os.environ.get("AGENT_TEST_PG_DSN"), help="PostgreSQL DSN.")
    parser.add_argument("--out", type=Path, default=ROOT / "benchmarks/results/store_scale.md")
    args = parser.parse_args()
    sizes = sorted(int(size) for size in args.sizes.split(","))
    schemas: list[str] = []
    with tempfile.TemporaryDirectory(prefix="store-scale-") as scratch:
        work = Path(scratch)
        env = {**os.environ, "AGENT_HOME": str(work / "home"), "PYTHONPATH": str(ROOT)}
        os.environ["AGENT_HOME"] = env["AGENT_HOME"]
        try:
            stores = build_stores(sizes, work, args.pg, schemas)
            sqlite_mb = {s: Path(stores[("SQLite", s)]).stat().st_size / 1e6 for s in sizes}
            times = measure(stores, args.repeats, env)
        finally:
            for schema in schemas:
                drop_schema(args.pg, schema)
    lines = table(times, sizes)
    load = os.getloadavg()[0]
    note = (
        f"CPU: median of {args.repeats} interleaved runs (the first ask after the copy: one "
        f"run); wall: the fastest run. Load average {load:.1f} on "
        f"{os.cpu_count()} cores; SQLite file sizes: "
        + ", ".join(f"{size:,} threads {mb:.0f} MB" for size, mb in sqlite_mb.items())
        + ("" if args.pg else "; PostgreSQL not measured (no --pg)")
        + "."
    )
    print("\n".join([*lines, "", note]))
    text = "# Store scale (`benchmarks/store_scale.py`)\n\n" + "\n".join([*lines, "", note])
    args.out.write_text(text + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()

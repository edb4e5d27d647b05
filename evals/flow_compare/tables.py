"""The comparison as a table: rich for the terminal, Markdown for the results files."""

from __future__ import annotations

from typing import Any

from evals.flow_compare.results import Comparison

COLUMNS = (
    "system",
    "requests",
    "answered",
    "escalated",
    "aborted",
    "agree",
    "mean steps",
    "req/s",
    "p50 ms",
    "p95 ms",
    "CPU ms/req",
)


def rows(comparison: Comparison) -> list[list[str]]:
    """The table's cells, one row per system, formatted."""
    cells = []
    for s in comparison.summaries:
        share = f"{s.agree}/{s.requests} ({s.agree / s.requests:.0%})" if s.requests else "0/0"
        cells.append(
            [
                s.system,
                str(s.requests),
                str(s.answered),
                str(s.escalated),
                str(s.aborted),
                share,
                f"{s.mean_steps:.2f}",
                f"{s.rps:.1f}",
                f"{s.p50_ms:.1f}",
                f"{s.p95_ms:.1f}",
                f"{s.cpu_ms:.1f}",
            ]
        )
    return cells


def caption(comparison: Comparison) -> str:
    """One line saying how the table was measured."""
    rounds = f"best of {comparison.rounds} rounds" if comparison.rounds > 1 else "one round"
    return (
        f"model {comparison.model}; {comparison.checkpointer} checkpointer for every system; "
        f"req/s from {rounds}, sequential"
    )


def rich_table(comparison: Comparison, title: str = "flow vs agent vs router") -> Any:
    """The comparison as a ``rich.table.Table``."""
    from rich.table import Table

    table = Table(title=title, caption=caption(comparison))
    for index, column in enumerate(COLUMNS):
        table.add_column(column, justify="left" if index == 0 else "right")
    for cells in rows(comparison):
        table.add_row(*cells)
    return table


def markdown_table(comparison: Comparison) -> str:
    """The comparison as a Markdown table (with its caption as a last line)."""
    lines = [
        "| " + " | ".join(COLUMNS) + " |",
        "|" + "|".join(["---"] + ["---:"] * (len(COLUMNS) - 1)) + "|",
    ]
    lines += ["| " + " | ".join(cells) + " |" for cells in rows(comparison)]
    return "\n".join([*lines, "", f"({caption(comparison)})"])

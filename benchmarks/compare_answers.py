"""What moved between two `answer_quality.py --dump` runs, question by question.

    python benchmarks/compare_answers.py OLD_DIR NEW_DIR [--sets jinja,trio]

A rule change is kept only when no set loses a right and cited answer and no right answer
loses its confidence (README, "The offline policy"); the table's shares hide which question
moved. For every set both runs dumped, this prints a line of counts (right and cited won and
lost, confidence flips, short answers changed) and, under it, each question whose verdict,
confidence, answer or short answer moved, with the old and new answer cut to one line. Exit
status 1 when any right and cited answer was lost or any right answer lost its confidence.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from graph.app.terminal import safe_text  # noqa: E402

Row = Mapping[str, Any]
SHOWN = 110
"""Characters of an answer shown per line."""


@dataclass
class Moves:
    """What moved on one set."""

    won: int = 0
    lost: int = 0
    doubted: int = 0
    """Right and cited answers that lost their confidence."""
    flips: int = 0
    shorts: int = 0
    lines: list[str] = field(default_factory=list)

    @property
    def regressed(self) -> bool:
        """Whether a right and cited answer was lost or lost its confidence."""
        return bool(self.lost or self.doubted)


def confident(row: Row) -> bool:
    """Whether the policy answered, confidently."""
    answered = row.get("policy_stopped") != "no_answer" and bool(row.get("policy_answer"))
    return answered and row.get("policy_confident") is not False


def shown(value: Any) -> str:
    """An answer cut to one terminal-safe line."""
    return safe_text(value, one_line=True)[:SHOWN]


def compare_rows(old: Mapping[str, Row], new: Sequence[Row]) -> Moves:
    """The moves from `old` (by question id) to `new`, in `new`'s order."""
    moves = Moves()
    for row in new:
        before = old.get(str(row["id"]))
        if before is None:
            continue
        a, b = bool(before["policy_right_cited"]), bool(row["policy_right_cited"])
        ca, cb = confident(before), confident(row)
        short = before.get("policy_short_answer") != row.get("policy_short_answer")
        said = before.get("policy_answer") != row.get("policy_answer")
        if not (a != b or ca != cb or short or said):
            continue
        moves.won += b and not a
        moves.lost += a and not b
        moves.doubted += a and b and ca and not cb
        moves.flips += ca != cb
        moves.shorts += short
        tag = "WON " if b and not a else "LOST" if a and not b else "    "
        moves.lines += [
            f"  {tag} {row['id']} right {a}->{b} confident {ca}->{cb} | {shown(row['question'])}",
            *(
                f"       {when}: {shown(r.get('policy_answer'))} | short: "
                f"{shown(r.get('policy_short_answer'))}"
                for when, r in (("old", before), ("new", row))
            ),
        ]
    return moves


def read_dump(path: Path) -> list[Row]:
    """One dumped set's rows."""
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]


def main(argv: Sequence[str] | None = None) -> int:
    """Print what moved on every set both dumps hold; 1 when anything regressed."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("old", type=Path)
    parser.add_argument("new", type=Path)
    parser.add_argument("--sets", help="comma-separated set names (default: every set in both)")
    args = parser.parse_args(argv)
    for folder in (args.old, args.new):
        if not folder.is_dir():
            parser.error(f"{folder} is not a folder of answer_quality.py --dump files")
    wanted = set(args.sets.split(",")) if args.sets else None
    regressed = False
    for path in sorted(args.new.glob("*.jsonl")):
        earlier = args.old / path.name
        if not earlier.exists() or (wanted is not None and path.stem not in wanted):
            continue
        old = {str(r["id"]): r for r in read_dump(earlier)}
        moves = compare_rows(old, read_dump(path))
        regressed |= moves.regressed
        print(
            f"{path.stem}: +{moves.won} -{moves.lost} right and cited, {moves.flips} confidence "
            f"flips ({moves.doubted} right answers doubted), {moves.shorts} short answers changed"
        )
        for line in moves.lines:
            print(line)
    return 1 if regressed else 0


if __name__ == "__main__":
    sys.exit(main())

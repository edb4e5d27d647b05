"""benchmarks/compare_answers.py: what moved between two answer_quality dumps (made-up rows)."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))

from compare_answers import main  # noqa: E402


def row(qid: str, right: bool, confident: bool, answer: str, short: str | None = None) -> Any:
    return {
        "id": qid,
        "question": f"What does the Larkspur kiosk do ({qid})?",
        "policy_answer": answer,
        "policy_short_answer": short,
        "policy_confident": confident,
        "policy_stopped": "answer",
        "policy_right_cited": right,
    }


def dump(folder: Path, name: str, rows: list[Any]) -> Path:
    folder.mkdir(exist_ok=True)
    (folder / f"{name}.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    return folder


def test_a_lost_answer_is_listed_and_fails_the_run(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    receipts, tea = "It prints receipts.", "It sells tea."
    old = dump(
        tmp_path / "old", "kiosk", [row("k1", True, True, receipts), row("k2", False, True, tea)]
    )
    new = dump(
        tmp_path / "new", "kiosk", [row("k1", False, True, tea), row("k2", True, True, receipts)]
    )
    assert main([str(old), str(new)]) == 1
    out = capsys.readouterr().out
    assert out.splitlines()[0].startswith("kiosk: +1 -1 right and cited, 0 confidence flips")
    assert "LOST k1 right True->False" in out and "WON  k2 right False->True" in out


def test_a_right_answer_losing_its_confidence_fails_the_run(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    old = dump(tmp_path / "old", "kiosk", [row("k1", True, True, "It prints receipts.")])
    new = dump(tmp_path / "new", "kiosk", [row("k1", True, False, "It prints receipts.")])
    assert main([str(old), str(new)]) == 1
    assert "(1 right answers doubted)" in capsys.readouterr().out


def test_a_changed_short_answer_is_listed_and_nothing_lost_passes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    old = dump(tmp_path / "old", "kiosk", [row("k1", True, True, "It opens at 9am.", "9")])
    new = dump(tmp_path / "new", "kiosk", [row("k1", True, True, "It opens at 9am.", "9am")])
    dump(tmp_path / "new", "other", [row("o1", True, True, "Unchanged.")])
    dump(tmp_path / "old", "other", [row("o1", True, True, "Unchanged.")])
    assert main([str(old), str(new)]) == 0
    out = capsys.readouterr().out
    assert "kiosk: +0 -0 right and cited, 0 confidence flips (0 right answers doubted), 1 sh" in out
    assert "short: 9am" in out and "other: +0 -0" in out and out.count("old:") == 1


def test_an_escape_sequence_in_an_answer_is_not_printed_raw(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    old = dump(tmp_path / "old", "kiosk", [row("k1", False, False, "Plain.")])
    new = dump(tmp_path / "new", "kiosk", [row("k1", False, False, "Bad \x1b[31mred\x1b[0m.")])
    main([str(old), str(new)])
    assert "\x1b" not in capsys.readouterr().out


def test_a_missing_folder_is_a_one_line_error(tmp_path: Path) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main([str(tmp_path / "nowhere"), str(tmp_path)])
    assert exit_info.value.code == 2

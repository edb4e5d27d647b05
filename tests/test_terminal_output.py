"""What reaches the terminal: hostile text rendered visibly on every path that prints."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from cli_helpers import run_cli

from graph.app.terminal import cut, safe_json, safe_text

ScriptFile = Callable[..., str]
# window title (OSC), clear screen (CSI), colour, C1 CSI, carriage return, bidi override, tag
TITLE = "\x1b]0;pwned\x07"
CLEAR = "\x1b[2J"
RED = "\x1b[31m"
RLO = "\u202e"
HOSTILE = f"{TITLE} ok{CLEAR}{RED} \x9b1m\rX{RLO}txet\U000e0041"


def assert_terminal_safe(text: str) -> None:
    """Nothing in `text` a terminal would obey: only printable characters and newlines."""
    bad = sorted({c for c in text if c != "\n" and not c.isprintable()})
    assert not bad, f"raw control/format characters reached the terminal: {bad!r}"


def hostile_script(script_file: ScriptFile) -> str:
    """A scripted model whose thoughts, search query and answer carry escape sequences."""
    return script_file(
        {"thought": f"Thinking {HOSTILE}", "tool": "search_notes", "args": {"query": HOSTILE}},
        {
            "thought": f"done {RED}",
            "tool": "finish",
            "args": {"answer": f"Fleet {HOSTILE}", "citations": ["d1"]},
        },
    )


# -- the rendering functions ------------------------------------------------------------------


def test_safe_text_shows_controls_and_format_characters() -> None:
    shown = safe_text(HOSTILE)
    assert shown == ("\\x1b]0;pwned\\x07 ok\\x1b[2J\\x1b[31m \\x9b1m\\rX<U+202E>txet<U+E0041>")
    assert safe_text("line one\n\tline two") == "line one\n\tline two"
    assert safe_text("a\nb\tc", one_line=True) == "a b c"
    assert safe_text("naïve 日本 👩\u200d💻") == "naïve 日本 👩\u200d💻"  # joiners draw emoji
    assert safe_text("\ud800") == "<U+D800>"  # a lone surrogate would not even encode


def test_safe_json_decodes_to_the_same_value() -> None:
    value = {"answer": HOSTILE, "lone": "\u2028\u0085"}
    text = safe_json(value)
    assert_terminal_safe(text)
    assert "\\u202e" in text and "\\u009b" in text and "\\udb40\\udc41" in text
    assert json.loads(text) == value
    assert safe_json({"q": "café"}) == '{"q": "café"}'


def test_cut_counts_terminal_cells() -> None:
    assert cut("short", 10) == "short"
    assert cut("hello world", 6) == "hello…"
    assert cut("日本語日本語", 5) == "日本…"  # wide characters take two cells


# -- through the real CLI ---------------------------------------------------------------------


def test_ask_replay_and_threads_render_hostile_model_output(
    agent_home: Path, capsys: pytest.CaptureFixture[str], script_file: ScriptFile
) -> None:
    model = hostile_script(script_file)
    code, out, err = run_cli(capsys, "ask", f"Who owns Atlas? {HOSTILE}", "--model", model)
    assert code == 0, err
    assert_terminal_safe(out + err)
    assert "GOAL: Who owns Atlas? \\x1b]0;pwned\\x07 ok\\x1b[2J" in out
    assert "Thought: Thinking \\x1b]0;pwned\\x07" in out
    assert "ANSWER: Fleet \\x1b]0;pwned\\x07 ok\\x1b[2J\\x1b[31m \\x9b1m\\rX<U+202E>txet" in out
    thread = out.rstrip().split()[-1]

    code, replayed, err = run_cli(capsys, "replay", thread)
    assert code == 0, err
    assert_terminal_safe(replayed + err)
    assert "<U+202E>txet" in replayed and "\\x1b]0;pwned" in replayed

    code, listed, err = run_cli(capsys, "threads")
    assert code == 0, err
    assert_terminal_safe(listed + err)
    assert thread in listed and "\\x1b]0;pwned" in listed


def test_json_output_has_no_raw_controls_and_keeps_the_text(
    agent_home: Path, capsys: pytest.CaptureFixture[str], script_file: ScriptFile
) -> None:
    model = hostile_script(script_file)
    code, out, err = run_cli(capsys, "ask", "Who owns Atlas?", "--model", model, "--json")
    assert code == 0, err
    assert_terminal_safe(out)
    assert json.loads(out)["answer"] == f"Fleet {HOSTILE}"  # escaped, not altered


def test_corpus_ids_and_passages_are_rendered_safe(
    agent_home: Path, capsys: pytest.CaptureFixture[str], tmp_path: Path, script_file: ScriptFile
) -> None:
    corpus = tmp_path / "gear.jsonl"
    passages = [
        {"id": f"g{RLO}1", "text": f"The Zorbit lamp {RLO}is blue."},
        {"id": "g2", "text": "The Quillon kettle is red."},
        {"id": "g3", "text": "The Marrow chair is green."},
    ]
    corpus.write_text("".join(json.dumps(p) + "\n" for p in passages), encoding="utf-8")
    model = script_file(
        {"thought": "look", "tool": "search_gear", "args": {"query": "Zorbit lamp"}},
        {"thought": "ok", "tool": "finish", "args": {"answer": "blue", "citations": [f"g{RLO}1"]}},
    )
    code, out, err = run_cli(
        capsys, "ask", "What colour is the Zorbit lamp?", "-m", model, "--corpus", f"gear={corpus}"
    )
    assert code == 0, err
    assert_terminal_safe(out + err)
    assert "Observation: [g<U+202E>1] The Zorbit lamp <U+202E>is blue. (score=" in out
    assert "CITATIONS: g<U+202E>1" in out


def test_flow_request_is_rendered_safe(
    agent_home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run_cli(capsys, "flow", f"The unit is broken {TITLE}{RLO}")
    assert code == 0, err
    assert_terminal_safe(out + err)
    assert "REQUEST: The unit is broken \\x1b]0;pwned\\x07<U+202E>" in out


def test_error_lines_are_rendered_safe(
    agent_home: Path, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    missing = tmp_path / f"gone{TITLE}{RLO}.jsonl"
    code, out, err = run_cli(capsys, "ask", "What is blue?", "--corpus", f"gear={missing}")
    assert code == 1 and out == ""
    assert_terminal_safe(err)
    assert err.startswith("error: ") and len(err.splitlines()) == 1
    assert "gone\\x1b]0;pwned\\x07<U+202E>.jsonl: no such file" in err


def test_eval_progress_and_metrics_show_hostile_labels_literally(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from graph.cli.evals import print_metrics, progress_bar

    monkeypatch.setenv("FORCE_COLOR", "1")  # rich draws the bar as on a terminal
    monkeypatch.setenv("COLUMNS", "200")
    label = f"odd[/] {TITLE}[bold]x"
    with progress_bar(1, label) as advance:
        advance({"correct": True})
    _, err = capsys.readouterr()
    assert TITLE not in err  # the sequence itself never reaches the terminal
    assert "odd[/] \\x1b]0;pwned\\x07[bold]x" in err  # markup shown, not obeyed
    print_metrics([{}], [f"[red]{RLO}m"])
    out, _ = capsys.readouterr()
    assert "[red]<U+202E>m" in out and RLO not in out

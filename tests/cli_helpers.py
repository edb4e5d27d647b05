"""Running the `agent` command line in-process, for tests."""

from __future__ import annotations

import pytest

from graph.cli.main import main


def run_cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    """Run `agent` through `main`; return (exit code, stdout, stderr)."""
    code = 0
    try:
        main(list(argv))
    except SystemExit as done:
        code = int(done.code or 0)
    out, err = capsys.readouterr()
    return code, out, err

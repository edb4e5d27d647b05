"""Running `agent` in a fresh interpreter and reporting the top-level modules it loaded."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
RUN_AND_REPORT = """
import json, sys
from graph.cli.main import main
try:
    main(json.loads(sys.argv[1]))
except SystemExit as done:
    code = done.code
else:
    code = 0
print(json.dumps({"code": code, "modules": sorted({m.split(".")[0] for m in sys.modules})}))
"""


def run_fresh(argv: list[str], home: Path, timeout: float) -> tuple[dict[str, object], str, str]:
    """Run `agent ARGV` in a new interpreter in `home`: its report, stdout and stderr.

    The report holds the exit code (``code``) and the top-level modules loaded (``modules``).
    """
    done = subprocess.run(
        [sys.executable, "-c", RUN_AND_REPORT, json.dumps(argv)],
        capture_output=True,
        text=True,
        cwd=home,
        env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT), "AGENT_HOME": str(home / "h")},
        timeout=timeout,
    )
    return json.loads(done.stdout.splitlines()[-1]), done.stdout, done.stderr

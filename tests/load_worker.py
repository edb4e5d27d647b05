"""One process of a load test: N questions on one Session, C at a time, on a shared store.

Usage: python load_worker.py DB PREFIX N CONCURRENCY. Prints one JSON line: counts by outcome
and any error messages seen.
"""

from __future__ import annotations

import json
import sys
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from graph.app.persistence import open_checkpointer
from graph.app.session import Session

QUESTIONS = [
    "Who leads the team that owns the Atlas scheduler?",
    "How many times does Atlas retry a failed job?",
    "what is 18% of a $250 order?",
    "what's our refund window?",
    "what is the warranty on the earbuds made by the company that acquired Acme?",
]


def main() -> None:
    db, prefix, count, concurrency = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
    with open_checkpointer(db) as saver:
        session = Session(saver)

        def one(i: int) -> dict[str, Any]:
            try:
                result = session.ask(QUESTIONS[i % len(QUESTIONS)], thread_id=f"{prefix}-{i}")
                return {"stopped": result["stopped"], "error": result.get("error")}
            except Exception as error:  # reported to the parent, which fails the test
                return {"stopped": "exception", "error": f"{type(error).__name__}: {error}"}

        with ThreadPoolExecutor(concurrency) as pool:
            results = list(pool.map(one, range(count)))
    stopped: dict[str, int] = {}
    for result in results:
        stopped[str(result["stopped"])] = stopped.get(str(result["stopped"]), 0) + 1
    errors = sorted({str(r["error"]) for r in results if r["error"]})
    print(json.dumps({"stopped": stopped, "errors": errors}))


if __name__ == "__main__":
    main()

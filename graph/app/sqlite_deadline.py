"""One deadline per command for SQLite lock waits.

SQLite's busy timeout applies to each statement, so a command whose writes each wait for
another process's lock waits that long again and again (a 3 s timeout took 20 s to fail). The
saver here gives every statement only what is left of one budget: the time statements spent
waiting is taken from it, and once a wait has failed the rest fail at once.
"""

from __future__ import annotations

import sqlite3
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

from langgraph.checkpoint.sqlite import SqliteSaver

FREE_S = 0.05
"""A statement this quick did not wait for a lock: its time is not taken from the budget."""


class LockBudget:
    """The lock-wait time a command has left (thread-safe)."""

    def __init__(self, seconds: float) -> None:
        self.left = seconds
        self._guard = threading.Lock()

    def millis(self) -> int:
        """What is left, in whole milliseconds (for `PRAGMA busy_timeout`)."""
        with self._guard:
            return max(0, int(self.left * 1000))

    def spend(self, elapsed: float) -> None:
        """Take a statement's time from the budget when it waited (took over `FREE_S`)."""
        if elapsed > FREE_S:
            with self._guard:
                self.left = max(0.0, self.left - elapsed)

    def exhaust(self) -> None:
        """A wait failed: later statements do not wait at all."""
        with self._guard:
            self.left = 0.0


class DeadlineSqliteSaver(SqliteSaver):
    """A SqliteSaver whose statements share one lock-wait budget (`budget`)."""

    budget: LockBudget

    def __init__(self, conn: sqlite3.Connection, budget: LockBudget) -> None:
        super().__init__(conn)
        self.budget = budget

    @contextmanager
    def cursor(self, transaction: bool = True) -> Iterator[sqlite3.Cursor]:
        """A cursor (as SqliteSaver's) whose waits come out of the command's budget."""
        with self.lock:
            self.conn.execute(f"PRAGMA busy_timeout = {self.budget.millis()}")
            start = time.monotonic()
            self.setup()
            cur = self.conn.cursor()
            try:
                yield cur
                if transaction:
                    self.conn.commit()
            except Exception as error:
                if isinstance(error, sqlite3.OperationalError) and (
                    "locked" in str(error) or "busy" in str(error)
                ):
                    self.budget.exhaust()
                self.conn.rollback()
                raise
            finally:
                cur.close()
                self.budget.spend(time.monotonic() - start)

"""Re-index a folder and SIGKILL this process just before its Nth rename, replace or rmtree.

Usage: ``python tests/index_crash_worker.py ROOT NAME DOCS N``. The process kills itself
(SIGKILL: no cleanup, no finally) at the Nth call of `os.rename`, `os.replace` or
`shutil.rmtree` made while `build_index` runs, so a test can check every window of the swap.
It exits 0 when the build makes fewer than N such calls.
"""

from __future__ import annotations

import os
import shutil
import signal
import sys
from pathlib import Path
from typing import Any

from tools.index_build import build_index


def main() -> None:
    """Run one build with the rename/replace/rmtree calls counted."""
    root, name, docs, kill_at = Path(sys.argv[1]), sys.argv[2], Path(sys.argv[3]), int(sys.argv[4])
    calls = [0]

    def counted(real: Any) -> Any:
        def call(*args: Any, **kwargs: Any) -> Any:
            calls[0] += 1
            if calls[0] == kill_at:
                os.kill(os.getpid(), signal.SIGKILL)
            return real(*args, **kwargs)

        return call

    os.rename = counted(os.rename)  # type: ignore[assignment]
    os.replace = counted(os.replace)  # type: ignore[assignment]
    shutil.rmtree = counted(shutil.rmtree)  # type: ignore[assignment]
    build_index(root, name, docs)


if __name__ == "__main__":
    main()

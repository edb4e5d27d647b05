"""Writing a report file safely: never through a planted link, never into a pipe.

`write_file` writes the text to a new temporary file in the report folder (created with
``O_EXCL``, so it cannot be a link someone planted) and renames it over the name. A link,
a named pipe or any other file already at that name is replaced, never opened, so
``--out`` cannot be used to overwrite a file elsewhere or to hang the eval on a FIFO. A crash
leaves the old file or the new one, never half of one.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from pathlib import Path


def write_file(folder: Path, name: str, text: str) -> Path:
    """Write `text` (UTF-8) as ``folder/name`` by a rename; ValueError (one line) if it cannot."""
    target = folder / name
    if target.is_dir() and not target.is_symlink():
        raise ValueError(f"{target}: cannot write the report there: it is a folder")
    try:
        fd, tmp = tempfile.mkstemp(dir=folder, prefix=f".{name}.", suffix=".tmp")
    except OSError as e:
        raise ValueError(f"{folder}: cannot write the report there: {e.strerror or e}") from None
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, target)
    except OSError as e:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise ValueError(f"{target}: cannot write the report: {e.strerror or e}") from None
    return target

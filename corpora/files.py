"""Reading one file of a corpus: a regular file's bytes, as UTF-8 text without control characters.

`SkipFile` says why a file gives no passages (one of `corpora.documents.SKIP_REASONS`). The
``.jsonl`` reader uses these alone, so reading one (the built-in corpora) loads no markup parser.
"""

from __future__ import annotations

import os
import re
import stat
from pathlib import Path

_CONTROL_RE = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")


class SkipFile(Exception):
    """A file that cannot give passages; ``reason`` is one of `corpora.documents.SKIP_REASONS`."""

    def __init__(self, reason: str, detail: str = "", line: int | None = None) -> None:
        self.reason = reason
        self.line = line
        self.detail = " ".join(detail.split())
        super().__init__(f"{reason}: {self.detail}" if self.detail else reason)


def clean_text(text: str) -> str:
    """Remove control characters other than tab, newline and carriage return."""
    return _CONTROL_RE.sub("", text)


def read_regular(path: Path) -> bytes:
    """A regular file's bytes; `SkipFile` for anything else (never opens a pipe or device)."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    except OSError as e:
        raise SkipFile("unreadable", e.strerror or str(e)) from None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise SkipFile("not a regular file")
        with os.fdopen(fd, "rb", closefd=False) as handle:
            return handle.read()
    except OSError as e:
        raise SkipFile("unreadable", e.strerror or str(e)) from None
    finally:
        os.close(fd)


def decode_utf8(data: bytes) -> str:
    """UTF-8 text (BOM dropped, control characters removed); `SkipFile` if it is not UTF-8."""
    try:
        return clean_text(data.decode("utf-8-sig"))
    except UnicodeDecodeError as e:
        line = data.count(b"\n", 0, e.start) + 1
        detail = f"byte 0x{data[e.start]:02x} at offset {e.start}"
        raise SkipFile("not UTF-8", detail, line) from None

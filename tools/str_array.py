"""A read-only sequence of strings stored as UTF-8 bytes plus offsets (mmap-friendly).

BM25 keeps its vocabulary and document ids this way: two arrays that save as ``.npy`` files and
load memory-mapped, with a sorted lookup by 8-byte prefixes.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import overload

import numpy as np


class StrArray(Sequence[str]):
    """A read-only sequence of strings stored as UTF-8 bytes plus offsets (mmap-friendly)."""

    def __init__(self, data: np.ndarray, offsets: np.ndarray) -> None:
        self._data = data
        self._offsets = offsets
        self._view = data.data if len(data) else memoryview(b"")

    @classmethod
    def from_bytes(cls, items: Sequence[bytes]) -> StrArray:
        """Pack UTF-8 encoded ``items`` into one byte array and an int64 offsets array."""
        offsets = np.zeros(len(items) + 1, dtype=np.int64)
        np.cumsum(np.fromiter(map(len, items), np.int64, len(items)), out=offsets[1:])
        return cls(np.frombuffer(b"".join(items), dtype=np.uint8), offsets)

    @classmethod
    def from_strings(cls, strings: Sequence[str]) -> StrArray:
        """Pack ``strings`` into one byte array and an int64 offsets array."""
        joined = "".join(strings)
        if joined.isascii():  # characters are bytes
            offsets = np.zeros(len(strings) + 1, dtype=np.int64)
            np.cumsum(np.fromiter(map(len, strings), np.int64, len(strings)), out=offsets[1:])
            return cls(np.frombuffer(joined.encode("ascii"), dtype=np.uint8), offsets)
        return cls.from_bytes([s.encode("utf-8") for s in strings])

    @property
    def data(self) -> np.ndarray:
        """The UTF-8 bytes of all strings, concatenated."""
        return self._data

    @property
    def offsets(self) -> np.ndarray:
        """Byte offsets: string ``i`` is ``data[offsets[i]:offsets[i + 1]]``."""
        return self._offsets

    def raw(self, index: int) -> bytes:
        """Return string ``index`` (0 <= index < len) as UTF-8 bytes."""
        return bytes(self._view[int(self._offsets[index]) : int(self._offsets[index + 1])])

    def prefixes(self) -> np.ndarray:
        """First 8 bytes of every string as a big-endian uint64 (zero-padded), vectorized."""
        starts, lengths = self._offsets[:-1], np.diff(self._offsets)
        out = np.zeros(len(self), dtype=np.uint64)
        for j in range(8):
            has = np.flatnonzero(lengths > j)
            byte = self._data[starts[has] + j].astype(np.uint64)
            out[has] |= byte << np.uint64(8 * (7 - j))
        return out

    def find(self, key: bytes, prefixes: np.ndarray) -> int:
        """Return the index of ``key`` in this sorted array, or -1.

        ``prefixes`` (from ``prefixes()``) narrows the search to the strings sharing the key's
        first 8 bytes; a binary search over those settles it. Strings must hold no NUL byte.
        """
        head = np.uint64(int.from_bytes(key[:8].ljust(8, b"\0"), "big"))
        lo = int(np.searchsorted(prefixes, head, side="left"))
        hi = int(np.searchsorted(prefixes, head, side="right"))
        while lo < hi:
            mid = (lo + hi) // 2
            if self.raw(mid) < key:
                lo = mid + 1
            else:
                hi = mid
        return lo if lo < len(self) and self.raw(lo) == key else -1

    def __len__(self) -> int:
        return len(self._offsets) - 1

    @overload
    def __getitem__(self, index: int) -> str: ...

    @overload
    def __getitem__(self, index: slice) -> list[str]: ...

    def __getitem__(self, index: int | slice) -> str | list[str]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        n = len(self)
        if index < 0:
            index += n
        if not 0 <= index < n:
            raise IndexError("string index out of range")
        return self.raw(index).decode("utf-8")

    def __iter__(self) -> Iterator[str]:
        return (self[i] for i in range(len(self)))

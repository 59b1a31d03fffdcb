"""What every source shares: the wordbench cache, the offline switch and a name/version record."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from wordbench.errors import DataFormatError, SourceError
from wordbench.cache import cache_dir, offline  # noqa: F401 - the core's, re-exported for the sources
from wordbench.hashing import file_sha8, seeded_key, sha8, tree_files  # noqa: F401


@dataclass(frozen=True)
class SourceInfo:
    """Provenance of one external resource, written into cards and signatures."""

    kind: str  # e.g. "wordnet", "freq", "tok"
    name: str
    version: str
    detail: str = ""

    @property
    def tag(self) -> str:
        """The signature fragment, e.g. ``wordnet:3.0``."""
        return f"{self.kind}:{self.version}"


def read_utf8(path: Path, what: str) -> str:
    """The text of a user's file (a BOM is dropped); a missing file or non-UTF-8 bytes are one-line errors."""
    if not path.is_file():
        raise SourceError(f"{what} file {path} does not exist")
    try:
        text = path.read_text(encoding="utf-8-sig")
    except UnicodeDecodeError as exc:
        raise DataFormatError(f"{path}: not UTF-8 text ({exc.reason} at byte {exc.start})") from None
    nul = text.find("\0")
    if nul >= 0:  # a binary or truncated file read as text
        raise DataFormatError(f"{path}:{text.count(chr(10), 0, nul) + 1}: a NUL byte: not a text file")
    return text

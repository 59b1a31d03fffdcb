"""What every source shares: the wordbench cache, the offline switch and a name/version record."""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass
from pathlib import Path


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


def cache_dir(*parts: str) -> Path:
    """A folder under the wordbench cache (``$WORDBENCH_CACHE``, default ``~/.cache/wordbench``)."""
    root = Path(os.environ.get("WORDBENCH_CACHE") or Path.home() / ".cache" / "wordbench")
    path = root.joinpath(*parts)
    path.mkdir(parents=True, exist_ok=True)
    return path


def offline() -> bool:
    """True when the user asked for no network (``HF_HUB_OFFLINE`` / ``WORDBENCH_OFFLINE``)."""
    return any(os.environ.get(v, "").lower() in ("1", "true", "yes") for v in ("WORDBENCH_OFFLINE", "HF_HUB_OFFLINE"))


def sha8(data: bytes | str) -> str:
    """First 8 hex digits of the SHA-256 of ``data``."""
    if isinstance(data, str):
        data = data.encode("utf-8")
    return hashlib.sha256(data).hexdigest()[:8]


def seeded_key(seed: int, key: str) -> str:
    """A sort key that orders items in a seeded, stable pseudo-random order."""
    return hashlib.sha256(f"{seed}:{key}".encode()).hexdigest()


def file_sha8(*paths: Path) -> str:
    """First 8 hex digits of the SHA-256 over the bytes of ``paths`` (streamed)."""
    h = hashlib.sha256()
    for path in paths:
        with open(path, "rb") as f:
            for block in iter(lambda: f.read(1 << 20), b""):
                h.update(block)
    return h.hexdigest()[:8]

"""The wordbench cache folder and the offline switch."""

from __future__ import annotations

import os
from pathlib import Path


def cache_dir(*parts: str) -> Path:
    """A folder under the wordbench cache (``$WORDBENCH_CACHE``, default ``~/.cache/wordbench``)."""
    root = Path(os.environ.get("WORDBENCH_CACHE") or Path.home() / ".cache" / "wordbench")
    path = root.joinpath(*parts)
    path.mkdir(parents=True, exist_ok=True)
    return path


def offline() -> bool:
    """True when the user asked for no network (``HF_HUB_OFFLINE`` / ``WORDBENCH_OFFLINE``)."""
    return any(os.environ.get(v, "").lower() in ("1", "true", "yes") for v in ("WORDBENCH_OFFLINE", "HF_HUB_OFFLINE"))

"""The wordbench cache folder and the offline switch."""

from __future__ import annotations

import os
from pathlib import Path

from .errors import ConfigError


def cache_dir(*parts: str) -> Path:
    """A folder under the wordbench cache (``$WORDBENCH_CACHE``, default ``~/.cache/wordbench``)."""
    given = os.environ.get("WORDBENCH_CACHE")
    root = Path(given or Path.home() / ".cache" / "wordbench")
    name = f"WORDBENCH_CACHE={root}" if given else f"the wordbench cache {root}"
    if root.exists() and not root.is_dir():
        raise ConfigError(f"{name} is not a folder: set WORDBENCH_CACHE to a folder")
    path = root.joinpath(*parts)
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise ConfigError(f"{name}: cannot create {path} ({exc.strerror or exc}); set WORDBENCH_CACHE to a writable folder") from None
    return path


def offline() -> bool:
    """True when the user asked for no network (``HF_HUB_OFFLINE`` / ``WORDBENCH_OFFLINE``)."""
    return any(os.environ.get(v, "").lower() in ("1", "true", "yes") for v in ("WORDBENCH_OFFLINE", "HF_HUB_OFFLINE"))

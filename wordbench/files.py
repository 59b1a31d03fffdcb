"""Checks on the folders a command will write, made before its expensive work."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from .errors import ConfigError


def check_writable(folder: Path, flag: str) -> None:
    """``folder`` (or its nearest existing parent) accepts new files: checked before the expensive work."""
    probe = Path(folder)
    while not probe.exists() and probe != probe.parent:
        probe = probe.parent
    try:  # a real write: permissions alone do not tell (root, read-only mounts, /proc)
        if not probe.is_dir():
            raise OSError("not a folder")
        os.rmdir(tempfile.mkdtemp(prefix=".wordbench-probe-", dir=probe))
    except OSError as exc:
        raise ConfigError(f"{flag} {folder}: cannot write into {probe} ({exc.strerror or exc}); choose a writable folder") from None

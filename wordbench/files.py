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


def check_output_file(path: Path, flag: str) -> None:
    """``path`` can be written as a file: not a folder, in a folder that exists and accepts files (checked first)."""
    path = Path(path)
    if path.is_dir():
        raise ConfigError(f"{flag} {path} is a folder: give the path of a file")
    if not path.parent.is_dir():
        raise ConfigError(f"{flag} {path}: the folder {path.parent} does not exist; create it or choose another path")
    check_writable(path.parent, flag)


def write_output(path: Path, text: str, flag: str) -> None:
    """Write ``text`` to ``path`` through a temporary file and a rename; a failed write is one line, the old file kept."""
    path = Path(path)
    try:
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
        os.replace(tmp, path)
    except OSError as exc:
        raise ConfigError(f"{flag} {path}: cannot write it ({exc.strerror or exc})") from None

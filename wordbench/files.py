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


def _refuse_special(path: Path, flag: str) -> None:
    """An output replaced by a rename must be a regular file or nothing: a symlink, a device, a pipe or a socket would be
    replaced by a plain file without a word."""
    if path.is_symlink():
        raise ConfigError(f"{flag} {path} is a symlink: give the path of a regular file (the write would replace the link)")
    if path.is_dir():
        raise ConfigError(f"{flag} {path} is a folder: give the path of a file")
    if path.exists() and not path.is_file():
        raise ConfigError(f"{flag} {path} is not a regular file (a device, a pipe or a socket): give the path of a file")


def _mode(path: Path) -> int:
    """The mode a written file gets: the old file's, else what ``open`` would give (0666 less the umask): readable by
    others where the umask allows it, as a leaderboard's files must be (``mkstemp`` alone gives 0600)."""
    try:
        return path.stat().st_mode & 0o777
    except OSError:
        return 0o666 & ~_UMASK


def _umask() -> int:
    mask = os.umask(0o022)  # read once at import, when no other thread creates files
    os.umask(mask)
    return mask


_UMASK = _umask()


def check_output_file(path: Path, flag: str) -> None:
    """``path`` can be written as a file: a regular file or nothing (not a folder, a symlink or a device), in a folder
    that exists and accepts files (checked first)."""
    path = Path(path)
    _refuse_special(path, flag)
    if not path.parent.is_dir():
        raise ConfigError(f"{flag} {path}: the folder {path.parent} does not exist; create it or choose another path")
    check_writable(path.parent, flag)


def write_output(path: Path, text: str, flag: str) -> None:
    """Write ``text`` to ``path`` through a temporary file and a rename; a failed write is one line, the old file kept.
    ``path`` is a regular file or nothing (see ``check_output_file``); the new file keeps the old one's mode, or gets
    the umask's."""
    path = Path(path)
    _refuse_special(path, flag)
    try:
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
        os.fchmod(fd, _mode(path))
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
        os.replace(tmp, path)
    except OSError as exc:
        raise ConfigError(f"{flag} {path}: cannot write it ({exc.strerror or exc})") from None

"""Hashing and seeding: short content digests and seeded orders, shared by every layer."""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

from .errors import SourceError


def sha8(data: bytes | str) -> str:
    """First 8 hex digits of the SHA-256 of ``data``."""
    if isinstance(data, str):
        data = data.encode("utf-8")
    return hashlib.sha256(data).hexdigest()[:8]


def seeded_key(seed: int, key: str) -> str:
    """A sort key that orders items in a seeded, stable pseudo-random order."""
    return hashlib.sha256(f"{seed}:{key}".encode()).hexdigest()


def file_sha8(*paths: Path) -> str:
    """First 8 hex digits of the SHA-256 over the bytes of ``paths`` (streamed; a folder counts as all of its
    files, symlinks followed). Each file's digest is cached by path, size and mtime, so a large corpus is
    read once, and an edit in place changes the hash."""
    if len(paths) == 1 and not Path(paths[0]).is_dir():  # the plain file digest, as sha256sum prints it
        return file_digest(Path(paths[0]))[:8]
    h = hashlib.sha256()
    for path in map(Path, paths):
        if path.is_dir():  # relative names count: a renamed set folder (np_agreement.human) is other data
            for file in tree_files(path):
                h.update(f"{file.relative_to(path).as_posix()}\0{file_digest(file)}\n".encode())
        else:
            h.update(f"{file_digest(path)}\n".encode())
    return h.hexdigest()[:8]


def tree_files(folder: Path) -> list[Path]:
    """Every file under ``folder`` in a stable order, following symlinked files and folders."""
    out = []
    for root, dirs, files in os.walk(folder, followlinks=True):
        dirs.sort()
        out += [Path(root) / f for f in sorted(files)]
    return out


_DIGESTS: dict[tuple[str, int, int], str] = {}


def file_digest(path: Path) -> str:
    """The SHA-256 of one file's bytes, cached by its real path, size and mtime."""
    real = Path(path).resolve()
    try:
        st = real.stat()
    except FileNotFoundError:
        raise SourceError(f"{path} does not exist") from None
    key = (str(real), st.st_size, st.st_mtime_ns)
    if key not in _DIGESTS:
        h = hashlib.sha256()
        with open(real, "rb") as f:
            for block in iter(lambda: f.read(1 << 20), b""):
                h.update(block)
        _DIGESTS[key] = h.hexdigest()
    return _DIGESTS[key]


def content_tag(value):
    """A setting as a signature names it: a string naming local files or folders (one, or several joined by commas)
    gains the hash of their bytes, so that an edited file never meets the records made with the old one."""
    if not isinstance(value, str) or not value.strip():
        return value
    paths = [Path(p).expanduser() for p in value.split(",")]
    if all(p.exists() for p in paths):
        return f"{value}@sha256-{file_sha8(*paths)}"
    return value

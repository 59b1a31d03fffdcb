"""A polite stop. A scheduler asks a job to end with SIGTERM (Slurm before a time limit, given ``--signal``, or on
preemption and ``scancel``), then kills it: a long run finishes the item it is on, keeps what it scored (its records
are flushed as items finish, so it resumes) and stops. One event for the process, set by the signal; the scoring loop
checks it between chunks."""

from __future__ import annotations

import signal
import threading
from contextlib import contextmanager

from .errors import WordbenchError

_REQUESTED = threading.Event()


class StopRequested(WordbenchError):
    """The process was asked to stop (SIGTERM); what was scored is kept."""


def request_stop(*_) -> None:
    _REQUESTED.set()


def requested() -> bool:
    return _REQUESTED.is_set()


def check() -> None:
    """Raise ``StopRequested`` where a stop was asked for: called at item boundaries, never inside one."""
    if _REQUESTED.is_set():
        raise StopRequested("stopped at an item boundary on SIGTERM; what was scored is kept and the run resumes from it")


@contextmanager
def on_sigterm():
    """Within the block, SIGTERM asks for a polite stop instead of ending the process at once (main thread only)."""
    previous = signal.signal(signal.SIGTERM, request_stop)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)
        _REQUESTED.clear()

"""A polite stop. A scheduler asks a job to end with SIGTERM (Slurm before a time limit, given ``--signal``, or on
preemption and ``scancel``), then kills it: a long run finishes the item it is on, keeps what it scored (its records
are flushed as items finish, so it resumes) and stops. One event for the process, set by the signal; the scoring loop
checks it between chunks.

The same check ends work nobody wants any more: a worker's task whose request failed on another task is abandoned
(:func:`abandon`, from the thread that renews its lease) and stops at the next chunk, so its GPU takes other work."""

from __future__ import annotations

import signal
import threading
from contextlib import contextmanager

from .errors import WordbenchError

_REQUESTED = threading.Event()


class StopRequested(WordbenchError):
    """The process was asked to stop (SIGTERM); what was scored is kept."""


class Abandoned(WordbenchError):
    """The work in hand is no longer wanted (its request failed elsewhere); what was scored is kept."""


_ABANDONED = threading.Event()
_why: list[str] = [""]


def abandon(why: str) -> None:
    """Ask the scoring loop to give up the work in hand at its next chunk, for ``why`` (one line)."""
    _why[0] = why
    _ABANDONED.set()


@contextmanager
def abandonable():
    """Within the block, :func:`abandon` ends the work at a chunk boundary (``Abandoned``); outside it, it ends nothing."""
    _ABANDONED.clear()
    try:
        yield
    finally:
        _ABANDONED.clear()


def request_stop(*_) -> None:
    _REQUESTED.set()


def requested() -> bool:
    return _REQUESTED.is_set()


def check() -> None:
    """Raise ``StopRequested`` where a stop was asked for, ``Abandoned`` where the work was given up: called at item
    boundaries, never inside one."""
    if _REQUESTED.is_set():
        raise StopRequested("stopped at an item boundary on SIGTERM; what was scored is kept and the run resumes from it")
    if _ABANDONED.is_set():
        raise Abandoned(f"abandoned at an item boundary: {_why[0]}")


@contextmanager
def on_sigterm():
    """Within the block, SIGTERM asks for a polite stop instead of ending the process at once (main thread only)."""
    previous = signal.signal(signal.SIGTERM, request_stop)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)
        _REQUESTED.clear()

"""Progress for long work: a bar over a loop, a line for a stage that has no loop to count."""

from __future__ import annotations

import sys
import time
from contextlib import contextmanager
from typing import Iterable, Iterator, TypeVar

T = TypeVar("T")


def bar(items: Iterable[T], desc: str, progress: bool = True, total: int | None = None, unit: str = "it") -> Iterable[T]:
    """``items`` with a tqdm bar (refreshed at most every 2 s) when ``progress``."""
    if not progress:
        return items
    from tqdm.auto import tqdm

    return tqdm(items, desc=desc, total=total, unit=unit, mininterval=2, file=sys.stderr)


@contextmanager
def stage(desc: str, progress: bool = True) -> Iterator[None]:
    """Say ``desc ...`` before a stage without a loop to count (loading a source) and its time after."""
    if not progress:
        yield
        return
    print(f"{desc} ...", file=sys.stderr, flush=True)
    start = time.perf_counter()
    yield
    print(f"{desc}: done in {time.perf_counter() - start:.1f} s", file=sys.stderr, flush=True)

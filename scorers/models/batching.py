"""The one collator: sort by length, run in batches, restore the input order; back off on CUDA OOM."""

from __future__ import annotations

from typing import Callable, Sequence, TypeVar

import torch

T = TypeVar("T")
R = TypeVar("R")

AUTO_START_CUDA = 256  # first batch size tried by batch_size="auto" on a GPU
AUTO_CPU = 16


class BatchSizer:
    """Holds the batch size; with ``auto`` on CUDA it halves on out-of-memory and remembers what fit."""

    def __init__(self, batch_size: int | str, device: torch.device):
        self.auto = batch_size == "auto"
        if self.auto:
            self.size = AUTO_START_CUDA if device.type == "cuda" else AUTO_CPU
        else:
            self.size = int(batch_size)
            if self.size < 1:
                raise ValueError("batch size must be >= 1")

    def run(self, items: Sequence[T], lengths: Sequence[int], fn: Callable[[list[T]], list[R]], progress=None) -> list[R]:
        """Apply ``fn`` to length-sorted batches of ``items``; results come back in input order."""
        order = sorted(range(len(items)), key=lambda i: -lengths[i])  # longest first: an OOM shows up at once
        results: list = [None] * len(items)
        start = 0
        while start < len(order):
            idx = order[start : start + self.size]
            try:
                out = fn([items[i] for i in idx])
            except torch.cuda.OutOfMemoryError:
                if not self.auto or self.size == 1:
                    raise
                self.size //= 2
                torch.cuda.empty_cache()
                continue
            for i, r in zip(idx, out):
                results[i] = r
            start += len(idx)
            if progress is not None:
                progress.update(len(idx))
        return results

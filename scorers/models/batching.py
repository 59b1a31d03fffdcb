"""The one collator and batch pipeline: sort by length, fill batches up to a row cap and a token budget, restore
the input order, back off on CUDA OOM; prepare batch k+1 on the host while the device computes batch k."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from typing import Callable, Sequence, TypeVar

import torch

T = TypeVar("T")
R = TypeVar("R")

AUTO_START_CUDA = 256  # first row cap tried by batch_size="auto" on a GPU
AUTO_CPU = 16
AUTO_TOKENS_CUDA = 65536  # padded tokens per batch (rows x longest row) under batch_size="auto"
AUTO_TOKENS_CPU = 1024
PACK_WIDTH_CUDA = 512  # tokens per row when short texts are packed side by side (the attention mask grows with its square)
PACK_WIDTH_CPU = 192  # perf/limit.py, SmolLM2 fp32 on 2 cores: conditional pairs 2.93 s at 64, 2.35 s at 192; sentences 1.00 s at both


class Deferred:
    """A batch's results still on the device: ``read()`` brings them to the host (the one place that waits for it)."""

    __slots__ = ("read",)

    def __init__(self, read: Callable[[], list]):
        self.read = read


class _Ready:
    """A batch prepared in the calling thread (no overlap): the same face as a background job's future."""

    __slots__ = ("value",)

    def __init__(self, value):
        self.value = value

    def result(self):
        return self.value


def to_device(tensor: torch.Tensor, device: torch.device) -> torch.Tensor:
    """A host tensor on ``device``; to a GPU from pinned memory without blocking (the copy queues behind the batch
    the device is computing, so a background thread can issue it). A tensor on a device already goes as it is."""
    if tensor.device.type != "cpu":
        return tensor.to(device)
    if device.type == "cuda":
        return tensor.pin_memory().to(device, non_blocking=True)
    return tensor.to(device)


class BatchSizer:
    """Holds the row cap ``size`` and the token budget ``tokens`` (None: rows only).

    ``auto``: both are set per device, and on CUDA out-of-memory the budget (and the row cap) halve and
    what fit is remembered. An explicit integer batch size is a row cap without a token budget.
    """

    def __init__(self, batch_size: int | str, device: torch.device, overlap: bool | None = None):
        self.device = device
        # Prepare the next batch in a background thread (False: the same steps in turn). Default: on a GPU only; on a
        # CPU the host's work and the model's share the cores, so a thread ahead only competes with the compute threads
        # (perf/peers.py on 2 cores, runs minutes apart: sentences 1.06 s with the thread, 0.96 s without; candidates
        # 0.31 / 0.27 s).
        self.overlap = device.type == "cuda" if overlap is None else overlap
        self.pack_width = PACK_WIDTH_CUDA if device.type == "cuda" else PACK_WIDTH_CPU
        self.configure(batch_size)

    def configure(self, batch_size: int | str) -> None:
        self.auto = batch_size == "auto"
        if self.auto:
            cuda = self.device.type == "cuda"
            self.size = AUTO_START_CUDA if cuda else AUTO_CPU
            self.tokens: int | None = AUTO_TOKENS_CUDA if cuda else AUTO_TOKENS_CPU
        else:
            self.size, self.tokens = int(batch_size), None
            if self.size < 1:
                raise ValueError("batch size must be >= 1")

    def generation_length(self, prompt: int, new_tokens: int, rows: int = 1) -> int:
        """What a generated item counts against the token budget. On a GPU its KV cache: prompt and new tokens, per row
        (beam). On a CPU its prompt's tokens per row only: host memory holds the cache, and a decoding step reads the
        weights once however many rows it has, so rows are nearly free there (``perf/suite.py --profile full``, SmolLM2
        fp32 on 2 cores: minpairs' sample of beam translations took 150 s with the cache counted, one source a batch,
        and 70.65 s with several sources a batch)."""
        return (prompt + new_tokens) * rows if self.device.type == "cuda" else max(prompt, 1) * rows

    def _take(self, lengths: list[int]) -> int:
        """How many of the (longest-first) ``lengths`` go into the next batch: at least one."""
        n = min(self.size, len(lengths))
        if self.tokens is not None:
            longest = max(lengths[0], 1)
            n = min(n, max(1, self.tokens // longest))
        return n

    def run(self, items: Sequence[T], lengths: Sequence[int], fn: Callable, progress=None,
            prepare: Callable[[list[T]], object] | None = None) -> list[R]:
        """Apply ``fn`` to length-sorted batches of ``items``; results come back in input order.

        The pipeline: with ``prepare`` (the host's part: layout, masks, padding, the copy to the device), batch
        k+1 is prepared in a background thread while ``fn(prepare(batch k))`` computes. ``fn`` may return a
        ``Deferred``: its results are read (the host waits for the device there) only once the next batch is
        launched, so the device always has work queued. ``overlap=False`` runs the same steps one after another:
        prepare, compute, read."""
        order = sorted(range(len(items)), key=lambda i: -lengths[i])  # longest first: an OOM shows up at once
        results: list = [None] * len(items)
        pool = ThreadPoolExecutor(1, thread_name_prefix="wordbench-prepare") if prepare is not None and self.overlap else None

        def launch(start: int):
            """The next batch from ``start``: its indices and its preparation (running, or done)."""
            idx = order[start : start + self._take([lengths[i] for i in order[start : start + self.size]])]
            batch = [items[i] for i in idx]
            if prepare is None:
                return idx, _Ready(batch)
            return idx, pool.submit(prepare, batch) if pool is not None else _Ready(prepare(batch))

        def store(idx: list[int], out) -> None:
            for i, r in zip(idx, out.read() if isinstance(out, Deferred) else out):
                results[i] = r
            if progress is not None:
                progress.update(len(idx))

        start, ahead, unread = 0, None, None
        try:
            while start < len(order):
                idx, job = ahead if ahead is not None else launch(start)
                after = start + len(idx)
                ahead = launch(after) if self.overlap and after < len(order) else None  # prepared while this batch computes
                try:
                    out = fn(job.result())
                except torch.cuda.OutOfMemoryError:
                    if not self.auto or len(idx) == 1:
                        raise
                    self.size = max(1, min(self.size, len(idx)) // 2)
                    if self.tokens is not None:
                        self.tokens = max(1, self.tokens // 2)
                    ahead = None  # planned for the old size
                    torch.cuda.empty_cache()
                    continue
                if unread is not None:
                    store(*unread)
                unread, start = (idx, out), after
                if not self.overlap:
                    store(*unread)
                    unread = None
            if unread is not None:
                store(*unread)
        finally:
            if pool is not None:
                pool.shutdown(wait=True, cancel_futures=True)
        return results

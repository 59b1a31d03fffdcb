"""Data-parallel scoring under ``torchrun`` / ``accelerate launch``: one model per rank, items sharded by id.

The launchers set RANK, WORLD_SIZE and LOCAL_RANK. Each rank scores the items whose seeded id hash falls
to it and appends to its own ``records.rank<r>.jsonl``; after a barrier rank 0 merges the rank files into
``records.jsonl`` in item order and writes the summary, report and plots once.
"""

from __future__ import annotations

import datetime
import os
from dataclasses import dataclass

from wordbench.hashing import seeded_key


@dataclass(frozen=True)
class World:
    rank: int = 0
    size: int = 1
    local_rank: int = 0

    @property
    def parallel(self) -> bool:
        return self.size > 1

    @property
    def main(self) -> bool:
        return self.rank == 0


def world() -> World:
    """This process's place in a torchrun / accelerate launch (one process without them)."""
    size = int(os.environ.get("WORLD_SIZE", "1"))
    if size <= 1:
        return World()
    return World(int(os.environ["RANK"]), size, int(os.environ.get("LOCAL_RANK", "0")))


def init(w: World) -> None:
    """Join the process group (NCCL on CUDA, else gloo); the timeout allows for uneven shards."""
    if not w.parallel:  # a single process needs no torch here (samples, n-gram baselines)
        return
    import torch
    import torch.distributed as dist

    if dist.is_initialized():
        return
    backend = "nccl" if torch.cuda.is_available() else "gloo"
    if backend == "nccl":
        torch.cuda.set_device(w.local_rank)
    minutes = float(os.environ.get("WORDBENCH_DIST_TIMEOUT_MIN", "240"))
    dist.init_process_group(backend, timeout=datetime.timedelta(minutes=minutes))


def barrier(w: World) -> None:
    if w.parallel:
        import torch.distributed as dist

        # gloo barriers are enough to order the file writes; NCCL needs the device named
        dist.barrier(device_ids=[w.local_rank]) if dist.get_backend() == "nccl" else dist.barrier()


def total(w: World, n: int) -> int:
    """The sum of ``n`` over the ranks."""
    if not w.parallel:
        return n
    import torch.distributed as dist

    counts = [0] * w.size
    dist.all_gather_object(counts, n)
    return sum(counts)


def owner(item_id: str, size: int, seed: int = 0) -> int:
    """The rank that scores an item: its seeded id hash modulo the world size (stable across reruns)."""
    return int(seeded_key(seed, item_id)[:15], 16) % size


def shard(items: list[dict], w: World, seed: int = 0) -> list[dict]:
    return items if not w.parallel else [it for it in items if owner(it["id"], w.size, seed) == w.rank]


def device(requested: str) -> str:
    """``auto`` under a launcher with CUDA: this rank's GPU (cuda:LOCAL_RANK)."""
    w = world()
    if requested == "auto" and w.parallel:
        import torch

        if torch.cuda.is_available():
            return f"cuda:{w.local_rank}"
    return requested


def finish(ok: bool = True) -> None:
    """Leave the process group after the last run of a call. After a clean run every rank first waits for
    the others (rank 0 is still merging): a gloo rank that tore its group down while its peer still held
    the connections was seen to abort (SIGABRT, "terminate called without an active exception")."""
    import sys

    if "torch.distributed" in sys.modules:
        import torch.distributed as dist

        if dist.is_available() and dist.is_initialized():
            if ok:
                barrier(world())
            dist.destroy_process_group()

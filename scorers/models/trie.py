"""Token sequences laid out as a prefix tree: a prefix shared by several sequences is fed to the model once.

Used to score minimal pairs and continuations of one context in one pass: every node is one token in a row,
its position is its depth, and an attention mask lets it see its ancestors only (``ancestor_mask``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

import torch


@dataclass(frozen=True)
class Trie:
    tokens: list[int]  # one per node, in layout order (parents before children)
    parents: list[int]  # the parent node's index; -1 for a root
    depths: list[int]  # the node's position in its sequence
    paths: list[list[int]]  # per sequence (input order), its node at each position


def common_prefix(a: Sequence[int], b: Sequence[int]) -> int:
    """How many leading tokens ``a`` and ``b`` share."""
    n = 0
    for x, y in zip(a, b):
        if x != y:
            break
        n += 1
    return n


def build_trie(seqs: Sequence[Sequence[int]]) -> Trie:
    """The prefix tree of ``seqs``. Sorted, each sequence shares the longest prefix it can with its predecessor
    (the longest it shares with any earlier one), so its new nodes follow in one run."""
    tokens: list[int] = []
    parents: list[int] = []
    depths: list[int] = []
    paths: list[list[int]] = [[] for _ in seqs]
    prev: Sequence[int] = ()
    prev_path: list[int] = []
    for i in sorted(range(len(seqs)), key=lambda i: list(seqs[i])):
        seq = seqs[i]
        path = prev_path[: common_prefix(prev, seq)]
        for d in range(len(path), len(seq)):
            parents.append(path[d - 1] if d else -1)
            path.append(len(tokens))
            tokens.append(seq[d])
            depths.append(d)
        paths[i], prev, prev_path = path, seq, path
    return Trie(tokens, parents, depths, paths)


def forest(tries: Sequence[Trie]) -> Trie:
    """Several prefix trees side by side in one row, sharing nothing: nodes, parents and paths offset."""
    tokens, parents, depths, paths = [], [], [], []
    for trie in tries:
        at = len(tokens)
        tokens += trie.tokens
        parents += [p + at if p >= 0 else -1 for p in trie.parents]
        depths += trie.depths
        paths += [[n + at for n in path] for path in trie.paths]
    return Trie(tokens, parents, depths, paths)


def subtree_ends(parents: Sequence[int]) -> list[int]:
    """Per node, one past the last node of its subtree, for trees laid out in preorder (``build_trie`` inserts
    sorted sequences, so a node's subtree is the run of nodes right after it; ``forest`` puts such trees side by
    side): a node ``j`` is an ancestor of ``i``, or ``i`` itself, exactly when ``j <= i < ends[j]``."""
    ends = list(range(1, len(parents) + 1))
    for j in range(len(parents) - 1, 0, -1):
        p = parents[j]
        if p >= 0 and ends[j] > ends[p]:
            ends[p] = ends[j]
    return ends


def ancestor_mask(ends: torch.Tensor) -> torch.Tensor:
    """[rows, width] subtree ends (``subtree_ends``; a filler node's is its own index + 1) -> [rows, width, width]
    bool: a node sees itself and its ancestors (query ``i`` sees key ``j`` where ``j <= i < ends[j]``). Two
    comparisons on the device the ends are on: a GPU builds the mask, the host only sends the ends."""
    at = torch.arange(ends.shape[1], device=ends.device)
    return (at[None, None, :] <= at[None, :, None]) & (at[None, :, None] < ends[:, None, :])

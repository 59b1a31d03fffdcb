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


def ancestor_mask(parents: torch.Tensor, depths: torch.Tensor) -> torch.Tensor:
    """[rows, width] parent indices (within the row; -1 for a root or filler) and depths -> [rows, width, width]
    bool: a node sees itself and its ancestors. One step per depth level (a node's parent is done a level before
    it), not per column: a row of 1,024 short sentences has about 30 levels in 512 columns."""
    rows, width = parents.shape
    mask = torch.eye(width, dtype=torch.bool).repeat(rows, 1, 1)
    r, n = (parents >= 0).nonzero(as_tuple=True)
    level = depths[r, n]
    order = torch.argsort(level, stable=True)
    r, n = r[order], n[order]
    start = 0
    for end in torch.unique_consecutive(level[order], return_counts=True)[1].cumsum(0).tolist():
        rr, nn = r[start:end], n[start:end]
        mask[rr, nn] |= mask[rr, parents[rr, nn]]
        start = end
    return mask

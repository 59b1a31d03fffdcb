"""What every scorer's figures share: the headless backend, bar offsets for runs side by side, saving."""

from __future__ import annotations

from pathlib import Path


def pyplot():
    """matplotlib.pyplot on the Agg backend (no display needed)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def bar_offset(run: int, runs: int, width: float) -> float:
    """x offset of run ``run`` of ``runs`` in a group of bars of ``width`` centred on the tick."""
    return (run - (runs - 1) / 2) * width


def error_bars(values, intervals, scale: float = 1.0):
    """matplotlib's 2 x n ``yerr``/``xerr`` from ``values`` and their (low, high) ``intervals`` times ``scale``
    (100 for percentages); a missing interval draws no bar."""
    import numpy as np

    v = np.asarray(values, dtype=float)
    lo, hi = (scale * np.array([ci[k] for ci in intervals], dtype=float) for k in (0, 1))
    return np.nan_to_num(np.clip(np.stack([v - lo, hi - v]), 0, None))


def save(fig, folder: Path, name: str) -> str:
    """Write ``fig`` to ``folder/name`` (tight layout, 120 dpi), close it, return ``name``."""
    fig.tight_layout()
    fig.savefig(Path(folder) / name, dpi=120)
    pyplot().close(fig)
    return name

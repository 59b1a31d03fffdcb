"""Minimal pairs, shared: a pair is correct when the model scores its good side at least as high as its bad side.

:class:`PairsScorer` is the scorer of the ``pairs`` kind (``wordbench.builders.kinds``): it gives a pair benchmark
its accuracy cells, the per-item decision the precision check compares, a report (accuracy per group, runs side by
side) and a plot (accuracy per group with 95% Wilson intervals). A declared pairs benchmark uses it as it is (items
``good`` and ``bad``); ``minpairs`` extends it, with its own ``score()`` (translation pairs, seq2seq and prompted) and
its paper's tables on the same cells and plot."""

from __future__ import annotations

from pathlib import Path
from typing import ClassVar

import numpy as np

from wordbench.text import as_code

from . import plots
from .base import Scorer
from .stats import proportion_ci


def pair_cell(records: list[dict], correct) -> dict:
    """n, accuracy (``correct(record)``), ties and the mean margin s(correct) - s(incorrect) of some pairs."""
    return {"n": len(records), "accuracy": float(np.mean([correct(r) for r in records])),
            "ties": int(sum(r["score_correct"] == r["score_incorrect"] for r in records)),
            "mean_margin": float(np.mean([r["score_correct"] - r["score_incorrect"] for r in records]))}


def plot_accuracy(bars: list[tuple[str, dict[str, dict], str | None]], groups: list[str], title: str, folder: Path,
                  name: str = "accuracy.png") -> list[str]:
    """Bars of accuracy per group with 95% Wilson intervals and each bar's n: one series per ``(label, {group: cell},
    hatch)`` (a cell as :func:`pair_cell` makes it; a missing group is no bar)."""
    if not groups or not bars:
        return []
    plt = plots.pyplot()
    fig, ax = plt.subplots(figsize=(max(6, 1.1 * len(groups)), 4))
    width = 0.8 / len(bars)
    x = np.arange(len(groups))
    for k, (label, cells, hatch) in enumerate(bars):
        vals = [cells.get(g, {}).get("accuracy") for g in groups]
        ns = [cells.get(g, {}).get("n") or 0 for g in groups]
        cis = [proportion_ci(round(v * n), n) if v is not None and n else (np.nan, np.nan) for v, n in zip(vals, ns)]
        y = np.array([np.nan if v is None else v for v in vals])
        xs = x + plots.bar_offset(k, len(bars), width)
        ax.bar(xs, y, width, yerr=plots.error_bars(y, cis), capsize=2, label=label, hatch=hatch)
        for xi, n in zip(xs, ns):
            if n:
                ax.text(xi, 0.02, f"n={n}", rotation=90, ha="center", va="bottom", fontsize=6)
    ax.set_xticks(x, groups, rotation=30, ha="right")
    ax.set_ylabel("accuracy (95% Wilson interval)")
    ax.set_ylim(0, 1.05)
    ax.axhline(0.5, color="grey", lw=0.5, ls=":")
    ax.legend(fontsize=8)
    ax.set_title(title)
    return [plots.save(fig, folder, name)]


class PairsScorer(Scorer):
    """The ``pairs`` kind: which of two texts the model prefers. Records hold ``score_correct``, ``score_incorrect``
    and the column ``group_key``; accuracy overall and per group. Ties count as correct unless the options hold
    ``strict=True``. ``score()`` reads items ``good`` and ``bad`` (summed token log-probabilities; masked: PLL)."""

    kind: ClassVar[str] = "pairs"
    group_key: ClassVar[str] = "group"
    decision_name: ClassVar[str] = "choices between correct and incorrect"

    def correct(self, record: dict) -> bool:
        if getattr(self.options, "strict", False):
            return record["score_correct"] > record["score_incorrect"]
        return record["score_correct"] >= record["score_incorrect"]

    def decision(self, record: dict) -> object:
        return self.correct(record)

    def score(self, model, items: list[dict]) -> list[dict]:
        scores = model.sequence_logprobs([text for it in items for text in (it["good"], it["bad"])])
        return [{"id": it["id"], self.group_key: it[self.group_key], "score_correct": good.total, "score_incorrect": bad.total}
                for it, good, bad in zip(items, scores[::2], scores[1::2])]

    def headline_value(self, record: dict) -> float | None:
        return float(self.correct(record))

    def stratum(self, row: dict) -> object:
        """The group a pair is reported in (the declaration's ``group_key``)."""
        return row[self.group_key]

    def summarize(self, records: list[dict]) -> dict:
        groups: dict[str, list[dict]] = {}
        for r in records:
            groups.setdefault(r[self.group_key], []).append(r)
        return {"overall": pair_cell(records, self.correct),
                "by_group": {g: pair_cell(rs, self.correct) for g, rs in sorted(groups.items())}}

    def report(self, summaries: list[dict]) -> str:
        names = [s["model"]["name"] for s in summaries]
        groups = sorted({g for s in summaries for g in s["metrics"]["by_group"]})
        lines = [f"## {self.name}: accuracy (s(correct) >= s(incorrect)) per {self.group_key}", "",
                 f"| {self.group_key} | " + " | ".join(f"{n} (n)" for n in names) + " |", "|---" * (len(names) + 1) + "|"]

        def cell(c):
            return "–" if c is None else f"{c['accuracy']:.3f} ({c['n']})"

        for g in groups:
            lines.append(f"| {g} | " + " | ".join(cell(s["metrics"]["by_group"].get(g)) for s in summaries) + " |")
        lines.append("| **all** | " + " | ".join(cell(s["metrics"]["overall"]) for s in summaries) + " |")
        lines += [f"\nsignature ({s['model']['name']}): {as_code(s['signature'])}" for s in summaries]
        return "\n".join(lines) + "\n"

    def compare_plots(self, summaries: list[dict], folder: Path) -> list[str]:
        groups = sorted({g for s in summaries for g in s["metrics"]["by_group"]})
        bars = [(s["model"]["name"], s["metrics"]["by_group"], None) for s in summaries]
        return plot_accuracy(bars, groups, f"{self.name}: accuracy per {self.group_key}", folder)

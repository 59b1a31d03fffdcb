"""The scorers of the known kinds (``wordbench.builders.kinds``): each gives its kind's records, metrics with an
interval, report (a table per group, runs side by side) and plot; a declared benchmark subclasses one by name.

A built-in benchmark of a kind extends the kind's scorer with its paper's extras and keeps the kind's decision,
headline value and interval: ``minpairs`` is of the pairs kind (:class:`PairsScorer`, in ``pairs``), ``wnlampro`` of
the cloze kind (:class:`ClozeKind`: its ranks over the whole vocabulary, several targets an entry), ``vast`` of the
ratings kind (:class:`RatingsKind`: Pearson's r of effect sizes with human valence)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import ClassVar, Literal

import numpy as np

from wordbench.spec import Spec, opt
from wordbench.text import as_code

from . import plots
from .base import Scorer
from .pairs import PairsScorer
from .stats import bootstrap_ci, spearman

__all__ = ["PairsScorer", "ClozeKind", "ClozeScorer", "RatingsKind", "RatingsScorer", "reciprocal_rank", "mrr_cell",
           "correlation_cell"]


class _Grouped(Scorer):
    """Metrics overall and per group (``group_key``), a table of them per model, bars with intervals."""

    group_key: ClassVar[str] = "group"
    columns: ClassVar[tuple[str, ...]] = ()  # the report's metrics; the first is plotted with its ``_ci``

    def stratum(self, row: dict) -> object:
        """The group an item is reported in (the declaration's ``group``)."""
        return row[self.group_key]

    def cell(self, records: list[dict]) -> dict:
        raise NotImplementedError

    def summarize(self, records: list[dict]) -> dict:
        groups: dict[str, list[dict]] = {}
        for r in records:
            groups.setdefault(r[self.group_key], []).append(r)
        return {"overall": self.cell(records), "by_group": {g: self.cell(rs) for g, rs in sorted(groups.items())}}

    def report(self, summaries: list[dict]) -> str:
        names = [s["model"]["name"] for s in summaries]
        head = self.columns[0]
        lines = [f"## {self.name}: {', '.join(self.columns)} per {self.group_key} ({head} with its 95% bootstrap interval)", "",
                 f"| {self.group_key} | " + " | ".join(names) + " |", "|---" * (len(names) + 1) + "|"]

        def text(c):
            if c is None or c[head] is None:
                return "–"
            ci = c.get(f"{head}_ci")
            first = f"{c[head]:.3f}" + (f" [{ci[0]:.3f}, {ci[1]:.3f}]" if ci and np.isfinite(ci[0]) else "")
            return " · ".join([first] + [f"{k} {c[k]:.3f}" for k in self.columns[1:]]) + f" (n={c['n']})"

        groups = sorted({g for s in summaries for g in s["metrics"]["by_group"]})
        lines += [f"| {g} | " + " | ".join(text(s["metrics"]["by_group"].get(g)) for s in summaries) + " |" for g in groups]
        lines.append("| **all** | " + " | ".join(text(s["metrics"]["overall"]) for s in summaries) + " |")
        lines += [f"\nsignature ({s['model']['name']}): {as_code(s['signature'])}" for s in summaries]
        return "\n".join(lines) + "\n"

    def compare_plots(self, summaries: list[dict], folder: Path) -> list[str]:
        groups = sorted({g for s in summaries for g in s["metrics"]["by_group"]}) + ["all"]
        if not summaries:
            return []
        head, plt = self.columns[0], plots.pyplot()
        fig, ax = plt.subplots(figsize=(max(6, 1.1 * len(groups)), 4))
        width, x = 0.8 / len(summaries), np.arange(len(groups))
        for k, s in enumerate(summaries):
            cells = [s["metrics"]["by_group"].get(g) if g != "all" else s["metrics"]["overall"] for g in groups]
            y = np.array([np.nan if c is None or c[head] is None else c[head] for c in cells])
            cis = [tuple(c[f"{head}_ci"]) if c and c[f"{head}_ci"] else (np.nan, np.nan) for c in cells]
            ax.bar(x + plots.bar_offset(k, len(summaries), width), y, width, yerr=plots.error_bars(y, cis), capsize=2, label=s["model"]["name"])
        ax.set_xticks(x, groups, rotation=30, ha="right")
        ax.set_ylabel(f"{head} (95% bootstrap interval)")
        ax.legend(fontsize=8)
        ax.set_title(f"{self.name}: {head} per {self.group_key}")
        return [plots.save(fig, folder, f"{head}.png")]


def reciprocal_rank(rank: int | None) -> float:
    """1 / rank; 0 for a target not ranked at all (past the ranking's cut-off)."""
    return 1.0 / rank if rank else 0.0


def mrr_cell(rr, digits: int | None = None) -> dict:
    """The mean reciprocal rank of some items and its 95% bootstrap interval (``digits``: rounded to so many)."""
    mrr, ci = float(np.mean(rr)), list(bootstrap_ci(rr))
    if digits is not None:
        mrr, ci = round(mrr, digits), [round(v, digits) for v in ci]
    return {"mrr": mrr, "mrr_ci": ci}


def correlation_cell(name: str, scores, ratings, statistic, digits: int | None = None) -> dict:
    """``statistic`` (e.g. :func:`~wordbench.scorers.stats.spearman`) of a model's scores against human ratings, with
    a paired 95% bootstrap interval (an item's score and rating resampled together): ``{name, name_ci}``; None for
    fewer than 3 items, and an interval of None where the resamples give none (too few items, a constant side)."""
    scores, ratings = np.asarray(scores, dtype=np.float64), np.asarray(ratings, dtype=np.float64)
    if len(scores) < 3:  # no correlation of fewer items
        return {name: None, f"{name}_ci": None}
    value, ci = float(statistic(scores, ratings)), list(bootstrap_ci(scores, ratings, statistic=statistic, paired=True))
    ci = ci if np.isfinite(ci).all() else None
    if digits is not None:
        value, ci = round(value, digits), ci and [round(v, digits) for v in ci]
    return {name: value, f"{name}_ci": ci}


@dataclass(frozen=True)
class ClozeOptions(Spec):
    k: int = opt(3, "precision@k: the share of items whose target is among the k best candidates", ge=1)


class ClozeKind(Scorer):
    """What every scorer of the cloze kind shares: records hold the target's ``rank`` (None: not ranked), the decision
    is the rank, the headline value its reciprocal (the headline is the MRR, :func:`mrr_cell`)."""

    kind: ClassVar[str] = "cloze"
    decision_name: ClassVar[str] = "target ranks"

    def decision(self, record: dict) -> object:
        return record["rank"]

    def headline_value(self, record: dict) -> float | None:
        return reciprocal_rank(record["rank"])


class ClozeScorer(ClozeKind, _Grouped):
    """A target ranked among candidates filled into a context at ``___``, by the text's log-probability (masked:
    PLL): MRR, precision@1 and precision@k. A candidate scored as high as the target ranks above it (no credit for a tie)."""

    Options = ClozeOptions
    columns = ("mrr", "p@1", "p@k")

    def score(self, model, items: list[dict]) -> list[dict]:
        texts = [it["context"].replace("___", c) for it in items for c in it["candidates"]]
        scores = iter(s.total for s in model.sequence_logprobs(texts))
        out = []
        for it in items:
            s = np.array([next(scores) for _ in it["candidates"]])
            t = it["candidates"].index(it["target"])
            rank = 1 + int((s > s[t]).sum() + (s == s[t]).sum() - 1)
            out.append({"id": it["id"], self.group_key: it[self.group_key], "target": it["target"], "rank": rank,
                        "best": it["candidates"][int(s.argmax())], "candidates": len(s)})
        return out

    def cell(self, records: list[dict]) -> dict:
        ranks = np.array([r["rank"] for r in records])
        return {"n": len(records), **mrr_cell([reciprocal_rank(r) for r in ranks]),
                "p@1": float((ranks == 1).mean()), "p@k": float((ranks <= self.options.k).mean()), "k": self.options.k}


@dataclass(frozen=True)
class RatingsOptions(Spec):
    layer: int | None = opt(None, "the hidden-state layer compared (0: the embeddings; default: the top)", ge=0, model_max="layers")
    pool: Literal["mean", "last", "first", "max"] = opt("mean", "how a text's token states become one vector")


class RatingsKind(Scorer):
    """What every scorer of the ratings kind shares: a correlation of the model's scores with human ratings, with a
    paired bootstrap interval (:func:`correlation_cell`); no per-item decision. Every family gives hidden states."""

    kind: ClassVar[str] = "ratings"
    families = ("causal", "masked", "seq2seq", "encoder")

    def decision(self, record: dict) -> object:
        return None  # a correlation: no per-item choice


class RatingsScorer(RatingsKind, _Grouped):
    """The cosine of two texts' pooled hidden states against human ratings of their similarity: Spearman's rho with
    a paired bootstrap interval (an item's similarity and rating resampled together)."""

    Options = RatingsOptions
    columns = ("spearman",)
    decision_name: ClassVar[str] = "similarities"

    def score(self, model, items: list[dict]) -> list[dict]:
        texts = [it[c] for it in items for c in ("first", "second")]
        states = model.hidden_states(texts, [(0, len(t)) for t in texts], pool=self.options.pool)
        layer = model.num_layers if self.options.layer is None else self.options.layer
        a, b = states[0::2, layer], states[1::2, layer]
        cos = (a * b).sum(-1) / np.maximum(np.linalg.norm(a, axis=-1) * np.linalg.norm(b, axis=-1), 1e-12)
        return [{"id": it["id"], self.group_key: it[self.group_key], "rating": it["rating"], "similarity": float(c)}
                for it, c in zip(items, cos)]

    def cell(self, records: list[dict]) -> dict:
        return {"n": len(records), **correlation_cell("spearman", [r["similarity"] for r in records],
                                                      [r["rating"] for r in records], spearman)}

"""Paraphrase triples scorer (Dudy & Bedrick 2020, Table 2): BERTScore F1, rare vs common, chi-square.

A triple is a hit when F1(s(x_h), s(x)) > F1(s(x_h), s(x_a)): the carrier with the word itself should
be closer to its hypernym probe than the sibling probe is. BERTScore (Zhang et al. 2019) is computed
here on the model's own token states (no idf, no baseline rescaling, special tokens excluded), so
causal, masked and encoder models all work; the tests check it against the ``bert_score`` library.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from wordbench.builders.paraphrase_format import SETS

from wordbench.spec import Spec, opt
from wordbench.text import as_code

from . import plots
from .base import Scorer
from .stats import proportion_ci


def bertscore_f1(cand: np.ndarray, ref: np.ndarray) -> float:
    """BERTScore F1 of two token-state matrices [tokens, dim]: greedy cosine matching both ways."""
    a = cand / np.linalg.norm(cand, axis=1, keepdims=True)
    b = ref / np.linalg.norm(ref, axis=1, keepdims=True)
    sim = a @ b.T
    precision, recall = sim.max(1).mean(), sim.max(0).mean()
    return float(2 * precision * recall / (precision + recall))


def default_layer(model) -> int:
    """bert_score's tuned layer for a model it knows by name, else the top layer."""
    try:
        from bert_score.utils import model2layers
    except ImportError:  # pragma: no cover - optional
        model2layers = {}
    return int(model2layers.get(model.info.name, model.num_layers))


@dataclass(frozen=True)
class Options(Spec):
    layer: int | None = opt(None, "the layer whose token states BERTScore compares; none: bert_score's tuned layer, else the top", ge=0,
                            model_max="layers")


class ParaphraseScorer(Scorer):
    name = "paraphrase"
    families = ("causal", "masked", "encoder", "seq2seq")
    chunk_size = 64
    Options = Options

    def __init__(self, **options):
        super().__init__(**options)
        self.layer = self.options.layer

    def stratum(self, row: dict) -> object:
        """The word set: rare or common."""
        return row["set"]

    @property
    def settings(self) -> dict[str, object]:
        return {"similarity": "bertscore-f1", "idf": False, "layer": self.layer if self.layer is not None else "auto"}

    def score(self, model, items: list[dict]) -> list[dict]:
        layer = self.layer if self.layer is not None else default_layer(model)
        texts = [t for it in items for t in (it["sentence"], it["sentence_hypernym"], it["sentence_sibling"])]
        states = model.token_states(texts, layer)
        records = []
        for n, item in enumerate(items):
            s_x, s_h, s_a = states[3 * n : 3 * n + 3]
            f_word, f_sibling = bertscore_f1(s_h, s_x), bertscore_f1(s_h, s_a)
            records.append({"id": item["id"], "set": item["set"], "word": item["word"], "hypernym": item["hypernym"],
                            "sibling": item["sibling"], "f1_word": round(f_word, 6), "f1_sibling": round(f_sibling, 6),
                            "hit": f_word > f_sibling, "layer": layer})
        return records

    decision_name = "hits (s(x_h) nearer s(x) than s(x_a))"

    def decision(self, record: dict) -> object:
        return record["hit"]

    def summarize(self, records: list[dict]) -> dict:
        from scipy.stats import chi2_contingency

        metrics: dict = {"layer": records[0]["layer"] if records else None}
        table = []
        for kind in SETS:
            rows = [r for r in records if r["set"] == kind]
            hits = sum(r["hit"] for r in rows)
            metrics[kind] = {"hits": hits, "misses": len(rows) - hits, "total": len(rows),
                             "hit_rate": round(hits / len(rows), 4) if rows else None}
            table.append([hits, len(rows) - hits])
        grid = np.array(table)
        if (grid.sum(0) > 0).all() and (grid.sum(1) > 0).all():
            chi2, p, dof, _ = chi2_contingency(grid)  # Yates-corrected for a 2x2 table, as scipy's default
            metrics["chi2"] = {"statistic": round(float(chi2), 4), "p_value": float(p), "dof": int(dof), "yates": True}
        else:
            metrics["chi2"] = None  # a set is empty, or every triple is a hit (or a miss)
        return metrics

    def report(self, summaries: list[dict]) -> str:
        lines = ["## Paraphrase triples: BERTScore hits, rare vs common (Table 2)", "",
                 "| model | layer | set | hits | misses | total | chi-square | p |", "|---|---|---|---|---|---|---|---|"]
        for s in summaries:
            m = s["metrics"]
            chi = m.get("chi2")
            for kind in SETS:
                c = m.get(kind, {})
                stat = (f"{chi['statistic']:.3f}" if chi else "undefined") if kind == "rare" else ""
                p = (f"{chi['p_value']:.3g}" if chi else "undefined") if kind == "rare" else ""
                lines.append(f"| {s['model']['name']} | {m.get('layer')} | {kind} | {c.get('hits', 0)} | {c.get('misses', 0)} | {c.get('total', 0)} | {stat} | {p} |")
        lines += ["", "Hit: F1(s(x_h), s(x)) > F1(s(x_h), s(x_a)). Chi-square of the 2x2 table rare/common x hit/miss (Yates correction); "
                  "undefined when a set is empty or every triple is a hit (or every one a miss).", ""]
        lines += [as_code(s['signature']) for s in summaries]
        return "\n".join(lines) + "\n"

    def compare_plots(self, summaries: list[dict], folder: Path) -> list[str]:
        fig, ax = plots.pyplot().subplots(figsize=(6, 4))
        width = 0.8 / max(1, len(summaries))
        for i, s in enumerate(summaries):
            cells = [s["metrics"].get(k, {}) for k in SETS]
            rates = np.array([100 * (c.get("hit_rate") or 0.0) for c in cells])
            cis = [proportion_ci(c.get("hits", 0), c.get("total", 0)) for c in cells]
            err = plots.error_bars(rates, cis, 100)
            xs = np.arange(len(SETS)) + plots.bar_offset(i, len(summaries), width)
            chi = s["metrics"].get("chi2")
            p = f", chi-square p = {chi['p_value']:.2g}" if chi else ", chi-square undefined"
            ax.bar(xs, rates, width, yerr=err, capsize=3, label=s["model"]["name"] + p)
            for xi, c in zip(xs, cells):
                ax.text(xi, 1, f"{c.get('hits', 0)}/{c.get('total', 0)}", ha="center", va="bottom", fontsize=7)
        ax.set_xticks(np.arange(len(SETS)), SETS)
        ax.set_ylim(0, 105)
        ax.set_ylabel("% hits (95% Wilson interval)")
        ax.set_title("Paraphrase triples: hit rate, rare vs common")
        ax.legend(fontsize=7)
        return [plots.save(fig, folder, "hit_rate.png")]

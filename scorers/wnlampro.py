"""WNLaMPro scorer (Schick & Schütze 2020): MRR, P@3 and P@10 per relation x keyword frequency bin.

Every (entry, pattern) query goes through the model in length-sorted batches: masked models predict
one mask token at ``___``; causal models give the next-token distribution after the text before
``___``, restricted to tokens that start a word; seq2seq models infill the gap (T5 sentinel or BART
mask, ``models.seq2seq``).
"""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path

import numpy as np

from . import plots
from .base import Scorer

PATTERNS = {
    "antonym": [
        "<W> is the opposite of ___",
        "<W> is not ___",
        "someone who is <W> is not ___",
        "something that is <W> is not ___",
        '" <W> " is the opposite of " ___ "',
    ],
    "hypernym": [
        "<W> is a ___",
        "<W> is an ___",
        "<A> <W> is a ___",
        "<A> <W> is an ___",
        '" <W> " refers to a ___',
        '" <W> " refers to an ___',
        "<W> is a kind of ___",
        "<A> <W> is a kind of ___",
    ],
    "cohyponym": ["<W> and ___", '" <W> " and " ___ "'],
    "corruption": ['" <W> " is a misspelling of " ___ " .', '" <W> " . did you mean " ___ " ?'],
}
RELATIONS = tuple(PATTERNS)
BINS = ("rare", "medium", "frequent")
TOP = 100  # predictions considered per pattern
MIN_ENTRIES = 10  # a bin is reported only with at least this many entries
PRECISION_AT = (3, 10)
SHORT = {"antonym": "ANT", "hypernym": "HYP", "cohyponym": "COH+", "corruption": "COR"}


def article(word: str) -> str:
    """The indefinite article by the keyword's first letter."""
    return "an" if word[:1].lower() in "aeiou" else "a"


def fill(pattern: str, word: str) -> tuple[str, str]:
    """(text before ___, text after ___) with a "." appended unless the pattern ends in . ? !"""
    text = pattern.replace("<A>", article(word)).replace("<W>", word)
    if not text.endswith((".", "?", "!")):
        text += " ."
    left, right = text.split("___")
    return left, right


def rank_and_precision(predictions: list[list[str]], targets: list[str]) -> dict:
    """rank = min over patterns and targets (None past the top 100); P@k = max over patterns of |top-k ∩ T| / k."""
    targets_set = set(targets)
    best_rank, best_pattern = None, None
    for p, words in enumerate(predictions):
        for r, w in enumerate(words[:TOP], 1):
            if w in targets_set:
                if best_rank is None or r < best_rank:
                    best_rank, best_pattern = r, p
                break
    out = {"rank": best_rank, "rr": 1.0 / best_rank if best_rank else 0.0, "best_pattern": best_pattern}
    for k in PRECISION_AT:
        out[f"p@{k}"] = max((len(set(words[:k]) & targets_set) / k for words in predictions), default=0.0)
    return out


class WNLaMProScorer(Scorer):
    name = "wnlampro"
    families = ("causal", "masked", "seq2seq")
    chunk_size = 128

    @property
    def settings(self) -> dict[str, object]:
        return {"top": TOP}

    def stratum(self, row: dict) -> object:
        return row["relation"], row["keyword_bin"]  # the cells of Table 6

    def predicted_words(self, model, lefts: list[str], rights: list[str]) -> list[list[str]]:
        """Top-100 distinct words per query (lower-cased, as the uncased reference vocabulary)."""
        # Twice as many tokens as words: " Dog" and " dog" are one word.
        results = model.topk_next(lefts, 2 * TOP, right_contexts=rights, word_start_only=True)
        vocab = model.words
        out = []
        for ids, _ in results:
            words = list(dict.fromkeys(vocab.word(int(i)).lower() for i in ids))
            out.append(words[:TOP])
        return out

    def score(self, model, items: list[dict]) -> list[dict]:
        queries = [(n, *fill(p, item["key"])) for n, item in enumerate(items) for p in PATTERNS[item["relation"]]]
        words = self.predicted_words(model, [q[1] for q in queries], [q[2] for q in queries])
        per_item: dict[int, list[list[str]]] = defaultdict(list)
        for (n, _, _), w in zip(queries, words):
            per_item[n].append(w)
        records = []
        for n, item in enumerate(items):
            result = rank_and_precision(per_item[n], item["targets"])
            best = result["best_pattern"] or 0
            records.append(
                {
                    "id": item["id"],
                    "key": item["key"],
                    "relation": item["relation"],
                    "keyword_bin": item["keyword_bin"],
                    "keyword_count": item["keyword_count"],
                    **result,
                    "top10": per_item[n][best][:10],
                    "query": "___".join(fill(PATTERNS[item["relation"]][best], item["key"])),  # the best pattern's input
                    "targets": list(item["targets"]),
                }
            )
        return records

    def summarize(self, records: list[dict]) -> dict:
        groups: dict[tuple[str, str], list[dict]] = defaultdict(list)
        for r in records:
            groups[r["relation"], r["keyword_bin"]].append(r)
            groups[r["relation"], "all"].append(r)
        metrics: dict = {}
        for rel in RELATIONS:
            metrics[rel] = {}
            for b in (*BINS, "all"):
                rows = groups.get((rel, b), [])
                cell = {"n": len(rows)}
                if len(rows) >= MIN_ENTRIES:
                    cell["mrr"] = round(float(np.mean([r["rr"] for r in rows])), 4)
                    for k in PRECISION_AT:
                        cell[f"p@{k}"] = round(float(np.mean([r[f"p@{k}"] for r in rows])), 4)
                metrics[rel][b] = cell
        return metrics

    def report(self, summaries: list[dict]) -> str:
        cols = [(rel, b) for rel in RELATIONS for b in BINS]
        head = "| model | " + " | ".join(f"{SHORT[r]} {b[0].upper()}" for r, b in cols) + " |"
        lines = ["## MRR per relation and keyword bin (Table 6)", "", head, "|" + "---|" * (len(cols) + 1)]
        for s in summaries:
            m = s["metrics"]
            lines.append(f"| {s['model']['name']} | " + " | ".join(_fmt(m[r][b].get("mrr")) for r, b in cols) + " |")
        lines += ["", "R = rare (< 10 per billion), M = medium (10-99), F = frequent (>= 100); '-' = fewer than 10 entries.", ""]
        for s in summaries:
            lines += [f"### {s['model']['name']}: all metrics ({s['split']} split)", "", "| relation | bin | n | MRR | P@3 | P@10 |", "|---|---|---|---|---|---|"]
            for rel in RELATIONS:
                for b in (*BINS, "all"):
                    c = s["metrics"][rel][b]
                    lines.append(f"| {rel} | {b} | {c['n']} | {_fmt(c.get('mrr'))} | {_fmt(c.get('p@3'))} | {_fmt(c.get('p@10'))} |")
            lines += ["", f"`{s['signature']}`", ""]
        return "\n".join(lines)

    def plots(self, records: list[dict], summary: dict, folder: Path) -> list[str]:
        plt = plots.pyplot()
        names = []
        fig, ax = plt.subplots(figsize=(7, 4))
        width = 0.25
        for i, b in enumerate(BINS):
            values = [summary["metrics"][rel][b].get("mrr") or 0.0 for rel in RELATIONS]
            ax.bar(np.arange(len(RELATIONS)) + plots.bar_offset(i, len(BINS), width), values, width, label=b)
        ax.set_xticks(np.arange(len(RELATIONS)), [SHORT[r] for r in RELATIONS])
        ax.set_ylabel("MRR")
        ax.set_title(f"WNLaMPro MRR by keyword frequency: {summary['model']['name']}")
        ax.legend()
        names.append(plots.save(fig, folder, "mrr_by_bin.png"))

        # Figure 3: rank interval vs keyword-count interval for COHYPONYM+, columns normalised.
        count_edges = [0, 10, 100, 1000, 10000, float("inf")]
        count_labels = ["<10", "10-99", "100-999", "1k-10k", ">=10k"]
        rank_labels = ["1", "2-3", "4-10", "11-100", ">100"]
        grid = np.zeros((len(rank_labels), len(count_labels)))
        for r in records:
            if r["relation"] != "cohyponym":
                continue
            col = next(i for i in range(len(count_labels)) if count_edges[i] <= r["keyword_count"] < count_edges[i + 1])
            rank = r["rank"]
            row = 4 if rank is None else 0 if rank == 1 else 1 if rank <= 3 else 2 if rank <= 10 else 3
            grid[row, col] += 1
        totals = grid.sum(0, keepdims=True)
        norm = np.divide(grid, totals, out=np.zeros_like(grid), where=totals > 0)
        fig, ax = plt.subplots(figsize=(6, 4))
        im = ax.imshow(norm, cmap="viridis", vmin=0, vmax=1, aspect="auto")
        ax.set_xticks(range(len(count_labels)), [f"{c}\n(n={int(t)})" for c, t in zip(count_labels, totals[0])])
        ax.set_yticks(range(len(rank_labels)), rank_labels)
        ax.set_xlabel("keyword count (per billion tokens)")
        ax.set_ylabel("rank of the best target")
        ax.set_title("COHYPONYM+: rank vs keyword frequency")
        fig.colorbar(im, ax=ax, label="share of column")
        names.append(plots.save(fig, folder, "cohyponym_rank_heatmap.png"))
        return names


def _fmt(value) -> str:
    return "-" if value is None else f"{value:.3f}"

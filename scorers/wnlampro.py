"""WNLaMPro scorer (Schick & Schütze 2020): MRR, P@3 and P@10 per relation x keyword frequency bin.

Every (entry, pattern) query goes through the model in length-sorted batches: masked models predict
one mask token at ``___`` and rank the whole vocabulary, as the paper (a ``##`` piece takes a rank and
never matches); causal models give the next-token distribution after the text before ``___``,
restricted to tokens that start a word (no paper behaviour to follow); seq2seq models infill the gap
(T5 sentinel or BART mask, ``models.seq2seq``), word-start tokens too. ``word_start_only`` overrides
the default.
"""

from __future__ import annotations

import math
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from wordbench.spec import Spec, opt
from wordbench.text import as_code

from . import plots
from .kinds import ClozeKind, mrr_cell, reciprocal_rank
from .stats import mean_difference_test

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


@dataclass(frozen=True)
class Options(Spec):
    word_start_only: bool | None = opt(None, "rank word-start tokens only; none: masked models rank every token (the paper), causal/seq2seq ones word starts")


def article(word: str) -> str:
    """The indefinite article by the keyword's first letter."""
    return "an" if word[:1].lower() in "aeiou" else "a"


def fill(pattern: str, word: str, faithful: bool = False) -> tuple[str, str]:
    """(text before ___, text after ___) with " ." appended unless the pattern ends in . ? ! (the
    authors' code appends "." with no space: ``faithful``)."""
    # split at the pattern's one slot before the keyword goes in: a keyword may hold "___" as text of its own
    left, right = (part.replace("<A>", article(word)).replace("<W>", word) for part in pattern.split("___"))
    if not (left + "___" + right).endswith((".", "?", "!")):
        right += "." if faithful else " ."
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
    out = {"rank": best_rank, "rr": reciprocal_rank(best_rank), "best_pattern": best_pattern}
    for k in PRECISION_AT:
        out[f"p@{k}"] = max((len(set(words[:k]) & targets_set) / k for words in predictions), default=0.0)
    return out


class WNLaMProScorer(ClozeKind):
    """The cloze kind over the model's whole vocabulary: each entry's targets ranked among the top 100 predicted words
    of every pattern; MRR, P@3 and P@10 per relation and keyword bin (Table 6)."""

    name = "wnlampro"
    families = ("causal", "masked", "seq2seq")
    chunk_size = 128
    Options = Options

    def __init__(self, **options):
        super().__init__(**options)  # word_start_only is typed there (true/false/None)
        self._labels: tuple[object, list[str], frozenset[str]] | None = None  # (model, labels, producible): the last model's

    def word_start_only(self, family: str | None) -> bool:
        """Rank only tokens that begin a word: the option, else yes for causal and seq2seq models (next-token
        distributions, where a word piece would start a different word); masked models rank every token."""
        return self.options.word_start_only if self.options.word_start_only is not None else family in ("causal", "seq2seq")

    @property
    def settings(self) -> dict[str, object]:
        return self.settings_for(None)

    def settings_for(self, family: str | None) -> dict[str, object]:
        start = self.word_start_only(family) if family or self.options.word_start_only is not None else "auto"
        return {"top": TOP, "word_start_only": start, **({"faithful": True} if self.faithful else {})}

    def stratum(self, row: dict) -> object:
        """Relation x keyword-count bin (the cells of Table 6)."""
        return row["relation"], row["keyword_bin"]

    def token_labels(self, model) -> list[str]:
        """What each logit index stands for: the lower-cased word a word-start token spells; any other
        token as the tokenizer spells it, continuation pieces marked ``##`` so they match no target.
        ``faithful``: the authors' labels (the token, marker stripped, lower-cased)."""
        if self._labels is None or self._labels[0] is not model:  # by identity, not id(): an id can be reused
            vocab = model.words
            size = len(vocab.words)  # the model's output size, which may exceed the tokenizer's
            raw = model.tokenizer.convert_ids_to_tokens(list(range(min(size, len(model.tokenizer)))))
            raw += [""] * (size - len(raw))
            labels = []
            for i, tok in enumerate(raw):
                tok = tok or ""
                if self.faithful:
                    labels.append(tok.replace("\u0120", "").replace("\u2581", "").lower())
                elif vocab.is_start[i]:
                    labels.append(vocab.word(i).lower())
                else:
                    labels.append(tok if vocab.boundary[i] or tok.startswith("##") else "##" + tok)
            start_only = self.word_start_only(model.family)
            producible = frozenset(w for i, w in enumerate(labels) if (vocab.is_start[i] if start_only else not w.startswith("##")))
            self._labels = (model, labels, producible)
        return self._labels[1]

    def producible(self, model) -> frozenset[str]:
        """The words the model's ranking can put in its top 100 at all (word-start tokens for causal and seq2seq
        models): an entry none of whose targets is among them can never be matched."""
        self.token_labels(model)
        return self._labels[2]

    def predicted_words(self, model, lefts: list[str], rights: list[str]) -> list[list[str]]:
        """Top-100 predictions per query: distinct labels (case variants are one word); ``faithful``:
        the top 100 tokens, duplicates kept, as the authors' code."""
        start_only = self.word_start_only(model.family)
        k = TOP if self.faithful else 2 * TOP  # twice as many tokens as words: " Dog" and " dog" are one word
        results = model.topk_next(lefts, k, right_contexts=rights, word_start_only=start_only)
        labels = self.token_labels(model)
        if self.faithful:
            return [[labels[int(i)] for i in ids] for ids, _ in results]
        return [list(dict.fromkeys(labels[int(i)] for i in ids))[:TOP] for ids, _ in results]

    def score(self, model, items: list[dict]) -> list[dict]:
        queries = [(n, *fill(p, item["key"], self.faithful)) for n, item in enumerate(items) for p in PATTERNS[item["relation"]]]
        words = self.predicted_words(model, [q[1] for q in queries], [q[2] for q in queries])
        per_item: dict[int, list[list[str]]] = defaultdict(list)
        texts: dict[int, list[str]] = defaultdict(list)  # each pattern's input as the model saw it
        for (n, left, right), w in zip(queries, words):
            per_item[n].append(w)
            texts[n].append(f"{left}___{right}")
        records = []
        producible = self.producible(model)
        for n, item in enumerate(items):
            result = rank_and_precision(per_item[n], item["targets"])
            result["reachable"] = any(t in producible for t in item["targets"])
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
                    "query": texts[n][best],  # the best pattern's input
                    "targets": list(item["targets"]),
                }
            )
        return records

    decision_name = "ranks of the best target"

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
                if rows and all("reachable" in r for r in rows):  # records of earlier runs lack it: no figure
                    reachable = [r["rr"] for r in rows if r["reachable"]]
                    cell["reachable"] = round(len(reachable) / len(rows), 4)
                    if len(reachable) >= MIN_ENTRIES:
                        cell["mrr_reachable"] = round(float(np.mean(reachable)), 4)
                if len(rows) >= MIN_ENTRIES:
                    cell.update(mrr_cell([r["rr"] for r in rows], digits=4))
                    for k in PRECISION_AT:
                        cell[f"p@{k}"] = round(float(np.mean([r[f"p@{k}"] for r in rows])), 4)
                metrics[rel][b] = cell
            rare, frequent = groups.get((rel, "rare"), []), groups.get((rel, "frequent"), [])
            if len(rare) >= MIN_ENTRIES and len(frequent) >= MIN_ENTRIES:
                test = mean_difference_test([r["rr"] for r in rare], [r["rr"] for r in frequent], n_resamples=9999)
                metrics[rel]["rare_vs_frequent"] = {"difference": round(test.statistic, 4), "p": round(test.pvalue, 4)}
        metrics["all"] = {"n": len(records)}  # every entry of every relation: the submissions leaderboard's figure
        if len(records) >= MIN_ENTRIES:
            metrics["all"].update(mrr_cell([r["rr"] for r in records], digits=4))
        return metrics

    def report(self, summaries: list[dict]) -> str:
        lines = ["## MRR per relation and keyword bin (Table 6)", "", "| model | relation | " + " | ".join(BINS) + " | rare < frequent |", "|---|---|---|---|---|---|"]
        for s in summaries:
            for rel in RELATIONS:
                m = s["metrics"][rel]
                cells = [_cell(m[b]) for b in BINS]
                lines.append(f"| {s['model']['name']} | {SHORT[rel]} | " + " | ".join(cells) + f" | {_versus(m.get('rare_vs_frequent'))} |")
        lines += [
            "",
            "Cells: MRR [95% bootstrap interval] (n entries); rare < 10 per billion, medium 10-99, frequent >= 100;",
            "n<10: too few entries to report. Last column: MRR(rare) - MRR(frequent) and its two-sided permutation p.",
            *_rare_bin_note(summaries),
            "",
        ]
        for s in summaries:
            lines += [f"### {s['model']['name']}: all metrics ({s['split']} split)", "",
                      "| relation | bin | n | MRR | 95% CI | P@3 | P@10 | reachable | MRR (reachable) |", "|---|---|---|---|---|---|---|---|---|"]
            for rel in RELATIONS:
                for b in (*BINS, "all"):
                    c = s["metrics"][rel][b]
                    ci = "[" + ", ".join(f"{v:.3f}" for v in c["mrr_ci"]) + "]" if "mrr_ci" in c else "-"
                    reach = f"{100 * c['reachable']:.0f}%" if "reachable" in c else "-"
                    lines.append(f"| {rel} | {b} | {c['n']} | {_fmt(c.get('mrr'))} | {ci} | {_fmt(c.get('p@3'))} | {_fmt(c.get('p@10'))} "
                                 f"| {reach} | {_fmt(c.get('mrr_reachable'))} |")
            lines += ["", "Reachable: the share of entries with a target the model can rank at all (targets are single tokens of",
                      "the reference tokenizer; a causal model ranks its own word-start tokens); MRR (reachable) is over those.",
                      "", as_code(s['signature']), ""]
        return "\n".join(lines)

    def plots(self, records: list[dict], summary: dict, folder: Path) -> list[str]:
        return [self._mrr_plot(summary, folder), self._rank_heatmap(records, folder)]

    @staticmethod
    def _mrr_plot(summary: dict, folder: Path) -> str:
        """MRR per relation and bin with 95% intervals; a bin with n < 10 is labelled, not drawn as 0."""
        plt = plots.pyplot()
        fig, ax = plt.subplots(figsize=(7, 4))
        width = 0.25
        for i, b in enumerate(BINS):
            x = np.arange(len(RELATIONS)) + plots.bar_offset(i, len(BINS), width)
            cells = [summary["metrics"][rel][b] for rel in RELATIONS]
            shown = [j for j, c in enumerate(cells) if "mrr" in c]
            err = plots.error_bars([cells[j]["mrr"] for j in shown], [cells[j]["mrr_ci"] for j in shown]) if shown else None
            ax.bar(x[shown], [cells[j]["mrr"] for j in shown], width, yerr=err, capsize=2, label=b, color=f"C{i}")
            for j in shown:
                ax.text(x[j], cells[j]["mrr_ci"][1] + 0.005, f"n={cells[j]['n']}", ha="center", va="bottom", fontsize=6)
            for j, c in enumerate(cells):
                if "mrr" not in c and c["n"]:
                    ax.text(x[j], 0.005, "n<10", rotation=90, ha="center", va="bottom", fontsize=7, color=f"C{i}")
        ax.set_xticks(np.arange(len(RELATIONS)), [SHORT[r] for r in RELATIONS])
        ax.set_xlim(-0.6, len(RELATIONS) - 0.4)
        ax.margins(y=0.12)
        ax.set_ylabel("MRR (95% bootstrap interval)")
        ax.set_title(f"WNLaMPro MRR by keyword frequency: {summary['model']['name']}")
        ax.legend()
        return plots.save(fig, folder, "mrr_by_bin.png")

    @staticmethod
    def _rank_heatmap(records: list[dict], folder: Path) -> str:
        """Figure 3: COHYPONYM+ share of entries with rank in (2^(i-1), 2^i] per keyword-count column
        (2^(j-1), 2^j], columns normalised; neighbouring columns with fewer than 10 entries are merged (a
        sample of a few hundred entries spreads over 15 columns), one still short is marked n<10."""
        plt = plots.pyplot()
        grid, col_labels = merge_columns(*rank_count_grid([r for r in records if r["relation"] == "cohyponym"]), MIN_ENTRIES)
        n_rows, n_cols = grid.shape
        totals = grid.sum(0)
        norm = np.where(totals >= MIN_ENTRIES, grid / np.maximum(totals, 1), np.nan)
        fig, ax = plt.subplots(figsize=(max(6, 0.45 * n_cols + 2), 4.5))
        im = ax.imshow(norm, cmap="viridis", vmin=0, vmax=1, aspect="auto", origin="lower")
        ax.set_xticks(range(n_cols), [f"{c}\nn={int(t)}" for c, t in zip(col_labels, totals)], fontsize=7)
        row_labels = [f"{min(2 ** i, TOP)}" for i in range(n_rows - 1)] + [f">{TOP}"]  # the last row in the cap ends at 100
        ax.set_yticks(range(n_rows), row_labels, fontsize=7)
        for j in np.flatnonzero((totals > 0) & (totals < MIN_ENTRIES)):
            ax.text(j, n_rows / 2, "n<10", rotation=90, ha="center", va="center", fontsize=7)
        ax.set_xlabel("keyword count per billion tokens (label: upper end of (2^(j-1), 2^j]; 0 = below the list)", fontsize=8)
        ax.set_ylabel("rank of the best target, (2^(i-1), 2^i]", fontsize=8)
        ax.set_title(f"COHYPONYM+: rank vs keyword count (Figure 3), {int(totals.sum())} entries")
        fig.colorbar(im, ax=ax, label="share of column")
        return plots.save(fig, folder, "cohyponym_rank_heatmap.png")


def rank_count_grid(records: list[dict]) -> tuple[np.ndarray, list[str]]:
    """Entries per (rank row, keyword-count column) with the paper's power-of-two bins: row i holds
    ranks in (2^(i-1), 2^i], the last row ranks past the top 100; column "0" holds count 0, column
    "2^j" counts in (2^(j-1), 2^j] (counts <= 1 in "2^0"); empty leading columns are dropped."""
    count_bin = [0 if r["keyword_count"] <= 0 else max(0, math.ceil(math.log2(r["keyword_count"]))) + 1 for r in records]
    rank_bin = [math.ceil(math.log2(r["rank"])) if r["rank"] else math.ceil(math.log2(TOP)) + 1 for r in records]
    n_cols, n_rows = max(count_bin, default=0) + 1, math.ceil(math.log2(TOP)) + 2
    grid = np.zeros((n_rows, n_cols))
    np.add.at(grid, (rank_bin, count_bin), 1)
    labels = ["0"] + [f"2^{j - 1}" for j in range(1, n_cols)]
    first = min((j for j in np.flatnonzero(grid.sum(0)) if j > 0), default=n_cols)
    keep = [0] * bool(grid[:, 0].sum()) + list(range(first, n_cols)) or [0]
    return grid[:, keep], [labels[j] for j in keep]


def _rare_bin_note(summaries: list[dict]) -> list[str]:
    """What "rare" means for the data at hand: with wordfreq (no corpus), a word below its list's floor that
    another source attests, count 0; with corpus counts, seen 1-9 times per billion tokens as the paper."""
    if any("|freq:wordfreq" in s["signature"] for s in summaries):
        return ["Rare here: a word wordfreq does not list (its floor is near 10 per billion) that WordNet's text or the",
                "word list attests, keyword count 0; not the paper's 'seen 1-9 times in ~1B words' (corpus counts give that)."]
    return []


def merge_columns(grid: np.ndarray, labels: list[str], min_n: int) -> tuple[np.ndarray, list[str]]:
    """Neighbouring count columns merged left to right until each holds ``min_n`` entries (a short rest joins the
    column before it); column "0" (below the list) stays apart; a merged column is labelled "2^a-2^b"."""
    if grid.size == 0:
        return grid, labels
    keep_zero = labels[:1] == ["0"]
    groups: list[list[int]] = [[0]] if keep_zero else []
    current: list[int] = []
    for j in range(1 if keep_zero else 0, len(labels)):
        current.append(j)
        if grid[:, current].sum() >= min_n:
            groups.append(current)
            current = []
    if current:
        if len(groups) > int(keep_zero):
            groups[-1] += current
        else:
            groups.append(current)
    merged = np.stack([grid[:, g].sum(1) for g in groups], axis=1)
    return merged, [labels[g[0]] if len(g) == 1 else f"{labels[g[0]]}-{labels[g[-1]]}" for g in groups]


def _cell(c: dict) -> str:
    if "mrr" not in c:
        return f"n<10 ({c['n']})" if c["n"] else "-"
    lo, hi = c["mrr_ci"]
    return f"{c['mrr']:.3f} [{lo:.3f}, {hi:.3f}] ({c['n']})"


def _versus(test: dict | None) -> str:
    return "-" if test is None else f"{test['difference']:+.3f} (p={test['p']:.3g})"


def _fmt(value) -> str:
    return "-" if value is None else f"{value:.3f}"

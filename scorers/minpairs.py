"""Contrastive minimal-pair scorer (Vamvas & Sennrich 2021, DistilLingEval protocol).

A pair is scored by the model's log-probability of each German variant given the English source:
the mean over target tokens including EOS (fairseq's length normalization; ``reduce=sum`` as option).
Accuracy is the share of pairs with s(correct) >= s(incorrect) (ties correct, as DistilLingEval;
``strict=true`` is LingEval97's >). The distributional discrepancy of a set is the mean over items of
max(0, s(beam translation) - max(s(correct), s(incorrect))): how much more probable the model's own
translation is than either variant. Causal models are scored through a translation prompt.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from . import plots
from .base import Scorer
from .translate import DEFAULT_PROMPT, check_prompt, translate

REFERENCE_TYPES = ("human", "mt")


@dataclass
class Options:
    reduce: str = "mean"  # mean (length-normalized, fairseq) or sum of target token log-probs, EOS included
    strict: bool = False  # LingEval97: a tie counts as an error
    discrepancy: bool = True  # translate every source (beam search) for the distributional discrepancy
    beam: int = 5
    max_new_tokens: int = 128
    prompt: str = DEFAULT_PROMPT  # causal models: the translation prompt; the target follows after a space
    end: str = "\n"  # causal models: scored after the target, where a seq2seq model scores EOS


class MinPairsScorer(Scorer):
    name = "minpairs"
    families = ("seq2seq", "causal")
    chunk_size = 256
    Options = Options

    def __init__(self, **options):
        super().__init__(**options)
        from wordbench.builders.errors import ConfigError

        if self.opts.reduce not in ("mean", "sum"):
            raise ConfigError(f"minpairs: reduce must be mean or sum, not '{self.opts.reduce}'")
        if self.opts.beam < 1:
            raise ConfigError("minpairs: beam must be at least 1")
        # Typed on a command line, a newline arrives as the two characters \n.
        self.opts.prompt, self.opts.end = check_prompt(self.opts.prompt), self.opts.end.replace("\\n", "\n")
        self._translations: dict[str, str] = {}

    def stratum(self, row: dict) -> object:
        return row["phenomenon"], row["reference_type"]

    def _scores(self, model, pairs: list[tuple[str, str]]) -> dict[tuple[str, str], float]:
        """Score each distinct (source, target) once; a seq2seq model encodes each source once."""
        unique = list(dict.fromkeys(pairs))
        if model.family == "seq2seq":
            values = model.conditional_logprobs([s for s, _ in unique], [t for _, t in unique], self.opts.reduce)
        else:
            scored = model.sequence_logprobs([(self.opts.prompt.format(source=s), " " + t + self.opts.end) for s, t in unique])
            values = [float(np.mean(ts.logprobs)) if self.opts.reduce == "mean" else ts.total for ts in scored]
        return dict(zip(unique, values))

    def score(self, model, items: list[dict]) -> list[dict]:
        pairs = [(it["source"], it[key]) for it in items for key in ("correct", "incorrect")]
        if self.opts.discrepancy:
            sources = list(dict.fromkeys(it["source"] for it in items))
            todo = [s for s in sources if s not in self._translations]
            if todo:
                out = translate(model, todo, self.opts.beam, self.opts.prompt, self.opts.max_new_tokens)
                self._translations.update(zip(todo, out))
            pairs += [(s, self._translations[s]) for s in sources]
        scores = self._scores(model, pairs)
        records = []
        for it in items:
            good, bad = scores[(it["source"], it["correct"])], scores[(it["source"], it["incorrect"])]
            rec = {"id": it["id"], "phenomenon": it["phenomenon"], "reference_type": it["reference_type"],
                   "score_correct": good, "score_incorrect": bad, "source": it["source"],
                   "correct": it["correct"], "incorrect": it["incorrect"]}
            if model.family != "seq2seq":  # the exact context the causal model was given
                rec["prompt"] = self.opts.prompt.format(source=it["source"])
            if self.opts.discrepancy:
                translation = self._translations[it["source"]]
                best = scores[(it["source"], translation)]
                rec.update(translation=translation, score_translation=best, discrepancy=max(0.0, best - max(good, bad)))
            records.append(rec)
        return records

    def correct(self, rec: dict) -> bool:
        return rec["score_correct"] > rec["score_incorrect"] if self.opts.strict else rec["score_correct"] >= rec["score_incorrect"]

    def _cell(self, recs: list[dict]) -> dict:
        out = {"n": len(recs), "accuracy": float(np.mean([self.correct(r) for r in recs])),
               "ties": int(sum(r["score_correct"] == r["score_incorrect"] for r in recs)),
               "mean_margin": float(np.mean([r["score_correct"] - r["score_incorrect"] for r in recs]))}
        if all("discrepancy" in r for r in recs):
            out["discrepancy"] = float(np.mean([r["discrepancy"] for r in recs]))
        return out

    def summarize(self, records: list[dict]) -> dict:
        groups: dict[str, dict[str, list[dict]]] = {}
        for r in records:
            groups.setdefault(r["reference_type"], {}).setdefault(r["phenomenon"], []).append(r)
        return {
            "by_phenomenon": {ref: {ph: self._cell(rs) for ph, rs in sorted(phs.items())} for ref, phs in sorted(groups.items())},
            "overall": {ref: self._cell([r for rs in phs.values() for r in rs]) for ref, phs in sorted(groups.items())},
            "comparison": "s(correct) > s(incorrect)" if self.opts.strict else "s(correct) >= s(incorrect) (ties correct)",
            "reduce": self.opts.reduce,
        }

    # --- report -------------------------------------------------------------------------------
    @staticmethod
    def _phenomena(summaries: list[dict]) -> list[str]:
        return sorted({ph for s in summaries for cells in s["metrics"]["by_phenomenon"].values() for ph in cells})

    @staticmethod
    def _value(summary: dict, ref: str, phenomenon: str | None, key: str) -> float | None:
        m = summary["metrics"]
        cell = m["overall"].get(ref) if phenomenon is None else m["by_phenomenon"].get(ref, {}).get(phenomenon)
        return None if cell is None else cell.get(key)

    def _table(self, summaries: list[dict], key: str, title: str, fmt: str, delta: bool) -> str:
        names = [s["model"]["name"] for s in summaries]
        cols = [f"{n} {ref}" for n in names for ref in REFERENCE_TYPES] + ([f"{n} Δ mt-human" for n in names] if delta else [])
        lines = [f"### {title}", "", "| phenomenon | " + " | ".join(cols) + " |", "|---" * (len(cols) + 1) + "|"]
        for ph in self._phenomena(summaries) + [None]:
            cells = []
            for s in summaries:
                cells += [self._value(s, ref, ph, key) for ref in REFERENCE_TYPES]
            if delta:
                for s in summaries:
                    h, m = self._value(s, "human", ph, key), self._value(s, "mt", ph, key)
                    cells.append(None if h is None or m is None else m - h)
            text = ["–" if v is None else format(v, fmt) for v in cells]
            label = ph or "**all (micro)**"
            lines.append(f"| {label} | " + " | ".join(text) + " |")
        return "\n".join(lines)

    def report(self, summaries: list[dict]) -> str:
        first = summaries[0]["metrics"]
        out = [f"## minpairs (Vamvas & Sennrich 2021): {', '.join(s['model']['name'] for s in summaries)}", "",
               f"Score: {first['reduce']} target log-prob incl. EOS; accuracy counts {first['comparison']}.", ""]
        counts = ["| reference | phenomenon | n |", "|---|---|---|"]
        for ref, cells in first["by_phenomenon"].items():
            counts += [f"| {ref} | {ph} | {c['n']} |" for ph, c in cells.items()]
        if any(self._value(s, ref, None, "discrepancy") is not None for s in summaries for ref in REFERENCE_TYPES):
            out += [self._table(summaries, "discrepancy", "Table 1: distributional discrepancy (lower: the variants are closer to the model's own translations)", ".3f", False), ""]
        out += [self._table(summaries, "accuracy", "Table 3: accuracy", ".3f", True), "", "### Items", "", *counts]
        for s in summaries:
            out += ["", f"signature: `{s['signature']}`"]
        return "\n".join(out) + "\n"

    def compare_plots(self, summaries: list[dict], folder: Path) -> list[str]:
        plt = plots.pyplot()
        phenomena = self._phenomena(summaries)
        if not phenomena:
            return []
        bars = [(s, ref) for s in summaries for ref in REFERENCE_TYPES if s["metrics"]["by_phenomenon"].get(ref)]
        fig, ax = plt.subplots(figsize=(max(6, 1.1 * len(phenomena)), 4))
        width = 0.8 / max(1, len(bars))
        x = np.arange(len(phenomena))
        for k, (s, ref) in enumerate(bars):
            vals = [self._value(s, ref, ph, "accuracy") for ph in phenomena]
            ax.bar(x + plots.bar_offset(k, len(bars), width), [np.nan if v is None else v for v in vals], width,
                   label=f"{s['model']['name']} {ref}", hatch="//" if ref == "mt" else None)
        ax.set_xticks(x, phenomena, rotation=30, ha="right")
        ax.set_ylabel("accuracy")
        ax.set_ylim(0, 1)
        ax.axhline(0.5, color="grey", lw=0.5, ls=":")
        ax.legend(fontsize=8)
        ax.set_title("Accuracy: human vs machine references")
        return [plots.save(fig, folder, "accuracy.png")]

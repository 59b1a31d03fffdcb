"""Contrastive minimal-pair scorer (Vamvas & Sennrich 2021, DistilLingEval protocol).

A pair is scored by the model's log-probability of each German variant given the English source:
the mean over target tokens including EOS (fairseq's length normalization; ``reduce=sum`` as option).
Accuracy is the share of pairs with s(correct) >= s(incorrect) (ties correct, as DistilLingEval;
``strict=true`` is LingEval97's >). The distributional discrepancy of a set is the mean over items of
max(0, s(beam translation) - max(s(correct), s(incorrect))): how much more probable the model's own
translation is than either variant. Causal models are scored through a translation prompt, by the sum
under faithful (the paper's Eq. 1).
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

import numpy as np

from wordbench.hashing import sha8
from wordbench.spec import Spec, opt, template_problem
from wordbench.text import as_code

from .pairs import PairsScorer, pair_cell, plot_accuracy
from .translate import DEFAULT_PROMPT, TRANSLATION_STOP, check_prompt, translate

REFERENCE_TYPES = ("human", "mt")
TABLE_1 = ["placeholder_ding", "hypercorrect_genitive", "polarity_affix_del", "clause_omission"]
TABLE_3 = ["np_agreement", "polarity_particle_kein_del", "polarity_particle_nicht_del", "subj_verb_agreement"]
SEED_SUFFIX = re.compile(r"[-_.]seed[-_]?\d+$", re.IGNORECASE)  # transformer-seed2: not "-s2", which may name a size


def data_label(summary: dict) -> str:
    """A short name of a run's data set: the folder or file name, a hub id, or the data signature's hash."""
    data = summary.get("data")
    if data and data != "default build":
        return Path(data).name or data
    return data or sha8(summary["signature"].split("|model:")[0])


@dataclass(frozen=True)
class Options(Spec):
    reduce: Literal["mean", "sum"] = opt("mean", "target score: mean (length-normalized, fairseq) or sum of token log-probs, EOS included")
    strict: bool = opt(False, "LingEval97: a tie counts as an error")
    discrepancy: bool = opt(True, "translate every source (beam search) for the distributional discrepancy")
    beam: int = opt(5, "beam size of those translations", ge=1)
    max_new_tokens: int = opt(256, "longest translation in model tokens (as the builder's mt_max_new_tokens)", ge=1, model_max="new_tokens")
    prompt: str = opt(DEFAULT_PROMPT, "causal models: the translation prompt with {source}; the target follows after a space",
                      check=lambda p: template_problem(p.replace("\\n", "\n")))
    end: str = opt("\n", "causal models: text scored after the target, where a seq2seq model scores EOS (a typed \\n is a newline)")


class MinPairsScorer(PairsScorer):
    name = "minpairs"
    group_key = "phenomenon"
    families = ("seq2seq", "causal")
    chunk_size = 256
    Options = Options

    def __init__(self, **options):
        super().__init__(**options)
        # Typed on a command line, a newline arrives as the two characters \n.
        self.prompt, self.end = check_prompt(self.options.prompt), self.options.end.replace("\\n", "\n")
        self._translations: dict[str, str] = {}

    def headline_value(self, record: dict) -> float | None:
        """A pair with a human reference (the headline is the accuracy on those)."""
        return float(self.correct(record)) if record["reference_type"] == "human" else None

    def stratum(self, row: dict) -> object:
        """Phenomenon x reference type (human or machine translation), as the paper's tables."""
        return row["phenomenon"], row["reference_type"]

    def model_texts(self, rows: tuple, family: str) -> list[tuple[str, str]]:
        """A causal model reads prompt, source and variant as one text; a seq2seq model the source and each variant."""
        if family == "seq2seq":
            return [(r["id"], text) for r in rows for text in (r["source"], r["correct"], r["incorrect"])]
        return [(r["id"], self.prompt.format(source=r["source"]) + " " + r[key] + self.end) for r in rows for key in ("correct", "incorrect")]

    def settings_for(self, family: str | None) -> dict[str, object]:
        """The discrepancy's translations decode as fairseq's beam search (``TRANSLATION_STOP``); the signature says
        so, since earlier runs did not (a causal model searched on, either family could end on its first token)."""
        if family in ("causal", "seq2seq") and self.options.discrepancy:
            return {**self.settings, "beam_stop": TRANSLATION_STOP}
        return self.settings

    def generation_units(self, items: list[dict]) -> int | None:
        """One translation per distinct source (none without the discrepancy)."""
        return len({it["source"] for it in items}) if self.options.discrepancy else 0

    def uses_option(self, key: str) -> bool:
        """The translation's beam and length only where the discrepancy translates."""
        return self.options.discrepancy or key not in ("beam", "max_new_tokens")

    def reduce_for(self, family: str) -> str:
        """mean or sum; faithful scores causal models by the sum (the paper's Eq. 1)."""
        return "sum" if self.faithful and family == "causal" else self.options.reduce

    def _scores(self, model, pairs: list[tuple[str, str]]) -> dict[tuple[str, str], float]:
        """Score each distinct (source, target) once; a seq2seq model encodes each source once."""
        unique = list(dict.fromkeys(pairs))
        reduce = self.reduce_for(model.family)
        if model.family == "seq2seq":
            values = model.conditional_logprobs([s for s, _ in unique], [t for _, t in unique], reduce)
        else:
            scored = model.sequence_logprobs([(self.prompt.format(source=s), " " + t + self.end) for s, t in unique])
            values = [float(np.mean(ts.logprobs)) if reduce == "mean" else ts.total for ts in scored]
        return dict(zip(unique, values))

    def score(self, model, items: list[dict]) -> list[dict]:
        pairs = [(it["source"], it[key]) for it in items for key in ("correct", "incorrect")]
        if self.options.discrepancy:
            sources = list(dict.fromkeys(it["source"] for it in items))
            todo = [s for s in sources if s not in self._translations]
            if todo:
                out = translate(model, todo, self.options.beam, self.prompt, self.options.max_new_tokens)
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
                rec["prompt"] = self.prompt.format(source=it["source"])
            if self.options.discrepancy:
                translation = self._translations[it["source"]]
                best = scores[(it["source"], translation)]
                distance = best - max(good, bad)  # NaN stays NaN (Python's max(0.0, nan) would say 0.0)
                rec.update(translation=translation, score_translation=best,
                           discrepancy=max(0.0, distance) if math.isfinite(distance) else math.nan)
            records.append(rec)
        return records

    def _cell(self, recs: list[dict]) -> dict:
        out = pair_cell(recs, self.correct)
        if all("discrepancy" in r for r in recs):
            # A NaN distance (a translation the model cannot score) is left out, as the authors' code does, and counted.
            values = [r["discrepancy"] for r in recs if math.isfinite(r["discrepancy"])]
            out["discrepancy"] = float(np.mean(values)) if values else None
            if len(values) < len(recs):
                out["discrepancy_nan"] = len(recs) - len(values)
        return out

    def summarize(self, records: list[dict]) -> dict:
        groups: dict[str, dict[str, list[dict]]] = {}
        for r in records:
            groups.setdefault(r["reference_type"], {}).setdefault(r["phenomenon"], []).append(r)
        return {
            "by_phenomenon": {ref: {ph: self._cell(rs) for ph, rs in sorted(phs.items())} for ref, phs in sorted(groups.items())},
            "overall": {ref: self._cell([r for rs in phs.values() for r in rs]) for ref, phs in sorted(groups.items())},
            "comparison": "s(correct) > s(incorrect)" if self.options.strict else "s(correct) >= s(incorrect) (ties correct)",
            "reduce": self.options.reduce + (" (sum for causal models: faithful)" if self.faithful and self.options.reduce != "sum" else ""),
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

    @staticmethod
    def _groups(summaries: list[dict]) -> dict[str, list[dict]]:
        """Runs by label: model + data set (the data set named when the runs differ in it); runs of one model
        trained with different seeds (a name ending in -seedN, _seedN or .seedN) share a label and are averaged."""
        data = {data_label(s) for s in summaries}
        out: dict[str, list[dict]] = {}
        for s in summaries:
            label = SEED_SUFFIX.sub("", s["model"]["name"])
            if len(data) > 1:
                label += f" · {data_label(s)}"
            out.setdefault(label, []).append(s)
        return out

    def _text(self, runs: list[dict], ref: str, phenomenon: str | None, key: str, fmt: str) -> str:
        values = [v for s in runs if (v := self._value(s, ref, phenomenon, key)) is not None]
        if not values:
            return "–"
        if len(values) == 1:
            return format(values[0], fmt) + (" (1 run)" if len(runs) > 1 else "")
        return f"{np.mean(values):{fmt}} ± {np.std(values, ddof=1):{fmt}}"

    def _table(self, groups: dict[str, list[dict]], phenomena: list[str], title: str) -> str:
        """The paper's table layout: a row per error type x reference type; discrepancy and accuracy per system."""
        labels = list(groups)
        discrepancy = any(self._value(s, ref, None, "discrepancy") is not None for runs in groups.values() for s in runs
                          for ref in REFERENCE_TYPES)
        cols = ([f"discrepancy: {g}" for g in labels] if discrepancy else []) + [f"accuracy: {g}" for g in labels]
        lines = [f"### {title}", "", "| error type | references | " + " | ".join(cols) + " |", "|---" * (len(cols) + 2) + "|"]
        for ph in phenomena:
            for ref in REFERENCE_TYPES:
                cells = ([self._text(groups[g], ref, ph, "discrepancy", ".3f") for g in labels] if discrepancy else []) + \
                    [self._text(groups[g], ref, ph, "accuracy", ".3f") for g in labels]
                if any(c != "–" for c in cells):
                    lines.append(f"| {ph or '**all (micro)**'} | {ref} | " + " | ".join(cells) + " |")
        return "\n".join(lines)

    def report(self, summaries: list[dict]) -> str:
        first = summaries[0]["metrics"]
        groups = self._groups(summaries)
        seeds = any(len(runs) > 1 for runs in groups.values())
        out = [f"## minpairs (Vamvas & Sennrich 2021): {', '.join(groups)}", "",
               f"Score: {first['reduce']} target log-prob incl. EOS; accuracy counts {first['comparison']}. Discrepancy: lower means "
               "the variants are closer to the model's own translations."
               + (" Cells with several runs (models trained with different seeds) are mean ± std (the paper: three seeds)." if seeds else ""), ""]
        present = self._phenomena(summaries)
        for title, table in (("Table 1 (paper): placeholder, hypercorrection, polarity affix deletion, clause omission", TABLE_1),
                             ("Table 3 (paper): the other four error types", TABLE_3),
                             ("Other error types", [p for p in present if p not in TABLE_1 + TABLE_3])):
            phenomena = [p for p in table if p in present]
            if phenomena:
                out += [self._table(groups, phenomena, title), ""]
        out += [self._table(groups, [None], "All error types"), ""]
        labels = [f"{g} ({len(runs)} runs)" if len(runs) > 1 else g for g, runs in groups.items()]
        counts = ["### Items", "", "| reference | phenomenon | " + " | ".join(f"n: {g}" for g in labels) + " |", "|---" * (len(labels) + 2) + "|"]
        for ref in REFERENCE_TYPES:
            for ph in present:
                ns = [self._text(runs, ref, ph, "n", "d") if len(runs) == 1 else
                      "/".join(str(self._value(s, ref, ph, "n") or 0) for s in runs) for runs in groups.values()]
                if any(n not in ("–", "0") for n in ns):
                    counts.append(f"| {ref} | {ph} | " + " | ".join(ns) + " |")
        out += counts
        for s in summaries:
            out += ["", f"signature ({s['model']['name']}, {data_label(s)}): {as_code(s['signature'])}"]
        return "\n".join(out) + "\n"

    def compare_plots(self, summaries: list[dict], folder: Path) -> list[str]:
        runs = [(s, ref) for s in summaries for ref in REFERENCE_TYPES if s["metrics"]["by_phenomenon"].get(ref)]
        bars = [(f"{s['model']['name']} {ref}", s["metrics"]["by_phenomenon"][ref], "//" if ref == "mt" else None) for s, ref in runs]
        title = "Accuracy per error type: " + " vs ".join(f"{r} references" for r in sorted({ref for _, ref in runs}))
        return plot_accuracy(bars, self._phenomena(summaries), title, folder)

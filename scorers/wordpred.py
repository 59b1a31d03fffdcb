"""Whole-word prediction scorer (Dudy & Bedrick 2020): top-1/top-10, type coverage, soft match, perplexity.

Every word after the first of a line is predicted from the words before it (Algorithm 1: greedy whole
word; Algorithm 2: a top-10 path of subtokens spelling the target). ``model.predict_words`` does this
for a batch of lines from one teacher-forced pass, continuing off-line paths from the KV cache
(seq2seq: one pass per word's left context with the infilling gap, ``models.seq2seq``).
The paper's algorithm as published (a full pass per prefix), the reference that perf/wordpred.py and
the tests compare against, is ``perf/reference.py:predict_words_naive`` (not part of the package).
"""

from __future__ import annotations

import dataclasses
import math
from pathlib import Path

import numpy as np

from . import plots
from wordbench.builders.sources.corpora import corpus_problem
from wordbench.spec import Spec, opt, parse_bool
from wordbench.text import as_code

from .base import RunContext, Scorer
from .stats import proportion_ci
from .models import ModelError
from .wholeword import GREEDY_DEPTH, SEARCH_DEPTH, SEED_SEARCH_DEPTH, TOP, WordPrediction, search_depth

BINS = ("high", "mid", "low")
SOFT_K = (3, 5, 10, 25, 50, 100)
MISS_PENALTY = 100.0  # the seed's -ln p for a word missed by top-1 and top-10 (--faithful perplexity)


@dataclasses.dataclass(frozen=True)
class Options(Spec):
    finetune: str | None = opt(None, "a train corpus spec: one pass of causal-LM fine-tuning before scoring (section 2.1; causal models)",
                               check=corpus_problem)
    finetune_epochs: float = opt(1.0, "passes over the finetune corpus", gt=0)


class WordPredScorer(Scorer):
    name = "wordpred"
    families = ("causal", "masked", "seq2seq")
    chunk_size = 32  # lines between two appends to records.jsonl
    Options = Options

    def __init__(self, dudy2020: bool | str | None = None, **options):
        if dudy2020 is not None:  # the option's former name; --faithful now selects the seed's definitions
            options["faithful"] = parse_bool("dudy2020", dudy2020) or options.get("faithful", False)
        super().__init__(**options)
        self.neighbours: dict[str, list[str]] = {}
        self.finetuned = False

    @property
    def settings(self) -> dict[str, object]:
        tune = {"finetune": self.options.finetune, "finetune_epochs": float(self.options.finetune_epochs)} if self.options.finetune else {}
        return {"top": TOP, "greedy_depth": GREEDY_DEPTH, "search_depth": self.search_depth,
                "first_step": "vocabulary" if self.faithful else "word-starts", "blank_paths": "once-per-depth", **tune}

    def check_family(self, family: str, model_name: str) -> None:
        """As every scorer's, and ``finetune`` takes a causal model only (asked before the weights load)."""
        super().check_family(family, model_name)
        if self.options.finetune and family != "causal":
            raise ModelError(f"the finetune option needs a causal model; {model_name} is {family}")

    def _finetune(self, model) -> None:
        """Once per run, before the first prediction: one pass of fine-tuning on the ``finetune`` corpus."""
        if self.options.finetune and not self.finetuned:
            from wordbench.builders.sources.corpora import iter_corpus_lines

            from .finetune import finetune_causal

            finetune_causal(model, iter_corpus_lines(self.options.finetune), epochs=float(self.options.finetune_epochs))
            self.finetuned = True

    @property
    def search_depth(self) -> int:
        return search_depth(self.faithful)

    def prepare(self, context: RunContext) -> None:
        """Read the word2vec neighbours of the ``types`` config (soft match)."""
        super().prepare(context)
        if "types" in context.data:
            types = context.data["types"]["test"]
            self.neighbours = {r["word"]: list(r["neighbours"]) for r in types}

    def stratum(self, row: dict) -> object:
        """A line is sampled in the stratum of its rarest binned word, so the low bin keeps events."""
        return next((b for b in reversed(BINS) if b in row["bins"]), None)

    def model_texts(self, rows: tuple, family: str) -> list[tuple[str, str]]:
        return [(r["id"], " ".join(r["words"])) for r in rows]

    def score(self, model, items: list[dict]) -> list[dict]:
        self._finetune(model)
        lines = [list(item["words"]) for item in items]
        events = [(n, i) for n, words in enumerate(lines) for i in range(1, len(words))]
        preds = iter(model.predict_words(lines, events, faithful=self.faithful))
        records = []
        for item, words in zip(items, lines):
            p: list[WordPrediction] = [next(preds) for _ in words[1:]]
            targets = words[1:]
            records.append(
                {
                    "id": item["id"],
                    "targets": targets,
                    "bins": list(item["bins"])[1:],
                    "pred": [x.greedy for x in p],
                    "hit1": [int(x.hit1) for x in p],
                    "hit10": [int(x.hit10) for x in p],
                    "greedy_lp": [round(x.greedy_lp, 5) for x in p],
                    "word_lp": [round(x.word_lp, 5) for x in p],
                    "path_lp": [None if x.path_lp is None else round(x.path_lp, 5) for x in p],
                    "tokens": [x.tokens for x in p],
                    "soft_rank": [None if x.hit1 else self._soft_rank(t, x.greedy) for t, x in zip(targets, p)],
                }
            )
        return records

    decision_name = "greedy word predictions of a line"

    def decision(self, record: dict) -> object:
        return tuple(record["pred"])

    def _soft_rank(self, target: str, predicted: str) -> int | None:
        """1-based rank of the predicted word among the target's word2vec neighbours (None if absent)."""
        try:
            return self.neighbours.get(target, []).index(predicted) + 1
        except ValueError:
            return None

    def summarize(self, records: list[dict]) -> dict:
        events = [(t, b, h1, h10, lp, glp, sr, plp) for r in records
                  for t, b, h1, h10, lp, glp, sr, plp in zip(r["targets"], r["bins"], r["hit1"], r["hit10"], r["word_lp"], r["greedy_lp"],
                                                            r["soft_rank"], r.get("path_lp") or [None] * len(r["targets"]))]
        n = len(events)
        if n == 0:
            return {"events": 0}
        pct = lambda a, b: round(100.0 * a / b, 2) if b else None  # noqa: E731
        type_bin = {t: b for t, b, *_ in events}
        covered1, covered10 = {t for t, _, h1, *_ in events if h1}, {t for t, _, _, h10, *_ in events if h10}
        binned = [t for t, b in type_bin.items() if b in BINS]
        t_den = [t for t in binned if type_bin[t] in ("high", "mid")] if self.faithful else binned
        # The seed (aggregate.py) counts hits on binned words only, over all events.
        counted = [e for e in events if e[1] in BINS] if self.faithful else events
        metrics = {
            "events": n,
            "top1": pct(sum(e[2] for e in counted), n),
            "top10": pct(sum(e[3] for e in counted), n),
            # 95% Wilson intervals, events taken as independent (in percent, like the rates)
            **{f"{k}_ci": [round(100 * v, 2) for v in proportion_ci(sum(e[i] for e in counted), n)] for k, i in (("top1", 2), ("top10", 3))},
            "T1": pct(sum(t in covered1 for t in binned), len(t_den)),
            "T10": pct(sum(t in covered10 for t in binned), len(t_den)),
            "binned_types": len(binned),
            # Targets longer than the top-10 search depth can be top-10 hits only through a top-1 hit.
            "events_beyond_search_depth": sum(t > self.search_depth for r in records for t in r["tokens"]),
        }
        if self.faithful:
            metrics["ppx"] = round(float(np.mean([_seed_cost(e[2], e[3], e[5], e[7]) for e in events])), 3)
            metrics["ppx_definition"] = ("the seed's: mean over events of -ln p of the top-1 word (boundary token included) or of the "
                                         "top-10 path, +100 when both miss; not exponentiated")
        else:
            metrics["ppx"] = round(math.exp(-float(np.mean([e[4] for e in events]))), 3)
            metrics["ppx_definition"] = "exp of the mean negative whole-word log-prob, word-boundary probability included"
        metrics["bins"] = {}
        for b in BINS:
            ev = [e for e in events if e[1] == b]
            types = [t for t in binned if type_bin[t] == b]
            metrics["bins"][b] = {
                "events": len(ev),
                "token_top1": pct(sum(e[2] for e in ev), len(ev)),
                "token_top10": pct(sum(e[3] for e in ev), len(ev)),
                "types": len(types),
                "type_top1": pct(sum(t in covered1 for t in types), len(types)),
                "type_top10": pct(sum(t in covered10 for t in types), len(types)),
            }
        metrics["soft"] = {}
        for k in SOFT_K:
            soft_hit = [e[2] or (e[6] is not None and e[6] <= k) for e in events]
            soft_types = {e[0] for e, h in zip(events, soft_hit) if h}
            metrics["soft"][str(k)] = {"top1": pct(sum(soft_hit), n), "T1": pct(sum(t in soft_types for t in binned), len(t_den))}
        metrics["soft_match_available"] = any(e[6] is not None for e in events) or bool(self.neighbours)
        return metrics

    def report(self, summaries: list[dict]) -> str:
        lines = ["## Whole-word prediction (Table 1)", "", "| model | top1 (top10) | 95% interval top1 / top10 | T1 (T10) | ppx | events |",
                 "|---|---|---|---|---|---|"]
        for s in summaries:
            m = s["metrics"]
            ci = " / ".join(f"[{_f(m[f'{k}_ci'][0])}, {_f(m[f'{k}_ci'][1])}]" if f"{k}_ci" in m else "-" for k in ("top1", "top10"))
            lines.append(f"| {s['model']['name']} | {_f(m.get('top1'))} ({_f(m.get('top10'))}) | {ci} | {_f(m.get('T1'))} ({_f(m.get('T10'))}) | "
                         f"{_f(m.get('ppx'))} | {m.get('events', 0)} |")
        if summaries:
            m0 = summaries[0]["metrics"]
            lines += ["", f"ppx: {m0.get('ppx_definition', '')}. Intervals: Wilson, events taken as independent. "
                      "T: % of binned target types predicted at least once. "
                      f"Targets over {SEARCH_DEPTH} subtokens ({SEED_SEARCH_DEPTH} with --faithful) (top-10 only through top-1): "
                      + ", ".join(f"{s['model']['name']} {s['metrics'].get('events_beyond_search_depth', 0)}" for s in summaries) + "."]
        lines += ["", "## Coverage by frequency bin (Figures 1-2)", "",
                  "| model | bin | events | token top1 | token top10 | types | type top1 | type top10 |", "|---|---|---|---|---|---|---|---|"]
        for s in summaries:
            for b in BINS:
                c = s["metrics"].get("bins", {}).get(b, {})
                lines.append(f"| {s['model']['name']} | {b} | {c.get('events', 0)} | {_f(c.get('token_top1'))} | {_f(c.get('token_top10'))} | "
                             f"{c.get('types', 0)} | {_f(c.get('type_top1'))} | {_f(c.get('type_top10'))} |")
        lines += ["", "## Soft match: a top-1 miss counts when the prediction is among the target's k nearest word2vec neighbours (Figure 3)", "",
                  "| model | " + " | ".join(f"k={k}" for k in SOFT_K) + " |", "|---|" + "---|" * len(SOFT_K)]
        for s in summaries:
            soft = s["metrics"].get("soft", {})
            lines.append(f"| {s['model']['name']} | " + " | ".join(f"{_f(soft.get(str(k), {}).get('top1'))} / {_f(soft.get(str(k), {}).get('T1'))}" for k in SOFT_K) + " |")
        lines += ["", "Cells: top1 / T1 with soft hits.", ""]
        lines += [as_code(s['signature']) for s in summaries]
        return "\n".join(lines) + "\n"

    def compare_plots(self, summaries: list[dict], folder: Path) -> list[str]:
        """Figures 1-3 of the paper, one bar group or curve per run."""
        plt = plots.pyplot()
        names = []
        width = 0.8 / max(1, len(summaries))
        for fname, key, title in (("type_coverage_by_bin.png", "type", "Type coverage by frequency bin (Figure 1)"),
                                  ("token_coverage_by_bin.png", "token", "Token coverage by frequency bin (Figure 2)")):
            fig, ax = plt.subplots(figsize=(7, 4))
            count = "types" if key == "type" else "events"  # n under each bin: types (Figure 1) or events (Figure 2)
            for i, s in enumerate(summaries):
                bins = s["metrics"].get("bins", {})
                for k in ("top1", "top10"):
                    values = np.array([bins.get(b, {}).get(f"{key}_{k}") or 0.0 for b in BINS])
                    ns = [bins.get(b, {}).get(count, 0) for b in BINS]
                    cis = [proportion_ci(round(v * n / 100), n) if n else (0.0, 0.0) for v, n in zip(values, ns)]
                    err = plots.error_bars(values, cis, 100)
                    ax.bar(np.arange(len(BINS)) + plots.bar_offset(i, len(summaries), width), values, width * (0.9 if k == "top10" else 0.5),
                           yerr=err, capsize=2, error_kw={"alpha": 0.6}, alpha=0.4 if k == "top10" else 1.0, color=f"C{i}",
                           label=f"{s['model']['name']} {k}")
            ns = [sorted({s["metrics"].get("bins", {}).get(b, {}).get(count, 0) for s in summaries}) for b in BINS]
            ax.set_xticks(np.arange(len(BINS)), [f"{b}\nn={'/'.join(map(str, n))}" for b, n in zip(BINS, ns)])
            ax.set_ylabel("% covered (95% Wilson interval)")
            ax.set_title(title)
            ax.legend(fontsize=7)
            names.append(plots.save(fig, folder, fname))
        # Figure 3 as in the paper: T1 bars (left axis) and top1 line (right axis) per k, @1 = exact match.
        fig, ax = plt.subplots(figsize=(7, 4))
        right = ax.twinx()
        labels = ["@1"] + [f"@{k}" for k in SOFT_K]
        x = np.arange(len(labels))
        for i, s in enumerate(summaries):
            m, soft = s["metrics"], s["metrics"].get("soft", {})
            t1 = [m.get("T1") or 0.0] + [soft.get(str(k), {}).get("T1") or 0.0 for k in SOFT_K]
            top1 = [m.get("top1") or 0.0] + [soft.get(str(k), {}).get("top1") or 0.0 for k in SOFT_K]
            ax.bar(x + plots.bar_offset(i, len(summaries), width), t1, width, color=f"C{i}", alpha=0.6, label=f"{s['model']['name']} T1")
            right.plot(x, top1, "o-", color=f"C{i}", label=f"{s['model']['name']} top1")
        ax.set_xticks(x, labels)
        ax.set_xlabel("exact match (@1) and soft match with k nearest word2vec neighbours")
        ax.set_ylabel("T1 (% types, bars)")
        right.set_ylabel("top1 (% events, line)")
        right.set_ylim(bottom=0)
        ax.set_title("Soft match (Figure 3)")
        handles = ax.get_legend_handles_labels()[0] + right.get_legend_handles_labels()[0]
        ax.legend(handles, [h.get_label() for h in handles], fontsize=7)
        names.append(plots.save(fig, folder, "soft_match.png"))
        return names


def _seed_cost(hit1, hit10, greedy_lp, path_lp) -> float:
    """The seed's per-event ppx term: -ln p of the top-1 word, else of the top-10 path, else 100."""
    if hit1:
        return -greedy_lp
    if hit10 and path_lp is not None:
        return -path_lp
    return MISS_PENALTY


def _f(value) -> str:
    return "-" if value is None else f"{value:.2f}"

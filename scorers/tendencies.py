"""Statistical tendencies of generated text (Meister & Cotterell 2021, "Language Model Evaluation Beyond Perplexity").

A causal model, a seq2seq model's decoder (prompts are its sources; no prompt = the sentinel or mask
alone) or the paper's trigram baseline (``baseline=trigram``) generates N samples per decoding
strategy, each a line (up to the most model tokens of a reference line, stopped at a newline or EOS);
or the user brings a file of samples. Each sample is preprocessed as the reference (XLM: Moses
tokens, lower-case, accents stripped) and the samples of one strategy are compared with the reference:
Zipf and Heaps fits, the NHPP KS distances per length, KS / TVD distances and per-document length /
stopword / symbol shares, with permutation tests (``stats.compare``). Equally sized samples of the
human ``train`` split give the spread of each statistic between human texts. The model's perplexity on
the reference lines gives Table 1.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

import numpy as np

from wordbench.errors import ConfigError, DataFormatError, warn
from wordbench.hashing import file_sha8, seeded_key
from wordbench.spec import Spec, opt, seed_opt
from wordbench.text import invisible_char
from wordbench.builders.sources.corpora import numbered_lines
from wordbench.builders.sources.normalize import Normalizer

from . import stats
from .base import RunContext, Scorer
from .models import ModelError, ModelInfo

CURVE_POINTS = 40
MIN_CURVE_DOCS = 5
PERPLEXITY = "__perplexity__"  # the strategy field of the Table 1 records (reference lines scored by the model)


PAPER_STRATEGIES = ("ancestral", "nucleus", "beam")  # the paper's Random, Nucleus and Beam; greedy is an option
BASELINES = ("trigram",)


Strategy = Literal["ancestral", "nucleus", "beam", "greedy"]


@dataclass(frozen=True)
class Options(Spec):
    strategies: tuple[Strategy, ...] = opt(PAPER_STRATEGIES, "decoding strategies to sample with (the paper: ancestral, nucleus, beam)", nonempty=True)
    n: int = opt(1000, "samples per strategy (the paper: 1M); --limit N caps it at N", ge=2)
    max_new_tokens: int | None = opt(None, "longest sample; none: the most model tokens (trigram: words) of a reference line, plus one for EOS",
                                     ge=1, model_max="new_tokens")
    stop_at_newline: bool = opt(True, "a sample is a line: a newline ends it as EOS does")
    top_p: float = opt(0.95, "nucleus mass (the paper's text does not state its value)", gt=0, le=1)
    beams: int = opt(5, "beam sampling width (the paper: 5)", ge=1)
    seed: int = seed_opt()
    prompts: str | None = opt(None, "a file with one prompt per line (default: unconditional, from BOS)")
    samples: str | None = opt(None, "score a file of samples (one per line, or jsonl with text[/strategy]) instead of a model")
    baseline: Literal["trigram"] | None = opt(None, "trigram: the paper's unsmoothed trigram model trained on the train split, instead of a model")
    perplexity: bool = opt(True, "Table 1: the model's perplexity on the reference lines")
    unfinished: Literal["keep", "drop"] = opt("keep", "keep or drop samples cut at max_new_tokens")
    n_resamples: int = opt(999, "permutations per test", ge=1)
    baseline_draws: int = opt(10, "human samples drawn from the train split per sample size", ge=1)
    bigrams: bool = opt(False, "type-token curves of bigrams as well")
    backend: Literal["hf", "vllm"] = opt("hf", "hf, or vllm (GPU, large n; ancestral, nucleus and greedy)")
    reference_size: Literal["sample", "all"] = opt(
        "sample", "compare with a seeded reference subsample of the sample's size (the paper: equal sizes), or all of it")

    def validate(self) -> None:
        if self.baseline and self.samples:
            raise ConfigError("tendencies: give baseline=trigram or --samples, not both")
        if self.backend == "vllm" and "beam" in self.strategies:
            raise ConfigError("tendencies: vLLM has no beam sampling: drop beam from strategies, or use backend=hf")


class TendenciesScorer(Scorer):
    limit_help = "a plain seeded sample of that many reference lines; it also caps n, the samples per strategy"
    name = "tendencies"
    families = ("causal", "seq2seq")
    chunk_size = 64
    Options = Options

    def __init__(self, **options):
        super().__init__(**options)
        o = self.options
        self.strategies = list(o.strategies)
        self.normalize = Normalizer()
        self.reference: list[str] = []  # whitespace-tokenized reference lines
        self.train: list[str] = []
        self._vllm = None
        self._greedy: dict = {}
        self._references: dict[int, stats.Sample] = {}  # reference subsamples by size (reference_size=sample)
        self._trigram = None
        self._max_new: int | None = None
        self._prompts: list[str] = []  # known once the items are (``work_items``)
        self._capped: int | None = None  # the derived sample length, capped at the model's positions

    @property
    def settings(self) -> dict[str, object]:
        o = self.options
        analysis = {"unfinished": o.unfinished, "reference_size": o.reference_size, "n_resamples": o.n_resamples, "baseline_draws": o.baseline_draws,
                    "bigrams": o.bigrams, "seed": o.seed}
        if o.samples:
            return {"samples": Path(o.samples).name, **analysis}
        n = o.n if self.limit is None else min(o.n, self.limit)  # the samples actually drawn: --limit caps n
        generation = {"strategies": ",".join(self.strategies), "n": n,
                      "max_new_tokens": o.max_new_tokens if o.max_new_tokens is not None else
                      "reference" if self._capped is None else f"reference<={self._capped}",
                      "stop_at_newline": o.stop_at_newline, "top_p": o.top_p, "beams": o.beams, "prompts": o.prompts or "none",
                      "seeding": "per-sample"}  # content_tag hashes the file
        if o.baseline:
            return {"baseline": o.baseline, **generation, **analysis}
        return {**generation, "backend": o.backend, "perplexity": o.perplexity, **analysis}

    # --- what is scored ---------------------------------------------------------------------------
    def check_family(self, family: str, model_name: str) -> None:
        """As every scorer's, and backend=vllm takes a causal model only (asked before the weights load)."""
        super().check_family(family, model_name)
        if self.options.backend == "vllm" and not self.options.baseline and family != "causal":
            raise ConfigError(f"tendencies: backend=vllm generates with causal models only; {model_name} is {family} (use backend=hf)")

    def check_model(self, model) -> None:
        """As every scorer's, and once the prompts are known (``work_items``), the longest prompt and the generation
        length within the model's positions: refused here, before the weights load, not an IndexError mid-generation."""
        super().check_model(model)
        positions = getattr(model, "max_length", None)
        if positions is None or not self._prompts or self.options.backend == "vllm":
            return
        longest = max(len(ids) for ids in model.tokenizer([p.rstrip() for p in self._prompts], add_special_tokens=False)["input_ids"])
        prompt = longest + 1 if model.family == "causal" else 1  # BOS + prompt; a seq2seq decoder starts from one token
        new = self.max_new_tokens(model)
        if prompt + new <= positions:
            return
        if self.options.max_new_tokens is None and positions > prompt:  # the derived length: capped, and the signature says so
            self._max_new = self._capped = positions - prompt
            warn(f"tendencies: the longest reference line + 1 is {new} tokens, but {model.info.name} takes {positions} positions "
                 f"with a prompt of {prompt}: samples are capped at {self._capped} tokens (max_new_tokens=reference<={self._capped})")
            return
        given = f"max_new_tokens={new}" if self.options.max_new_tokens is not None else f"the longest reference line + 1 ({new} tokens)"
        raise ModelError(f"tendencies: a prompt of {prompt} tokens plus {given} needs {prompt + new} positions, but "
                         f"{model.info.name} takes {positions}: give --option max_new_tokens=N with N <= {max(positions - prompt, 1)}"
                         + (" or shorter prompts" if self.options.prompts else ""))

    def run_info(self, model) -> ModelInfo:
        if self.options.samples:
            path = Path(self.options.samples)
            if not path.is_file():
                raise ConfigError(f"samples file {path} does not exist")
            return ModelInfo(path.name, f"sha256-{file_sha8(path)}", "samples", "n/a")
        if self.options.baseline:  # trained on the dataset's train split, which the data signature names
            return ModelInfo(self.options.baseline, "mle-unsmoothed", "ngram", "n/a")
        return super().run_info(model)

    def prepare(self, context: RunContext) -> None:
        super().prepare(context)
        splits = context.data.get("default", {})
        if "train" in splits:
            train = splits["train"]  # a Dataset read as a column (iterating one reads row by row), or a list of rows
            self.train = train.with_format("arrow")["text"].to_pylist() if hasattr(train, "with_format") else [r["text"] for r in train]
        if self.options.baseline and len(self.train) < 1:
            raise ConfigError("the trigram baseline is trained on the dataset's train split; this dataset has none")

    def work_items(self, rows: list[dict]) -> list[dict]:
        """The reference is the selected rows; the items are the samples to generate (or read), and with
        ``perplexity`` the reference lines to score (Table 1)."""
        self.reference = [r["text"] for r in rows]
        self._references = {}
        if len(self.reference) < 2:
            raise ConfigError(f"the reference has {len(self.reference)} document(s); the statistics need at least 2")
        if self.options.samples:
            return read_samples(Path(self.options.samples), self.invisible_text)
        prompts = ([line for _, line in _read_lines(Path(self.options.prompts), self.invisible_text, f"prompts {Path(self.options.prompts).name}")]
                   if self.options.prompts else [""])
        if not prompts:
            raise ConfigError(f"prompts file {self.options.prompts} has no prompt")
        self._prompts = prompts
        n = int(self.options.n) if self.limit is None else min(int(self.options.n), int(self.limit))
        items = [{"id": f"{s}-{i:07d}", "strategy": s, "prompt": prompts[i % len(prompts)]}
                 for s in self.strategies for i in range(max(n, 2))]
        if self.options.perplexity and not self.options.baseline:  # the unsmoothed trigram's perplexity diverges (the paper: not reported)
            items += [{"id": f"ppl-{r['id']}", "strategy": PERPLEXITY, "text": r["text"]} for r in rows]
        return items

    def score(self, model, items: list[dict]) -> list[dict]:
        if self.options.samples:
            return [self._record(it, it["text"], None, None) for it in items]
        if self.options.baseline and self._trigram is None:
            from .models.ngram import TrigramLM

            self._trigram = TrigramLM(self.train)
        model = self._trigram or model
        records = []
        for strategy in dict.fromkeys(it["strategy"] for it in items):
            group = [it for it in items if it["strategy"] == strategy]
            if strategy == PERPLEXITY:
                records += _perplexity_records(model, group)
                continue
            seeds = [int(seeded_key(self.options.seed, it["id"])[:8], 16) for it in group]  # one per sample: stable across reruns and batches
            prompts = [it["prompt"] for it in group]
            if strategy == "greedy":  # deterministic: each distinct prompt is decoded once (unconditional: one text)
                todo = [p for p in dict.fromkeys(prompts) if p not in self._greedy]
                if todo:
                    self._greedy.update(zip(todo, self._generate(model, todo, strategy, seeds[: len(todo)])))
                generations = [self._greedy[p] for p in prompts]
            else:
                generations = self._generate(model, prompts, strategy, seeds)
            records += [self._record(it, g.text, g.tokens, g.finished) for it, g in zip(group, generations)]
        return records

    def max_new_tokens(self, model) -> int:
        """The generation length: the option, else the most model tokens (trigram: words) of a reference line + 1 (EOS)."""
        if self.options.max_new_tokens is not None:
            return int(self.options.max_new_tokens)
        if self._max_new is None:
            if getattr(model, "family", None) == "ngram":
                longest = max(len(t.split()) for t in self.reference)
            else:
                longest = max(len(ids) for ids in model.tokenizer(self.reference, add_special_tokens=False)["input_ids"])
            self._max_new = longest + 1
        return self._max_new

    def _generate(self, model, prompts: list[str], strategy: str, seed: list[int]):
        o = self.options
        generate = model.generate
        if o.backend == "vllm" and not o.baseline:
            if model.family != "causal":
                raise ConfigError(f"tendencies: backend=vllm generates with causal models only; {model.info.name} is {model.family} (use backend=hf)")
            if self._vllm is None:
                from .models.vllm_backend import VLLMGenerator

                self._vllm = VLLMGenerator(model.info.extra.get("source", model.info.name), model.info.extra.get("revision"))
            generate = self._vllm.generate
        return generate(prompts, strategy, self.max_new_tokens(model), float(o.top_p), int(o.beams), seed,
                        stop_at_newline=bool(o.stop_at_newline))

    def _record(self, item: dict, text: str, tokens: int | None, finished: bool | None) -> dict:
        words = self.normalize(text)
        return {"id": item["id"], "strategy": item["strategy"], "prompt": item.get("prompt", ""), "text": text,
                "words": " ".join(words), "length": len(words), "model_tokens": tokens, "finished": finished}

    # --- statistics -------------------------------------------------------------------------------
    def summarize(self, records: list[dict]) -> dict:
        o = self.options
        zipf_norm = "zeta" if self.faithful else "truncated"  # the paper's Table 2 implies zeta-normalised Zipf laws
        reference = stats.Sample.from_texts(self.reference)
        ref_desc = stats.describe(reference, zipf_norm=zipf_norm)
        groups: dict[str, list[dict]] = {}
        for r in records:
            groups.setdefault(r["strategy"], []).append(r)
        table1 = _table1(groups.pop(PERPLEXITY, []))
        samples, skipped = {}, {}
        baselines: dict[int, dict] = {}
        for name, recs in groups.items():
            unfinished = sum(1 for r in recs if r["finished"] is False)
            kept = [r for r in recs if not (o.unfinished == "drop" and r["finished"] is False)]
            try:  # a degenerate sample (no words, one word type: no Zipf fit) is skipped with its reason, not a traceback
                sample = stats.Sample.from_texts(r["words"] for r in kept)
                size = int(sample.lengths.size)
                ref = self._reference_of_size(reference, size)
                result = stats.compare(sample, ref, tests=True, n_resamples=int(o.n_resamples), seed=int(o.seed), zipf_norm=zipf_norm)
            except ValueError as exc:
                skipped[name] = f"{len(recs)} samples, {len(kept)} kept: {exc}"
                continue
            result["reference_documents"] = int(ref.lengths.size)
            generated = any(r["finished"] is not None for r in recs)  # a samples file says nothing about EOS
            result.update(samples=len(recs), unfinished=unfinished / len(recs) if generated else None, kept=len(kept),
                          model_tokens_mean=_mean([r["model_tokens"] for r in recs]),
                          types_in_reference=_shared_types(sample, reference))
            if o.bigrams:
                result["heaps_ks_bigrams"], _ = stats.heaps_ks(sample, ref, order=2)
            result["curves"] = _curves(sample, o.bigrams)
            samples[name] = result
            if self.train and size not in baselines:
                baselines[size] = self._human_baseline(ref, size, zipf_norm)
        if not samples:
            raise DataFormatError("no strategy has enough samples to compare: " + "; ".join(f"{k}: {v}" for k, v in skipped.items()))
        return {"reference": {**ref_desc, "curves": _curves(reference, o.bigrams)}, "samples": samples, "skipped": skipped,
                "human": {str(k): v for k, v in baselines.items()}, "perplexity": table1}

    def _reference_of_size(self, reference: stats.Sample, size: int) -> stats.Sample:
        """The reference compared with a sample of ``size`` documents: a seeded subsample of that size by default,
        since the statistics (Zipf's alpha, rank KS, TVD) move with corpus size and the paper compares equal sizes."""
        if self.options.reference_size == "all" or size >= len(self.reference):
            return reference
        if size not in self._references:  # strategies of one size share it
            pick = np.sort(np.random.default_rng(self.options.seed).choice(len(self.reference), size=size, replace=False))
            self._references[size] = stats.Sample.from_texts(self.reference[i] for i in pick)
        return self._references[size]

    def _human_baseline(self, reference: stats.Sample, size: int, zipf_norm: str = "truncated") -> dict:
        """Mean and standard deviation of each distance over samples of ``size`` train documents (no tests)."""
        rng = np.random.default_rng(self.options.seed)
        draws = []
        # a train split no larger than the sample allows one draw only (all of it): no spread to report
        for _ in range(int(self.options.baseline_draws) if size < len(self.train) else 1):
            pick = rng.choice(len(self.train), size=min(size, len(self.train)), replace=False)
            try:
                draws.append(stats.compare(stats.Sample.from_texts(self.train[i] for i in pick), reference, tests=False, zipf_norm=zipf_norm))
            except ValueError:
                continue
        # a statistic a small draw cannot give (too few lines for a Heaps fit) is left out of the spread, not an error
        keys = [k for k in (draws[0] if draws else {}) if all(isinstance(d.get(k), float) for d in draws)]
        spread = {k: _mean_std([d[k] for d in draws]) for k in keys}
        return {"draws": len(draws), "size": min(size, len(self.train)),
                "mean": {k: m for k, (m, _) in spread.items()}, "std": {k: sd for k, (_, sd) in spread.items()}}

    # --- report -----------------------------------------------------------------------------------
    def report(self, summaries: list[dict]) -> str:
        from .tendencies_report import report

        return report(summaries)

    def compare_plots(self, summaries: list[dict], folder: Path) -> list[str]:
        from .tendencies_report import figures

        return figures(summaries, folder)


def _perplexity_records(model, items: list[dict]) -> list[dict]:
    """Log-probability of each reference line under the model (from BOS; EOS not scored), its model tokens and words.
    A seq2seq model has no unconditional sequence score here (its decoder is trained on a source): recorded as None."""
    if not hasattr(model, "sequence_logprobs"):
        return [{"id": it["id"], "strategy": PERPLEXITY, "logprob": None, "model_tokens": 0,
                 "length": len(it["text"].split()), "finished": None} for it in items]
    # A line longer than the model's positions (with BOS) is left out of Table 1 and counted, not truncated.
    fits = [model.max_length is None or len(model.encode(it["text"]).ids) <= model.max_length for it in items]
    scores = iter(model.sequence_logprobs([it["text"] for it, ok in zip(items, fits) if ok]))
    out = []
    for it, ok in zip(items, fits):
        rec = {"id": it["id"], "strategy": PERPLEXITY, "logprob": None, "model_tokens": 0, "length": len(it["text"].split()), "finished": None}
        if ok:
            s = next(scores)
            rec.update(logprob=float(sum(s.logprobs)), model_tokens=len(s.logprobs))
        else:
            rec["excluded"] = "longer_than_the_model"
        out.append(rec)
    return out


def _table1(records: list[dict]) -> dict | None:
    """Test-set perplexity (Table 1): per model token and per word (comparable across tokenizers); lines longer than
    the model's positions are left out and counted."""
    too_long = sum(r.get("excluded") == "longer_than_the_model" for r in records)
    records = [r for r in records if r["logprob"] is not None]
    if not records:
        return None
    logprob = sum(r["logprob"] for r in records)
    tokens, words = sum(r["model_tokens"] for r in records), sum(r["length"] for r in records)
    return {"lines": len(records), "lines_too_long": too_long, "model_tokens": tokens, "words": words, "logprob": logprob,
            "ppl_token": float(np.exp(-logprob / tokens)) if tokens else None,
            "ppl_word": float(np.exp(-logprob / words)) if words else None}


def _shared_types(sample: stats.Sample, reference: stats.Sample) -> float:
    """Share of the sample's word types that occur in the reference (Figure 2)."""
    return sum(w in reference.vocab for w in sample.vocab) / max(len(sample.vocab), 1)


def _mean(values) -> float | None:
    values = [v for v in values if v is not None]
    return float(np.mean(values)) if values else None


def _mean_std(values) -> tuple[float, float]:
    """Mean and sample standard deviation of the finite values (NaN where too few)."""
    v = np.array([x for x in values if np.isfinite(x)], dtype=np.float64)
    return (float(v.mean()) if v.size else float("nan")), (float(v.std(ddof=1)) if v.size > 1 else float("nan"))


def _curves(sample: stats.Sample, bigrams: bool) -> dict:
    """Compact curves for the figures: rank-frequency at log-spaced ranks, mean prefix types per length, quantiles."""
    freq = np.sort(sample.counts[sample.counts > 0])[::-1] / sample.counts.sum()
    ranks = stats.length_grid(freq.size, 60)
    grid = stats.length_grid(int(sample.lengths.max()), CURVE_POINTS)
    out = {"ranks": ranks.tolist(), "freq": freq[ranks - 1].tolist(), "lengths": grid.tolist()}
    for order in (1, 2) if bigrams else (1,):
        prefix = sample.prefix_types(grid, order)  # a mean over fewer than MIN_CURVE_DOCS documents is left out
        out[f"types{order}"] = [float(p.mean()) if p.size >= MIN_CURVE_DOCS else None for p in prefix]
    q = np.linspace(0, 1, 51)
    for name, values in stats.per_document(sample).items():
        out[f"q_{name}"] = np.quantile(values, q).tolist() if values.size else []
    return out


def _read_lines(path: Path, counts: dict | None = None, label: str = "") -> list[tuple[int, str]]:
    """(line number, line) of the non-empty lines of a UTF-8 text file; a line that is not UTF-8 is an error naming it.
    ``counts[label]`` gets the number of lines holding a character a model cannot see (the summary reports it)."""
    if not path.is_file():
        raise ConfigError(f"{path} does not exist")
    lines = [(lineno, line.rstrip("\r\n")) for lineno, line in numbered_lines(path) if line.strip()]
    if counts is not None:
        _count(counts, label, [line for _, line in lines])
    return lines


def _count(counts: dict, label: str, texts: list[str]) -> None:
    n = sum(invisible_char(t) is not None for t in texts)
    if n:
        counts[label] = {"lines": n}


def read_samples(path: Path, counts: dict | None = None) -> list[dict]:
    """Samples a user brings: one per non-empty line, or jsonl objects with ``text`` (and optionally ``strategy``).
    ``counts`` (the scorer's ``invisible_text``) gets the samples whose text holds a character a model cannot see;
    such a character in a strategy's name (which groups the samples) is an error naming the line."""
    items = []
    for n, (lineno, line) in enumerate(_read_lines(path)):
        strategy = "samples"
        if path.suffix == ".jsonl":
            try:
                obj = json.loads(line)
                text, strategy = obj["text"], obj.get("strategy", strategy)
            except (ValueError, KeyError, TypeError):
                raise DataFormatError(f"{path}:{lineno}: not a JSON object with a 'text' field") from None
            for key, value in (("text", text), ("strategy", strategy)):
                if not isinstance(value, str):
                    raise DataFormatError(f"{path}:{lineno}: '{key}' is {type(value).__name__}, not a string")
            found = invisible_char(strategy)
            if found:
                raise DataFormatError(f"{path}:{lineno}: the strategy {strategy!r} holds {found}, which would make it a "
                                      "group of its own: remove it")
        else:
            text = line
        items.append({"id": f"sample-{n:07d}", "strategy": strategy, "text": text})
    if len(items) < 2:
        raise DataFormatError(f"{path} holds {len(items)} sample(s); the statistics need at least 2 (one per line)")
    if counts is not None:
        _count(counts, f"samples {path.name}", [it["text"] for it in items])
    return items

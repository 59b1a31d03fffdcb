"""The cost of one submission: each benchmark's full profile, scored on a seeded fraction of its items and extrapolated.

Shared by ``perf/suite.py --profile full`` (the packaged SmolLM2 on this machine's CPU) and the GPU check's suite step
(``perf/gpu_check.py``: the 1B and 8B shapes). Per benchmark it counts what the model does while the fraction is
scored: forward tokens (tokens fed to the model; padding excluded where a row has a 2D mask, packed rows counted
whole), generated tokens (the samples' model tokens), search steps (whole-word path steps asked of the model), and
the wall time. The extrapolation is linear in the unit each part of the work grows with: what is spent generating
(translations, samples) in the scorer's ``generation_units`` (minpairs translates each distinct source once: 16,193
sources for 41,827 items), the rest in items: ``full_s = gen_s x full_gen / scored_gen + (s - gen_s) x full_items /
scored_items`` (the same for the counts); the fraction is a seeded stratified ``--limit`` of the benchmark's own
sampling rule.
"""

from __future__ import annotations

import contextlib
import math
import time
from pathlib import Path

import torch

EXTRAPOLATION = ("linear per unit of work: the time, forward tokens and passes spent generating (translations, samples) x "
                 "full_generations / scored_generations (the scorer's generation_units: minpairs translates each distinct "
                 "source once), the rest x full_items / scored_items; the scored items are the seeded stratified --limit "
                 "sample (seed 0) of the full profile's options. Where the sample holds fewer items per generated text than "
                 "the full set (minpairs: 1 against 2.59 items per source), the rest's per-text work (scoring each "
                 "translation) is scaled by items too, so that part is an upper bound")


def planned_units(name: str, dataset: dict, limit: int | None, options: dict) -> dict[str, int]:
    """What the benchmark's scorer does with ``options`` under ``limit`` (the runner's own selection): the items it
    scores and the texts it generates for them (``generations``: its ``generation_units``, else one per item)."""
    from wordbench.benchmarks.registry import get
    from wordbench.benchmarks.scoring import select
    from wordbench.scorers.base import RunContext

    scorer = get(name).scorer(**options)
    rows = select(dataset, "default", "test", limit, scorer=scorer)
    scorer.prepare(RunContext(data=dataset, rows=tuple(rows), limit=limit, faithful=False, paper=scorer.paper, config="default", split="test"))
    items = scorer.work_items(rows)
    generations = scorer.generation_units(items)
    return {"items": len(items), "generations": len(items) if generations is None else generations}


GENERATION_SHARE = {"seconds": "generation_seconds", "forward_tokens": "generation_forward_tokens",
                    "forward_passes": "generation_forward_passes", "generated_tokens": "generated_tokens"}


def extrapolate(measured: dict, scored: dict[str, int], full: dict[str, int]) -> dict:
    """The full profile's figures from ``measured`` (seconds and counts, with the generation's share of them from
    ``counting``): each part times its unit's ratio, full / scored (``planned_units``)."""
    per_item = full["items"] / max(scored["items"], 1)
    per_generation = full["generations"] / scored["generations"] if scored["generations"] else per_item
    out = {}
    for key in ("seconds", "forward_tokens", "forward_passes", "search_steps", "generated_tokens"):
        if key not in measured:
            continue
        generating = measured.get(GENERATION_SHARE[key], 0) if key in GENERATION_SHARE else 0
        value = generating * per_generation + (measured[key] - generating) * per_item
        out[key] = round(value, 1) if key == "seconds" else round(value)
    return out


def limit_for(name: str, dataset: dict, options: dict, fraction: float, least: int) -> tuple[int | None, int]:
    """(the --limit that scores about ``fraction`` of the rows, at least ``least``; None: all of them), and the row count."""
    from wordbench.benchmarks.registry import get
    from wordbench.benchmarks.scoring import select

    rows = len(select(dataset, "default", "test", None, scorer=get(name).scorer(**options)))
    limit = max(least, math.ceil(fraction * rows))
    return (None if limit >= rows else limit), rows


@contextlib.contextmanager
def counting(model):
    """While inside, ``counts`` holds the forward tokens and the whole-word search steps asked of ``model``."""
    from wordbench.scorers.models.base import LineSteps

    from wordbench.scorers.models.decode import Decoder

    counts = {"forward_tokens": 0, "forward_passes": 0, "search_steps": 0,
              "generation_seconds": 0.0, "generation_forward_tokens": 0, "generation_forward_passes": 0, "decodes": []}
    if getattr(model, "family", None) == "causal":
        model.continuous  # noqa: B018 - its probe decodes, before anything is counted
    generating = [0]  # depth of generate / translate calls (a causal translation generates)

    def fed(_module, args, kwargs):
        ids = kwargs.get("input_ids", args[0] if args else None)
        if ids is None:
            ids = kwargs.get("decoder_input_ids")
        if ids is None:
            return
        mask = kwargs.get("attention_mask")
        tokens = int(mask[:, -ids.shape[1] :].sum()) if mask is not None and mask.dim() == 2 and mask.shape[0] == ids.shape[0] else ids.numel()
        counts["forward_passes"] += 1
        counts["forward_tokens"] += tokens
        if generating[0]:
            counts["generation_forward_passes"] += 1
            counts["generation_forward_tokens"] += tokens

    def timed(method):
        def call(*args, **kwargs):
            if not generating[0] and model.device.type == "cuda":
                torch.cuda.synchronize()  # work queued before is not the generation's
            generating[0] += 1
            t0 = time.perf_counter()
            try:
                return method(*args, **kwargs)
            finally:
                generating[0] -= 1
                if not generating[0]:
                    if model.device.type == "cuda":
                        torch.cuda.synchronize()
                    counts["generation_seconds"] += time.perf_counter() - t0
        return call

    methods = [m for m in ("generate", "translate") if hasattr(model, m)]
    for m in methods:
        setattr(model, m, timed(getattr(model, m)))

    wrapped = []
    for cls in [LineSteps, *_subclasses(LineSteps)]:
        if "steps" in cls.__dict__:
            original = cls.__dict__["steps"]

            def steps(self, requests, _original=original):
                counts["search_steps"] += len(requests)
                return _original(self, requests)

            cls.steps = steps
            wrapped.append((cls, original))
    decoder_run = Decoder.run

    def decoded(self, prompts, seeds, request):
        """Each continuous decode: its prompts' lengths and end steps (``decode_plan``'s input) and its steps."""
        out = decoder_run(self, prompts, seeds, request)
        counts["decodes"].append({"strategy": request.strategy, "rows": request.rows, "max_new_tokens": request.max_new_tokens,
                                  "prompt_tokens": [len(p) for p in prompts], "ends": list(self.ends), **self.stats.as_dict()})
        return out

    Decoder.run = decoded
    handle = model.model.register_forward_pre_hook(fed, with_kwargs=True)
    try:
        yield counts
    finally:
        handle.remove()
        Decoder.run = decoder_run
        for m in methods:
            delattr(model, m)  # the class's own method again
        for cls, original in wrapped:
            cls.steps = original
        counts["generation_seconds"] = round(counts["generation_seconds"], 2)


def decoding_summary(decodes: list[dict]) -> dict:
    """The continuous decodes of a benchmark together: sequential passes (prefills and decode steps) and rows per step."""
    from wordbench.scorers.models.decode import Stats

    total = Stats()
    for d in decodes:
        total.add(Stats(d["decode_steps"], d["prefill_passes"], d["row_steps"], d["restarts"]))
    return total.as_dict() if decodes else {}


def _subclasses(cls) -> list[type]:
    out = []
    for sub in cls.__subclasses__():
        out += [sub, *_subclasses(sub)]
    return out


def generated_tokens(run) -> int:
    """Model tokens of the generated samples of a run folder (tendencies' records; 0 for the other benchmarks)."""
    return sum(r.get("model_tokens") or 0 for r in run.records() if r.get("strategy") not in (None, "__perplexity__"))


def measure(names: list[str], model, datasets: dict[str, dict], out: Path, fraction: float, least: int = 8,
            on_done=None) -> dict:
    """Score each benchmark's full profile on a seeded fraction of its items with the loaded ``model``; per benchmark
    the measured and the extrapolated figures. ``datasets``: name -> ``{config: {split: rows}}``."""
    from wordbench.benchmarks.registry import get
    from wordbench.benchmarks.suite import score_suite

    result = {}
    for name in names:
        bench = get(name)
        options = bench.profile("full").as_dict()["options"]
        try:
            bench.scorer(**options).check_model(model)
        except Exception as exc:  # noqa: BLE001 - a family the benchmark does not take: skipped with its reason
            result[name] = {"skipped": str(exc).splitlines()[0]}
            continue
        limit, rows = limit_for(name, datasets[name], options, fraction, least)
        full = planned_units(name, datasets[name], None, options)
        scored = planned_units(name, datasets[name], limit, options)
        with counting(model) as counts:
            if model.device.type == "cuda":
                torch.cuda.synchronize()
            t0 = time.perf_counter()
            suite = score_suite([name], model, "full", out, data=None, limit=limit, progress=False, precision_sample=0)
            if model.device.type == "cuda":
                torch.cuda.synchronize()
            seconds = time.perf_counter() - t0
        measured = {"items": scored["items"], "generations": scored["generations"], "rows": rows if limit is None else min(limit, rows),
                    "seconds": round(seconds, 2), **counts,
                    "generated_tokens": generated_tokens(suite.runs[name]) if name in suite.runs else 0,
                    "decoding": decoding_summary(counts["decodes"])}
        result[name] = {
            "limit": limit, "fraction": round(scored["items"] / max(full["items"], 1), 4), "full_items": full["items"],
            "full_generations": full["generations"], "full_rows": rows, "measured": measured,
            "full_estimate": extrapolate(measured, scored, full),
        }
        if on_done is not None:
            on_done(name, result[name])
    return result

"""The cost of one submission: each benchmark's full profile, scored on a seeded fraction of its items and extrapolated.

Shared by ``perf/suite.py --profile full`` (the packaged SmolLM2 on this machine's CPU) and the GPU check's suite step
(``perf/gpu_check.py``: the 1B and 8B shapes). Per benchmark it counts what the model does while the fraction is
scored: forward tokens (tokens fed to the model; padding excluded where a row has a 2D mask, packed rows counted
whole), generated tokens (the samples' model tokens), search steps (whole-word path steps asked of the model), and
the wall time. The extrapolation is linear in items: ``full_s = scored_s x full_items / scored_items`` (the same
for the counts); the fraction is a seeded stratified ``--limit`` of the benchmark's own sampling rule.
"""

from __future__ import annotations

import contextlib
import math
import time
from pathlib import Path

import torch

EXTRAPOLATION = ("linear in items: full = measured x full_items / scored_items, for wall time and every count; the scored "
                 "items are the seeded stratified --limit sample (seed 0) of the full profile's options")


def planned_items(name: str, dataset: dict, limit: int | None, options: dict) -> int:
    """How many items the benchmark's scorer scores with ``options`` under ``limit`` (the runner's own selection)."""
    from wordbench.benchmarks.registry import get
    from wordbench.benchmarks.scoring import select
    from wordbench.scorers.base import RunContext

    scorer = get(name).scorer(**options)
    rows = select(dataset, "default", "test", limit, scorer=scorer)
    scorer.prepare(RunContext(data=dataset, rows=tuple(rows), limit=limit, faithful=False, paper=scorer.paper, config="default", split="test"))
    return len(scorer.work_items(rows))


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

    counts = {"forward_tokens": 0, "forward_passes": 0, "search_steps": 0}

    def fed(_module, args, kwargs):
        ids = kwargs.get("input_ids", args[0] if args else None)
        if ids is None:
            ids = kwargs.get("decoder_input_ids")
        if ids is None:
            return
        mask = kwargs.get("attention_mask")
        counts["forward_passes"] += 1
        counts["forward_tokens"] += int(mask[:, -ids.shape[1] :].sum()) if mask is not None and mask.dim() == 2 and mask.shape[0] == ids.shape[0] else ids.numel()

    wrapped = []
    for cls in [LineSteps, *_subclasses(LineSteps)]:
        if "steps" in cls.__dict__:
            original = cls.__dict__["steps"]

            def steps(self, requests, _original=original):
                counts["search_steps"] += len(requests)
                return _original(self, requests)

            cls.steps = steps
            wrapped.append((cls, original))
    handle = model.model.register_forward_pre_hook(fed, with_kwargs=True)
    try:
        yield counts
    finally:
        handle.remove()
        for cls, original in wrapped:
            cls.steps = original


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
        full_items = planned_items(name, datasets[name], None, options)
        scored_items = planned_items(name, datasets[name], limit, options)
        with counting(model) as counts:
            if model.device.type == "cuda":
                torch.cuda.synchronize()
            t0 = time.perf_counter()
            suite = score_suite([name], model, "full", out, data=None, limit=limit, progress=False, precision_sample=0)
            if model.device.type == "cuda":
                torch.cuda.synchronize()
            seconds = time.perf_counter() - t0
        scale = full_items / max(scored_items, 1)
        measured = {"items": scored_items, "rows": rows if limit is None else min(limit, rows), "seconds": round(seconds, 2),
                    **counts, "generated_tokens": generated_tokens(suite.runs[name]) if name in suite.runs else 0}
        result[name] = {
            "limit": limit, "fraction": round(scored_items / max(full_items, 1), 4), "full_items": full_items, "full_rows": rows,
            "measured": measured,
            "full_estimate": {k: (round(v * scale, 1) if k == "seconds" else round(v * scale)) for k, v in measured.items()
                              if k not in ("items", "rows")},
        }
        if on_done is not None:
            on_done(name, result[name])
    return result

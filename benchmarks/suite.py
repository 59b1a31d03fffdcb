"""Several benchmarks for one model with one load of its weights: a run folder per benchmark, each resumable.

``wordbench score wnlampro,minpairs --model M`` (or ``all``) and the submission worker both come here. A benchmark
that does not take the model's family, or that has no default data and was given none, is skipped with its reason; the
others share the one loaded model."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path

from wordbench.errors import ConfigError
from wordbench.scorers.models import ModelError, ModelPlan

from .registry import REGISTRY, get
from .results import RunFolder
from .scoring import PRECISION_SAMPLE


def parse_names(spec: str) -> list[str]:
    """``all`` or comma-separated benchmark names, in the registry's order, each once; an unknown name is one line."""
    if spec.strip() == "all":
        return list(REGISTRY)
    names = [n.strip() for n in spec.split(",") if n.strip()]
    for name in names:
        get(name)
    if not names:
        raise ConfigError("no benchmark named: give NAME, NAME,NAME or all")
    return list(dict.fromkeys(names))


def suite_options(names: list[str], options: dict[str, str]) -> dict[str, dict[str, str]]:
    """``--option`` pairs of a suite: ``NAME.KEY=VALUE`` goes to benchmark NAME; a bare KEY is refused unless one
    benchmark is scored (which key of which benchmark would it be?)."""
    out: dict[str, dict[str, str]] = {name: {} for name in names}
    for key, value in options.items():
        bench, dot, rest = key.partition(".")
        if dot and bench in out:
            out[bench][rest] = value
        elif len(names) == 1:
            out[names[0]][key] = value
        else:
            raise ConfigError(f"--option {key}={value}: with several benchmarks, name the one it is for ({names[0]}.{key}={value})")
    return out


@dataclass
class SuiteResult:
    runs: dict[str, RunFolder] = field(default_factory=dict)
    skipped: dict[str, str] = field(default_factory=dict)  # benchmark -> why (a family it does not score, no data)
    seconds: dict[str, float] = field(default_factory=dict)  # benchmark -> wall time, the model's load included where it happened
    loads: int = 0
    load_seconds: float = 0.0


def score_suite(names: list[str], model, profile: str | None = None, out: Path = Path("runs"), data: dict[str, str] | None = None,
                options: dict[str, dict] | None = None, limit: int | None = None, split: str = "test", progress: bool = True,
                precision_sample: int = PRECISION_SAMPLE) -> SuiteResult:
    """Score ``model`` (a ``ModelPlan``, loaded once on the first benchmark that takes it, or a loaded model) on each
    of ``names``. ``profile`` (``full``, ``quick``) takes each benchmark's declared submission options and limit;
    ``options`` (per benchmark) and ``limit`` are added over it. ``data`` maps a benchmark to its data (default: its
    default build)."""
    from .runner import score

    result = SuiteResult()
    loaded: list = []

    def once(scorer):
        if not loaded:
            t0 = time.perf_counter()
            loaded.append(model.load() if isinstance(model, ModelPlan) else model)
            result.loads += isinstance(model, ModelPlan)
            result.load_seconds = round(time.perf_counter() - t0, 2)
        return loaded[0]

    for name in names:
        bench = get(name)
        chosen = bench.profile(profile).as_dict()
        opts = {**chosen["options"], **(options or {}).get(name, {})}
        if bench.needs_data and not (data or {}).get(name):
            result.skipped[name] = f"no default data: {bench.needs_data}"
            continue
        try:
            bench.scorer(**opts).check_model(model)  # the family, before any data or weights
        except ModelError as exc:
            result.skipped[name] = str(exc)
            continue
        t0 = time.perf_counter()
        result.runs[name] = score(name, once, (data or {}).get(name), split, limit or chosen["limit"], out, progress=progress,
                                  precision_sample=precision_sample, **opts)
        result.seconds[name] = round(time.perf_counter() - t0, 2)
    return result

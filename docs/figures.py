"""One figure per benchmark for the documentation, made by the project's own scorers and plotting code.

    python docs/figures.py            # writes docs/figures/<benchmark>.png (ignored by git); `make docs` runs it
    python docs/figures.py vast       # one benchmark's
    python docs/figures.py --missing  # only those docs/figures/ lacks

Each benchmark's default offline build (the wordbench cache keeps it: a second run reads it) is scored on a small
seeded sample by one of the offline models the demo uses: the packaged SmolLM2-135M-Instruct GGUF (causal) and the
packaged all-MiniLM-L6-v2 (an encoder, for paraphrase and VAST). The runs go to build/docs-runs/ (rerunning resumes
them); the scorer's own plot of each run is copied into docs/figures/. The samples are small so that the whole docs
step stays near a minute on two cores: the figures show what each plot looks like, not the paper's numbers.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "docs" / "figures"
RUNS = ROOT / "build" / "docs-runs"

MODELS = {"smollm2": "SmolLM2-135M-Instruct (GGUF)", "minilm": "all-MiniLM-L6-v2"}


def figures() -> dict:
    """benchmark -> its declared figure (``Benchmark.figure``), for every registered benchmark that has one."""
    from wordbench.benchmarks.registry import REGISTRY

    return {name: bench.figure for name, bench in REGISTRY.items() if bench.figure is not None}


def how(name: str) -> str:
    """How a figure is made, in words, with the equivalent command (the documentation page shows it)."""
    fig = figures()[name]
    sample = f"all the {fig.unit}" if fig.limit is None else f"a seeded, stratified sample of {fig.limit} {fig.unit}"
    build = "the default offline build" if not fig.overrides else "the offline build " + " ".join(f"`--set {o}`" for o in fig.overrides)
    flags = "".join(f" --option {k}={str(v).lower() if isinstance(v, bool) else v}" for k, v in fig.options)
    limit_flag = f" --limit {fig.limit}" if fig.limit else ""
    command = f"wordbench score {name} --model {fig.model.upper()}{limit_flag}{flags}"
    if fig.overrides:
        command = f"wordbench build {name} {' '.join(f'--set {o}' for o in fig.overrides)} --out data && {command} --data data"
    return f"the packaged {MODELS[fig.model]} on {sample} of {build}, as `{command}` would score it"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("names", nargs="*", help="benchmarks to draw (default: every benchmark that declares a figure)")
    ap.add_argument("--fresh", action="store_true", help="score again from nothing (remove build/docs-runs first)")
    ap.add_argument("--missing", action="store_true", help="draw only the figures docs/figures/ lacks")
    args = ap.parse_args(argv)
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("MPLBACKEND", "Agg")
    sys.path.insert(0, str(ROOT / "docs"))
    import hooks  # noqa: E402  (the same layout the site's tables and API pages read: this checkout's code)

    hooks.use_this_checkout()

    from wordbench.benchmarks.cli import packaged_minilm, packaged_smollm2
    from wordbench.benchmarks.hub import build
    from wordbench.benchmarks.runner import score
    from wordbench.scorers.models import load_model

    if args.fresh:
        shutil.rmtree(RUNS, ignore_errors=True)
    OUT.mkdir(parents=True, exist_ok=True)
    paths = {"smollm2": packaged_smollm2, "minilm": packaged_minilm}
    models = {}
    declared = figures()
    names = [n for n in args.names or declared if not (args.missing and (OUT / f"{n}.png").is_file())]
    for name in names:
        fig = declared[name]
        start = time.perf_counter()
        folder, _ = build(name, fig.overrides, progress=False)
        if fig.model not in models:
            models[fig.model] = load_model(str(paths[fig.model]()))
        run = score(name, models[fig.model], str(folder), limit=fig.limit, out=RUNS, progress=False, **dict(fig.options))
        shutil.copyfile(run.path / "plots" / fig.plot, OUT / f"{name}.png")
        print(f"docs/figures/{name}.png  ({time.perf_counter() - start:.0f} s; run {run.path.relative_to(ROOT)})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

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

# benchmark: (model, build overrides, score limit, scoring options, the run's plot copied to the page, what is scored)
FIGURES = {
    "wnlampro": ("smollm2", [], 100, {}, "mrr_by_bin.png", "test entries"),  # 10 per relation x bin: a bin is drawn from 10
    "wordpred": ("smollm2", [], 4, {}, "token_coverage_by_bin.png", "test lines"),
    "paraphrase": ("minilm", [], None, {}, "hit_rate.png", "triples"),
    "tendencies": ("smollm2", [], 16, {"strategies": "ancestral", "max_new_tokens": 24, "perplexity": False,
                                        "baseline_draws": 2, "n_resamples": 99}, "type_token.png", "reference lines"),
    "vast": ("minilm", ["settings=bleached", "union_lexica=none", "max_words=300"], None, {}, "layers.png", "words"),
    "minpairs": ("smollm2", [], 32, {"discrepancy": False}, "accuracy.png", "pairs"),
}
MODELS = {"smollm2": "SmolLM2-135M-Instruct (GGUF)", "minilm": "all-MiniLM-L6-v2"}


def how(name: str) -> str:
    """How a figure is made, in words, with the equivalent command (the documentation page shows it)."""
    kind, overrides, limit, options, _, unit = FIGURES[name]
    sample = f"all the {unit}" if limit is None else f"a seeded, stratified sample of {limit} {unit}"
    build = "the default offline build" if not overrides else "the offline build " + " ".join(f"`--set {o}`" for o in overrides)
    flags = "".join(f" --option {k}={str(v).lower() if isinstance(v, bool) else v}" for k, v in options.items())
    limit_flag = f" --limit {limit}" if limit else ""
    command = f"wordbench score {name} --model {kind.upper()}{limit_flag}{flags}"
    if overrides:
        command = f"wordbench build {name} {' '.join(f'--set {o}' for o in overrides)} --out data && {command} --data data"
    return f"the packaged {MODELS[kind]} on {sample} of {build}, as `{command}` would score it"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("names", nargs="*", default=list(FIGURES), help="benchmarks to draw (default: all six)")
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
    names = [n for n in args.names if not (args.missing and (OUT / f"{n}.png").is_file())]
    for name in names:
        kind, overrides, limit, options, plot, _ = FIGURES[name]
        start = time.perf_counter()
        folder, _ = build(name, overrides, progress=False)
        if kind not in models:
            models[kind] = load_model(str(paths[kind]()))
        run = score(name, models[kind], str(folder), limit=limit, out=RUNS, progress=False, **options)
        shutil.copyfile(run.path / "plots" / plot, OUT / f"{name}.png")
        print(f"docs/figures/{name}.png  ({time.perf_counter() - start:.0f} s; run {run.path.relative_to(ROOT)})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

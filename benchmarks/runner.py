"""Scoring a benchmark's data by name: resolve and check the data, then the shared loop (``scoring``); reports and
leaderboards of finished runs."""

from __future__ import annotations

from pathlib import Path

from wordbench.errors import ConfigError, warn
from wordbench.files import check_writable
from wordbench.text import as_markdown

from . import distributed
from .hub import load_data
from .registry import get
from .results import RunFolder, for_tables
from .schema import invisible_text_line
from .scoring import PRECISION_SAMPLE, precision_check, precision_line, score_dataset, select, stratified_sample  # noqa: F401 - re-exported

SPLITS = ("dev", "test", "all")


def score(name: str, model, data: str | None = None, split: str = "test", limit: int | None = None,
          out: Path = Path("runs"), config: str = "default", progress: bool = True, faithful: bool = False,
          precision_sample: int = PRECISION_SAMPLE, **options) -> RunFolder:
    """Score a model on a benchmark; returns the run folder (records, summary, report, plots).
    ``model`` is a loaded model, a ``ModelPlan`` (inspected, weights not read), or a function ``model(scorer)``
    returning either: it is called only after the data is resolved and checked and the items selected, and a
    plan's weights load only once the run is signed and its folder locked, so neither a data error nor a busy
    run folder waits for weights.
    ``faithful`` selects every behaviour of the paper and the authors' code (the ``--faithful`` switch).
    A model computing in bf16/fp16 has a seeded ``precision_sample`` of its items rescored in float32 once per
    run folder (``precision_check``; 0: never).
    Under torchrun / accelerate launch each rank scores its shard; rank 0 merges and writes the summary."""
    bench = get(name)
    w = distributed.world()
    distributed.init(w)
    scorer = bench.scorer(faithful=faithful, **options)
    check_writable(Path(out), "--out")  # before the data and the weights
    if not w.main:
        distributed.barrier(w)  # rank 0 builds the default data first: one build, no race on the cache
    data_sig, dataset = load_data(name, data, progress=progress and w.main, faithful=scorer.faithful)
    if w.main and invisible_text_line(getattr(dataset, "invisible_text", {})):
        warn(f"{data or 'default build'}: {invisible_text_line(dataset.invisible_text)} (counted in summary.json)")
    if w.main:
        distributed.barrier(w)
    return score_dataset(scorer, model, data_sig, dataset, data or "default build", split, limit, out, config, progress, precision_sample)


def report(run_paths: list[Path], plots: Path | None = None) -> str:
    """Several runs side by side (grouped by benchmark); with ``plots``, the comparison figures go there.
    Unfinished runs are skipped with a warning; settings that differ between runs are listed under the tables."""
    runs = [RunFolder(p) for p in run_paths]
    for run in runs:
        if not run.finished():
            warn(f"{run.path}: skipped, the run is unfinished (rerun its score command to finish it)")
    summaries = [run.summary() for run in runs if run.finished()]
    if not summaries:
        raise ConfigError("no finished run to report")
    out = []
    for name in dict.fromkeys(s["benchmark"] for s in summaries):
        group = for_tables([s for s in summaries if s["benchmark"] == name])  # a model's name is table text, not markup
        scorer = get(name).scorer(**group[0].get("options", {}))
        text = scorer.report(group) + differing_settings(group)
        if plots is not None:
            plots.mkdir(parents=True, exist_ok=True)
            figures = scorer.compare_plots(group, plots)
            if not figures:
                warn(f"{name}: no comparison figure for these runs (the run folders hold each run's own plots/)")
            text += "\n" + "".join(f"![{p}]({(plots / p).resolve()})\n" for p in figures)
        out.append(text)
    return "\n\n".join(out)


def differing_settings(summaries: list[dict]) -> str:
    """A table of the signature settings that differ between runs (data, split, limit, options), so runs
    scored differently are never read as one comparison; empty when only the models differ."""
    model_keys = ("model", "fam", "dtype")
    parsed = []
    for s in summaries:
        parts = dict(part.split(":", 1) for part in s["signature"].split("|")[1:] if ":" in part)
        parsed.append({k: v for k, v in parts.items() if k not in model_keys})
    parsed = [{"data": s["signature"].split("|", 1)[0], **p} for s, p in zip(summaries, parsed)]
    keys = [k for k in dict.fromkeys(k for p in parsed for k in p) if len({p.get(k) for p in parsed}) > 1]
    if not keys:
        return ""
    lines = ["", "**These runs differ in settings other than the model:**", "",
             "| run | " + " | ".join(keys) + " |", "|---|" + "---|" * len(keys)]
    for s, p in zip(summaries, parsed):
        lines.append(f"| {s['model']['name']} | " + " | ".join(str(p.get(k, "")) for k in keys) + " |")
    return "\n".join(lines) + "\n"


def leaderboard(runs: list[RunFolder]) -> str:
    """Several models' runs of one call: a table of the runs, then the benchmark's tables side by side."""
    rows = ["| model | family | dtype | n | items/s | run |", "|---|---|---|---|---|---|"]
    summaries = [run.summary() for run in runs]
    for run, s in zip(runs, summaries):
        m = s["model"]
        rows.append(f"| {as_markdown(m['name'])} | {m['family']} | {m['dtype']} | {s['n']} | {s.get('items_per_s') or '–'} | `{run.path}` |")
    return f"# Leaderboard: {summaries[0]['benchmark']}\n\n" + "\n".join(rows) + "\n\n" + report([r.path for r in runs])

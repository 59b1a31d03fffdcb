"""The scoring loop shared by every benchmark: select items, resume, score in chunks, summarize, report."""

from __future__ import annotations

import time
from pathlib import Path

from wordbench.builders.errors import ConfigError
from wordbench.builders.sources.base import seeded_key

from .hub import load_data
from .registry import get
from .results import RunFolder
from .signature import library_versions, run_signature

SPLITS = ("dev", "test", "all")


def select(data: dict, config: str, split: str, limit: int | None, seed: int = 0, scorer=None) -> list[dict]:
    """Items of one config and split; ``limit`` keeps a seeded sample stratified by ``scorer.stratum``."""
    if config not in data:
        raise ConfigError(f"no dataset config '{config}'; available: {', '.join(data)}")
    dsd = data[config]
    if split == "all":
        rows = [r for s in sorted(dsd) for r in dsd[s]]
    elif split in dsd:
        rows = list(dsd[split])
    else:
        raise ConfigError(f"no split '{split}'; available: {', '.join(list(dsd) + ['all'])}")
    if limit is None:
        return rows
    if limit < 1:
        raise ConfigError(f"limit must be at least 1, got {limit}")
    return stratified_sample(rows, limit, seed, scorer)


def stratified_sample(rows: list[dict], limit: int, seed: int = 0, scorer=None) -> list[dict]:
    """A seeded sample of ``limit`` units (``scorer.sample_unit``), shared out over the strata as evenly as
    their sizes allow, so that as many strata as possible reach a useful n; rows ``scorer.always_keep``
    are always in it and do not count. Rows keep the dataset's order; the same seed gives the same sample."""
    stratum = scorer.stratum if scorer is not None else (lambda row: None)
    unit = scorer.sample_unit if scorer is not None else (lambda row: row["id"])
    keep = scorer.always_keep if scorer is not None else (lambda row: False)
    strata: dict[str, dict[str, None]] = {}  # stratum -> its units in dataset order
    for row in rows:
        if not keep(row):
            strata.setdefault(str(stratum(row)), {})[unit(row)] = None
    chosen: set[str] = set()
    left = limit
    # Water-filling: the smallest strata are taken whole, the rest share what is left equally.
    for n, name in enumerate(sorted(strata, key=lambda k: (len(strata[k]), k))):
        units = sorted(strata[name], key=lambda u: seeded_key(seed, u))
        take = min(len(units), left // (len(strata) - n))
        chosen.update(units[:take])
        left -= take
    return [row for row in rows if keep(row) or unit(row) in chosen]


def score(name: str, model, data: str | None = None, split: str = "test", limit: int | None = None,
          out: Path = Path("runs"), config: str = "default", progress: bool = True, faithful: bool = False,
          **options) -> RunFolder:
    """Score a loaded model on a benchmark; returns the run folder (records, summary, report, plots).
    ``faithful`` selects every behaviour of the paper and the authors' code (the ``--faithful`` switch)."""
    from tqdm.auto import tqdm

    bench = get(name)
    scorer = bench.scorer(**{**options, **({"faithful": True} if faithful else {})})
    scorer.limit = limit  # a scorer that generates its items (tendencies) caps them by it too
    info = scorer.run_info(model)
    data_sig, dataset = load_data(name, data, progress=progress, faithful=scorer.faithful)
    scorer.prepare(dataset)
    items = scorer.work_items(select(dataset, config, split, limit, scorer=scorer))
    sample = {"limit": "all"} if limit is None else {"limit": limit, "sample": "stratified"}
    settings = {"config": config, "split": split, **sample, **scorer.signature_settings()}
    signature = run_signature(data_sig, info.tag, settings)
    run = RunFolder.for_run(out, name, info.name, signature)

    done = run.done_ids()
    todo = [it for it in items if it["id"] not in done]
    start = time.perf_counter()
    with tqdm(total=len(items), initial=len(items) - len(todo), desc=f"{name} {info.name}", disable=not progress) as bar:
        for i in range(0, len(todo), scorer.chunk_size):
            chunk = todo[i : i + scorer.chunk_size]
            run.append(scorer.score(model, chunk))
            bar.update(len(chunk))
    elapsed = time.perf_counter() - start

    wanted = {it["id"] for it in items}
    records = [r for r in run.records() if r["id"] in wanted]
    summary = {
        "benchmark": name,
        "signature": signature,
        "model": {"name": info.name, "version": info.version, "family": info.family, "dtype": info.dtype},
        "split": split,
        "n": len(records),
        "options": scorer.options,
        "metrics": scorer.summarize(records),
        "versions": library_versions(),
        "device": str(model.device) if model is not None else None,
        "batch_size": model.batch_size if model is not None else None,
        "wall_s": round(elapsed, 2),
        "items_scored_now": len(todo),
        "items_per_s": round(len(todo) / elapsed, 2) if todo and elapsed > 0 else None,
    }
    run.write_json("summary.json", summary)
    plots = scorer.plots(records, summary, run.plots_dir)
    report = scorer.report([summary]) + "\n" + "".join(f"![{p}](plots/{p})\n" for p in plots)
    run.write_text("report.md", report)
    return run


def report(run_paths: list[Path], plots: Path | None = None) -> str:
    """Several runs side by side (grouped by benchmark); with ``plots``, the comparison figures go there."""
    summaries = [RunFolder(p).summary() for p in run_paths]
    out = []
    for name in dict.fromkeys(s["benchmark"] for s in summaries):
        group = [s for s in summaries if s["benchmark"] == name]
        scorer = get(name).scorer(**group[0].get("options", {}))
        text = scorer.report(group)
        if plots is not None:
            plots.mkdir(parents=True, exist_ok=True)
            text += "\n" + "".join(f"![{p}]({(plots / p).resolve()})\n" for p in scorer.compare_plots(group, plots))
        out.append(text)
    return "\n\n".join(out)

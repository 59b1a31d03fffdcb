"""The scoring loop over loaded data, shared by every benchmark: select items, resume, score in chunks, summarize,
report. It reads no data files (``runner.score`` resolves and checks them), so scoring rows already in memory needs no
``datasets``."""

from __future__ import annotations

import json
import time
from pathlib import Path

from wordbench import stopping
from wordbench.errors import ConfigError, warn
from wordbench.hashing import seeded_key

from wordbench.scorers.base import RunContext
from wordbench.scorers.models import ModelPlan
from wordbench.text import as_code

from . import distributed
from .results import RunFolder, for_tables
from .schema import invisible_text_line
from .signature import library_versions, run_signature

PRECISION_SAMPLE = 32  # items rescored in float32 when a run computes in bf16/fp16 (``precision_check``)


def select(data: dict, config: str, split: str, limit: int | None, seed: int = 0, scorer=None) -> list[dict]:
    """Items of one config and split; ``limit`` keeps a seeded sample stratified by ``scorer.stratum``."""
    if config not in data:
        raise ConfigError(f"no dataset config '{config}'; available: {', '.join(data)}")
    dsd = data[config]
    if split == "all":
        rows = [r for s in sorted(dsd) for r in as_rows(dsd[s])]
    elif split in dsd:
        rows = as_rows(dsd[split])
    else:
        raise ConfigError(f"no split '{split}'; available: {', '.join(list(dsd) + ['all'])}")
    if limit is None:
        return rows
    if limit < 1:
        raise ConfigError(f"limit must be at least 1, got {limit}")
    return stratified_sample(rows, limit, seed, scorer)


def as_rows(part) -> list[dict]:
    """A split's rows as dicts: a Dataset read by columns (iterating one reads row by row, ~100 µs a row), or a list."""
    return part.to_list() if hasattr(part, "to_list") else list(part)


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


def score_dataset(scorer, model, data_sig: str, dataset: dict, data_name: str, split: str = "test", limit: int | None = None,
                  out: Path = Path("runs"), config: str = "default", progress: bool = True,
                  precision_sample: int = PRECISION_SAMPLE) -> RunFolder:
    """Score loaded data (``{config: {split: rows}}``, a DatasetDict or plain lists of row dicts) with a prepared
    ``scorer``: select, sign, lock, resume, score in chunks, then summary, precision check, report and plots.
    ``data_sig`` is the data's signature and ``data_name`` what the summary calls it; ``model`` as ``runner.score``."""
    from tqdm.auto import tqdm

    w = distributed.world()
    if config in dataset and config != "default":  # e.g. minpairs' counts, wordpred's types: read by the scorer, not scored
        raise ConfigError(f"the '{config}' config of {scorer.name} data is not scored (it supports the 'default' config's scoring): use --config default")
    rows = select(dataset, config, split, limit, scorer=scorer)
    if not rows:  # a number over no items would be no number at all
        raise ConfigError(f"the {split} split of the {config} config has no rows to score: choose another --split")
    # One frozen context: a scorer that generates its items (tendencies) caps them by the limit too.
    scorer.prepare(RunContext(data=dataset, rows=tuple(rows), limit=limit, faithful=scorer.faithful, paper=scorer.paper,
                              config=config, split=split))
    items = scorer.work_items(rows)
    if callable(model) and not hasattr(model, "family"):
        model = model(scorer)
    info = scorer.run_info(model)  # a plan knows its family and identity without its weights
    sample = {"limit": "all"} if limit is None else {"limit": limit, "sample": "stratified"}
    settings = {"config": config, "split": split, **sample, **scorer.signature_settings(info.family)}
    signature = run_signature(data_sig, info.tag, settings)
    run = RunFolder.for_run(out, scorer.name, info.name, signature)

    rank = w.rank if w.parallel else None
    with run.lock(rank):
        if isinstance(model, ModelPlan):
            model = model.load()
        done = run.done_ids()
        distributed.barrier(w)  # every rank has read what is done before any rank appends
        mine = distributed.shard(items, w)
        todo = [it for it in mine if it["id"] not in done]
        desc = f"{scorer.name} {info.name}" + (f" rank {w.rank}/{w.size}" if w.parallel else "")
        start = time.perf_counter()
        with tqdm(total=len(mine), initial=len(mine) - len(todo), desc=desc, disable=not (progress and w.main)) as bar:
            for i in range(0, len(todo), scorer.chunk_size):
                stopping.check()  # a scheduler's SIGTERM: stop between chunks, everything scored so far kept
                chunk = todo[i : i + scorer.chunk_size]
                run.append(scorer.score(model, chunk), rank=rank)
                bar.update(len(chunk))
    scored_now = distributed.total(w, len(todo))  # also the barrier before rank 0 merges
    elapsed = time.perf_counter() - start
    if not w.main:
        return run
    with run.lock():
        run.merge_ranks([it["id"] for it in items])  # also what an interrupted data-parallel run left
        wanted = {it["id"] for it in items}
        records = [r for r in run.records() if r["id"] in wanted]
    summary = {
        "benchmark": scorer.name,
        "signature": signature,
        "data": data_name,
        "model": {"name": info.name, "version": info.version, "family": info.family, "dtype": info.dtype},
        "split": split,
        "n": len(records),
        "options": scorer.given_options,
        "metrics": scorer.summarize(records),
        "versions": library_versions(),
        "device": str(model.device) if model is not None else None,
        "batch_size": model.batch_size if model is not None else None,
        "ranks": w.size,
        "wall_s": round(elapsed, 2),
        "items_scored_now": scored_now,
        "items_per_s": round(scored_now / elapsed, 2) if scored_now and elapsed > 0 else None,
    }
    # counted where the data was checked (schema.CheckedData) and in the files the scorer read itself (a samples file)
    invisible = {**(getattr(dataset, "invisible_text", None) or {}), **scorer.invisible_text}
    if invisible:
        summary["invisible_text"] = invisible
    if scorer.invisible_text:
        warn(f"{invisible_text_line(scorer.invisible_text)} (counted in summary.json)")
    precision = precision_check(scorer, model, records, run, precision_sample)
    if precision:
        summary["precision"] = precision
    run.write_json("summary.json", summary)
    plots = scorer.plots(records, summary, run.plots_dir)
    report = scorer.report(for_tables([summary])) + precision_line(precision) + "\n" + "".join(f"![{p}](plots/{p})\n" for p in plots)
    run.write_text("report.md", report + ("" if signature in report else f"\nSignature: {as_code(signature)}\n"))
    return run




def precision_check(scorer, model, records: list[dict], run: RunFolder, sample: int) -> dict | None:
    """For a model computing in reduced precision: how many of a seeded, stratified sample of the run's
    decisions (``Scorer.decision``) the same weights computed in float32 keep. Once per run folder
    (``precision.json``). None for a float32 run or no torch model; a reduced-precision run that cannot be
    checked says why (``checked: false``), so its report never reads as if it had been."""
    import torch

    net = getattr(model, "model", None)
    if not records or not isinstance(net, torch.nn.Module) or net.dtype in (torch.float32, torch.float64):
        return None
    dtype = str(net.dtype).removeprefix("torch.")
    unchecked = lambda why: {"dtype": dtype, "checked": False, "why": why}  # noqa: E731
    if sample < 1:
        return unchecked("--precision-check 0")
    if scorer.decision(records[0]) is None:
        return unchecked(f"{scorer.name} reports aggregates only, no per-item decision")
    if getattr(net, "hf_device_map", None):
        return unchecked("a sharded model is not cast in place")
    path = run.path / "precision.json"
    if path.exists():
        return json.loads(path.read_text(encoding="utf-8"))
    ran = {r["id"]: scorer.decision(r) for r in records}
    rows = stratified_sample([row for row in scorer.context.rows if row["id"] in ran], sample, seed=0, scorer=scorer)
    try:
        with model.computing_in(torch.float32):
            reference = {r["id"]: scorer.decision(r) for r in scorer.score(model, scorer.work_items(rows))}
    except torch.cuda.OutOfMemoryError:  # the run's own numbers are written all the same
        torch.cuda.empty_cache()
        warn(f"precision check skipped: {model.info.name} does not fit in float32 on {model.device} (--precision-check 0 skips it)")
        return unchecked(f"the model does not fit in float32 on {model.device}")
    kept = sum(ran[i] == decision for i, decision in reference.items())
    result = {"dtype": dtype, "checked": True, "reference": "float32 (the same weights, cast)", "items": len(reference),
              "decisions_kept": kept, "share_kept": round(kept / len(reference), 4) if reference else None,
              "decision": scorer.decision_name}
    run.write_json("precision.json", result)
    return result


def precision_line(precision: dict | None) -> str:
    """The report's line on a reduced-precision run ('' for none)."""
    if not precision:
        return ""
    if not precision.get("checked", True):
        return f"\nComputed in {precision['dtype']}, not checked against float32 ({precision['why']}).\n"
    return (f"\nComputed in {precision['dtype']}: {precision['decisions_kept']} of {precision['items']} sampled "
            f"{precision['decision']} are the same computed in {precision['reference']}.\n")

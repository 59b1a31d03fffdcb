"""The results folder (``publish-results --local DIR``, or the Hub dataset repository it is uploaded to): what it holds
and how it is read and written.

Two dataset configs: ``results`` (one row per model x benchmark x metric cell, with the full run signature, the model's
version, the library versions, n and the interval where the scorer gives one) and ``details`` (one row per scored item,
the record as JSON), plus each run's ``summary.json`` and ``report.md`` under ``runs/<benchmark>/<model>/<hash>/``.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import datasets

from wordbench.errors import ConfigError, DataFormatError, WordbenchError, warn

from .registry import get
from .results import RunFolder
from .signature import metric_version, signature_limit

MARKER = ".wordbench-results.json"  # written into every results folder: the only folders this module replaces
MAX_LIST = 64  # numeric lists up to this long become indexed cells (per-layer curves); longer ones are figure data
COUNT_KEYS = ("n", "total", "events", "documents")
RESULT_FEATURES = datasets.Features({
    "benchmark": datasets.Value("string"), "model": datasets.Value("string"), "model_version": datasets.Value("string"),
    "family": datasets.Value("string"), "dtype": datasets.Value("string"), "metric": datasets.Value("string"),
    "value": datasets.Value("float64"), "n": datasets.Value("int64"), "ci_low": datasets.Value("float64"),
    "ci_high": datasets.Value("float64"), "split": datasets.Value("string"), "data": datasets.Value("string"),
    "run": datasets.Value("string"), "signature": datasets.Value("string"), "wordbench": datasets.Value("string"),
    "transformers": datasets.Value("string"), "torch": datasets.Value("string"), "published": datasets.Value("string"),
})
DETAIL_FEATURES = datasets.Features({
    "benchmark": datasets.Value("string"), "model": datasets.Value("string"), "run": datasets.Value("string"),
    "id": datasets.Value("string"), "record": datasets.Value("string"),
})


def metric_cells(metrics: dict, n: int | None = None, prefix: str = "") -> list[dict]:
    """Every numeric leaf of a summary's metrics as ``{metric, value, n, ci_low, ci_high}``: the metric is the
    path (``antonym/all/mrr``); ``X_ci`` pairs are the interval of ``X``; n is the nearest count above the cell."""
    here = next((metrics[k] for k in COUNT_KEYS if isinstance(metrics.get(k), int) and not isinstance(metrics.get(k), bool)), n)
    out = []
    for key, value in metrics.items():
        path = f"{prefix}{key}"
        if isinstance(value, dict):
            out += metric_cells(value, here, path + "/")
        elif key in COUNT_KEYS:
            continue  # a count is the n column of the cells beside it, not a cell of its own
        elif _number(value) and not key.endswith("_ci"):
            ci = metrics.get(f"{key}_ci")
            low, high = (ci if isinstance(ci, (list, tuple)) and len(ci) == 2 and all(map(_number, ci)) else (None, None))
            out.append({"metric": path, "value": float(value), "n": here, "ci_low": low, "ci_high": high})
        elif isinstance(value, list) and 0 < len(value) <= MAX_LIST and all(map(_number, value)) and not key.endswith("_ci"):
            out += [{"metric": f"{path}/{i}", "value": float(v), "n": here, "ci_low": None, "ci_high": None} for i, v in enumerate(value)]
    return out


def _number(value) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and value == value  # NaN is no cell


def result_rows(run: RunFolder, s: dict, published: str) -> list[dict]:
    """The cells of one run whose summary is ``s``."""
    m, versions = s["model"], s.get("versions", {})
    base = {"benchmark": s["benchmark"], "model": m["name"], "model_version": m.get("version", ""), "family": m.get("family", ""),
            "dtype": m.get("dtype", ""), "split": s.get("split", ""), "data": str(s.get("data", "")), "run": run.path.name,
            "signature": s["signature"], "wordbench": versions.get("wordbench", ""), "transformers": versions.get("transformers", ""),
            "torch": versions.get("torch", ""), "published": published}
    return [{**base, **cell} for cell in metric_cells(s["metrics"], s.get("n"))]


def detail_rows(run: RunFolder, s: dict) -> list[dict]:
    return [{"benchmark": s["benchmark"], "model": s["model"]["name"], "run": run.path.name, "id": str(r["id"]),
             "record": json.dumps(r, ensure_ascii=False, sort_keys=True)} for r in run.records()]


def check_results_folder(folder: Path) -> None:
    """``folder`` is new, empty, or a results folder this module wrote (its marker): nothing else is touched."""
    if folder.is_symlink():
        raise ConfigError(f"--local {folder} is a symlink: give the real folder")
    if folder.exists() and not folder.is_dir():
        raise ConfigError(f"--local {folder} is a file: give a folder")
    if folder.is_dir() and any(folder.iterdir()) and not (folder / MARKER).is_file():
        raise ConfigError(f"--local {folder} is not a wordbench results folder: choose a new or empty folder")


def read_config(folder: Path, config: str) -> list[dict]:
    files = sorted((folder / "data" / config).glob("*.parquet"))
    if not files:
        return []
    import pyarrow.parquet as pq

    try:
        return [row for f in files for row in pq.read_table(f).to_pylist()]
    except Exception as exc:  # noqa: BLE001 - a damaged parquet: one line
        raise DataFormatError(f"{folder}: cannot read the {config} rows ({str(exc).splitlines()[0]}); restore the folder") from None


def write_config(folder: Path, config: str, rows: list[dict], features: datasets.Features, by_model: bool = False) -> None:
    """The rows of ``config`` as parquet under ``data/CONFIG/``: one file, or (``by_model``) one file per model,
    ``details_file``, so that each model's rows are a config of their own on the Hub as well as part of the whole."""
    target = folder / "data" / config
    shutil.rmtree(target, ignore_errors=True)
    target.mkdir(parents=True)
    groups: dict[str, list[dict]] = {}
    for row in rows:
        groups.setdefault(details_file(row["model"]) if by_model else "train-00000-of-00001.parquet", []).append(row)
    for name, group in (groups or {"train-00000-of-00001.parquet": []}).items():
        table = datasets.Dataset.from_list(group, features=features) if group else datasets.Dataset.from_dict({k: [] for k in features}, features=features)
        table.to_parquet(str(target / name))


def details_file(model: str) -> str:
    """The parquet file of ``model``'s items under ``data/details/`` (its folder-safe name)."""
    from .results import slug

    return f"{slug(model)}.parquet"


def details_configs(models) -> list[dict]:
    """The card's per-model configs: ``details_MODEL``, that model's items alone (as the Open LLM Leaderboard's details)."""
    return [{"config_name": "details_" + details_file(m).removesuffix(".parquet"),
             "data_files": [{"split": "train", "path": "data/details/" + details_file(m)}]} for m in sorted(set(models))]


def check_summary(s: dict, path: Path) -> None:
    """What the leaderboard reads of a summary is there: a known benchmark, the model's name, metrics, a signature."""
    try:
        get(s["benchmark"])
    except ConfigError as exc:
        raise DataFormatError(f"{path}: {exc}") from None
    model = s.get("model")
    if not (isinstance(model, dict) and isinstance(model.get("name"), str) and isinstance(s.get("metrics"), dict)
            and isinstance(s.get("signature"), str)):
        raise DataFormatError(f"{path}: not a wordbench summary (model.name, metrics and signature expected)")


def stored_runs(folder: Path) -> tuple[list[tuple[Path, dict]], list[str]]:
    """(path, summary) of every stored run that can be read, and one line for each that cannot (a summary.json that is
    no JSON, or no summary of a benchmark this wordbench knows): one damaged run never hides the others."""
    runs, damaged = read_runs(folder)
    return runs, list(damaged.values())


def read_runs(folder: Path) -> tuple[list[tuple[Path, dict]], dict[tuple[str, str], str]]:
    """(readable runs, {(benchmark, model folder): the line saying why its summary cannot be read})."""
    runs, damaged = [], {}
    for path in sorted((Path(folder) / "runs").glob("*/*/*/summary.json")):
        try:
            s = RunFolder(path.parent).summary()
            check_summary(s, path)
        except WordbenchError as exc:
            damaged[(path.parent.parent.parent.name, path.parent.parent.name)] = str(exc)
            continue
        runs.append((path, s))
    return runs, damaged


def stored_summaries(folder: Path, report: bool = True) -> list[dict]:
    """The readable stored summaries; each one skipped is a warning (``report``)."""
    runs, skipped = stored_runs(folder)
    for line in skipped if report else ():
        warn(f"skipped: {line}")
    return [s for _, s in runs]


def submission_rows(folder: Path) -> tuple[list[str], list[dict]]:
    """(benchmarks, rows) of the submissions table: one row per model identity (name, version, dtype), in each
    benchmark's column its headline figure, interval and run report; a run scored with options that are no declared
    submission profile's says which."""
    cells: dict[tuple, dict] = {}
    for path, s in stored_runs(folder)[0]:
        bench = get(s["benchmark"])
        if bench.headline is None:
            continue
        m = s["model"]
        value, ci = bench.headline.read(s["metrics"])
        options = s.get("options", {})
        declared = [name for name, p in bench.profiles if p.limit == signature_limit(s["signature"])
                    and _typed(bench, dict(p.options)) == _typed(bench, options)]  # quick and full differ in the limit only
        row = cells.setdefault((m["name"], m.get("version", ""), m.get("dtype", "")), {})
        version = metric_version(s["signature"])
        if bench.name in row and (row[bench.name]["metric_version"] > version or row[bench.name]["metric_version"] == version
                                  and row[bench.name]["profile"] and not declared):
            continue  # a run re-derived at a newer metric version, or a profile's run of the same model, stays in the table
        row[bench.name] = {"value": value, "ci": ci, "n": s.get("n"), "report": path.parent.relative_to(folder).as_posix() + "/report.md",
                           "profile": declared[0] if declared else None, "options": options, "metric_version": version}
    names = [b for b in sorted({b for row in cells.values() for b in row}, key=list_order)]
    rows = [{"model": k[0], "version": k[1], "dtype": k[2], "cells": row} for k, row in sorted(cells.items())]
    return names, rows


def _typed(bench, options: dict) -> str:
    """Options as the scorer types them, in one canonical form (a profile's "ancestral" is a run's ["ancestral"])."""
    try:
        typed = bench.scorer(**options).given_options
    except Exception:  # noqa: BLE001 - options of another wordbench version: compared as they are
        typed = options
    return json.dumps(typed, sort_keys=True, default=list)


def list_order(name: str) -> int:
    from .registry import REGISTRY

    return list(REGISTRY).index(name) if name in REGISTRY else len(REGISTRY)

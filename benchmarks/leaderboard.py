"""Runs collected into one results dataset, a leaderboard that grows with every published run.

The folder (``publish-results --local DIR``, or the Hub repository it is uploaded to) holds two dataset configs:
``results`` (one row per model x benchmark x metric cell, with the full run signature, the model's version, the
library versions, n and the interval where the scorer gives one) and ``details`` (one row per scored item, the
record as JSON), plus each run's ``summary.json`` and ``report.md`` under ``runs/<benchmark>/<model>/<hash>/``.
The card's body is the leaderboard: each benchmark's tables with every published model side by side, regenerated
from the stored summaries on every publish. A run published again (same signature) replaces its rows.
"""

from __future__ import annotations

import json
import shutil
from datetime import date
from pathlib import Path

import datasets

from wordbench.errors import ConfigError, DataFormatError, WordbenchError, warn

from .registry import get
from .results import RunFolder, for_tables, md_cell

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


def _read(folder: Path, config: str) -> list[dict]:
    files = sorted((folder / "data" / config).glob("*.parquet"))
    if not files:
        return []
    import pyarrow.parquet as pq

    try:
        return [row for f in files for row in pq.read_table(f).to_pylist()]
    except Exception as exc:  # noqa: BLE001 - a damaged parquet: one line
        raise DataFormatError(f"{folder}: cannot read the {config} rows ({str(exc).splitlines()[0]}); restore the folder") from None


def _write(folder: Path, config: str, rows: list[dict], features: datasets.Features) -> None:
    target = folder / "data" / config
    shutil.rmtree(target, ignore_errors=True)
    target.mkdir(parents=True)
    table = datasets.Dataset.from_list(rows, features=features) if rows else datasets.Dataset.from_dict({k: [] for k in features}, features=features)
    table.to_parquet(str(target / "train-00000-of-00001.parquet"))


def collect(runs: list[Path], folder: Path, records: bool = True, repo_id: str | None = None) -> dict:
    """Add ``runs`` to the results folder (replacing the rows of a run published before), rewrite its card;
    returns counts of what it holds."""
    folder = Path(folder)
    check_results_folder(folder)
    folder.mkdir(parents=True, exist_ok=True)
    (folder / MARKER).write_text(json.dumps({"kind": "wordbench-results"}) + "\n")
    unique = {}
    for run in (RunFolder(Path(p)) for p in runs):
        s = run.summary()  # one-line error: not a finished run
        check_summary(s, run.path / "summary.json")
        unique[(s["benchmark"], run.path.parent.name, run.path.name)] = (run, s)  # a run given twice is stored once
    new = list(unique.values())
    today = date.today().isoformat()
    replaced = {run.path.name for run, _ in new}
    results = [r for r in _read(folder, "results") if r["run"] not in replaced]
    details = [r for r in _read(folder, "details") if r["run"] not in replaced]
    for run, s in new:
        results += result_rows(run, s, today)
        if records:
            details += detail_rows(run, s)
        dest = folder / "runs" / s["benchmark"] / run.path.parent.name / run.path.name
        shutil.rmtree(dest, ignore_errors=True)
        dest.mkdir(parents=True)
        for name in ("summary.json", "report.md", "signature.txt"):
            if (run.path / name).is_file():
                shutil.copy2(run.path / name, dest / name)
        if (run.path / "plots").is_dir():
            shutil.copytree(run.path / "plots", dest / "plots")
    results.sort(key=lambda r: (r["benchmark"], r["model"], r["run"], r["metric"]))
    details.sort(key=lambda r: (r["benchmark"], r["model"], r["run"], r["id"]))
    _write(folder, "results", results, RESULT_FEATURES)
    _write(folder, "details", details, DETAIL_FEATURES)
    summaries = stored_summaries(folder)
    (folder / "README.md").write_text(card(summaries, repo_id, submissions_markdown(folder)))
    (folder / "leaderboard.md").write_text(submissions_markdown(folder) + leaderboard_markdown(summaries))
    (folder / "leaderboard.html").write_text(leaderboard_html(folder, summaries))
    return {"runs": len(summaries), "models": len({s["model"]["name"] for s in summaries}), "result_rows": len(results),
            "detail_rows": len(details)}


def check_summary(s: dict, path: Path) -> None:
    """What the leaderboard reads of a summary is there: a known benchmark, the model's name, metrics, a signature."""
    get(s["benchmark"])
    model = s.get("model")
    if not (isinstance(model, dict) and isinstance(model.get("name"), str) and isinstance(s.get("metrics"), dict)
            and isinstance(s.get("signature"), str)):
        raise DataFormatError(f"{path}: not a wordbench summary (model.name, metrics and signature expected)")


def stored_runs(folder: Path) -> tuple[list[tuple[Path, dict]], list[str]]:
    """(path, summary) of every stored run that can be read, and one line for each that cannot (a summary.json that is
    no JSON, or no summary of a benchmark this wordbench knows): one damaged run never hides the others."""
    runs, skipped = [], []
    for path in sorted((Path(folder) / "runs").glob("*/*/*/summary.json")):
        try:
            s = RunFolder(path.parent).summary()
            check_summary(s, path)
        except WordbenchError as exc:
            skipped.append(str(exc))
            continue
        runs.append((path, s))
    return runs, skipped


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
        declared = [name for name, p in bench.profiles if _typed(bench, dict(p.options)) == _typed(bench, options)]
        row = cells.setdefault((m["name"], m.get("version", ""), m.get("dtype", "")), {})
        if bench.name in row and row[bench.name]["profile"] and not declared:
            continue  # a profile's run of the same model stays in the table
        row[bench.name] = {"value": value, "ci": ci, "n": s.get("n"), "report": path.parent.relative_to(folder).as_posix() + "/report.md",
                           "profile": declared[0] if declared else None, "options": options}
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


def _cell_text(cell: dict | None) -> str:
    if not cell or cell["value"] is None:
        return "–"
    text = f"{cell['value']:.4g}" + (f" [{cell['ci'][0]:.3g}, {cell['ci'][1]:.3g}]" if cell["ci"] else "")
    if cell["profile"] is None:
        text += " † " + ", ".join(f"{k}={v}" for k, v in sorted(cell["options"].items()))
    return text


def submissions_markdown(folder: Path) -> str:
    names, rows = submission_rows(folder)
    if not rows:
        return ""
    from urllib.parse import quote

    heads = [f"{get(n).headline.label} {'↑' if get(n).headline.higher_is_better else '↓'}" for n in names]
    lines = ["## Submissions", "", "One row per model (name, revision, dtype); each cell is the benchmark's headline figure with its "
             "interval, linked to its run's report. † marks a run scored with options other than a submission profile's.", "",
             "| model | revision | dtype | " + " | ".join(heads) + " |", "|---|---|---|" + "---|" * len(names)]
    for r in rows:
        cells = [f"[{md_cell(_cell_text(r['cells'].get(n)))}]({quote(r['cells'][n]['report'])})" if n in r["cells"] else "–" for n in names]
        lines.append(f"| {md_cell(r['model'])} | {md_cell(r['version'])} | {md_cell(r['dtype'])} | " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n\n"


def submissions_html(folder: Path, base: str = "") -> str:
    """The submissions table as HTML, sortable by a click on a column's head (an inline script: no network)."""
    import html

    names, rows = submission_rows(folder)
    if not rows:
        return ""
    head = "".join(f"<th>{html.escape(t)}</th>" for t in ("model", "revision", "dtype")) + "".join(
        f"<th>{html.escape(get(n).headline.label)} {'↑' if get(n).headline.higher_is_better else '↓'}</th>" for n in names)
    body = []
    for r in rows:
        tds = [f"<td>{html.escape(str(r[k]))}</td>" for k in ("model", "version", "dtype")]
        for n in names:
            cell = r["cells"].get(n)
            sort = "" if not cell or cell["value"] is None else f' data-sort="{cell["value"]}"'
            text = html.escape(_cell_text(cell))
            tds.append(f'<td{sort}><a href="{html.escape(base + cell["report"])}">{text}</a></td>' if cell else "<td>–</td>")
        body.append("<tr>" + "".join(tds) + "</tr>")
    script = ("<script>document.querySelectorAll('#submissions th').forEach((th,i)=>th.addEventListener('click',()=>{"
              "const t=th.closest('table'),b=t.tBodies[0],rs=[...b.rows],d=th.dataset.dir==='asc'?-1:1;th.dataset.dir=d>0?'asc':'desc';"
              "const k=r=>{const c=r.cells[i];return c.dataset.sort!==undefined?parseFloat(c.dataset.sort):c.textContent};"
              "rs.sort((x,y)=>{const a=k(x),b2=k(y);return (typeof a==='number'&&typeof b2==='number'?a-b2:String(a).localeCompare(String(b2)))*d});"
              "rs.forEach(r=>b.appendChild(r))}));"
              # #sort=N (#sort=N-desc): the page opens sorted by column N, a link that keeps an order
              "const m=location.hash.match(/^#sort=(\\d+)(-desc)?$/),h=document.querySelectorAll('#submissions th');"
              "if(m&&h[+m[1]]){h[+m[1]].click();if(m[2])h[+m[1]].click()}</script>")
    return (f"<h2>Submissions</h2>\n<table id=\"submissions\"><thead><tr>{head}</tr></thead><tbody>\n" + "\n".join(body)
            + f"\n</tbody></table>\n<p>Click a column's head to sort (a link ending in #sort=N or #sort=N-desc opens sorted by column N). † marks a run scored with options other than a submission "
            f"profile's.</p>\n{script}\n")


def leaderboard_markdown(summaries: list[dict]) -> str:
    """Per benchmark: the runs (model, version, n, date of the run's scoring), then its tables side by side."""
    from .runner import differing_settings

    parts = []
    for name in sorted({s["benchmark"] for s in summaries}):
        group = for_tables(sorted((s for s in summaries if s["benchmark"] == name), key=lambda s: s["model"]["name"]))
        rows = ["| model | version | family | dtype | n |", "|---|---|---|---|---|"]
        rows += [f"| {s['model']['name']} | {s['model'].get('version', '')} | {s['model'].get('family', '')} | "
                 f"{s['model'].get('dtype', '')} | {s.get('n')} |" for s in group]
        scorer = get(name).scorer(**{k: v for k, v in group[0].get("options", {}).items()})
        tables = "\n".join("#" + line if line.startswith("#") else line for line in scorer.report(group).splitlines())
        parts.append(f"## {name}\n\n" + "\n".join(rows) + "\n\n" + tables + "\n" + differing_settings(group))
    return "\n\n".join(parts) + "\n"


def leaderboard_html(folder: Path, summaries: list[dict], base: str = "") -> str:
    """One HTML page: the leaderboard's tables, then each run's figures (paths relative to ``folder``, after ``base``)."""
    import html

    from markdown_it import MarkdownIt

    # html off: markup in the markdown (a model's name) is shown as text, never run
    body = MarkdownIt("commonmark", {"html": False}).enable("table").render(leaderboard_markdown(summaries))
    figures = []
    for path in sorted(Path(folder).glob("runs/*/*/*/plots/*.png")):
        run = path.parent.parent
        caption = html.escape(f"{run.parent.parent.name} / {run.parent.name} / {run.name}: {path.stem.replace('_', ' ')}")
        figures.append(f'<figure><img src="{html.escape(base + path.relative_to(folder).as_posix())}" alt="{caption}">'
                       f"<figcaption>{caption}</figcaption></figure>")
    style = ("body{font-family:sans-serif;max-width:1100px;margin:2em auto;padding:0 1em}table{border-collapse:collapse;"
             "margin:1em 0}td,th{border:1px solid #ccc;padding:.25em .5em;text-align:left}figure{display:inline-block;"
             "margin:1em}img{max-width:520px}code{font-size:.8em;word-break:break-all}")
    return (f"<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>wordbench leaderboard</title>"
            f"<style>{style}</style></head><body>\n<h1>wordbench leaderboard</h1>\n{submissions_html(folder, base)}{body}\n<h2>Figures</h2>\n"
            + ("\n".join(figures) or "<p>No run has figures.</p>") + "\n</body></html>\n")


def card(summaries: list[dict], repo_id: str | None = None, submissions: str = "") -> str:
    from huggingface_hub import DatasetCardData

    data = DatasetCardData(
        pretty_name="wordbench results", tags=["wordbench", "leaderboard", "evaluation"],
        configs=[{"config_name": "results", "data_files": [{"split": "train", "path": "data/results/*.parquet"}], "default": True},
                 {"config_name": "details", "data_files": [{"split": "train", "path": "data/details/*.parquet"}]}])
    body = (
        "# wordbench results\n\n"
        "Scores of language models on wordbench benchmarks, one row per model x benchmark x metric cell in the "
        "`results` config (with the full reproducibility signature, the model version, library versions, n and the "
        "interval where the scorer gives one) and one row per scored item in `details`. A run published again "
        "replaces its rows.\n\n"
        "```python\nfrom datasets import load_dataset\n"
        f"results = load_dataset({repo_id or 'THIS_FOLDER'!r}, \"results\", split=\"train\").to_pandas()\n"
        "results[results.metric == \"antonym/all/mrr\"].sort_values(\"value\", ascending=False)\n```\n\n"
        "# Leaderboard\n\n" + submissions.replace("## Submissions", "## Submissions", 1)
        + (leaderboard_markdown(summaries) if summaries else "No run published yet.\n"))
    return f"---\n{data.to_yaml()}\n---\n\n{body}"

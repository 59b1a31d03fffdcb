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
from wordbench.text import as_html, as_markdown

from .registry import get
from .results import RunFolder, for_tables
from .signature import metric_version

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


def collect(runs: list[Path], folder: Path, records: bool = True, repo_id: str | None = None, submission: dict | None = None) -> dict:
    """Add ``runs`` to the results folder (replacing the rows of a run published before), rewrite its card;
    returns counts of what it holds. ``submission``: the entry of the request they score (``record_submission``)."""
    folder = Path(folder)
    check_results_folder(folder)
    folder.mkdir(parents=True, exist_ok=True)
    (folder / MARKER).write_text(json.dumps({"kind": "wordbench-results"}) + "\n")
    if submission:
        record_submission(folder, submission)
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
    runs, damaged = _read_runs(folder)
    return runs, list(damaged.values())


def _read_runs(folder: Path) -> tuple[list[tuple[Path, dict]], dict[tuple[str, str], str]]:
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


def signature_limit(signature: str) -> int | None:
    """The ``--limit`` a run's signature names (``|limit:200|``); None: every item."""
    import re

    found = re.search(r"\|limit:(\d+)(\||$)", signature)
    return int(found.group(1)) if found else None


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
        cells = [f"[{as_markdown(_cell_text(r['cells'].get(n)))}]({quote(r['cells'][n]['report'])})" if n in r["cells"] else "–" for n in names]
        lines.append(f"| {as_markdown(r['model'])} | {as_markdown(r['version'])} | {as_markdown(r['dtype'])} | " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n\n"


def submissions_html(folder: Path, base: str = "") -> str:
    """The leaderboard table (``board``) as HTML, sortable by a click on a column's head (an inline script: no network):
    empty cells last in either direction, the sorted column marked."""
    names, rows = board(folder)
    if not rows:
        return ""
    profiles = board_profiles(names, rows)
    script = ("<script>const H=[...document.querySelectorAll('#submissions th')];H.forEach((th,i)=>th.addEventListener('click',()=>{"
              "const t=th.closest('table'),b=t.tBodies[0],rs=[...b.rows],d=th.dataset.dir==='asc'?-1:1;"
              "H.forEach(h=>{h.removeAttribute('aria-sort');h.textContent=h.textContent.replace(/ [▲▼]$/,'')});"
              "th.dataset.dir=d>0?'asc':'desc';th.setAttribute('aria-sort',d>0?'ascending':'descending');th.textContent+=d>0?' ▲':' ▼';"
              "const k=r=>{const c=r.cells[i];return c.classList.contains('missing')?null:c.dataset.sort!==undefined?parseFloat(c.dataset.sort):c.textContent};"
              # an empty cell sorts last whichever the direction
              "rs.sort((x,y)=>{const a=k(x),b2=k(y);if(a===null||b2===null)return (a===null)-(b2===null);"
              "return (typeof a==='number'&&typeof b2==='number'?a-b2:String(a).localeCompare(String(b2)))*d});"
              "rs.forEach(r=>b.appendChild(r))}));"
              # #sort=N (#sort=N-desc): the page opens sorted by column N, a link that keeps an order
              "const m=location.hash.match(/^#sort=(\\d+)(-desc)?$/);"
              "if(m&&H[+m[1]]){H[+m[1]].click();if(m[2])H[+m[1]].click()}</script>")
    return (f"<h2>Submissions</h2>\n<p>Profile: {profiles}.</p>\n" + board_html(names, rows, base=base)
            + "<p>Click a column's head to sort (a link ending in #sort=N or #sort=N-desc opens sorted by column N); empty cells "
            f"stay last and say why (skipped for the model's family, failed, not yet scored). {RANKS_TEXT} "
            f"† marks a run scored with options other than a submission profile's.</p>\n{script}\n")


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
    from markdown_it import MarkdownIt

    # html off: markup in the markdown (a model's name) is shown as text, never run
    body = MarkdownIt("commonmark", {"html": False}).enable("table").render(leaderboard_markdown(summaries))
    figures = []
    for path in sorted(Path(folder).glob("runs/*/*/*/plots/*.png")):
        run = path.parent.parent
        caption = as_html(f"{run.parent.parent.name} / {run.parent.name} / {run.name}: {path.stem.replace('_', ' ')}")
        figures.append(f'<figure><img src="{as_html(base + path.relative_to(folder).as_posix())}" alt="{caption}">'
                       f"<figcaption>{caption}</figcaption></figure>")
    style = ("body{font-family:sans-serif;max-width:1100px;margin:2em auto;padding:0 1em}table{border-collapse:collapse;"
             "margin:1em 0}td,th{border:1px solid #ccc;padding:.25em .5em;text-align:left}" + BOARD_STYLE + "figure{display:inline-block;"
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


# The leaderboard table shared by the static page and the app: one row per model identity, with why a cell is empty.
SUBMISSIONS_DIR = "submissions"  # per model identity: what its request said and why benchmarks were skipped
BOARD_COLUMNS = ("model", "revision", "dtype", "weights", "rank")  # then one column per benchmark, then BOARD_TAIL
RANKS_TEXT = ("Ranks are rank groups, not a strict order: in each benchmark a model's rank is 1 + the number of models whose "
              "headline interval lies wholly above its own (below, where lower is better), so models whose intervals overlap "
              "share a group, shown as =N. The overall rank orders models by the mean of their groups over the benchmarks "
              "they have; equal means share a rank.")
BOARD_TAIL = ("family", "params", "cost", "submitted", "profile", "link")
SHORT_DTYPES = {"float32": "fp32", "bfloat16": "bf16", "float16": "fp16"}  # a request's dtype as run summaries name it
BOARD_STYLE = ("#submissions th{cursor:pointer;white-space:nowrap}#submissions th[aria-sort]{background:#fde68a}"
               "#submissions td.missing{color:#777;font-style:italic}#submissions small{font-size:.75em}")


def record_submission(folder: Path, entry: dict) -> None:
    """Store what the leaderboard knows of a scored submission beside its runs: the model identity as its summaries
    name it (model, version, dtype), family, parameters, submission date, the weights' precision, the profile, the
    request id, and each skipped benchmark's reason."""
    from wordbench.files import write_output
    from wordbench.hashing import sha8

    key = f"{entry['model']}|{entry['version']}|{entry['dtype']}"
    (Path(folder) / SUBMISSIONS_DIR).mkdir(parents=True, exist_ok=True)
    write_output(Path(folder) / SUBMISSIONS_DIR / f"{slug_of(entry['model'])}-{sha8(key)}.json",
                 json.dumps(entry, indent=1, sort_keys=True) + "\n", "results")


def slug_of(name: str) -> str:
    from .results import slug

    return slug(name)


def read_submissions(folder: Path) -> tuple[dict[tuple, dict], list[str]]:
    """(the stored submission entries by (model, version, dtype), one line naming each file that is no entry)."""
    out, damaged = {}, []
    for path in sorted((Path(folder) / SUBMISSIONS_DIR).glob("*.json")):
        try:
            e = json.loads(path.read_text(encoding="utf-8"))
            out[(e["model"], e["version"], e["dtype"])] = e
        except (ValueError, KeyError, TypeError, UnicodeDecodeError) as exc:
            damaged.append(f"{path}: not a submission entry ({type(exc).__name__}: {str(exc)[:120]}); its model's weights, "
                           "parameters and date are unknown until it is published again")
    return out, damaged


def stored_submissions(folder: Path) -> dict[tuple, dict]:
    """The stored submission entries by (model, version, dtype); an unreadable one is left out with a warning."""
    out, damaged = read_submissions(folder)
    for line in damaged:
        warn(line)
    return out


def damaged_files(folder: Path) -> list[str]:
    """One line naming each file of the results folder that cannot be read (a run's summary, a submission entry), so
    a page shows it as damaged rather than as something never published."""
    return stored_runs(folder)[1] + read_submissions(folder)[1]


def profile_text(name: str | None, names: list[str]) -> str:
    """A submission profile as readers see it: its name and its limits on ``names`` (``quick (at most 200 items)``)."""
    if not name:
        return "no profile"
    limits = sorted({get(b).profile(name).limit for b in names if name in dict(get(b).profiles)} - {None})
    if not limits:
        return f"{name} (every item)"
    span = f"{limits[0]}" if len(limits) == 1 else f"{limits[0]}-{limits[-1]}"
    return f"{name} (at most {span} items per benchmark)"


def separated_ranks(values: list[tuple[int, float, tuple | None]], higher: bool) -> dict[int, int]:
    """Ranks that claim no order the intervals do not show: a row's rank is 1 + the number of rows clearly better
    than it, clearly meaning that the two headline intervals do not overlap (without an interval, a strictly better
    value). Rows whose intervals overlap share a rank group (1, 1, 3: the third is clearly behind both)."""
    def better(a, b):  # a clearly better than b
        (_, va, ca), (_, vb, cb) = a, b
        if ca is None or cb is None:
            return va > vb if higher else va < vb
        return ca[0] > cb[1] if higher else ca[1] < cb[0]

    return {v[0]: 1 + sum(better(w, v) for w in values if w is not v) for v in values}


def board_profiles(names: list[str], rows: list[dict]) -> str:
    """The profiles of the rows, each with its limits (``quick (at most 200 items per benchmark)``)."""
    return "; ".join(p if "†" in p or "," in p else profile_text(p, names) for p in sorted({r["profile"] for r in rows}))


def _ranked(values: list[tuple[int, float]], higher: bool) -> dict[int, int]:
    """Competition ranks (1, 2, 2, 4) of (row, value) pairs, best first."""
    order = sorted(values, key=lambda p: -p[1] if higher else p[1])
    ranks, last = {}, None
    for i, (row, value) in enumerate(order):
        ranks[row] = ranks[order[i - 1][0]] if last is not None and value == last else i + 1
        last = value
    return ranks


def board(folder: Path | None, requests: list | None = None) -> tuple[list[str], list[dict]]:
    """(benchmarks, rows) of the leaderboard: the submissions table (``submission_rows``) with, per row, the weights'
    precision, family, parameters, submission date, profile, model link and an overall rank (the rank of its mean
    rank over the benchmarks it has), and per benchmark a cell ``{text, sort, why, report}``: ``sort`` None where the
    cell is empty and ``why`` then says why (skipped for the family, failed, not yet scored). ``requests`` (the
    queue's, where the caller reads one) add rows for models not scored yet or failed."""
    names, rows = submission_rows(folder) if folder is not None else ([], [])
    entries = read_submissions(folder)[0] if folder is not None else {}
    damaged = _read_runs(folder)[1] if folder is not None else {}
    families = {(s["model"]["name"], s["model"].get("version", ""), s["model"].get("dtype", "")): s["model"].get("family", "")
                for s in (stored_summaries(folder) if folder is not None else [])}
    skipped = {b for e in entries.values() for b in e.get("skipped", {})}
    recorded = {e.get("request") for e in entries.values()}
    waiting = [r for r in requests or [] if r.id not in recorded and r.status != "FINISHED"]
    names = sorted(set(names) | skipped | {b for r in waiting for b in r.suite}, key=list_order)
    out = []
    seen = {(r["model"], r["version"], r["dtype"]) for r in rows}
    rows = rows + [{"model": k[0], "version": k[1], "dtype": k[2], "cells": {}} for k in entries if k not in seen]  # all skipped
    for r in rows:
        key = (r["model"], r["version"], r["dtype"])
        e = entries.get(key, {})
        row = {"model": r["model"], "revision": r["version"], "dtype": r["dtype"], "family": e.get("family") or families.get(key, ""),
               "params": e.get("params"), "submitted": (e.get("submitted") or "")[:10], "status": "scored",
               "weights": e.get("weights"), "cost": scoring_cost(e), "device": e.get("device"),
               "link": e.get("link"), "request": e.get("request"), "cells": {}}
        profiles = {c["profile"] for c in r["cells"].values()} or {e.get("profile")}
        row["profile"] = ", ".join(sorted(p or "† other options" for p in profiles))
        for n in names:
            c = r["cells"].get(n)
            if c and c["value"] is not None:
                row["cells"][n] = {"text": _cell_text(c), "sort": c["value"], "ci": c["ci"], "why": None, "report": c["report"]}
            elif n in e.get("skipped", {}):
                row["cells"][n] = {"text": "skipped", "sort": None, "why": f"skipped: {e['skipped'][n]}", "report": None}
            elif (n, slug_of(r["model"])) in damaged:  # published, but its summary cannot be read: said so, not "never published"
                row["cells"][n] = {"text": "damaged", "sort": None, "why": f"damaged: {damaged[(n, slug_of(r['model']))]}", "report": None}
            else:
                row["cells"][n] = {"text": "–", "sort": None, "why": "not scored: no run of this benchmark was published for this model",
                                   "report": None}
        out.append(row)
    for q in waiting:
        why = {"FAILED": f"failed: {q.reason}", "RUNNING": f"not yet scored: running ({q.holders()})",
               "PENDING": "not yet scored: pending in the queue"}[q.status]
        out.append({"model": q.model, "revision": q.revision, "dtype": SHORT_DTYPES.get(q.dtype, q.dtype), "family": q.family, "params": q.params,
                    "submitted": q.submitted[:10], "status": q.status.lower(), "weights": None, "cost": None,
                    "link": hub_link(q.model, q.revision),
                    "request": q.id, "profile": q.profile,
                    "cells": {n: {"text": "failed" if q.status == "FAILED" else "–", "sort": None, "why": why, "report": None} for n in names}})
    per_bench = {n: separated_ranks([(i, r["cells"][n]["sort"], r["cells"][n].get("ci")) for i, r in enumerate(out)
                                     if r["cells"][n]["sort"] is not None], get(n).headline.higher_is_better) for n in names}
    for n, ranks in per_bench.items():
        for i, rank in ranks.items():
            out[i]["cells"][n]["rank"] = rank
            out[i]["cells"][n]["tied"] = sum(v == rank for v in ranks.values())
    means = {i: sum(per_bench[n][i] for n in names if i in per_bench[n]) / k
             for i in range(len(out)) if (k := sum(i in per_bench[n] for n in names))}
    ranks = _ranked(list(means.items()), higher=False)
    for i, row in enumerate(out):
        row["rank"] = ranks.get(i)
        row["mean_rank"] = means.get(i)
        row["scored_on"] = sum(i in per_bench[n] for n in names)
        row["tied"] = sum(v == ranks.get(i) for v in ranks.values()) if i in ranks else 0
    return names, out


def scoring_cost(entry: dict) -> float | None:
    """The minutes a submission's scoring took its workers (every benchmark and every load of the model, from their own
    timing); None where its entry has no timing (published by hand, or by an older wordbench)."""
    seconds = entry.get("seconds") or {}
    return round(sum(seconds.values()) / 60, 2) if seconds else None


def cost_text(row: dict) -> str:
    """``12.3 GPU-min`` (or CPU-min, MPS-min): what a row's ``cost`` minutes ran on."""
    kind = {"cuda": "GPU", "cpu": "CPU"}.get(row.get("device") or "", (row.get("device") or "?").upper())
    return f"{row['cost']:,.1f} {kind}-min"


def hub_link(model: str, revision: str) -> str | None:
    """The model's page on the Hub at its pinned revision; None for a local model."""
    if Path(model).expanduser().exists() or model.startswith(("/", ".", "~")) or model.count("/") != 1:
        return None
    return f"https://huggingface.co/{model}/tree/{revision}"


def board_value(row: dict, column: str):
    """What ``column`` sorts ``row`` by; None (missing) sorts last in either direction."""
    if column in row["cells"]:
        return row["cells"][column]["sort"]
    value = row.get(column)
    return None if value in (None, "") else value


def sort_board(rows: list[dict], column: str, descending: bool = False) -> list[dict]:
    """Rows by ``column``, missing values last whichever the direction."""
    have = [r for r in rows if board_value(r, column) is not None]
    missing = [r for r in rows if board_value(r, column) is None]
    key = (lambda r: board_value(r, column)) if all(isinstance(board_value(r, column), (int, float)) for r in have) else \
        (lambda r: str(board_value(r, column)).lower())
    return sorted(have, key=key, reverse=descending) + missing


def board_heads(names: list[str]) -> list[tuple[str, str]]:
    """(column key, head text) of the table: identity, rank, one column per benchmark (headline and its direction), the rest."""
    benches = [(n, f"{get(n).headline.label} {'↑' if get(n).headline.higher_is_better else '↓'}") for n in names]
    return [(c, c) for c in BOARD_COLUMNS] + benches + [(c, c) for c in BOARD_TAIL]


def board_label(row: dict) -> str:
    """A row's name in the app's model picker: model, revision, dtype."""
    return f"{row['model']} · {row['revision']} · {row['dtype']}"


def board_html(names: list[str], rows: list[dict], sort: str | None = None, descending: bool = False, base: str = "",
               table_id: str = "submissions", link_reports: bool = True) -> str:
    """The table as HTML: the sorted column's head marked (▲ ascending, ▼ descending, and ``aria-sort``); an empty cell
    says why in its text and its tooltip; each figure links to its run's report (paths after ``base``)."""
    e = as_html
    heads = board_heads(names)
    head = "".join(f'<th data-key="{e(k)}"' + (f' aria-sort="{"descending" if descending else "ascending"}"' if k == sort else "")
                   + f">{e(t)}{(' ▼' if descending else ' ▲') if k == sort else ''}</th>" for k, t in heads)
    body = []
    for r in rows:
        tds = []
        for k, _ in heads:
            if k in names:
                c = r["cells"][k]
                if c["sort"] is None:
                    kind, _, detail = c["why"].partition(": ")
                    tds.append(f'<td class="missing" title="{e(c["why"])}">{e(kind)}<br><small>{e(detail)}</small></td>')
                else:
                    text = e(c["text"])
                    link = c["report"] and link_reports
                    group = (f' title="rank group {rank_text(c["rank"], c["tied"])}'
                             + (f': its interval overlaps those of the {c["tied"] - 1} other model(s) of the group"' if c["tied"] > 1 else '"')
                             if c.get("rank") else "")
                    tds.append(f'<td data-sort="{c["sort"]}"{group}>' + (f'<a href="{e(base + c["report"])}">{text}</a>' if link else text)
                               + (f' <small class="wb-rank">{rank_text(c["rank"], c["tied"])}</small>' if c.get("rank") else "") + "</td>")
                continue
            value = r.get(k)
            if k == "rank" and value:
                shared = f"; shared by {r['tied']} models" if r.get("tied", 1) > 1 else ""
                tds.append(f'<td data-sort="{r["mean_rank"]}" title="mean rank group {r["mean_rank"]:.3g} over {r["scored_on"]} '
                           f'benchmark(s){shared}">{rank_text(value, r.get("tied", 1))}</td>')
                continue
            if k == "revision" and len(str(value)) > 16:  # a Hub commit: its first 12 characters, the whole in the tooltip
                tds.append(f'<td title="{e(str(value))}"><code>{e(str(value)[:12])}</code></td>')
                continue
            if k == "params" and value is not None:
                sort_attr, value = f' data-sort="{value}"', _params_text(value)
            elif k == "cost" and value is not None:
                sort_attr, value = f' data-sort="{value}"', cost_text(r)
            else:
                sort_attr = ""
            if value in (None, ""):
                tds.append(f'<td class="missing" title="{e(_why_blank(k))}">–</td>')
            elif k == "link":
                tds.append(f'<td><a href="{e(value)}" rel="noopener">Hub</a></td>')
            else:
                tds.append(f"<td{sort_attr}>{e(str(value))}</td>")
        body.append(f'<tr data-label="{e(board_label(r))}">' + "".join(tds) + "</tr>")
    return (f'<table id="{e(table_id)}"><thead><tr>{head}</tr></thead><tbody>\n' + "\n".join(body) + "\n</tbody></table>\n")


def rank_text(rank: int, tied: int) -> str:
    """``3``, or ``=3`` where the rank is shared (a rank group: the intervals do not separate its models)."""
    return f"={rank}" if tied > 1 else str(rank)


def _params_text(n: int) -> str:
    for unit, size in (("B", 1e9), ("M", 1e6), ("k", 1e3)):
        if n >= size:
            return f"{n / size:.3g}{unit}"
    return str(n)


def _why_blank(column: str) -> str:
    return {"weights": "the weights' storage is read at submission; this run was published without it",
            "rank": "no benchmark scored yet", "params": "unknown (pickle weights, or published without a submission)",
            "submitted": "published without a submission", "link": "a local model", "family": "unknown",
            "cost": "not scored yet, or published without the worker's timing"}.get(column, "unknown")


def side_by_side_markdown(summaries: list[dict]) -> str:
    """One benchmark's runs side by side: a row per metric cell (``metric_cells``: every figure of the summaries,
    per-layer curves one row per layer), a column per run's model, the interval beside a figure where there is one."""
    if not summaries:
        return ""
    heads = [f"{s['model']['name']} ({s['model'].get('dtype', '')})" for s in summaries]
    cells = [{c["metric"]: c for c in metric_cells(s["metrics"], s.get("n"))} for s in summaries]
    metrics = list(dict.fromkeys(m for run in cells for m in run))

    def text(c):
        if c is None:
            return "–"
        return f"{c['value']:.4g}" + (f" [{c['ci_low']:.3g}, {c['ci_high']:.3g}]" if c["ci_low"] is not None else "")

    lines = ["| metric | " + " | ".join(heads) + " |", "|---|" + "---|" * len(heads)]
    lines += [f"| {m} | " + " | ".join(text(run.get(m)) for run in cells) + " |" for m in metrics]
    return "\n".join(lines) + "\n"

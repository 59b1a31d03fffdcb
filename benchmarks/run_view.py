"""One run as the leaderboard shows it behind a table cell: its headline with the interval and rank, its signature,
the report's tables with the run's figures beside them, and a page of its items from the details the worker
publishes (each item's fields, the model's scores or outputs, and the decision the benchmark counts).

A run is named by its folder in the results, ``runs/BENCHMARK/MODEL/RUN``; only a run the results hold is shown, so
a name typed into the page's address reads nothing else."""

from __future__ import annotations

import base64
import json
import re
from pathlib import Path

from wordbench.errors import ConfigError
from wordbench.text import as_html

from .registry import get
from .results import RunFolder
from .results_folder import check_summary

ITEMS_PER_PAGE = 50
FIELD_CAP = 160  # characters of a field shown in a cell; the whole field is in the cell's tooltip
FIGURE_CAP = 4_000_000  # bytes: a larger figure is named, not embedded
RUN_NAME = re.compile(r"runs/[^/\s]+/[^/\s]+/[^/\s]+")


def find_run(folder: Path, run: str) -> tuple[Path, dict]:
    """(folder, summary) of the stored run ``run`` names, its one summary read; anything the results do not hold (a
    name leaving ``runs/``, a folder without a summary) is one line of error."""
    if not isinstance(run, str) or not RUN_NAME.fullmatch(run) or any(part in (".", "..") for part in run.split("/")):
        raise ConfigError(f"{str(run)[:80]!r} names no run: a run is runs/BENCHMARK/MODEL/RUN")
    path = Path(folder) / run / "summary.json"
    if not path.is_file():
        raise ConfigError(f"the results hold no run {run[:120]}")
    summary = RunFolder(path.parent).summary()
    check_summary(summary, path)
    return path.parent, summary


def run_items(folder: Path, benchmark: str, run: str) -> list[dict]:
    """The records of ``run`` (its folder's name) in the ``details`` config, in id order; only the rows of that run are
    read from the parquet files."""
    import pyarrow.parquet as pq

    records = []
    for path in sorted((folder / "data" / "details").glob("*.parquet")):
        try:
            table = pq.read_table(path, columns=["benchmark", "run", "id", "record"],
                                  filters=[("run", "==", run), ("benchmark", "==", benchmark)])
        except Exception as exc:  # noqa: BLE001 - a damaged file: one line
            raise ConfigError(f"{path}: cannot read the details ({str(exc).splitlines()[0]})") from None
        records += [json.loads(r) for r in table.column("record").to_pylist()]
    return sorted(records, key=lambda r: str(r.get("id")))


def _field(value) -> str:
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)


def items_html(records: list[dict], scorer, page: int = 1, search: str = "") -> str:
    """One page of ``records`` as an HTML table: the item's id, each field, and the benchmark's decision and the item's
    part of the headline where the scorer gives them; ``search`` keeps the items whose text holds it."""
    if search:
        needle = search.lower()
        records = [r for r in records if needle in json.dumps(r, ensure_ascii=False).lower()]
    if not records:
        return "<p>No item matches.</p>" if search else ("<p>This run's items were not published (the worker publishes "
                                                          "them unless told not to: publish-results --no-records).</p>")
    pages = -(-len(records) // ITEMS_PER_PAGE)
    page = min(max(1, page), pages)
    shown = records[(page - 1) * ITEMS_PER_PAGE : page * ITEMS_PER_PAGE]
    fields = list(dict.fromkeys(k for r in shown for k in r if k != "id"))
    extra = [(name, fn) for name, fn in (("decision", scorer.decision), ("counts", scorer.headline_value))
             if any(fn(r) is not None for r in shown)]
    e = as_html
    head = "".join(f"<th>{e(h)}</th>" for h in ["id", *fields, *(n for n, _ in extra)])
    rows = []
    for r in shown:
        cells = [f"<td><code>{e(r.get('id'))}</code></td>"]
        for k in fields:
            text = _field(r.get(k, ""))
            short = text if len(text) <= FIELD_CAP else text[:FIELD_CAP] + "…"
            cells.append(f'<td title="{e(text[:4000])}">{e(short)}</td>' if short != text else f"<td>{e(text)}</td>")
        for _, fn in extra:
            value = fn(r)
            cells.append(f"<td>{e('–' if value is None else _field(value))}</td>")
        rows.append("<tr>" + "".join(cells) + "</tr>")
    what = "; counts: the item's part of the headline" if any(n == "counts" for n, _ in extra) else ""
    return (f'<p class="wb-items-head">Items {(page - 1) * ITEMS_PER_PAGE + 1:,}-{(page - 1) * ITEMS_PER_PAGE + len(shown):,} '
            f"of {len(records):,} (page {page} of {pages}){what}.</p>"
            f'<div class="wb-table-wrap"><table class="wb-items"><thead><tr>{head}</tr></thead><tbody>'
            + "".join(rows) + "</tbody></table></div>")


def report_html(run_folder: Path) -> str:
    """The run's report (Markdown, its markup shown as text) as HTML, and its figures embedded beside it."""
    from markdown_it import MarkdownIt

    report = run_folder / "report.md"
    text = report.read_text(encoding="utf-8") if report.is_file() else "(this run has no report)"
    text = re.sub(r"^!\[[^\]]*\]\(plots/[^)]*\)\s*$", "", text, flags=re.M)
    text = re.sub(r"^#", "##", text, flags=re.M)  # the report's headings below the run's own
    tables = MarkdownIt("commonmark", {"html": False}).enable("table").render(text)
    figures = []
    for png in sorted((run_folder / "plots").glob("*.png")):
        caption = as_html(png.stem.replace("_", " "))
        if png.stat().st_size > FIGURE_CAP:
            figures.append(f"<p>{caption}: a figure too large to show here ({png.stat().st_size:,} bytes)</p>")
            continue
        data = base64.b64encode(png.read_bytes()).decode()
        figures.append(f'<figure><img src="data:image/png;base64,{data}" alt="{caption}"><figcaption>{caption}</figcaption></figure>')
    return (f'<div class="wb-run-body"><div class="wb-run-tables">{tables}</div>'
            f'<div class="wb-run-figures">{"".join(figures) or "<p>No figure.</p>"}</div></div>')


def run_heading(run: str, summary: dict, cell: dict | None) -> str:
    """The run's heading: model, benchmark, headline with interval and rank group, n, the signature."""
    bench = get(summary["benchmark"])
    m, e = summary["model"], as_html
    value, ci = bench.headline.read(summary["metrics"]) if bench.headline else (None, None)
    headline = ""
    if value is not None:
        headline = (f"{e(bench.headline.label)}: <b>{value:.4g}</b>" + (f" [{ci[0]:.3g}, {ci[1]:.3g}]" if ci else "")
                    + f" ({'higher' if bench.headline.higher_is_better else 'lower'} is better)")
        if cell and cell.get("rank"):
            headline += f", rank group {'=' if cell['tied'] > 1 else ''}{cell['rank']}"
    return (f'<h2 class="wb-run-title">{e(m["name"])} on {e(bench.name)} {e(bench.version)}</h2>'
            f"<p>{headline}{'; ' if headline else ''}n = {e(summary.get('n', '?'))}; revision <code>{e(m.get('version', ''))}</code>, "
            f"{e(m.get('dtype', ''))}, {e(m.get('family', ''))}. Run <code>{e(run)}</code>.</p>"
            f'<p>Signature: <code class="wb-signature">{e(summary.get("signature", ""))}</code></p>')

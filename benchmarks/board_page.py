"""The leaderboard as text: the static HTML page and the Markdown a results dataset's card carries (each benchmark's
tables with every published model side by side), and the table the app shows."""

from __future__ import annotations

from pathlib import Path
from urllib.parse import quote

from wordbench.text import as_html, as_markdown

from .ranking import RANKS_TEXT, board, board_profiles, cell_text
from .registry import get
from .results import for_tables
from .results_folder import details_configs, metric_cells, submission_rows


def submissions_markdown(folder: Path) -> str:
    names, rows = submission_rows(folder)
    if not rows:
        return ""
    heads = [f"{get(n).headline.label} {'↑' if get(n).headline.higher_is_better else '↓'}" for n in names]
    lines = ["## Submissions", "", "One row per model (name, revision, dtype); each cell is the benchmark's headline figure with its "
             "interval, linked to its run's report. † marks a run scored with options other than a submission profile's.", "",
             "| model | revision | dtype | " + " | ".join(heads) + " |", "|---|---|---|" + "---|" * len(names)]
    for r in rows:
        cells = [f"[{as_markdown(cell_text(r['cells'].get(n)))}]({quote(r['cells'][n]['report'])})" if n in r["cells"] else "–" for n in names]
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
                 {"config_name": "details", "data_files": [{"split": "train", "path": "data/details/*.parquet"}]},
                 *details_configs(s["model"]["name"] for s in summaries)])
    body = (
        "# wordbench results\n\n"
        "Scores of language models on wordbench benchmarks, one row per model x benchmark x metric cell in the "
        "`results` config (with the full reproducibility signature, the model version, library versions, n and the "
        "interval where the scorer gives one) and one row per scored item in `details` (each model's items alone in "
        "`details_MODEL`, the model's name with `/` as `__`). A run published again replaces its rows.\n\n"
        "```python\nfrom datasets import load_dataset\n"
        f"results = load_dataset({repo_id or 'THIS_FOLDER'!r}, \"results\", split=\"train\").to_pandas()\n"
        "results[results.metric == \"antonym/all/mrr\"].sort_values(\"value\", ascending=False)\n```\n\n"
        "# Leaderboard\n\n" + submissions.replace("## Submissions", "## Submissions", 1)
        + (leaderboard_markdown(summaries) if summaries else "No run published yet.\n"))
    return f"---\n{data.to_yaml()}\n---\n\n{body}"


BOARD_COLUMNS = ("model", "revision", "dtype", "weights", "rank")  # then one column per benchmark, then BOARD_TAIL
BOARD_TAIL = ("family", "params", "cost", "submitted", "profile", "link")
MINOR_COLUMNS = ("revision", "weights", "family", "submitted", "profile", "link")  # hidden on a narrow page
BOARD_STYLE = ("#submissions th{cursor:pointer;white-space:nowrap}#submissions th[aria-sort]{background:#fde68a}"
               "#submissions td.missing{color:#777;font-style:italic}#submissions small{font-size:.75em}")


def cost_text(row: dict) -> str:
    """``12.3 GPU-min`` (or CPU-min, MPS-min): what a row's ``cost`` minutes ran on."""
    kind = {"cuda": "GPU", "cpu": "CPU"}.get(row.get("device") or "", (row.get("device") or "?").upper())
    minutes = row["cost"]
    return f"{minutes:,.1f} {kind}-min" if minutes >= 1 else f"{minutes:.2g} {kind}-min"


def board_heads(names: list[str]) -> list[tuple[str, str]]:
    """(column key, head text) of the table: identity, rank, one column per benchmark (headline and its direction), the rest."""
    benches = [(n, f"{get(n).headline.label} {'↑' if get(n).headline.higher_is_better else '↓'}") for n in names]
    return [(c, c) for c in BOARD_COLUMNS] + benches + [(c, c) for c in BOARD_TAIL]


def board_label(row: dict) -> str:
    """A row's name in the app's model picker: model, revision, dtype."""
    return f"{row['model']} · {row['revision']} · {row['dtype']}"


def board_html(names: list[str], rows: list[dict], sort: str | None = None, descending: bool = False, base: str = "",
               table_id: str = "submissions", link_reports: bool = True, hidden=(), compact: bool = False) -> str:
    """The table as HTML: the sorted column's head marked (▲ ascending, ▼ descending, and ``aria-sort``); an empty cell
    says why in its text and its tooltip; each figure links to its run's report (paths after ``base``); the columns
    ``hidden`` names are left out (the model column always shows). ``compact`` (the app's table): a figure shows its
    headline to three digits and its rank group, the interval in its tooltip, and links to its run's view
    (``?run=runs/BENCHMARK/MODEL/RUN``); the minor columns carry the class ``wb-minor``, which a narrow page hides."""
    e = as_html
    heads = [(k, t) for k, t in board_heads(names) if k == "model" or k not in hidden]
    minor = lambda k: ' class="wb-minor"' if compact and k in MINOR_COLUMNS else ""  # noqa: E731
    head = "".join(f'<th data-key="{e(k)}"{minor(k)}' + (f' aria-sort="{"descending" if descending else "ascending"}"' if k == sort else "")
                   + f">{e(t)}{(' ▼' if descending else ' ▲') if k == sort else ''}</th>" for k, t in heads)
    body = []
    for r in rows:
        tds = []
        for k, _ in heads:
            if k in names:
                c = r["cells"][k]
                if c["sort"] is None:
                    kind, _, detail = c["why"].partition(": ")
                    tds.append(f'<td class="missing" title="{e(c["why"])}">{e(kind)}' + ("" if compact else f"<br><small>{e(detail)}</small>") + "</td>")
                    continue
                group = ""
                if c.get("rank"):
                    group = f"rank group {rank_text(c['rank'], c['tied'])}" + (
                        f": its interval overlaps those of the {c['tied'] - 1} other model(s) of the group" if c["tied"] > 1 else "")
                rank = f' <small class="wb-rank">{rank_text(c["rank"], c["tied"])}</small>' if c.get("rank") else ""
                if compact:
                    short = f"{c['sort']:.3g}" + (" †" if c.get("profile", "") is None else "")
                    tip = "; ".join(x for x in (c["text"], group, "click for the run: its tables, figures and items") if x)
                    tds.append(f'<td data-sort="{c["sort"]}" data-run="{e(c["run"])}" title="{e(tip)}">'
                               f'<a class="wb-run" href="?run={e(quote(c["run"]))}">{e(short)}</a>{rank}</td>')
                    continue
                text = e(c["text"])
                link = c["report"] and link_reports
                tds.append(f'<td data-sort="{c["sort"]}"' + (f' title="{e(group)}"' if group else "") + ">"
                           + (f'<a href="{e(base + c["report"])}">{text}</a>' if link else text) + rank + "</td>")
                continue
            value = r.get(k)
            if k == "rank" and value:
                shared = f"; shared by {r['tied']} models" if r.get("tied", 1) > 1 else ""
                tds.append(f'<td data-sort="{r["mean_rank"]}" title="mean rank group {r["mean_rank"]:.3g} over {r["scored_on"]} '
                           f'benchmark(s){shared}">{rank_text(value, r.get("tied", 1))}</td>')
                continue
            if k == "revision" and len(str(value)) > 16:  # a Hub commit: its first 12 characters, the whole in the tooltip
                tds.append(f'<td{minor(k)} title="{e(str(value))}"><code>{e(str(value)[:12])}</code></td>')
                continue
            if k == "params" and value is not None:
                sort_attr, value = f' data-sort="{value}"', _params_text(value)
            elif k == "cost" and value is not None:
                sort_attr, value = f' data-sort="{value}"', cost_text(r)
            else:
                sort_attr = ""
            if value in (None, ""):
                tds.append(f'<td class="missing{" wb-minor" if minor(k) else ""}" title="{e(_why_blank(k))}">–</td>')
            elif k == "link":
                tds.append(f'<td{minor(k)}><a href="{e(value)}" rel="noopener">Hub</a></td>')
            else:
                tds.append(f"<td{sort_attr}{minor(k)}>{e(str(value))}</td>")
        body.append(f'<tr data-label="{e(board_label(r))}">' + "".join(tds) + "</tr>")
    return (f'<table id="{e(table_id)}"><thead><tr>{head}</tr></thead><tbody>\n' + "\n".join(body) + "\n</tbody></table>\n")


def waiting_html(rows: list[dict]) -> str:
    """The requests not scored yet or failed, apart from the scored table: model, revision, dtype, family, size, the
    day submitted, the status and why (the failure's reason, or the workers holding it)."""
    if not rows:
        return ""
    e = as_html
    body = []
    for r in rows:
        why = next((c["why"] for c in r["cells"].values()), "") or ""
        body.append(f'<tr data-status="{e(r["status"])}"><td>{e(r["model"])}</td><td><code>{e(str(r["revision"])[:12])}</code></td>'
                    f'<td>{e(r["dtype"])}</td><td>{e(r["family"] or "–")}</td>'
                    f'<td>{e(_params_text(r["params"]) if r["params"] is not None else "–")}</td><td>{e(r["submitted"] or "–")}</td>'
                    f'<td>{e(r["status"])}</td><td>{e(why.partition(": ")[2] or why)}</td></tr>')
    return (f'<h3 id="wb-waiting-head">Not scored yet, or failed ({len(rows)})</h3><table id="board-waiting"><thead><tr>'
            "<th>model</th><th>revision</th><th>dtype</th><th>family</th><th>params</th><th>submitted</th><th>status</th>"
            "<th>why</th></tr></thead><tbody>" + "".join(body) + "</tbody></table>")


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

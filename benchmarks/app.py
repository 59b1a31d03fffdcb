"""The leaderboard app (``wordbench serve``, and a Hub Space from ``wordbench space export``): four tabs over the queue
and the results dataset. A thin layer: submissions go through ``submit.admit`` (the admission ``wordbench submit``
runs), requests are read through the ``Queue`` interface and the table is ``ranking.board``. Every view is a
function returning text, so a fault (a damaged request file, a missing results folder, a read-only queue) is a
message in the page while the server goes on; Gradio is imported only by ``build_app``."""

from __future__ import annotations

import os
import re
import time
from datetime import datetime, timezone
from pathlib import Path

from wordbench.cache import cache_dir
from wordbench.errors import WordbenchError, warn
from wordbench.scorers.models.load import FAMILIES
from wordbench.text import as_code, as_html, as_markdown, typed_line

from . import __version__
from .hubfaults import scrub
from .ranking import RANKS_TEXT, board, board_profiles, sort_board
from .board_page import BOARD_STYLE, board_heads, board_html, board_label as row_label, waiting_html
from .submissions import damaged_files
from .results_folder import stored_summaries
from .packaged import packaged
from .queue import DTYPES, STATUSES, open_queue
from .registry import get
from .submit import MODEL_CAP, admit
from .suite import parse_names

SPACE_EXTRA = "pip install 'wordbench[space]'"
ORDERS = ("ascending", "descending")
SIZES = (("under 1M", 0, 1e6), ("1M-1B", 1e6, 1e9), ("1B-10B", 1e9, 1e10), ("over 10B", 1e10, float("inf")))
RESULTS_TTL_S = 60  # a Hub results dataset is downloaded again at most this often


class Refusal(WordbenchError):
    """A submission the web form does not take (a local path on a public server, no name, no sign-in)."""


PER_PAGE = 25  # rows of the board per page
MORE_FILTERS = (("dtypes", "dtype"), ("weight types", "weights"), ("statuses", "status"))  # (choice list, row key)


class NoResultsYet(WordbenchError):
    """The results folder is not there yet: no worker has published a model. The first state of every leaderboard."""


EMPTY_BOARD = ('<p class="wb-empty">No model has been scored yet. Submit one in the Submit tab: its row appears here, '
               "pending, at once, and its scores when a worker has scored it.</p>")


def error_html(message: str) -> str:
    return f'<div class="wb-error" role="alert">{as_html(message)}</div>'


def one_line(exc: BaseException, token: str | None = None) -> str:
    """An exception as the page shows it: its first line (an OS error names the file), never a traceback or a token."""
    if isinstance(exc, OSError) and not isinstance(exc, WordbenchError):
        where = f" {exc.filename}" if exc.filename else ""
        text = f"cannot use{where}: {exc.strerror or exc}"
    else:
        text = (str(exc).strip().splitlines() or [type(exc).__name__])[0]
        if not isinstance(exc, WordbenchError):
            text = f"{type(exc).__name__}: {text}"
    return scrub(text, token)


def looks_local(model: str) -> bool:
    """A path rather than a Hub id (``NAME`` or ``ORG/NAME``)."""
    return (model.startswith(("/", ".", "~")) or model.count("/") > 1 or "\\" in model or model.endswith(".gguf")
            or Path(model).expanduser().exists())


def age(iso: str | None, now: datetime | None = None) -> str:
    if not iso:
        return "–"
    try:
        seconds = ((now or datetime.now(timezone.utc)) - datetime.fromisoformat(iso)).total_seconds()
    except ValueError:
        return "?"
    for unit, size in (("d", 86400), ("h", 3600), ("min", 60)):
        if seconds >= size:
            return f"{seconds / size:.0f} {unit}"
    return f"{max(seconds, 0):.0f} s"


def page_number(value):
    """A page box's text as a number (-1 where it is no number); any other value as it came, for the check."""
    if isinstance(value, str):
        return int(value) if value.strip().isdigit() else -1
    return value


def number_problem(what: str, n, most: int) -> str | None:
    """Why ``n`` (a page, a count of rows) is no number from 1 to ``most``; None where it is one, or not given."""
    if n is not None and (not isinstance(n, (int, float)) or isinstance(n, bool) or not 1 <= n <= most):
        return f"{what} must be a number from 1 to {most:,}"
    return None


def control_problem(sort, order, families, sizes, search, lists=(), page=1, per_page=PER_PAGE) -> str | None:
    """Why the Leaderboard tab's controls hold a value the form never offers (None: they do not). ``lists``: the
    other choice lists (dtype, weights, status, hidden columns), each a list of short texts."""
    for values in lists:
        if not isinstance(values, (list, tuple, type(None))) or any(not isinstance(v, str) or len(v) > 64 for v in values or ()):
            return "a filter is a list of short texts"
    for what, n, most in (("page", page, 10**6), ("rows per page", per_page, 500)):
        if (problem := number_problem(what, n, most)) is not None:
            return problem
    if not isinstance(sort, (str, type(None))) or not isinstance(search, (str, type(None))):
        return "sort and search are text"
    if order not in ORDERS:
        return f"order {str(order)[:40]!r} is not one of {', '.join(ORDERS)}"
    for what, values, known in (("family", families, FAMILIES), ("size", sizes, [s for s, *_ in SIZES] + ["unknown"])):
        if not isinstance(values, (list, tuple, type(None))):
            return f"{what} is a list of choices"
        bad = [v for v in values or () if v not in known]
        if bad:
            return f"{what} {str(bad[0])[:40]!r} is not one of {', '.join(known)}"
    if search and len(search) > MODEL_CAP:
        return f"the search is {len(search):,} characters long; at most {MODEL_CAP} are taken"
    return None


class Leaderboard:
    """What the app serves: the queue (``Q``: a folder or ``hf:ORG/NAME``) and the results (a folder or ``hf:ORG/NAME``).
    Each method is one view of a tab and never raises."""

    def __init__(self, queue: str, results: str, allow_local: bool = False, token: str | None = None, cache: Path | None = None):
        self.queue_spec, self.results_spec, self.allow_local, self.token = str(queue), str(results), allow_local, token
        self.cache = Path(cache) / "space" if cache else None  # default: the wordbench cache, resolved when a Hub snapshot is read
        self._fetched = 0.0

    # data -----------------------------------------------------------------------------------------------------------
    def results_folder(self) -> Path:
        """The results folder: the local one, or the Hub dataset's snapshot (refreshed every ``RESULTS_TTL_S``)."""
        if not self.results_spec.startswith("hf:"):
            folder = Path(self.results_spec).expanduser()
            if not folder.is_dir():
                raise NoResultsYet(f"results folder {folder} does not exist yet: it appears when a worker "
                                   f"(wordbench worker --results {folder}) publishes its first model")
            return folder
        repo = self.results_spec[3:]
        folder = self.snapshots() / repo.replace("/", "--")
        if time.time() - self._fetched > RESULTS_TTL_S or not folder.is_dir():
            from huggingface_hub import snapshot_download

            snapshot_download(repo, repo_type="dataset", local_dir=str(folder), token=self.token,
                              allow_patterns=["runs/**", "submissions/*", "data/**", "*.md", ".wordbench-results.json"])
            self._fetched = time.time()
        return folder

    def snapshots(self) -> Path:
        """Where Hub results snapshots are kept (and the page may serve their figures from)."""
        return self.cache or cache_dir("space")

    def served(self) -> list[str]:
        """The folders whose files (figures) the page may serve: the results folder, or the Hub snapshots' folder."""
        if self.results_spec.startswith("hf:"):
            return [str(self.snapshots().resolve())]
        return [str(Path(self.results_spec).expanduser().resolve())]

    def scan(self):
        """(requests, unreadable files) of the queue: a damaged request file is named, never hides the others."""
        return open_queue(self.queue_spec, self.token).scan()

    def requests(self):
        return self.scan()[0]

    @staticmethod
    def unreadable_line(item) -> str:
        return f"{item.path} is not a wordbench request (a worker sets it aside): {item.reason}"

    def rows(self) -> tuple[list[str], list[dict], list[str]]:
        """(benchmarks, rows, problems): what could be read, and a line for each part that could not."""
        problems, requests, folder = [], [], None
        try:
            requests, unreadable = self.scan()
            problems += [self.unreadable_line(u) for u in unreadable]
        except Exception as exc:  # noqa: BLE001 - shown in the page
            problems.append(f"The queue could not be read, so models not yet scored are missing: {one_line(exc, self.token)}")
        try:
            folder = self.results_folder()
            problems += [f"Damaged, left out of the table: {line}" for line in damaged_files(folder)]
        except NoResultsYet:  # the normal first state of a leaderboard, not a problem
            folder = None
        except Exception as exc:  # noqa: BLE001
            problems.append(f"No scores to show: {one_line(exc, self.token)}")
        try:
            names, rows = board(folder, requests)
        except Exception as exc:  # noqa: BLE001 - a damaged results folder: the queue's rows at least
            problems.append(f"The results could not be read: {one_line(exc, self.token)}")
            names, rows = board(None, requests)
        return names, rows, problems

    # Leaderboard tab ------------------------------------------------------------------------------------------------
    def shaped(self, sort="rank", order="ascending", families=(), sizes=(), search="", dtypes=(), weights=(), statuses=(),
               hidden=(), page=1, per_page=PER_PAGE) -> str:
        """The table as the controls ask for it. A value no control offers (sent through the API) is refused in one line
        in the page, as the form would not take it."""
        page, per_page = page_number(page), page_number(per_page)  # the page box's text
        problem = control_problem(sort, order, families, sizes, search, (dtypes, weights, statuses, hidden), page, per_page)
        if problem:
            return error_html(problem)
        return self.table(sort or "rank", order == "descending", tuple(families or ()), tuple(sizes or ()), search or "",
                          tuple(dtypes or ()), tuple(weights or ()), tuple(statuses or ()), tuple(hidden or ()), page, per_page)

    def table(self, sort: str = "rank", descending: bool = False, families=(), sizes=(), search: str = "", dtypes=(), weights=(),
              statuses=(), hidden=(), page: int | float | None = 1, per_page: int | float | None = PER_PAGE) -> str:
        """The board as HTML: filtered (family, size, dtype, weights, status, a search by name), sorted, the columns
        ``hidden`` names left out, one page of ``per_page`` rows shown."""
        try:
            names, rows, problems = self.rows()
            keys = [k for k, _ in board_heads(names)]
            sort = sort if sort in keys and sort not in (hidden or ()) else "rank"
            for key, wanted in (("dtype", dtypes), ("weights", weights), ("status", statuses)):
                if wanted:
                    rows = [r for r in rows if (r[key] or "unknown") in wanted]
            if families:
                rows = [r for r in rows if r["family"] in families]
            if sizes:
                bounds = [b for b in SIZES if b[0] in sizes]
                rows = [r for r in rows if (r["params"] is None and "unknown" in sizes)
                        or (r["params"] is not None and any(lo <= r["params"] < hi for _, lo, hi in bounds))]
            if search.strip():
                rows = [r for r in rows if search.strip().lower() in r["model"].lower()]
            out = "".join(error_html(p) for p in problems)
            profiles = board_profiles(names, rows)
            filtered = search or families or sizes or dtypes or weights or statuses
            if not rows:
                return out + "<p>No model matches.</p>" if names or filtered else out + EMPTY_BOARD
            scored = [r for r in rows if r["status"] == "scored"]
            waiting = [r for r in rows if r["status"] != "scored"]
            per = max(1, int(per_page or PER_PAGE))
            pages = max(1, -(-len(scored) // per))
            at = min(max(1, int(page or 1)), pages)
            shown = sort_board(scored, sort, descending)[(at - 1) * per : at * per]
            table = (board_html(names, shown, sort, descending, base="", table_id="board", link_reports=False, hidden=set(hidden or ()),
                                compact=True) if scored else "<p>No scored model matches.</p>")
            return (out + f"<p>Profile: {as_html(profiles)}. A figure opens its run (tables, figures, items); hover it for "
                    f"its interval. Click a column's head to sort (empty cells stay last), a row's name to open its reports "
                    f"below. Page {at} of {pages} ({len(scored)} scored).</p>" + table + waiting_html(waiting))
        except Exception as exc:  # noqa: BLE001 - never a traceback in the page
            warn(f"leaderboard table: {one_line(exc)}")
            return error_html(f"The leaderboard could not be drawn: {one_line(exc, self.token)}")

    def choices(self) -> dict:
        """What every control offers, from one read of the rows: families, sizes, sortable columns, dtypes, weight types,
        statuses and the scored models."""
        try:
            names, rows, _ = self.rows()
        except Exception:  # noqa: BLE001 - no choices: the table says why
            names, rows = [], []
        sizes = [s for s, lo, hi in SIZES if any(r["params"] is not None and lo <= r["params"] < hi for r in rows)]
        sizes += ["unknown"] if any(r["params"] is None for r in rows) else []
        return {"families": sorted({r["family"] for r in rows if r["family"]}), "sizes": sizes,
                "columns": [k for k, _ in board_heads(names)],
                **{name: sorted({r[key] or "unknown" for r in rows}) for name, key in MORE_FILTERS},
                "models": [row_label(r) for r in rows if r["status"] == "scored"]}

    def filters(self) -> tuple[list[str], list[str], list[str]]:
        """(families, size buckets, sortable columns) for the controls."""
        c = self.choices()
        return c["families"], c["sizes"], c["columns"]

    def more_filters(self) -> tuple[list[str], list[str], list[str]]:
        """(dtypes, weight types, statuses) the rows hold, for the controls."""
        c = self.choices()
        return tuple(c[name] for name, _ in MORE_FILTERS)

    def model_choices(self) -> list[str]:
        return self.choices()["models"]

    def run_view(self, run: str | None) -> str:
        """A run's heading, tables and figures (``run_view``); a name the results do not hold is one line."""
        if not run:
            return "<p>Click a figure in the Leaderboard tab to open its run here.</p>"
        try:
            from .run_view import find_run, report_html, run_heading

            folder = self.results_folder()
            run_folder, summary = find_run(folder, run.strip())
            names, rows, _ = self.rows()
            cell = next((r["cells"][summary["benchmark"]] for r in rows if summary["benchmark"] in r["cells"]
                         and r["cells"][summary["benchmark"]].get("run") == run.strip()), None)
            return run_heading(run.strip(), summary, cell) + report_html(run_folder)
        except Exception as exc:  # noqa: BLE001 - one line in the page
            return error_html(f"No run to show: {one_line(exc, self.token)}")

    def run_items(self, run: str | None, page="1", search: str = "") -> str:
        """One page of a run's items (``run_view.items_html``): the page number and the search are checked as every
        control's value is."""
        if not run:
            return ""
        page = page_number(page)
        problem = number_problem("page", page if isinstance(page, int) else -1, 10**6)  # a whole number: it slices the items
        if problem:
            return error_html(problem)
        if not isinstance(search, (str, type(None))) or len(search or "") > MODEL_CAP:
            return error_html(f"the search is text of at most {MODEL_CAP} characters")
        try:
            from .run_view import find_run, items_html, run_items

            folder = self.results_folder()
            run_folder, summary = find_run(folder, run.strip())
            bench = get(summary["benchmark"])
            records = run_items(folder, summary["benchmark"], run_folder.name)
            return items_html(records, bench.scorer(**summary.get("options", {})), page, (search or "").strip())
        except Exception as exc:  # noqa: BLE001
            return error_html(f"No items to show: {one_line(exc, self.token)}")

    def details(self, label: str | None) -> tuple[str, list[tuple[str, str]]]:
        """A model's per-benchmark reports (markdown, figures shown below) and its figures as (path, caption)."""
        if not label:
            return "Pick a model (or click its row) to read its per-benchmark tables and figures.", []
        try:
            names, rows, _ = self.rows()
            row = next((r for r in rows if row_label(r) == label), None)
            if row is None:
                return f"No model {as_markdown(label)} on the leaderboard.", []
            folder = None if row["status"] != "scored" else self.results_folder()
            parts, figures = [f"## {as_markdown(row['model'])}\n\nrevision {as_code(row['revision'])}, {as_markdown(row['dtype'])}, "
                              f"weights {as_markdown(row['weights'] or 'unknown')}, {as_markdown(row['family'])}, "
                              f"profile {as_markdown(row['profile'])}"], []
            for n in names:
                cell = row["cells"][n]
                if cell["report"] is None:
                    parts.append(f"### {n}\n\n{cell['why']}")
                    continue
                report = folder / cell["report"]
                text = report.read_text(encoding="utf-8") if report.is_file() else f"(report missing: {cell['report']})"
                text = re.sub(r"^!\[[^\]]*\]\(plots/[^)]*\)\s*$", "", text, flags=re.M)  # figures go to the gallery
                parts.append(f"### {n}\n\n" + "\n".join("###" + line if line.startswith("#") else line for line in text.splitlines()))
                figures += [(str(p), f"{n}: {p.stem.replace('_', ' ')}") for p in sorted((report.parent / "plots").glob("*.png"))]
            return "\n\n".join(parts), figures
        except Exception as exc:  # noqa: BLE001
            return f"**The reports could not be read:** {as_markdown(one_line(exc, self.token))}", []

    def model_names(self) -> list[str]:
        """The names of the models with a published run (what ``compare`` takes)."""
        try:
            return sorted({s["model"]["name"] for s in stored_summaries(self.results_folder())})
        except NoResultsYet:
            return []

    def compare(self, benchmark: str | None, first: str | None, second: str | None) -> str:
        """Two models on one benchmark: both headlines, the difference with its interval, the items they decide
        differently (``benchmarks.compare``)."""
        if not (benchmark and first and second):
            return "Pick a benchmark and two models."
        if first == second:
            return "Pick two different models."
        try:
            from .compare import compare, compare_markdown

            return compare_markdown(compare(self.results_folder(), benchmark, first, second))
        except NoResultsYet:
            return "No run published yet."
        except Exception as exc:  # noqa: BLE001 - one line on the page, as every view
            return f"**No comparison:** {as_markdown(one_line(exc, self.token))}"

    def side_by_side(self, benchmark: str | None) -> str:
        """One benchmark's figures with every model side by side: one table, a column per model (VAST's per-layer
        curves one row per layer), not one section per model."""
        if not benchmark:
            return ""
        try:
            from .board_page import side_by_side_markdown

            try:
                published = stored_summaries(self.results_folder())
            except NoResultsYet:
                published = []
            group = sorted((s for s in published if s["benchmark"] == benchmark), key=lambda s: s["model"]["name"])
            if not group:
                return f"No run of {as_markdown(benchmark)} published yet."
            return f"Signature of the first run: {as_code(group[0]['signature'])}\n\n" + side_by_side_markdown(group)
        except Exception as exc:  # noqa: BLE001
            return f"**{as_markdown(benchmark)} could not be shown:** {as_markdown(one_line(exc, self.token))}"

    # Submit tab -----------------------------------------------------------------------------------------------------
    def submit(self, model: str, revision: str = "", dtype: str = "", submitter: str = "") -> str:
        """Admit ``model`` through the one admission function; the request queued, or the one-line refusal."""
        *_, answer = self.submit_steps(model, revision, dtype, submitter)
        return answer

    def submit_steps(self, model, revision="", dtype="", submitter=""):
        """``submit`` as the page shows it: a line for each admission check as it starts (a local model's files are
        hashed, a Hub model's revision pinned), then the answer. Every value is refused in one line where the form
        would not offer it (a dtype outside its list, text over its length), so the API gets what the form gets."""
        import queue as threads_queue
        import threading

        lines: threads_queue.Queue = threads_queue.Queue()
        outcome: dict = {}

        def run():
            try:
                outcome["request"] = self._admit(model, revision, dtype, submitter, lambda line: lines.put(line))
            except Exception as exc:  # noqa: BLE001 - every refusal is its one line
                outcome["error"] = exc
            lines.put(None)

        worker = threading.Thread(target=run, daemon=True)
        worker.start()
        done: list[str] = []
        while (line := lines.get()) is not None:
            done.append(line)
            yield "Checking the submission: " + " · ".join(as_markdown(d) for d in done) + " …"
        worker.join()
        if "error" in outcome:
            exc = outcome["error"]
            if not isinstance(exc, WordbenchError):
                warn(f"submission of {str(model)[:200]!r}: {one_line(exc)}")
            yield f"**Refused:** {as_markdown(one_line(exc, self.token))}"
            return
        r = outcome["request"]
        yield (f"**Queued** request {as_code(r.id)}: {as_markdown(r.model)} at revision {as_code(r.revision)} "
               f"({as_markdown(r.family)}, {r.dtype}, {r.params if r.params is not None else 'unknown'} parameters), profile "
               f"{as_markdown(r.profile)}, {len(r.suite)} benchmark(s). Status: **{r.status}** (see the Queue tab).")

    def _admit(self, model, revision, dtype, submitter, step):
        for name, value in (("model", model), ("revision", revision), ("dtype", dtype), ("submitter", submitter)):
            if value is not None and not isinstance(value, str):
                raise Refusal(f"the {name} is text, not {type(value).__name__}")
        model = typed_line(model, "the model", MODEL_CAP)
        if not model:
            raise Refusal("give a model: a Hub id (ORG/NAME)")
        if not (submitter or "").strip():
            raise Refusal("give your name (or sign in with the Hub): each submitter may have a limited number of pending requests")
        if dtype and dtype not in DTYPES:
            raise Refusal(f"dtype {dtype[:40]!r} is not one of the form's: {', '.join(DTYPES)}")
        if model.startswith("packaged:"):
            if not self.allow_local:
                raise Refusal(f"{model} is a packaged local model: this server takes Hub ids only (it takes local models when "
                              "started with --allow-local-paths)")
            model = packaged(model)
        elif looks_local(model) and not self.allow_local:
            raise Refusal(f"{model} is a local path: this server takes Hub ids only (it takes paths when started with --allow-local-paths)")
        return admit(model, open_queue(self.queue_spec, self.token), dtype or None, submitter, (revision or "").strip() or None,
                     self.token, step=step)

    # Queue tab ------------------------------------------------------------------------------------------------------
    def queue_view(self) -> str:
        try:
            requests, unreadable = self.scan()
        except Exception as exc:  # noqa: BLE001
            return error_html(f"The queue could not be read: {one_line(exc, self.token)}")
        notes = "".join(error_html(self.unreadable_line(u)) for u in unreadable)
        if not requests:
            return notes + "<p>No request yet.</p>"
        e, parts = as_html, [notes]
        for status in STATUSES:
            group = [r for r in requests if r.status == status]
            if not group:
                continue
            rows = "".join(
                f"<tr><td>{e(r.model)}</td><td><code>{e(r.revision[:12])}</code></td><td>{e(r.dtype)}</td><td>{e(r.submitter)}</td>"
                f"<td>{age(r.submitted)}</td><td>{e(r.holders() if r.tasks else r.worker or '–')}</td><td>{age(r.finished) + ' ago' if r.finished else '–'}</td>"
                f"<td>{e(r.reason or '')}</td><td><code>{e(r.id)}</code></td></tr>" for r in group)
            parts.append(f'<h3 id="queue-{status.lower()}">{status} ({len(group)})</h3><table class="wb-queue" data-status="{status}">'
                         "<thead><tr><th>model</th><th>revision</th><th>dtype</th><th>submitter</th><th>age</th><th>worker</th>"
                         f"<th>finished</th><th>reason</th><th>request</th></tr></thead><tbody>{rows}</tbody></table>")
        return "".join(parts)

    # About tab ------------------------------------------------------------------------------------------------------
    def about(self) -> str:
        from wordbench.benchmarks.signature import library_versions

        lines = ["## How the numbers are made", "",
                 "Every submitted model is admitted before it is queued (its revision pinned to a commit or a content hash, "
                 "safetensors or GGUF weights only, no code of its own, a size limit), then a worker scores the suite with one "
                 "load of the model, on the queue's submission profile, and publishes each run to the results dataset. Each "
                 "number carries its **signature**, which names everything that changes it: the data (builder version, sources "
                 "and their versions, seed, config hash), the sample (`limit`), the scoring options, the model (name, pinned "
                 "revision, family, dtype) and the library versions. Two runs with the same signature give the same number.", "",
                 "## Ranks", "", RANKS_TEXT, "",
                 "The cost column is the minutes scoring a submission took its workers (every benchmark and every load of "
                 "the model, from the workers' own timing), on the device they ran on (GPU-min, CPU-min).", ""]
        try:
            summaries = stored_summaries(self.results_folder())
            if summaries:
                lines += ["An example, the signature of one published run:", "", as_code(summaries[0]['signature']), ""]
        except Exception:  # noqa: BLE001 - the example is optional
            pass
        lines += ["## Benchmarks", ""]
        for name in parse_names("all"):
            b = get(name)
            head = b.headline
            lines += [f"### {b.name} {b.version}", "", b.summary, "",
                      f"Headline: {head.label} ({'higher' if head.higher_is_better else 'lower'} is better)." if head else "",
                      "Profiles: " + "; ".join(f"{p} ({f'at most {pr.limit} items' if pr.limit else 'every item'}"
                                               + "".join(f", {k}={v}" for k, v in pr.options) + ")" for p, pr in b.profiles) + ".", "",
                      f"Paper: {b.paper_url}" if b.paper_url else "", "", "```bibtex", b.citation.strip(), "```", ""]
        versions = {"wordbench": __version__, **library_versions()}
        try:
            import gradio

            versions["gradio"] = gradio.__version__
        except ImportError:
            pass
        lines += ["## Versions", "", ", ".join(f"{k} {v}" for k, v in versions.items()), ""]
        return "\n".join(line for line in lines if line is not None)


CSS = BOARD_STYLE.replace("#submissions", "#board") + (
    ".wb-error{background:#fee2e2;border:1px solid #b91c1c;color:#7f1d1d;padding:.5em .75em;margin:.5em 0;border-radius:4px}"
    "#board,#board-waiting,.wb-queue,.wb-items{border-collapse:collapse;font-size:.9em;width:100%}"
    "#board td,#board th,#board-waiting td,#board-waiting th,.wb-queue td,.wb-queue th,.wb-items td,.wb-items th"
    "{border:1px solid #d4d4d8;padding:.25em .4em;text-align:left;vertical-align:top}"
    "#board th{white-space:normal;font-size:.85em}#board td{white-space:nowrap}#board tbody tr{cursor:pointer}"
    "#board td:first-child{white-space:normal;overflow-wrap:anywhere;min-width:8em;max-width:16em}"
    "#board td:first-child,#board th:first-child{position:sticky;left:0;background:var(--background-fill-primary,#fff)}"
    "#board tbody tr:hover{background:#f4f4f5}#board td.missing{font-size:.8em}.wb-table-wrap{overflow-x:auto}"
    ".wb-hidden{display:none!important}.wb-items td{max-width:30em;overflow-wrap:anywhere}.wb-signature{word-break:break-all}"
    ".wb-run-body{display:grid;grid-template-columns:minmax(0,3fr) minmax(0,2fr);gap:1em}.wb-run-tables{overflow-x:auto}"
    ".wb-run-tables table{font-size:.85em}.wb-run-figures{position:sticky;top:0;align-self:start}.wb-run-figures img{max-width:100%}"
    "@media (max-width:1000px){#board .wb-minor{display:none}#board td{white-space:normal}#board{font-size:.8em}"
    "#board td:first-child{min-width:5em}.wb-run-body{grid-template-columns:minmax(0,1fr)}"
    ".wb-run-figures{position:static}}")

# Clicking a column's head, a figure or a row writes into a hidden text box that Python watches: no script leaves the
# page. A figure's link (?run=...) also opens its run when loaded as an address, in a new tab or shared.
CLICKS = """() => {
  document.addEventListener('click', (ev) => {
    const run = ev.target.closest('#board a.wb-run');
    if (run && (ev.ctrlKey || ev.metaKey || ev.shiftKey || ev.button !== 0)) return;
    if (run) ev.preventDefault();
    const th = ev.target.closest('#board th'), tr = ev.target.closest('#board tbody tr');
    const act = run ? 'run:' + run.closest('td').dataset.run : th ? 'sort:' + th.dataset.key : tr ? 'open:' + tr.dataset.label : null;
    if (!act || (!run && ev.target.closest('a'))) return;
    const box = document.querySelector('#wb-action textarea, #wb-action input');
    box.value = act + '|' + Date.now();
    box.dispatchEvent(new Event('input', {bubbles: true}));
  });
}"""


def build_app(queue: str, results: str, allow_local: bool = False, token: str | None = None, hub_login: bool = False):
    """The Gradio app. ``hub_login``: on a Space, submitters sign in with the Hub and their Hub name is the submitter
    (the name box is not used)."""
    os.environ.setdefault("GRADIO_ANALYTICS_ENABLED", "False")
    import gradio as gr

    lb = Leaderboard(queue, results, allow_local, token)
    font = ["ui-sans-serif", "system-ui", "sans-serif"]  # system fonts: no font is fetched from a CDN
    theme = gr.themes.Default(font=font, font_mono=["ui-monospace", "monospace"])
    with gr.Blocks(title="wordbench leaderboard", theme=theme, css=CSS, js=CLICKS, analytics_enabled=False, fill_width=True) as demo:
        gr.Markdown(f"# wordbench leaderboard\nWord-level benchmarks of language models (wordbench {__version__}).")
        with gr.Tabs() as tabs:
            with gr.Tab("Leaderboard", id="leaderboard"):
                with gr.Row():
                    search = gr.Textbox(label="Search by name", scale=2)
                    # every list takes any value at the API and the view refuses what the form would not offer (in
                    # one line), rather than Gradio raising inside its preprocessing with a traceback in the log
                    family = gr.Dropdown(label="Family", choices=[], value=[], multiselect=True, allow_custom_value=True, scale=2)
                    size = gr.Dropdown(label="Parameters", choices=[], value=[], multiselect=True, allow_custom_value=True, scale=2)
                with gr.Row():
                    dtype_f = gr.Dropdown(label="Precision", choices=[], value=[], multiselect=True, allow_custom_value=True, scale=1, elem_id="wb-precision")
                    weights_f = gr.Dropdown(label="Weight type", choices=[], value=[], multiselect=True, allow_custom_value=True, scale=1)
                    status_f = gr.Dropdown(label="Status", choices=[], value=[], multiselect=True, allow_custom_value=True, scale=1)
                    hide = gr.Dropdown(label="Hide columns", choices=[], value=[], multiselect=True, allow_custom_value=True, scale=2, elem_id="wb-hide")
                with gr.Row():
                    sort = gr.Dropdown(label="Sort by", choices=["rank"], value="rank", scale=2, allow_custom_value=True)
                    order = gr.Dropdown(list(ORDERS), value="ascending", label="Order", scale=1, allow_custom_value=True)
                    page = gr.Textbox(label="Page", value="1", scale=0, max_lines=1, elem_id="wb-page")  # text: any value reaches shaped, which refuses in one line
                    per_page = gr.Dropdown([10, 25, 50, 100], value=PER_PAGE, label="Rows per page", scale=0, allow_custom_value=True, elem_id="wb-per-page")
                    refresh = gr.Button("Refresh", scale=0)
                action = gr.Textbox(elem_id="wb-action", elem_classes="wb-hidden", show_label=False, container=False)
                table = gr.HTML(elem_classes="wb-table-wrap", elem_id="wb-table")
                gr.Markdown("## A model's reports")
                pick = gr.Dropdown(label="Model", choices=[], value=None, allow_custom_value=True)
                report = gr.Markdown()
                gallery = gr.Gallery(label="Figures", columns=2, height=460, object_fit="contain", visible=False)
                gr.Markdown("## One benchmark, every model side by side")
                bench = gr.Dropdown(label="Benchmark", choices=parse_names("all"), value=None, allow_custom_value=True, elem_id="wb-bench")
                side = gr.Markdown()
                gr.Markdown("## Two models on that benchmark")
                with gr.Row():
                    first = gr.Dropdown(label="First model", choices=[], value=None, allow_custom_value=True, elem_id="wb-first")
                    second = gr.Dropdown(label="Second model", choices=[], value=None, allow_custom_value=True, elem_id="wb-second")
                pair = gr.Markdown(elem_id="wb-pair")
            with gr.Tab("Run", id="run"):
                run_box = gr.Textbox(label="Run", placeholder="runs/BENCHMARK/MODEL/RUN: click a figure in the Leaderboard tab",
                                     elem_id="wb-run", max_lines=1)
                run_html = gr.HTML(elem_id="wb-run-view")
                gr.Markdown("### Items")
                with gr.Row():
                    item_search = gr.Textbox(label="Search the items (press Enter)", scale=3, max_lines=1, elem_id="wb-item-search")
                    item_page = gr.Textbox(label="Page", value="1", scale=0, max_lines=1, elem_id="wb-item-page")
                    previous = gr.Button("Previous", scale=0, elem_id="wb-item-previous")
                    following = gr.Button("Next", scale=0, elem_id="wb-item-next")
                items = gr.HTML(elem_id="wb-items")
            with gr.Tab("Submit", id="submit"):
                gr.Markdown("Submit a model by its Hub id and revision (the revision is pinned to the commit it points to "
                            "now). It is checked as `wordbench submit` checks it before anything is queued."
                            + (" Local paths are taken (this server was started with --allow-local-paths)." if allow_local else ""))
                if hub_login:
                    gr.LoginButton()
                model = gr.Textbox(label="Model", placeholder="ORG/NAME" + (" or a local path" if allow_local else ""), elem_id="wb-model")
                revision = gr.Textbox(label="Revision", placeholder="main", elem_id="wb-revision")
                dtype = gr.Dropdown(label="dtype", choices=list(DTYPES), value="float32", elem_id="wb-dtype", allow_custom_value=True)
                name = gr.Textbox(label="Your name", elem_id="wb-submitter", visible=not hub_login)
                go = gr.Button("Submit", variant="primary", elem_id="wb-submit")
                answer = gr.Markdown(elem_id="wb-answer")
            with gr.Tab("Queue", id="queue"):
                queue_refresh = gr.Button("Refresh", elem_id="wb-queue-refresh")
                queue_html = gr.HTML(elem_id="wb-queue", elem_classes="wb-table-wrap")
            with gr.Tab("About", id="about"):
                about = gr.Markdown()

        def draw(*view_values):
            return lb.shaped(*view_values)

        def controls(f, z, s, p, d, w, t, h):
            """Choices as the data now has them; a value no longer among them is dropped (Gradio refuses it)."""
            c = lb.choices()
            kept = lambda values, known: [x for x in values or [] if x in known]  # noqa: E731
            more = [gr.update(choices=c[name], value=kept(v, c[name])) for v, (name, _) in zip((d, w, t), MORE_FILTERS)]
            return (gr.update(choices=c["families"], value=kept(f, c["families"])), gr.update(choices=c["sizes"], value=kept(z, c["sizes"])),
                    gr.update(choices=c["columns"], value=s if s in c["columns"] else "rank"),
                    gr.update(choices=c["models"], value=p if p in c["models"] else None),
                    *more, gr.update(choices=[k for k in c["columns"] if k != "model"], value=kept(h, c["columns"])))

        def on_action(act, s, o, *rest_of_view):
            kind, _, rest = (act or "").rpartition("|")[0].partition(":")
            if kind == "sort":
                o = "descending" if rest == s and o == "ascending" else "ascending"
                return rest, o, draw(rest, o, *rest_of_view), gr.update(), gr.update(), gr.update()
            if kind == "open":
                return s, o, gr.update(), gr.update(value=rest, choices=lb.model_choices()), gr.update(), gr.update()
            if kind == "run":
                return s, o, gr.update(), gr.update(), gr.update(value=rest), gr.Tabs(selected="run")
            return s, o, gr.update(), gr.update(), gr.update(), gr.update()

        view = [sort, order, family, size, search, dtype_f, weights_f, status_f, hide, page, per_page]
        picks = [family, size, sort, pick, dtype_f, weights_f, status_f, hide]
        demo.load(controls, picks, picks).then(draw, view, table)
        demo.load(lb.queue_view, None, queue_html)
        demo.load(lb.about, None, about)
        for control in (sort, order, family, size, dtype_f, weights_f, status_f, hide, page, per_page):
            control.change(draw, view, table)
        search.submit(draw, view, table)
        refresh.click(controls, picks, picks).then(draw, view, table)
        action.input(on_action, [action, *view], [sort, order, table, pick, run_box, tabs])

        def open_run(run):
            return lb.run_view(run), "1", lb.run_items(run, "1", "")

        def turn(run, at, search, step):
            at = page_number(str(at))
            at = max(1, (at if at >= 0 else 1) + step)
            return str(at), lb.run_items(run, str(at), search)

        def from_address(request: gr.Request):
            """A figure's link (``?run=runs/...``) loaded as an address opens its run."""
            run = request.query_params.get("run", "") if request is not None else ""
            return (gr.update(value=run), gr.Tabs(selected="run")) if run else (gr.update(), gr.update())

        from_address.__annotations__ = {"request": gr.Request}  # a real type: Gradio fills it (this module's annotations are strings)
        run_box.change(open_run, run_box, [run_html, item_page, items])
        item_page.submit(lb.run_items, [run_box, item_page, item_search], items)
        item_search.submit(lambda r, q: ("1", lb.run_items(r, "1", q)), [run_box, item_search], [item_page, items])  # a new search: its first page
        previous.click(lambda r, a, q: turn(r, a, q, -1), [run_box, item_page, item_search], [item_page, items])
        following.click(lambda r, a, q: turn(r, a, q, 1), [run_box, item_page, item_search], [item_page, items])
        demo.load(from_address, None, [run_box, tabs])
        def details(label):
            text, figures = lb.details(label)
            return text, gr.update(value=figures, visible=bool(figures))

        pick.change(details, pick, [report, gallery])
        bench.change(lb.side_by_side, bench, side)

        def names(a, b):
            models = lb.model_names()
            return tuple(gr.update(choices=models, value=v if v in models else None) for v in (a, b))

        demo.load(names, [first, second], [first, second])
        refresh.click(names, [first, second], [first, second])
        for control in (bench, first, second):
            control.change(lb.compare, [bench, first, second], pair)
        if hub_login:
            def submit_signed_in(m, r, d, profile):
                if profile is None:
                    yield "**Refused:** sign in with the Hub first (the button above): your Hub name is the submitter"
                    return
                yield from lb.submit_steps(m, r, d, profile.username)

            # Gradio fills a parameter typed OAuthProfile with the signed-in user (a real type: this module's
            # annotations are strings, which Gradio cannot resolve without gradio among its globals)
            submit_signed_in.__annotations__ = {"profile": gr.OAuthProfile | None}

            go.click(submit_signed_in, [model, revision, dtype], answer).then(lb.queue_view, None, queue_html)
        else:
            go.click(lb.submit_steps, [model, revision, dtype, name], answer).then(lb.queue_view, None, queue_html)
        queue_refresh.click(lb.queue_view, None, queue_html)
    demo.allowed = lb.served()
    return demo


class NoCdn:
    """ASGI middleware: drops the CDN script and the font preconnects that Gradio's page template names, and sends
    every page with a content security policy that lets the browser load scripts, styles, fonts and data from this
    server only, so the page fetches nothing from elsewhere, in a Space too, where Gradio's Space header would load
    web fonts (its scripts and styles come with the package; its fonts are the system's)."""

    PATTERN = re.compile(rb'<link\s+rel="preconnect"[^>]*>|<script\s+src="https?://[^"]*"[^>]*>\s*</script>')
    POLICY = ("default-src 'self'; script-src 'self' 'unsafe-inline' 'unsafe-eval' blob:; style-src 'self' 'unsafe-inline'; "
              "img-src 'self' data: blob:; font-src 'self' data:; media-src 'self' data: blob:; connect-src 'self'; "
              "worker-src 'self' blob:; frame-src 'self'; object-src 'none'; base-uri 'self'")

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        state: dict = {"start": None, "html": False, "chunks": []}

        async def rewrite(message):
            if message["type"] == "http.response.start":
                kind = dict(message.get("headers", [])).get(b"content-type", b"")
                state["html"] = kind.startswith(b"text/html")
                if not state["html"]:
                    return await send(message)
                state["start"] = message
                return None
            if not state["html"] or message["type"] != "http.response.body":
                return await send(message)
            state["chunks"].append(message.get("body", b""))
            if message.get("more_body"):
                return None
            body = self.PATTERN.sub(b"", b"".join(state["chunks"]))
            start = state["start"]
            headers = [(k, v) for k, v in start.get("headers", []) if k.lower() not in (b"content-length", b"content-security-policy")]
            await send({**start, "headers": headers + [(b"content-length", str(len(body)).encode()),
                                                      (b"content-security-policy", self.POLICY.encode())]})
            await send({"type": "http.response.body", "body": body})
            return None

        await self.app(scope, receive, rewrite)


def launch(demo, **kwargs):
    """Launch the app with nothing fetched from a CDN (``NoCdn``) and the results' files servable."""
    from starlette.middleware import Middleware

    return demo.queue().launch(allowed_paths=demo.allowed, show_api=False, app_kwargs={"middleware": [Middleware(NoCdn)]}, **kwargs)


def serve(queue: str, results: str, port: int = 7860, host: str = "127.0.0.1", allow_local: bool = False,
          token: str | None = None) -> None:
    launch(build_app(queue, results, allow_local, token), server_name=host, server_port=port, share=False, inbrowser=False)

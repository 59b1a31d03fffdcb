"""The results folder's leaderboard.html in a real headless browser (Debian's chromium; skipped without it): the
submissions table and the figures render with no network, and sorting a column reorders the rows."""

import re
import os
import shutil
import subprocess

import pytest

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")


def _chromium(*args, timeout=120):
    return subprocess.run([CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-dev-shm-usage",
                           "--proxy-server=127.0.0.1:9", *args], capture_output=True, text=True, timeout=timeout)


@pytest.fixture(scope="module")
def results(tiny_models, wnlampro_build, tmp_path_factory):
    from wordbench.benchmarks.leaderboard import collect
    from wordbench.benchmarks.runner import score
    from wordbench.scorers.models import load_model

    folder, _ = wnlampro_build
    root = tmp_path_factory.mktemp("page")
    runs = [score("wnlampro", load_model(str(tiny_models[name]), device="cpu"), str(folder), "test", 60, root / "runs",
                  progress=False).path for name in ("gpt2", "llama", "bert")]
    collect(runs, root / "results")
    return root / "results"


def test_page_has_a_sortable_submissions_table_and_fetches_nothing(results):
    page = (results / "leaderboard.html").read_text()
    assert '<table id="submissions">' in page and "<script src" not in page and "<link" not in page
    assert not re.search(r"""(src|href)=["']https?://""", page)  # no scripts, fonts or images from elsewhere


def test_page_renders_and_sorts_in_a_headless_browser(results, tmp_path):
    if CHROMIUM is None:  # make install installs it; in CI (CI set) a missing browser fails rather than skips
        (pytest.fail if os.environ.get("CI") else pytest.skip)("chromium is not installed (apt-get install chromium)")
    from wordbench.benchmarks.results_folder import submission_rows

    _, rows = submission_rows(results)
    values = {r["model"]: r["cells"]["wnlampro"]["value"] for r in rows}
    url = (results / "leaderboard.html").resolve().as_uri()

    def order(fragment: str) -> list[str]:
        dom = _chromium("--dump-dom", url + fragment).stdout
        table = dom.split('<table id="submissions">')[1].split("</table>")[0]
        return re.findall(r"<tr[^>]*><td>([^<]+)</td>", table)

    column = 5  # model, revision, dtype, weights, rank, then the benchmarks' headlines
    assert order("") == sorted(values)  # as written: by model
    assert order(f"#sort={column}") == sorted(values, key=lambda m: values[m])  # the script ran: rows by MRR, ascending
    assert order(f"#sort={column}-desc") == sorted(values, key=lambda m: -values[m])
    dom = _chromium("--dump-dom", url + f"#sort={column}-desc").stdout
    assert 'aria-sort="descending"' in dom and "▼</th>" in dom  # the sorted column is marked
    shot = tmp_path / "page.png"
    _chromium(f"--screenshot={shot}", "--window-size=1200,2400", url)
    from PIL import Image

    image = Image.open(shot).convert("L")
    assert image.size == (1200, 2400) and len(set(image.getdata())) > 50  # text, table lines and figures, not a blank page
    dom = _chromium("--dump-dom", url).stdout
    assert dom.count("<img ") == len(list(results.glob("runs/*/*/*/plots/*.png"))) > 0


HOSTILE = '<img src=x onerror=alert(1)> a|b [c](d) \\'


def _cells_per_row(markdown: str) -> list[list[int]]:
    """Per markdown table: the count of unescaped pipes in each row (equal across a table whose cells are escaped)."""
    tables, current = [], []
    for line in markdown.splitlines() + [""]:
        if line.startswith("|"):
            current.append(len(re.findall(r"(?<!\\)(?:\\\\)*\|", line)))
        elif current:
            tables.append(current)
            current = []
    return tables


def test_a_model_name_holding_markup_or_pipes_stays_text_and_a_run_given_twice_is_stored_once(results, tmp_path):
    import json

    from wordbench.benchmarks.leaderboard import collect

    from wordbench.benchmarks.results_folder import metric_cells

    stored = sorted(results.glob("runs/wnlampro/*/*"))[0]
    hostile = tmp_path / "runs" / "wnlampro" / "hostile" / stored.name
    shutil.copytree(stored, hostile)
    summary = json.loads((hostile / "summary.json").read_text())
    summary["model"].update(name=HOSTILE, version="v|1<b>")
    (hostile / "summary.json").write_text(json.dumps(summary))
    out = tmp_path / "results"
    counts = collect([hostile, hostile], out)  # publish-results RUN RUN
    assert counts["runs"] == 1 and counts["result_rows"] == len(metric_cells(summary["metrics"], summary.get("n")))

    markdown = (out / "leaderboard.md").read_text()
    tables = _cells_per_row(markdown)
    assert len(tables) >= 3 and all(len(set(rows)) == 1 for rows in tables), tables  # no column shifted
    page = (out / "leaderboard.html").read_text()
    assert "<img src=x" not in page and "<b>" not in page and "&lt;img src=x onerror=alert(1)&gt;" in page
    for table in re.findall(r"<table.*?</table>", page, flags=re.S):
        widths = {len(re.findall(r"<t[dh][ >]", row)) for row in re.findall(r"<tr>.*?</tr>", table, flags=re.S)}
        assert len(widths) == 1, table
    from click.testing import CliRunner

    from wordbench.benchmarks.cli import cli

    report = CliRunner().invoke(cli, ["report", str(hostile), str(stored)])  # the runs side by side: the name stays text
    assert report.exit_code == 0 and "<img" not in report.output and "&lt;img src=x" in report.output, report.output
    assert all(len(set(rows)) == 1 for rows in _cells_per_row(report.output))


def test_a_summary_that_is_not_json_is_skipped_counted_and_reported(results, tmp_path):
    import json

    from click.testing import CliRunner

    from wordbench.benchmarks.cli import cli

    folder = shutil.copytree(results, tmp_path / "results")
    damaged = sorted(folder.glob("runs/*/*/*/summary.json"))
    damaged[0].write_text("{not json")
    damaged[1].write_text(json.dumps({"benchmark": "nonesuch", "model": {"name": "x"}}))
    result = CliRunner().invoke(cli, ["leaderboard", str(folder), "--html", str(tmp_path / "page.html")])
    assert result.exit_code == 0 and "Traceback" not in result.output, result.output
    assert "not a JSON summary" in result.stderr and "unknown benchmark 'nonesuch'" in result.stderr
    assert "2 run(s) of" in result.stderr and "skipped" in result.stderr
    kept = json.loads(damaged[2].read_text())["model"]["name"]
    assert kept in result.stdout and (tmp_path / "page.html").is_file()
    for path in damaged[:2]:
        path.unlink()
    for path in folder.glob("runs/*/*/*/summary.json"):
        path.write_text("[]")
    empty = CliRunner().invoke(cli, ["leaderboard", str(folder)])
    assert empty.exit_code == 1 and "holds no readable published run" in empty.output and "; 1 skipped" in empty.output


def test_ranks_are_groups_where_intervals_overlap():
    from wordbench.benchmarks.board_page import rank_text
    from wordbench.benchmarks.ranking import separated_ranks

    higher = [(0, 0.50, (0.40, 0.60)), (1, 0.45, (0.35, 0.55)), (2, 0.10, (0.05, 0.15)), (3, 0.30, None)]
    assert separated_ranks(higher, higher=True) == {0: 1, 1: 1, 2: 4, 3: 3}  # 3 has no interval: values compared
    lower = [(0, 2.0, (1.5, 2.5)), (1, 3.0, (2.6, 3.4)), (2, 2.2, (1.9, 2.7))]
    assert separated_ranks(lower, higher=False) == {0: 1, 1: 2, 2: 1}  # 2 overlaps both; 0 is clearly ahead of 1
    assert (rank_text(1, 2), rank_text(3, 1)) == ("=1", "3")


def test_the_board_shows_rank_groups_and_the_scoring_cost(results):
    from wordbench.benchmarks.ranking import board, scoring_cost
    from wordbench.benchmarks.board_page import board_html, cost_text

    names, rows = board(results)
    cells = [r["cells"]["wnlampro"] for r in rows]
    for c in cells:  # each rank: 1 + the models whose interval lies wholly above this one's
        assert c["rank"] == 1 + sum(o["ci"][0] > c["ci"][1] for o in cells)
    html = board_html(names, rows)
    for c in cells:
        assert f'<small class="wb-rank">{"=" if c["tied"] > 1 else ""}{c["rank"]}</small>' in html
    assert any(c["tied"] > 1 for c in cells)  # three random tiny models on 60 items: their intervals overlap
    assert all(r["cost"] is None for r in rows)  # runs collected by hand: no worker's timing, and the cell says so
    assert "published without the worker&#39;s timing" in html
    assert scoring_cost({"seconds": {"wnlampro": 45.0, "_load": 15.0}}) == 1.0 and scoring_cost({}) is None
    assert cost_text({"cost": 1.0, "device": "cuda"}) == "1.0 GPU-min" and cost_text({"cost": 2.5, "device": "cpu"}) == "2.5 CPU-min"

"""The results folder's leaderboard.html in a real headless browser (Debian's chromium; skipped without it): the
submissions table and the figures render with no network, and sorting a column reorders the rows."""

import re
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


@pytest.mark.skipif(CHROMIUM is None, reason="chromium is not installed (apt-get install chromium)")
def test_page_renders_and_sorts_in_a_headless_browser(results, tmp_path):
    from wordbench.benchmarks.leaderboard import submission_rows

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

"""The leaderboard app: its views at the function level (faults are messages in the page, never a traceback), the
shared leaderboard table (missing values last, the sorted column marked, why a cell is empty, the weights' precision),
`space export`, `serve` without Gradio, and the app in a real browser (Debian's chromium driven by Playwright; skipped
with its reason where either is missing): read, sort, open a row, submit, refusals, the per-submitter limit, faults,
and no request leaving localhost."""

from __future__ import annotations

import contextlib
import errno
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from board_fixture import local_queue, scored_results
from wordbench.text import as_markdown

CHROMIUM = "/usr/bin/chromium"
BROWSER_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
                "--disable-sync", "--no-first-run"]


@pytest.fixture(scope="module")
def models(tmp_path_factory):
    from tiny_models import build_tiny_models

    return build_tiny_models(tmp_path_factory.mktemp("app-models"), positions=512)


@pytest.fixture(scope="module")
def scored(models, wnlampro_build, tmp_path_factory):
    """(queue folder, results folder) with gpt2 and bert scored and bert-encoder skipped (read only: tests copy them)."""
    return scored_results(tmp_path_factory.mktemp("app-scored"), models)


@pytest.fixture()
def site(scored, tmp_path):
    queue, results = tmp_path / "queue", tmp_path / "results"
    shutil.copytree(scored[0], queue)
    shutil.copytree(scored[1], results)
    settings = json.loads((queue / "queue.json").read_text())
    (queue / "queue.json").write_text(json.dumps({**settings, "max_pending": 2}))
    return queue, results


def _copy(src: Path, dst: Path) -> Path:
    shutil.copytree(src, dst)
    return dst


def hostile_model(models, folder: Path, marker: Path) -> Path:
    """A tiny llama that ships its own modelling code, which writes ``marker`` when imported."""
    hostile = _copy(models["llama"], folder)
    config = json.loads((hostile / "config.json").read_text())
    (hostile / "config.json").write_text(json.dumps({**config, "auto_map": {"AutoModelForCausalLM": "modeling_evil.EvilModel"}}))
    (hostile / "modeling_evil.py").write_text(f"open({str(marker)!r}, 'w').write('ran')\n")
    return hostile


# The shared table -------------------------------------------------------------------------------------------------

def test_table_has_a_row_per_model_with_why_cells_are_empty_and_sorts_missing_last(scored):
    from wordbench.benchmarks.ranking import board, board_profiles, sort_board
    from wordbench.benchmarks.board_page import board_html

    names, rows = board(scored[1])
    by = {r["model"]: r for r in rows}
    assert names == ["wnlampro"] and set(by) == {"gpt2", "bert", "bert-encoder"}
    assert by["bert-encoder"]["cells"]["wnlampro"]["sort"] is None
    assert by["bert-encoder"]["cells"]["wnlampro"]["why"].startswith("skipped: wnlampro needs a causal, masked or seq2seq model")
    assert {r["weights"] for r in rows} == {"fp32"} and by["gpt2"]["params"] == 51_456 and by["bert"]["family"] == "masked"
    assert {r["profile"] for r in rows} == {"quick"}  # the queue's profile, told from the run's limit (quick and full differ in it only)
    assert board_profiles(names, rows) == "quick (at most 200 items per benchmark)"
    scored_values = sorted((by[m]["cells"]["wnlampro"]["sort"], m) for m in ("gpt2", "bert"))
    for descending in (False, True):
        order = [r["model"] for r in sort_board(rows, "wnlampro", descending)]
        assert order[-1] == "bert-encoder"  # missing last in both directions, never "best"
        assert order[:2] == [m for _, m in sorted(scored_values, reverse=descending)]
    assert by[scored_values[-1][1]]["rank"] == 1 and by["bert-encoder"]["rank"] is None
    page = board_html(names, sort_board(rows, "wnlampro", True), "wnlampro", True)
    assert 'data-key="wnlampro" aria-sort="descending">WNLaMPro MRR ↑ ▼</th>' in page
    assert '<td class="missing" title="skipped: wnlampro needs' in page
    # a queue's requests add rows for models not scored yet and for failed ones, each cell saying which
    from wordbench.benchmarks.queue import Request

    waiting = Request(id="r1", model="org/new", revision="abc", dtype="float32", family="causal", submitter="ada",
                      submitted="2026-01-01T00:00:00+00:00", suite={"wnlampro": "1"}, profile="quick")
    failed = Request(**{**waiting.__dict__, "id": "r2", "model": "org/bad", "status": "FAILED", "reason": "ModelError: no"})
    names, rows = board(scored[1], [waiting, failed])
    by = {r["model"]: r for r in rows}
    assert by["org/new"]["cells"]["wnlampro"]["why"] == "not yet scored: pending in the queue"
    assert by["org/bad"]["cells"]["wnlampro"]["why"] == "failed: ModelError: no"
    assert by["org/new"]["link"] == "https://huggingface.co/org/new/tree/abc"
    assert {r["model"] for r in sort_board(rows, "rank", True)[-3:]} == {"bert-encoder", "org/new", "org/bad"}  # unranked last


def test_static_page_marks_the_profile_weights_and_why_cells_are_empty(scored):
    page = (scored[1] / "leaderboard.html").read_text()
    assert "Profile: quick (at most" in page and "<th data-key=\"weights\">weights</th>" in page
    assert "skipped<br><small>wnlampro needs a causal, masked or seq2seq model" in page
    assert "(a===null)-(b2===null)" in page and "aria-sort" in page  # empty cells last, the sorted head marked


def test_weights_precision_reads_gguf_quantisation_and_safetensors_dtypes(tmp_path):
    import numpy as np
    import torch
    from gguf import GGUFWriter, LlamaFileType
    from safetensors.torch import save_file

    from wordbench.identity import weights_precision

    writer = GGUFWriter(str(tmp_path / "m.gguf"), "llama")
    writer.add_file_type(LlamaFileType.MOSTLY_Q4_1)
    writer.add_tensor("w", np.zeros((4, 32), dtype=np.float32))
    writer.write_header_to_file()
    writer.write_kv_data_to_file()
    writer.write_tensors_to_file()
    writer.close()
    assert weights_precision(tmp_path / "m.gguf") == "Q4_1"  # not the fp32 it computes in
    (tmp_path / "st").mkdir()
    save_file({"a": torch.zeros(100, 10, dtype=torch.bfloat16), "ids": torch.zeros(3, dtype=torch.int64)}, tmp_path / "st" / "model.safetensors")
    assert weights_precision(tmp_path / "st") == "bf16"  # a small int buffer is no storage type
    assert weights_precision(tmp_path / "nothing") is None


# The app's views at the function level ------------------------------------------------------------------------------

def test_a_new_leaderboard_is_a_friendly_empty_state(tmp_path):
    from wordbench.benchmarks.app import EMPTY_BOARD, Leaderboard
    from wordbench.benchmarks.queue import LocalQueue

    LocalQueue(tmp_path / "queue", create=True)
    lb = Leaderboard(str(tmp_path / "queue"), str(tmp_path / "results"))  # no worker has published yet
    assert lb.table() == EMPTY_BOARD and "wb-error" not in lb.table()
    assert lb.side_by_side("vast") == "No run of vast published yet."
    assert lb.queue_view() == "<p>No request yet.</p>"


def test_submit_view_runs_the_admission_and_shows_each_refusal_as_one_line(models, site, tmp_path):
    from wordbench.benchmarks.app import Leaderboard

    queue, results = site
    public = Leaderboard(str(queue), str(results))
    answer = public.submit(str(models["llama"]), "", "float32", "ada")
    assert answer.startswith("**Refused:**") and "local path" in answer and "--allow-local-paths" in answer
    lb = Leaderboard(str(queue), str(results), allow_local=True)
    marker = tmp_path / "marker"
    answer = lb.submit(str(hostile_model(models, tmp_path / "hostile", marker)), "", "float32", "ada")
    assert answer.startswith("**Refused:**") and "code of its own" in answer and "\n" not in answer and not marker.exists()
    assert "does not exist" in lb.submit(str(tmp_path / "missing"), "", "float32", "ada")
    assert "give your name" in lb.submit(str(models["llama"]), "", "float32", "")
    first = lb.submit(str(models["llama"]), "", "float32", "ada")
    assert first.startswith("**Queued**") and "**PENDING**" in first
    assert lb.submit(str(models["llama"]), "", "bfloat16", "ada").startswith("**Queued**")
    refused = lb.submit(str(models["llama"]), "", "float16", "ada")
    assert refused == "**Refused:** " + as_markdown("ada already has 2 pending request(s), this queue's limit (max_pending); submit "
                                                    "again when one has been scored")
    assert lb.submit(str(models["llama"]), "", "float16", "grace").startswith("**Queued**")  # the limit is per submitter
    pending = [json.loads(p.read_text()) for p in (queue / "requests").glob("*.json")]
    assert sum(r["status"] == "PENDING" for r in pending) == 3
    view = lb.queue_view()
    assert "PENDING (3)" in view and "FINISHED (3)" in view and "grace" in view


def test_faults_are_messages_in_the_page_and_the_views_go_on(models, site, monkeypatch):
    from wordbench.benchmarks.app import Leaderboard
    from wordbench.benchmarks.queue import LocalQueue

    queue, results = site
    lb = Leaderboard(str(queue), str(results), allow_local=True)
    assert "Traceback" not in lb.table() and "<table" in lb.table()
    # a request file edited by hand into garbage: the queue and the submission say which file, the scores still show
    bad = sorted((queue / "requests").glob("*.json"))[0]
    good = bad.read_text()
    bad.write_text("{ this is not json")
    view = lb.queue_view()
    assert 'class="wb-error"' in view and str(bad) in view and "not a wordbench request" in view and "<table" in view
    table = lb.table()
    assert str(bad) in table and "not a wordbench request" in table and "<table" in table and "Traceback" not in table
    bad.write_text(good)
    # a queue on a read-only file system: the submission says so in one line
    def read_only(self, change):
        raise OSError(errno.EROFS, os.strerror(errno.EROFS), str(self.folder / ".lock"))

    monkeypatch.setattr(LocalQueue, "_update", read_only)
    answer = lb.submit(str(models["llama"]), "", "float32", "ada")
    assert answer == "**Refused:** " + as_markdown(f"cannot use {queue / '.lock'}: Read-only file system")
    monkeypatch.undo()
    # the results folder missing (no worker has published yet): the normal first state, not an error
    shutil.rmtree(results)
    table = lb.table()
    assert "does not exist" not in table and "wb-empty" in table
    assert "Traceback" not in table
    assert "No run of wnlampro published yet" in lb.side_by_side("wnlampro")
    text, figures = lb.details("gpt2 · x · fp32")
    assert figures == [] and "Traceback" not in text
    assert "How the numbers are made" in lb.about()


def test_a_queue_on_a_real_read_only_file_system(models, site, tmp_path):
    """A tmpfs remounted read-only (where this machine lets tests mount one: root with the capability)."""
    from wordbench.benchmarks.app import Leaderboard

    mnt = tmp_path / "ro"
    mnt.mkdir()
    if subprocess.run(["mount", "-t", "tmpfs", "tmpfs", str(mnt)], capture_output=True).returncode != 0:
        pytest.skip("cannot mount a tmpfs here (needs root and CAP_SYS_ADMIN); the read-only queue is also tested by its error")
    try:
        shutil.copytree(site[0], mnt / "queue")
        assert subprocess.run(["mount", "-o", "remount,ro", str(mnt)]).returncode == 0
        lb = Leaderboard(str(mnt / "queue"), str(site[1]), allow_local=True)
        answer = lb.submit(str(models["llama"]), "", "float32", "ada")
        assert answer == "**Refused:** " + as_markdown(f"cannot use {mnt / 'queue' / '.lock'}: Read-only file system")
        assert "FINISHED (3)" in lb.queue_view() and "<table" in lb.table()  # reading goes on
    finally:
        subprocess.run(["umount", str(mnt)])


def test_details_show_a_models_reports_and_figures(scored):
    from wordbench.benchmarks.app import Leaderboard
    from wordbench.benchmarks.ranking import board
    from wordbench.benchmarks.board_page import board_label

    lb = Leaderboard(str(scored[0]), str(scored[1]))
    _, rows = board(scored[1])
    gpt2 = next(r for r in rows if r["model"] == "gpt2")
    text, figures = lb.details(board_label(gpt2))
    assert "### wnlampro" in text and "MRR" in text and figures and all(Path(p).is_file() for p, _ in figures)
    encoder = next(r for r in rows if r["model"] == "bert-encoder")
    assert "skipped: wnlampro needs" in lb.details(board_label(encoder))[0]
    assert "| metric | bert (fp32) | gpt2 (fp32) |" in lb.side_by_side("wnlampro")


def test_side_by_side_puts_models_in_columns_and_curves_one_row_per_layer():
    from wordbench.benchmarks.board_page import side_by_side_markdown

    runs = [{"model": {"name": m, "dtype": "fp32"}, "n": 5, "metrics": {"layers": {"bleached": {"vast": v, "n": 5}}, "r": r, "r_ci": [0.1, 0.3]}}
            for m, v, r in (("a", [0.1, 0.2], 0.2), ("b", [0.3, 0.4], 0.5))]
    text = side_by_side_markdown(runs)
    assert text.splitlines()[0] == "| metric | a (fp32) | b (fp32) |"
    assert "| layers/bleached/vast/1 | 0.2 | 0.4 |" in text and "| r | 0.2 [0.1, 0.3] | 0.5 [0.1, 0.3] |" in text


# CLI: serve without Gradio, space export, models --------------------------------------------------------------------

def test_the_core_runs_without_gradio_and_serve_names_the_extra(tmp_path, monkeypatch):
    from click.testing import CliRunner

    from wordbench.benchmarks.queue import LocalQueue

    LocalQueue(tmp_path / "q", create=True)
    code = ("import sys; sys.modules['gradio'] = None\n"  # an import of gradio would fail
            "import wordbench.benchmarks.cli, wordbench.benchmarks.app, wordbench.benchmarks.space\n"
            "from wordbench.benchmarks.app import Leaderboard\n"
            f"print(Leaderboard({str(tmp_path / 'q')!r}, {str(tmp_path / 'r')!r}).queue_view())")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and "No request yet" in done.stdout, done.stderr
    import importlib.util

    from wordbench.benchmarks.cli import cli

    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "gradio" else real(name, *a))
    result = CliRunner().invoke(cli, ["serve", "--queue", str(tmp_path / "q"), "--results", str(tmp_path / "r")])
    assert result.exit_code != 0 and result.output.strip().splitlines()[-1] == \
        "Error: wordbench serve needs Gradio: pip install 'wordbench[space]'"


def test_space_export_writes_a_deployable_folder_without_a_token(tmp_path, monkeypatch):
    from importlib.metadata import version

    from click.testing import CliRunner

    from wordbench import __version__
    from wordbench.benchmarks.cli import cli

    monkeypatch.setenv("HF_TOKEN", "hf_secret_never_written")
    out = tmp_path / "space"
    result = CliRunner().invoke(cli, ["space", "export", "--queue", "hf:org/requests", "--results", "hf:org/results", "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in out.iterdir()) == ["README.md", "app.py", "requirements.txt", "wordbench"]
    readme = (out / "README.md").read_text()
    front = readme.split("---")[1]
    assert "sdk: gradio" in front and "app_file: app.py" in front and "hf_oauth: true" in front
    assert f"sdk_version: {version('gradio')}" in front and f'python_version: "{sys.version_info.major}.{sys.version_info.minor}"' in front
    lines = [line for line in (out / "requirements.txt").read_text().splitlines() if not line.startswith("#")]
    assert lines[0] == "--extra-index-url https://download.pytorch.org/whl/cpu"
    pins = dict(line.split("==") for line in lines[1:])
    assert all(v for v in pins.values()) and "wordbench" not in pins  # a lock: every package at one version
    assert pins["gradio"] == version("gradio") and pins["itsdangerous"] == version("itsdangerous")  # Hub sign-in
    assert pins["torch"].endswith("+cpu") and not any(name.startswith(("nvidia", "triton")) for name in pins)
    assert pins["transformers"] == version("transformers") and pins["datasets"] == version("datasets")
    assert (out / "wordbench" / "__init__.py").read_text() == (Path(__file__).parents[1] / "wordbench" / "__init__.py").read_text()
    assert (out / "wordbench" / "benchmarks" / "app.py").is_file() and (out / "wordbench" / "builders" / "paraphrase_review.tsv").is_file()
    assert not list(out.rglob("__pycache__"))
    app = (out / "app.py").read_text()
    compile(app, "app.py", "exec")
    assert "'hf:org/requests'" in app and "hub_login=True" in app and 'os.environ.get("HF_TOKEN")' in app
    assert all("hf_secret" not in p.read_text() for p in out.rglob("*") if p.is_file() and p.suffix in (".py", ".md", ".txt"))
    bad = CliRunner().invoke(cli, ["space", "export", "--queue", "requests", "--results", "hf:org/results", "--out", str(tmp_path / "x")])
    assert bad.exit_code != 0 and "give hf:ORG/NAME" in bad.output
    again = CliRunner().invoke(cli, ["space", "export", "--queue", "hf:org/requests", "--results", "hf:org/results", "--out", str(out)])
    assert again.exit_code != 0 and "not an empty folder" in again.output


def test_the_exported_space_imports_its_own_code_and_serves_in_a_simulated_space(tmp_path):
    """The exported folder started as a Space starts it (python app.py in the folder, the Space's variables set, no
    network): it runs the code it carries, serves its page with a policy that keeps the browser on it, and its Hub
    sign-in routes answer."""
    from wordbench.benchmarks.space import export_space

    out = tmp_path / "space"
    export_space("hf:org/requests", "hf:org/results", out)
    port = _free_port()
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "HF_TOKEN")}
    env.update({"SPACE_ID": "org/leaderboard", "SPACE_HOST": "org-leaderboard.hf.space", "SYSTEM": "spaces",
                "OAUTH_CLIENT_ID": "client", "OAUTH_CLIENT_SECRET": "secret", "OAUTH_SCOPES": "openid profile",
                "OPENID_PROVIDER_URL": "https://huggingface.co", "GRADIO_SERVER_PORT": str(port), "GRADIO_SERVER_NAME": "127.0.0.1",
                "HF_HUB_OFFLINE": "1", "WORDBENCH_CACHE": str(tmp_path / "cache"), "GRADIO_ANALYTICS_ENABLED": "False"})
    where = subprocess.run([sys.executable, "-c", "import wordbench.benchmarks.app as a; print(a.__file__)"], cwd=out, env=env,
                           capture_output=True, text=True, timeout=300)
    assert Path(where.stdout.strip()).resolve() == (out / "wordbench" / "benchmarks" / "app.py").resolve(), where.stderr
    log = tmp_path / "space.log"
    with open(log, "w") as sink:
        proc = subprocess.Popen([sys.executable, "app.py"], cwd=out, env=env, stdout=sink, stderr=subprocess.STDOUT)
    try:
        wait_for(f"http://127.0.0.1:{port}/", proc, log)
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=30) as page:
            policy = page.headers["content-security-policy"]
            html = page.read().decode()
        assert "wordbench leaderboard" in html and "fonts.googleapis" not in html
        assert "default-src 'self'" in policy and "font-src 'self' data:" in policy and "style-src 'self'" in policy
        opener = urllib.request.build_opener(type("NoRedirect", (urllib.request.HTTPRedirectHandler,), {"redirect_request": lambda *a: None}))
        try:
            opener.open(f"http://127.0.0.1:{port}/login/huggingface", timeout=30)
            status = 200
        except urllib.error.HTTPError as exc:
            status = exc.code
        assert status != 404  # the sign-in route is there (sending the browser on needs the Hub, which is offline here)
    finally:
        proc.terminate()
        proc.wait(timeout=30)
    assert "Traceback" not in log.read_text(), log.read_text()[-3000:]


def test_models_lists_the_packaged_models_and_submit_takes_their_names(tmp_path):
    from click.testing import CliRunner

    from wordbench.benchmarks.cli import cli

    listed = CliRunner().invoke(cli, ["models"])
    assert listed.exit_code == 0 and "packaged:smollm2" in listed.output and "packaged:minilm" in listed.output
    assert CliRunner().invoke(cli, ["queue", str(tmp_path / "q"), "--create"]).exit_code == 0
    bad = CliRunner().invoke(cli, ["submit", "packaged:nope", "--queue", str(tmp_path / "q")])
    assert bad.exit_code != 0 and "no such packaged model; wordbench models lists smollm2, minilm" in bad.output


# In a real browser ---------------------------------------------------------------------------------------------------

def _browser_missing() -> str | None:
    if not Path(CHROMIUM).exists():
        return f"{CHROMIUM} is absent (apt-get install chromium)"
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "playwright is not installed (pip install playwright; its own browsers are not needed)"
    try:
        import gradio  # noqa: F401
    except ImportError:
        return "gradio is not installed (pip install 'wordbench[space]')"
    return None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture()
def server(site):
    with serving(*site) as served:
        yield served


@contextlib.contextmanager
def serving(queue: Path, results: Path):
    """``wordbench serve`` over ``queue`` and ``results`` on a free port: yields (url, queue, results); a traceback
    in its log fails the test."""
    port = _free_port()
    env = {**os.environ, "GRADIO_ANALYTICS_ENABLED": "False", "PYTHONUNBUFFERED": "1"}
    log = tmp_path_factory_log(queue)
    with open(log, "w") as out:  # a file, not a pipe: a pipe nobody reads fills up and stalls the server
        proc = subprocess.Popen([sys.executable, "-m", "wordbench.benchmarks.cli", "serve", "--queue", str(queue), "--results",
                                 str(results), "--port", str(port), "--allow-local-paths"], stdout=out, stderr=subprocess.STDOUT,
                                text=True, env=env)
    url = f"http://127.0.0.1:{port}/"
    try:
        wait_for(url, proc, log)
        yield url, queue, results
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
    assert "Traceback" not in log.read_text(), log.read_text()[-3000:]


def tmp_path_factory_log(queue: Path) -> Path:
    return queue.parent / f"serve-{queue.name}.log"


def wait_for(url: str, proc, log: Path, seconds: float = 180) -> None:
    deadline = time.time() + seconds
    while time.time() < deadline:
        try:
            urllib.request.urlopen(url, timeout=2)
            return
        except OSError:
            if proc.poll() is not None:
                pytest.fail(f"the server exited: {log.read_text()[-3000:]}")
            time.sleep(0.5)
    proc.kill()
    pytest.fail(f"the server did not answer in {seconds:.0f} s: {log.read_text()[-3000:]}")


def need_browser() -> None:
    """Skip with the reason where the browser cannot run; in CI (``CI`` set, as ``.ci/run`` does), where ``make install``
    installs it, fail instead: a browser test that silently skips checks nothing."""
    missing = _browser_missing()
    if missing and os.environ.get("CI"):
        pytest.fail(f"the browser test cannot run in CI: {missing}")
    if missing:
        pytest.skip(missing)


def test_the_app_in_a_real_browser(server, models, tmp_path):
    need_browser()
    from playwright.sync_api import expect, sync_playwright

    expect.set_options(timeout=90_000)  # the first views take 10-15 s on a loaded 2-core machine

    url, queue, results = server
    outside: list[str] = []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=BROWSER_ARGS)
        page = browser.new_page(viewport={"width": 1400, "height": 1000})
        page.on("request", lambda r: outside.append(r.url) if not r.url.startswith((url.rstrip("/"), "data:", "blob:")) else None)
        page.set_default_timeout(60_000)
        page.goto(url)
        rows = page.locator("#board tbody tr")
        expect(rows).to_have_count(3)

        def models_in_order():
            return [label.split(" · ")[0] for label in rows.evaluate_all("rs => rs.map(r => r.dataset.label)")]

        assert set(models_in_order()) == {"gpt2", "bert", "bert-encoder"}
        values = {m: float(v) for m, v in zip(models_in_order(), rows.evaluate_all(
            "rs => rs.map(r => (r.querySelector('td[data-sort]:nth-child(6)') || {dataset: {sort: 'nan'}}).dataset.sort)"))}
        # sort by the WNLaMPro column: a click on its head; ascending, then descending; the skipped model stays last
        page.locator('#board th[data-key="wnlampro"]').click()
        expect(page.locator('#board th[data-key="wnlampro"]')).to_have_attribute("aria-sort", "ascending")
        scored_models = sorted((m for m in values if m != "bert-encoder"), key=lambda m: values[m])
        assert models_in_order() == scored_models + ["bert-encoder"]
        page.locator('#board th[data-key="wnlampro"]').click()
        expect(page.locator('#board th[data-key="wnlampro"]')).to_have_attribute("aria-sort", "descending")
        assert models_in_order() == scored_models[::-1] + ["bert-encoder"]
        expect(page.locator('#board tr[data-label^="bert-encoder "] td.missing').nth(1)).to_contain_text("skipped")
        # a row opens the model's reports
        page.locator('#board tbody tr[data-label^="gpt2 "]').click()
        expect(page.get_by_text("WNLaMPro").first).to_be_visible()
        expect(page.locator("h3", has_text="wnlampro").first).to_be_visible()

        # Submit: a valid model, then refusals, then past the per-submitter limit
        page.get_by_role("tab", name="Submit").click()
        marker = tmp_path / "marker"

        def submit(model: str, dtype: str = "float32") -> str:
            page.locator("#wb-model textarea, #wb-model input").first.fill(model)
            page.locator("#wb-submitter textarea, #wb-submitter input").first.fill("ada")
            page.locator("#wb-dtype input").first.click()
            page.get_by_role("option", name=dtype, exact=True).click()
            before = page.locator("#wb-answer").inner_text()
            page.locator("#wb-submit").click()
            page.wait_for_function("b => { const t = document.querySelector('#wb-answer').innerText.trim(); "
                                   "return t !== b && /^(Queued|Refused)/.test(t); }", arg=before.strip())
            return page.locator("#wb-answer").inner_text().strip()

        answer = submit(str(models["llama"]))
        assert answer.startswith("Queued") and "PENDING" in answer
        request_id = answer.split("request ")[1].split(":")[0].strip()
        assert json.loads((queue / "requests" / f"{request_id}.json").read_text())["status"] == "PENDING"
        refused = submit(str(hostile_model(models, tmp_path / "hostile", marker)))
        assert refused.startswith("Refused:") and "code of its own" in refused and "\n" not in refused.strip()
        assert not marker.exists()
        missing = submit(str(tmp_path / "no-such-model"))
        assert missing.startswith("Refused:") and "does not exist" in missing and "\n" not in missing.strip()
        assert submit(str(models["llama"]), "bfloat16").startswith("Queued")
        limited = submit(str(models["llama"]), "float16")
        assert limited.startswith("Refused:") and "ada already has 2 pending request(s)" in limited

        # Queue: the request by status, with its age
        page.get_by_role("tab", name="Queue").click()
        page.locator("#wb-queue-refresh").click()
        pending = page.locator('table[data-status="PENDING"]')
        expect(pending).to_contain_text(request_id)
        expect(pending.locator("tbody tr")).to_have_count(2)
        expect(page.locator('table[data-status="FINISHED"] tbody tr')).to_have_count(3)

        # faults: a request file turned to garbage, then the results folder gone; messages, and the server goes on
        (queue / "requests" / f"{request_id}.json").write_text("garbage{")
        page.locator("#wb-queue-refresh").click()
        expect(page.locator("#wb-queue .wb-error")).to_contain_text("not a wordbench request")
        shutil.rmtree(results)
        page.get_by_role("tab", name="Leaderboard").click()
        page.get_by_role("button", name="Refresh").click()
        expect(page.locator("#board")).to_be_visible()  # no results yet: the queue's rows, and no error
        expect(page.locator(".wb-error", has_text="does not exist")).to_have_count(0)
        assert "Traceback" not in page.content()
        page.get_by_role("tab", name="About").click()
        expect(page.get_by_text("How the numbers are made")).to_be_visible()
        browser.close()
    assert outside == []  # no font, script or request left localhost


@pytest.fixture()
def board_of_four(site, models):
    """The site with a fourth model, llama, scored in bfloat16 (so two precisions), and a pending request for the whole
    suite (so the table has every benchmark's column, most of them empty)."""
    from wordbench.benchmarks.queue import LocalQueue
    from wordbench.benchmarks.submit import admit
    from wordbench.benchmarks.worker import run

    queue, results = site
    q = LocalQueue(queue)
    admit(str(models["llama"]), q, dtype="bfloat16", submitter="maintainer")
    stats = run(q, results, queue.parent / "runs", device="cpu", stop_when_empty=True)
    assert all(line.endswith("FINISHED") for line in stats.requests), stats.requests
    settings = json.loads((queue / "queue.json").read_text())
    (queue / "queue.json").write_text(json.dumps({**settings, "suite": "all"}))
    admit(str(models["gpt2"]), LocalQueue(queue), dtype="float16", submitter="maintainer")
    return queue, results


def test_the_table_fits_is_shaped_and_every_figure_opens_its_items(board_of_four, tmp_path):
    """In a real browser, at 1400 and 800 px: the table fits without sideways scrolling; the column chooser hides and
    shows a benchmark; the precision filter and the pages work; models whose intervals overlap show their shared rank
    group; a figure opens its run with its items (and its link as an address does the same); two models compared.
    ``WB_SCREENSHOTS=DIR`` keeps a screenshot of each view."""
    need_browser()
    from playwright.sync_api import expect, sync_playwright

    from wordbench.benchmarks.ranking import board

    expect.set_options(timeout=90_000)
    shots = Path(os.environ["WB_SCREENSHOTS"]) if os.environ.get("WB_SCREENSHOTS") else None
    from wordbench.benchmarks.queue import LocalQueue

    names, rows = board(board_of_four[1], LocalQueue(board_of_four[0]).requests())
    tied = {r["model"] for r in rows if r["cells"]["wnlampro"].get("tied", 0) > 1}
    assert len(names) == 6 and len(tied) >= 2  # the fixture holds a rank group of two or more models
    with serving(*board_of_four) as (url, queue, results):
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=BROWSER_ARGS)
            page = browser.new_page(viewport={"width": 1400, "height": 1000})
            page.set_default_timeout(60_000)

            def shot(name: str) -> None:
                if shots:
                    shots.mkdir(parents=True, exist_ok=True)
                    page.screenshot(path=str(shots / f"{name}-{page.viewport_size['width']}.png"), full_page=True)

            def fits() -> bool:
                return page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth && "
                                     "[...document.querySelectorAll('.wb-table-wrap')].every(w => w.scrollWidth <= w.clientWidth + 1)")

            page.goto(url)
            board_rows = page.locator("#board tbody tr")
            expect(board_rows).to_have_count(4)
            expect(page.locator("#board-waiting tbody tr")).to_have_count(1)  # the pending request, apart from the scored
            expect(page.locator("#board th")).to_have_count(5 + 6 + 6)
            assert fits(), "the table scrolls sideways at 1400 px"
            for model in tied:  # a shared rank group reads =N in each of its models' cells
                expect(page.locator(f'#board tr[data-label^="{model} "] .wb-rank').first).to_contain_text("=")
            shot("leaderboard")

            # the column chooser hides a benchmark, and shows it again
            page.locator("#wb-hide input").first.click()
            page.locator("#wb-hide").get_by_role("option", name="wnlampro", exact=True).click()
            expect(page.locator('#board th[data-key="wnlampro"]')).to_have_count(0)
            page.keyboard.press("Escape")
            page.locator("#wb-hide .token-remove.remove-all").click()  # the list's clear button
            expect(page.locator('#board th[data-key="wnlampro"]')).to_have_count(1)

            # the precision filter keeps the bfloat16 model alone; then every precision again
            page.locator("#wb-precision input").first.click()
            page.locator("#wb-precision").get_by_role("option", name="bf16", exact=True).click()
            page.keyboard.press("Escape")
            expect(board_rows).to_have_count(1)
            expect(board_rows.first).to_have_attribute("data-label", re.compile(r"^llama "))
            page.locator("#wb-precision .token-remove.remove-all").click()
            expect(board_rows).to_have_count(4)

            # pages of two rows
            per_page = page.locator("#wb-per-page input").first
            per_page.fill("2")
            per_page.press("Enter")
            expect(page.locator("#wb-table")).to_contain_text("Page 1 of 2")
            expect(board_rows).to_have_count(2)
            first_page = set(board_rows.evaluate_all("rs => rs.map(r => r.dataset.label)"))
            box = page.locator("#wb-page input, #wb-page textarea").first
            box.fill("2")
            box.press("Enter")
            expect(page.locator("#wb-table")).to_contain_text("Page 2 of 2")
            second_page = set(board_rows.evaluate_all("rs => rs.map(r => r.dataset.label)"))
            assert len(second_page) == 2 and not first_page & second_page
            per_page.fill("25")
            per_page.press("Enter")
            box.fill("1")
            box.press("Enter")
            expect(board_rows).to_have_count(4)

            # a figure opens its run: heading, tables, figures and a page of its items
            cell = page.locator('#board tr[data-label^="gpt2 "] td[data-run]').first
            run = cell.get_attribute("data-run")
            cell.locator("a.wb-run").click()
            expect(page.locator("#wb-run-view .wb-run-title")).to_contain_text("gpt2 on wnlampro")
            expect(page.locator("#wb-run-view .wb-run-figures img").first).to_be_visible()
            items = page.locator("#wb-items table.wb-items tbody tr")
            expect(items).to_have_count(50)
            expect(page.locator("#wb-items")).to_contain_text("page 1 of 4")
            page.locator("#wb-item-next").click()
            expect(page.locator("#wb-items")).to_contain_text("page 2 of 4")
            search = page.locator("#wb-item-search input, #wb-item-search textarea").first
            search.fill("antonym/")
            search.press("Enter")
            expect(page.locator("#wb-items")).to_contain_text("Items 1-50 of 60 (page 1 of 2)")
            assert fits()
            shot("run")
            page.set_viewport_size({"width": 800, "height": 1000})
            shot("run")
            page.set_viewport_size({"width": 1400, "height": 1000})

            # the link as an address opens the same run in a new page
            other = browser.new_page(viewport={"width": 800, "height": 1000})
            other.goto(f"{url}?run={run}")
            expect(other.locator("#wb-run-view .wb-run-title")).to_contain_text("gpt2 on wnlampro")
            other.close()

            # two models side by side on a benchmark
            page.get_by_role("tab", name="Leaderboard").click()
            for box_id, value in (("#wb-bench", "wnlampro"), ("#wb-first", "gpt2"), ("#wb-second", "bert")):
                page.locator(f"{box_id} input").first.click()
                page.locator(box_id).get_by_role("option", name=value, exact=True).click()
            expect(page.locator("#wb-pair")).to_contain_text("gpt2 - bert")
            shot("compare")

            # at 800 px the table reads: the minor columns give way, the benchmarks stay
            page.set_viewport_size({"width": 800, "height": 1000})
            page.evaluate("() => window.scrollTo(0, 0)")
            expect(page.locator('#board th[data-key="revision"]')).to_be_hidden()
            expect(page.locator('#board th[data-key="wnlampro"]')).to_be_visible()
            expect(page.locator('#board th[data-key="model"]')).to_be_visible()
            assert fits(), "the table scrolls sideways at 800 px"
            shot("leaderboard")
            for tab in ("Submit", "Queue", "About"):  # the other views at both widths
                page.get_by_role("tab", name=tab).click()
                for width in (800, 1400):
                    page.set_viewport_size({"width": width, "height": 1000})
                    assert fits(), f"the {tab} tab scrolls sideways at {width} px"
                    shot(tab.lower())
            browser.close()


# Text from strangers ------------------------------------------------------------------------------------------------

HOSTILE_NAME = "**b** <img src=x onerror=alert(1)> | [x](javascript:alert(1)) $$x$$"


def rendered(markdown: str) -> str:
    """``markdown`` as a CommonMark renderer that passes HTML (as Gradio's does) makes it."""
    from markdown_it import MarkdownIt

    return MarkdownIt("commonmark", {"html": True}).enable("table").render(markdown)


def assert_text_only(html: str) -> None:
    assert "<img" not in html and "<strong>b</strong>" not in html and "<a " not in html and "<b>" not in html, html
    assert "&lt;img src=x onerror=alert(1)&gt;" in html


def test_typed_text_is_shown_as_text_in_every_view(models, site, tmp_path):
    from wordbench.benchmarks.app import Leaderboard
    from wordbench.benchmarks.board_page import board_label

    queue, results = site
    lb = Leaderboard(str(queue), str(results), allow_local=True)
    hostile = _copy(models["llama"], tmp_path / HOSTILE_NAME.replace("/", "_"))
    refused = lb.submit(str(tmp_path / HOSTILE_NAME.replace("/", "_") / "missing"), "", "float32", "ada")
    assert refused.startswith("**Refused:**") and "\n" not in refused
    assert_text_only(rendered(refused))
    queued = lb.submit(str(hostile), "", "float32", "<img src=x onerror=alert(1)>")
    assert queued.startswith("**Queued**"), queued
    assert_text_only(rendered(queued))
    view = lb.queue_view()
    assert "<img" not in view and "&lt;img src=x onerror=alert(1)&gt;" in view
    table = lb.table()
    assert "<img" not in table and "&lt;img" in table
    row = next(r for r in lb.rows()[1] if HOSTILE_NAME.replace("/", "_") in r["model"])
    assert_text_only(rendered(lb.details(board_label(row))[0]))  # the reports' heading
    # the one rule, by itself
    from wordbench.text import as_code, as_html, as_markdown

    assert as_html("<b>&'\"") == "&lt;b&gt;&amp;&#39;&quot;"
    assert rendered(as_markdown("- 1. # ok")).strip() == "<p>- 1. # ok</p>"
    assert rendered("x " + as_markdown("see https://example.org and a@b.org")).count("<a ") == 0
    assert rendered(as_code("a`b<i>")).strip() == "<p><code>a`b&lt;i&gt;</code></p>"


def test_submitters_are_one_person_however_typed_and_typed_text_is_capped(models, site, tmp_path):
    from wordbench.benchmarks.queue import LocalQueue
    from wordbench.benchmarks.submit import SUBMITTER_CAP, admit
    from wordbench.errors import ConfigError

    queue, _ = site
    q = LocalQueue(queue)  # max_pending is 2
    model = str(models["llama"])
    admit(model, q, dtype="float32", submitter="Bob")
    admit(model, q, dtype="bfloat16", submitter="bob")
    with pytest.raises(ConfigError, match="already has 2 pending"):
        admit(model, q, dtype="float16", submitter="ｂｏｂ")  # fullwidth letters: the same name after NFKC
    for submitter, problem in (("bob\u200b", "U\\+200B ZERO WIDTH SPACE"), ("b" * 10_000, f"at most {SUBMITTER_CAP}"),
                               ("bob\nalice", "one line")):
        with pytest.raises(ConfigError, match=problem):
            admit(model, q, dtype="float16", submitter=submitter)
    with pytest.raises(ConfigError, match="one line"):
        admit(model + "\nother", q, dtype="float16", submitter="carol")
    with pytest.raises(ConfigError, match="local model, pinned by the hash of its files: leave the revision out"):
        admit(model, q, dtype="float16", submitter="carol", revision="main")
    assert len(q.requests()) == 5  # the three scored and Bob's two: nothing of the refused ones


def test_every_list_in_the_form_takes_any_value_and_the_view_refuses_it_in_one_line(models, site):
    """Gradio refuses a value outside a list inside its own preprocessing, with a traceback in the server's log; the
    app's lists take any value and the function behind them refuses it in one line, as the form would."""
    pytest.importorskip("gradio")
    import gradio as gr

    from wordbench.benchmarks.app import Leaderboard, build_app

    queue, results = site
    demo = build_app(str(queue), str(results), allow_local=True)
    inputs = [block for fn in demo.fns.values() for block in fn.inputs]
    assert not any(isinstance(b, (gr.CheckboxGroup, gr.Radio)) for b in inputs)
    assert all(b.allow_custom_value for b in inputs if isinstance(b, gr.Dropdown))
    lb = Leaderboard(str(queue), str(results), allow_local=True)
    answer = lb.submit(str(models["llama"]), "", "float64", "ada")
    assert answer.startswith("**Refused:**") and "float64" in answer and "float32, bfloat16, float16" in answer
    assert "not one of" in lb.shaped("rank", "sideways") and "wb-error" in lb.shaped("rank", "sideways")
    odd = lb.shaped("rank", "ascending", ["<b>x</b>"])
    assert "family" in odd and "<b>x</b>" not in odd and "&lt;b&gt;" in odd
    assert "wb-error" in lb.shaped("rank", "ascending", (), ["huge"])
    assert "<table" in lb.shaped("rank", "descending", ["causal"], ["under 1M", "unknown"], "gpt")
    assert lb.submit(str(models["llama"]), "", None, "ada").startswith("**Queued**")  # no dtype: the queue's
    assert "is text" in lb.submit(["x"], "", "float32", "ada")
    steps = list(lb.submit_steps(str(models["gpt2"]), "", "bfloat16", "ada"))
    assert len(steps) >= 4 and all(s.startswith("Checking the submission") for s in steps[:-1])
    assert "hashing its files" in steps[-2] and steps[-1].startswith("**Queued**")


def test_packaged_names_are_taken_where_local_models_are(site):
    from wordbench.benchmarks.app import Leaderboard

    queue, results = site
    public = Leaderboard(str(queue), str(results))
    assert "packaged local model" in public.submit("packaged:smollm2", "", "float32", "ada")
    local = Leaderboard(str(queue), str(results), allow_local=True)
    assert "no such packaged model" in local.submit("packaged:nope", "", "float32", "ada")


def test_set_aside_copies_never_overwrite_each_other_and_a_file_in_the_way_is_no_crash(site):
    from wordbench.benchmarks.queue import SET_ASIDE, LocalQueue, aside_name

    queue, _ = site
    q = LocalQueue(queue)
    (queue / "requests" / "r.json").write_text("first{")
    assert len(q.set_aside()) == 1
    (queue / "requests" / "r.json").write_text("second{")
    assert len(q.set_aside()) == 1
    aside = queue / SET_ASIDE
    assert (aside / "r.json").read_text() == "first{" and (aside / "r.2.json").read_text() == "second{"
    assert (aside / "r.2.json.reason.txt").is_file()
    assert aside_name("r.json", {"r.json", "r.2.json.reason.txt"}) == "r.3.json"
    shutil.rmtree(aside)
    aside.write_text("a file where the folder belongs")
    (queue / "requests" / "s.json").write_text("third{")
    assert q.set_aside() == [] and (queue / "requests" / "s.json").read_text() == "third{"
    assert q.claim("w1") is None or q.claim("w1").status == "RUNNING"  # claims go on past the file


def test_a_run_opens_with_its_items_and_only_runs_the_results_hold_are_read(site):
    from wordbench.benchmarks.app import Leaderboard
    from wordbench.benchmarks.run_view import ITEMS_PER_PAGE

    queue, results = site
    lb = Leaderboard(str(queue), str(results))
    table = lb.table()
    runs = re.findall(r'data-run="([^"]+)"', table)
    assert len(runs) == 2 and all(f'href="?run={r}"' in table for r in runs)  # each figure links to its run
    run = next(r for r in runs if "/gpt2/" in r)
    view = lb.run_view(run)
    assert "gpt2 on wnlampro" in view and "data:image/png;base64," in view and "Table 6" in view
    items = lb.run_items(run)
    assert f"Items 1-{ITEMS_PER_PAGE} of 200 (page 1 of 4)" in items and items.count("<tr>") == ITEMS_PER_PAGE + 1
    assert "Items 151-200 of 200" in lb.run_items(run, "4") and "Items 151-200" in lb.run_items(run, "99")  # past the end: the last
    assert "No item matches." in lb.run_items(run, "1", "no such text anywhere")
    for bad in ("runs/wnlampro/gpt2/../../../../etc", "/etc/passwd", "runs/wnlampro/nobody/1234", "x" * 5000):
        assert "wb-error" in lb.run_view(bad) and "Traceback" not in lb.run_view(bad)
    assert "page must be a number" in lb.run_items(run, "-1") and "at most" in lb.run_items(run, "1", "x" * 10_000)
    shutil.rmtree(results / "data" / "details")
    assert "were not published" in lb.run_items(run)


def test_damaged_results_files_are_named_in_the_page(site):
    from wordbench.benchmarks.app import Leaderboard

    queue, results = site
    summary = sorted(results.glob("runs/wnlampro/gpt2/*/summary.json"))[0]  # gpt2's run, bert's entry
    summary.write_text(summary.read_text()[:40])
    entry = sorted((results / "submissions").glob("bert-*.json"))[0]
    entry.write_text(entry.read_text()[:30])
    table = Leaderboard(str(queue), str(results)).table()
    assert table.count("Damaged, left out of the table") == 2 and str(summary) in table and str(entry) in table
    assert "not a JSON summary" in table and "not a submission entry" in table
    from wordbench.benchmarks.ranking import board

    cells = [c for r in board(results)[1] for c in r["cells"].values() if c["text"] == "damaged"]
    assert len(cells) == 1 and str(summary) in cells[0]["why"]  # the cell says damaged, not "never published"


def test_a_queue_is_created_only_in_a_folder_of_its_own(site, tmp_path):
    from click.testing import CliRunner

    from wordbench.benchmarks.cli import cli

    _, results = site
    inside = CliRunner().invoke(cli, ["queue", str(results / "q"), "--create"])
    assert inside.exit_code != 0 and "inside the results folder" in inside.output and not (results / "q").exists()
    itself = CliRunner().invoke(cli, ["queue", str(results), "--create"])
    assert itself.exit_code != 0 and not (results / "queue.json").exists()
    crowded = tmp_path / "crowded"
    crowded.mkdir()
    (crowded / "notes.txt").write_text("mine")
    refused = CliRunner().invoke(cli, ["queue", str(crowded), "--create"])
    assert refused.exit_code != 0 and "holds other files" in refused.output and not (crowded / "queue.json").exists()
    assert CliRunner().invoke(cli, ["queue", str(tmp_path / "new"), "--create"]).exit_code == 0


def test_a_queues_data_is_checked_by_content_at_submit(models, tmp_path):
    from wordbench.benchmarks.submit import admit
    from wordbench.errors import ConfigError

    bad = tmp_path / "wnlampro.txt"
    bad.write_text("this is no wnlampro data\n")
    q = local_queue(tmp_path / "q", data={"wnlampro": str(bad)})
    with pytest.raises(ConfigError, match="this queue's data for wnlampro .* cannot be scored, so nothing is queued"):
        admit(str(models["llama"]), q)
    assert q.requests() == []


def test_a_hub_results_snapshot_is_servable_and_local_pickles_name_the_queue_setting(models, site, tmp_path):
    from wordbench.benchmarks.app import Leaderboard
    from wordbench.benchmarks.submit import admit
    from wordbench.errors import WordbenchError

    hub = Leaderboard("hf:org/requests", "hf:org/results", cache=tmp_path / "cache")
    assert hub.served() == [str((tmp_path / "cache" / "space").resolve())]  # where its snapshots are kept
    assert Path(hub.served()[0]).is_dir() or not Path(hub.served()[0]).exists()
    queue, results = site
    assert Leaderboard(str(queue), str(results)).served() == [str(results.resolve())]
    from wordbench.benchmarks.queue import LocalQueue

    with pytest.raises(WordbenchError, match=r"this queue refuses them \(its allow_pickle setting, in queue.json, is false\)"):
        admit(str(models["gpt2-pickle"]), LocalQueue(queue))


def test_the_table_is_filtered_by_dtype_weights_and_status_paged_and_its_columns_chosen(site):
    from wordbench.benchmarks.app import Leaderboard
    from wordbench.benchmarks.ranking import board
    from wordbench.benchmarks.registry import get

    queue, results = site
    lb = Leaderboard(str(queue), str(results), allow_local=True)
    names, _ = board(results)
    rows = lb.rows()[1]
    body = lambda html: html.split("<tbody>", 1)[1].count("<tr")  # noqa: E731 - the table's rows
    dtypes, weights, statuses = lb.more_filters()
    assert dtypes and "scored" in statuses and len(rows) > 1
    full = lb.table()
    assert body(full) == len(rows)
    assert body(lb.table(per_page=1)) == 1 and f"Page 1 of {len(rows)}" in lb.table(per_page=1)
    assert f"Page {len(rows)} of {len(rows)}" in lb.table(per_page=1, page=10**6)  # past the end: the last page
    label = get(names[0]).headline.label
    assert label in full and label not in lb.table(hidden=(names[0],)) and body(lb.table(hidden=(names[0],))) == len(rows)
    assert "No model matches." in lb.table(dtypes=("fp8-none",))
    assert body(lb.table(dtypes=(dtypes[0],))) == sum((r["dtype"] or "unknown") == dtypes[0] for r in rows)
    assert body(lb.table(statuses=("scored",))) == sum(r["status"] == "scored" for r in rows)
    for bad, needle in (({"page": 0}, "page must be a number from 1"), ({"per_page": 10**4}, "rows per page must be a number"),
                        ({"dtypes": ["x" * 100]}, "a filter is a list of short texts"), ({"hidden": "vast"}, "a filter is a list"),
                        ({"page": "two"}, "page must be a number from 1")):
        assert needle in lb.shaped(**bad), bad
    assert body(lb.shaped(page="2", per_page="1")) == 1 and f"Page 2 of {len(rows)}" in lb.shaped(page="2", per_page="1")

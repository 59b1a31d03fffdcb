"""Publishing a maintainer trusts: no foreign folder deleted, real usage block, accumulated changelog,
immutable tags, token never printed; run summaries uploaded next to the dataset. The Hub is a mock."""

import json
from pathlib import Path
from types import SimpleNamespace

import huggingface_hub
import pytest
from click.testing import CliRunner

from wordbench.benchmarks.cli import cli

TOKEN = "hf_secretTOKEN123"


@pytest.fixture()
def runner():
    return CliRunner()


class FakeApi:
    """HfApi stand-in: a dataset repo with some tags and a card; records every call."""

    instances: list["FakeApi"] = []
    tags: tuple[str, ...] = ()
    card: str | None = None
    fail_with: str | None = None

    def __init__(self, token=None):
        self.token, self.calls = token, []
        FakeApi.instances.append(self)

    def list_repo_refs(self, repo_id, repo_type):
        if not self.tags and self.card is None:
            from huggingface_hub.errors import RepositoryNotFoundError

            raise RepositoryNotFoundError("404 repository not found", response=SimpleNamespace(headers={}, status_code=404, request=None))
        return SimpleNamespace(tags=[SimpleNamespace(name=t) for t in self.tags])

    def hf_hub_download(self, repo_id, filename, repo_type):
        path = self.card_path
        path.write_text(self.card)
        return str(path)

    def _record(name):
        def method(self, *args, **kwargs):
            if self.fail_with:
                raise RuntimeError(self.fail_with)
            self.calls.append((name, args, kwargs))
        return method

    create_repo = _record("create_repo")
    upload_folder = _record("upload_folder")
    create_tag = _record("create_tag")
    create_commit = _record("create_commit")


@pytest.fixture()
def hub(monkeypatch, tmp_path):
    FakeApi.instances, FakeApi.tags, FakeApi.card, FakeApi.fail_with = [], (), None, None
    FakeApi.card_path = tmp_path / "hub-card.md"
    monkeypatch.setattr(huggingface_hub, "HfApi", FakeApi)
    monkeypatch.delenv("HF_TOKEN", raising=False)
    return FakeApi


def _publish(runner, out, version, *extra):
    return runner.invoke(cli, ["publish", "wnlampro", "--repo-id", "acme/wnlampro", "--version", version, "--local", str(out), *extra])


def test_foreign_folder_is_never_deleted(runner, wnlampro_build, tmp_path):
    out = tmp_path / "mine"
    out.mkdir()
    (out / "keep.txt").write_text("precious")
    for extra in ((), ("--replace-local",)):  # never, whatever the flag
        result = _publish(runner, out, "1.0.0", "--dry-run", *extra)
        assert result.exit_code != 0 and "not a wordbench publish folder" in result.output
        assert (out / "keep.txt").read_text() == "precious"
    # A previous publish with a stray file added is refused as well; --replace-local replaces it.
    pub = tmp_path / "pub"
    assert _publish(runner, pub, "1.0.0", "--dry-run").exit_code == 0
    (pub / "notes.txt").write_text("mine")
    result = _publish(runner, pub, "1.0.1", "--dry-run")
    assert result.exit_code != 0 and "notes.txt" in result.output and (pub / "notes.txt").exists()
    assert _publish(runner, pub, "1.0.1", "--dry-run", "--replace-local").exit_code == 0
    assert not (pub / "notes.txt").exists() and (pub / "signature.json").exists()


def test_publish_never_touches_a_build_the_cache_or_a_symlink(runner, wnlampro_build, tmp_path):
    from wordbench.cache import cache_dir

    build_folder = wnlampro_build[0]
    before = sorted(p.name for p in build_folder.rglob("*"))
    for target in (build_folder, cache_dir(), cache_dir("builds")):
        result = _publish(runner, target, "1.0.0", "--dry-run", "--replace-local")
        assert result.exit_code == 1 and "Traceback" not in result.output, result.output
    assert sorted(p.name for p in build_folder.rglob("*")) == before  # the build is whole
    real = tmp_path / "real"
    assert _publish(runner, real, "1.0.0", "--dry-run").exit_code == 0
    link = tmp_path / "link"
    link.symlink_to(real)
    result = _publish(runner, link, "1.0.1", "--dry-run")
    assert result.exit_code == 1 and "is a symlink" in result.output and (real / "README.md").exists()


@pytest.mark.parametrize("version", ["¹.0.0", "01.00.007", "1.0", "1.0.0.0", "v1.0.0", "1.0.0-rc1", "١.٠.٠"])
def test_versions_are_ascii_semver(runner, tmp_path, version):
    result = _publish(runner, tmp_path / "x", version, "--dry-run")
    assert result.exit_code == 1 and "MAJOR.MINOR.PATCH" in result.output and not (tmp_path / "x").exists()


def test_card_usage_and_local_changelog_accumulate(runner, wnlampro_build, tmp_path):
    out = tmp_path / "pub"
    assert _publish(runner, out, "1.0.0", "--dry-run", "--changelog", "first release").exit_code == 0
    card = (out / "README.md").read_text()
    assert 'load_dataset("acme/wnlampro", revision="v1.0.0")' in card and "--data acme/wnlampro@v1.0.0" in card
    assert "REPO_OR_FOLDER" not in card
    assert _publish(runner, out, "1.1.0", "--dry-run", "--changelog", "more hypernyms").exit_code == 0
    assert _publish(runner, out, "1.1.0", "--dry-run", "--changelog", "more hypernyms, again").exit_code == 0  # rewrites its own line
    from wordbench.benchmarks.publish import changelog_entries

    entries = changelog_entries((out / "README.md").read_text())
    assert len(entries) == 2 and entries[0].startswith("- v1.1.0") and entries[0].endswith("more hypernyms, again")
    assert entries[1].startswith("- v1.0.0") and entries[1].endswith("first release")


def test_hub_publish_refuses_existing_tag_and_continues_hub_changelog(runner, wnlampro_build, tmp_path, hub):
    hub.tags = ("v1.0.0",)
    hub.card = "# card\n\n## Changelog\n\n- v1.0.0 (2026-01-01): on the hub\n\n## Citation\n"
    result = _publish(runner, tmp_path / "a", "1.0.0", "--token", TOKEN)
    assert result.exit_code != 0 and "already has tag v1.0.0" in result.output
    assert not (tmp_path / "a").exists()  # refused before anything was written
    result = _publish(runner, tmp_path / "b", "1.1.0", "--token", TOKEN, "--changelog", "new")
    assert result.exit_code == 0, result.output
    api = hub.instances[-1]
    assert api.token == TOKEN and [c[0] for c in api.calls] == ["create_repo", "upload_folder", "create_tag"]
    assert api.calls[2][2]["tag"] == "v1.1.0"
    entries = [line.split(" (")[0] for line in (tmp_path / "b" / "README.md").read_text().split("## Changelog")[1].splitlines() if line.startswith("- v")]
    assert entries == ["- v1.1.0", "- v1.0.0"]
    assert TOKEN not in result.output


def test_hub_errors_hide_the_token_and_name_hf_auth_login(runner, wnlampro_build, tmp_path, hub, monkeypatch):
    monkeypatch.setenv("HF_TOKEN", TOKEN)
    hub.fail_with = f"401 Unauthorized: invalid token {TOKEN}"
    result = _publish(runner, tmp_path / "c", "2.0.0")
    assert result.exit_code != 0 and TOKEN not in result.output and "***" in result.output
    assert "hf auth login" in result.output and "huggingface-cli" not in result.output
    assert hub.instances[-1].token is None  # HfApi reads HF_TOKEN itself


def _score(tiny_models, data, out, name):
    from wordbench.benchmarks.runner import score
    from wordbench.scorers.models import load_model

    return score("wnlampro", load_model(str(tiny_models[name]), device="cpu"), str(data), "test", 40, out, progress=False)


def test_results_dataset_grows_and_a_republished_run_replaces_its_rows(runner, tiny_models, wnlampro_build, tmp_path):
    import datasets

    gpt2 = _score(tiny_models, wnlampro_build[0], tmp_path / "runs", "gpt2")
    llama = _score(tiny_models, wnlampro_build[0], tmp_path / "runs", "llama")
    local = tmp_path / "results"
    for run in (gpt2, llama, gpt2):  # the third publishes gpt2's run again: its rows are replaced, not added
        result = runner.invoke(cli, ["publish-results", str(run.path), "--local", str(local)])
        assert result.exit_code == 0 and "not uploaded" in result.output, result.output
    results = datasets.load_dataset(str(local), "results", split="train")
    assert set(results["model"]) == {"gpt2", "llama"}
    keys = [(r["run"], r["metric"]) for r in results]
    assert len(keys) == len(set(keys))  # no duplicate row
    mrr = {r["model"]: r for r in results if r["metric"] == "antonym/all/mrr"}
    assert set(mrr) == {"gpt2", "llama"} and all(r["n"] == 12 and r["signature"].startswith("wnlampro@") for r in mrr.values())
    assert mrr["gpt2"]["ci_low"] <= mrr["gpt2"]["value"] <= mrr["gpt2"]["ci_high"]  # the bootstrap interval travels with it
    assert not any(r["metric"].endswith("/n") for r in results)  # counts are the n column, not cells
    summary = json.loads((gpt2.path / "summary.json").read_text())
    assert mrr["gpt2"]["value"] == summary["metrics"]["antonym"]["all"]["mrr"]
    details = datasets.load_dataset(str(local), "details", split="train")
    assert len(details) == 2 * len(gpt2.records()) and json.loads(details[0]["record"])["id"] == details[0]["id"]
    assert sorted(p.name for p in (local / "data" / "details").iterdir()) == ["gpt2.parquet", "llama.parquet"]
    alone = datasets.load_dataset(str(local), "details_llama", split="train")  # each model's items, a config of their own
    assert set(alone["model"]) == {"llama"} and len(alone) == len(llama.records())
    card = (local / "README.md").read_text()
    assert "config_name: results" in card and "# Leaderboard" in card and "| gpt2 |" in card and "| llama |" in card
    board = runner.invoke(cli, ["leaderboard", str(local), "--html", str(tmp_path / "board.html")])
    assert board.exit_code == 0 and "## wnlampro" in board.output and "llama" in board.output
    _check_html_page(local / "leaderboard.html", local)
    _check_html_page(tmp_path / "board.html", None)
    foreign = tmp_path / "foreign"
    foreign.mkdir()
    (foreign / "keep.txt").write_text("mine")
    result = runner.invoke(cli, ["publish-results", str(gpt2.path), "--local", str(foreign)])
    assert result.exit_code == 1 and "not a wordbench results folder" in result.output and (foreign / "keep.txt").exists()


def test_publish_results_to_the_hub_in_one_upload(runner, tiny_models, wnlampro_build, tmp_path, hub, monkeypatch):
    monkeypatch.chdir(tmp_path)
    run = _score(tiny_models, wnlampro_build[0], tmp_path / "runs", "gpt2")
    result = runner.invoke(cli, ["publish-results", str(run.path), "--repo-id", "acme/results", "--token", TOKEN])
    assert result.exit_code == 0, result.output
    names = [name for name, _, _ in hub.instances[-1].calls]
    assert names == ["create_repo", "upload_folder"] and TOKEN not in result.output
    upload = hub.instances[-1].calls[-1]
    assert "data/*/*.parquet" in str(upload)  # a parquet file of an older layout is removed in the same commit
    assert (tmp_path / "publish" / "results-acme-results" / "data" / "results").is_dir()
    not_a_run = tmp_path / "empty"
    not_a_run.mkdir()
    result = runner.invoke(cli, ["publish-results", str(not_a_run), "--local", str(tmp_path / "r2")])
    assert result.exit_code != 0 and "no summary.json" in result.output


def _check_html_page(page, folder):
    """The leaderboard page parses as HTML: a table row per model, and every figure it shows exists."""
    from html.parser import HTMLParser
    from urllib.parse import unquote, urlparse

    class Page(HTMLParser):
        def __init__(self):
            super().__init__()
            self.cells, self.images, self.open = [], [], None

        def handle_starttag(self, tag, attrs):
            self.open = tag
            if tag == "img":
                self.images.append(dict(attrs)["src"])

        def handle_data(self, data):
            if self.open == "td":
                self.cells.append(data.strip())

    parsed = Page()
    parsed.feed(page.read_text())
    assert {"gpt2", "llama"} <= set(parsed.cells)
    assert parsed.images and all(name.endswith(".png") for name in parsed.images)
    for src in parsed.images:
        path = (folder / src) if folder else Path(unquote(urlparse(src).path))
        assert path.is_file(), src


def test_the_card_gives_the_version_the_dataset_is_tagged_with(runner, wnlampro_build, tmp_path):
    """--version other than the builder's: the card's config versions are the tagged one, and it says which tag."""
    import yaml

    out = tmp_path / "pub"
    assert _publish(runner, out, "1.2.3", "--dry-run").exit_code == 0
    card = (out / "README.md").read_text()
    meta = yaml.safe_load(card.split("---")[1])
    assert {c["version"] for c in meta["configs"]} == {"1.2.3"}
    assert "version **1.2.3** (tag `v1.2.3`)" in card


def test_changelog_is_one_line_of_text_shown_as_text(runner, wnlampro_build, tmp_path):
    out = tmp_path / "pub"
    for bad, why in (("first\n---\nlicense: evil", "one line"), ("fixed\u202e", "U+202E"), ("   ", "empty")):
        result = _publish(runner, out, "1.0.0", "--dry-run", "--changelog", bad)
        assert result.exit_code != 0 and why in result.output and "Traceback" not in result.output, result.output
    assert _publish(runner, out, "1.0.0", "--dry-run", "--changelog", "<script>x</script> & --- more").exit_code == 0
    card = (out / "README.md").read_text()
    assert "&lt;script&gt;x&lt;/script&gt; &amp; --- more" in card and "<script>" not in card
    assert _publish(runner, out, "1.1.0", "--dry-run", "--changelog", "second").exit_code == 0
    from wordbench.benchmarks.publish import changelog_entries

    entries = changelog_entries((out / "README.md").read_text())
    assert entries[1].endswith("&lt;script&gt;x&lt;/script&gt; &amp; --- more")  # the earlier line kept whole

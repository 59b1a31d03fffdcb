"""Benchmarks of a known kind (``builders/kinds.py``, ``scorers/kinds.py``): each example in tests/kinds is one
declaration beside one data file; it is checked, built and scored, and its metrics equal the kind's definition
computed here from the model's own outputs."""

import re
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner
from scipy import stats

from wordbench.benchmarks import registry
from wordbench.benchmarks.cli import cli
from wordbench.errors import DataFormatError

KINDS = Path(__file__).resolve().parent / "kinds"
EXAMPLE = Path(__file__).resolve().parent / "example_benchmark"


@pytest.fixture
def declared(monkeypatch):
    """The examples registered as a user's script would: import the declaration, ``register`` it."""
    monkeypatch.syspath_prepend(str(KINDS))
    monkeypatch.setattr(registry.REGISTRY, "_records", None)
    import capitals
    import relatedness

    yield {b.name: registry.register(b) for b in (capitals.BENCHMARK, relatedness.BENCHMARK)}
    monkeypatch.setattr(registry.REGISTRY, "_records", None)


def test_a_known_kind_is_one_declaration_beside_one_data_file():
    for folder, names in ((KINDS, ("capitals", "relatedness")), (EXAMPLE, ("grammar_pairs",))):
        for name in names:
            declaration = folder / f"{name}.py"
            assert len(declaration.read_text().splitlines()) <= 60, declaration
            assert (folder / f"{name}.jsonl").is_file()
    assert sorted(p.name for p in KINDS.iterdir() if p.is_file()) == ["capitals.jsonl", "capitals.py", "relatedness.jsonl", "relatedness.py"]


def _run(name, model, tmp_path, monkeypatch, *options):
    import json

    monkeypatch.chdir(tmp_path)
    out = CliRunner().invoke(cli, ["score", name, "--model", str(model), "--json", *options])
    assert out.exit_code == 0, out.output
    summary = json.loads(out.stdout)[0]
    records = [json.loads(line) for line in next((tmp_path / "runs" / name).rglob("records.jsonl")).read_text().splitlines()]
    return summary, records


def test_cloze_ranks_the_target_among_its_candidates(declared, tiny_models, tmp_path, monkeypatch):
    from wordbench.scorers.models import load_model

    checked = CliRunner().invoke(cli, ["check", "capitals"])
    assert checked.exit_code == 0, checked.output
    summary, records = _run("capitals", tiny_models["gpt2"], tmp_path, monkeypatch, "--option", "k=2")
    items = declared["capitals"].kind.read(KINDS / "capitals.jsonl")
    model = load_model(str(tiny_models["gpt2"]), device="cpu")
    ranks = []
    for it in items:  # the kind's definition: 1 + the candidates scored at least as high as the target, itself aside
        s = [model.sequence_logprobs([it["context"].replace("___", c)])[0].total for c in it["candidates"]]
        t = s[it["candidates"].index(it["target"])]
        ranks.append(1 + sum(v >= t for v in s) - 1)
    assert sorted(r["rank"] for r in records) == sorted(ranks)
    overall = summary["metrics"]["overall"]
    assert overall["n"] == 10 and overall["mrr"] == pytest.approx(np.mean([1 / r for r in ranks]), abs=1e-6)
    assert overall["p@k"] == pytest.approx(np.mean([r <= 2 for r in ranks])) and overall["k"] == 2
    value, ci = declared["capitals"].headline.read(summary["metrics"])
    assert value == overall["mrr"] and ci[0] <= value <= ci[1]
    assert set(summary["metrics"]["by_group"]) == {"europe", "asia"}
    report = next((tmp_path / "runs" / "capitals").rglob("report.md")).read_text()
    assert "| europe |" in report and "| **all** |" in report
    assert next((tmp_path / "runs" / "capitals").rglob("mrr.png")).stat().st_size > 0


@pytest.mark.parametrize("model", ["gpt2", "bert"])
def test_ratings_correlate_the_models_similarity_with_the_ratings(declared, tiny_models, tmp_path, monkeypatch, model):
    from wordbench.scorers.models import load_model

    summary, records = _run("relatedness", tiny_models[model], tmp_path, monkeypatch, "--option", "layer=1")
    items = declared["relatedness"].kind.read(KINDS / "relatedness.jsonl")
    m = load_model(str(tiny_models[model]), device="cpu")
    states = m.hidden_states([w for it in items for w in (it["first"], it["second"])],
                             [(0, len(w)) for it in items for w in (it["first"], it["second"])], pool="mean")[:, 1]
    a, b = states[0::2], states[1::2]
    cos = (a * b).sum(-1) / (np.linalg.norm(a, axis=-1) * np.linalg.norm(b, axis=-1))
    want = stats.spearmanr(cos, [it["rating"] for it in items]).statistic
    overall = summary["metrics"]["overall"]
    assert overall["n"] == 12 and overall["spearman"] == pytest.approx(want, abs=1e-6)
    low, high = overall["spearman_ci"]
    assert -1 <= low <= overall["spearman"] <= high <= 1
    assert {r["id"]: r["similarity"] for r in records} == pytest.approx({it["id"]: float(c) for it, c in zip(items, cos)}, abs=1e-5)


BAD_LINES = {
    "capitals": [('{"region": "x", "context": "no blank here", "target": "a", "candidates": ["a", "b"]}', "the context must hold ___ once"),
                 ('{"region": "x", "context": "a ___", "target": "c", "candidates": ["a", "b"]}', "the candidates must be distinct and hold the target"),
                 ('{"region": "x", "context": "a ___", "target": "a", "candidates": "a"}', "'candidates' must be a list of two or more strings")],
    "relatedness": [('{"pos": "noun", "first": "a", "second": "b", "rating": "high"}', "'rating' must be a finite number"),
                    ('{"pos": "noun", "first": "a", "second": "b", "rating": NaN}', "'rating' must be a finite number"),
                    ('{"pos": "noun", "first": "a", "second": "b", "rating": Infinity}', "'rating' must be a finite number"),
                    ('{"pos": "noun", "first": "", "second": "b", "rating": 1}', "'first' must be a non-empty string"),
                    ('{"first": "a", "second": "b", "rating": 1}', "no 'pos' (the declaration's group column)"),
                    ("[1, 2]", "expected a JSON object"), ("{oops", "not JSON")],
}


@pytest.mark.parametrize("name", sorted(BAD_LINES))
def test_a_malformed_data_line_is_one_error_naming_it(declared, tmp_path, name):
    good = (KINDS / f"{name}.jsonl").read_text().splitlines()[0]
    for line, needle in BAD_LINES[name]:
        path = tmp_path / "data.jsonl"
        path.write_text(good + "\n\n" + line + "\n")
        with pytest.raises(DataFormatError, match=rf"data.jsonl line 3: .*{re.escape(needle[:20])}"):
            declared[name].kind.read(path)
        out = CliRunner().invoke(cli, ["build", name, "--set", f"file={path}", "--out", str(tmp_path / "out")])
        assert out.exit_code != 0 and "data.jsonl line 3" in out.output and "Traceback" not in out.output


def test_a_data_file_with_a_byte_order_mark_reads_as_without(declared, tmp_path):
    path = tmp_path / "bom.jsonl"
    path.write_bytes(b"\xef\xbb\xbf" + (KINDS / "relatedness.jsonl").read_bytes())
    assert declared["relatedness"].kind.read(path) == declared["relatedness"].kind.read(KINDS / "relatedness.jsonl")


def test_a_kinds_page_is_made_from_its_declaration(declared):
    import sys

    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from test_docs import _hooks

    from wordbench.builders.kinds import page_markdown

    page = _hooks().render(page_markdown(declared["capitals"]), "capitals")
    assert page.startswith("# capitals") and "A benchmark of the `cloze` kind" in page
    assert "k=3" in page or "`k`" in page  # the options table, filled
    assert "Ten hand-written sentences" in page  # the limitations

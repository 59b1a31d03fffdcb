"""A benchmark added from outside the package (tests/example_benchmark, the guide's worked example), registered by an
entry point as an installed package would be, reaches every command and list without an edit to a shared file."""

import json
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from wordbench.benchmarks import registry
from wordbench.benchmarks.cli import cli
from wordbench.errors import ConfigError

EXAMPLE = Path(__file__).resolve().parent / "example_benchmark"
PAIRS = EXAMPLE / "grammar_pairs.jsonl"


@pytest.fixture
def grammar(tmp_path, monkeypatch):
    """An installed plugin: a dist-info folder on sys.path whose entry point names the example's declaration."""
    dist = tmp_path / "site" / "grammar_example-1.0.dist-info"
    dist.mkdir(parents=True)
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: grammar-example\nVersion: 1.0\n")
    (dist / "entry_points.txt").write_text("[wordbench.benchmarks]\ngrammar = grammar_pairs:BENCHMARK\n")
    monkeypatch.syspath_prepend(str(EXAMPLE))
    monkeypatch.syspath_prepend(str(tmp_path / "site"))
    monkeypatch.setattr(registry.REGISTRY, "_records", None)  # read the declarations again, entry points included
    yield registry.get("grammar")


def test_an_entry_point_benchmark_is_listed_checked_built_and_scored(grammar, tiny_models, tmp_path, monkeypatch):
    runner = CliRunner()
    assert list(registry.REGISTRY)[-1] == "grammar"  # after the built-in ones
    assert "grammar@1.0.0  English grammatical minimal pairs" in runner.invoke(cli, ["list"]).output
    options = runner.invoke(cli, ["options", "grammar"]).output
    assert "file=" in options and "a JSONL data file of the declaration's form" in options
    checked = runner.invoke(cli, ["check", "grammar"])
    assert checked.exit_code == 0, checked.output

    missing = runner.invoke(cli, ["score", "grammar", "--model", str(tiny_models["gpt2"])])
    assert missing.exit_code == 1 and "grammar has no default data: it reads its pairs from a JSONL file" in missing.output

    built = runner.invoke(cli, ["build", "grammar", "--set", f"file={PAIRS}", "--out", str(tmp_path / "data")])
    assert built.exit_code == 0, built.output
    card = (tmp_path / "data" / "README.md").read_text()
    assert "# wordbench grammar" in card and "warstadt2020blimp" in card

    monkeypatch.chdir(tmp_path)
    for data in (tmp_path / "data", PAIRS):  # a built folder, and the file in its own format
        scored = runner.invoke(cli, ["score", "grammar", "--data", str(data), "--model", str(tiny_models["gpt2"]), "--json"])
        assert scored.exit_code == 0, scored.output
        summary = json.loads(scored.stdout)[0]
        assert summary["n"] == 12 and summary["metrics"]["overall"]["n"] == 12
        assert set(summary["metrics"]["by_group"]) == {"subject_verb_agreement", "determiner_noun_agreement", "anaphor_agreement"}
        assert grammar.headline.read(summary["metrics"])[1] is not None  # the leaderboard's value with its Wilson interval
    records = [json.loads(line) for line in next((tmp_path / "runs" / "grammar").rglob("records.jsonl")).read_text().splitlines()]
    assert all(r["score_correct"] != r["score_incorrect"] for r in records)
    report = next((tmp_path / "runs" / "grammar").rglob("report.md")).read_text()
    assert "| anaphor_agreement |" in report and "| **all** |" in report
    assert next((tmp_path / "runs" / "grammar").rglob("accuracy.png")).stat().st_size > 0


def test_a_suite_skips_a_benchmark_without_default_data_unless_given_its_data(grammar, tiny_models, tmp_path, monkeypatch):
    from wordbench.benchmarks.suite import parse_names, score_suite
    from wordbench.scorers.models import load_model

    assert parse_names("all")[-1] == "grammar"
    monkeypatch.setattr(registry.REGISTRY, "_records", {"grammar": grammar})  # `score all` without the six slow ones
    monkeypatch.chdir(tmp_path)
    out = CliRunner().invoke(cli, ["score", "all", "--model", str(tiny_models["gpt2"])])
    assert out.exit_code == 0, out.output
    assert "| grammar | skipped: no default data: it reads its pairs from a JSONL file" in out.output

    model = load_model(str(tiny_models["gpt2"]))
    given = score_suite(["grammar"], model, out=tmp_path / "runs", data={"grammar": str(PAIRS)}, progress=False)
    assert not given.skipped and given.runs["grammar"].summary()["n"] == 12


def test_the_generated_tables_and_the_docs_checks_take_it(grammar):
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from test_docs import _hooks, check_page

    hooks = _hooks()
    assert "[`grammar`](benchmarks/grammar.md)" in hooks.benchmarks(None)
    assert "| `grammar` |" in hooks.readme_table() and "--data FILE" in hooks.readme_table()
    assert "| `grammar` (`warstadt2020`) |" in hooks.faithful(None) and "| `grammar` | phenomenon |" in hooks.sampling(None)
    check_page("grammar")


def test_register_adds_a_declaration_once(monkeypatch):
    monkeypatch.syspath_prepend(str(EXAMPLE))
    monkeypatch.setattr(registry.REGISTRY, "_records", None)
    import grammar_pairs

    assert "grammar" not in registry.REGISTRY
    registered = registry.register(grammar_pairs.BENCHMARK)
    assert registry.get("grammar") is registered and registered.builder_class.name == "grammar"
    with pytest.raises(ConfigError, match="two benchmarks are named 'grammar'"):
        registry.register(grammar_pairs.BENCHMARK)
    with pytest.raises(ConfigError, match="declares str, not a wordbench.declaration.Benchmark"):
        registry.register("grammar")
    import dataclasses

    with pytest.raises(ConfigError, match="'elsewhere' from register.. declares no builder_path: give builder_path='module:Class'"):
        registry.register(dataclasses.replace(registry.get("vast"), name="elsewhere", builder_path=""))  # held by no module
    assert registry.get("vast").builder_path == "wordbench.builders.vast:VASTBuilder"  # found in the module that declares it


def test_the_guide_quotes_the_examples_own_size():
    """docs/adding-a-benchmark.md's figures are `wc -l tests/example_benchmark/*`."""
    guide = " ".join((Path(__file__).resolve().parents[1] / "docs" / "adding-a-benchmark.md").read_text().split())
    lines = {p.suffix: len(p.read_text().splitlines()) for p in EXAMPLE.iterdir() if p.is_file()}
    assert (f"the example is {lines['.py']} lines of Python and a {lines['.md']}-line page beside its "
            f"{lines['.jsonl']} lines of data") in guide


BROKEN = {  # a declaration's field -> a broken value, and what its one-line problem says
    "scorer_path": ("wordbench.builders.vast:VASTBuilder", "names the class VASTBuilder, not a subclass of wordbench.scorers.base.Scorer"),
    "builder_path": ("wordbench.scorers.vast:VASTScorer", "names the class VASTScorer, not a subclass of wordbench.builders.base.Builder"),
    "page": (3, "its page is a int, not a path as text"),
    "headline": ("overall/accuracy", "its headline is a str, not a wordbench.declaration.Headline"),
    "figure": ({"model": "smollm2"}, "its figure is a dict, not a wordbench.declaration.Figure"),
    "profiles": ((("full", {"limit": 3}),), "its profiles hold ('full', {'limit': 3})"),
    "summary": ("  ", "the declaration's summary is empty"),
    "citation": (None, "the declaration's citation is not text"),
}
BROKEN_PATHS = {  # a scorer_path -> what its problem says
    "wordbench.scorers.vast": "'wordbench.scorers.vast' is not a 'module:Class' path",
    "wordbench.scorers.vast:VASTScorer:x": "is not a 'module:Class' path",
    "no_such_module_xyz:Scorer": "no_such_module_xyz:Scorer cannot be imported (ModuleNotFoundError",
    "wordbench.scorers.vast:NoSuchScorer": "wordbench.scorers.vast:NoSuchScorer cannot be imported (AttributeError",
    "os.path:join": "names a function, not a subclass of wordbench.scorers.base.Scorer",
    "wordbench.builders.vast:BENCHMARK": "names a Benchmark, not a subclass",
}
BROKEN_KINDS = {  # VAST (of the ratings kind) declared of another kind -> what its problem says
    "cloze": "it is declared of the cloze kind but its scorer VASTScorer is of the ratings kind",
    "": "it is declared of a kind of its own (kind_name '') but its scorer VASTScorer is of the ratings kind",
    "grammar": "its kind_name 'grammar' is no known kind; the kinds are pairs, cloze, ratings",
    3: "its kind_name 3 is no known kind",
}


@pytest.mark.parametrize("field,value,needle", [(f, v, n) for f, (v, n) in BROKEN.items()] +
                         [("scorer_path", p, n) for p, n in BROKEN_PATHS.items()] +
                         [("kind_name", k, n) for k, n in BROKEN_KINDS.items()])
def test_check_reports_a_broken_declaration_in_one_line(field, value, needle, monkeypatch):
    """`wordbench check` on declarations broken in each way: each problem is one line naming it, never a traceback."""
    import dataclasses

    from wordbench.benchmarks.contract import problems

    broken = dataclasses.replace(registry.get("vast"), name="broken", **{field: value})
    found = problems(broken)
    assert found and all("\n" not in line and line.startswith("broken: ") for line in found), found
    assert any(needle in line for line in found), found
    monkeypatch.setattr(registry.REGISTRY, "_records", None)
    registry.register(broken)
    try:
        checked = CliRunner().invoke(cli, ["check", "broken"])
    finally:
        monkeypatch.setattr(registry.REGISTRY, "_records", None)
    assert checked.exit_code == 1 and "Traceback" not in checked.output and needle in checked.output, checked.output


def test_a_rule_that_cannot_be_checked_is_one_line_too(monkeypatch):
    """A builder broken in a way no rule foresaw (its schema not a mapping) still gives one line, not a traceback."""
    import dataclasses

    from wordbench.benchmarks.contract import problems
    from wordbench.builders.vast import VASTBuilder

    monkeypatch.setattr(VASTBuilder, "schema", ["default"])
    found = problems(dataclasses.replace(registry.get("vast"), name="broken"))
    assert len(found) == 1 and found[0].startswith("broken: checking the declaration failed: TypeError"), found

"""The figures the README quotes are recomputed by the commands named beside them: drift fails here
(`make readme-figures` runs this file alone)."""

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text()


def test_wnlampro_table4_as_quoted(wnlampro_build):
    """`wordbench build wnlampro`: the README's Table 4 cells (entries and ratio) are the build's."""
    from wordbench.benchmarks.hub import load_data
    from wordbench.builders.wnlampro import WNLaMProBuilder

    folder, _ = wnlampro_build
    _, data = load_data("wnlampro", str(folder))
    summary = WNLaMProBuilder().summary(data)
    for relation in ("antonym", "hypernym", "cohyponym"):
        built = re.findall(r"(\d+) \([\d.]+, ([\d.]+x)\)", re.search(rf"^\| {relation} \|.*$", summary, re.M).group(0))
        quoted = re.findall(r"(\d+) \(([\d.]+x)\)", re.search(rf"^\| {relation} \| \d+ \(.*$", README, re.M).group(0))[:3]
        assert built == quoted, (relation, built, quoted)


def test_tendencies_split_as_quoted(tmp_path):
    """`wordbench build tendencies`: the README's line counts and mean length of the offline sample."""
    from wordbench.benchmarks.hub import build, load_data

    folder, _ = build("tendencies", out=tmp_path / "t", progress=False)
    _, data = load_data("tendencies", str(folder))
    test, train = data["default"]["test"], data["default"]["train"]
    mean = sum(test["length"]) / len(test)
    assert f"{len(test):,} test lines of {mean:.1f} tokens" in README.replace("\n", " ")
    assert f"{len(train):,} train lines" in README.replace("\n", " ")


def test_minpairs_comparison_as_quoted():
    """`python -m wordbench.builders.minpairs.compare ../shared/reference/minpairs [--faithful]`: the README's rows."""
    from wordbench.builders.minpairs.compare import compare_sets

    folder = ROOT.parent / "shared" / "reference" / "minpairs"
    if not folder.is_dir():
        pytest.skip("the authors' development slice is not beside this checkout (../shared/reference/minpairs)")
    default, faithful = compare_sets(folder), compare_sets(folder, faithful=True)
    for d, f in zip(default, faithful):
        row = (f"| {d.name} | {d.sentences} | {100 * d.fires:.1f} / {100 * f.fires:.1f} | "
               f"{100 * d.theirs_among_ours:.1f} / {100 * f.theirs_among_ours:.1f} | "
               f"{100 * d.ours_among_theirs:.1f} / {100 * f.ours_among_theirs:.1f} | "
               f"{d.per_sentence_ours:.2f} vs {d.per_sentence_theirs:.2f} |")
        assert row in README, row

"""The reader samples of minpairs (``builders/minpairs/sample.py``): a seeded draw that does not depend on the build's
row order, judged files read strictly, and every reader figure the minpairs page quotes tallied from a committed file."""

import re
from pathlib import Path

import pytest

from wordbench.builders.minpairs.sample import COLUMNS, draw, read_judged, sample_tsv, tally
from wordbench.errors import DataFormatError

ROOT = Path(__file__).resolve().parents[1]
READERS = ROOT / "docs" / "benchmarks" / "readers"


def _rows(n):
    return [{"id": f"polarity_affix_del.human-{i:03d}", "phenomenon": "polarity_affix_del" if i % 3 else "np_agreement",
             "source": f"s{i}", "correct": f"un{i}", "incorrect": f"{i}", "edit": {"before": f"un{i}", "after": f"{i}"}} for i in range(n)]


def test_the_draw_is_seeded_and_independent_of_row_order(tmp_path):
    rows = _rows(60)
    first = draw(rows, "polarity_affix_del", 10, seed=7)
    assert first == draw(list(reversed(rows)), "polarity_affix_del", 10, seed=7)
    assert first != draw(rows, "polarity_affix_del", 10, seed=8)
    assert {r["phenomenon"] for r in first} == {"polarity_affix_del"} and len({r["id"] for r in first}) == 10
    assert len(draw(rows, "polarity_affix_del", 1000, seed=7)) == 40  # all there are
    with pytest.raises(DataFormatError, match="no clause_omission rows"):
        draw(rows, "clause_omission", 3, seed=0)
    path = tmp_path / "s.tsv"
    path.write_text(sample_tsv(first, ["build: x"]).replace("\t\t\n", "\tA\tfine\n"))
    assert tally(path) == {"accepted": 10, "borderline": 0, "rejected": 0, "judged": 10}


def test_a_judged_row_without_a_verdict_names_its_line(tmp_path):
    path = tmp_path / "s.tsv"
    path.write_text("# c\n" + "\t".join(COLUMNS) + "\n" + "\t".join(["a"] * 6 + ["A", "ok"]) + "\n" + "\t".join(["b"] * 6 + ["X", ""]) + "\n")
    with pytest.raises(DataFormatError, match=r"s.tsv line 4: expected 8 tab-separated cells with a verdict A, B or R"):
        read_judged(path)
    path.write_text("id\tsource\n")
    with pytest.raises(DataFormatError, match="expected a header line"):
        read_judged(path)


def test_the_page_quotes_each_judged_file_as_tallied():
    page = " ".join((ROOT / "docs" / "benchmarks" / "minpairs.md").read_text().split())
    files = sorted(READERS.glob("minpairs-*.tsv"))
    assert files
    for path in files:
        text = path.read_text(encoding="utf-8")
        assert re.search(r"^# judged: .*large language model.*no person annotated", text, re.M), path.name  # provenance
        t = tally(path)
        quoted = f"`{path.relative_to(ROOT).as_posix()}`): {t['judged']} variants, {t['accepted']} accepted ({t['borderline']} borderline)"
        assert quoted in page, quoted


def test_the_command_draws_from_a_build_folder(tmp_path):
    import datasets
    from click.testing import CliRunner

    from wordbench.builders.minpairs.sample import main

    rows = _rows(30)
    features = datasets.Features({"id": datasets.Value("string"), "source": datasets.Value("string"),
                                  "phenomenon": datasets.ClassLabel(names=["np_agreement", "polarity_affix_del"]),
                                  "correct": datasets.Value("string"), "incorrect": datasets.Value("string"),
                                  "edit": {"before": datasets.Value("string"), "after": datasets.Value("string")}})
    (tmp_path / "data" / "default").mkdir(parents=True)
    datasets.Dataset.from_list(rows, features=features).to_parquet(str(tmp_path / "data" / "default" / "test-00000-of-00001.parquet"))
    (tmp_path / "signature.json").write_text('{"signature": "minpairs@x", "config": {"seed": 0}}')
    out = CliRunner().invoke(main, [str(tmp_path), "--n", "5", "--seed", "3"])
    assert out.exit_code == 0, out.output
    body = [line.split("\t") for line in out.output.splitlines() if "\t" in line and not line.startswith("#")]
    assert body[0] == list(COLUMNS) and len(body) == 6 and "# build: minpairs@x" in out.output
    assert [r[0] for r in body[1:]] == [r["id"] for r in draw(rows, "polarity_affix_del", 5, seed=3)]
    assert "no data/default" in CliRunner().invoke(main, [str(tmp_path / "data")]).output

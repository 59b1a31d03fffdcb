"""Every way data arrives is checked against the benchmark's declared schema before a model loads, and a
folder's data is keyed by its files' content, so an edited folder never meets the records of the old data."""

from __future__ import annotations

import json
import shutil

import datasets
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner

from wordbench.benchmarks import hub
from wordbench.benchmarks.cli import cli
from wordbench.benchmarks.registry import REGISTRY
from wordbench.errors import DataFormatError


def copy_build(src, dst):
    shutil.copytree(src, dst)
    return dst


def rewrite_split(folder, mutate):
    """Apply ``mutate(pyarrow.Table) -> Table`` to every parquet file of the default config."""
    for file in sorted((folder / "data" / "default").glob("*.parquet")):
        pq.write_table(mutate(pq.read_table(file)), file)


def one_line(result, needle):
    assert result.exit_code == 1, result.output
    errors = [line for line in result.output.splitlines() if line.startswith("Error:")]
    assert len(errors) == 1 and needle in errors[0], result.output
    assert "Traceback" not in result.output


def test_every_benchmark_declares_a_default_schema():
    for name, bench in REGISTRY.items():
        schema = bench.builder_class.schema
        assert "default" in schema and "id" in schema["default"], name


def test_a_string_where_a_list_is_declared_stops_before_the_model(wnlampro_build, tiny_models, tmp_path):
    folder = copy_build(wnlampro_build[0], tmp_path / "edited")

    def stringify(table):
        i = table.schema.get_field_index("targets")
        flat = pa.array([" ".join(t) for t in table.column("targets").to_pylist()])
        return table.set_column(i, "targets", flat).replace_schema_metadata(None)

    rewrite_split(folder, stringify)
    with pytest.raises(DataFormatError, match="column 'targets' of default/.* is string, but wnlampro declares a list of string"):
        hub.load_data("wnlampro", str(folder))
    from wordbench.scorers.models import ModelPlan

    def no_weights(self):
        raise AssertionError("the weights were read before the data was checked")

    ModelPlan.load, original = no_weights, ModelPlan.load
    try:
        result = CliRunner().invoke(cli, ["score", "wnlampro", "--data", str(folder), "--model", str(tiny_models["bert"])])
    finally:
        ModelPlan.load = original
    one_line(result, "column 'targets'")  # the data is refused before any weights are read


def test_a_missing_column_and_no_rows(wnlampro_build, tmp_path):
    folder = copy_build(wnlampro_build[0], tmp_path / "no-relation")
    rewrite_split(folder, lambda t: t.drop(["relation"]).replace_schema_metadata(None))
    with pytest.raises(DataFormatError, match="lacks the column.* relation"):
        hub.load_data("wnlampro", str(folder))
    empty = copy_build(wnlampro_build[0], tmp_path / "empty")
    rewrite_split(empty, lambda t: t.slice(0, 0))
    with pytest.raises(DataFormatError, match="the default config of wnlampro data has no rows"):
        hub.load_data("wnlampro", str(empty))


def test_a_whitespace_only_file_is_empty(tmp_path):
    path = tmp_path / "WNLaMPro.txt"
    path.write_text("  \n\n \t\n")
    with pytest.raises(DataFormatError, match="is empty"):
        hub.load_data("wnlampro", str(path))


def test_numbers_of_another_width_are_cast(wnlampro_build, tmp_path):
    folder = copy_build(wnlampro_build[0], tmp_path / "int32")

    def narrow(table):
        i = table.schema.get_field_index("keyword_count")
        col = table.column("keyword_count").cast(pa.float32())
        return table.set_column(i, "keyword_count", col).replace_schema_metadata(None)

    rewrite_split(folder, narrow)
    _, data = hub.load_data("wnlampro", str(folder))
    assert data["default"]["test"].features["keyword_count"] == REGISTRY["wnlampro"].builder_class.schema["default"]["keyword_count"]


def test_an_edited_folder_gets_a_new_signature(wnlampro_build, tmp_path):
    folder = copy_build(wnlampro_build[0], tmp_path / "a")
    other = copy_build(wnlampro_build[0], tmp_path / "b")
    sig_a, _ = hub.load_data("wnlampro", str(folder))
    assert hub.load_data("wnlampro", str(other))[0] == sig_a  # the same data: the same signature, wherever it lies
    assert json.loads((other / "signature.json").read_text())["signature"] in sig_a
    rewrite_split(other, lambda t: t.slice(1))  # one entry fewer, signature.json untouched
    sig_b, _ = hub.load_data("wnlampro", str(other))
    assert sig_b != sig_a and "|data:sha256-" in sig_b


def test_an_edited_folder_is_scored_into_a_new_run_folder(wnlampro_build, tiny_models, tmp_path):
    from wordbench.benchmarks.runner import score
    from wordbench.scorers.models import load_model

    folder = copy_build(wnlampro_build[0], tmp_path / "data")
    model = load_model(str(tiny_models["bert"]))
    first = score("wnlampro", model, str(folder), "test", 12, tmp_path / "runs", progress=False)
    rewrite_split(folder, lambda t: t.slice(1))
    second = score("wnlampro", model, str(folder), "test", 12, tmp_path / "runs", progress=False)
    assert first.path != second.path
    assert json.loads((first.path / "summary.json").read_text())["signature"] != json.loads((second.path / "summary.json").read_text())["signature"]


def test_a_float_in_an_integer_column_and_missing_ids_are_one_line(wnlampro_build, tmp_path):
    folder = copy_build(wnlampro_build[0], tmp_path / "floats")

    def fractional(table):
        i = table.schema.get_field_index("keyword_count")
        return table.set_column(i, "keyword_count", pa.array([0.5] * table.num_rows)).replace_schema_metadata(None)

    rewrite_split(folder, fractional)  # keyword_count is float64 already: this one is fine ...
    hub.load_data("wnlampro", str(folder))
    ids = copy_build(wnlampro_build[0], tmp_path / "no-ids")

    def no_ids(table):
        i = table.schema.get_field_index("id")
        return table.set_column(i, "id", pa.array([None] * table.num_rows, pa.string())).replace_schema_metadata(None)

    rewrite_split(ids, no_ids)
    with pytest.raises(DataFormatError, match="rows without an id"):
        hub.load_data("wnlampro", str(ids))
    nulls = copy_build(wnlampro_build[0], tmp_path / "nulls")
    rewrite_split(nulls, lambda t: t.set_column(t.schema.get_field_index("targets"), "targets",
                                                pa.nulls(t.num_rows)).replace_schema_metadata(None))
    with pytest.raises(DataFormatError, match="column 'targets' .* holds no value at all"):
        hub.load_data("wnlampro", str(nulls))


def test_a_value_that_cannot_be_cast_is_one_line(tmp_path):
    from wordbench.benchmarks.schema import check_data

    schema = {"default": REGISTRY["wordpred"].builder_class.schema["types"]}
    row = {"id": "t", "word": "dog", "bin": "high", "rate": 1.0, "train_count": 1.5, "events": 1, "neighbours": ["cat"]}
    data = {"default": datasets.DatasetDict({"test": datasets.Dataset.from_list([row])})}
    with pytest.raises(DataFormatError, match="column 'train_count' .* cannot be read as int64"):
        check_data("wordpred", schema, data, "here")


def test_class_ids_are_read_through_the_declared_labels():
    """A parquet rewritten by a tool that drops the ClassLabel names keeps ids: they are read back through the
    builder's declared labels, and an id outside them is a one-line error."""
    import datasets

    from wordbench.benchmarks.schema import check_data
    from wordbench.errors import DataFormatError

    schema = {"default": datasets.Features({"id": datasets.Value("string"), "relation": datasets.Value("string")})}
    labels = {"relation": ("antonym", "hypernym")}
    data = {"default": datasets.DatasetDict({"test": datasets.Dataset.from_dict({"id": ["a", "b"], "relation": [1, 0]})})}
    out = check_data("x", schema, data, "here", labels)
    assert out["default"]["test"]["relation"] == ["hypernym", "antonym"]
    data = {"default": datasets.DatasetDict({"test": datasets.Dataset.from_dict({"id": ["a"], "relation": [7]})})}
    with pytest.raises(DataFormatError, match="class ids \\[7\\] outside its 2 declared values"):
        check_data("x", schema, data, "here", labels)
    with pytest.raises(DataFormatError, match="is int64, but x declares string"):  # no labels declared: as before
        check_data("x", schema, data, "here")


def test_a_column_a_later_version_added_reads_as_its_default():
    """paraphrase 2.5.0 added ``reviewed``: data published before it loads, each row unreviewed; any other missing
    column is still an error."""
    import datasets

    from wordbench.benchmarks.schema import check_data
    from wordbench.builders.paraphrase import ParaphraseBuilder as P
    from wordbench.errors import DataFormatError

    row = {"id": "rare-00001", "set": "rare", "word": "poodle", "hypernym": "dog", "sibling": "cat", "sentence": "A poodle barked .",
           "sentence_hypernym": "A dog barked .", "sentence_sibling": "A cat barked .", "carrier_source": "corpus", "word_rate": 1.0,
           "hypernym_rate": 2.0, "sibling_rate": 3.0, "synsets": ["poodle.n.01", "dog.n.01", "cat.n.01"]}
    data = {"default": datasets.DatasetDict({"test": datasets.Dataset.from_list([row])})}
    out = check_data("paraphrase", P.schema, data, "here", P.labels, P.column_defaults)
    assert out["default"]["test"]["reviewed"] == [False] and out["default"]["test"].features["reviewed"] == datasets.Value("bool")
    with pytest.raises(DataFormatError, match="lacks the column\\(s\\) reviewed"):
        check_data("paraphrase", P.schema, data, "here", P.labels)
    less = {"default": datasets.DatasetDict({"test": datasets.Dataset.from_list([{k: v for k, v in row.items() if k != "sibling"}])})}
    with pytest.raises(DataFormatError, match="lacks the column\\(s\\) sibling that paraphrase declares"):
        check_data("paraphrase", P.schema, less, "here", P.labels, P.column_defaults)


# --- characters a model cannot see: refused where a string is compared, counted where it is free text ----------


def test_invisible_characters_are_unicodes_default_ignorables_and_controls():
    """The set is Cc (tab and newline aside), Cf, Co and Unicode's Default_Ignorable_Code_Point: the combining
    grapheme joiner, the variation selectors and the Hangul fillers are letters of no category Cc/Cf/Co, yet unseen."""
    import unicodedata

    from wordbench.text import invisible_char, invisible_ranges

    unseen = {"\u034f": "Mn", "\ufe0f": "Mn", "\U000e0100": "Mn", "\u180b": "Mn", "\u3164": "Lo", "\u115f": "Lo",
              "\u200b": "Cf", "\u00ad": "Cf", "\u2060": "Cf", "\u0007": "Cc", "\ue000": "Co"}
    for char, category in unseen.items():
        assert unicodedata.category(char) == category
        name = unicodedata.name(char, {"Cc": "control character", "Co": "private-use character"}.get(category, ""))
        assert invisible_char(f"ab{char}c") == f"U+{ord(char):04X} {name}", char
    for seen in ("a", "ä", "e\u0301", "\u00a0", "tab\there", "\u05d0", "\U0001f600"):  # a combining acute is seen
        assert invisible_char(seen) is None, seen
    assert all(a <= b for a, b in invisible_ranges()) and sum(b - a + 1 for a, b in invisible_ranges()) > 4000


def test_free_text_columns_are_declared_with_the_fields():
    """The role of a string column is declared once, with its help (``free_text``); every other one is compared."""
    from wordbench.builders.base import free_text_columns

    declared = {name: free_text_columns(bench.builder_class.fields) for name, bench in REGISTRY.items()}
    assert declared["minpairs"] == {"source", "correct", "incorrect", "reference"}
    assert declared["wnlampro"] == set() and declared["vast"] == {"context"} and declared["tendencies"] == {"text"}
    for name, columns in declared.items():
        strings = {c for f in REGISTRY[name].builder_class.schema.values() for c, v in f.items() if getattr(v, "dtype", None) == "string"}
        assert columns <= strings, name  # only a declared string column can be free text


@pytest.mark.parametrize("char", ["\u200b", "\u00ad", "\u034f", "\ufe0e"], ids=["zero-width", "soft-hyphen", "cgj", "vs15"])
def test_free_text_keeps_them_and_counts_them_where_a_compared_word_is_refused(tmp_path, char):
    """VAST: the context is free text (kept, counted per column), the word is compared (one line naming the row)."""
    from wordbench.builders.vast import FEATURES

    rows = [{"id": f"r{i}", "word": "good", "group": "lexicon", "setting": "bleached", "valence": 1.0, "valence9": 7.0,
             "context": ctx, "start": 5, "end": 9, "lexicon": "vader", "language": "en"}
            for i, ctx in enumerate(["This good is it.", f"This good{char} is it.", f"Th{char}is good is{char} it."])]
    data = {"default": datasets.DatasetDict({"test": datasets.Dataset.from_list(rows, features=FEATURES)})}
    vast = REGISTRY["vast"].builder_class
    from wordbench.benchmarks.schema import check_data, invisible_text_line
    from wordbench.builders.base import free_text_columns

    checked = check_data("vast", vast.schema, data, "here", free_text=free_text_columns(vast.fields))
    assert checked["default"]["test"]["context"] == [r["context"] for r in rows]  # kept as published
    assert checked.invisible_text == {"default": {"context": 2}}
    assert "default/context: 2" in invisible_text_line(checked.invisible_text)
    rows[1]["word"] = f"go{char}od"
    data = {"default": datasets.DatasetDict({"test": datasets.Dataset.from_list(rows, features=FEATURES)})}
    with pytest.raises(DataFormatError, match=rf"here: default/test row 2 \(id r1\), column 'word': U\+{ord(char):04X}"):
        check_data("vast", vast.schema, data, "here", free_text=free_text_columns(vast.fields))

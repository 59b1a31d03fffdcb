"""What only the model's config knows (its layers, its positions) and published layouts read field by field: each
a one-line error before the work, or an explicit cap the signature names; never a traceback mid-run."""

import dataclasses
import json

import pytest
from click.testing import CliRunner

from wordbench.benchmarks.cli import cli
from wordbench.benchmarks.registry import get
from wordbench.errors import DataFormatError, SourceError
from wordbench.scorers.models import ModelError, load_model, plan_model


def _one_line_error(result, *needles):
    assert result.exit_code == 1 and "Traceback" not in result.output, result.output
    errors = [line for line in result.output.splitlines() if line.startswith("Error:")]
    assert len(errors) == 1 and all(n in errors[0] for n in needles), result.output


# --- options bounded by the model: declared once, checked in one place when the config is read ----------------------
def _bounded():
    """(benchmark, option, bound) of every declared option that only a model can bound."""
    from wordbench.benchmarks.registry import REGISTRY

    return [(name, f.name, f.metadata["model_max"]) for name in sorted(REGISTRY) for f in dataclasses.fields(get(name).scorer().Options)
            if f.metadata.get("model_max")]


def test_the_model_bounded_options_are_declared():
    found = {(name, key) for name, key, _ in _bounded()}
    assert {("paraphrase", "layer"), ("vast", "layer"), ("vast", "best_layer"), ("tendencies", "max_new_tokens"),
            ("minpairs", "max_new_tokens")} <= found


@pytest.mark.parametrize("name,key,bound", _bounded())
def test_every_model_bounded_option_is_refused_before_the_data_and_the_weights(tiny_models, tmp_path, name, key, bound):
    """Over its bound on a tiny model (2 layers, 64 positions): one line naming the option, its value and the model's
    range, before the data is read (--data does not exist) and before the weights load."""
    scorer = get(name).scorer()
    model = "gpt2" if "causal" in scorer.families else "bert"
    value = {"layers": 3, "new_tokens": 64}[bound]
    result = CliRunner().invoke(cli, ["score", name, "--model", str(tiny_models[model]), "--option", f"{key}={value}",
                                      "--data", str(tmp_path / "never-read"), "--out", str(tmp_path / "runs")])
    allowed = {"layers": "layers 0..2", "new_tokens": "it takes 64 positions"}[bound]
    _one_line_error(result, f"--option {key}={value}", allowed, f"give {key} <= {value - 1}")
    assert "does not exist" not in result.output and "not found" not in result.output


def test_within_the_bound_passes_and_a_plan_and_a_loaded_model_agree(tiny_models):
    for name in ("gpt2", "bert", "marian"):
        plan = plan_model(str(tiny_models[name]), device="cpu")
        model = plan.load()
        assert (plan.num_layers, plan.max_length) == (model.num_layers, model.max_length) == (2, 64)
    scorer = get("paraphrase").scorer(layer=2)
    scorer.check_model(plan_model(str(tiny_models["bert"]), device="cpu"))  # the top layer is allowed


def test_the_bound_applies_only_where_the_option_is_used(tiny_models):
    """minpairs' translation length is used by the discrepancy only: without it, no translation, no check."""
    plan = plan_model(str(tiny_models["gpt2"]), device="cpu")
    get("minpairs").scorer(discrepancy=False, max_new_tokens=500).check_model(plan)
    with pytest.raises(ModelError, match="max_new_tokens=500"):
        get("minpairs").scorer(max_new_tokens=500).check_model(plan)


def test_paraphrase_layer_from_python_is_refused_before_scoring(tiny_models, tmp_path):
    from wordbench.benchmarks.runner import score

    model = load_model(str(tiny_models["bert-encoder"]), device="cpu")
    with pytest.raises(ModelError, match=r"layer=5 .* layers 0\.\.2"):
        score("paraphrase", model, None, out=tmp_path, progress=False, layer=5)


def test_options_help_names_the_model_bound():
    from wordbench import spec

    rows = {d.name: d.type for d in spec.describe(get("vast").scorer().Options)}
    assert "<= the model's top layer" in rows["layer"]
    with pytest.raises(ValueError):
        spec.opt(1, "x", model_max="heads")


# --- positions: generation and whole-word search refused before they run past them ---------------------------------
@pytest.mark.parametrize("name", ["gpt2", "llama", "marian"])
def test_generation_past_the_positions_is_refused_before_it_starts(tiny_models, name, monkeypatch):
    model = load_model(str(tiny_models[name]), device="cpu")
    from wordbench.scorers.models.decode import Decoder

    monkeypatch.setattr(model.model, "generate", lambda *a, **k: pytest.fail("generated"))
    monkeypatch.setattr(Decoder, "run", lambda *a, **k: pytest.fail("decoded"))
    with pytest.raises(ModelError, match=r"needs \d+ positions, but .* takes 64"):
        model.generate(["a dog"], "greedy", max_new_tokens=70)
    if name == "marian":  # a translation ends at EOS: its bound is capped at the decoder's positions, not refused
        monkeypatch.undo()
        assert len(model.translate(["a dog"], beam=1, max_new_tokens=1000)) == 1


@pytest.mark.parametrize("name", ["gpt2", "llama", "bert"])
def test_whole_word_search_past_the_positions_is_refused_not_extrapolated(tiny_models, name):
    """A line that fits but whose last word's search paths would not: a learned position table would fail on it,
    rotary positions (llama) would extrapolate silently. Refused in one line before any step."""
    model = load_model(str(tiny_models[name]), device="cpu")
    words = ("the dog saw a cat " * 20).split()
    while len(model.tokenizer(" ".join(words))["input_ids"]) > 62:
        words = words[:-1]
    with pytest.raises(ModelError, match="whole-word search: word .* positions .* takes 64"):
        model.predict_words([words], [(0, len(words) - 1)])
    assert model.predict_words([words[:10]], [(0, 9)])  # a short line still scores


def test_tendencies_with_few_positions_is_refused_or_capped_before_generating(tiny_models, tmp_path, monkeypatch):
    """An explicit max_new_tokens that a prompt pushes past the positions is refused; the derived length (the longest
    reference line) is capped at the positions, with a warning and the cap in the signature; Table 1 leaves a
    reference line longer than the positions out and counts it."""
    from wordbench.benchmarks.scoring import score_dataset
    from wordbench.scorers.tendencies import TendenciesScorer

    long_line = " ".join(["the dog saw a cat ."] * 20)
    data = {"default": {"test": [{"id": f"r{n}", "text": t} for n, t in enumerate([long_line, "a dog .", "the cat ."])]}}
    prompts = tmp_path / "prompts.txt"
    prompts.write_text(" ".join(["the dog"] * 15) + "\n")
    plan = plan_model(str(tiny_models["gpt2"]), device="cpu")
    monkeypatch.setattr(plan, "load", lambda: pytest.fail("weights loaded"))
    scorer = TendenciesScorer(n=2, max_new_tokens=40, prompts=str(prompts), perplexity=False, strategies=("greedy",))
    with pytest.raises(ModelError, match=r"prompt of \d+ tokens plus max_new_tokens=40 needs \d+ positions, but gpt2 takes 64"):
        score_dataset(scorer, plan, "data", data, "data", out=tmp_path / "runs", progress=False)

    scorer = TendenciesScorer(n=4, strategies=("ancestral",), n_resamples=9, baseline_draws=1)
    run = score_dataset(scorer, plan_model(str(tiny_models["gpt2"]), device="cpu"), "data", data, "data", out=tmp_path / "runs", progress=False)
    summary = json.loads((run.path / "summary.json").read_text())
    assert "reference<=63" in summary["signature"]
    assert all(r["model_tokens"] <= 63 for r in run.records() if r.get("model_tokens") is not None)
    # Table 1 leaves the line longer than the positions out, and counts it
    assert summary["metrics"]["perplexity"]["lines"] == 2 and summary["metrics"]["perplexity"]["lines_too_long"] == 1
    assert "1 reference line(s) longer than the model's positions are left out" in (run.path / "report.md").read_text()


# --- published layouts: every line's field count is checked, naming the file and the line --------------------------
@pytest.mark.parametrize("text, needle", [
    ("1\ttest\tgood (a,5.5,300)\tantonym\n", ":1: expected ID, dev|test, KEY, RELATION, TARGET ... (at least 5 tab-separated fields), got 4"),
    ("1\ttest\tgood (a,5.5,300)\tantonym\tbad (a,5.3,2)\n2\ttest\tdog (n,5.1,9)\n", ":2: expected ID"),
])
def test_wnlampro_lines_with_too_few_fields(tmp_path, text, needle):
    from wordbench.builders.wnlampro import read_wnlampro_txt

    path = tmp_path / "WNLaMPro.txt"
    path.write_text(text)
    with pytest.raises(DataFormatError) as exc:
        read_wnlampro_txt(path)
    assert str(path) + needle in str(exc.value)


def test_similarity_files_check_their_fields(tmp_path):
    from wordbench.builders.sources.similarity import load_similarity

    men = tmp_path / "MEN.txt"
    men.write_text("sun-n sunlight-n 50.0\ncar-n automobile-n 50.0 extra\n")
    with pytest.raises(DataFormatError, match=r"MEN.txt:2: expected word, word, score \(3 whitespace-separated fields\), got 4"):
        load_similarity(f"men:{men}")
    rw = tmp_path / "rw.txt"
    rw.write_text("squishing\tsquirt\t5.88\t7\t7\n")  # Rare Words: each rater's score follows
    assert load_similarity(f"rw:{rw}").pairs == [("squishing", "squirt", 5.88)]


def test_split_fields_and_hf_specs():
    from wordbench.builders.sources.readers import load_hf_dataset, split_fields

    assert split_fields("f", 3, "a\tb\r\n", ("x", "y")) == ["a", "b"]
    assert split_fields("f", 3, "a\tb\tc", ("x", "y"), more=True) == ["a", "b", "c"]
    for line in ("a", "a\tb\tc"):
        with pytest.raises(DataFormatError, match=r"^f:3: expected x, y \(2 tab-separated fields\), got [13]$"):
            split_fields("f", 3, line, ("x", "y"))
    with pytest.raises(SourceError, match="at most two colons"):
        load_hf_dataset("org/data:cfg:test:extra")


def test_vader_lines_are_read_by_the_rule(tmp_path, monkeypatch):
    import vaderSentiment

    from wordbench.builders.sources import lexica

    folder = tmp_path / "vaderSentiment"
    folder.mkdir()
    (folder / "__init__.py").write_text("")
    (folder / "vader_lexicon.txt").write_text("good\t1.9\t0.9\t[2, 2]\nbad\t-2.5\n")
    monkeypatch.setattr(vaderSentiment, "__file__", str(folder / "__init__.py"))
    with pytest.raises(DataFormatError, match=r"vader_lexicon.txt:2: expected token, mean rating, standard deviation, ratings"):
        lexica._vader()
    (folder / "vader_lexicon.txt").write_text("good\tvery\t0.9\t[2, 2]\n")
    with pytest.raises(DataFormatError, match=r"vader_lexicon.txt:1: the mean rating 'very' is not a number"):
        lexica._vader()


@pytest.mark.parametrize("model_name", ["gpt2", "marian"])
def test_a_row_longer_than_the_positions_is_refused_before_the_weights_load(tiny_models, tmp_path, monkeypatch, model_name):
    """Sequence scoring (minpairs, as every scorer that declares its model_texts): the first row too long for the model
    is named in one line before the weights load, not a ModelError after part of the run was scored."""
    from wordbench.benchmarks.scoring import score_dataset

    row = {"phenomenon": "clause_omission", "reference_type": "human", "source": "The dog sleeps .",
           "correct": "Der Hund schläft .", "incorrect": "Der Hund ."}
    long = dict(row, source=" ".join(["The dog sleeps and the cat runs ."] * 12))
    data = {"default": {"test": [dict(row, id="short"), dict(long, id="long-one")]}}
    plan = plan_model(str(tiny_models[model_name]), device="cpu")
    monkeypatch.setattr(plan, "load", lambda: pytest.fail("weights loaded"))
    with pytest.raises(ModelError, match=r"minpairs: row long-one needs \d+ positions, but .* takes 64"):
        score_dataset(get("minpairs").scorer(discrepancy=False, prompt="E: {source}\\nG:"), plan, "data", data, "data",
                      out=tmp_path / "runs", progress=False)
    assert not list((tmp_path / "runs").rglob("records.jsonl"))


def test_a_distillingeval_line_keeps_a_tab_as_part_of_its_sentence(tmp_path):
    """A column file holds one sentence per line as published: a tab inside (WMT text holds some) stays in the sentence
    and the folder round-trips, and CRLF endings are no part of it."""
    from wordbench.builders.minpairs.formats import read_distillingeval, write_distillingeval

    folder = tmp_path / "clause_omission.human"
    folder.mkdir()
    (folder / "src.en").write_text("The dog sleeps .\nThe cat\truns .\n")
    (folder / "tgt.correct.de").write_text("Der Hund schläft .\nDie Katze rennt .\n")
    (folder / "tgt.incorrect.de").write_text("Der Hund .\nDie Katze .\n")
    rows = read_distillingeval(folder)
    assert [r["source"] for r in rows] == ["The dog sleeps .", "The cat\truns ."]
    write_distillingeval(rows, tmp_path / "out")
    assert (tmp_path / "out" / "clause_omission.human" / "src.en").read_bytes() == (folder / "src.en").read_bytes()
    (folder / "src.en").write_text("The dog sleeps .\r\nThe cat runs .\r\n")  # CRLF endings are no field
    assert [r["source"] for r in read_distillingeval(folder)] == ["The dog sleeps .", "The cat runs ."]


@pytest.mark.parametrize("line, needle", [
    ("Der Hund schläft. :: The dog sleeps. :: Le chien dort.\n", ":1: expected German, English (2 ' :: '-separated fields), got 3"),
    ("Hund {m} | Der Hund schläft. :: dog\n", ":1: 2 German and 1 English sub-entries"),
])
def test_ding_lines_pair_their_fields(tmp_path, line, needle):
    from wordbench.builders.sources.parallel import ding_pairs

    path = tmp_path / "de-en.txt"
    path.write_text("# comment\n" + line)
    with pytest.raises(DataFormatError) as exc:
        ding_pairs(path)
    assert str(path) + needle.replace(":1:", ":2:") in str(exc.value)
    path.write_text("Hund {m} | Der Hund schläft hier. :: dog | The dog sleeps here.\n")
    assert [(p.source, p.reference) for p in ding_pairs(path)] == [("The dog sleeps here.", "Der Hund schläft hier.")]


def test_fine_tuning_cuts_lines_at_the_model_positions_and_says_so(tiny_models, capsys):
    from wordbench.scorers.finetune import finetune_causal

    model = load_model(str(tiny_models["gpt2"]), device="cpu")
    lines = [" ".join(["the dog saw a cat ."] * 20), "a dog ."]
    finetune_causal(model, lines, epochs=1, batch_size=2)  # 128 tokens would run past the 64 positions
    assert "1 of 2 corpus lines are longer than 64 tokens and were cut there" in capsys.readouterr().err

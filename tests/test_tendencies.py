"""tendencies (Meister & Cotterell 2021): reference builder, sample statistics, generation, scorer, --samples."""

import json
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

from wordbench.benchmarks.cli import cli
from wordbench.benchmarks.hub import build
from wordbench.benchmarks.runner import score
from wordbench.errors import ConfigError, DataFormatError
from wordbench.builders.tendencies import Normalizer
from wordbench.scorers import stats
from wordbench.scorers.models import load_model
from wordbench.scorers.tendencies import TendenciesScorer, read_samples
from wordbench.scorers.tendencies_report import stars


@pytest.fixture(scope="module")
def corpus(tmp_path_factory) -> Path:
    """40 small documents separated by blank lines."""
    path = tmp_path_factory.mktemp("tendencies") / "corpus.txt"
    rng = np.random.default_rng(0)
    words = "the dog is a kind of animal and cat tree flower grows in garden , . 1990 big small".split()
    docs = []
    for d in range(40):
        lines = [" ".join(rng.choice(words, size=rng.integers(4, 12))).capitalize() for _ in range(rng.integers(1, 4))]
        docs.append("\n".join(lines))
    path.write_text("\n\n".join(docs) + "\n")
    return path


@pytest.fixture(scope="module")
def reference(corpus, tmp_path_factory):
    out = tmp_path_factory.mktemp("ref")
    return build("tendencies", [f"corpus={corpus}", "test_fraction=0.5"], out=out / "a", progress=False)[0]


def test_builder_splits_documents_and_preprocesses_as_the_paper(reference, corpus, tmp_path):
    again = build("tendencies", [f"corpus={corpus}", "test_fraction=0.5"], out=tmp_path / "b", progress=False)[0]
    for split in ("test", "train"):
        assert (reference / "data" / "default" / f"{split}-00000-of-00001.parquet").read_bytes() == \
               (again / "data" / "default" / f"{split}-00000-of-00001.parquet").read_bytes()
    import datasets

    data = datasets.load_dataset(str(reference))
    lines = [line for line in corpus.read_text().splitlines() if line.strip()]
    # the paper's unit: one line per sample, split by line
    assert len(data["test"]) + len(data["train"]) == len(lines) and len(data["test"]) == round(len(lines) / 2)
    assert set(data["test"]["text"]) | set(data["train"]["text"]) == {" ".join(Normalizer()(line)) for line in lines}
    for row in data["test"]:
        assert row["text"] == row["text"].lower() and row["length"] == len(row["text"].split())
    assert Normalizer()("Don't stop, Mr. Smith!") == ["don", "'t", "stop", ",", "mr.", "smith", "!"]
    docs = datasets.load_dataset(str(build("tendencies", [f"corpus={corpus}", "test_fraction=0.5", "unit=document",
                                                          "max_documents=5"], out=tmp_path / "c", progress=False)[0]))
    assert len(docs["test"]) == 5 and len(docs["train"]) == 20


def test_xlm_preprocessing_of_accented_text():
    # XLM (Conneau & Lample 2019): Moses punctuation normalization and tokens, lower-case, NFD with combining marks removed
    text = "Café «Naïve» Ångström—Œuvre, São Paulo’s 1,000 señores…"
    assert Normalizer()(text) == ["cafe", '"', "naive", '"', "angstrom", "-", "œuvre", ",", "sao", "paulo", "'s", "1,000", "senores", "..."]
    assert Normalizer(accents=False)("Café Ångström") == ["café", "ångström"]
    assert Normalizer(lowercase=False)("Éclair") == ["Eclair"]
    from wordbench.builders.tendencies import strip_accents

    assert strip_accents("e\u0301") == strip_accents("\u00e9") == "e"  # decomposed and precomposed alike


def test_builder_errors(corpus, tmp_path):
    with pytest.raises(ConfigError, match="'unit' must be one of"):
        build("tendencies", [f"corpus={corpus}", "unit=page"], out=tmp_path / "x", progress=False)
    one = tmp_path / "one.txt"
    one.write_text("just one document here\n")
    with pytest.raises(Exception, match="at least 2"):
        build("tendencies", [f"corpus={one}"], out=tmp_path / "y", progress=False)


def test_sample_quantities_by_hand():
    assert len(stats.STOPWORDS) == 179 and "the" in stats.STOPWORDS and "dog" not in stats.STOPWORDS
    assert stats.is_symbol("1,990") and stats.is_symbol("--") and not stats.is_symbol("mr.") and not stats.is_symbol("café")
    sample = stats.Sample([["the", "dog", "the", "cat", ","], ["a", "a", "b"], []])
    assert sample.lengths.tolist() == [5, 3, 0]
    assert sample.stopword_share[:2].tolist() == pytest.approx([2 / 5, 2 / 3]) and np.isnan(sample.stopword_share[2])
    assert sample.symbol_share[:2].tolist() == pytest.approx([1 / 5, 0.0])
    assert sample.types().tolist() == [4, 2, 0]
    # distinct words in the first n tokens of each document at least n long
    assert [p.tolist() for p in sample.prefix_types([1, 2, 3, 4, 5])] == [[1, 1], [2, 1], [2, 2], [3], [4]]
    assert [p.tolist() for p in sample.prefix_types([2, 3, 5], order=2)] == [[1, 1], [2, 2], [4]]  # doc 2: ("a","a"), ("a","b")


def test_heaps_ks_is_zero_for_identical_samples_and_positive_otherwise():
    rng = np.random.default_rng(0)
    docs = [list(rng.choice(list("abcdefghij"), size=30)) for _ in range(20)]
    assert stats.heaps_ks(stats.Sample(docs), stats.Sample(docs)) == (0.0, len(stats.length_grid(30)))
    repetitive = [["a", "b"] * 15 for _ in range(20)]
    distance, lengths = stats.heaps_ks(stats.Sample(repetitive), stats.Sample(docs))
    assert distance > 0.5 and lengths > 5


def test_compare_detects_a_real_difference_and_describes_the_reference():
    rng = np.random.default_rng(1)
    vocab = [f"w{i}" for i in range(300)]
    zipf = stats._zipf_pmf(1.1, 300)
    human = [list(rng.choice(vocab, size=rng.integers(20, 60), p=zipf)) for _ in range(60)]
    short = [list(rng.choice(vocab, size=rng.integers(5, 15), p=zipf)) for _ in range(60)]
    result = stats.compare(stats.Sample(short), stats.Sample(human), n_resamples=199)
    assert result["length_ks_p"] < 0.001 and result["length_diff_p"] <= 0.01 and result["length_diff"] < 0
    assert result["zipf_alpha"] == pytest.approx(stats.zipf_mle(stats.Sample(short).counts))
    same = stats.compare(stats.Sample(human[:30]), stats.Sample(human[30:]), n_resamples=199)
    assert same["length_diff_p"] > 0.01 and same["tvd_p"] > 0.01
    assert stars(0.0005) == "***" and stars(0.004) == "**" and stars(0.03) == "*" and stars(0.2) == ""


def test_two_human_samples_are_rejected_at_about_the_nominal_rate():
    from wordbench.builders.sources.corpora import gensim_wiki_documents

    normalize = Normalizer()
    sentences = [normalize(s) for doc in gensim_wiki_documents()[:40] for s in doc[:60]]
    rates = stats.null_rejection_rates(sentences, size=100, repeats=60, n_resamples=199, seed=0)
    assert set(rates) >= {"tvd_p", "rank_ks_p", "length_diff_p", "stopwords_diff_p", "symbols_ks_p"}
    for test, rate in rates.items():
        assert rate <= 0.15, (test, rate)  # nominal 0.05; 60 repeats
    assert 0.01 <= np.mean(list(rates.values())) <= 0.09, rates


def test_unigram_test_loop_free_statistics_by_hand():
    a, b = [["x", "y"], ["x"]], [["y", "y"], ["z"]]
    res = stats.unigram_test(a, b, "rank_ks", n_resamples=999)
    # ranks: a = (2/3, 1/3), b = (2/3, 1/3) -> 0
    assert res.statistic == pytest.approx(0.0) and res.method == "exact"
    assert stats.tvd_test(a, b).statistic == pytest.approx(stats.tvd({"x": 2, "y": 1}, {"y": 2, "z": 1}))


@pytest.fixture(scope="module")
def causal(tiny_models):
    return {bs: load_model(str(tiny_models["gpt2"]), device="cpu", batch_size=bs) for bs in (1, 4)}


def test_generation_is_seeded_and_batch_invariant_under_greedy(causal):
    prompts = ["the dog", "", "a poodle is a dog and", "cat"]
    greedy = [causal[bs].generate(prompts, "greedy", max_new_tokens=10) for bs in (1, 4)]
    assert greedy[0] == greedy[1]  # left padding does not change what follows a prompt
    for strategy in ("ancestral", "nucleus", "beam"):
        first = causal[4].generate(prompts, strategy, max_new_tokens=10, seed=3)
        assert first == causal[4].generate(prompts, strategy, max_new_tokens=10, seed=3)
        assert all(g.tokens <= 10 and (g.finished or g.tokens == 10) for g in first)
    assert causal[4].generate(prompts, "ancestral", max_new_tokens=10, seed=3) != causal[4].generate(prompts, "ancestral", max_new_tokens=10, seed=4)
    with pytest.raises(ValueError, match="strategy must be one of"):
        causal[4].generate(prompts, "topk")


def test_model_without_eos_or_bos(tiny_models):
    model = load_model(str(tiny_models["gpt2"]), device="cpu", batch_size=4)
    model.tokenizer.eos_token = None  # no EOS: every sample runs to max_new_tokens and is unfinished
    out = model.generate(["", "the dog"], "ancestral", max_new_tokens=6, seed=0)
    assert [(g.tokens, g.finished) for g in out] == [(6, False), (6, False)]
    model.tokenizer.bos_token = None  # nothing to start an unconditional sample from
    with pytest.raises(ValueError, match="give prompts"):
        model.generate([""], "greedy")
    assert model.generate(["the dog"], "greedy", max_new_tokens=3)[0].tokens == 3


def test_score_generates_compares_and_resumes(causal, reference, tmp_path):
    import datasets

    model = causal[4]
    opts = {"n": 6, "n_resamples": 99, "baseline_draws": 3, "bigrams": True, "strategies": "ancestral,nucleus,beam,greedy"}
    run = score("tendencies", model, str(reference), out=tmp_path, progress=False, **opts)
    records = run.records()
    ref_rows = datasets.load_dataset(str(reference))["test"]
    generated = [r for r in records if r["strategy"] != "__perplexity__"]
    assert len(generated) == 24 and {r["strategy"] for r in generated} == {"ancestral", "nucleus", "beam", "greedy"}
    assert len({r["text"] for r in generated if r["strategy"] == "greedy"}) == 1  # unconditional greedy is one text
    # generation length: the longest reference line in model tokens, + 1 for EOS; a sample is one line
    longest = max(len(model.tokenizer(t, add_special_tokens=False)["input_ids"]) for t in ref_rows["text"])
    assert max(r["model_tokens"] for r in generated) <= longest + 1 and all("\n" not in r["text"] for r in generated)
    summary = json.loads((run.path / "summary.json").read_text())
    metrics = summary["metrics"]
    # Table 1: the perplexity of the model on the reference lines, from the same token scores
    ppl = metrics["perplexity"]
    scores = model.sequence_logprobs(list(ref_rows["text"]))
    total = sum(sum(s.logprobs) for s in scores)
    assert ppl["lines"] == len(ref_rows) and ppl["words"] == sum(ref_rows["length"])
    assert ppl["ppl_token"] == pytest.approx(np.exp(-total / sum(len(s.logprobs) for s in scores)), rel=1e-5)
    assert ppl["ppl_word"] == pytest.approx(np.exp(-total / ppl["words"]), rel=1e-5)
    # a random tiny model's greedy text may hold no word at all: such a strategy is listed, not compared
    assert set(metrics["samples"]) | set(metrics["skipped"]) == {"ancestral", "nucleus", "beam", "greedy"}
    assert {"ancestral", "nucleus", "beam"} <= set(metrics["samples"])
    ancestral = metrics["samples"]["ancestral"]
    for key in ("zipf_alpha", "zipf_ks", "zipf_ks_ref_alpha", "rank_ks", "rank_ks_p", "heaps_beta", "tvd", "tvd_p",
                "length_ks_p", "stopwords_diff_p", "symbols_ks", "heaps_ks_bigrams", "heaps_ks_nhpp_model",
                "heaps_ks_nhpp_ref", "heaps_ks_empirical", "types_in_reference"):
        assert key in ancestral, key
    assert metrics["human"]["6"]["draws"] == 3
    report = (run.path / "report.md").read_text()
    assert "Table 1" in report and "Table 2" in report and "Figure 4" in report and "| reference (human test) |" in report
    assert "| beam |" in report
    assert {"distributions.png", "rank_frequency.png", "type_token.png", "vocabulary.png"} <= {p.name for p in run.plots_dir.iterdir()}
    again = score("tendencies", model, str(reference), out=tmp_path, progress=False, **opts)
    assert again.path == run.path and json.loads((run.path / "summary.json").read_text())["items_scored_now"] == 0
    assert again.records() == records


def test_default_strategies_and_limit_caps_generation(causal, reference, tmp_path):
    run = score("tendencies", causal[4], str(reference), limit=3, out=tmp_path, progress=False,
                n=50, max_new_tokens=5, n_resamples=9, baseline_draws=1, perplexity=False)
    records = run.records()
    assert sorted({r["strategy"] for r in records}) == ["ancestral", "beam", "nucleus"]  # the paper's three; greedy is an option
    assert len(records) == 9  # --limit 3: three reference lines and three samples per strategy (not 50)


def test_trigram_baseline_end_to_end(reference, tmp_path):
    import datasets

    from wordbench.scorers.models.ngram import TrigramLM

    train = list(datasets.load_dataset(str(reference))["train"]["text"])
    lm = TrigramLM(train)
    words, probs = lm.distribution(("<s>", "<s>"))
    firsts = [line.split()[0] for line in train]
    assert probs.sum() == pytest.approx(1.0) and dict(zip(words, probs))[words[0]] == pytest.approx(firsts.count(words[0]) / len(firsts))
    seen = {tuple(line.split()[i:i + 3]) for line in train for i in range(len(line.split()) - 2)}
    for strategy in ("ancestral", "nucleus", "beam", "greedy"):
        out = lm.generate([""] * 5, strategy, max_new_tokens=30, seed=1)
        assert out == lm.generate([""] * 5, strategy, max_new_tokens=30, seed=1)
        for g in out:  # unsmoothed: every trigram of a sample was seen in training
            w = g.text.split()
            assert all(tuple(w[i:i + 3]) in seen for i in range(len(w) - 2)) and (g.finished or g.tokens == 30)
    runner = CliRunner()
    result = runner.invoke(cli, ["score", "tendencies", "--option", "baseline=trigram", "--data", str(reference),
                                 "--out", str(tmp_path / "runs"), "--option", "n=8", "--option", "n_resamples=19",
                                 "--option", "baseline_draws=2"])
    assert result.exit_code == 0, result.output
    assert "| trigram | – | – | – | – (unsmoothed: diverges, not reported (as the paper)) | – |" in result.output
    summary = json.loads((Path(result.output.strip().splitlines()[-1].split("run folder: ")[1]) / "summary.json").read_text())
    assert summary["model"]["family"] == "ngram" and "baseline:trigram" in summary["signature"]
    assert set(summary["metrics"]["samples"]) == {"ancestral", "nucleus", "beam"}
    assert all(r["kept"] == 8 for r in summary["metrics"]["samples"].values())


def test_scorer_options_are_checked():
    with pytest.raises(ConfigError, match="'strategies' must be one of"):
        TendenciesScorer(strategies="ancestral,topk")
    with pytest.raises(ConfigError, match="unknown scoring option 'temperature'"):
        TendenciesScorer(temperature=0.7)
    with pytest.raises(ConfigError, match="'unfinished' must be one of keep, drop"):
        TendenciesScorer(unfinished="trim")
    with pytest.raises(ConfigError, match="'baseline' must be one of trigram"):
        TendenciesScorer(baseline="unigram")


def test_unfinished_samples_can_be_dropped(causal, reference, tmp_path):
    # A random tiny model never emits EOS within 4 tokens: with unfinished=drop nothing is left to compare.
    with pytest.raises(DataFormatError, match="no strategy has enough samples"):
        score("tendencies", causal[4], str(reference), out=tmp_path, progress=False, n=4, max_new_tokens=4,
              strategies="ancestral", unfinished="drop", stop_at_newline=False)


def test_samples_file_cli(reference, tmp_path):
    runner = CliRunner()
    samples = tmp_path / "samples.jsonl"
    rows = [{"text": f"The dog is a kind of animal {i} .", "strategy": "mine"} for i in range(6)]
    rows += [{"text": "A cat , a tree and a flower grow in the garden .", "strategy": "theirs"} for _ in range(3)]
    samples.write_text("".join(json.dumps(r) + "\n" for r in rows))
    result = runner.invoke(cli, ["score", "tendencies", "--samples", str(samples), "--data", str(reference), "--out", str(tmp_path / "runs"),
                                 "--option", "n_resamples=99", "--option", "baseline_draws=2"])
    assert result.exit_code == 0, result.output
    assert "| mine |" in result.output and "| theirs |" in result.output
    summary = json.loads((Path(result.output.strip().splitlines()[-1].split("run folder: ")[1]) / "summary.json").read_text())
    assert summary["model"]["family"] == "samples" and "samples:samples.jsonl" in summary["signature"]

    bad = tmp_path / "bad.txt"
    bad.write_bytes(b"fine line\nbroken \xff line\n")
    result = runner.invoke(cli, ["score", "tendencies", "--samples", str(bad), "--data", str(reference), "--out", str(tmp_path / "runs")])
    assert result.exit_code != 0 and "bad.txt:2: not UTF-8" in result.output and "Traceback" not in result.output
    single = tmp_path / "single.txt"
    single.write_text("only one sample\n\n")
    with pytest.raises(DataFormatError, match="1 sample"):
        read_samples(single)
    result = runner.invoke(cli, ["score", "tendencies", "--data", str(reference)])
    assert result.exit_code != 0 and "--samples" in result.output


def test_each_sample_is_compared_with_a_reference_of_its_own_size():
    from wordbench.benchmarks.registry import get
    from wordbench.scorers import stats

    scorer = get("tendencies").scorer()
    scorer.reference = [f"line {i} of the reference ." for i in range(50)]
    full = stats.Sample.from_texts(scorer.reference)
    assert scorer._reference_of_size(full, 10).lengths.size == 10
    assert scorer._reference_of_size(full, 80) is full
    assert get("tendencies").scorer(reference_size="all")._reference_of_size(full, 10) is full
    assert "reference_size" in scorer.settings


def test_the_signature_names_the_samples_drawn_under_limit():
    from wordbench.scorers.base import RunContext

    scorer = TendenciesScorer(n=1000)
    assert scorer.settings["n"] == 1000
    scorer.prepare(RunContext(limit=30))
    assert scorer.settings["n"] == 30  # --limit 30 draws 30 samples per strategy: the signature says so


def test_a_strategy_whose_sample_has_one_word_type_is_skipped_with_its_reason(reference, tmp_path):
    """A degenerate sample (a model that repeats one word: no Zipf fit) is listed under skipped, the other strategies
    are compared; with no strategy left, one line, never a traceback."""
    runner = CliRunner()
    samples = tmp_path / "samples.jsonl"
    rows = [{"text": "the the the the", "strategy": "stuck"} for _ in range(4)]
    rows += [{"text": f"The dog is a kind of animal {i} .", "strategy": "fine"} for i in range(6)]
    samples.write_text("".join(json.dumps(r) + "\n" for r in rows))
    args = ["score", "tendencies", "--data", str(reference), "--out", str(tmp_path / "runs"), "--option", "n_resamples=9",
            "--option", "baseline_draws=2"]
    result = runner.invoke(cli, args + ["--samples", str(samples)])
    assert result.exit_code == 0, result.output
    summary = json.loads((Path(result.output.strip().splitlines()[-1].split("run folder: ")[1]) / "summary.json").read_text())
    assert set(summary["metrics"]["samples"]) == {"fine"} and "word type" in summary["metrics"]["skipped"]["stuck"]
    samples.write_text("".join(json.dumps(r) + "\n" for r in rows[:4]))
    result = runner.invoke(cli, args + ["--samples", str(samples)])
    assert result.exit_code != 0 and "no strategy has enough samples" in result.output and "Traceback" not in result.output


def test_invisible_characters_in_a_samples_file_are_counted_and_a_hidden_strategy_name_refused(reference, tmp_path):
    samples = tmp_path / "samples.jsonl"
    rows = [{"text": f"The dog is a kind of animal {i} .", "strategy": "mine"} for i in range(4)]
    rows += [{"text": "A cat\u200b sat on the mat .", "strategy": "mine"}, {"text": "A soft\u00adhyphen here .", "strategy": "mine"}]
    samples.write_text("".join(json.dumps(r) + "\n" for r in rows))  # JSON escapes them: the file's bytes show none
    result = CliRunner().invoke(cli, ["score", "tendencies", "--samples", str(samples), "--data", str(reference), "--out",
                                      str(tmp_path / "runs"), "--option", "n_resamples=9", "--option", "baseline_draws=1"])
    assert result.exit_code == 0, result.output
    assert "samples samples.jsonl/lines: 2" in result.output  # the warning, on stderr
    (summary,) = (tmp_path / "runs").rglob("summary.json")
    assert json.loads(summary.read_text())["invisible_text"]["samples samples.jsonl"] == {"lines": 2}
    plain = tmp_path / "plain.txt"
    plain.write_text("one line\nanother\u2060 line\n")
    counts: dict = {}
    assert len(read_samples(plain, counts)) == 2 and counts == {"samples plain.txt": {"lines": 1}}
    hidden = tmp_path / "hidden.jsonl"
    hidden.write_text("".join(json.dumps({"text": f"t {i}", "strategy": "greedy\u200b"}) + "\n" for i in range(3)))
    with pytest.raises(DataFormatError, match=r"hidden.jsonl:1: the strategy .* holds U\+200B ZERO WIDTH SPACE"):
        read_samples(hidden)

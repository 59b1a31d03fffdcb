import json
import math

import numpy as np
import pytest
import torch

from wordbench.benchmarks.hub import build
from wordbench.builders.base import parse_overrides
from wordbench.errors import SourceError
from wordbench.builders.wordpred import Config, WordPredBuilder, bin_edges
from wordbench.scorers.models import ModelError, load_model
from reference import predict_words_naive
from wordbench.scorers.wordpred import WordPredScorer

TRAIN = ["the dog is a kind of animal .", "the cat is an animal too .", "a dog and a cat are pets .", "the tree and the flower grow ."] * 30
TEST = ["the dog is a pet .", "an oak is a tree and a rose is a flower .", "too short", "", "good is the opposite of bad ."]


@pytest.fixture()
def corpora(tmp_path):
    (tmp_path / "train.txt").write_text("\n".join(TRAIN) + "\n")
    (tmp_path / "test.txt").write_text("\n".join(TEST) + "\n")
    # 120 lines x ~7 words: "the" (150x) is high, "dog" (60x) mid, "tree" (30x) low when 1000/100/10 scale to 1000 tokens.
    return {"train": str(tmp_path / "train.txt"), "test": str(tmp_path / "test.txt"), "frequencies": "train",
            "reference_tokens": "1000", "high": "100", "mid": "40", "low": "20", "w2v_min_count": "1"}


def _build(corpora, **extra):
    config = parse_overrides(Config, {**corpora, **extra})
    return WordPredBuilder().build(config)


def test_bins_are_scaled_rates_of_train_counts(corpora):
    data = _build(corpora)
    rows = list(data["default"]["test"])
    assert [r["text"] for r in rows] == [TEST[0], TEST[1], TEST[4]]  # short and empty lines skipped
    total = sum(len(line.split()) for line in TRAIN)
    first = dict(zip(rows[0]["words"], rows[0]["bins"]))
    counts = {w: sum(line.split().count(w) for line in TRAIN) for w in ("the", "dog", "pet", "a")}
    rate = lambda w: counts[w] * 1e9 / total  # noqa: E731
    low, mid, high = bin_edges(parse_overrides(Config, corpora))
    assert (low, mid, high) == pytest.approx((20e6, 40e6, 100e6))
    for w in ("the", "dog", "a"):
        want = "high" if rate(w) >= high else "mid" if rate(w) >= mid else "low" if rate(w) >= low else ""
        assert first[w] == want
    assert first["pet"] == ""  # unseen in train: an event in no bin
    assert rows[0]["rates"][0] == pytest.approx(rate("the"))
    types = {t["word"]: t for t in data["types"]["test"]}
    assert types["dog"]["train_count"] == counts["dog"] and types["dog"]["events"] == 1
    assert types["is"]["events"] == 4  # events are positions >= 1 only
    assert len(types["dog"]["neighbours"]) > 0 and "dog" not in types["dog"]["neighbours"]


def test_punctuation_takes_train_rates_and_signature_names_both_corpora(corpora):
    data = _build(corpora, frequencies="wordfreq")
    row = list(data["default"]["test"])[0]
    total = sum(len(line.split()) for line in TRAIN)
    dots = sum(line.split().count(".") for line in TRAIN)
    assert row["words"][-1] == "." and row["rates"][-1] == pytest.approx(dots * 1e9 / total)  # wordfreq has no "."
    tags = [s.tag for s in WordPredBuilder().sources(parse_overrides(Config, corpora))]
    from wordbench.builders.sources.corpora import corpus_info

    # Local corpora are keyed by their bytes (an edit in place is a new version).
    assert tags[:2] == [f"train-corpus:{corpus_info(corpora['train']).version}", f"test-corpus:{corpus_info(corpora['test']).version}"]
    assert tags[0].startswith("train-corpus:train.txt-sha256-") and tags[1].startswith("test-corpus:test.txt-sha256-")


def test_build_is_deterministic(corpora, tmp_path):
    a = build("wordpred", corpora, out=tmp_path / "a", progress=False)[0]
    b = build("wordpred", corpora, out=tmp_path / "b", progress=False)[0]
    for cfg in ("default", "types"):
        pa = (a / "data" / cfg / "test-00000-of-00001.parquet").read_bytes()
        assert pa == (b / "data" / cfg / "test-00000-of-00001.parquet").read_bytes()


def test_same_spec_splits_by_document(tmp_path):
    docs = "\n\n".join(f"doc {d} line one is here .\ndoc {d} line two is here ." for d in range(20))
    (tmp_path / "c.txt").write_text(docs + "\n")
    config = parse_overrides(Config, {"train": str(tmp_path / "c.txt"), "test": str(tmp_path / "c.txt"), "frequencies": "train",
                                      "w2v_min_count": "1", "test_fraction": "0.2"})
    builder = WordPredBuilder()
    train, test = builder._corpora(config)
    assert len(test) == 8 and len(train) == 32
    assert not set(test) & set(train)


def test_bad_corpora_are_clear_errors(corpora, tmp_path):
    (tmp_path / "short.txt").write_text("a b\n\nc\n")
    with pytest.raises(SourceError, match="no line of 3"):
        _build(corpora, test=str(tmp_path / "short.txt"))
    (tmp_path / "empty.txt").write_text("")
    with pytest.raises(SourceError, match="no words"):
        _build(corpora, train=str(tmp_path / "empty.txt"))
    with pytest.raises(SourceError, match="does not exist"):
        _build(corpora, test=str(tmp_path / "missing.txt"))


# --- model side ---------------------------------------------------------------------------------

LINES = [s.split() for s in ["the dog is a kind of animal .", "a poodle is a dog .", "good is the opposite of bad and hot is not cold ."]]
EVENTS = [(n, i) for n, words in enumerate(LINES) for i in range(1, len(words))]


@pytest.fixture(scope="module")
def causal(tiny_models):
    return {name: load_model(str(tiny_models[name]), device="cpu", batch_size=2) for name in ("gpt2", "llama")}


@pytest.mark.parametrize("faithful", [False, True])
@pytest.mark.parametrize("name", ["gpt2", "llama"])
def test_kv_cache_search_equals_published_algorithm(causal, name, faithful):
    model = causal[name]
    ours = model.predict_words(LINES, EVENTS, faithful=faithful)
    naive = predict_words_naive(model, LINES, EVENTS, faithful=faithful)
    for a, b in zip(ours, naive):
        assert (a.greedy, a.hit1, a.hit10, a.greedy_tokens) == (b.greedy, b.hit1, b.hit10, b.greedy_tokens)
        assert a.word_lp == pytest.approx(b.word_lp, abs=1e-4)
        assert a.greedy_lp == pytest.approx(b.greedy_lp, abs=1e-4)
        assert (a.path_lp is None) == (b.path_lp is None) and (a.path_lp is None or a.path_lp == pytest.approx(b.path_lp, abs=1e-4))
    # A random tiny model leaves the line often: the off-line (KV cache) path was exercised.
    assert any(not a.hit1 and a.greedy_tokens > 1 for a in ours)


def test_batch_size_does_not_change_predictions(causal):
    model = causal["gpt2"]
    batched = model.predict_words(LINES, EVENTS)
    model.sizer.size = 1
    try:
        single = model.predict_words(LINES, EVENTS)
    finally:
        model.sizer.size = 2
    assert [(p.greedy, p.hit10) for p in batched] == [(p.greedy, p.hit10) for p in single]
    np.testing.assert_allclose([p.word_lp for p in batched], [p.word_lp for p in single], atol=1e-5)


def test_word_logprob_includes_the_boundary(causal):
    model = causal["gpt2"]
    context, word = "the dog is", "a"
    tokens = model.sequence_logprobs([(context, " " + word)])[0].total
    after = torch.as_tensor(model.next_token_logprobs([f"{context} {word}"])[0])
    end = float(torch.logsumexp(after.masked_fill(~torch.as_tensor(model.words.ends), float("-inf")), -1))
    assert model.word_logprob(context, word) == pytest.approx(tokens + end, abs=1e-4)
    assert end < 0


def test_masked_model_predicts_at_a_mask(tiny_models):
    model = load_model(str(tiny_models["bert"]), device="cpu", batch_size=4)
    preds = model.predict_words(LINES, EVENTS)
    first = model.next_token_logprobs([" ".join(LINES[0][:2])])[0]
    first[~model.words.boundary] = -np.inf
    word = model.tokenizer.decode([int(first.argmax())]).strip()
    assert preds[EVENTS.index((0, 2))].greedy.startswith(word)
    assert all(p.word_lp < 0 and p.hit10 >= p.hit1 for p in preds)


def test_tokenizer_without_word_markers_is_refused(tmp_path):
    import transformers
    from tokenizers import Tokenizer, models, pre_tokenizers

    vocab = {w: i for i, w in enumerate(["<unk>", "<s>", "the", "dog", "is", "a", "."])}
    tok = Tokenizer(models.WordLevel(vocab, unk_token="<unk>"))
    tok.pre_tokenizer = pre_tokenizers.Whitespace()
    fast = transformers.PreTrainedTokenizerFast(tokenizer_object=tok, unk_token="<unk>", bos_token="<s>", eos_token="<s>")
    transformers.GPT2LMHeadModel(transformers.GPT2Config(vocab_size=7, n_positions=16, n_embd=8, n_layer=1, n_head=1)).save_pretrained(tmp_path)
    fast.save_pretrained(tmp_path)
    model = load_model(str(tmp_path), device="cpu")
    with pytest.raises(ModelError, match="marks no word starts"):
        model.predict_words([["the", "dog", "is"]], [(0, 1)])


# --- metrics ------------------------------------------------------------------------------------


def _record(targets, bins, hit1, hit10, word_lp, greedy_lp=None, soft=None, pred=None):
    n = len(targets)
    return {"id": "x", "targets": targets, "bins": bins, "hit1": hit1, "hit10": hit10, "word_lp": word_lp,
            "greedy_lp": greedy_lp or [-1.0] * n, "soft_rank": soft or [None] * n, "pred": pred or ["?"] * n, "tokens": [1] * n}


def test_metrics_by_hand():
    records = [
        _record(["dog", "cat", "dog", "the", ","], ["mid", "low", "mid", "high", ""], [1, 0, 0, 1, 0], [1, 1, 0, 1, 0],
                [-1.0, -3.0, -2.0, -0.5, -1.5], greedy_lp=[-0.2, -9, -9, -0.4, -9], soft=[None, 2, 30, None, None]),
    ]
    m = WordPredScorer().summarize(records)
    assert m["events"] == 5 and m["top1"] == 40.0 and m["top10"] == 60.0
    assert m["top1_ci"][0] < 40.0 < m["top1_ci"][1] and m["top10_ci"] == pytest.approx([23.07, 88.24], abs=0.01)  # Wilson, 3 of 5
    assert m["T1"] == pytest.approx(100 * 2 / 3, abs=0.01)  # dog, the of {dog, cat, the}
    assert m["T10"] == 100.0
    assert m["ppx"] == pytest.approx(math.exp(8.0 / 5), abs=1e-3)
    assert m["bins"]["mid"] == {"events": 2, "token_top1": 50.0, "token_top10": 50.0, "types": 1, "type_top1": 100.0, "type_top10": 100.0}
    assert m["soft"]["3"]["top1"] == 60.0 and m["soft"]["25"]["top1"] == 60.0 and m["soft"]["50"]["top1"] == 80.0
    assert m["soft"]["3"]["T1"] == 100.0


def test_seed_metrics_by_hand():
    """--faithful: spin_evaluate.py + aggregate.py on hand-made records, expected numbers written out."""
    records = [
        {**_record(["dog", "cat", "dog", "the", ",", "pup"], ["mid", "low", "mid", "high", "", ""], [1, 0, 0, 1, 1, 0], [1, 1, 0, 1, 1, 1],
                   [-1.0] * 6, greedy_lp=[-0.2, -9, -9, -0.4, -0.1, -9]), "path_lp": [-0.3, -3.5, None, -0.5, -0.1, -6.0]},
    ]
    seed = WordPredScorer(faithful=True).summarize(records)
    # ppx: dog top-1 0.2 | cat top-10 only 3.5 | dog both miss 100 | the top-1 0.4 | "," top-1 0.1 | pup top-10 only 6.0
    assert seed["ppx"] == pytest.approx((0.2 + 3.5 + 100 + 0.4 + 0.1 + 6.0) / 6, abs=1e-3)  # 18.367
    assert seed["top1"] == pytest.approx(100 * 2 / 6, abs=0.01)  # dog, the: "," is a hit in no bin
    assert seed["top10"] == pytest.approx(100 * 3 / 6, abs=0.01)  # dog, cat, the: pup is in no bin
    assert seed["T1"] == 100.0  # dog, the over the 2 high+mid types
    assert seed["T10"] == 150.0  # dog, cat, the over the same 2 types: the seed's T can pass 100
    ours = WordPredScorer().summarize(records)
    assert (ours["top1"], ours["top10"]) == (50.0, pytest.approx(100 * 5 / 6, abs=0.01))
    assert ours["T10"] == 100.0 and ours["ppx"] == pytest.approx(math.e, abs=1e-3)


def test_score_cli_end_to_end(corpora, tiny_models, tmp_path):
    from click.testing import CliRunner

    from wordbench.benchmarks.cli import cli

    folder = tmp_path / "data"
    sets = [a for k, v in corpora.items() for a in ("--set", f"{k}={v}")]
    runner = CliRunner()
    result = runner.invoke(cli, ["build", "wordpred", "--out", str(folder), *sets])
    assert result.exit_code == 0, result.output
    args = ["score", "wordpred", "--model", str(tiny_models["gpt2"]), "--data", str(folder), "--out", str(tmp_path / "runs"), "--device", "cpu"]
    result = runner.invoke(cli, args)
    assert result.exit_code == 0, result.output
    assert "top1 (top10)" in result.output
    run = next((tmp_path / "runs" / "wordpred").glob("*/*"))
    summary = json.loads((run / "summary.json").read_text())
    assert summary["metrics"]["events"] == sum(len(t.split()) - 1 for t in (TEST[0], TEST[1], TEST[4]))
    assert set(summary["metrics"]["soft"]) == {"3", "5", "10", "25", "50", "100"}
    assert {"type_coverage_by_bin.png", "token_coverage_by_bin.png", "soft_match.png"} <= {p.name for p in (run / "plots").iterdir()}
    again = runner.invoke(cli, args)
    assert again.exit_code == 0 and json.loads((run / "summary.json").read_text())["items_scored_now"] == 0
    seed = runner.invoke(cli, args + ["--faithful"])
    assert seed.exit_code == 0, seed.output
    runs = sorted(p for p in (tmp_path / "runs" / "wordpred").glob("*/*"))
    assert len(runs) == 2
    both = runner.invoke(cli, ["report", *map(str, runs), "--plots", str(tmp_path / "cmp")])
    assert both.exit_code == 0, both.output
    assert (tmp_path / "cmp" / "soft_match.png").exists()
    bad = runner.invoke(cli, args + ["--option", "nonsense=1"])
    assert bad.exit_code != 0 and "unknown scoring option 'nonsense'" in bad.output


def test_finetune_one_pass_before_scoring(tiny_models, tmp_path):
    from wordbench.scorers.finetune import finetune_causal

    model = load_model(str(tiny_models["gpt2"]), device="cpu", batch_size=2)
    ids = torch.tensor([model.encode(TRAIN[0]).ids])

    def loss():
        with torch.inference_mode():
            return float(model.model(input_ids=ids, labels=ids).loss)

    before = loss()
    finetune_causal(model, TRAIN[:32], epochs=1, learning_rate=1e-3)
    assert loss() < before  # one pass over lines that repeat TRAIN[0]'s words
    (tmp_path / "train.txt").write_text("\n".join(TRAIN[:8]) + "\n")
    scorer = WordPredScorer(finetune=str(tmp_path / "train.txt"))
    assert scorer.settings["finetune"] == str(tmp_path / "train.txt")  # the run signature names the corpus
    weights = {k: v.clone() for k, v in model.model.state_dict().items()}
    scorer.score(model, [{"id": "a", "words": LINES[0], "bins": [""] * len(LINES[0])}])
    assert scorer.finetuned and any(not torch.equal(weights[k], v) for k, v in model.model.state_dict().items())


def test_finetune_refuses_a_non_causal_model_before_its_weights_load(tiny_models, tmp_path):
    (tmp_path / "train.txt").write_text("\n".join(TRAIN[:8]) + "\n")
    scorer = WordPredScorer(finetune=str(tmp_path / "train.txt"))
    scorer.check_family("causal", "gpt2")  # the scorer's families, and causal for the fine-tuning
    with pytest.raises(ModelError, match="finetune option needs a causal model; bert is masked"):
        scorer.check_family("masked", "bert")
    WordPredScorer().check_family("masked", "bert")  # without finetune a masked model is scored


def test_paths_that_spell_nothing_are_followed_once_per_depth():
    """Newline and space tokens are a prefix of every word: followed each, the top-10 search grows as 10^depth and a
    run on short lines never ends. Each depth follows one such path per event, so the search stays small."""
    import numpy as np

    from wordbench.scorers.wholeword import SEED_SEARCH_DEPTH, Step, WordVocabulary, predict_words

    texts = ["\n", " ", "\t", "\n\n", "  ", "x", "y", "z", "w", "v"]  # ids 0-4 spell nothing
    ids, lps = np.arange(10), -np.arange(1, 11, dtype=float)

    class Steps:
        asked = 0

        def actual(self, line, word):
            return [5]

        def check_reach(self, reach):  # no positions to run past
            pass

        def steps(self, requests):
            Steps.asked += len(requests)
            return [Step(ids, lps, ids, lps, -5.0, -1.0) for _ in requests]

    vocab = WordVocabulary(np.ones(10, bool), tuple(texts), np.ones(10, bool), np.zeros(10, bool))
    decode = lambda path: "".join(texts[i] for i in path)  # noqa: E731
    events = [(0, 1, "cat"), (1, 1, "dog")]
    preds = predict_words(Steps(), decode, vocab, events, faithful=True)
    assert not any(p.hit10 for p in preds)
    # teacher forcing and greedy ask a few; the search one blank path per depth and event (5^5 x 2 without the rule)
    assert Steps.asked <= len(events) * (2 + SEED_SEARCH_DEPTH + 7)


def test_search_asks_once_per_depth_over_every_event_and_line(causal, monkeypatch):
    """Algorithms 1 and 2 advance together: teacher forcing, then one request round per depth for the greedy and the
    searched paths of every event of every line; with room for a round's paths, one forward pass per round."""
    from wordbench.scorers.models.base import LineSteps
    from wordbench.scorers.wholeword import GREEDY_DEPTH, SEED_SEARCH_DEPTH

    model = causal["gpt2"]
    expected = model.predict_words(LINES, EVENTS, faithful=True)
    monkeypatch.setattr(LineSteps, "CONTINUE_BATCH", {"cpu": 100_000})
    model.sizer.size = len(LINES)
    calls = [0]
    handle = model.model.register_forward_pre_hook(lambda *_: calls.__setitem__(0, calls[0] + 1))
    try:
        got = model.predict_words(LINES, EVENTS, faithful=True)
    finally:
        handle.remove()
        model.sizer.size = 2
    assert calls[0] <= 1 + max(GREEDY_DEPTH, SEED_SEARCH_DEPTH) < 1 + GREEDY_DEPTH + SEED_SEARCH_DEPTH
    assert [(p.greedy, p.hit1, p.hit10, p.path_lp is None) for p in got] == [(p.greedy, p.hit1, p.hit10, p.path_lp is None) for p in expected]
    np.testing.assert_allclose([p.word_lp for p in got], [p.word_lp for p in expected], atol=1e-5)
    np.testing.assert_allclose([p.greedy_lp for p in got], [p.greedy_lp for p in expected], atol=1e-5)


def test_greedy_and_search_paths_share_one_request_round_per_depth():
    """Without a model: every round asks once, for the greedy paths and the open search paths of one depth together."""
    import numpy as np

    from wordbench.scorers.wholeword import GREEDY_DEPTH, SEED_SEARCH_DEPTH, Step, WordVocabulary, predict_words

    texts = ["c", "a", "t", "ca", "at", "d", "o", "g", "x", "y"]  # no token ends a word: greedy runs its full depth
    ids, lps = np.arange(10), -np.arange(1, 11, dtype=float)
    rounds = []

    class Steps:
        def actual(self, line, word):
            return [0, 1, 2]

        def check_reach(self, reach):  # no positions to run past
            pass

        def steps(self, requests):
            rounds.append(sorted({len(path) for _, _, path in requests}))
            return [Step(ids, lps, ids, lps, -5.0, -1.0) for _ in requests]

    vocab = WordVocabulary(np.ones(10, bool), tuple(texts), np.ones(10, bool), np.zeros(10, bool))
    decode = lambda path: "".join(texts[i] for i in path)  # noqa: E731
    preds = predict_words(Steps(), decode, vocab, [(0, 1, "cat"), (1, 1, "dog")], faithful=True)
    assert [p.hit10 for p in preds] == [True, True] and preds[0].path_lp == -1 - 2 - 3
    assert len(rounds) == 1 + GREEDY_DEPTH - 1 < 1 + (GREEDY_DEPTH - 1) + SEED_SEARCH_DEPTH  # teacher forcing, then one per depth
    assert rounds[1] == [1] and rounds[2] == [2]  # greedy and search paths of the same depth in one round

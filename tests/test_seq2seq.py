"""Seq2seq models (tiny T5 and BART from config) on every benchmark: infilling, whole words, states, generation."""

import json

import numpy as np
import pytest
import torch

from wordbench.benchmarks.hub import SIGNATURE_FILE, build
from wordbench.benchmarks.runner import score
from wordbench.errors import ConfigError
from wordbench.scorers.models import ModelError, load_model
from reference import predict_words_one_pass

LINES = [["the", "dog", "is", "a", "kind", "of", "animal", "."], ["a", "poodle", "is", "a", "dog", "and", "a", "pet"],
         ["good", "is", "the", "opposite", "of", "bad"]]
EVENTS = [(n, i) for n, words in enumerate(LINES) for i in range(1, len(words))]


@pytest.fixture(scope="module")
def s2s(tiny_models):
    return {name: load_model(str(tiny_models[name]), device="cpu", batch_size=4) for name in ("t5", "bart")}


def test_style_detection_options_and_refusals(tiny_models, s2s):
    t5, bart = s2s["t5"], s2s["bart"]
    assert (t5.infill, bart.infill) == ("sentinel", "mask")
    source, prefix = t5.infill_ids(t5._tokens("the dog is a"), t5._tokens(" ."))
    assert t5.tokenizer.convert_ids_to_tokens(source) == ["▁the", "▁dog", "▁is", "▁a", "<extra_id_0>", "▁.", "</s>"]
    assert t5.tokenizer.convert_ids_to_tokens(prefix) == ["<pad>", "<extra_id_0>"]
    source, prefix = bart.infill_ids(bart._tokens("the dog"), [])
    assert bart.tokenizer.convert_ids_to_tokens(source)[0] == "<s>" and bart.tokenizer.convert_ids_to_tokens(source)[-2:] == ["<mask>", "</s>"]
    assert bart.tokenizer.convert_ids_to_tokens(prefix)[:2] == ["</s>", "<s>"] and prefix[2:] == bart._tokens("the dog")
    forced = load_model(str(tiny_models["t5"]), device="cpu", options={"infill": "sentinel", "states": "decoder"})
    assert forced.states == "decoder" and forced.info.tag.endswith("|opts:infill=sentinel,states=decoder")
    assert "opts" not in t5.info.tag  # no option given: the signature is unchanged
    with pytest.raises(ModelError, match="seq2seq models only"):
        load_model(str(tiny_models["gpt2"]), device="cpu", options={"infill": "mask"})
    with pytest.raises(ConfigError, match="'infill' must be one of"):
        load_model(str(tiny_models["t5"]), device="cpu", options={"infill": "span"})
    marian = load_model(str(tiny_models["marian"]), device="cpu")
    assert marian.infill is None
    with pytest.raises(ModelError, match="no <extra_id_0> sentinel or mask token"):
        marian.predict_words(LINES[:1], [(0, 1)])
    with pytest.raises(ModelError, match="give prompts"):
        marian.generate([""], "greedy", 4)
    assert len(marian.generate(["der Hund"], "greedy", 4)) == 1


@pytest.mark.parametrize("name", ["t5", "bart"])
def test_cloze_topk_is_the_decoder_distribution_at_the_gap(s2s, name):
    model = s2s[name]
    lefts, rights = ["the dog is a", "good is the opposite of", "\" dgo \" is a misspelling of \""], [" .", " .", " \" ."]
    got = model.topk_next(lefts, 5, right_contexts=rights)
    for left, right, (ids, lps) in zip(lefts, rights, got):
        source, prefix = model.infill_ids(model._tokens(left), model._tokens(right))
        with torch.inference_mode():
            logits = model.model(input_ids=torch.tensor([source]), decoder_input_ids=torch.tensor([prefix])).logits[0, -1]
        want = torch.log_softmax(logits, -1).topk(5)
        assert list(ids) == want.indices.tolist()
        np.testing.assert_allclose(lps, want.values.numpy(), atol=1e-5)
    starts = model.topk_next(lefts, 5, right_contexts=rights, word_start_only=True)
    assert all(model.words.is_start[i] for ids, _ in starts for i in ids)


@pytest.mark.parametrize("name", ["t5", "bart"])
def test_word_logprob_equals_a_hand_loop_over_the_decoder(s2s, name):
    model = s2s[name]
    pairs = [("the dog is a", "kind"), ("a poodle is a", "dog"), ("good is the opposite", "of"), ("the tree and the", "flower"),
             ("someone who is", "happy"), ("the dog", "catdog"), ("a big", "poodles")]
    ends = torch.as_tensor(model.words.ends)
    want, multi = [], 0
    for context, word in pairs:
        ids, starts = model.word_tokens(context.split() + [word])
        own = ids[starts[-1]:]
        multi += len(own) > 1
        source, prefix = model.infill_ids(ids[: starts[-1]])
        total = 0.0
        for j in range(len(own) + 1):  # one full pass per prefix of the word
            with torch.inference_mode():
                logits = model.model(input_ids=torch.tensor([source]), decoder_input_ids=torch.tensor([prefix + own[:j]])).logits[0, -1]
            lp = torch.log_softmax(logits, -1)
            total += float(lp[own[j]]) if j < len(own) else float(torch.logsumexp(lp.masked_fill(~ends[: lp.shape[0]], float("-inf")), -1))
        want.append(total)
    assert multi >= 1  # a word of several subtokens is among them
    np.testing.assert_allclose(model.word_logprobs(pairs), want, atol=1e-4)


@pytest.mark.parametrize("name", ["t5", "bart"])
def test_cached_search_equals_one_pass_per_node_and_batch_size(s2s, tiny_models, name):
    model = s2s[name]
    ours = model.predict_words(LINES, EVENTS)
    some = [e for e in EVENTS if e[0] < 2 and e[1] < 6]  # the reference is slow: a full pass per search node
    reference, passes = predict_words_one_pass(model, LINES, some)
    mine = [ours[EVENTS.index(e)] for e in some]
    assert passes > len(some)
    assert [(p.greedy, p.hit1, p.hit10, p.tokens, p.greedy_tokens) for p in mine] == [(p.greedy, p.hit1, p.hit10, p.tokens, p.greedy_tokens) for p in reference]
    np.testing.assert_allclose([p.word_lp for p in mine], [p.word_lp for p in reference], atol=1e-4)
    np.testing.assert_allclose([p.greedy_lp for p in mine], [p.greedy_lp for p in reference], atol=1e-4)
    one = load_model(str(tiny_models[name]), device="cpu", batch_size=1)
    alone = one.predict_words(LINES, EVENTS)
    assert [(p.greedy, p.hit10) for p in alone] == [(p.greedy, p.hit10) for p in ours]
    np.testing.assert_allclose([p.word_lp for p in alone], [p.word_lp for p in ours], atol=1e-4)
    texts, spans = ["the dog is a pet .", "a poodle is a dog and a pet"], [(4, 7), (2, 8)]
    np.testing.assert_allclose(one.hidden_states(texts, spans, "mean"), model.hidden_states(texts, spans, "mean"), atol=1e-5)
    assert one.generate(["", "the dog"], "greedy", 6) == model.generate(["", "the dog"], "greedy", 6)


@pytest.mark.parametrize("name", ["t5", "bart"])
def test_teacher_forcing_batches_keep_the_token_budget(s2s, tiny_models, name, monkeypatch):
    """Under batch_size=auto the teacher-forced chunks of contexts are cut by the sizer's token budget too
    (rows x longest source+decoder length), not by the row cap alone; the predictions do not change."""
    from wordbench.scorers.models import seq2seq

    shapes, real = [], seq2seq._Seq2SeqLineSteps._force_chunk

    def counted(self, keys, prepared):
        shapes.append((len(keys), max(sum(map(len, prepared[k])) for k in keys)))
        return real(self, keys, prepared)

    monkeypatch.setattr(seq2seq._Seq2SeqLineSteps, "_force_chunk", counted)
    auto = load_model(str(tiny_models[name]), device="cpu", batch_size="auto")
    auto.sizer.tokens = 80
    budget = auto.predict_words(LINES, EVENTS)
    assert shapes and all(rows == 1 or rows * longest <= 80 for rows, longest in shapes)
    assert max(rows for rows, _ in shapes) > 1  # the budget still batches
    ours = s2s[name].predict_words(LINES, EVENTS)
    assert [(p.greedy, p.hit1, p.hit10) for p in budget] == [(p.greedy, p.hit1, p.hit10) for p in ours]
    np.testing.assert_allclose([p.word_lp for p in budget], [p.word_lp for p in ours], atol=1e-4)


@pytest.mark.parametrize("name", ["t5", "bart"])
def test_encoder_and_decoder_states(s2s, tiny_models, name):
    model = s2s[name]
    text = "the dog is a pet ."
    enc = model.encode(text)
    span = model._span_tokens(text, enc, (4, 7))
    states = model.hidden_states([text], [(4, 7)], "first")[0]
    with torch.inference_mode():
        hand = model.model.get_encoder()(input_ids=torch.tensor([enc.ids]), output_hidden_states=True).hidden_states
    assert states.shape[0] == model.num_layers + 1 == len(hand)
    np.testing.assert_allclose(states, torch.stack(hand)[:, 0, span[0]].numpy(), atol=1e-5)
    decoder = load_model(str(tiny_models[name]), device="cpu", options={"states": "decoder"})
    dec = decoder.hidden_states([text], [(4, 7)], "first")[0]
    with torch.inference_mode():
        out = decoder.model(input_ids=torch.tensor([enc.ids]), decoder_input_ids=torch.tensor([[decoder.decoder_start_id] + enc.ids]),
                            output_hidden_states=True)
    np.testing.assert_allclose(dec, torch.stack(out.decoder_hidden_states)[:, 0, span[0] + 1].numpy(), atol=1e-5)
    assert decoder.token_states([text], decoder.num_layers)[0].shape[0] == sum(not s for s in enc.special)


# --- every benchmark end to end ---------------------------------------------------------------------

def _folder(root, name, rows, config="default"):
    """A built folder of ``rows`` (test split) without running the builder."""
    import datasets

    (root / "data" / config).mkdir(parents=True)
    datasets.Dataset.from_list(rows).to_parquet(str(root / "data" / config / "test-00000-of-00001.parquet"))
    (root / SIGNATURE_FILE).write_text(json.dumps({"benchmark": name, "signature": f"{name}@test"}))
    return root


@pytest.mark.parametrize("name", ["t5", "bart"])
def test_wnlampro_and_paraphrase_end_to_end(s2s, wnlampro_file, tmp_path, name):
    model = s2s[name]
    run = score("wnlampro", model, str(wnlampro_file), out=tmp_path / "runs", progress=False)
    records = run.records()
    assert len(records) == 5 and all(len(r["top10"]) == 10 for r in records)
    assert json.loads((run.path / "summary.json").read_text())["model"]["family"] == "seq2seq"
    rows = [{"id": f"{s}-{i}", "set": s, "word": "poodle", "hypernym": "dog", "sibling": "cat", "sentence": "a poodle is a pet .",
             "sentence_hypernym": "a dog is a pet .", "sentence_sibling": "a cat is a pet .", "carrier_source": "file", "word_rate": 0.0,
             "hypernym_rate": 0.0, "sibling_rate": 0.0, "synsets": [], "reviewed": False} for s in ("rare", "common") for i in range(3)]
    run = score("paraphrase", model, str(_folder(tmp_path / "para", "paraphrase", rows)), out=tmp_path / "runs", progress=False, layer=1)
    metrics = json.loads((run.path / "summary.json").read_text())["metrics"]
    assert metrics["rare"]["total"] == metrics["common"]["total"] == 3


@pytest.fixture(scope="module")
def wordpred_data(tmp_path_factory):
    root = tmp_path_factory.mktemp("wordpred")
    train, test = root / "train.txt", root / "test.txt"
    train.write_text("\n".join(" ".join(w) for w in LINES * 40) + "\n")
    test.write_text("\n".join(" ".join(w) for w in LINES) + "\n")
    folder, _ = build("wordpred", [f"train={train}", f"test={test}", "frequencies=train", "reference_tokens=1000", "high=100", "mid=40",
                                   "low=20", "w2v_min_count=1"], out=root / "data", progress=False)
    return folder


@pytest.mark.parametrize("name", ["t5", "bart"])
def test_wordpred_end_to_end(s2s, wordpred_data, tmp_path, name):
    run = score("wordpred", s2s[name], str(wordpred_data), out=tmp_path, progress=False, limit=2)
    metrics = json.loads((run.path / "summary.json").read_text())["metrics"]
    assert metrics["events"] == sum(len(r["targets"]) for r in run.records()) > 0
    assert "ppx" in json.dumps(metrics)


@pytest.fixture(scope="module")
def vast_setup(tmp_path_factory):
    """VAST data and word-level T5 / BART (every VAST word one token, so polar words can be selected)."""
    import datasets
    import transformers
    from tokenizers import Tokenizer, models, pre_tokenizers, processors

    from test_vast import CORPUS, LEXICON

    root = tmp_path_factory.mktemp("vast-s2s")
    (root / "lexicon.csv").write_text("Word,V.Mean.Sum\n" + "".join(f"{w},{v}\n" for w, v in LEXICON.items()))
    (root / "corpus.txt").write_text(CORPUS)
    data, _ = build("vast", [f"lexicon=warriner:{root / 'lexicon.csv'}", f"corpus={root / 'corpus.txt'}", "union_lexica=none"],
                    out=root / "data", progress=False)
    words = {w for text in datasets.load_dataset(str(data))["test"]["context"] for w in text.split()}
    vocab = {t: i for i, t in enumerate(["<pad>", "</s>", "<unk>", "<s>", "<mask>", "<extra_id_0>", *sorted(words)])}
    tok = Tokenizer(models.WordLevel(vocab, unk_token="<unk>"))
    tok.pre_tokenizer = pre_tokenizers.WhitespaceSplit()
    tok.post_processor = processors.TemplateProcessing(single="$A </s>", special_tokens=[("</s>", 1)])
    fast = transformers.PreTrainedTokenizerFast(tokenizer_object=tok, unk_token="<unk>", pad_token="<pad>", eos_token="</s>", bos_token="<s>",
                                                mask_token="<mask>", additional_special_tokens=["<extra_id_0>"])
    torch.manual_seed(0)
    configs = {"t5": transformers.T5Config(vocab_size=len(vocab), d_model=16, d_kv=8, d_ff=32, num_layers=2, num_decoder_layers=3, num_heads=2,
                                           pad_token_id=0, eos_token_id=1, decoder_start_token_id=0),
               "bart": transformers.BartConfig(vocab_size=len(vocab), d_model=16, encoder_layers=2, decoder_layers=3, encoder_attention_heads=2,
                                               decoder_attention_heads=2, encoder_ffn_dim=32, decoder_ffn_dim=32, max_position_embeddings=64,
                                               pad_token_id=0, bos_token_id=3, eos_token_id=1, decoder_start_token_id=1)}
    folders = {}
    for name, config in configs.items():
        cls = transformers.T5ForConditionalGeneration if name == "t5" else transformers.BartForConditionalGeneration
        folders[name] = root / name
        cls(config).eval().save_pretrained(folders[name], safe_serialization=True)
        fast.save_pretrained(folders[name])
    return data, folders


@pytest.mark.parametrize("name", ["t5", "bart"])
def test_vast_end_to_end_on_encoder_and_decoder_states(vast_setup, tmp_path, name):
    data, folders = vast_setup
    for states, layers in (("encoder", 3), ("decoder", 4)):
        model = load_model(str(folders[name]), device="cpu", batch_size=8, options={"states": states})
        run = score("vast", model, str(data), out=tmp_path, progress=False, n_resamples=9, max_pcs=2, tokenization_setting="bleached")
        metrics = json.loads((run.path / "summary.json").read_text())["metrics"]
        assert all(len(v["vast"]) == layers for v in metrics["layers"].values())  # embeddings + each layer


@pytest.mark.parametrize("name", ["t5", "bart"])
def test_tendencies_end_to_end(s2s, tmp_path, name):
    corpus = tmp_path / "corpus.txt"
    corpus.write_text("\n\n".join(" ".join(w).capitalize() for w in LINES * 8) + "\n")
    reference, _ = build("tendencies", [f"corpus={corpus}", "test_fraction=0.5"], out=tmp_path / "ref", progress=False)
    run = score("tendencies", s2s[name], str(reference), out=tmp_path / "runs", progress=False, strategies="ancestral,nucleus", n=4,
                max_new_tokens=10, n_resamples=9, baseline_draws=2)
    records = [r for r in run.records() if r["strategy"] != "__perplexity__"]
    assert len(records) == 8 and all(0 < r["model_tokens"] <= 10 for r in records)
    summary = json.loads((run.path / "summary.json").read_text())
    assert set(summary["metrics"]["samples"]) | set(summary["metrics"]["skipped"]) == {"ancestral", "nucleus"}
    assert summary["metrics"]["perplexity"] is None and "not computed: a seq2seq decoder" in (run.path / "report.md").read_text()


def test_score_cli_takes_model_options(tiny_models, wnlampro_file, tmp_path):
    from click.testing import CliRunner

    from wordbench.benchmarks.cli import cli

    args = ["score", "wnlampro", "--model", str(tiny_models["t5"]), "--data", str(wnlampro_file), "--out", str(tmp_path), "--device", "cpu"]
    result = CliRunner().invoke(cli, args + ["--model-option", "infill=sentinel"])
    assert result.exit_code == 0, result.output
    summary = json.loads(next(tmp_path.glob("wnlampro/*/*/summary.json")).read_text())
    assert "opts:infill=sentinel" in summary["signature"]
    bad = CliRunner().invoke(cli, args + ["--model-option", "infill=span"])
    assert bad.exit_code != 0 and "'infill' must be one of" in bad.output and "Traceback" not in bad.output


@pytest.mark.parametrize("name,tree", [("marian", True), ("bart", True), ("t5", False)])
def test_targets_of_one_source_decoded_as_a_prefix_tree(tiny_models, name, tree):
    """Minimal pairs share the words before their edit: the decoder takes them once (a 4D mask, positions by
    depth) and scores as one target per padded row. T5's relative positions cannot be moved: padded rows."""
    model = load_model(str(tiny_models[name]), device="cpu", batch_size=4)
    assert model.trees is tree
    sources = ["the dog is a pet .", "the dog is a pet .", "the dog is a pet .", "good is bad", "good is bad", "a"]
    targets = ["der Hund ist ein Tier .", "der Hund ist eine Tier .", "der Hund", "gut ist schlecht", "gut ist schlecht", "ein"]
    got = [model.conditional_logprobs(sources, targets, reduce) for reduce in ("sum", "mean")]
    model.__dict__["trees"] = False
    want = [model.conditional_logprobs(sources, targets, reduce) for reduce in ("sum", "mean")]
    np.testing.assert_allclose(got, want, atol=1e-5)
    assert got[0][3] == pytest.approx(got[0][4])


@pytest.mark.parametrize("name,attention", [("marian", "sdpa"), ("bart", "sdpa"), ("marian", "eager")])
def test_sources_packed_side_by_side_score_as_padded_rows(tiny_models, name, attention):
    """Several sources share a row (each attends to itself, positions from 0; each decoder tree attends to its own
    source only), rows of several batches, narrowed for one batch: the same log-probs as one target per padded row."""
    model = load_model(str(tiny_models[name]), device="cpu", batch_size=3)
    model.model.config._attn_implementation = attention
    sources = ["the dog is a pet .", "a", "good is bad", "the cat sat on the mat and the dog sat on the rug .", "hot", "the dog", "cold is not hot ."]
    targets = [["der Hund ist ein Tier .", "der Hund ist eine Tier ."], ["ein"], ["gut ist schlecht", "gut ist schlecht", "gut"],
               ["die Katze saß auf der Matte und der Hund auf dem Teppich ."], ["ein"], ["der Hund", "der Hunde"], ["kalt ist nicht heiß ."]]
    flat_src = [s for s, ts in zip(sources, targets) for _ in ts]
    flat_tgt = [t for ts in targets for t in ts]
    items = [(model.encode(s).ids, [model.target_ids(t) for t in ts]) for s, ts in zip(sources, targets)]
    sizes = [(len(s), len(model._trie(ts).tokens)) for s, ts in items]
    for width in (model.sizer.pack_width, 24):
        rows, (enc, dec) = model._layout(sizes, width)
        assert sorted(i for row in rows for i in row) == list(range(len(items)))
        assert all(sum(sizes[i][0] for i in row) <= enc and sum(sizes[i][1] for i in row) <= dec for row in rows)
    assert any(len(row) > 1 for row in model._layout(sizes, 24)[0])
    assert model.trees is True
    got = model.conditional_logprobs(flat_src, flat_tgt, "sum")
    model.sizer.size = 100  # one batch: rows narrowed to as many as the pack width gave
    one_batch = model.conditional_logprobs(flat_src, flat_tgt, "sum")
    model.__dict__["trees"] = False
    want = model.conditional_logprobs(flat_src, flat_tgt, "sum")
    np.testing.assert_allclose(got, want, atol=1e-5)
    np.testing.assert_allclose(one_batch, want, atol=1e-5)


def test_packed_rows_refuse_a_source_past_the_positions_and_take_no_items(tiny_models):
    from wordbench.scorers.models import ModelError
    from wordbench.scorers.models.base import Encoded

    model = load_model(str(tiny_models["marian"]), device="cpu", batch_size=4)
    assert model.trees is True and model.conditional_logprobs([], []) == []
    with pytest.raises(ModelError, match="longer than"):
        model.conditional_logprobs(["the dog " * 40], ["der Hund"])
    model.encode = lambda text: type(model).encode(model, text) if text else Encoded([], [], [])  # a tokenizer without EOS
    with pytest.raises(ModelError, match="encodes to no tokens"):
        model.conditional_logprobs(["", "a"], ["der", "ein"])

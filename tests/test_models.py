import numpy as np
import pytest
import torch

from wordbench.scorers.models import ModelError, load_model
from wordbench.scorers.models.batching import BatchSizer

CONTEXTS = ["the dog is a", "a", "good is the opposite of bad and hot is the opposite of", "the cat"]


@pytest.fixture(scope="module")
def models(tiny_models):
    return {name: load_model(str(tiny_models[name]), device="cpu", batch_size=4) for name in ("gpt2", "llama", "bert")}


@pytest.mark.parametrize("name", ["gpt2", "llama", "bert"])
def test_family_detected(models, name):
    assert models[name].family == ("masked" if name == "bert" else "causal")
    assert models[name].info.version.startswith("sha256-")


@pytest.mark.parametrize("name", ["gpt2", "llama", "bert"])
def test_batched_equals_unbatched(models, name):
    model = models[name]
    batched = model.next_token_logprobs(CONTEXTS)
    model.sizer.size = 1
    try:
        single = model.next_token_logprobs(CONTEXTS)
        top_single = model.topk_next(CONTEXTS, 5, word_start_only=True)
    finally:
        model.sizer.size = 4
    np.testing.assert_allclose(batched, single, atol=1e-5)
    top_batched = model.topk_next(CONTEXTS, 5, word_start_only=True)
    for (ids_a, lp_a), (ids_b, lp_b) in zip(top_batched, top_single):
        assert list(ids_a) == list(ids_b)
        np.testing.assert_allclose(lp_a, lp_b, atol=1e-5)


@pytest.mark.parametrize("name", ["gpt2", "llama"])
def test_order_is_restored(models, name):
    model = models[name]
    full = model.next_token_logprobs(CONTEXTS)
    for i, c in enumerate(CONTEXTS):
        np.testing.assert_allclose(full[i], model.next_token_logprobs([c])[0], atol=1e-5)


@pytest.mark.parametrize("name", ["gpt2", "llama"])
def test_token_scores_sum_to_sequence_and_match_next_token(models, name):
    model = models[name]
    whole, pair = model.sequence_logprobs(["the dog is a pet .", ("the dog is", " a pet .")])
    assert whole.total == pytest.approx(sum(whole.logprobs))
    assert "".join(model.tokenizer.convert_tokens_to_string([t]) for t in whole.tokens) == "the dog is a pet ."
    # The first continuation token's log-prob is the next-token log-prob after the context.
    first_id = model.tokenizer.convert_tokens_to_ids(pair.tokens[0])
    assert pair.logprobs[0] == pytest.approx(float(model.next_token_logprobs(["the dog is"])[0, first_id]), abs=1e-5)
    assert pair.offsets[0][0] == len("the dog is")
    # the first word is scored (BOS prepended)
    assert len(whole.logprobs) == len(model.tokenizer("the dog is a pet .")["input_ids"])


def test_masked_pseudo_log_likelihood(models):
    model = models["bert"]
    (score,) = model.sequence_logprobs(["the dog is a pet ."])
    assert len(score.logprobs) == len(score.tokens) > 0
    assert all(lp <= 0 for lp in score.logprobs)


@pytest.mark.parametrize("name", ["gpt2", "bert"])
@pytest.mark.parametrize("pool", ["first", "last", "mean", "max"])
def test_hidden_states(models, name, pool):
    model = models[name]
    texts = ["the dog is a pet .", "a poodle is a dog ."]
    spans = [(4, 7), (2, 8)]
    states = model.hidden_states(texts, spans, pool)
    assert states.shape == (2, 3, 32)  # embeddings + 2 layers
    model.sizer.size = 1
    try:
        np.testing.assert_allclose(states, model.hidden_states(texts, spans, pool), atol=1e-5)
    finally:
        model.sizer.size = 4


def test_word_vocabularies(models):
    gpt2, bert = models["gpt2"].words, models["bert"].words
    tok = models["gpt2"].tokenizer
    dog = tok.convert_tokens_to_ids("Ġdog")
    assert gpt2.is_start[dog] and gpt2.word(dog) == "dog"
    assert not gpt2.is_start[tok.convert_tokens_to_ids("<|endoftext|>")]
    wp = models["bert"].tokenizer
    assert bert.is_start[wp.convert_tokens_to_ids("dog")]
    assert not bert.is_start[wp.mask_token_id]
    assert not any(bert.is_start[i] for t, i in wp.get_vocab().items() if t.startswith("##"))


def test_encoder_family_and_safety(tiny_models):
    enc = load_model(str(tiny_models["bert-encoder"]), device="cpu")
    assert enc.family == "encoder"
    assert enc.hidden_states(["the dog ."], [(4, 7)]).shape == (1, 3, 32)
    with pytest.raises(ModelError, match="allow-pickle"):
        load_model(str(tiny_models["gpt2-pickle"]), device="cpu")
    assert load_model(str(tiny_models["gpt2-pickle"]), device="cpu", allow_pickle=True).family == "causal"
    with pytest.raises(ModelError, match="does not exist"):
        load_model("./no/such/model")
    with pytest.raises(ModelError, match="cannot load"):
        load_model("no-such-org/no-such-model")  # offline in tests


def test_auto_batch_size_backs_off_on_oom():
    sizer = BatchSizer("auto", torch.device("cuda"))
    calls = []

    def fn(batch):
        calls.append(len(batch))
        if len(batch) > 64:
            raise torch.cuda.OutOfMemoryError("fake")
        return [x * 2 for x in batch]

    items = list(range(300))
    assert sizer.run(items, [1] * 300, fn) == [x * 2 for x in items]
    assert sizer.size == 64 and calls[:3] == [256, 128, 64]


PAIRS = [("the dog is", " a pet ."), ("the dog is", " a cat"), ("the dog is", " good and the cat is bad ."), ("a", " dog"), ("a", " cat"),
         "the cat is a pet .", ("good is the opposite of", " bad"), ("the dog is", "")]


def _full_logprobs(model, ids: list[int]) -> torch.Tensor:
    """Reference: the full log-softmax at every position of one unpadded sequence."""
    with torch.inference_mode():
        return torch.log_softmax(model.model(input_ids=torch.tensor([ids])).logits[0].float(), -1)


@pytest.mark.parametrize("name", ["gpt2", "llama", "bert"])
def test_head_only_at_read_positions_equals_full_computation(models, name):
    model = models[name]
    for (ids, pos), row in zip(model._queries(CONTEXTS, None), model.next_token_logprobs(CONTEXTS)):
        np.testing.assert_allclose(row, _full_logprobs(model, ids)[pos].numpy(), atol=1e-5)
    if model.family != "causal":
        return
    for item, scores in zip(PAIRS, model.sequence_logprobs(PAIRS)):
        context, cont = model.split_pair(item)
        head, tail = model.encode(context).ids, model.tokenizer(cont, add_special_tokens=False)["input_ids"]
        full = _full_logprobs(model, head + tail)
        expected = [float(full[len(head) - 1 + j, t]) for j, t in enumerate(tail)]
        np.testing.assert_allclose(scores.logprobs, expected, atol=1e-5)


@pytest.mark.parametrize("name", ["gpt2", "llama"])
def test_token_budget_batches_and_shared_contexts_equal_unbatched(models, name):
    model = models[name]
    batched = model.sequence_logprobs(PAIRS)  # the three continuations of "the dog is" share its cache
    nexts = model.next_token_logprobs(CONTEXTS)
    model.batch_size = "auto"
    model.sizer.tokens = 12  # a few rows per batch, fewer for the long ones
    try:
        budget = model.sequence_logprobs(PAIRS)
        budget_next = model.next_token_logprobs(CONTEXTS)
    finally:
        model.batch_size = 4
    alone = [model.sequence_logprobs([p])[0] for p in PAIRS]  # one at a time: no shared cache, no padding
    for a, b, c in zip(batched, budget, alone):
        assert a.tokens == b.tokens == c.tokens and a.offsets == c.offsets
        np.testing.assert_allclose(a.logprobs, c.logprobs, atol=1e-5)
        np.testing.assert_allclose(b.logprobs, c.logprobs, atol=1e-5)
    np.testing.assert_allclose(budget_next, nexts, atol=1e-5)


def test_token_budget_fills_batches_by_padded_tokens():
    sizer = BatchSizer("auto", torch.device("cpu"))
    sizer.tokens = 10
    seen = []
    lengths = [5, 1, 3, 2, 5, 1]
    out = sizer.run(list(range(6)), lengths, lambda b: seen.append([lengths[i] for i in b]) or [x * 10 for x in b])
    assert out == [0, 10, 20, 30, 40, 50]
    assert seen == [[5, 5], [3, 2, 1], [1]]  # rows x longest row <= 10
    sizer.tokens = 2
    assert sizer.run([0], [7], lambda b: b) == [0]  # a row longer than the budget still runs, alone


@pytest.mark.parametrize("name", ["gpt2", "llama"])
def test_trailing_space_moves_to_the_continuation(models, name):
    model = models[name]
    moved, plain = model.sequence_logprobs([("the dog ", "is a pet"), ("the dog", " is a pet")])
    assert moved.tokens == plain.tokens and moved.offsets == plain.offsets
    assert moved.logprobs == pytest.approx(plain.logprobs, abs=1e-6)
    assert model.split_pair(("A smile \n", "flitted")) == ("A smile", " \nflitted")
    assert model.split_pair("text") == ("", "text")


def test_batch_size_setter(models):
    model = models["gpt2"]
    model.batch_size = 2
    try:
        assert model.batch_size == 2 and model.sizer.tokens is None
        model.batch_size = "auto"
        assert model.sizer.auto and model.sizer.tokens is not None
        with pytest.raises(ValueError):
            model.batch_size = 0
    finally:
        model.batch_size = 4


def test_fill_rows_puts_contexts_starting_alike_together():
    from wordbench.scorers.models.causal import fill_rows
    from wordbench.scorers.models.trie import build_trie

    prompt = [1, 2, 3, 4, 5, 6]  # a prompt every context begins with
    heads = [prompt + [9, 9], [7], prompt + [8], [7, 7], prompt + [9, 8], prompt + [8, 8, 8]]
    sizes = [len(h) + 2 for h in heads]  # each context and two fed continuation tokens
    rows = fill_rows(heads, sizes, 20)
    assert sorted(i for r in rows for i in r) == list(range(len(heads)))
    # the four contexts that start with the prompt share it: 9 + (11 - 7) + (10 - 6) + (10 - 7) = 20 tokens in one row
    assert [sorted(r) for r in rows] == [[0, 2, 4, 5], [1, 3]]
    for r in rows:  # the tree of a row's contexts (what it costs) stays within the width
        assert len(build_trie([heads[i] + [100 + i, 200 + i] for i in r]).tokens) <= 20
    assert fill_rows([[1] * 30], [30], 20) == [[0]]  # a part longer than the width gets a row of its own


SENTENCES = ["the dog is a pet .", "a", "good is the opposite of bad and hot is the opposite of cold .", "the cat sat",
             "hot is the opposite", "the dog", ("the dog is", " a pet ."), ("the dog is", " a cat"), ("the dog is", " a"),
             ("the dog is ", "good"), ("hot is the", " opposite of cold ."), ("the dog is", " a cat")]


def test_prefix_tree_feeds_a_shared_prefix_once():
    from wordbench.scorers.models.trie import ancestor_mask, build_trie, subtree_ends

    seqs = [[1, 2, 3], [1, 2, 4, 5], [1, 2, 3], [7], [], [1, 2]]
    trie = build_trie(seqs)
    assert len(trie.tokens) == 6  # 1 2 3 | 4 5 | 7
    for seq, path in zip(seqs, trie.paths):
        assert [trie.tokens[p] for p in path] == seq and [trie.depths[p] for p in path] == list(range(len(seq)))
        assert all(trie.parents[b] == a for a, b in zip(path, path[1:])) and (not path or trie.parents[path[0]] == -1)
    assert trie.paths[0] == trie.paths[2] and trie.paths[5] == trie.paths[1][:2]
    mask = ancestor_mask(torch.tensor([subtree_ends(trie.parents)]))[0]
    four = trie.paths[1][2]  # sees 1, 2 and itself, not its sibling 3
    assert mask[four].nonzero().squeeze(-1).tolist() == sorted(trie.paths[1][:3])
    for node in range(len(trie.tokens)):  # every node: itself and the nodes up its parent chain, nothing else
        chain, at = {node}, trie.parents[node]
        while at >= 0:
            chain, at = chain | {at}, trie.parents[at]
        assert set(mask[node].nonzero().squeeze(-1).tolist()) == chain


def test_ancestor_mask_of_random_forests_is_the_parent_chain():
    """Preorder subtree ends give each node exactly its parent chain, in random trees laid side by side as rows
    pack them (``forest``), filler included (it sees itself alone)."""
    import random

    from wordbench.scorers.models.trie import ancestor_mask, build_trie, forest, subtree_ends

    rng = random.Random(0)
    for _ in range(50):
        tries = [build_trie([[rng.randrange(4) for _ in range(rng.randrange(6))] for _ in range(rng.randrange(1, 7))])
                 for _ in range(rng.randrange(1, 4))]
        row = forest(tries)
        width = len(row.tokens) + 3  # filler after the trees
        ends = torch.arange(1, width + 1).unsqueeze(0).clone()
        ends[0, : len(row.tokens)] = torch.tensor(subtree_ends(row.parents), dtype=torch.long)
        mask = ancestor_mask(ends)[0]
        parents = row.parents + [-1] * 3
        for node in range(width):
            chain, at = {node}, parents[node]
            while at >= 0:
                chain, at = chain | {at}, parents[at]
            assert set(mask[node].nonzero().squeeze(-1).tolist()) == chain


@pytest.mark.parametrize("name", ["gpt2", "llama"])
def test_packed_rows_score_as_padded_rows(models, name):
    """Short texts side by side in one row (positions restarting), continuations of one context beside each other
    after it (a 4D mask), score as one text per padded row with the shared context cached."""
    model = models[name]
    assert model.packs
    packed = model.sequence_logprobs(SENTENCES)
    model.__dict__["packs"] = False
    try:
        padded = model.sequence_logprobs(SENTENCES)
    finally:
        del model.__dict__["packs"]
    for a, b in zip(packed, padded):
        assert a.tokens == b.tokens and a.offsets == b.offsets
        np.testing.assert_allclose(a.logprobs, b.logprobs, atol=1e-5)


@pytest.mark.parametrize("packed", [True, False])
def test_no_texts_score_to_no_scores(models, packed):
    model = models["llama"]
    model.__dict__["packs"] = packed
    try:
        assert model.sequence_logprobs([]) == []
    finally:
        del model.__dict__["packs"]


def test_model_that_ignores_positions_is_not_packed(tiny_models):
    """A model whose forward drops position_ids would let packed texts see each other: the probe finds it
    and the model scores padded rows, with the same values as before."""
    model = load_model(str(tiny_models["llama"]), device="cpu", batch_size=4)
    expected = [s.logprobs for s in model.sequence_logprobs(SENTENCES)]
    model = load_model(str(tiny_models["llama"]), device="cpu", batch_size=4)
    forward = model.model.forward
    model.model.forward = lambda **kw: forward(**{k: v for k, v in kw.items() if k != "position_ids"})
    assert not model.packs
    for got, want in zip(model.sequence_logprobs(SENTENCES), expected):
        np.testing.assert_allclose(got.logprobs, want, atol=1e-5)


@pytest.mark.parametrize("packed", [True, False])
def test_text_longer_than_the_positions_is_refused(models, packed):
    """gpt2's 64 positions: a longer text stops with one line naming the sizes, packed rows or padded."""
    model = models["gpt2"]
    model.__dict__["packs"] = packed
    try:
        with pytest.raises(ModelError, match=r"an input of \d+ tokens is longer than .* can take \(64\)"):
            model.sequence_logprobs(["the dog is a pet . " * 20, "a"])
    finally:
        del model.__dict__["packs"]


# --- the fused head: head and log-sum-exp a block of vocabulary at a time ---------------------------
SOURCES = [("the dog is a pet .", "der Hund ist ein Haustier ."), ("the dog is a pet .", "der Hund ist eine Katze ."), ("a cat", "eine Katze")]


def _scores(model, name):
    if model.family == "seq2seq":
        return model.conditional_logprobs([s for s, _ in SOURCES], [t for _, t in SOURCES])
    return [s.logprobs for s in model.sequence_logprobs(PAIRS)]


@pytest.mark.parametrize("block", [(3, 7), (3, 10**6)], ids=["vocabulary-blocks", "one-vocabulary-block"])
@pytest.mark.parametrize("name", ["gpt2", "llama", "marian", "bart", "t5"])
def test_fused_head_scores_as_the_models_own_logits(tiny_models, monkeypatch, name, block):
    """Small blocks (3 positions x 7 vocabulary entries), so every sum crosses blocks, and blocks of the whole vocabulary
    (CUDA's layout: one log-softmax kernel); Marian's and BART's ``final_logits_bias`` made non-zero, so a fused head
    that left it out would fail."""
    from wordbench.scorers.models import base

    model = load_model(str(tiny_models[name]), device="cpu", batch_size=4)
    if hasattr(model.model, "final_logits_bias"):
        torch.manual_seed(1)
        model.model.final_logits_bias.normal_()
    monkeypatch.setitem(base.HEAD_BLOCK, "cpu", block)
    model.fused_head = False
    want = _scores(model, name)
    model.fused_head = None
    got = _scores(model, name)
    assert model.fused_head is True
    np.testing.assert_allclose(np.concatenate([np.ravel(x) for x in got]), np.concatenate([np.ravel(x) for x in want]), atol=1e-5)


def test_a_head_followed_by_more_than_a_bias_is_not_fused(tiny_models):
    """A model that scales its logits after the head (as Cohere's logit_scale) fails the first call's check and
    keeps its own logits: the values are the scaled model's."""
    model = load_model(str(tiny_models["llama"]), device="cpu", batch_size=4)
    model.model.get_output_embeddings().register_forward_hook(lambda module, args, out: out * 0.5)
    got = model.sequence_logprobs(["the cat is a pet ."])[0]
    assert model.fused_head is False
    ids = model.encode("the cat is a pet .").ids
    want = _full_logprobs(model, ids)[torch.arange(len(ids) - 1), torch.tensor(ids[1:])]
    np.testing.assert_allclose(got.logprobs, want.numpy(), atol=1e-5)


@pytest.mark.parametrize("name", ["llama", "marian"])
def test_half_precision_models_probe_their_layouts_in_float32(tiny_models, name):
    """bf16 rounding moves log-probs more than the layout probes' 1e-4 (0.17 nats for SmolLM2), which left every
    bf16 run, a GPU's default, on padded rows: the probe now runs in float32 and the weights come back bit-exact."""
    model = load_model(str(tiny_models[name]), device="cpu", batch_size=4, dtype="bfloat16")
    before = {k: v.clone() for k, v in model.model.state_dict().items()}
    dtypes = {k: v.dtype for k, v in [*model.model.named_parameters(), *model.model.named_buffers()]}
    if name == "llama":  # a bf16 load keeps RoPE's inv_freq (a non-persistent buffer) in float32; so must the probe
        assert dtypes["model.rotary_emb.inv_freq"] == torch.float32
    seen, compared_in = [], []
    hook = model.model.register_forward_pre_hook(lambda module, args: seen.append(module.dtype))
    agree = model.scores_agree
    model.scores_agree = lambda got, want: compared_in.append(model.model.dtype) or agree(got, want)
    assert (model.packs if name == "llama" else model.trees) is True
    hook.remove()
    assert seen and set(seen) == {torch.float32} and set(compared_in) == {torch.float32}  # compared at float32's tolerance
    assert model.model.dtype == torch.bfloat16
    assert {k: v.dtype for k, v in [*model.model.named_parameters(), *model.model.named_buffers()]} == dtypes
    assert all(torch.equal(before[k], v) for k, v in model.model.state_dict().items())


def test_the_fused_heads_first_call_is_one_forward_pass_and_a_token_past_the_head_is_refused(tiny_models):
    """The first call reads the model's own logits and the states for the fused head from one pass (a forward that
    changes state, as a continued cache, runs once); a target id past the head's rows raises, not garbage."""
    model = load_model(str(tiny_models["llama"]), device="cpu", batch_size=4)
    model.__dict__["packs"] = False
    calls = []
    hook = model.model.register_forward_pre_hook(lambda module, args: calls.append(1))
    model.sequence_logprobs(["the cat is a pet ."])
    hook.remove()
    assert model.fused_head is True and len(calls) == 1
    with pytest.raises(ModelError, match="outside"):
        model.fused_logprobs(torch.zeros(1, model.model.config.hidden_size), torch.tensor([model.model.config.vocab_size]))


def test_a_cache_goes_by_the_name_the_model_takes():
    """transformers 5 renames forward's ``past_key_values`` to ``cache`` (the old name goes in 5.40): every path that
    hands a KV cache to a model uses the name its forward declares, and reads the cache back under either name."""
    from types import SimpleNamespace

    from wordbench.scorers.models.base import cache_out, with_cache

    class Renamed:
        def forward(self, input_ids=None, cache=None, **kwargs): ...

    class Older:
        def forward(self, input_ids=None, past_key_values=None, **kwargs): ...

    assert with_cache(Renamed(), "kv") == {"cache": "kv"} and with_cache(Older(), "kv") == {"past_key_values": "kv"}
    assert cache_out(SimpleNamespace(cache="new")) == "new" and cache_out(SimpleNamespace(past_key_values="old")) == "old"
    import inspect

    import wordbench.scorers.models as models

    for module in ("causal", "seq2seq", "decode"):
        source = inspect.getsource(__import__(f"{models.__name__}.{module}", fromlist=["_"]))
        assert "past_key_values=" not in source and ".past_key_values" not in source, module

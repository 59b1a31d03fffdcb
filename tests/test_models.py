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

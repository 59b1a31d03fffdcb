"""The batch pipeline: batch k+1 is prepared while batch k computes, with results identical to the steps in turn."""

import time

import numpy as np
import pytest
import torch

from wordbench.scorers.models import load_model
from wordbench.scorers.models.batching import BatchSizer, Deferred

HOST_S = DEVICE_S = 0.08  # a stand-in batch: this long to prepare on the host, this long on the "device"
BATCHES = 8


def _timed_run(overlap: bool, deferred: bool) -> tuple[float, list]:
    """N batches whose preparation and computation each sleep a fixed time (sleep, as a device kernel, frees the GIL)."""
    sizer = BatchSizer(2, torch.device("cpu"), overlap=overlap)

    def prepare(batch):
        time.sleep(HOST_S)
        return [x * 3 for x in batch]

    def compute(prepared):
        if deferred:  # the device's work is queued; the host waits for it when the results are read
            done = time.perf_counter() + DEVICE_S
            return Deferred(lambda: time.sleep(max(0.0, done - time.perf_counter())) or [x + 1 for x in prepared])
        time.sleep(DEVICE_S)
        return [x + 1 for x in prepared]

    items = list(range(2 * BATCHES))
    t0 = time.perf_counter()
    out = sizer.run(items, [1 + i % 5 for i in items], compute, prepare=prepare)
    return time.perf_counter() - t0, out


@pytest.mark.parametrize("deferred", [False, True])
def test_overlap_takes_the_longer_of_host_and_device_per_batch(deferred):
    serial_s, serial = _timed_run(False, deferred)
    overlap_s, overlapped = _timed_run(True, deferred)
    assert overlapped == serial == [3 * x + 1 for x in range(2 * BATCHES)]
    summed, longest = BATCHES * (HOST_S + DEVICE_S), BATCHES * max(HOST_S, DEVICE_S)
    assert serial_s >= summed * 0.98
    # max(host, device) x N plus the first batch's preparation; generous on a loaded machine, still well under the sum
    assert overlap_s < longest + HOST_S + 0.35 * summed, (overlap_s, longest, summed)


def test_overlap_backs_off_on_oom_and_keeps_order():
    sizer = BatchSizer("auto", torch.device("cuda"))
    calls = []

    def compute(prepared):
        calls.append(len(prepared))
        if len(prepared) > 64:
            raise torch.cuda.OutOfMemoryError("fake")
        return Deferred(lambda: [x * 2 for x in prepared])

    items = list(range(300))
    assert sizer.run(items, [1] * 300, compute, prepare=lambda b: list(b)) == [x * 2 for x in items]
    assert sizer.size == 64 and calls[:3] == [256, 128, 64]


def test_a_failing_preparation_is_raised():
    sizer = BatchSizer(2, torch.device("cpu"))

    def prepare(batch):
        if 3 in batch:
            raise ValueError("bad item 3")
        return batch

    with pytest.raises(ValueError, match="bad item 3"):
        sizer.run(list(range(8)), [1] * 8, lambda b: b, prepare=prepare)


@pytest.fixture(scope="module")
def models(tiny_models):
    names = ("gpt2", "llama", "bert", "t5", "marian")
    return {name: load_model(str(tiny_models[name]), device="cpu", batch_size=3) for name in names if name in tiny_models}


PAIRS = [("the dog is", " a pet ."), ("the dog is", " a cat"), ("the dog is", " good and the cat is bad ."), ("a", " dog"), ("a", " cat"),
         "the cat is a pet .", ("good is the opposite of", " bad"), ("the dog is", ""), "hot is cold", ("the", " cat sat on the mat .")]
CONTEXTS = ["the dog is a", "a", "good is the opposite of bad and hot is the opposite of", "the cat", "the dog", "hot is"]


def _both(model, fn):
    """``fn(model)`` with the pipeline overlapping, then with its steps in turn (after a first call that settles the
    model's one-time checks: the fused head, packed rows)."""
    fn(model)
    outs = []
    for overlap in (True, False):
        model.sizer.overlap = overlap
        try:
            outs.append(fn(model))
        finally:
            model.sizer.overlap = True
    return outs


@pytest.mark.parametrize("name", ["gpt2", "llama", "bert"])
def test_scores_identical_item_by_item_with_and_without_overlap(models, name):
    model = models[name]
    a, b = _both(model, lambda m: m.sequence_logprobs(PAIRS))
    assert [(x.tokens, x.offsets, x.logprobs) for x in a] == [(x.tokens, x.offsets, x.logprobs) for x in b]
    a, b = _both(model, lambda m: m.next_token_logprobs(CONTEXTS))
    assert np.array_equal(a, b)
    a, b = _both(model, lambda m: m.topk_next(CONTEXTS, 5, word_start_only=True))
    assert all(np.array_equal(x[0], y[0]) and np.array_equal(x[1], y[1]) for x, y in zip(a, b))
    spans = [(0, 3)] * len(CONTEXTS[:4])
    a, b = _both(model, lambda m: m.hidden_states(["the dog is", "a cat", "good is bad", "the cat sat"], spans, pool="mean"))
    assert np.array_equal(a, b)


def test_shared_context_batches_identical_with_and_without_overlap(models):
    model = models["gpt2"]
    model.__dict__["packs"] = False  # padded rows with a shared context's cache (``_score_shared``)
    try:
        a, b = _both(model, lambda m: m.sequence_logprobs(PAIRS))
    finally:
        del model.__dict__["packs"]
    assert [x.logprobs for x in a] == [x.logprobs for x in b]


@pytest.mark.parametrize("name", ["t5", "marian"])
def test_conditional_scores_identical_with_and_without_overlap(models, name):
    if name not in models:
        pytest.skip(f"no tiny {name}")
    model = models[name]
    sources = ["the dog is a pet .", "the dog is a pet .", "a cat", "hot is cold", "the cat sat"]
    targets = ["der Hund", "der Hunde", "eine Katze", "heiss ist kalt", "die Katze sass"]
    a, b = _both(model, lambda m: m.conditional_logprobs(sources, targets))
    assert a == b


@pytest.mark.parametrize("name", ["gpt2", "llama", "t5"])
@pytest.mark.parametrize("strategy", ["ancestral", "nucleus", "beam"])
def test_samples_do_not_depend_on_the_batch_size(models, name, strategy):
    if name not in models:
        pytest.skip(f"no tiny {name}")
    model = models[name]
    prompts = ["", "", "the dog", "", "a cat is", ""]
    seeds = [11, 12, 13, 14, 15, 16]
    kw = dict(max_new_tokens=6, top_p=0.9, beams=3)
    model.batch_size = len(prompts)
    try:
        together = model.generate(prompts, strategy, seed=seeds, **kw)
        model.batch_size = 1
        alone = [model.generate([p], strategy, seed=[s], **kw)[0] for p, s in zip(prompts, seeds)]
        model.batch_size = 4
        derived = model.generate(prompts, strategy, seed=7, **kw)
        model.batch_size = 2
        derived_small = model.generate(prompts, strategy, seed=7, **kw)
    finally:
        model.batch_size = 3
    assert together == alone
    assert derived == derived_small
    # the seeds matter: the unconditional samples are not all one text (a random tiny model spreads its mass)
    assert len({g.text for g, p in zip(together, prompts) if not p}) > 1 or strategy == "beam"
    assert [g.text for g in model.generate(prompts[:2], strategy, seed=[11, 11], **kw)] == [together[0].text] * 2

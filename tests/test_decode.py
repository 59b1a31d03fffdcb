"""Continuous batching (``scorers/models/decode.py``): the decoder's outputs equal ``generate`` on one prompt at a
time for every strategy, whatever the budget (prompts joining as others end, prompts evicted and restarted), and
``plan`` counts the decoder's own steps from lengths alone."""

import pytest
import torch

from wordbench.scorers.models import decode
from wordbench.scorers.models.causal import finish_generation, sample_seeds
from wordbench.scorers.models.decode import Budget, Decoder, Request, batch_plan, plan

PROMPTS = ["", "the dog", "a cat is an animal and", "", "good is the", "hot", "the tree and the flower grow . a rose", "an oak",
           "someone who is happy is not sad . something"]
STRATEGIES = [("ancestral", 1, 0.95), ("nucleus", 1, 0.8), ("greedy", 1, 0.95), ("beam", 3, 0.95), ("beam_search", 4, 0.95),
              ("beam", 1, 0.95), ("beam_search", 1, 0.95)]  # one beam: transformers samples, or searches greedily


@pytest.fixture(scope="module")
def causal(tiny_models):
    from wordbench.scorers.models import load_model

    return {name: load_model(str(tiny_models[name]), device="cpu") for name in ("gpt2", "llama")}


def _one_at_a_time(model, items, strategy, max_new, top_p, beams, stops):
    return [model._generate_batched([item], strategy, max_new, top_p, beams, stops)[0] for item in items]


@pytest.mark.parametrize("name", ["gpt2", "llama"])
@pytest.mark.parametrize("strategy,beams,top_p", STRATEGIES)
def test_continuous_decoding_equals_one_prompt_at_a_time(causal, name, strategy, beams, top_p, monkeypatch):
    model = causal[name]
    assert model.continuous
    request = Request(strategy, 30, top_p, beams, model.stop_ids())
    items = list(zip([model.encode(p).ids for p in PROMPTS], sample_seeds(5, len(PROMPTS))))
    want = _one_at_a_time(model, items, strategy, 30, top_p, beams, request.stops)
    rows = request.rows
    monkeypatch.setattr(decode, "HEADROOM", 4)  # rows outgrow what they were admitted with: the newest are evicted
    budgets = {"all at once": (Budget(100 * rows), {}),
               "two at a time, selecting one prompt at a time": (Budget(2 * rows, select=1), {}),
               "tight cache": (Budget(4 * rows, 4 * rows * 24), {}),
               "tight cache, reserving the lengths seen": (Budget(4 * rows, 4 * rows * 24, 2 * rows), {"SEEN": 2})}
    restarts = 0
    for label, (budget, settings) in budgets.items():
        for name_, value in settings.items():
            monkeypatch.setattr(decode, name_, value)
        decoder = Decoder(model.model, model.device, model.pad_id, budget)
        with torch.inference_mode():
            got = decoder.run([ids for ids, _ in items], [s for _, s in items], request)
        assert [finish_generation(model.tokenizer, row, request.stops) for row in got] == want, label
        restarts += decoder.stats.restarts
        if label == "all at once":
            assert decoder.stats.prefill_passes == 1 and decoder.stats.decode_steps == max(decoder.ends) - 1
        # the layout alone, from the lengths the prompts ended at, gives the decoder's own steps
        assert plan([len(ids) for ids, _ in items], decoder.ends, rows, budget, 30) == decoder.stats, label
    assert restarts > 0
    # the texts differ between prompts and seeds: the check compares real work
    assert len({g.text for g in want}) > 2 or strategy in ("greedy", "beam_search")


def test_generate_uses_the_continuous_decoder_and_counts_its_steps(causal):
    model = causal["llama"]
    before = model.decoding.decode_steps
    out = model.generate(PROMPTS, "ancestral", max_new_tokens=12, seed=1)
    assert len(out) == len(PROMPTS) and model.decoding.decode_steps > before
    model.batch_size = 2
    try:
        assert model.generate(PROMPTS, "ancestral", max_new_tokens=12, seed=1) == out
    finally:
        model.batch_size = "auto"


@pytest.mark.parametrize("faithful", [False, True])
def test_scorers_generate_alike_with_either_decoder(causal, tmp_path, faithful):
    """Translations (minpairs, prompted causal beam search) and tendencies' samples, continuous or ``generate``."""
    from wordbench.scorers.translate import DEFAULT_PROMPT, translate

    model = causal["gpt2"]
    sources = ["the dog is a kind of animal .", "a poodle is a dog .", "hot is the opposite of cold ."]
    continuous = translate(model, sources, beam=3, prompt=DEFAULT_PROMPT, max_new_tokens=12)
    samples = model.generate(["", "the cat"], "nucleus", max_new_tokens=10, top_p=0.9, seed=[3, 4], stop_at_newline=faithful)
    model.__dict__["continuous"] = False
    try:
        assert translate(model, sources, beam=3, prompt=DEFAULT_PROMPT, max_new_tokens=12) == continuous
        assert model.generate(["", "the cat"], "nucleus", max_new_tokens=10, top_p=0.9, seed=[3, 4], stop_at_newline=faithful) == samples
    finally:
        del model.__dict__["continuous"]


def test_a_batched_layout_runs_to_its_longest_output_and_the_continuous_one_refills():
    prompts, outputs = [10] * 40, [200] + [5] * 39  # one runaway among short outputs
    fixed = batch_plan(prompts, outputs, 5, [list(range(k, k + 8)) for k in range(0, 40, 8)])
    assert fixed.decode_steps == 4 * 4 + 199
    continuous = plan(prompts, outputs, 5, Budget(8 * 5))
    assert continuous.decode_steps == 199 and continuous.sequential_passes < fixed.sequential_passes


def test_admission_reserves_the_output_lengths_seen_not_a_fixed_headroom(monkeypatch):
    """Once a call has finished ``SEEN`` prompts, a joining prompt reserves the cache to reach their usual length, so
    more prompts share a step than under the fixed headroom; a prompt outgrowing it evicts the newest, which restart."""
    prompts, budget = [10] * 200, Budget(1000, 16 * 20)
    short = plan(prompts, [5] * 200, 1, budget, 64)
    monkeypatch.setattr(decode, "SEEN", 10**9)
    headroom = plan(prompts, [5] * 200, 1, budget, 64)
    assert short.decode_steps * 2 < headroom.decode_steps and short.restarts == headroom.restarts == 0
    assert short.rows_per_step > 2 * headroom.rows_per_step
    monkeypatch.undo()
    runaways = plan(prompts, [5] * 190 + [40] * 10, 1, budget, 64)
    assert runaways.restarts > 0 and runaways.row_steps >= 190 * 4 + 10 * 39


def test_a_memory_budget_leaves_room_for_one_chunk_of_selection_and_each_rows_logits():
    free, per_token, vocab = 60e9, 131072, 128256
    budget = Budget.for_memory(free, per_token, vocab)
    assert budget.rows == decode.ROWS_CUDA
    assert budget.select == decode.SELECT_ROWS
    used = budget.tokens * per_token + budget.rows * vocab * decode.LOGIT_BYTES + budget.select * vocab * decode.SELECT_BYTES
    assert free * decode.CUDA_SHARE - per_token < used <= free * decode.CUDA_SHARE
    small = Budget.for_memory(2e9, per_token, vocab)  # a small device: smaller chunks and fewer rows, still a cache
    assert small.select < decode.SELECT_ROWS and small.rows < decode.ROWS_CUDA and small.tokens * per_token > 0.2e9


def test_forced_ends_decode_each_prompt_to_its_given_length(causal):
    """The GPU check prices random-weight shapes on the lengths a real model produced: each prompt ends at its step."""
    model = causal["llama"]
    items = [model.encode(p).ids for p in PROMPTS]
    ends = [1, 5, 3, 12, 7, 2, 9, 4, 6]
    for strategy, beams in (("ancestral", 1), ("beam_search", 3)):
        decoder = Decoder(model.model, model.device, model.pad_id, Budget(4 * beams))
        with torch.inference_mode():
            out = decoder.run(items, list(range(len(items))), Request(strategy, 12, 1.0, beams, model.stop_ids(), ends=ends))
        assert decoder.ends == ends and [len(row) for row in out] == ends
        assert plan([len(i) for i in items], ends, beams, Budget(4 * beams), 12) == decoder.stats
    with pytest.raises(ValueError, match="forced end"):
        Decoder(model.model, model.device, model.pad_id, Budget(4)).run(items[:1], [0], Request("greedy", 3, 1.0, 1, set(), ends=[4]))


def test_out_of_memory_restarts_the_call_at_half_the_budget(causal, monkeypatch):
    model = causal["gpt2"]
    request = Request("beam", 10, 1.0, 2, model.stop_ids())
    items = [model.encode(p).ids for p in PROMPTS]
    decoder = Decoder(model.model, model.device, model.pad_id, Budget(8))
    with torch.inference_mode():
        want = decoder.run(items, list(range(len(items))), request)
    forward, calls = Decoder._forward, [0]

    def failing_once(self, *args):
        calls[0] += 1
        if calls[0] == 3:
            raise torch.cuda.OutOfMemoryError("CUDA out of memory (simulated)")
        return forward(self, *args)

    monkeypatch.setattr(Decoder, "_forward", failing_once)
    decoder = Decoder(model.model, model.device, model.pad_id, Budget(8))
    with torch.inference_mode():
        assert decoder.run(items, list(range(len(items))), request) == want
    assert decoder.oom_retries == 1 and decoder.budget == Budget(4)
    assert plan([len(i) for i in items], decoder.ends, 2, Budget(4), 10) == decoder.stats  # the attempt that finished


def test_the_checkpoints_own_generation_settings_are_not_used(causal):
    model = causal["llama"]
    items = list(zip([model.encode(p).ids for p in PROMPTS], sample_seeds(2, len(PROMPTS))))
    ours = model.generate(PROMPTS, "beam", max_new_tokens=12, beams=3, seed=2)
    model.model.generation_config.early_stopping = True
    try:
        assert _one_at_a_time(model, items, "beam", 12, 0.95, 3, model.stop_ids()) == ours
    finally:
        model.model.generation_config.early_stopping = False


@pytest.mark.parametrize("bad", [dict(beams=0), dict(max_new_tokens=0), dict(top_p=0.0), dict(top_p=1.5)])
def test_impossible_settings_are_refused_in_one_line(causal, bad):
    kw = {"max_new_tokens": 4, "beams": 2, "top_p": 0.9, **bad}
    with pytest.raises(ValueError, match="must be >= 1") as info:
        causal["gpt2"].generate(["the dog"], "beam" if "beams" in bad else "nucleus", **kw)
    assert "\n" not in str(info.value)

"""perf/limit.py's arithmetic: the FLOPs a workload needs and the per-round fraction of the limit."""

import sys
from pathlib import Path

import pytest
import torch

sys.path.insert(0, str(Path(__file__).parents[1] / "perf"))
import limit  # noqa: E402


def test_needed_flops_counts_body_attention_and_head(tiny_models):
    import transformers

    config = transformers.AutoConfig.from_pretrained(tiny_models["llama"])
    d, ff, layers, vocab = config.hidden_size, config.intermediate_size, config.num_hidden_layers, config.vocab_size
    need = limit.needed_flops(config, [0, 1, 2, 0, 1, 2, 3, 4], scored=6)  # two texts of 3 and 5 tokens
    # q, k, v, o are d x d (no grouped heads here), gate/up/down d x ff: 2 FLOPs per multiply-add
    assert need["body"] == 2 * layers * (4 * d * d + 3 * d * ff) * 8
    assert need["attention"] == layers * 4 * d * (1 + 2 + 3 + 1 + 2 + 3 + 4 + 5)  # the k + 1 keys of the token at depth k
    assert need["head"] == 2 * d * vocab * 6


def test_workload_shape_counts_a_shared_context_and_prefix_once(tiny_models):
    from wordbench.scorers.models import load_model

    model = load_model(str(tiny_models["llama"]), device="cpu")
    depths, scored = limit.workload_shape(model, [("the dog is", " a pet"), ("the dog is", " a cat"), "hot is"])
    context = len(model.encode("the dog is").ids)
    pet, cat = (model.tokenizer(t, add_special_tokens=False)["input_ids"] for t in (" a pet", " a cat"))
    shared = next(i for i, (a, b) in enumerate(zip(pet, cat)) if a != b)
    fed = len(pet) - 1 + len(cat) - 1 - min(shared, len(pet) - 1, len(cat) - 1)  # fed but their last, the common start once
    hot = len(model.tokenizer("hot is", add_special_tokens=False)["input_ids"])
    assert len(depths) == context + fed + hot - 1  # BOS is shared by every text: "hot is" adds its first token only
    assert sorted(depths)[:2] == [0, 1] and depths.count(0) == 1
    assert scored == 1 + fed + hot  # the dog context's last token and the fed continuation tokens; BOS and "hot"


def test_rounds_interleave_the_limit_and_the_workload(tiny_models):
    from wordbench.scorers.models import load_model

    model = load_model(str(tiny_models["llama"]), device="cpu")
    calls = []
    rate = lambda: calls.append("limit") or 1e9  # noqa: E731
    original = model.sequence_logprobs
    model.sequence_logprobs = lambda items: calls.append("score") or original(items)
    runs = limit.measure(model, ["the dog is a pet ."], rate, rounds=3)
    assert calls == ["score", "limit", "score", "limit", "score", "limit", "score"]  # a warm-up, then pairs
    assert runs["rates"] == [1e9] * 3 and len(runs["times"]) == 3 and all(t > 0 for t in runs["times"])


def test_gemm_rate_is_measured_on_the_model_shapes(tiny_models):
    import transformers

    config = transformers.AutoConfig.from_pretrained(tiny_models["llama"])
    rate, rows = limit.gemm_rate(config, torch.float32, "cpu", reps=1)
    assert rate > 1e6 and rows in limit.ROWS

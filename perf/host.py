"""The host's share of scoring: what a GPU waits for while ``sequence_logprobs`` prepares its batches.

The GPU check's three speed workloads (``perf/gpu_check_data.json``: 1,024 sentences, 1,024 conditional pairs,
1,016 candidate words) go through ``sequence_logprobs`` with SmolLM2's tokenizer and the batch settings a GPU gets
(256 rows, 65,536 tokens, rows packed 512 wide), with the model's work taken out: the forward pass and the head
return at once (zeros of the right length). What is left is the host's own work: tokenizing, grouping, the packed-row
layout, prefix trees and ancestor masks, the index tensors, splitting the results, the tokens' strings. Per workload
the median of ``--rounds`` in microseconds per item, and the functions that take most of one profiled round.

    python perf/host.py [--rounds 5]     # writes perf/results/host.json

The GPU check's limit step measured the same workloads' GPU kernel time on the 1B shape (``perf/results/gpu.json``):
a host above that per item keeps the GPU waiting whatever the pipeline overlaps.
"""

from __future__ import annotations

import argparse
import cProfile
import json
import pstats
import statistics
import time
from pathlib import Path

import torch

from common import machine, write_result

HERE = Path(__file__).resolve().parent


def host_model():
    """A one-layer Llama of width 32 with SmolLM2's tokenizer, batched as on a GPU, its model work stubbed out."""
    import transformers

    from wordbench.benchmarks.cli import packaged_smollm2
    from wordbench.scorers.models.base import ModelInfo
    from wordbench.scorers.models.causal import CausalLM

    gguf = packaged_smollm2()
    tokenizer = transformers.AutoTokenizer.from_pretrained(str(gguf.parent), gguf_file=gguf.name)
    config = transformers.LlamaConfig(vocab_size=len(tokenizer), hidden_size=32, intermediate_size=64, num_hidden_layers=1,
                                      num_attention_heads=2, num_key_value_heads=1, max_position_embeddings=2048,
                                      bos_token_id=tokenizer.bos_token_id, eos_token_id=tokenizer.eos_token_id)
    torch.manual_seed(0)
    model = CausalLM(transformers.LlamaForCausalLM(config).eval(), tokenizer, ModelInfo("host-stand-in", "random-init", "causal", "float32"),
                     torch.device("cpu"), "auto")
    model.sizer.size, model.sizer.tokens, model.sizer.pack_width = 256, 65536, 512  # AUTO_START_CUDA, AUTO_TOKENS_CUDA, PACK_WIDTH_CUDA
    model.packs  # the layout probe runs the real model once, before the stub
    model.head_logprobs = lambda rows, cols, forward, targets, index=None: torch.zeros(len(targets))
    return model


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=5)
    args = ap.parse_args()
    model = host_model()
    data = json.loads((HERE / "gpu_check_data.json").read_text())["workloads"]
    result = {"benchmark": "the host's work in sequence_logprobs, the model's work stubbed out (what a GPU waits for)",
              "tokenizer": "SmolLM2-135M (the packaged GGUF's)", "batch": {"rows": 256, "tokens": 65536, "pack_width": 512},
              "rounds": args.rounds, "workloads": {}}
    for kind, raw in data.items():
        items = raw if kind == "sentence" else [tuple(p) for p in raw]
        model.sequence_logprobs(items)  # warm-up
        times = []
        for _ in range(args.rounds):
            t0 = time.perf_counter()
            model.sequence_logprobs(items)
            times.append(time.perf_counter() - t0)
        profile = cProfile.Profile()
        profile.enable()
        model.sequence_logprobs(items)
        profile.disable()
        stats = pstats.Stats(profile).stats  # (file, line, name) -> (calls, primitive calls, own time, cumulative, callers)
        top = sorted(stats.items(), key=lambda kv: -kv[1][2])[:6]
        seconds = statistics.median(times)
        result["workloads"][kind] = {
            "items": len(items), "median_s": round(seconds, 4), "us_per_item": round(1e6 * seconds / len(items), 1),
            "round_s": [round(t, 4) for t in times],
            "profiled_own_ms": {f"{Path(f).name}:{line}({name})": round(1e3 * v[2], 1) for (f, line, name), v in top},
        }
        print(kind, json.dumps(result["workloads"][kind]), flush=True)
    result["machine"] = machine()
    write_result("host", None, result)


if __name__ == "__main__":
    main()

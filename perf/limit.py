"""How close scoring gets to the machine's limit: for each workload, the FLOPs it needs, the device's measured
GEMM rate on the model's own shapes and dtype, and the fraction of that limit wordbench reaches.

    python perf/peers.py prepare          # once: the fp32 SmolLM2 folder and the inputs (shared with peers.py)
    python perf/limit.py [--dtype float32|bfloat16] [--device cpu|cuda] [--rounds 5]

Needed FLOPs count the least work any implementation must do: the body (2 x the non-embedding weights per token
fed, whatever the texts share fed once: their prefix tree), attention (QK^T and AV over the tokens each one sees),
and the LM head only at the distinct positions read. The limit is the best rate of those same matrix products (one layer's and the head's,
64 to 2048 rows each; the best rows are then kept), timed in the same process and threads right before each
scoring round, so that a busy machine lowers both; on CUDA the same script gives MFU against the measured matmul
rate. fraction = (needed / that round's rate) / that round's wall time, the median over rounds. Results go to
perf/results/limit[-bfloat16][-cuda].json.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time

import torch

from common import machine, timed, write_result
from peers import INPUTS, MODEL_DIR


def shapes(config) -> dict[str, tuple[int, int]]:
    """(in, out) of every matrix a token goes through in one decoder layer (Llama-style: GQA, gated MLP)."""
    d, ff = config.hidden_size, config.intermediate_size
    kv = d // config.num_attention_heads * getattr(config, "num_key_value_heads", config.num_attention_heads)
    return {"q": (d, d), "k": (d, kv), "v": (d, kv), "o": (d, d), "gate": (d, ff), "up": (d, ff), "down": (ff, d)}


def needed_flops(config, depths: list[int], scored: int) -> dict[str, float]:
    """Body, attention and head FLOPs for tokens at ``depths`` (each token once, attending to itself and the
    tokens before it) and ``scored`` positions."""
    layers, d = config.num_hidden_layers, config.hidden_size
    per_token = 2 * layers * sum(i * o for i, o in shapes(config).values())
    attention = layers * sum(4 * (k + 1) * d for k in depths)  # QK^T and AV over the k + 1 keys a token sees, 2 FLOPs a product
    head = 2 * d * config.vocab_size * scored
    return {"body": per_token * len(depths), "attention": attention, "head": head, "tokens": len(depths), "scored": scored}


ROWS = (64, 128, 256, 512, 1024, 2048)  # tokens per product: the limit is the best rate over these


def gemm_rate(config, dtype, device, reps: int = 5) -> tuple[float, int]:
    """The device's limit for this model: the best FLOP/s over ``ROWS`` of one layer's matrix products and the
    LM head (median of ``reps`` at each), and the rows where it was reached. Not the workload's own batch
    sizes, which would let a smaller batch lower the limit it is judged against."""
    return max((_rate(config, m, dtype, device, reps), m) for m in ROWS)


def _rate(config, rows: int, dtype, device, reps: int, inner: int = 4) -> float:
    d = config.hidden_size
    mats = [(rows, i, o) for i, o in shapes(config).values()] + [(rows, d, config.vocab_size)]
    ops = [(torch.randn(m, k, dtype=dtype, device=device), torch.randn(k, n, dtype=dtype, device=device)) for m, k, n in mats]
    flops = sum(2 * m * k * n for m, k, n in mats)
    times = []
    with torch.inference_mode():
        for _ in range(reps + 1):  # the first is a warm-up
            sync_device(device)
            t0 = time.perf_counter()
            for _ in range(inner):
                for a, b in ops:
                    a @ b
            sync_device(device)
            times.append((time.perf_counter() - t0) / inner)
    return flops / statistics.median(times[1:])


def sync_device(device) -> None:
    if torch.device(device).type == "cuda":
        torch.cuda.synchronize()


def workload_shape(model, items) -> tuple[list[int], int]:
    """The least any implementation must feed and read, as wordbench encodes the texts: the depth of every token
    of the prefix tree of all texts (a context, then its continuation but its last token: whatever texts share,
    once) and the number of distinct positions read (a context's last token and the continuation's tokens)."""
    from wordbench.scorers.models.trie import build_trie

    texts = []
    for item in items:
        context, cont = model.split_pair(item if isinstance(item, tuple) else ("", item))
        texts.append((model.encode(context).ids, model.tokenizer(cont, add_special_tokens=False)["input_ids"]))
    trie = build_trie([list(head) + tail[: max(len(tail) - 1, 0)] for head, tail in texts])
    read = {node for (head, tail), path in zip(texts, trie.paths) for node in path[len(head) - 1 : len(head) - 1 + len(tail)]}
    return trie.depths, len(read)


def measure(model, items, rate_now, rounds: int) -> dict:
    """``rounds`` interleaved pairs: the limit (``rate_now()``, FLOP/s) then one scoring run, so that both see the
    same machine state; the fraction of each round's limit, and its median."""
    model.sequence_logprobs(items)  # warm-up
    rates, times = [], []
    for _ in range(rounds):
        rates.append(rate_now())
        times.append(timed(model, lambda: model.sequence_logprobs(items))[1])
    return {"rates": rates, "times": times}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--dtype", default="float32", choices=["float32", "bfloat16"])
    ap.add_argument("--device", default="cpu")
    ap.add_argument("--rounds", type=int, default=5)
    args = ap.parse_args()
    from wordbench.scorers.models import load_model

    inputs = json.loads(INPUTS.read_text())
    model = load_model(str(MODEL_DIR), device=args.device, dtype=args.dtype)
    config, dtype = model.model.config, getattr(torch, args.dtype)
    result = {"benchmark": "fraction of the measured GEMM limit reached by wordbench's scoring",
              "model": "SmolLM2-135M-Instruct (packaged GGUF dequantized, peers' inputs)", "dtype": args.dtype,
              "rounds": args.rounds, "workloads": {}}
    _, best_rows = gemm_rate(config, dtype, args.device)
    result["gemm_best_rows"] = best_rows
    rate_now = lambda: _rate(config, best_rows, dtype, args.device, reps=3, inner=1)  # noqa: E731 - the limit again, at its best rows
    for name, items in (("sentence", inputs["sentence"]), ("conditional", [tuple(p) for p in inputs["conditional"]])):
        depths, scored = workload_shape(model, items)
        need = needed_flops(config, depths, scored)
        total = need["body"] + need["attention"] + need["head"]
        runs = measure(model, items, rate_now, args.rounds)
        fractions = [total / r / t for r, t in zip(runs["rates"], runs["times"])]
        wall = statistics.median(runs["times"])
        result["workloads"][name] = {
            "items": len(items), "tokens": need["tokens"], "scored_positions": scored,
            "gflop": {k: round(need[k] / 1e9, 2) for k in ("body", "attention", "head")}, "gflop_total": round(total / 1e9, 2),
            "gemm_gflops_per_round": [round(r / 1e9, 1) for r in runs["rates"]], "wordbench_s_per_round": [round(t, 3) for t in runs["times"]],
            "wordbench_s": round(wall, 3), "wordbench_gflops": round(total / wall / 1e9, 1),
            "fraction_per_round": [round(f, 3) for f in fractions], "fraction_of_limit": round(statistics.median(fractions), 3),
        }
        print(name, json.dumps(result["workloads"][name]), flush=True)
    result["gemm_gflops"] = round(statistics.median(r for w in result["workloads"].values() for r in w["gemm_gflops_per_round"]), 1)
    result["machine"] = machine(model)
    write_result(f"limit-{args.dtype}" if args.dtype != "float32" else "limit", model, result)


if __name__ == "__main__":
    main()

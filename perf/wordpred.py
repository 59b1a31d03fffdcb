"""wordpred: the paper's algorithms as published vs one pass per line with the KV cache, same 50 lines.

The published way runs a full forward pass for every prefix: the context of each word, then context +
path for every greedy step and every top-10 search node, one at a time. Ours runs each batch of lines
once (teacher forcing) and continues only off-line paths from the cached keys/values. Both must give
identical top-1 predictions and hits; the script writes the ratios of wall time and of tokens fed to
the model to perf/results/wordpred.json. Model: the packaged SmolLM2-135M GGUF (or --model).

    python perf/wordpred.py [--model PATH] [--lines 50] [--batch-size auto]
"""

from __future__ import annotations

import argparse
import time

from common import machine, sync, write_result
from wordbench.benchmarks.cli import packaged_smollm2
from wordbench.benchmarks.hub import load_data
from wordbench.benchmarks.runner import select
from wordbench.scorers.models import load_model
from wordbench.scorers.wordpred import predict_words_naive


def count_tokens(model, counter: list[int]):
    """Count the tokens each forward pass feeds to the model (new tokens, padding excluded)."""

    def hook(_module, args, kwargs):
        ids = kwargs.get("input_ids", args[0] if args else None)
        mask = kwargs.get("attention_mask")
        counter[0] += int(mask[:, -ids.shape[1]:].sum()) if mask is not None else ids.numel()

    return model.model.register_forward_pre_hook(hook, with_kwargs=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--model", default=None)
    ap.add_argument("--lines", type=int, default=50)
    ap.add_argument("--batch-size", default="auto")
    ap.add_argument("--device", default="auto")
    args = ap.parse_args()

    _, data = load_data("wordpred", progress=False)
    lines = [list(r["words"]) for r in select(data, "default", "test", limit=args.lines)]
    events = [(n, i) for n, words in enumerate(lines) for i in range(1, len(words))]
    bs = args.batch_size if args.batch_size == "auto" else int(args.batch_size)
    model = load_model(args.model or str(packaged_smollm2()), device=args.device, batch_size=bs)
    model.predict_words(lines[:2], [(0, 1), (1, 1)])  # warm-up (word tables, kernels)

    ours_tokens = [0]
    handle = count_tokens(model, ours_tokens)
    sync(model)
    t0 = time.perf_counter()
    ours = model.predict_words(lines, events)
    sync(model)
    t_ours = time.perf_counter() - t0
    handle.remove()

    naive_tokens = [0]
    t0 = time.perf_counter()
    naive = predict_words_naive(model, lines, events, naive_tokens)
    sync(model)
    t_naive = time.perf_counter() - t0

    same = sum((a.greedy, a.hit1, a.hit10) == (b.greedy, b.hit1, b.hit10) for a, b in zip(ours, naive))
    max_lp_diff = max(abs(a.word_lp - b.word_lp) for a, b in zip(ours, naive))
    result = {
        "benchmark": "wordpred: greedy top-1, top-10 path search and whole-word log-prob for every word of 50 test lines",
        **machine(model),
        "lines": len(lines),
        "events": len(events),
        "batch_size": model.batch_size,
        "published_s": round(t_naive, 2),
        "ours_s": round(t_ours, 2),
        "speedup": round(t_naive / t_ours, 2),
        "published_tokens": naive_tokens[0],
        "ours_tokens": ours_tokens[0],
        "token_ratio": round(naive_tokens[0] / max(1, ours_tokens[0]), 2),
        "ours_events_per_s": round(len(events) / t_ours, 1),
        "identical_predictions_and_hits": f"{same}/{len(events)}",
        "max_word_logprob_difference": round(max_lp_diff, 6),
        "top1_hits": sum(p.hit1 for p in ours),
        "top10_hits": sum(p.hit10 for p in ours),
    }
    write_result("wordpred", model, result)
    if same != len(events):
        raise SystemExit(f"predictions differ on {len(events) - same} events")


if __name__ == "__main__":
    main()

"""WNLaMPro: the same 500 (entry, pattern) queries one at a time (the seed code's way) and batched.

Checks that both give the same target ranks and writes the wall-time ratio to
perf/results/wnlampro.json. Model: the packaged SmolLM2-135M GGUF (or --model).

    python perf/wnlampro.py [--model PATH] [--queries 500] [--batch-size auto]
"""

from __future__ import annotations

import argparse
import time

from common import machine, sync, write_result
from wordbench.benchmarks.cli import packaged_smollm2
from wordbench.benchmarks.hub import load_data
from wordbench.benchmarks.runner import select
from wordbench.scorers.models import load_model
from wordbench.scorers.wnlampro import PATTERNS, WNLaMProScorer, fill, rank_and_precision


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--model", default=None)
    ap.add_argument("--queries", type=int, default=500)
    ap.add_argument("--batch-size", default="auto")
    ap.add_argument("--device", default="auto")
    args = ap.parse_args()

    _, data = load_data("wnlampro", progress=False)
    entries, queries = [], []
    for item in select(data, "default", "test", limit=10_000):
        for pattern in PATTERNS[item["relation"]]:
            if len(queries) == args.queries:
                break
            queries.append((len(entries), *fill(pattern, item["key"])))
        entries.append(item)
        if len(queries) == args.queries:
            break
    bs = args.batch_size if args.batch_size == "auto" else int(args.batch_size)
    model = load_model(args.model or str(packaged_smollm2()), device=args.device, batch_size=bs)
    scorer = WNLaMProScorer()
    lefts, rights = [q[1] for q in queries], [q[2] for q in queries]
    scorer.predicted_words(model, lefts[:4], rights[:4])  # warm-up (word table, kernels)

    sync(model)
    t0 = time.perf_counter()
    batched = scorer.predicted_words(model, lefts, rights)
    sync(model)
    t_batched = time.perf_counter() - t0
    found_bs = model.batch_size

    model.sizer.size, model.sizer.auto = 1, False
    t0 = time.perf_counter()
    single = [scorer.predicted_words(model, [l], [r])[0] for l, r in zip(lefts, rights)]
    sync(model)
    t_single = time.perf_counter() - t0

    def ranks(words):
        return [rank_and_precision([w], entries[q[0]]["targets"])["rank"] for q, w in zip(queries, words)]

    same_ranks = sum(a == b for a, b in zip(ranks(batched), ranks(single)))
    same_top10 = sum(a[:10] == b[:10] for a, b in zip(batched, single))
    result = {
        "benchmark": "wnlampro top-100 word predictions per (entry, pattern) query",
        **machine(model),
        "queries": len(queries),
        "batch_size": found_bs,
        "one_at_a_time_s": round(t_single, 3),
        "batched_s": round(t_batched, 3),
        "speedup": round(t_single / t_batched, 2),
        "batched_queries_per_s": round(len(queries) / t_batched, 1),
        "identical_ranks": f"{same_ranks}/{len(queries)}",
        "identical_top10": f"{same_top10}/{len(queries)}",
    }
    write_result("wnlampro", model, result)
    if same_ranks != len(queries):
        raise SystemExit(f"ranks differ on {len(queries) - same_ranks} queries")


if __name__ == "__main__":
    main()

"""Generation at batch size: tendencies' strategies (ancestral, nucleus, beam) one sample per call against batched.

Each sample is seeded on its own (``CausalLM.generate``: a generator per row), so the two give the same samples; the
script checks that and writes generated tokens per second of each to perf/results/generation.json. Unconditional
samples from BOS, stopped at a newline, as the tendencies scorer draws them. Model: the packaged SmolLM2 (or --model).

    python perf/generation.py [--model PATH] [--samples 16] [--max-new-tokens 32] [--batch-size auto]
"""

from __future__ import annotations

import argparse
import time

from common import machine, sync, write_result
from wordbench.benchmarks.cli import packaged_smollm2
from wordbench.scorers.models import load_model


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--model", default=None)
    ap.add_argument("--samples", type=int, default=16)
    ap.add_argument("--max-new-tokens", type=int, default=32)
    ap.add_argument("--batch-size", default="auto")
    ap.add_argument("--strategies", default="ancestral,nucleus,beam")
    ap.add_argument("--device", default="auto")
    args = ap.parse_args()

    bs = args.batch_size if args.batch_size == "auto" else int(args.batch_size)
    model = load_model(args.model or str(packaged_smollm2()), device=args.device, batch_size=bs)
    prompts = [""] * args.samples
    seeds = list(range(1000, 1000 + args.samples))
    kw = dict(max_new_tokens=args.max_new_tokens, top_p=0.95, beams=5, stop_at_newline=True)
    model.generate(prompts[:2], "ancestral", seed=seeds[:2], max_new_tokens=4)  # warm-up

    def timed(fn):
        sync(model)
        t0 = time.perf_counter()
        out = fn()
        sync(model)
        return out, time.perf_counter() - t0

    result = {"benchmark": f"{args.samples} unconditional samples of up to {args.max_new_tokens} tokens per strategy, one per call vs batched",
              **machine(model), "samples": args.samples, "max_new_tokens": args.max_new_tokens}
    differ = 0
    for strategy in args.strategies.split(","):
        model.batch_size = bs
        batched, t_batched = timed(lambda: model.generate(prompts, strategy, seed=seeds, **kw))
        rows = model.batch_size
        model.batch_size = 1
        single, t_single = timed(lambda: [model.generate([p], strategy, seed=[s], **kw)[0] for p, s in zip(prompts, seeds)])
        tokens = sum(g.tokens for g in batched)
        same = sum(a == b for a, b in zip(batched, single))
        differ += len(prompts) - same
        result[strategy] = {"generated_tokens": tokens, "batch_rows": rows, "one_per_call_s": round(t_single, 2),
                            "batched_s": round(t_batched, 2), "speedup": round(t_single / t_batched, 2),
                            "one_per_call_tokens_per_s": round(tokens / t_single, 1), "batched_tokens_per_s": round(tokens / t_batched, 1),
                            "identical_samples": f"{same}/{len(prompts)}"}
        print(strategy, result[strategy], flush=True)
    model.batch_size = bs
    write_result("generation", model, result)
    if differ:
        raise SystemExit(f"{differ} samples differ between batched and one per call")


if __name__ == "__main__":
    main()

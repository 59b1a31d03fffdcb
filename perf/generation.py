"""Generation three ways on the same prompts: one prompt per call (the naive baseline), transformers' ``generate`` on
fixed batches (``BatchSizer``: what wordbench did before continuous batching), and the continuous decoder
(``scorers/models/decode.py``: prompts join and leave one decode batch).

Workloads: tendencies' strategies (unconditional samples from BOS, stopped at a newline, each seeded on its own) and
minpairs' prompted translations (beam search of 5, ``DEFAULT_PROMPT``, seeded sample of the default build's sources).
The script checks that the three give the same texts and writes per workload the seconds, generated tokens per second
and sequential forward passes of each to perf/results/generation.json. Model: the packaged SmolLM2 (or --model).

    python perf/generation.py [--model PATH] [--samples 16] [--max-new-tokens 32] [--translations 16]
"""

from __future__ import annotations

import argparse
import random
import time

from common import machine, sync, write_result
from wordbench.benchmarks.cli import packaged_smollm2
from wordbench.scorers.models import load_model


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--model", default=None)
    ap.add_argument("--samples", type=int, default=16)
    ap.add_argument("--max-new-tokens", type=int, default=32)
    ap.add_argument("--translations", type=int, default=16, help="minpairs sources translated (0: none)")
    ap.add_argument("--strategies", default="ancestral,nucleus,beam")
    ap.add_argument("--device", default="auto")
    args = ap.parse_args()

    model = load_model(args.model or str(packaged_smollm2()), device=args.device)
    model.generate([""] * 2, "ancestral", seed=[0, 1], max_new_tokens=4)  # warm-up, and the continuous decoder's probe
    passes = [0]
    model.model.register_forward_pre_hook(lambda *_: passes.__setitem__(0, passes[0] + 1))

    def timed(fn):
        sync(model)
        before, t0 = passes[0], time.perf_counter()
        out = fn()
        sync(model)
        return out, time.perf_counter() - t0, passes[0] - before

    def three_ways(prompts, strategy, **kw):
        """{way: (generations, seconds, forward passes)}, the fixed batches and one per call through ``generate``."""
        seeds = list(range(1000, 1000 + len(prompts)))
        out = {"continuous": timed(lambda: model.generate(prompts, strategy, seed=seeds, **kw))}
        probed = model.continuous
        model.__dict__["continuous"] = False
        try:
            out["fixed_batches"] = timed(lambda: model.generate(prompts, strategy, seed=seeds, **kw))
            model.batch_size = 1
            out["one_per_call"] = timed(lambda: [model.generate([p], strategy, seed=[s], **kw)[0] for p, s in zip(prompts, seeds)])
        finally:
            model.batch_size = "auto"
            model.__dict__["continuous"] = probed  # as probed (deleting it would probe again, inside the next timing)
        return out

    workloads = {s: ([""] * args.samples, s, dict(max_new_tokens=args.max_new_tokens, top_p=0.95, beams=5, stop_at_newline=True))
                 for s in args.strategies.split(",")}
    if args.translations:
        from wordbench.benchmarks.hub import load_data
        from wordbench.scorers.translate import DEFAULT_PROMPT

        sources = sorted(set(load_data("minpairs", progress=False)[1]["default"]["test"]["source"]))
        sources = random.Random(0).sample(sources, args.translations)
        workloads["translation"] = ([DEFAULT_PROMPT.format(source=s) for s in sources], "beam_search",
                                    dict(max_new_tokens=256, beams=5, stop_at_newline=True))
    result = {"benchmark": "generation one prompt per call, on fixed batches (transformers generate) and continuously batched",
              **machine(model), "samples": args.samples, "max_new_tokens": args.max_new_tokens, "translations": args.translations}
    differ = 0
    for name, (prompts, strategy, kw) in workloads.items():
        ways = three_ways(prompts, strategy, **kw)
        texts = {way: [g.text for g in gens] for way, (gens, _, _) in ways.items()}
        same = sum(a == b == c for a, b, c in zip(*texts.values()))
        differ += len(prompts) - same
        tokens = sum(g.tokens for g in ways["continuous"][0])
        result[name] = {"strategy": strategy, "prompts": len(prompts), "generated_tokens": tokens, "identical_texts": f"{same}/{len(prompts)}",
                        **{way: {"seconds": round(s, 2), "tokens_per_s": round(tokens / s, 1), "forward_passes": n} for way, (_, s, n) in ways.items()},
                        "speedup_over_fixed_batches": round(ways["fixed_batches"][1] / ways["continuous"][1], 2),
                        "speedup_over_one_per_call": round(ways["one_per_call"][1] / ways["continuous"][1], 2)}
        print(name, result[name], flush=True)
    write_result("generation", model, result)
    if differ:
        raise SystemExit(f"{differ} generations differ between the three ways")


if __name__ == "__main__":
    main()

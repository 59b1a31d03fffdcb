"""wordpred: the published algorithm vs one pass per line with the KV cache, on the same test lines.

Baseline 1, **the published algorithm** (the seed's search, as ``--faithful`` runs it): first subtoken over
the whole vocabulary, top-10 paths up to 6 subtokens, a full forward pass for every prefix (the context
of each word, then context + path for every greedy step and every search node), batch 1. It is compared
with our batched KV-cache search in faithful mode. Baseline 2, the former **naive baseline**: the same
one-pass-per-prefix loop with the default (corrected) search (word-start first step, paths up to 5),
compared with our default search. Each pair must give identical predictions and hits; the script writes
wall-time and token ratios to perf/results/wordpred.json. Model: the packaged SmolLM2-135M GGUF (or --model).

    python perf/wordpred.py [--model PATH] [--lines 8] [--batch-size auto]
"""

from __future__ import annotations

import argparse
import time

from common import machine, sync, write_result
from wordbench.benchmarks.cli import packaged_smollm2
from wordbench.benchmarks.hub import load_data
from wordbench.benchmarks.runner import select
from wordbench.scorers.models import load_model
from reference import predict_words_naive


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
    ap.add_argument("--lines", type=int, default=8)
    ap.add_argument("--batch-size", default="auto")
    ap.add_argument("--device", default="auto")
    args = ap.parse_args()

    _, data = load_data("wordpred", progress=False)
    lines = [list(r["words"]) for r in select(data, "default", "test", limit=args.lines)]
    events = [(n, i) for n, words in enumerate(lines) for i in range(1, len(words))]
    bs = args.batch_size if args.batch_size == "auto" else int(args.batch_size)
    model = load_model(args.model or str(packaged_smollm2()), device=args.device, batch_size=bs)
    model.predict_words(lines[:2], [(0, 1), (1, 1)])  # warm-up (word tables, kernels)

    def timed(fn, *fargs, **kw):
        """(predictions, seconds, tokens fed): ours counted by a forward hook, the baseline by its own counter."""
        tokens = [0]
        handle = count_tokens(model, tokens) if fn == model.predict_words else None
        sync(model)
        t0 = time.perf_counter()
        preds = fn(*fargs, **kw) if handle else fn(*fargs, tokens, **kw)
        sync(model)
        if handle:
            handle.remove()
        return preds, time.perf_counter() - t0, tokens[0]

    result = {
        "benchmark": f"wordpred: greedy top-1, top-10 path search and whole-word log-prob for every word of {len(lines)} test lines",
        **machine(model),
        "lines": len(lines),
        "events": len(events),
        "batch_size": model.batch_size,
    }
    differ = 0
    for faithful, label in ((True, "published"), (False, "naive_default")):
        ours, t_ours, tok_ours = timed(model.predict_words, lines, events, faithful=faithful)
        base, t_base, tok_base = timed(predict_words_naive, model, lines, events, faithful=faithful)
        same = sum((a.greedy, a.hit1, a.hit10) == (b.greedy, b.hit1, b.hit10) for a, b in zip(ours, base))
        differ += len(events) - same
        result[label] = {
            "search": "seed's (whole-vocabulary first step, paths up to 6)" if faithful else "default (word-start first step, paths up to 5)",
            "baseline_s": round(t_base, 2), "ours_s": round(t_ours, 2), "speedup": round(t_base / t_ours, 2),
            "baseline_tokens": tok_base, "ours_tokens": tok_ours, "token_ratio": round(tok_base / max(1, tok_ours), 2),
            "ours_events_per_s": round(len(events) / t_ours, 1),
            "identical_predictions_and_hits": f"{same}/{len(events)}",
            "max_word_logprob_difference": round(max(abs(a.word_lp - b.word_lp) for a, b in zip(ours, base)), 6),
            "top1_hits": sum(p.hit1 for p in ours), "top10_hits": sum(p.hit10 for p in ours),
        }
        print(label, result[label], flush=True)
    write_result("wordpred", model, result)
    if differ:
        raise SystemExit(f"predictions differ on {differ} events")


if __name__ == "__main__":
    main()

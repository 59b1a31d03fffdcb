"""vast: batched contexts with all hidden states at once and vectorized SC-WEAT vs the authors' way.

The authors' code embeds one (word, context) at a time and computes each word's SC-WEAT effect size
per layer in Python loops over the polar words. Ours batches the contexts (one forward pass per batch,
every layer kept) and computes the effect sizes of all words x polar words x layers as one einsum.
Both run on the same bleached contexts of a seeded sample of lexicon words; the per-layer VAST scores
must agree, and the ratio of wall times is written to perf/results/vast.json.
Model: the packaged all-MiniLM-L6-v2 encoder (or --model).

    python perf/vast.py [--model PATH] [--words 500] [--batch-size auto]
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from common import machine, sync, write_result
from wordbench.benchmarks.cli import packaged_minilm
from wordbench.benchmarks.hub import build, load_data
from wordbench.hashing import seeded_key
from wordbench.builders.vast_words import POLAR
from wordbench.scorers.models import load_model
from wordbench.scorers.base import RunContext
from wordbench.scorers.vast import VASTScorer, pearson_by_layer, select_polar


def naive_effect_size(word_states: np.ndarray, pleasant: list[np.ndarray], unpleasant: list[np.ndarray]) -> list[float]:
    """One word, layer by layer, polar word by polar word (the authors' loops)."""
    out = []
    for layer in range(word_states.shape[0]):
        w = word_states[layer]
        cos = lambda v: float(w @ v[layer] / (np.linalg.norm(w) * np.linalg.norm(v[layer])))  # noqa: E731
        ca, cb = [cos(v) for v in pleasant], [cos(v) for v in unpleasant]
        out.append((np.mean(ca) - np.mean(cb)) / np.std(ca + cb, ddof=1))
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--model", default=None)
    ap.add_argument("--words", type=int, default=500)
    ap.add_argument("--batch-size", default="auto")
    args = ap.parse_args()
    name = args.model or str(packaged_minilm())
    model = load_model(name, batch_size=args.batch_size if args.batch_size == "auto" else int(args.batch_size))

    folder, _ = build("vast", ["settings=bleached"], progress=False)
    _, data = load_data("vast", str(folder), progress=False)
    rows = [r for r in data["default"]["test"] if r["group"] == "lexicon"]
    rows = sorted(rows, key=lambda r: seeded_key(0, r["id"]))[: args.words]
    valence = np.array([r["valence"] for r in rows])

    scorer = VASTScorer(polar_filter="all", best_layer=0)  # the baseline below uses single-token polar words
    scorer.prepare(RunContext(data=data))
    start = time.perf_counter()
    fast = np.array([r["effect_sizes"] for r in scorer.score(model, rows)])
    sync(model)
    fast_s = time.perf_counter() - start

    start = time.perf_counter()
    polar_rows = [r for r in data["default"]["test"] if r["group"] in POLAR]
    one = lambda r: model.hidden_states([r["context"]], [(r["start"], r["end"])])[0]  # noqa: E731
    counts = [model.span_token_counts([r["context"]], [(r["start"], r["end"])])[0] for r in polar_rows]
    chosen = select_polar([(r["word"], r["group"], n) for r, n in zip(polar_rows, counts)], 0)
    pleasant = [one(polar_rows[i]) for i in chosen["pleasant"]]
    unpleasant = [one(polar_rows[i]) for i in chosen["unpleasant"]]
    slow = np.array([naive_effect_size(one(r), pleasant, unpleasant) for r in rows])
    sync(model)
    slow_s = time.perf_counter() - start

    vast_fast, vast_slow = pearson_by_layer(fast, valence), pearson_by_layer(slow, valence)
    diff = float(np.abs(vast_fast - vast_slow).max())
    assert diff < 1e-4, diff
    write_result("vast", model, {
        "machine": machine(model), "words": len(rows), "layers": int(fast.shape[1]), "batch_size": model.batch_size,
        "vast_by_layer": [round(float(v), 4) for v in vast_fast], "max_vast_difference": diff,
        "max_effect_size_difference": float(np.abs(fast - slow).max()),
        "batched_s": round(fast_s, 3), "one_at_a_time_s": round(slow_s, 3), "speedup": round(slow_s / fast_s, 1),
        "contexts_per_s": round((len(rows) + 50) / fast_s, 1),
    })


if __name__ == "__main__":
    main()

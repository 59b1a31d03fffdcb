"""Corpus frequency counting: one process (the streamed baseline) vs N processes over byte ranges.

Writes a synthetic Zipfian corpus (50k word types, 12 words a line) of --tokens tokens, then counts it
in a fresh subprocess per setting so that each peak RSS (the process and its workers) is its own.
Both must give identical counts; tokens/s and peak memory go to perf/results/frequencies.json.

    python perf/frequencies.py [--tokens 100000000] [--procs 2] [--folder /tmp/wordbench-perf]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

from common import machine, write_result

COUNT = """
import json, resource, sys, time
from wordbench.builders.sources.corpora import iter_corpus_lines
from wordbench.builders.sources.frequencies import count_words
from wordbench.builders.sources.parallel_count import count_files
from wordbench.hashing import sha8
path, procs = sys.argv[1], int(sys.argv[2])
t0 = time.perf_counter()
counts = count_words(iter_corpus_lines(path)) if procs == 1 else count_files([__import__("pathlib").Path(path)], procs)
wall = time.perf_counter() - t0
rss = lambda who: resource.getrusage(who).ru_maxrss / 1024
print(json.dumps({"wall_s": wall, "tokens": sum(counts.values()), "types": len(counts),
                  "digest": sha8(repr(sorted(counts.items()))), "peak_rss_mb": rss(resource.RUSAGE_SELF),
                  "peak_rss_worker_mb": rss(resource.RUSAGE_CHILDREN)}))
"""


def write_corpus(path: Path, tokens: int, seed: int = 0) -> None:
    import numpy as np

    rng = np.random.default_rng(seed)
    vocab = np.array([f"w{i}" for i in range(50_000)])
    p = 1.0 / np.arange(1, len(vocab) + 1)
    p /= p.sum()
    with open(path, "w") as f:
        left = tokens
        while left:
            n = min(left, 1_200_000)
            words = vocab[rng.choice(len(vocab), size=n, p=p)]
            f.write("\n".join(" ".join(row) for row in words.reshape(-1, 12)) + "\n")
            left -= n


def measure(path: Path, procs: int) -> dict:
    out = subprocess.run([sys.executable, "-c", COUNT, str(path), str(procs)], capture_output=True, text=True, check=True,
                         env={**os.environ, "OMP_NUM_THREADS": "1"})
    return json.loads(out.stdout.strip().splitlines()[-1])


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--tokens", type=int, default=100_000_000)
    ap.add_argument("--procs", type=int, default=2)
    ap.add_argument("--folder", type=Path, default=Path("/tmp/wordbench-perf"))
    args = ap.parse_args()
    args.tokens -= args.tokens % 12
    args.folder.mkdir(parents=True, exist_ok=True)
    corpus = args.folder / f"zipf-{args.tokens}.txt"
    if not corpus.exists():
        t0 = time.perf_counter()
        write_corpus(corpus, args.tokens)
        print(f"wrote {corpus} ({corpus.stat().st_size / 1e6:.0f} MB) in {time.perf_counter() - t0:.0f} s", file=sys.stderr)
    one, many = measure(corpus, 1), measure(corpus, args.procs)
    same = (one["tokens"], one["types"], one["digest"]) == (many["tokens"], many["types"], many["digest"])
    result = {
        "benchmark": f"word counts of a synthetic Zipfian corpus ({args.tokens} tokens, {corpus.stat().st_size / 1e6:.0f} MB): "
                     f"1 process (streamed lines) vs {args.procs} processes over byte ranges",
        **machine(),
        "cpu_count": os.cpu_count(),
        "tokens": one["tokens"],
        "types": one["types"],
        "one_process_s": round(one["wall_s"], 2),
        "one_process_tokens_per_s": round(one["tokens"] / one["wall_s"]),
        "one_process_peak_rss_mb": round(one["peak_rss_mb"]),
        f"procs_{args.procs}_s": round(many["wall_s"], 2),
        f"procs_{args.procs}_tokens_per_s": round(many["tokens"] / many["wall_s"]),
        f"procs_{args.procs}_peak_rss_mb": {"main": round(many["peak_rss_mb"]), "largest_worker": round(many["peak_rss_worker_mb"])},
        "speedup": round(one["wall_s"] / many["wall_s"], 2),
        "identical_counts": same,
    }
    write_result("frequencies", None, result)
    if not same:
        raise SystemExit("the counts differ")


if __name__ == "__main__":
    main()

"""wordbench against lm-evaluation-harness (HFLM.loglikelihood) and minicons (sequence_score,
conditional_score, next_word_distribution): same fp32 weights, same inputs, same process and threads.

Two steps (``make perf-peers`` runs both):
  python perf/peers.py prepare    # project venv: the packaged SmolLM2 GGUF dequantized into a plain HF
                                  # folder once, and the inputs taken from the offline minpairs / WNLaMPro builds
  .venv-peers/bin/python perf/peers.py [--rounds 5]   # the peers' venv (lm-eval, minicons, wordbench --no-deps)

Workloads: ``sentence`` (log-likelihood of English sentences, BOS as context), ``conditional``
(minpairs through the translation prompt: each prompt + source with its correct and incorrect German
variant), ``candidates`` (WNLaMPro pattern contexts, each with its target words as continuations), ``topk``
(the 10 most probable next tokens after WNLaMPro pattern contexts; lm-eval has no such call). Values are
checked equal (1e-4) before timing; then rounds interleave the tools (wordbench, lm-eval, minicons, one
after the other, each round in a rotated order) and the medians and per-round ratios go to
perf/results/peers.json: speedup = peer time / wordbench time. The peers get a row cap (--batch-size);
minicons, which takes batches as given, gets them length-sorted (its best case); wordbench runs with
its default (``auto``: a row cap and a token budget).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import time
from pathlib import Path

import numpy as np

ROOT = Path(os.environ.get("WORDBENCH_CACHE") or Path.home() / ".cache" / "wordbench") / "peers"
MODEL_DIR, INPUTS = ROOT / "smollm2-135m-fp32", ROOT / "inputs.json"
TOL = 1e-4
REL_TOL = 1e-5
K = 10


def prepare(n_sentences: int, n_items: int) -> None:
    """Dequantize the packaged GGUF into ``MODEL_DIR`` (fp32 safetensors) and write the inputs."""
    import torch
    import transformers

    from wordbench.benchmarks.cli import packaged_smollm2
    from wordbench.benchmarks.hub import build, load_data
    from wordbench.hashing import seeded_key
    from wordbench.scorers.minpairs import Options
    from wordbench.scorers.wnlampro import PATTERNS, fill

    if not (MODEL_DIR / "model.safetensors").exists():
        gguf = packaged_smollm2()
        model = transformers.AutoModelForCausalLM.from_pretrained(gguf.parent, gguf_file=gguf.name, dtype="float32")
        config = model.config
        if hasattr(config, "quantization_config"):
            del config.quantization_config  # a GGUF-loaded model refuses to save: copy it into a plain one
        plain = transformers.AutoModelForCausalLM.from_config(config, dtype=torch.float32)
        plain.load_state_dict(model.state_dict())
        plain.save_pretrained(MODEL_DIR, safe_serialization=True)
        transformers.AutoTokenizer.from_pretrained(gguf.parent, gguf_file=gguf.name).save_pretrained(MODEL_DIR)
    folder, _ = build("minpairs", progress=False)
    pairs = sorted(load_data("minpairs", str(folder), progress=False)[1]["default"]["test"], key=lambda r: seeded_key(0, r["id"]))
    sources = list(dict.fromkeys(r["source"] for r in pairs))[:n_sentences]
    prompt, end = Options.prompt, Options.end
    conditional = [(prompt.format(source=r["source"]), " " + r[k] + end) for r in pairs[:n_items] for k in ("correct", "incorrect")]
    folder, _ = build("wnlampro", progress=False)
    entries = sorted(load_data("wnlampro", str(folder), progress=False)[1]["default"]["test"], key=lambda r: seeded_key(0, r["id"]))
    contexts = [fill(p, e["key"])[0] for e in entries[: n_items // 4] for p in PATTERNS[e["relation"]]]
    # the context keeps the space before ___ ("gantry and "): the trailing-space rule moves it to the word
    candidates = [(fill(PATTERNS[e["relation"]][0], e["key"])[0], t) for e in entries[:n_items] for t in e["targets"][:5]]
    ROOT.mkdir(parents=True, exist_ok=True)
    INPUTS.write_text(json.dumps({"sentence": sources, "conditional": conditional, "candidates": candidates, "topk": contexts}, indent=1))
    print(f"{MODEL_DIR}\n{INPUTS}: {len(sources)} sentences, {len(conditional)} conditional pairs, "
          f"{len(candidates)} candidate pairs, {len(contexts)} top-k contexts")


# --- the three tools, each: workload -> values -------------------------------------------------


class Wordbench:
    name = "wordbench"

    def __init__(self, batch_size):
        from wordbench.scorers.models import load_model

        self.model = load_model(str(MODEL_DIR), device="cpu", dtype="float32", batch_size=batch_size)

    def sentence(self, texts):
        return [s.total for s in self.model.sequence_logprobs(texts)]

    def conditional(self, pairs):
        return [s.total for s in self.model.sequence_logprobs(pairs)]

    candidates = conditional

    def topk(self, contexts):
        return [(list(map(int, i)), list(map(float, v))) for i, v in self.model.topk_next(contexts, K)]


class LMEval:
    name = "lm-eval"

    def __init__(self, batch_size):
        from lm_eval.models.huggingface import HFLM

        self.lm = HFLM(pretrained=str(MODEL_DIR), backend="causal", device="cpu", dtype="float32", batch_size=batch_size)
        self.bos = self.lm.tokenizer.decode([self.lm.prefix_token_id])

    def _ll(self, pairs):
        from lm_eval.api.instance import Instance

        reqs = [Instance("loglikelihood", {}, pair, n) for n, pair in enumerate(pairs)]
        return [lp for lp, _ in self.lm.loglikelihood(reqs, disable_tqdm=True)]

    def sentence(self, texts):
        return self._ll([("", t) for t in texts])  # an empty context is the prefix (BOS) token

    def conditional(self, pairs):
        return self._ll([(self.bos + c, t) for c, t in pairs])  # BOS as wordbench prepends it

    candidates = conditional
    topk = None  # no top-k call in lm-eval


class Minicons:
    name = "minicons"

    def __init__(self, batch_size):
        from minicons import scorer

        self.lm = scorer.IncrementalLMScorer(str(MODEL_DIR), device="cpu")
        self.tok = self.lm.tokenizer
        self.size = batch_size

    def _chunks(self, items, key):
        """Length-sorted chunks of the row cap (minicons batches what it is given), results in input order."""
        order = sorted(range(len(items)), key=lambda i: -len(self.tok(key(items[i]))["input_ids"]))
        return [order[i : i + self.size] for i in range(0, len(order), self.size)]

    def _run(self, items, key, fn):
        out = [None] * len(items)
        for idx in self._chunks(items, key):
            for i, v in zip(idx, fn([items[i] for i in idx])):
                out[i] = v
        return out

    def sentence(self, texts):
        return self._run(texts, lambda t: t, lambda b: self.lm.sequence_score(b, reduction=lambda x: x.sum(0).item(), bos_token=True))

    def conditional(self, pairs):
        # minicons joins prefix + " " + stimulus: the space that ends a context or begins a continuation
        moved = [(c.rstrip(), c[len(c.rstrip()) :] + t) for c, t in pairs]
        assert all(t.startswith(" ") for _, t in moved)
        return self._run(moved, lambda p: p[0] + p[1], lambda b: self.lm.conditional_score(
            [c for c, _ in b], [t[1:] for _, t in b], separator=" ", reduction=lambda x: x.sum(0).item(), bos_token=True))

    candidates = conditional

    def topk(self, contexts):
        def run(batch):
            values, ids = self.lm.next_word_distribution(batch, bos_token=True).topk(K, -1)
            return [(i.tolist(), v.tolist()) for i, v in zip(ids, values)]

        return self._run([c.rstrip() for c in contexts], lambda c: c, run)  # the space belongs to the next token


def agree(name, ours, theirs) -> dict:
    """Largest absolute and relative differences; raises unless every value is within ``TOL`` absolute or
    ``REL_TOL`` relative (a sentence's total sums 10-40 float32 token log-probs; batch composition alone
    moves it by ~1e-4). Top-k: the ids must match too, where the values differ."""
    if isinstance(ours[0], tuple):
        for (ia, va), (ib, vb) in zip(ours, theirs):
            # ties at the k-th place may order differently: compare the values, and ids where values differ
            assert ia == ib or np.allclose(va, vb, atol=TOL), f"{name}: top-k ids differ"
        ours, theirs = [v for _, vs in ours for v in vs], [v for _, vs in theirs for v in vs]
    a, b = np.array(ours, dtype=float), np.array(theirs, dtype=float)
    diff = np.abs(a - b)
    rel = diff / np.maximum(np.abs(a), 1.0)
    assert np.all((diff <= TOL) | (rel <= REL_TOL)), f"{name}: values differ by {diff.max()} ({rel.max()} relative)"
    return {"abs": float(diff.max()), "rel": float(rel.max())}


def measure(rounds: int, batch_size: int, ours: int | str, only: list[str] | None) -> None:
    import torch
    import transformers

    from common import write_result

    inputs = json.loads(INPUTS.read_text())
    inputs["conditional"] = [tuple(p) for p in inputs["conditional"]]
    inputs["candidates"] = [tuple(p) for p in inputs["candidates"]]
    tools = [Wordbench(ours), LMEval(batch_size), Minicons(batch_size)]
    workloads = only or list(inputs)
    result = {"benchmark": "wordbench vs lm-evaluation-harness and minicons, same weights and inputs",
              "model": "SmolLM2-135M-Instruct (packaged GGUF dequantized to fp32 safetensors)", "peer_batch_size": batch_size,
              "wordbench_batch_size": ours,
              "rounds": rounds, "tolerance": {"abs": TOL, "rel": REL_TOL}, "workloads": {}}
    for w in workloads:
        data = inputs[w]
        active = [t for t in tools if getattr(t, w) is not None]
        values = {t.name: getattr(t, w)(data) for t in active}  # also the warm-up
        diffs = {t.name: agree(f"{w} {t.name}", values["wordbench"], values[t.name]) for t in active[1:]}
        times: dict[str, list[float]] = {t.name: [] for t in active}
        for r in range(rounds):
            for t in active[r % len(active):] + active[: r % len(active)]:
                t0 = time.perf_counter()
                getattr(t, w)(data)
                times[t.name].append(time.perf_counter() - t0)
        med = {n: statistics.median(ts) for n, ts in times.items()}
        entry = {"items": len(data), "median_s": {n: round(v, 3) for n, v in med.items()}, "round_s": {n: [round(x, 3) for x in ts] for n, ts in times.items()},
                 "max_diff": diffs}
        for peer, key in (("lm-eval", "speedup_vs_lm_eval"), ("minicons", "speedup_vs_minicons")):
            if peer in med:
                per_round = [p / o for p, o in zip(times[peer], times["wordbench"])]
                entry[key] = round(med[peer] / med["wordbench"], 2)
                entry[key + "_per_round_median"] = round(statistics.median(per_round), 2)
            else:
                entry[key] = None
        result["workloads"][w] = entry
        print(w, json.dumps({k: v for k, v in entry.items() if k != "round_s"}), flush=True)
    import lm_eval
    import minicons  # noqa: F401
    from importlib.metadata import version

    result["versions"] = {"torch": torch.__version__, "transformers": transformers.__version__, "lm_eval": lm_eval.__version__,
                          "minicons": version("minicons")}
    result["machine"] = {"device": "cpu", "torch_threads": torch.get_num_threads(),
                         "note": "2 shared cores, other jobs running: rounds interleave the tools and medians are reported"}
    write_result("peers", None, result)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("step", nargs="?", default="measure", choices=["prepare", "measure"])
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--batch-size", type=int, default=16, help="the peers' batch size (rows)")
    ap.add_argument("--wordbench-batch-size", default="auto", help="auto: a row cap and a token budget")
    ap.add_argument("--sentences", type=int, default=48, help="prepare: English sentences")
    ap.add_argument("--items", type=int, default=24, help="prepare: minpairs items (2 pairs each) and WNLaMPro entries")
    ap.add_argument("--only", nargs="*", help="workloads to run (default: all)")
    args = ap.parse_args()
    if args.step == "prepare":
        prepare(args.sentences, args.items)
    else:
        ours = args.wordbench_batch_size
        measure(args.rounds, args.batch_size, ours if ours == "auto" else int(ours), args.only)


if __name__ == "__main__":
    main()

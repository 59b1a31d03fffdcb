"""The GPU path, proven in one run: every benchmark's scorer on CUDA against CPU on tiny models of every family, the
fused LM head and the auto batch on real shapes, and the share of the measured bf16 GEMM limit that scoring reaches.

    make gpu-wheels                 # here, once: the wheels the GPU machine lacks and a real tokenizer, into .whl/
    make gpu-check                  # on the GPU machine: installs .whl/ and wordbench into /tmp/site, then this script
    python perf/gpu_check.py --cpu  # tiny models on CPU only (part of `make test`): CPU batched against CPU one by one

Steps, each timed and kept apart (one failing step is reported and the others still run):
  correctness  every benchmark x every family it scores (tiny models from configs, data in gpu_check_data.json):
               CUDA float32 against CPU float32 (every float of every record to 1e-4, everything else equal); CUDA bf16
               through the run's own precision check, and its decisions against the CPU's
  shard        a model loaded with --device shard (accelerate's device_map) scores as the plain CUDA model
  head         the fused LM head (log-sum-exp a block at a time) at several block sizes on the 1B and 8B heads: timed,
               and checked against the full log-softmax
  batch        the 8B shape under batch_size=auto: the batch it reaches and the memory it takes; then, under a memory
               cap that leaves no room for that batch, the OOM back-off on purpose (values as without the cap), the
               float32 probe's fallback and the precision check's 'does not fit' line
  limit        model FLOPs utilisation of the sentence, conditional and candidates workloads on the Llama-3.2-1B and
               Llama-3-8B shapes (random bf16 weights: FLOPs do not depend on them), against the best measured bf16
               GEMM rate of the model's own matrix shapes (perf/limit.py's accounting)
  decode       one submission's generations (minpairs' translations, tendencies' samples) at the lengths SmolLM2
               produced (perf/results/suite-full.json), decoded with forced ends under a sweep of row caps: decode
               steps, rows per step, GPU-busy share, MFU and the full profile's generation GPU-minutes per setting
  suite        every benchmark's full profile on a seeded 1% of its default build (at least 64 rows), on both shapes:
               seconds, GPU-busy share, MFU, and the GPU-minutes of one full submission extrapolated from that sample
               to the build's full profile: generation per text generated, the rest per item (perf/suite_cost.py; the
               full counts carried in perf/gpu_check_data.json)
Results: perf/results/gpu.json and gpu.txt on CUDA; --out DIR for the CPU mode (default: a temporary folder).
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import json
import os
import platform
import statistics
import sys
import tempfile
import time
import traceback
from pathlib import Path

for key, value in {"HF_HUB_OFFLINE": "1", "HF_DATASETS_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1", "WORDBENCH_OFFLINE": "1",
                   "MPLBACKEND": "Agg"}.items():
    os.environ.setdefault(key, value)

import numpy as np  # noqa: E402
import torch  # noqa: E402

HERE = Path(__file__).resolve().parent
DATA = HERE / "gpu_check_data.json"  # seeded samples of every default build (python perf/gpu_check.py --make-data)
WHEELS = HERE.parent / ".whl"
REAL_TOKENIZER = WHEELS / "tokenizer-smollm2"  # SmolLM2's BPE (49k), for token counts of real text on the real shapes
FLOAT_TOL = 1e-4
F16_VECTORS, F16_TOL = {"vector", "vectors", "vector_best"}, 2**-10  # VAST's records keep vectors in float16: 1 ulp apart is equal
SHAPES = {  # Llama-3.2-1B and Llama-3-8B as their configs give them
    "llama-3.2-1b": dict(hidden_size=2048, intermediate_size=8192, num_hidden_layers=16, num_attention_heads=32, num_key_value_heads=8,
                         vocab_size=128256, max_position_embeddings=131072, rope_theta=500000.0, tie_word_embeddings=True),
    "llama-3-8b": dict(hidden_size=4096, intermediate_size=14336, num_hidden_layers=32, num_attention_heads=32, num_key_value_heads=8,
                       vocab_size=128256, max_position_embeddings=8192, rope_theta=500000.0, tie_word_embeddings=False),
}
TINY_SHAPE = dict(hidden_size=64, intermediate_size=128, num_hidden_layers=2, num_attention_heads=4, num_key_value_heads=2,
                  vocab_size=1024, max_position_embeddings=2048, tie_word_embeddings=False)
TINY_POSITIONS = 512  # the check's tiny models take the benchmarks' real items (the tests' take 64)
HEAD_BLOCKS = [(1024, 16384), (4096, 32768), (4096, 65536), (8192, 32768), (2048, 262144), (4096, 262144), (8192, 262144)]  # vocab >= 128256: one log-softmax
# tiny models each benchmark is checked on (a family the benchmark does not score is skipped with its reason)
MODELS = ("gpt2", "llama", "bert", "bert-encoder", "t5", "bart", "marian")


class Check:
    """Steps with their wall time and outcome; a failing step is recorded (its last lines) and the run goes on."""

    def __init__(self, budget_s: float = float("inf"), path: Path | None = None):
        self.result: dict = {"steps": {}, "failures": []}
        self.start, self.budget_s, self.path = time.perf_counter(), budget_s, path

    def save(self) -> None:
        """Writes what ran so far, so that a run stopped from outside still leaves its steps."""
        if self.path is not None:
            self.path.write_text(json.dumps(self.result, indent=1) + "\n")

    def time_left(self, name: str) -> bool:
        """False (and the step recorded as not run) once the run's budget is spent: what ran is still written."""
        if time.perf_counter() - self.start < self.budget_s:
            return True
        self.result["steps"][name] = {"skipped": f"the run's budget of {self.budget_s:.0f} s was spent", "wall_s": 0.0}
        return False

    @contextlib.contextmanager
    def step(self, name: str):
        out: dict = {}
        t0 = time.perf_counter()
        print(f"== {name}", flush=True)
        try:
            yield out
        except Exception as exc:  # noqa: BLE001 - a broken step must not cost the other steps their device time
            out["error"] = f"{type(exc).__name__}: {str(exc).splitlines()[0] if str(exc) else ''}"
            out["traceback"] = traceback.format_exc().splitlines()[-8:]
            self.result["failures"].append(f"{name}: {out['error']}")
            print("\n".join(out["traceback"]), flush=True)
        finally:
            out["wall_s"] = round(time.perf_counter() - t0, 2)
            self.result["steps"][name] = out
            self.save()
            print(f"   {name}: {out['wall_s']} s{' FAILED' if 'error' in out else ''}", flush=True)


def sync(device: torch.device) -> None:
    if device.type == "cuda":
        torch.cuda.synchronize()


def timed(device: torch.device, fn, repeat: int = 3):
    """(last output, median wall time over ``repeat`` runs after one warm-up)."""
    out = fn()
    times = []
    for _ in range(repeat):
        sync(device)
        t0 = time.perf_counter()
        out = fn()
        sync(device)
        times.append(time.perf_counter() - t0)
    return out, statistics.median(times)


def environment(device: torch.device) -> dict:
    import transformers

    env = {"python": platform.python_version(), "torch": torch.__version__, "transformers": transformers.__version__,
           "cpu_threads": torch.get_num_threads(), "device": str(device)}
    if device.type == "cuda":
        props = torch.cuda.get_device_properties(device)
        env.update(gpu=props.name, gpu_memory_gib=round(props.total_memory / 2**30, 1), capability=f"{props.major}.{props.minor}",
                   multiprocessors=props.multi_processor_count, cuda=torch.version.cuda)
    return env


# --- correctness: every scorer, every family, CUDA against CPU ------------------------------------------------

def compare(a, b, tol: float = FLOAT_TOL, path: str = "") -> tuple[float, list[str]]:
    """(largest float difference, paths where anything else differs) between two records; a float differs by
    ``|a - b| / max(1, |a|)`` (absolute below 1, relative above: perplexities run to thousands)."""
    if path.rsplit(".", 1)[-1] in F16_VECTORS and isinstance(a, str) and isinstance(b, str) and a != b:
        from wordbench.scorers.vast import decode_vector

        x, y = decode_vector(a), decode_vector(b)  # stored in float16: one rounding step apart is the same vector
        if x.shape != y.shape:
            return 0.0, [f"{path}: {x.shape} != {y.shape} values"]
        worst = float((abs(x - y) / np.maximum(1.0, abs(x))).max()) if x.size else 0.0
        return worst * FLOAT_TOL / F16_TOL, []  # on the FLOAT_TOL scale
    if isinstance(a, bool) or isinstance(b, bool) or isinstance(a, str) or a is None or b is None:
        return 0.0, [] if a == b else [f"{path}: {a!r} != {b!r}"[:160]]
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        if isinstance(a, int) and isinstance(b, int):
            return 0.0, [] if a == b else [f"{path}: {a} != {b}"]
        if a != a and b != b:  # NaN on both sides
            return 0.0, []
        return abs(a - b) / max(1.0, abs(a)), []
    if isinstance(a, dict) and isinstance(b, dict):
        worst, diffs = 0.0, [] if a.keys() == b.keys() else [f"{path}: keys {sorted(a.keys() ^ b.keys())}"]
        for k in a.keys() & b.keys():
            w, d = compare(a[k], b[k], tol, f"{path}.{k}")
            worst, diffs = max(worst, w), diffs + d
        return worst, diffs
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        if len(a) != len(b):
            return 0.0, [f"{path}: length {len(a)} != {len(b)}"]
        worst, diffs = 0.0, []
        for i, (x, y) in enumerate(zip(a, b)):
            w, d = compare(x, y, tol, f"{path}[{i}]")
            worst, diffs = max(worst, w), diffs + d
        return worst, diffs
    return 0.0, [] if a == b else [f"{path}: {a!r} != {b!r}"[:160]]


def load_check_data() -> dict:
    """{benchmark: {"data": {config: {split: rows}}, "options": {...}}} and the workloads' texts."""
    return json.loads(DATA.read_text(encoding="utf-8"))


def score_once(bench: str, spec: dict, folder: Path, out: Path, device: str, dtype: str, batch_size, precision_sample: int = 0):
    """One run of ``bench`` on the check's data through the shared scoring loop (run folder, summary, precision check)."""
    from wordbench.benchmarks.registry import get
    from wordbench.benchmarks.scoring import score_dataset
    from wordbench.scorers.models import load_model

    scorer = get(bench).scorer(**spec["options"])
    model = load_model(str(folder), device=device, dtype=dtype, batch_size=batch_size)
    run = score_dataset(scorer, model, f"gpu-check:{bench}", spec["data"], "gpu-check sample", out=out, progress=False,
                        precision_sample=precision_sample)
    return scorer, run.records(), run.summary()


def headline(bench: str, summary: dict) -> list:
    """[value, interval] of a run's headline (CPU, float32): the figures a change of code must leave as they are."""
    from wordbench.benchmarks.registry import get

    value, ci = get(bench).headline.read(summary["metrics"])
    return [value, None if ci is None else [float(v) for v in ci]]


def correctness(check: Check, cpu_only: bool, models: dict[str, Path], data: dict, root: Path) -> None:
    from wordbench.errors import WordbenchError

    device = "cpu" if cpu_only else "cuda"
    for bench, spec in data["benchmarks"].items():
        if not check.time_left(f"correctness/{bench}"):
            continue
        if bench == "tendencies":  # greedy continuations of prompts: deterministic, and not one sample n times
            prompts = root / "tendencies-prompts.txt"
            prompts.parent.mkdir(parents=True, exist_ok=True)
            prompts.write_text("".join(" ".join(r["text"].split()[:2]) + "\n" for r in spec["data"]["default"]["train"]))
            spec = {**spec, "options": {**spec["options"], "prompts": str(prompts)}}
        with check.step(f"correctness/{bench}") as out:
            for name in MODELS:
                label = f"{bench}-{name}"
                try:
                    scorer, ref, ref_summary = score_once(bench, spec, models[name], root / label / "cpu", "cpu", "float32", "auto")
                except WordbenchError as exc:  # a family the benchmark does not score, a model style it needs, or a
                    out[name] = {"skipped": str(exc)[:200]}  # tiny random model's output it refuses (one line, as a user sees it)
                    continue
                # on the CPU-only machine: the same model one item per batch, which takes every other code path
                _, got, _ = score_once(bench, spec, models[name], root / label / "dev", device, "float32", "auto" if device == "cuda" else 1)
                worst, diffs = compare(ref, got)
                entry = {"items": len(ref), "max_float_diff": float(f"{worst:.3g}"), "other_diffs": len(diffs), "first_diffs": diffs[:3],
                         "ok": worst <= FLOAT_TOL and not diffs, "headline": headline(bench, ref_summary)}
                _, half, summary = score_once(bench, spec, models[name], root / label / "bf16", device, "bfloat16", "auto", precision_sample=32)
                entry["bf16_precision_check"] = summary.get("precision")
                if scorer.decision(ref[0]) is not None:
                    ref_decisions = {r["id"]: scorer.decision(r) for r in ref}
                    kept = sum(ref_decisions.get(r["id"]) == scorer.decision(r) for r in half)
                    entry["bf16_decisions_as_cpu_fp32"] = f"{kept}/{len(half)}"
                else:
                    entry["bf16_max_metric_diff"] = float(f"{compare(summary['metrics'], scorer.summarize(ref))[0]:.3g}")
                out[name] = entry
                print(f"   {label}: {json.dumps(entry)[:300]}", flush=True)
                if not entry["ok"]:
                    check.result["failures"].append(f"correctness/{label}: floats {worst:.2g}, {len(diffs)} other differences")


def shard(check: Check, models: dict[str, Path], data: dict, root: Path) -> None:
    with check.step("shard") as out:
        spec = data["benchmarks"]["wnlampro"]
        _, plain, _ = score_once("wnlampro", spec, models["llama"], root / "shard" / "plain", "cuda", "float32", "auto")
        _, sharded, _ = score_once("wnlampro", spec, models["llama"], root / "shard" / "shard", "shard", "float32", "auto")
        worst, diffs = compare(plain, sharded)
        out.update(items=len(plain), max_float_diff=float(f"{worst:.3g}"), other_diffs=len(diffs), ok=worst <= FLOAT_TOL and not diffs)
        if not out["ok"]:
            check.result["failures"].append("shard: --device shard scores differ from the plain CUDA model")


# --- real shapes: random weights built on the device --------------------------------------------------------

def real_shape(name: str, device: torch.device, dtype: torch.dtype, tokenizer):
    """A wordbench CausalLM around a randomly initialised Llama of ``name``'s shape, built on ``device`` in ``dtype``."""
    import transformers

    from wordbench.scorers.models.base import ModelInfo
    from wordbench.scorers.models.causal import CausalLM

    shape = {**SHAPES.get(name, TINY_SHAPE)}
    shape["vocab_size"] = max(shape["vocab_size"], len(tokenizer))
    config = transformers.LlamaConfig(**shape, bos_token_id=tokenizer.bos_token_id, eos_token_id=tokenizer.eos_token_id)
    kept = torch.get_default_dtype()
    torch.manual_seed(0)
    try:
        torch.set_default_dtype(dtype)
        with torch.device(device):
            net = transformers.LlamaForCausalLM(config)
    finally:
        torch.set_default_dtype(kept)
    if device.type == "cuda":
        net.config._attn_implementation = "sdpa"
    info = ModelInfo(f"{name}-random", "random-init", "causal", str(dtype).removeprefix("torch."))
    return CausalLM(net.eval(), tokenizer, info, device, "auto")


def save_tokenizer() -> None:
    """The packaged SmolLM2 GGUF's tokenizer as a plain folder (2 MB; the 98 MB GGUF does not travel)."""
    import transformers

    from wordbench.benchmarks.cli import packaged_smollm2

    gguf = packaged_smollm2()
    transformers.AutoTokenizer.from_pretrained(str(gguf.parent), gguf_file=gguf.name).save_pretrained(str(REAL_TOKENIZER))
    print(f"{REAL_TOKENIZER}: {sum(f.stat().st_size for f in REAL_TOKENIZER.iterdir()) / 1e6:.1f} MB")


def load_tokenizer(tiny: Path, real: bool):
    """SmolLM2's tokenizer where ``real`` and carried (token counts of real text), else the tiny models' BPE."""
    import transformers

    folder = REAL_TOKENIZER if real and (REAL_TOKENIZER / "tokenizer.json").exists() else tiny
    return transformers.AutoTokenizer.from_pretrained(str(folder)), folder.name


def head(check: Check, model, name: str) -> None:
    """The fused head at several block sizes on ``model``'s head, against the full log-softmax."""
    from wordbench.scorers.models import base

    with check.step(f"head/{name}") as out:
        device = model.device
        weight, _ = model._head_weights()
        n = 8192 if device.type == "cuda" else 256
        gen = torch.Generator(device=device).manual_seed(0)
        states = torch.randn(n, weight.shape[1], device=device, dtype=weight.dtype, generator=gen)
        targets = torch.randint(0, weight.shape[0], (n,), device=device, generator=gen)
        with torch.inference_mode():
            full = torch.nn.functional.linear(states, weight).float().log_softmax(-1)
            want = full.gather(1, targets[:, None]).squeeze(1)
            del full
            kind = device.type
            default = base.HEAD_BLOCK[kind]
            blocks = HEAD_BLOCKS if kind == "cuda" else [(64, 256), default]
            out.update(positions=n, vocab=int(weight.shape[0]), dim=int(weight.shape[1]), default_block=list(default), blocks={})
            try:
                for block in blocks:
                    base.HEAD_BLOCK[kind] = block
                    got, seconds = timed(device, lambda: model.fused_logprobs(states, targets), repeat=5)
                    diff = float((got.float().to(device) - want).abs().max())
                    out["blocks"][f"{block[0]}x{block[1]}"] = {"ms": round(seconds * 1e3, 2), "max_diff_vs_full_log_softmax": float(f"{diff:.3g}")}
            finally:
                base.HEAD_BLOCK[kind] = default
            _, plain = timed(device, lambda: torch.nn.functional.linear(states, weight).float().log_softmax(-1).gather(1, targets[:, None]), repeat=5)
        out["full_log_softmax_ms"] = round(plain * 1e3, 2)
        fastest = min(out["blocks"], key=lambda k: out["blocks"][k]["ms"])
        out["fastest_block"] = fastest
        print(f"   {json.dumps(out)[:600]}", flush=True)


def batch_and_oom(check: Check, model, texts: list[str]) -> None:
    """batch_size=auto on a real shape: the batch reached; then a memory cap that forces the OOM back-off."""
    from wordbench.benchmarks.results import RunFolder
    from wordbench.benchmarks.scoring import precision_check
    from wordbench.scorers.base import RunContext, Scorer
    from wordbench.scorers.models.batching import AUTO_START_CUDA, AUTO_TOKENS_CUDA

    device = model.device
    index = device.index if device.index is not None else torch.cuda.current_device()
    with check.step("batch") as out:
        torch.cuda.reset_peak_memory_stats(device)
        total = torch.cuda.get_device_properties(device).total_memory
        weights = sum(t.numel() * t.element_size() for t in (*model.model.parameters(), *model.model.buffers()))
        model.batch_size = "auto"
        free, values = timed(device, lambda: model.sequence_logprobs(texts), repeat=1)[0], None
        values = [s.total for s in free]
        out.update(items=len(texts), tokens=sum(len(model.encode(t).ids) for t in texts), weights_gib=round(weights / 2**30, 2),
                   start=dict(rows=AUTO_START_CUDA, tokens=AUTO_TOKENS_CUDA), reached=dict(rows=model.sizer.size, tokens=model.sizer.tokens),
                   peak_gib=round(torch.cuda.max_memory_allocated(device) / 2**30, 2), device_gib=round(total / 2**30, 1))
        out["peak_share_of_device"] = round(torch.cuda.max_memory_allocated(device) / total, 3)
        # a cap that leaves the activations of a quarter of the auto batch: the back-off must halve its way down
        room = (torch.cuda.max_memory_allocated(device) - weights) // 4
        fraction = (weights + room) / total
        first = [s.total for s in model.sequence_logprobs(texts[:8])]
        torch.cuda.empty_cache()
        torch.cuda.set_per_process_memory_fraction(fraction, index)
        try:
            model.batch_size = "auto"
            capped = [s.total for s in model.sequence_logprobs(texts)]
            diff = max(abs(a - b) / max(1.0, abs(a)) for a, b in zip(values, capped))
            out["capped"] = dict(cap_gib=round(fraction * total / 2**30, 2), reached=dict(rows=model.sizer.size, tokens=model.sizer.tokens),
                                 backed_off=model.sizer.tokens < AUTO_TOKENS_CUDA, max_diff_vs_uncapped=float(f"{diff:.3g}"))
            with model.probing():  # float32 does not fit under the cap: the probe computes at bf16 instead of failing
                out["capped"]["probe_dtype"] = str(model.model.dtype)

            class OneDecision(Scorer):  # the precision check's own path, on this model, under the cap
                name, decision_name = "gpu-check", "scores"
                decision = staticmethod(lambda record: True)
                score = staticmethod(lambda model, items: [])

            scorer = OneDecision()
            scorer.prepare(RunContext(rows=({"id": "x"},)))
            run = RunFolder(Path(tempfile.mkdtemp(prefix="gpu-check-precision-")))
            out["capped"]["precision_check"] = precision_check(scorer, model, [{"id": "x"}], run, 4)
            out["capped"]["dtype_after"] = str(model.model.dtype)
        finally:
            torch.cuda.set_per_process_memory_fraction(1.0, index)
            torch.cuda.empty_cache()
            model.batch_size = "auto"
        # the failed float32 casts left every weight as it was: the same texts in the same batch score the same
        out["capped"]["same_after_casts"] = first == [s.total for s in model.sequence_logprobs(texts[:8])]
        if not out["capped"]["backed_off"]:
            check.result["failures"].append("batch: the memory cap did not make the auto batch back off")
        print(f"   {json.dumps(out)[:600]}", flush=True)


def mfu(check: Check, model, name: str, workloads: dict) -> None:
    """Each workload's needed FLOPs (perf/limit.py) over its wall time, against the best GEMM rate of the model's
    own matrix shapes measured in the same process (up to the workload's own batch rows on CUDA)."""
    import limit

    device = model.device
    config, dtype = model.model.config, model.model.dtype
    with check.step(f"limit/{name}") as out:
        if device.type == "cuda":
            limit.ROWS = (256, 1024, 4096, 16384)
        rate, rows = limit.gemm_rate(config, dtype, device)
        out.update(gemm_tflops=float(f"{rate / 1e12:.3g}"), gemm_best_rows=rows, workloads={})
        if device.type == "cuda":
            a = torch.randn(8192, 8192, device=device, dtype=dtype)
            _, seconds = timed(device, lambda: a @ a, repeat=10)
            out["square_8192_tflops"] = round(2 * 8192**3 / seconds / 1e12, 1)
        peer = LMEvalPeer.start(model)
        out["peer"] = peer.what if peer.lm is not None else peer.why
        for kind, items in workloads.items():
            model.batch_size = "auto"
            depths, scored = limit.workload_shape(model, items)
            need = limit.needed_flops(config, depths, scored)
            total = need["body"] + need["attention"] + need["head"]
            scores, seconds = timed(device, lambda: model.sequence_logprobs(items), repeat=3)
            w = out["workloads"][kind] = {"items": len(items), "tokens_fed": need["tokens"], "positions_read": scored,
                                          "tflop": round(total / 1e12, 3), "seconds": round(seconds, 4),
                                          "tflops": round(total / seconds / 1e12, 1), "mfu": round(total / seconds / rate, 3),
                                          "batch_rows": model.sizer.size, "batch_tokens": model.sizer.tokens}
            if device.type == "cuda":
                w.update(device_time(lambda: model.sequence_logprobs(items), device, seconds))
            if peer.lm is not None:
                theirs, their_seconds = timed(device, lambda: peer.loglikelihood(items), repeat=2)
                ours = np.array([s.total for s in scores])
                diff = np.abs(ours - np.array(theirs))
                w["lm_eval"] = {"seconds": round(their_seconds, 4), "speedup": round(their_seconds / seconds, 2),
                                "mfu": round(total / their_seconds / rate, 3), "max_abs_diff": float(f"{diff.max():.3g}"),
                                "max_rel_diff": float(f"{(diff / np.maximum(1.0, np.abs(ours))).max():.3g}"),
                                "pearson": float(f"{np.corrcoef(ours, theirs)[0, 1]:.6f}")}
            print(f"   {name} {kind}: {json.dumps(w)}", flush=True)
        if peer.lm is not None and name != "llama-3-8b":  # float32 (the same weights, cast): values equal, not bf16-near
            out["lm_eval_float32"] = float32_agreement(model, peer, workloads)
        if device.type == "cuda":
            out["host_profile_sentence"] = host_profile(lambda: model.sequence_logprobs(workloads["sentence"]))


SUITE_ROWS_CPU = 2  # --cpu: the probe's rows per benchmark, and twice that measured (the step runs in `make test`, kept short)
SUITE_PROBE_ROWS = 16  # CUDA: rows of the probe that sizes each benchmark's measured run to its share of the budget


def suite(check: Check, model, name: str, data: dict, root: Path, budget_s: float, cpu_only: bool) -> None:
    """The suite step: every benchmark's full profile (its options) on a seeded sample of its default build of its own
    (``SUITE_FRACTION`` of the rows, at least ``SUITE_LEAST``, so that the work fills batches); per benchmark the
    seconds, the GPU-busy share (torch.profiler over the call), MFU where the benchmark's work is scoring passes (2 x
    body parameters x tokens fed, over the GEMM rate the limit step measured: attention and head left out, so a lower
    bound), and the full profile's cost extrapolated to one submission (``suite_cost.extrapolate``: generation per text generated, the rest per item), in
    GPU-minutes. Each benchmark gets an even share of what is left of ``budget_s``: a probe of ``SUITE_PROBE_ROWS``
    rows, then the rows of the sample that share affords at the probe's rate."""
    from suite_cost import EXTRAPOLATION, counting, decoding_summary, extrapolate, generated_tokens, planned_units

    from wordbench.benchmarks.registry import get
    from wordbench.benchmarks.scoring import score_dataset
    from wordbench.errors import WordbenchError

    device = model.device
    full = {b: {"items": spec["full_items"], "generations": spec["full_generations"]}
            for b, spec in data["benchmarks"].items() if "full_items" in spec}
    with check.step(f"suite/{name}") as out:
        gemm = check.result["steps"].get(f"limit/{name}", {}).get("gemm_tflops")
        body = sum(p.numel() for n, p in model.model.named_parameters() if "embed" not in n and "lm_head" not in n)
        out.update(extrapolation=EXTRAPOLATION, full_items_from=f"{DATA.name} (the default builds' full profiles)" if full else None,
                   benchmarks={})
        t_start = time.perf_counter()
        benches = list(data["benchmarks"].items())
        for k, (bench, spec) in enumerate(benches):
            left = budget_s - (time.perf_counter() - t_start)
            if left <= 0 or not check.time_left(f"suite/{name}/{bench}"):
                out["benchmarks"][bench] = {"skipped": f"the suite step's budget of {budget_s:.0f} s was spent"}
                continue
            share = left / (len(benches) - k)  # what is left, split evenly over the benchmarks still to run
            sample = spec["suite"]["data"]
            rows = sample["default"]["test"]
            options = get(bench).profile("full").as_dict()["options"]
            bound = None
            if not cpu_only and bench == "minpairs" and options.get("discrepancy", True):
                # Random weights never write the newline that ends a translation, so each would run to max_new_tokens
                # (256): bounded instead by the longest correct sentence of the sample, as a trained model's would be.
                bound = max(len(e.ids) for e in model.plain_encodings([r["correct"] for r in rows])) + 8
                options = {**options, "max_new_tokens": bound}
            model.batch_size = "auto"

            def measure(limit: int, folder: str):  # tendencies: ``limit`` caps n, the samples per strategy
                with counting(model) as counts:
                    run, seconds, busy = busy_time(lambda: score_dataset(get(bench).scorer(**options), model, f"gpu-check:{bench}", sample,
                                                                         "gpu-check sample", limit=limit, out=root / name / bench / folder,
                                                                         progress=False, precision_sample=0), device)
                return run, seconds, busy, counts

            # A probe first; then as many of the sample's rows as the benchmark's share of the budget affords at the
            # probe's rate (a fresh run folder, so nothing is resumed), so that every benchmark is measured.
            probe_rows, most = (SUITE_ROWS_CPU, 2 * SUITE_ROWS_CPU) if cpu_only else (SUITE_PROBE_ROWS, len(rows))
            limit = min(len(rows), probe_rows)
            try:
                run, seconds, busy, counts = measure(limit, "probe")
                probe = {"items": planned_units(bench, sample, limit, options)["items"], "seconds": round(seconds, 3)}
                fit = min(len(rows), most, int(limit * (share - seconds) / max(seconds, 1e-3)))
                if fit > limit:
                    limit = fit
                    run, seconds, busy, counts = measure(limit, "measured")
            except WordbenchError as exc:  # a sample too small for the full profile's statistics: said, not a failure
                out["benchmarks"][bench] = {"skipped": str(exc).splitlines()[0]}
                continue
            scored = planned_units(bench, sample, limit, options)  # in the units of full_items and full_generations
            items = scored["items"]
            w = out["benchmarks"][bench] = {"items": items, "generations": scored["generations"], "seconds": round(seconds, 3), **counts,
                                            "generated_tokens": generated_tokens(run), "share_s": round(share, 1),
                                            "decoding": decoding_summary(counts["decodes"])}
            if items != probe["items"]:
                w["probe"] = probe
            if bound is not None:
                w["max_new_tokens"] = f"{bound}: the sample's longest correct sentence + 8 (random weights never end a translation)"
            if bench == "tendencies" and not cpu_only:
                w["max_new_tokens"] = "the longest reference + 1 (the full profile's): random weights never end a sample, so each runs to it, an upper bound"
            if busy is not None:
                w["gpu_busy_share"] = round(busy / seconds, 3)
            if gemm and bench != "tendencies" and counts["forward_tokens"]:
                w["mfu"] = round(2 * body * counts["forward_tokens"] / seconds / (gemm * 1e12), 3)
            if w["generated_tokens"]:
                w["generated_tokens_per_s"] = round(w["generated_tokens"] / seconds, 1)
            if bench in full and items:
                w.update(full_items=full[bench]["items"], full_generations=full[bench]["generations"],
                         fraction=round(items / full[bench]["items"], 5),
                         full_gpu_minutes=round(extrapolate({**w, "seconds": seconds}, scored, full[bench])["seconds"] / 60, 2))
            print(f"   suite {name} {bench}: {json.dumps(w)}", flush=True)
        done = [w for w in out["benchmarks"].values() if "full_gpu_minutes" in w]
        if done and len(done) == len(data["benchmarks"]):
            out["full_submission_gpu_minutes"] = round(sum(w["full_gpu_minutes"] for w in done), 1)


DECODE_SWEEP = (4096, 8192, 16384)  # row caps tried by the decode step (the cache's share from the free memory)
DECODE_SOURCES = 4096  # CUDA: prompts per benchmark and setting (minpairs: 20,480 rows, past the largest cap); --cpu: DECODE_SOURCES_CPU under one setting
DECODE_SOURCES_CPU = 6
DECODE_BUDGET_S = 60  # CUDA: settings after this many seconds of the step are left out (the check keeps within 8 minutes)


def decode_lengths() -> dict[str, list[dict]]:
    """Per benchmark, the continuous decodes SmolLM2 made in ``perf/suite.py --profile full`` on CPU: each prompt's
    tokens and the step it ended at (``suite_cost.counting``), read from perf/results/suite-full.json."""
    per = json.loads((HERE / "results" / "suite-full.json").read_text())["per_benchmark"]
    return {name: r["measured"]["decodes"] for name, r in per.items() if r.get("measured", {}).get("decodes")}


def decode(check: Check, model, name: str, cpu_only: bool) -> None:
    """The decode step: one submission's generations as SmolLM2 made them (``decode_lengths``: its prompts' lengths and
    end steps, drawn with replacement, seed 0), decoded by the continuous decoder with forced ends (random weights
    never stop on their own) under a sweep of row caps; per setting and benchmark the seconds, GPU-busy share, decode
    steps and rows per step, tokens fed, and the GPU-minutes of the full profile's generations at that rate (linear in
    prompts: a full decode batch's time per prompt) beside the FLOP bound at the measured GEMM rate."""
    import random

    from wordbench.scorers.models.decode import Budget, Decoder, Request, Stats

    with check.step(f"decode/{name}") as out:
        lengths = decode_lengths()
        full = {b: spec["full_generations"] for b, spec in load_check_data()["benchmarks"].items() if "full_generations" in spec}
        gemm = check.result["steps"].get(f"limit/{name}", {}).get("gemm_tflops")
        params = sum(p.numel() for n, p in model.model.named_parameters() if "embed" not in n)
        vocab = model.model.config.vocab_size
        out.update(lengths_from="perf/results/suite-full.json (SmolLM2-135M on CPU, python perf/suite.py --profile full)", settings={})
        sweep = DECODE_SWEEP[:1] if cpu_only else DECODE_SWEEP
        t0 = time.perf_counter()
        for cap in sweep:
            setting = out["settings"][f"rows<={cap}"] = {}
            if time.perf_counter() - t0 > DECODE_BUDGET_S:
                setting["skipped"] = f"the decode step's {DECODE_BUDGET_S} s were spent"
                continue
            for bench, calls in lengths.items():
                rng = random.Random(0)
                pool = [(p, e, (c["strategy"], c["rows"])) for c in calls for p, e in zip(c["prompt_tokens"], c["ends"])]
                drawn = [rng.choice(pool) for _ in range(DECODE_SOURCES_CPU if cpu_only else DECODE_SOURCES)]
                seconds, busy, stats, fed = 0.0, 0.0, Stats(), 0
                for strategy, rows in sorted({kind for _, _, kind in drawn}):  # one decode per strategy, as the scorer calls it
                    group = [(p, e) for p, e, kind in drawn if kind == (strategy, rows)]
                    prompts = [[rng.randrange(3, vocab) for _ in range(p)] for p, _ in group]
                    ends = [e for _, e in group]
                    request = Request(strategy, max(ends), 0.95, rows, set(), ends=ends)
                    decoder = Decoder(model.model, model.device, model.pad_id, None if model.device.type == "cuda" else Budget(min(cap, 64)), row_cap=cap)
                    with torch.inference_mode():
                        _, s, b = busy_time(lambda: decoder.run(prompts, list(range(len(prompts))), request), model.device)
                    seconds, busy = seconds + s, None if b is None else busy + b
                    stats.add(decoder.stats)
                    fed += sum(len(p) for p in prompts) + decoder.stats.row_steps
                w = setting[bench] = {"prompts": len(drawn), "seconds": round(seconds, 3), **stats.as_dict(), "tokens_fed": fed,
                                      "tokens_fed_per_s": round(fed / seconds, 1)}
                if busy is not None:
                    w["gpu_busy_share"] = round(busy / seconds, 3)
                if gemm:
                    w["mfu"] = round(2 * params * fed / seconds / (gemm * 1e12), 3)
                if bench in full:
                    w["full_generations"] = full[bench]
                    w["full_gpu_minutes"] = round(seconds * full[bench] / len(drawn) / 60, 2)
                    if gemm:
                        w["full_flop_bound_minutes"] = round(2 * params * fed * full[bench] / len(drawn) / (gemm * 1e12) / 60, 2)
                print(f"   decode {name} rows<={cap} {bench}: {json.dumps(w)}", flush=True)


def busy_time(fn, device: torch.device):
    """(``fn()``, its wall time, the GPU's kernel time in it (None on CPU)): torch.profiler over the call itself."""
    if device.type != "cuda":
        t0 = time.perf_counter()
        result = fn()
        return result, time.perf_counter() - t0, None
    from torch.profiler import ProfilerActivity, profile

    sync(device)
    t0 = time.perf_counter()
    with profile(activities=[ProfilerActivity.CUDA]) as prof:
        result = fn()
        sync(device)
    wall = time.perf_counter() - t0
    own = lambda e: getattr(e, "self_device_time_total", None) or getattr(e, "self_cuda_time_total", 0)  # noqa: E731 - µs
    busy = sum(own(e) for e in prof.key_averages() if getattr(e, "device_type", None) is None or "CUDA" in str(e.device_type)) / 1e6
    return result, wall, busy


def float32_agreement(model, peer, workloads, n: int = 128) -> dict:
    """Largest |wordbench - lm-eval| per workload on ``n`` items, both computing in float32 on the same cast module."""
    out = {}
    with model.computing_in(torch.float32):
        for kind, items in workloads.items():
            ours = np.array([s.total for s in model.sequence_logprobs(items[:n])])
            theirs = np.array(peer.loglikelihood(items[:n]))
            out[kind] = {"items": len(ours), "max_abs_diff": float(f"{np.abs(ours - theirs).max():.3g}")}
    return out


def host_profile(fn, top: int = 8) -> dict:
    """The Python functions one call spends its own time in (cProfile, ms), beside its wall time: what the GPU waits for."""
    import cProfile
    import pstats

    prof = cProfile.Profile()
    t0 = time.perf_counter()
    prof.enable()
    fn()
    prof.disable()
    wall = time.perf_counter() - t0
    stats = sorted(pstats.Stats(prof).stats.items(), key=lambda kv: -kv[1][2])[:top]
    return {"wall_ms": round(wall * 1e3, 1), "own_ms": {f"{Path(f).name}:{line}({fn_name})": round(tt * 1e3, 1)
                                                        for (f, line, fn_name), (_, _, tt, _, _) in stats}}


GEMM_KERNELS = ("gemm", "matmul", "nvjet", "cutlass", "sm90_xmma", "cublas")


def device_time(fn, device: torch.device, wall: float) -> dict:
    """Where the wall time of ``fn`` goes: the GPU's kernel time (torch.profiler, one extra call), its matrix-product
    share, and the rest of ``wall`` (host work the GPU waits for: tokenizing, layout, masks, launches)."""
    from torch.profiler import ProfilerActivity, profile

    with profile(activities=[ProfilerActivity.CUDA]) as prof:
        fn()
        sync(device)
    kernels = [e for e in prof.key_averages() if getattr(e, "device_type", None) is None or "CUDA" in str(e.device_type)]
    own = lambda e: getattr(e, "self_device_time_total", None) or getattr(e, "self_cuda_time_total", 0)  # noqa: E731 - µs
    busy = sum(own(e) for e in kernels) / 1e6
    gemm = sum(own(e) for e in kernels if any(k in e.key.lower() for k in GEMM_KERNELS)) / 1e6
    top = sorted(kernels, key=own, reverse=True)[:4]
    return {"gpu_kernel_s": round(busy, 4), "gemm_kernel_s": round(gemm, 4), "host_or_idle_s": round(max(wall - busy, 0.0), 4),
            "gpu_busy_share": round(busy / wall, 3), "top_kernels": {e.key[:60]: round(own(e) / 1e3, 2) for e in top}}


class LMEvalPeer:
    """lm-evaluation-harness's HF backend (``HFLM.loglikelihood``) on the same module and tokenizer, where it is
    installed (make gpu-wheels carries it): what a researcher would otherwise run. Row cap 64, its own sorting."""

    BATCH = 64

    def __init__(self, lm=None, why: str = "", what: str = ""):
        self.lm, self.why, self.what = lm, why, what

    @classmethod
    def start(cls, model) -> "LMEvalPeer":
        try:
            import lm_eval
            from lm_eval.models.huggingface import HFLM
        except ImportError as exc:
            return cls(why=f"not run: lm-evaluation-harness is not installed ({exc})")
        lm = HFLM(pretrained=model.model, tokenizer=model.tokenizer, batch_size=cls.BATCH, device=str(model.device))
        peer = cls(lm, what=f"lm-eval {getattr(lm_eval, '__version__', '?')} HFLM, batch_size={cls.BATCH}")
        peer.bos = lm.tokenizer.decode([lm.prefix_token_id])
        return peer

    def loglikelihood(self, items) -> list[float]:
        from lm_eval.api.instance import Instance

        # a sentence: an empty context is lm-eval's prefix (BOS) token; a pair: BOS as wordbench prepends it
        pairs = [("", it) if isinstance(it, str) else (self.bos + it[0], it[1]) for it in items]
        requests = [Instance("loglikelihood", {}, pair, n) for n, pair in enumerate(pairs)]
        return [lp for lp, _ in self.lm.loglikelihood(requests, disable_tqdm=True)]


# --- the check's data: seeded samples of the default builds, made here (the GPU machine has no builders' sources) ----

CHECK_RUNS = {  # benchmark -> (--limit of the sample, the options its check runs with: small, deterministic runs)
    "wnlampro": (24, {}),
    "wordpred": (4, {}),
    "paraphrase": (12, {}),
    "vast": (8, {"n_resamples": 9, "max_pcs": 2, "probe_words": 8, "tokenization_setting": "bleached"}),  # bleached rows alone, no WEAT words
    "minpairs": (24, {"discrepancy": False}),  # translation by beam search is checked through tendencies' generation
    # greedy alone: sampled strategies draw from the device's generator, so CUDA and CPU samples differ by design
    "tendencies": (12, {"strategies": "greedy", "n": 12, "max_new_tokens": 8, "n_resamples": 9, "baseline_draws": 2}),
}
WORKLOAD_SIZES = {"sentence": 1024, "conditional": 512, "candidates": 256}  # conditional: pairs; candidates: entries (5 targets each)


SUITE_FRACTION, SUITE_LEAST = 0.01, 64  # the suite step's sample of each build: enough rows to fill several batches


def cut_to(bench: str, data: dict, rows: list, plain) -> dict:
    """The configs ``bench``'s scorer reads, for test rows ``rows``: the other configs cut to what those rows need."""
    configs = {"default": {"test": plain(rows)}}
    if bench == "wordpred":
        words = {w for r in rows for w in r["words"]}
        configs["types"] = {"test": plain(r for r in data["types"]["test"] if r["word"] in words)}
    if bench == "tendencies":  # the human spread: a seeded sample of the train split, twice as many as the test rows
        from wordbench.hashing import seeded_key

        configs["default"]["train"] = plain(sorted(data["default"]["train"], key=lambda r: seeded_key(0, r["id"]))[: 2 * len(rows)])
    if bench == "minpairs":
        configs["counts"] = {"test": plain(data["counts"]["test"])}
    return configs


def make_data(path: Path = DATA) -> None:
    """Write ``path``: for each benchmark a seeded, stratified sample of its default build (the other configs its
    scorer reads cut to what the sample needs), and the texts of the speed workloads (as perf/peers.py takes them)."""
    from wordbench.benchmarks.hub import load_data
    from wordbench.benchmarks.registry import get
    from wordbench.benchmarks.scoring import select
    from wordbench.hashing import seeded_key
    from wordbench.scorers.minpairs import Options
    from wordbench.scorers.wnlampro import PATTERNS, fill
    from suite_cost import limit_for, planned_units

    plain = lambda rows: [dict(r) for r in rows]  # noqa: E731
    out = {"benchmarks": {}}
    loaded = {}
    for bench, (limit, options) in CHECK_RUNS.items():
        _, data = loaded[bench] = load_data(bench, None, progress=False)
        scorer = get(bench).scorer(**options)
        rows = select(data, "default", "test", limit, scorer=scorer)
        if bench == "vast":
            rows = [r for r in rows if r["setting"] == options["tokenization_setting"] and not r["group"].startswith("weat:")]
        configs = cut_to(bench, data, rows, plain)
        if bench == "tendencies":  # short lines: the tiny models take 64 positions
            short = lambda split: [r for r in sorted(data["default"][split], key=lambda r: seeded_key(0, r["id"])) if r["length"] <= 8]  # noqa: E731
            configs["default"]["test"] = plain(short("test")[:limit])
            configs["default"]["train"] = plain(short("train")[:limit])
        full = get(bench).profile("full").as_dict()["options"]
        suite_limit, _ = limit_for(bench, data, full, SUITE_FRACTION, SUITE_LEAST)
        suite_rows = select(data, "default", "test", suite_limit, scorer=get(bench).scorer(**full))
        units = planned_units(bench, data, None, full)
        out["benchmarks"][bench] = {"data": configs, "options": options, "full_items": units["items"], "full_generations": units["generations"],
                                    "suite": {"limit": suite_limit, "data": cut_to(bench, data, suite_rows, plain)}}
    pairs = sorted(loaded["minpairs"][1]["default"]["test"], key=lambda r: seeded_key(0, r["id"]))
    sentences = list(dict.fromkeys(r["source"] for r in pairs))[: WORKLOAD_SIZES["sentence"]]
    conditional = [(Options.prompt.format(source=r["source"]), " " + r[k] + Options.end)
                   for r in pairs[: WORKLOAD_SIZES["conditional"]] for k in ("correct", "incorrect")]
    entries = sorted(loaded["wnlampro"][1]["default"]["test"], key=lambda r: seeded_key(0, r["id"]))
    candidates = [(fill(PATTERNS[e["relation"]][0], e["key"])[0], t) for e in entries[: WORKLOAD_SIZES["candidates"]] for t in e["targets"][:5]]
    out["workloads"] = {"sentence": sentences, "conditional": conditional, "candidates": candidates}
    path.write_text(json.dumps(out, ensure_ascii=False, separators=(",", ":")) + "\n", encoding="utf-8")
    print(f"{path}: {path.stat().st_size / 1e3:.0f} kB")


# --- the run ----------------------------------------------------------------------------------------------------

def workload_items(data: dict, cpu_only: bool) -> dict:
    w = data["workloads"]
    cut = (lambda xs: xs[:16]) if cpu_only else (lambda xs: xs)
    return {"sentence": cut(w["sentence"]), "conditional": [tuple(p) for p in cut(w["conditional"])],
            "candidates": [tuple(p) for p in cut(w["candidates"])]}


def markdown_table(result: dict) -> str:
    """The limit step as the README's table (``python perf/gpu_check.py --table perf/results/gpu.json``)."""
    lines = ["| shape | workload | tokens fed | wordbench s | MFU | GPU busy | lm-eval s | lm-eval MFU | speedup |",
             "|---|---|---|---|---|---|---|---|---|"]
    for step, out in result["steps"].items():
        if not step.startswith("limit/") or "workloads" not in out:
            continue
        for kind, w in out["workloads"].items():
            peer = w.get("lm_eval", {})
            lines.append(f"| {step.split('/')[1]} | {kind} | {w['tokens_fed']:,} | {w['seconds']:.3f} | {w['mfu']:.1%} | "
                         f"{w['gpu_busy_share']:.0%} | {peer.get('seconds', float('nan')):.3f} | {peer.get('mfu', float('nan')):.1%} | "
                         f"{peer.get('speedup', float('nan')):.2f}x |")
    return "\n".join(lines)


def write_text_report(result: dict, path: Path) -> None:
    lines = [f"wordbench GPU check: {result['environment'].get('gpu', result['environment']['device'])}, "
             f"torch {result['environment']['torch']}, transformers {result['environment']['transformers']}", ""]
    for name, step in result["steps"].items():
        status = "FAILED " + step["error"] if "error" in step else step.get("skipped", "ok")
        lines.append(f"{name:32s} {step['wall_s']:8.1f} s  {status}")
        for kind, w in step.get("workloads", {}).items():
            busy = f"  GPU busy {w['gpu_busy_share']:.0%}" if "gpu_busy_share" in w else ""
            lines.append(f"    {kind:12s} {w['tokens_fed']:7d} tokens  {w['seconds']:.3f} s{busy}  {w['tflops']:7.1f} TFLOP/s  MFU {w['mfu']:.1%} "
                         f"of {step['gemm_tflops']} TFLOP/s" + (f"  lm-eval {w['lm_eval']['seconds']:.3f} s ({w['lm_eval']['speedup']}x, "
                                                                 f"MFU {w['lm_eval']['mfu']:.1%})" if "lm_eval" in w else ""))
    lines += ["", f"failures: {len(result['failures'])}"] + [f"  {f}" for f in result["failures"]]
    path.write_text("\n".join(lines) + "\n")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cpu", action="store_true", help="tiny models on CPU only (the mode `make test` runs)")
    ap.add_argument("--out", type=Path, help="folder of gpu.json and gpu.txt (default: perf/results on CUDA, a temporary folder with --cpu)")
    ap.add_argument("--make-data", action="store_true", help=f"write {DATA.name} from the default builds (here, not on the GPU machine)")
    ap.add_argument("--save-tokenizer", action="store_true", help=f"write the packaged SmolLM2's tokenizer to {REAL_TOKENIZER} (make gpu-wheels)")
    ap.add_argument("--table", type=Path, help="print the limit step of this gpu.json as the README's markdown table")
    ap.add_argument("--budget", type=float, default=420, help="seconds after which the remaining steps are left out (default 420)")
    ap.add_argument("--skip", default="", help="comma-separated steps to leave out (correctness, shard, head, batch, limit, decode, suite)")
    ap.add_argument("--suite-budget", type=float, default=100, help="seconds per shape for the suite step (default 100)")
    args = ap.parse_args(argv)
    if args.make_data:
        make_data()
        return 0
    if args.save_tokenizer:
        save_tokenizer()
        return 0
    if args.table:
        print(markdown_table(json.loads(args.table.read_text())))
        return 0
    if not args.cpu and not torch.cuda.is_available():
        print("no CUDA device: run with --cpu for the CPU mode", file=sys.stderr)
        return 2
    from tiny_models import build_tiny_models

    skip = set(filter(None, args.skip.split(",")))
    device = torch.device("cpu" if args.cpu else "cuda")
    out_dir = args.out or (Path(tempfile.mkdtemp(prefix="gpu-check-")) if args.cpu else HERE / "results")
    out_dir.mkdir(parents=True, exist_ok=True)
    root = Path(tempfile.mkdtemp(prefix="gpu-check-work-"))
    os.environ.setdefault("WORDBENCH_CACHE", str(root / "cache"))
    check = Check(args.budget, out_dir / "gpu.json")
    check.result["environment"] = environment(device)
    check.result["mode"] = "cpu" if args.cpu else "cuda"
    start = time.perf_counter()
    with check.step("setup") as out:
        models = build_tiny_models(root / "models", positions=TINY_POSITIONS)
        data = load_check_data()
        out["tiny_models"] = sorted(models)
    if "correctness" not in skip:
        correctness(check, args.cpu, models, data, root / "runs")
    if not args.cpu and "shard" not in skip and check.time_left("shard"):
        shard(check, models, data, root / "runs")
    tokenizer, tokenizer_name = load_tokenizer(models["llama"], real=not args.cpu)
    check.result["environment"]["real_shape_tokenizer"] = tokenizer_name
    items = workload_items(data, args.cpu)
    dtype = torch.float32 if args.cpu else torch.bfloat16
    for name in (["tiny"] if args.cpu else list(SHAPES)):
        if not ({"head", "limit", "batch", "suite"} - skip):
            break
        model = None
        if not check.time_left(f"build/{name}"):
            continue
        with check.step(f"build/{name}") as out:
            model = real_shape(name, device, dtype, tokenizer)
            out["parameters_b"] = round(sum(p.numel() for p in model.model.parameters()) / 1e9, 3)
        if model is None:
            continue
        if "head" not in skip and check.time_left(f"head/{name}"):
            head(check, model, name)
        if "limit" not in skip and check.time_left(f"limit/{name}"):
            mfu(check, model, name, items)
        if "decode" not in skip and check.time_left(f"decode/{name}"):
            decode(check, model, name, args.cpu)
        if "suite" not in skip and check.time_left(f"suite/{name}"):
            suite(check, model, name, data, root / "suite", args.suite_budget, args.cpu)
        if name == "llama-3-8b" and "batch" not in skip and check.time_left("batch"):
            long_texts = [" ".join(items["sentence"][i : i + 12]) for i in range(0, len(items["sentence"]), 12)]
            batch_and_oom(check, model, long_texts * 4)
        del model
        gc.collect()
        if device.type == "cuda":
            torch.cuda.empty_cache()
    check.result["wall_s"] = round(time.perf_counter() - start, 1)
    check.save()
    write_text_report(check.result, out_dir / "gpu.txt")
    print((out_dir / "gpu.txt").read_text())
    return 1 if check.result["failures"] else 0


if __name__ == "__main__":
    sys.exit(main())

"""Admission of a local model, as the leaderboard's Submit form runs it: the seconds of each check for the packaged
models (SmolLM2-135M as a 98 MB GGUF, MiniLM as safetensors), in a process whose imports are done (as the server's
are): the first admission of each (its metadata read) and the median of the later ones (read once per file), and the
same GGUF with gguf's own reader and transformers' metadata parse as they come (the baseline: its
parameters counted by ``gguf.GGUFReader``, its metadata parsed once for the config and again for the tokenizer, each
over a ``np.memmap``).

    python perf/admission.py [--rounds 3]     # writes perf/results/admission.json
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time

from common import machine, write_result


def admit_once(model: str) -> tuple[float, list[tuple[str, float]], int | None]:
    from wordbench.benchmarks.queue import open_queue
    from wordbench.benchmarks.submit import admit

    queue = open_queue(tempfile.mkdtemp(), create=True)
    steps, last = [], [time.perf_counter()]

    def step(line):
        now = time.perf_counter()
        if steps:
            steps[-1] = (steps[-1][0], round(now - last[0], 2))
        steps.append((line, 0.0))
        last[0] = now

    start = last[0]
    request = admit(model, queue, submitter="perf", step=step)
    steps[-1] = (steps[-1][0], round(time.perf_counter() - last[0], 2))
    return time.perf_counter() - start, steps, request.params


def baseline(model: str) -> tuple[float, int]:
    """What admission cost before: gguf's reader for the parameters, and transformers' metadata parse twice."""
    import transformers
    from gguf import GGUFReader

    start = time.perf_counter()
    params = int(sum(int(t.n_elements) for t in GGUFReader(model).tensors))
    import transformers.modeling_gguf_pytorch_utils as gguf_utils

    parse = getattr(gguf_utils.load_gguf_checkpoint, "__wrapped__", gguf_utils.load_gguf_checkpoint)
    for _ in range(2):  # the config, then the tokenizer
        parse(model, return_tensors=False)
    transformers  # noqa: B018 - imported before the clock, as in the server
    return time.perf_counter() - start, params


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    import transformers  # noqa: F401 - the server has imported it before any submission

    import wordbench.benchmarks.app  # noqa: F401
    from wordbench.benchmarks.packaged import packaged_minilm, packaged_smollm2

    result = {"machine": machine(), "rounds": args.rounds, "models": {}}
    for name, path in (("smollm2-gguf", str(packaged_smollm2())), ("minilm-safetensors", str(packaged_minilm()))):
        runs = [admit_once(path) for _ in range(args.rounds)]  # the first reads the file's metadata; later ones reuse it
        result["models"][name] = {"first_seconds": round(runs[0][0], 2), "first_steps": runs[0][1],
                                  "again_seconds": round(statistics.median(r[0] for r in runs[1:]), 2) if len(runs) > 1 else None,
                                  "params": runs[0][2]}
    gguf = str(packaged_smollm2())
    old = [baseline(gguf) for _ in range(args.rounds)]
    assert all(p == result["models"]["smollm2-gguf"]["params"] for _, p in old), "the header reader counts as gguf's does"
    result["baseline_smollm2_gguf_metadata_seconds"] = round(statistics.median(t for t, _ in old), 2)
    write_result("admission", None, result)


if __name__ == "__main__":
    main()

"""The decode layout of one submission's generations, planned from lengths on any machine: sequential decode steps
and rows per step of today's fixed batches (``BatchSizer``: a batch runs until its longest output ends) against the
continuous decoder (``scorers/models/decode.py``), for this CPU's budget and for a GPU's memory.

The lengths are what the packaged SmolLM2 produced in ``perf/suite.py --profile full`` (each generation's prompt
tokens and the step it ended at, recorded by ``suite_cost.counting``), drawn with replacement (seed 0) up to the full
profile's generation count. The 1B and 8B shapes are priced on the same lengths (the GPU check forces their ends to
SmolLM2's), with their own cache bytes per token and vocabulary.

    python perf/decode_plan.py      # reads perf/results/suite-full.json, writes perf/results/decode-plan.json
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import torch

from wordbench.scorers.models import decode
from wordbench.scorers.models.batching import BatchSizer

GB = 1e9
# name: (device memory, weights, KV-cache bytes per token, vocabulary); bf16, Llama 3 shapes (GQA: 8 KV heads)
DEVICES = {
    "8B on an 80 GB GPU": (80 * GB, 16.1 * GB, 2 * 32 * 8 * 128 * 2, 128256),
    "1B on an 80 GB GPU": (80 * GB, 2.5 * GB, 2 * 16 * 8 * 64 * 2, 128256),
}
METHOD = ("per benchmark, the (prompt tokens, end step) of each generation SmolLM2 made in the measured sample, drawn with "
          "replacement (seed 0) up to the full profile's generations; today: BatchSizer's auto batches for the device "
          "(GPU: 65,536 tokens of prompt + max_new_tokens per row, 256 prompts at most; CPU: 1,024 prompt tokens per row, 16 "
          "prompts), each running until its longest output ends; continuous: decode.plan under decode.Budget (GPU: "
          "Budget.for_memory of the memory left after the weights)")


def today_batches(prompts: list[int], rows: int, max_new: int, device: str) -> list[list[int]]:
    """The batches ``CausalLM.generate`` formed before continuous decoding (``BatchSizer`` under ``auto``)."""
    sizer = BatchSizer("auto", torch.device(device))
    batches: list[list[int]] = []
    sizer.run(list(range(len(prompts))), [sizer.generation_length(p, max_new, rows) for p in prompts],
              lambda batch: batches.append(batch) or batch)
    return batches


def budgets() -> dict[str, tuple[str, decode.Budget]]:
    out = {"this CPU": ("cpu", decode.Budget(decode.ROWS_CPU, decode.TOKENS_CPU))}
    for name, (memory, weights, per_token, vocab) in DEVICES.items():
        out[name] = ("cuda", decode.Budget.for_memory(memory - weights, per_token, vocab))
    return out


def plan_workload(calls: list[dict], full_generations: int, seed: int = 0) -> dict:
    """Today's layout against the continuous one for ``full_generations`` drawn from the measured ``calls``."""
    if not calls:
        return {}
    pool = [(p, e, c["rows"], c["max_new_tokens"]) for c in calls for p, e in zip(c["prompt_tokens"], c["ends"])]
    rng = random.Random(seed)
    drawn = [rng.choice(pool) for _ in range(full_generations)]
    out = {"generations": full_generations, "measured_generations": len(pool)}
    for name, (device, budget) in budgets().items():
        per_layout: dict[str, decode.Stats] = {"today": decode.Stats(), "continuous": decode.Stats()}
        for rows, max_new in sorted({(r, m) for _, _, r, m in drawn}):  # one generate call per (rows, max_new_tokens)
            group = [(p, e) for p, e, r, m in drawn if (r, m) == (rows, max_new)]
            prompts, ends = [p for p, _ in group], [e for _, e in group]
            per_layout["today"].add(decode.batch_plan(prompts, ends, rows, today_batches(prompts, rows, max_new, device)))
            per_layout["continuous"].add(decode.plan(prompts, ends, rows, budget, max_new))
        today, cont = per_layout["today"], per_layout["continuous"]
        out[name] = {"budget": {"rows": budget.rows, "tokens": budget.tokens}, "today": today.as_dict(), "continuous": cont.as_dict(),
                     "fewer_sequential_passes": round(today.sequential_passes / max(cont.sequential_passes, 1), 1)}
    return out


def plan_suite(per_benchmark: dict) -> dict:
    """``plan_workload`` for every benchmark of a suite-full result that generated."""
    plans = {name: plan_workload(r["measured"].get("decodes", []), r["full_generations"])
             for name, r in per_benchmark.items() if r.get("measured", {}).get("decodes")}
    total = {}
    for device in budgets():
        today = sum(p[device]["today"]["sequential_passes"] for p in plans.values())
        cont = sum(p[device]["continuous"]["sequential_passes"] for p in plans.values())
        total[device] = {"today": today, "continuous": cont, "fewer_sequential_passes": round(today / max(cont, 1), 1)}
    return {"method": METHOD, "per_benchmark": plans, "suite": total}


def main():
    from common import write_result

    suite = json.loads((Path(__file__).parent / "results" / "suite-full.json").read_text())
    result = {"benchmark": "sequential decode steps of one submission's generations: today's fixed batches against continuous batching",
              "source": "perf/results/suite-full.json (python perf/suite.py --profile full)", "model": suite["model"],
              **plan_suite(suite["per_benchmark"])}
    write_result("decode-plan", None, result)
    print(json.dumps(result["suite"], indent=1))


if __name__ == "__main__":
    main()

"""The GPU check's CPU mode (perf/gpu_check.py --cpu, as `make test` runs it): the same steps on tiny models, so the
script a GPU machine runs cannot rot while none is at hand."""

import json
import math
import os
from pathlib import Path

import numpy as np
import pytest

import gpu_check


HEADLINES = Path(__file__).with_name("builtin_headlines.json")  # each built-in's headline per tiny model, as released


@pytest.fixture(scope="module")
def cpu_check(tmp_path_factory) -> tuple[dict, Path]:
    tmp_path = tmp_path_factory.mktemp("gpu-check")
    # no budget: the budgets bound a lent GPU's device time; here every step must run, however loaded the machine
    assert gpu_check.main(["--cpu", "--out", str(tmp_path), "--budget", "1e9", "--suite-budget", "1e9"]) == 0
    return json.loads((tmp_path / "gpu.json").read_text()), tmp_path


def test_cpu_mode_checks_every_benchmark_on_every_family_it_scores(cpu_check):
    result, tmp_path = cpu_check
    assert result["failures"] == [] and result["mode"] == "cpu"
    checked = {bench.split("/")[1]: sorted(m for m, e in out.items() if isinstance(e, dict) and e.get("ok"))
               for bench, out in result["steps"].items() if bench.startswith("correctness/")}
    assert set(checked) == {"wnlampro", "wordpred", "paraphrase", "vast", "minpairs", "tendencies"}
    families = {"gpt2": "causal", "llama": "causal", "bert": "masked", "bert-encoder": "encoder", "t5": "seq2seq", "bart": "seq2seq", "marian": "seq2seq"}
    for bench, models in checked.items():  # at least a causal and a seq2seq model each; VAST every family
        assert {"causal", "seq2seq"} <= {families[m] for m in models}, bench
    assert set(checked["vast"]) == set(families)
    limit = result["steps"]["limit/tiny"]["workloads"]
    assert set(limit) == {"sentence", "conditional", "candidates"} and all(0 < w["mfu"] for w in limit.values())
    assert "MFU" in (tmp_path / "gpu.txt").read_text()
    suite = result["steps"]["suite/tiny"]["benchmarks"]  # every benchmark's full profile on the check's sample, counted
    measured = {b: w for b, w in suite.items() if "skipped" not in w}  # a statistic the 2-row sample cannot give is skipped, said why
    assert set(suite) == set(checked) and {"wnlampro", "wordpred", "tendencies"} <= set(measured)
    assert all(w["items"] > 0 and w["seconds"] > 0 for w in measured.values())
    assert suite["wordpred"]["search_steps"] > 0 and suite["tendencies"]["generated_tokens"] > 0
    assert all(w["items"] > w["probe"]["items"] for w in measured.values())  # a probe sized the measured run
    assert all(w["forward_tokens"] > 0 and "mfu" in w for b, w in measured.items() if b != "tendencies")
    # the decode step: SmolLM2's generation lengths (suite-full.json) decoded with forced ends, steps and rows counted
    decoded = result["steps"]["decode/tiny"]["settings"]
    assert {"minpairs", "tendencies"} <= set(next(iter(decoded.values())))
    assert all(w["decode_steps"] > 0 and w["rows_per_step"] >= 1 and w["tokens_fed"] > 0 for s in decoded.values() for w in s.values())


def test_the_built_ins_keep_their_headlines_on_the_tiny_models(cpu_check):
    """Every built-in benchmark's headline (value and interval) on every tiny model it scores, CPU float32, equals the
    released one: a refactor (as the move onto the kinds) changes no number. A number meant to change rewrites the
    file (WORDBENCH_UPDATE_HEADLINES=1) in the same commit as the version or signature change it comes with."""
    steps = cpu_check[0]["steps"]
    got = {f"{bench.split('/')[1]}/{name}": entry["headline"] for bench, out in sorted(steps.items())
           if bench.startswith("correctness/") for name, entry in sorted(out.items()) if isinstance(entry, dict) and "headline" in entry}
    if os.environ.get("WORDBENCH_UPDATE_HEADLINES"):
        HEADLINES.write_text(json.dumps(got, indent=1) + "\n")
    want = json.loads(HEADLINES.read_text())

    def same(a, b):
        if isinstance(a, list) and isinstance(b, list):
            return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
        if isinstance(a, float) and isinstance(b, float):
            return math.isclose(a, b, rel_tol=1e-6, abs_tol=1e-9)
        return a == b

    assert got.keys() == want.keys()
    assert {k for k in got if not same(got[k], want[k])} == set(), {k: (got[k], want[k]) for k in got if not same(got[k], want[k])}
    assert {k.split("/")[0] for k, (value, _) in got.items() if value is not None} >= {"wnlampro", "wordpred", "paraphrase", "vast", "minpairs"}


def test_compare_finds_what_differs():
    from wordbench.scorers.vast import encode_vector

    assert gpu_check.compare({"a": [1.0, 2.0], "b": "x"}, {"a": [1.0, 2.00001], "b": "x"}) == (gpu_check.compare(2.0, 2.00001)[0], [])
    worst, diffs = gpu_check.compare({"a": 1.0, "rank": 3}, {"a": 1.01, "rank": 4})
    assert worst > gpu_check.FLOAT_TOL and diffs == [".rank: 3 != 4"]
    assert gpu_check.compare([1, 2], [1])[1] == [": length 2 != 1"]
    v = np.array([0.5, -1.25, 3.0])
    step = np.array([0.5 + 2**-11, -1.25, 3.0])  # one float16 rounding step
    assert gpu_check.compare({"vector": encode_vector(v)}, {"vector": encode_vector(step)})[0] <= gpu_check.FLOAT_TOL
    assert gpu_check.compare({"vector": encode_vector(v)}, {"vector": encode_vector(v + 0.01)})[0] > gpu_check.FLOAT_TOL


def test_extrapolation_scales_generation_by_texts_generated():
    """A submission's cost: what is spent generating scales with the texts generated (minpairs translates each distinct
    source once, 16,195 for 41,871 items), the rest with the items."""
    import suite_cost

    data = json.loads(gpu_check.DATA.read_text())["benchmarks"]
    assert data["minpairs"]["full_generations"] < data["minpairs"]["full_items"]
    assert all(b["full_generations"] == b["full_items"] for n, b in data.items() if n != "minpairs")
    sample = data["minpairs"]["suite"]["data"]
    units = suite_cost.planned_units("minpairs", sample, None, {})
    assert units == {"items": len(sample["default"]["test"]), "generations": len({r["source"] for r in sample["default"]["test"]})}
    assert suite_cost.planned_units("minpairs", sample, None, {"discrepancy": False})["generations"] == 0
    measured = {"seconds": 10.0, "generation_seconds": 8.0, "forward_tokens": 1000, "generation_forward_tokens": 600,
                "forward_passes": 50, "generation_forward_passes": 40, "search_steps": 0, "generated_tokens": 0}
    full = suite_cost.extrapolate(measured, {"items": 10, "generations": 4}, {"items": 100, "generations": 20})
    assert full == {"seconds": 8.0 * 5 + 2.0 * 10, "forward_tokens": 600 * 5 + 400 * 10, "forward_passes": 40 * 5 + 10 * 10,
                    "search_steps": 0, "generated_tokens": 0}
    # nothing generated in the sample: all of it scales with the items
    assert suite_cost.extrapolate({**measured, "generation_seconds": 0.0}, {"items": 10, "generations": 0},
                                  {"items": 100, "generations": 0})["seconds"] == 100.0

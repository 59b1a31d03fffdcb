"""The figures the documentation quotes are recomputed by the commands named beside them: drift fails here
(`make doc-figures` runs this file alone). Each test reads the page that quotes its figures."""

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def page(name: str) -> str:
    """A documentation page's markdown (docs/NAME)."""
    return (ROOT / "docs" / name).read_text()


def test_wnlampro_table4_as_quoted(wnlampro_build):
    """`wordbench build wnlampro`: the Table 4 cells (entries and ratio) on the WNLaMPro page are the build's."""
    quoted_page = page("benchmarks/wnlampro.md")
    from wordbench.benchmarks.hub import load_data
    from wordbench.builders.wnlampro import WNLaMProBuilder

    folder, _ = wnlampro_build
    _, data = load_data("wnlampro", str(folder))
    summary = WNLaMProBuilder().summary(data)
    for relation in ("antonym", "hypernym", "cohyponym"):
        built = re.findall(r"(\d+) \([\d.]+, ([\d.]+x)\)", re.search(rf"^\| {relation} \|.*$", summary, re.M).group(0))
        quoted = re.findall(r"(\d+) \(([\d.]+x)\)", re.search(rf"^\| {relation} \| \d+ \(.*$", quoted_page, re.M).group(0))[:3]
        assert built == quoted, (relation, built, quoted)


def test_tendencies_split_as_quoted(tmp_path):
    """`wordbench build tendencies`: the tendencies page's line counts and mean length of the offline sample."""
    text = page("benchmarks/tendencies.md").replace("\n", " ")
    from wordbench.benchmarks.hub import build, load_data

    folder, _ = build("tendencies", out=tmp_path / "t", progress=False)
    _, data = load_data("tendencies", str(folder))
    test, train = data["default"]["test"], data["default"]["train"]
    mean = sum(test["length"]) / len(test)
    assert f"{len(test):,} test lines of {mean:.1f} tokens" in text
    assert f"{len(train):,} train lines" in text


def test_minpairs_comparison_as_quoted():
    """`python -m wordbench.builders.minpairs.compare ../shared/reference/minpairs [--faithful]`: the minpairs page's rows."""
    quoted_page = page("benchmarks/minpairs.md")
    from wordbench.builders.minpairs.compare import compare_sets

    folder = ROOT.parent / "shared" / "reference" / "minpairs"
    if not folder.is_dir():
        pytest.skip("the authors' development slice is not beside this checkout (../shared/reference/minpairs)")
    default, faithful = compare_sets(folder), compare_sets(folder, faithful=True)
    for d, f in zip(default, faithful):
        row = (f"| {d.name} | {d.sentences} | {100 * d.fires:.1f} / {100 * f.fires:.1f} | "
               f"{100 * d.theirs_among_ours:.1f} / {100 * f.theirs_among_ours:.1f} | "
               f"{100 * d.ours_among_theirs:.1f} / {100 * f.ours_among_theirs:.1f} | "
               f"{100 * d.exact:.1f} / {100 * f.exact:.1f} | "
               f"{d.per_sentence_ours:.2f} vs {d.per_sentence_theirs:.2f} |")
        assert row in quoted_page, row


def test_gpu_check_figures_as_quoted():
    """`sh perf/gpu_check.sh` on a GPU machine wrote perf/results/gpu.json: the performance page's table and figures are its."""
    import json

    quoted_page = page("performance.md")
    import gpu_check

    result = json.loads((ROOT / "perf" / "results" / "gpu.json").read_text())
    assert gpu_check.markdown_table(result) in quoted_page
    steps = result["steps"]
    ok = [e for name, out in steps.items() if name.startswith("correctness/") for e in out.values() if isinstance(e, dict) and e.get("ok")]
    worst = max(e["max_float_diff"] for e in ok)
    text = " ".join(quoted_page.split())
    assert f"all {len(ok)} (benchmark, model) pairs" in text and f"largest difference is {worst:.1e}".replace("e-0", "e-") in text
    batch = steps.get("batch", {})
    if "peak_gib" in batch:
        assert f"{batch['peak_gib']:.1f} GiB at the peak of {batch['device_gib']:.1f} GiB" in text
    else:  # the run's budget was spent before the step: the page says the file has none
        assert "so this file has no batch figures" in text
    suite = steps.get("suite/llama-3.2-1b", {})
    if "full_submission_gpu_minutes" in suite:
        assert f"at {suite['full_submission_gpu_minutes']:.0f} GPU-minutes" in text
    limits = [round(steps[f"limit/{s}"]["gemm_tflops"]) for s in ("llama-3.2-1b", "llama-3-8b")]
    assert f"({limits[0]} TFLOP/s on the 1B's shapes, {limits[1]} on the 8B's)" in text


def test_suite_figures_as_quoted():
    """`python perf/suite.py` wrote perf/results/suite.json: the publishing page's suite, separate-commands and worker figures."""
    import json

    result = json.loads((ROOT / "perf" / "results" / "suite.json").read_text())
    text = " ".join(page("publishing.md").split())
    suite, separate, worker = result["suite"], result["separate"], result["worker"]
    assert f"takes {suite['wall_s']:.0f} s with one model load ({suite['load_s']:.1f} s)" in text
    assert ", ".join(f"{name} {s:.0f} s" for name, s in suite["per_benchmark_s"].items()) in text
    assert f"take {separate['wall_s']:.0f} s with six loads ({100 * result['saved_share']:.0f}% of it saved by one load)" in text
    assert f"{worker['overhead_s']:.1f} s of its {worker['wall_s']:.0f} s ({100 * worker['overhead_share']:.1f}%)" in text


def test_suite_full_figures_as_quoted():
    """`python perf/suite.py --profile full` wrote perf/results/suite-full.json: the performance page's table is its."""
    import json

    result = json.loads((ROOT / "perf" / "results" / "suite-full.json").read_text())
    quoted_page = page("performance.md")
    for name, r in result["per_benchmark"].items():
        m = r["measured"]
        row = (f"| {name} | {m['items']:,} / {r['full_items']:,} | {m['generations']:,} / {r['full_generations']:,} | {m['seconds']:,} | "
               f"{m['generation_seconds']:,} | {m['forward_tokens']:,} | {m['forward_passes']:,} | "
               f"{m['search_steps']:,} | {m['generated_tokens']:,} | {r['full_estimate']['seconds'] / 3600:,.2f} h |")
        assert row in quoted_page, row
    assert f"about **{result['full_suite_estimate_h']:.0f} hours**" in quoted_page


def test_paraphrase_review_figures_as_quoted():
    """`python -m wordbench.builders.paraphrase_review`: the rules-alone share the README quotes is round 1's."""
    from wordbench.builders.paraphrase_review import rounds

    _, read, accepted = rounds()[0]
    assert f"accepted {accepted} of {read} times ({round(100 * accepted / read)}%" in (ROOT / "README.md").read_text()


def test_check_cost_as_quoted():
    """`python perf/checks.py` wrote perf/results/checks.json: the performance page quotes its largest check."""
    import json

    checks = json.loads((ROOT / "perf" / "results" / "checks.json").read_text())
    name, worst = max(checks.items(), key=lambda kv: kv[1]["share_of_quick_score"])
    text = " ".join(page("performance.md").split())
    assert f"{name}' {worst['rows']:,} rows, takes {worst['check_s']:.3f} s, {100 * worst['share_of_quick_score']:.2f}%" in text


def test_admission_figures_as_quoted():
    """`python perf/admission.py`: the publishing page's seconds for admitting the packaged GGUF are the file's."""
    import json

    result = json.loads((ROOT / "perf" / "results" / "admission.json").read_text())
    text = page("publishing.md").replace("\n", " ").replace("  ", " ")
    first = result["models"]["smollm2-gguf"]["first_seconds"]
    assert f"took {first:.2f} s on 2 cores, against {result['baseline_smollm2_gguf_metadata_seconds']:.1f} s" in text
    assert first < 10  # the bar: a local model admitted within 10 s on this machine


def test_split_costs_as_quoted():
    """`python -m wordbench.benchmarks.slurm --costs` reads perf/results/suite-full.json: the cluster page's table is its."""
    import json

    from wordbench.benchmarks.slurm import split_costs, split_costs_table

    costs = split_costs(json.loads((ROOT / "perf" / "results" / "suite-full.json").read_text()))
    assert split_costs_table(costs) in page("cluster.md")
    assert costs["split_latency_s"] < costs["unsplit_latency_s"] < costs["split_worker_s"]


def test_generation_figures_as_quoted():
    """`python perf/generation.py` wrote perf/results/generation.json: the performance page's generation table is its."""
    import json

    result = json.loads((ROOT / "perf" / "results" / "generation.json").read_text())
    quoted_page = page("performance.md")
    for name, w in result.items():
        if not isinstance(w, dict) or "continuous" not in w:
            continue
        row = (f"| {name} | {w['prompts']} | {w['generated_tokens']:,} | {w['continuous']['seconds']} ({w['continuous']['forward_passes']}) | "
               f"{w['fixed_batches']['seconds']} ({w['fixed_batches']['forward_passes']}) | {w['one_per_call']['seconds']} "
               f"({w['one_per_call']['forward_passes']}) | {w['speedup_over_fixed_batches']}x | {w['identical_texts']} |")
        assert row in quoted_page, row


def test_decode_plan_figures_as_quoted():
    """`python perf/decode_plan.py` wrote perf/results/decode-plan.json from suite-full.json: the page's plan table."""
    import json

    result = json.loads((ROOT / "perf" / "results" / "decode-plan.json").read_text())
    quoted_page = page("performance.md")
    for bench, per in result["per_benchmark"].items():
        for device, p in per.items():
            if not isinstance(p, dict):
                continue
            t, c = p["today"], p["continuous"]
            row = (f"| {bench} | {device} | {t['sequential_passes']:,} ({t['decode_steps']:,}) | {t['rows_per_step']:,} | "
                   f"{c['sequential_passes']:,} ({c['decode_steps']:,}) | {c['rows_per_step']:,} | {p['fewer_sequential_passes']}x |")
            assert row in quoted_page, row
    for device, s in result["suite"].items():
        assert f"| suite | {device} | {s['today']:,} | | {s['continuous']:,} | | {s['fewer_sequential_passes']}x |" in quoted_page


def test_model_layer_figures_as_quoted():
    """The model layer's and wordpred's figures on the performance page are those of the committed results files
    (`python perf/limit.py`, `perf/peers.py`, `perf/minpairs.py`, `perf/precision.py`, `perf/wordpred.py`)."""
    import json

    def read(name):
        return json.loads((ROOT / "perf" / "results" / name).read_text())

    quoted_page = " ".join(page("performance.md").split())
    limit = read("limit.json")["workloads"]
    assert (f"**{100 * limit['sentence']['fraction_of_limit']:.1f}% of the limit**" in quoted_page
            and f"**{100 * limit['conditional']['fraction_of_limit']:.1f}%**" in quoted_page)
    rounds = [x for w in limit.values() for x in w["gemm_gflops_per_round"]]
    fractions = [x for w in limit.values() for x in w["fraction_per_round"]]
    assert f"from {min(rounds)} to {max(rounds)} GFLOP/s and the fraction of a round's limit from {100 * min(fractions):.1f}% to {100 * max(fractions):.1f}%" in quoted_page
    peers = read("peers.json")["workloads"]
    assert (f"wordbench is {peers['sentence']['speedup_vs_lm_eval']}x lm-evaluation-harness and {peers['sentence']['speedup_vs_minicons']}x minicons "
            f"on sentences, {peers['conditional']['speedup_vs_lm_eval']}x / {peers['conditional']['speedup_vs_minicons']}x on conditional pairs, "
            f"{peers['candidates']['speedup_vs_lm_eval']}x / {peers['candidates']['speedup_vs_minicons']}x on candidate words, "
            f"{peers['topk']['speedup_vs_minicons']}x minicons on top-k") in quoted_page
    families = read("minpairs.json")["families"]
    assert f"**{families['seq2seq']['ratio']}x**" in quoted_page and f"SmolLM2 through the translation prompt {families['causal']['ratio']}x" in quoted_page
    modes = read("precision.json")["modes"]
    assert (f"`--dtype bfloat16` is {modes['bfloat16']['sentence_speedup']:.2f}x (sentences) and {modes['bfloat16']['conditional_speedup']:.2f}x "
            "(conditional pairs)") in quoted_page
    bf16 = read("limit-bfloat16.json")["workloads"]
    assert f"reaches {100 * bf16['sentence']['fraction_of_limit']:.0f}% / {100 * bf16['conditional']['fraction_of_limit']:.0f}% of it" in quoted_page
    wordpred = read("wordpred.json")
    assert f"({wordpred['published']['speedup']:.1f}x," in quoted_page and f"({wordpred['naive_default']['speedup']:.1f}x)" in quoted_page


def test_precision_bound_as_quoted():
    """The bf16 argument on the performance page: each file's sentence limit (its rate / its fraction of the limit),
    their ratio, the head's share of the FLOPs and the bound they give."""
    import json

    quoted_page = " ".join(page("performance.md").split())
    work = [json.loads((ROOT / "perf" / "results" / f).read_text())["workloads"]["sentence"] for f in ("limit-bfloat16.json", "limit.json")]
    bf16, fp32 = (w["wordbench_gflops"] / w["fraction_of_limit"] for w in work)
    ratio = round(bf16 / fp32, 1)
    head = round(work[1]["gflop"]["head"] / work[1]["gflop_total"], 2)
    assert f"the sentence workload's limit, {bf16:.1f} GFLOP/s), {ratio}x fp32's {fp32:.1f} GFLOP/s" in quoted_page
    assert f"1/({1 - head:.2f}/{ratio} + {head:.2f}) = {1 / ((1 - head) / ratio + head):.2f}x" in quoted_page
    wordpred = json.loads((ROOT / "perf" / "results" / "wordpred.json").read_text())["published"]
    assert (f"log-probs agree to {wordpred['max_word_logprob_difference']:.1e}" + f", and ours is {wordpred['speedup']:.1f}x faster"
            in " ".join(page("benchmarks/wordpred.md").split()))

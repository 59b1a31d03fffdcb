"""lm-evaluation-harness export: the task YAMLs and their docs; with lm_eval installed, its accuracy on the
exported tasks equals wordbench's (reduce=sum) on the same model and data."""

import importlib.util
import json
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

from wordbench.benchmarks.cli import cli

SETS = {
    "agreement.human": (["a dog .", "a cat .", "the tree ."], ["Er kommt nicht .", "Sie geht nicht .", "Der Baum ."], ["Er kommt .", "Sie geht .", "Die Baum ."]),
    "agreement.mt": (["a dog is here ."], ["Ein Hund ist hier ."], ["Einen Hund ist hier ."]),
    "polarity_particle_nicht_del.human": (["not good .", "no time ."], ["nicht gut .", "keine Zeit ."], ["gut .", "Zeit ."]),
}


@pytest.fixture()
def distil(tmp_path) -> Path:
    """A DistilLingEval folder written by hand: three sets, six pairs."""
    for name, (src, good, bad) in SETS.items():
        folder = tmp_path / "distil" / name
        folder.mkdir(parents=True)
        for file, lines in (("src.en", src), ("tgt.correct.de", good), ("tgt.incorrect.de", bad)):
            (folder / file).write_text("\n".join(lines) + "\n")
    return tmp_path / "distil"


def _export(*args):
    result = CliRunner().invoke(cli, ["export", "lm-eval", *args])
    assert result.exit_code == 0, result.output
    return result


def test_minpairs_tasks_and_groups(distil, tmp_path):
    out = tmp_path / "tasks"
    _export("minpairs", "--data", str(distil), "--out", str(out))
    specs = {p.stem: yaml.safe_load(p.read_text()) for p in out.glob("*.yaml")}
    assert set(specs) == {"wordbench_minpairs", "wordbench_minpairs_human", "wordbench_minpairs_mt", "wordbench_minpairs_agreement_human",
                          "wordbench_minpairs_agreement_mt", "wordbench_minpairs_polarity_particle_nicht_del_human"}
    task = specs["wordbench_minpairs_polarity_particle_nicht_del_human"]
    assert task["output_type"] == "multiple_choice" and task["doc_to_choice"] == "choices" and task["doc_to_target"] == 0
    assert task["target_delimiter"] == " " and task["metric_list"][0]["metric"] == "acc"
    assert task["metadata"]["wordbench_signature"].startswith("minpairs-folder:sha256-")
    docs = [json.loads(line) for line in Path(task["dataset_kwargs"]["data_files"]["test"]).read_text().splitlines()]
    assert docs[1]["context"] == "Translate English to German.\nEnglish: no time .\nGerman:"
    assert docs[1]["choices"] == ["keine Zeit .\n", "Zeit .\n"]
    assert specs["wordbench_minpairs_human"]["task"] == ["wordbench_minpairs_agreement_human", "wordbench_minpairs_polarity_particle_nicht_del_human"]
    assert specs["wordbench_minpairs"]["task"] == ["wordbench_minpairs_human", "wordbench_minpairs_mt"]
    assert specs["wordbench_minpairs"]["aggregate_metric_list"][0]["weight_by_size"] is True  # micro, as wordbench's "all"
    # seq2seq: the source alone is the context, the variants follow without a delimiter
    _export("minpairs", "--data", str(distil), "--out", str(tmp_path / "s2s"), "--seq2seq")
    task = yaml.safe_load((tmp_path / "s2s" / "wordbench_minpairs_agreement_mt.yaml").read_text())
    doc = json.loads(Path(task["dataset_kwargs"]["data_files"]["test"]).read_text())
    assert task["target_delimiter"] == "" and doc["context"] == "a dog is here ." and doc["choices"] == ["Ein Hund ist hier .", "Einen Hund ist hier ."]


def test_wordpred_rolling_task_and_refusals(tmp_path):
    import datasets

    folder = tmp_path / "wp"
    (folder / "data" / "default").mkdir(parents=True)
    rows = [{"id": "line-000000", "text": "the dog is here", "words": ["the", "dog", "is", "here"], "bins": ["high"] * 4, "rates": [1e6] * 4}]
    datasets.Dataset.from_list(rows).to_parquet(str(folder / "data" / "default" / "test-00000-of-00001.parquet"))
    (folder / "signature.json").write_text(json.dumps({"benchmark": "wordpred", "signature": "wordpred@test"}))
    _export("wordpred", "--data", str(folder), "--out", str(tmp_path / "t"))
    task = yaml.safe_load((tmp_path / "t" / "wordbench_wordpred.yaml").read_text())
    assert task["output_type"] == "loglikelihood_rolling" and task["doc_to_target"] == "text"
    assert [m["metric"] for m in task["metric_list"]] == ["word_perplexity", "byte_perplexity", "bits_per_byte"]
    doc = json.loads(Path(task["dataset_kwargs"]["data_files"]["test"]).read_text())
    assert doc["text"] == "the dog is here"
    result = CliRunner().invoke(cli, ["export", "lm-eval", "wnlampro", "--out", str(tmp_path / "x")])
    assert result.exit_code != 0 and "cannot be expressed" in result.output


@pytest.mark.skipif(importlib.util.find_spec("lm_eval") is None,
                    reason="lm_eval is not installed (pip install lm_eval to run the round trip); not a wordbench dependency")
def test_lm_eval_accuracy_equals_wordbench(distil, tiny_models, tmp_path):
    from lm_eval import simple_evaluate
    from lm_eval.tasks import TaskManager

    from wordbench.benchmarks.runner import score
    from wordbench.scorers.models import load_model

    out = tmp_path / "tasks"
    _export("minpairs", "--data", str(distil), "--out", str(out))
    model = str(tiny_models["gpt2"])
    evaluated = simple_evaluate(model="hf", model_args=f"pretrained={model},add_bos_token=True,dtype=float32", tasks=["wordbench_minpairs"],
                                task_manager=TaskManager(include_path=str(out)), limit=10, batch_size=1, device="cpu", log_samples=True)
    results = evaluated["results"]
    run = score("minpairs", load_model(model, batch_size=1), str(distil), out=tmp_path / "runs", progress=False, reduce="sum", discrepancy=False)
    metrics = json.loads((run.path / "summary.json").read_text())["metrics"]
    records = {r["id"]: r for r in run.records()}
    samples = [s for task in evaluated["samples"].values() for s in task]
    assert len(samples) == len(records) == 6
    for s in samples:  # the very same log-probabilities, item by item
        rec = records[s["doc"]["id"]]
        assert [float(r[0]) for r in s["filtered_resps"]] == pytest.approx([rec["score_correct"], rec["score_incorrect"]], abs=1e-3)
    for ref, cells in metrics["by_phenomenon"].items():
        for ph, cell in cells.items():
            assert results[f"wordbench_minpairs_{ph}_{ref}"]["acc,none"] == pytest.approx(cell["accuracy"]), (ph, ref)
    assert results["wordbench_minpairs_human"]["acc,none"] == pytest.approx(metrics["overall"]["human"]["accuracy"])

"""Export a benchmark as lm-evaluation-harness tasks (``lm_eval --include_path DIR --tasks wordbench_...``).

- minpairs: one ``multiple_choice`` task per phenomenon x reference type (choices [correct, incorrect],
  target 0), a group per reference type and a ``wordbench_minpairs`` group, micro-averaged as wordbench's
  "all" row. lm-eval's ``acc`` compares summed log-probs with ties to the first choice, so it equals
  wordbench's accuracy with ``--option reduce=sum`` (the default ``mean`` has no lm-eval counterpart).
- wordpred: one ``loglikelihood_rolling`` task over the test lines (word/byte perplexity of whole lines).
The other benchmarks rank the vocabulary, read hidden states or compare text distributions: no lm-eval
request type expresses them.
"""

from __future__ import annotations

import functools
import json
from pathlib import Path

import jsonlines

from wordbench.errors import ConfigError
from wordbench.files import check_writable

from .hub import load_data
from .runner import select

EXPORTABLE = ("minpairs", "wordpred")


def _yaml(obj: dict) -> str:
    import yaml

    return yaml.safe_dump(obj, sort_keys=False, allow_unicode=True, width=1000)


def _write_jsonl(path: Path, rows: list[dict]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with jsonlines.open(path, "w", compact=True, dumps=functools.partial(json.dumps, ensure_ascii=False)) as writer:
        writer.write_all(rows)


def _task(name: str, data_file: Path, output_type: str, signature: str, **fields) -> dict:
    return {
        "task": name,
        "dataset_path": "json",
        "dataset_kwargs": {"data_files": {"test": str(data_file.resolve())}},
        "test_split": "test",
        "output_type": output_type,
        **fields,
        "metadata": {"version": 1.0, "wordbench_signature": signature},
    }


def _group(name: str, tasks: list[str], metrics: list[str]) -> dict:
    return {"group": name, "task": tasks,
            "aggregate_metric_list": [{"metric": m, "aggregation": "mean", "weight_by_size": True} for m in metrics],
            "metadata": {"version": 1.0}}


def export(name: str, data: str | None, out: Path, split: str = "test", config: str = "default", limit: int | None = None,
           prompt: str | None = None, end: str | None = None, seq2seq: bool = False) -> list[Path]:
    """Write the task YAMLs and their data files into ``out``; return the YAML paths (groups last)."""
    if name not in EXPORTABLE:
        raise ConfigError(f"{name} cannot be expressed as lm-eval tasks (only {', '.join(EXPORTABLE)}; docs/scale.md: 'the lm-eval export')")
    from .registry import get

    # The minpairs scorer checks the prompt and reads "\n" in ``end`` as it does when scoring.
    given = {"prompt": prompt, "end": end} if name == "minpairs" else {}
    scorer = get(name).scorer(**{k: v for k, v in given.items() if v is not None})
    check_writable(Path(out), "--out")  # before the data loads
    signature, dataset = load_data(name, data, progress=False)
    rows = select(dataset, config, split, limit, scorer=scorer)
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    docs = _minpairs(rows, scorer, seq2seq) if name == "minpairs" else {"": rows}
    written = []
    for key, group_rows in docs.items():
        task = f"wordbench_{name}" + (f"_{key}" if key else "")
        data_file = out / "data" / f"{task}.jsonl"
        _write_jsonl(data_file, group_rows)
        if name == "minpairs":
            spec = _task(task, data_file, "multiple_choice", signature, doc_to_text="context", doc_to_choice="choices",
                         doc_to_target=0, target_delimiter="" if seq2seq else " ",
                         metric_list=[{"metric": "acc", "aggregation": "mean", "higher_is_better": True}])
        else:
            spec = _task(task, data_file, "loglikelihood_rolling", signature, doc_to_text="", doc_to_target="text",
                         metric_list=[{"metric": m} for m in ("word_perplexity", "byte_perplexity", "bits_per_byte")])  # lm-eval's aggregations
        written.append(_dump(out / f"{task}.yaml", spec))
    if name == "minpairs":
        refs = sorted({k.rsplit("_", 1)[1] for k in docs})
        for ref in refs:
            tasks = [f"wordbench_minpairs_{k}" for k in docs if k.endswith("_" + ref)]
            written.append(_dump(out / f"wordbench_minpairs_{ref}.yaml", _group(f"wordbench_minpairs_{ref}", tasks, ["acc"])))
        written.append(_dump(out / "wordbench_minpairs.yaml", _group("wordbench_minpairs", [f"wordbench_minpairs_{r}" for r in refs], ["acc"])))
    return written


def _dump(path: Path, spec: dict) -> Path:
    path.write_text(_yaml(spec), encoding="utf-8")
    return path


def _minpairs(rows: list[dict], scorer, seq2seq: bool) -> dict[str, list[dict]]:
    """Docs per ``<phenomenon>_<reference type>``: the context and the two choices exactly as wordbench scores them
    (causal: the translation prompt, then " " + variant + end; seq2seq: the source, then the variant)."""
    prompt, end = scorer.prompt, scorer.end
    groups: dict[str, list[dict]] = {}
    for row in rows:
        context = row["source"] if seq2seq else prompt.format(source=row["source"])
        suffix = "" if seq2seq else end
        groups.setdefault(f"{row['phenomenon']}_{row['reference_type']}", []).append(
            {"id": row["id"], "context": context, "choices": [row["correct"] + suffix, row["incorrect"] + suffix]})
    return dict(sorted(groups.items()))

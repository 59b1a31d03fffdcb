"""Dataset folders in the Hub layout, their cards, publishing with a version tag, and loading back.

A built folder and a local published folder are the same thing:
``data/<config>/<split>-00000-of-00001.parquet``, ``jsonl/<config>/<split>.jsonl``, ``README.md``
(card with YAML ``configs``), ``signature.json`` and any files of the paper's own format.
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
import os
import re
import shutil
from datetime import date
from pathlib import Path

import datasets
from filelock import FileLock

from wordbench.spec import as_dict as config_dict, parse
from wordbench.errors import ConfigError, DataFormatError, SourceError
from wordbench.cache import cache_dir
from wordbench.files import check_writable
from wordbench.hashing import file_sha8
from wordbench.builders.base import free_text_columns

from .schema import check_data, decode_labels, encode_labels, published_features, type_name
from .registry import Benchmark, get
from .signature import data_signature, short_hash

SIGNATURE_FILE = "signature.json"


def _size_category(n: int) -> str:
    for limit, label in ((1_000, "n<1K"), (10_000, "1K<n<10K"), (100_000, "10K<n<100K"), (1_000_000, "100K<n<1M")):
        if n < limit:
            return label
    return "n>1M"


def card_text(bench: Benchmark, data, meta: dict, summary: str, version: str | None, changelog: str | None,
              repo_id: str | None = None, history: list[str] = ()) -> str:
    """The dataset card; ``history`` holds the previous versions' changelog lines (newest first)."""
    from huggingface_hub import DatasetCardData

    builder = bench.builder_class
    n = sum(len(ds) for dsd in data.values() for ds in dsd.values())
    features = {cfg: published_features(builder.schema.get(cfg) or next(iter(dsd.values())).features, builder.labels)
                for cfg, dsd in data.items()}
    card_data = DatasetCardData(
        pretty_name=f"wordbench {bench.name}",
        license=bench.license,
        license_name=bench.license_name,
        license_link=bench.license_link,
        language=list(bench.language),
        task_categories=list(bench.task_categories),
        tags=list(bench.tags),
        size_categories=[_size_category(n)],
        task_ids=list(bench.task_ids),
        source_datasets=list(bench.source_datasets),
        configs=[
            {"config_name": cfg, "version": version or meta["builder_version"],  # the version it is published (tagged) under
             "data_files": [{"split": s, "path": f"data/{cfg}/{s}-*.parquet"} for s in dsd]}
            for cfg, dsd in data.items()
        ],
        dataset_info=[
            {"config_name": cfg, "features": features[cfg]._to_yaml_list(),
             "splits": [{"name": s, "num_examples": len(ds)} for s, ds in dsd.items()]}
            for cfg, dsd in data.items()
        ],
    )
    fields = "\n\n".join(
        f"Config `{cfg}`:\n\n| column | type | meaning |\n|---|---|---|\n"
        + "\n".join(f"| `{c}` | {type_name(f)} | {builder.fields.get(c, '')} |" for c, f in features[cfg].items())
        for cfg in data)
    sources = "\n".join(f"| {s['kind']} | {s['name']} | {s['version']} | {s['detail']} |" for s in meta["sources"])
    splits = "\n".join(f"| {cfg} | {s} | {len(ds)} |" for cfg, dsd in data.items() for s, ds in dsd.items())
    config = "\n".join(f"| `{k}` | `{v}` |" for k, v in meta["config"].items())
    version_line = f"- v{version} ({date.today().isoformat()}): {changelog or 'published with wordbench ' + meta['wordbench']}" if version else "- unpublished local build"
    changelog_lines = "\n".join([version_line, *history])
    where, tag = repo_id or "REPO_OR_FOLDER", f"v{version}" if version else "vX.Y.Z"
    published_as = f"This dataset is version **{version}** (tag `{tag}`). " if version else ""
    return f"""---
{card_data.to_yaml()}
---

# wordbench {bench.name}

{bench.summary}.{f" Paper: {bench.paper_url}." if bench.paper_url else ""}

## How it was built

{bench.card}
{published_as}Builder `{bench.name}` version {meta['builder_version']} (the data recipe's), wordbench {meta['wordbench']}.

**Signature:** `{meta['signature']}`

### Sources

| kind | name | version | detail |
|---|---|---|---|
{sources}

### Configuration

| key | value |
|---|---|
{config}

## Splits

| config | split | rows |
|---|---|---|
{splits}

{summary}

## Data Fields

{fields}

## Known limitations

{bench.limitations or "None recorded."}

## Usage

```python
from datasets import load_dataset
data = load_dataset("{where}", revision="{tag}")
```

Score a model: `wordbench score {bench.name} --data {where}@{tag} --model MODEL`.

## Changelog

{changelog_lines}

## Citation

```bibtex
{bench.citation}
```
"""


def write_folder(bench: Benchmark, builder, config, data, sources, folder: Path, version: str | None = None, changelog: str | None = None) -> dict:
    """Write ``data`` in the Hub layout with card, jsonl export, signature and extra files."""
    from . import __version__

    folder.mkdir(parents=True, exist_ok=True)
    for cfg, dsd in data.items():
        for split, ds in dsd.items():
            (folder / "data" / cfg).mkdir(parents=True, exist_ok=True)
            (folder / "jsonl" / cfg).mkdir(parents=True, exist_ok=True)
            ds.to_json(str(folder / "jsonl" / cfg / f"{split}.jsonl"), lines=True, force_ascii=False)
            encode_labels(ds, builder.labels).to_parquet(str(folder / "data" / cfg / f"{split}-00000-of-00001.parquet"))
    meta = {
        "benchmark": bench.name,
        "builder_version": builder.version,
        "signature": data_signature(bench.name, builder.version, sources, config, bench.paper),
        "config": config_dict(config),
        "sources": [dataclasses.asdict(s) for s in sources],
        "wordbench": __version__,
        "extra_files": builder.export_extra(data, folder),
    }
    (folder / "README.md").write_text(card_text(bench, data, meta, builder.summary(data), version, changelog))
    # Written last: a folder with a signature.json is a complete build.
    (folder / SIGNATURE_FILE).write_text(json.dumps(meta, indent=2, ensure_ascii=False) + "\n")
    return meta


def _read_meta(folder: Path) -> dict | None:
    """The signature.json of a build folder, or None; a corrupt one is a one-line error."""
    path = folder / SIGNATURE_FILE
    if not path.exists():
        return None
    try:
        meta = json.loads(path.read_text(encoding="utf-8"))
    except (ValueError, UnicodeDecodeError) as exc:
        raise DataFormatError(f"{path}: not a wordbench signature file ({exc}); delete the folder to rebuild") from None
    if not isinstance(meta, dict) or not isinstance(meta.get("signature"), str) or not isinstance(meta.get("benchmark"), str):
        raise DataFormatError(f"{path}: not a wordbench signature file (an object with 'benchmark' and 'signature' expected); "
                              "delete the folder to rebuild")
    return meta


def _check_out(folder: Path, name: str) -> None:
    """``--out`` is new, empty, or an earlier build of the same benchmark: nothing else is overwritten."""
    if folder.exists() and not folder.is_dir():
        raise ConfigError(f"--out {folder} is a file: give a folder")
    check_writable(folder, "--out")
    if folder.is_dir() and any(folder.iterdir()):
        meta = _read_meta(folder)
        if meta is None or meta.get("benchmark") != name:
            what = "no wordbench build" if meta is None else f"a {meta.get('benchmark')} build"
            raise ConfigError(f"--out {folder} holds {what}: give a new or empty folder, or one built for {name}")


def build(name: str, overrides=(), out: Path | None = None, force: bool = False, progress: bool = True,
          faithful: bool = False, device: str = "auto", dtype: str = "auto") -> tuple[Path, dict]:
    """Build a benchmark into ``out`` (default: the wordbench cache, keyed by the data signature);
    ``faithful`` selects every behaviour of the paper and the authors' code (the ``--faithful`` switch);
    ``device``/``dtype`` are the translate stage's (minpairs with ``mt_model``)."""
    bench = get(name)
    if bench.needs_data and not overrides:
        raise ConfigError(f"{name} has no default data: {bench.needs_data}")
    builder = bench.builder()
    config = parse(builder.Config, overrides, source="--set", fixed={"faithful": True} if faithful else None)
    if out is not None:
        _check_out(Path(out), name)  # before the sources resolve: a wrong --out fails at once
    sources = builder.sources(config)
    sig = data_signature(bench.name, builder.version, sources, config, bench.paper)
    folder = Path(out) if out else cache_dir("builds", bench.name) / short_hash(sig)
    # One builder per cache folder: workers that need the same default data wait for the first build, then read it.
    with FileLock(str(folder.parent / f".{folder.name}.lock")) if out is None else contextlib.nullcontext():
        return _build_locked(builder, bench, config, sources, sig, folder, force, progress, device, dtype)


def _build_locked(builder, bench, config, sources, sig, folder: Path, force, progress, device, dtype) -> tuple[Path, dict]:
    meta = _read_meta(folder)
    if meta is not None and meta.get("signature") == sig and not force:
        return folder, meta
    jobs = builder.translation_jobs(config)  # minpairs' machine references: the translate stage runs first
    if jobs:
        from .translate import run_jobs

        data = builder.build(config, progress=progress, translations=run_jobs(jobs, device, dtype, progress))
    else:
        data = builder.build(config, progress=progress)
    # Atomic: written beside the target, then renamed into place; a killed build leaves the old folder intact.
    tmp = folder.parent / f".{folder.name}.building-{os.getpid()}"
    shutil.rmtree(tmp, ignore_errors=True)
    meta = write_folder(bench, builder, config, data, sources, tmp)
    old = folder.parent / f".{folder.name}.old-{os.getpid()}"
    if folder.exists():
        folder.rename(old)
    tmp.rename(folder)
    shutil.rmtree(old, ignore_errors=True)
    return folder, meta


def load_data(name: str, spec: str | None = None, progress: bool = True,
              faithful: bool = False) -> tuple[str, dict[str, datasets.DatasetDict]]:
    """(data signature, {config: DatasetDict}) from a built/published folder, a file in the paper's
    format, ``hub-id@revision``, or (no spec) the default build (the faithful build with ``faithful``).
    The data is checked against the benchmark's declared schema before anything else uses it; a folder's
    signature names the hash of its data files, so edited data never meets the records of the old."""
    bench = get(name)
    sig, data, where = _resolve_data(bench, name, spec, progress, faithful)
    builder = bench.builder_class
    return sig, check_data(name, builder.schema, data, where, builder.labels, builder.column_defaults, builder.row_problem,
                           free_text_columns(builder.fields))


def _folder_signature(meta: dict, folder: Path) -> str:
    return f"{meta['signature']}|data:sha256-{file_sha8(folder / 'data')}"


def _resolve_data(bench: Benchmark, name: str, spec: str | None, progress: bool, faithful: bool):
    if spec is None:
        folder, meta = build(name, progress=progress, faithful=faithful)
        return _folder_signature(meta, folder), _load_folder(folder), str(folder)
    path = Path(spec).expanduser()
    if path.is_dir():
        meta = _read_meta(path)
        if meta is None:  # a folder in the benchmark's own published layout (e.g. DistilLingEval)
            data = bench.builder().read_folder(path)
            return f"{name}-folder:sha256-{file_sha8(path)}", data, str(path)
        if meta.get("benchmark") != name:
            raise ConfigError(f"{path} holds {meta.get('benchmark')} data, not {name}")
        return _folder_signature(meta, path), _load_folder(path), str(path)
    if path.is_file():
        return f"{name}-file:sha256-{file_sha8(path)}", _read_own_format(bench, [path]), str(path)
    files = [Path(p).expanduser() for p in spec.split(",")] if "," in spec else []
    if files and all(p.is_file() for p in files):  # several files of the published format (e.g. rare.txt,common.txt)
        return f"{name}-files:sha256-{file_sha8(*files)}", _read_own_format(bench, files), spec
    if re.fullmatch(r"[\w.-]+/[\w.-]+(@[\w./-]+)?", spec) and not spec.startswith("."):
        return (*_load_hub(name, spec), spec)
    raise SourceError(f"data {spec} not found: give a dataset folder, a {name} file, or HUB_ID@REVISION")


def _read_own_format(bench: Benchmark, files: list[Path]) -> dict[str, datasets.DatasetDict]:
    """Files in the benchmark's own published format; empty or non-UTF-8 files are one-line errors."""
    for path in files:
        if not path.read_bytes().strip():
            raise DataFormatError(f"{path} is empty: give a {bench.name} file with data")
    try:
        return bench.builder().read_files(files)  # one file: Builder.read_files reads it with read_file
    except UnicodeDecodeError as exc:
        raise DataFormatError(f"{','.join(map(str, files))}: not UTF-8 text "
                              f"(byte {exc.start}: {exc.object[exc.start:exc.start + 1]!r}); convert it with iconv") from None


def _load_folder(folder: Path) -> dict[str, datasets.DatasetDict]:
    """Read the parquet files directly: ``load_dataset(folder)`` may serve a stale cache after a rebuild in place."""
    import pyarrow.parquet as pq

    def table(file: Path):
        try:
            return datasets.Dataset(pq.read_table(file))
        except Exception as exc:  # noqa: BLE001 - pyarrow's ArrowInvalid / OSError on a truncated or foreign file
            raise DataFormatError(f"{file}: not a readable parquet file ({str(exc).splitlines()[0]}); rebuild or re-download it") from None

    if not (folder / "data").is_dir():
        raise DataFormatError(f"{folder} has no data/ folder: is it a wordbench build?")
    out = {}
    for cfg in sorted(p.name for p in (folder / "data").iterdir() if p.is_dir()):
        splits: dict[str, list[Path]] = {}
        for file in sorted((folder / "data" / cfg).glob("*.parquet")):
            splits.setdefault(file.name.split("-")[0], []).append(file)
        out[cfg] = decode_labels(datasets.DatasetDict(
            {split: datasets.concatenate_datasets([table(f) for f in files]) for split, files in splits.items()}
        ))
    return out


def _load_hub(name: str, spec: str) -> tuple[str, dict[str, datasets.DatasetDict]]:
    from huggingface_hub import hf_hub_download

    repo, _, revision = spec.partition("@")
    revision = revision or None
    try:
        meta = json.loads(Path(hf_hub_download(repo, SIGNATURE_FILE, repo_type="dataset", revision=revision)).read_text())
        configs = datasets.get_dataset_config_names(repo, revision=revision)
        data = {cfg: decode_labels(datasets.load_dataset(repo, cfg, revision=revision)) for cfg in configs}
    except Exception as exc:  # noqa: BLE001 - network, auth, missing revision: one line for the user
        raise SourceError(f"cannot load {repo} at revision {revision or 'main'}: {str(exc).splitlines()[0]}") from exc
    return meta["signature"] + (f"|rev:{revision}" if revision else ""), data

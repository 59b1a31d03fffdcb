"""Dataset folders in the Hub layout, their cards, publishing with a version tag, and loading back.

A built folder and a local published folder are the same thing:
``data/<config>/<split>-00000-of-00001.parquet``, ``jsonl/<config>/<split>.jsonl``, ``README.md``
(card with YAML ``configs``), ``signature.json`` and any files of the paper's own format.
"""

from __future__ import annotations

import dataclasses
import json
import shutil
from datetime import date
from pathlib import Path

import datasets

from wordbench.builders.base import config_dict, parse_overrides
from wordbench.builders.errors import ConfigError, SourceError, WordbenchError
from wordbench.builders.sources.base import cache_dir, file_sha8

from .registry import Benchmark, get
from .signature import data_signature, short_hash

SIGNATURE_FILE = "signature.json"


def _size_category(n: int) -> str:
    for limit, label in ((1_000, "n<1K"), (10_000, "1K<n<10K"), (100_000, "10K<n<100K"), (1_000_000, "100K<n<1M")):
        if n < limit:
            return label
    return "n>1M"


def card_text(bench: Benchmark, data, meta: dict, summary: str, version: str | None, changelog: str | None) -> str:
    from huggingface_hub import DatasetCardData

    n = sum(len(ds) for dsd in data.values() for ds in dsd.values())
    card_data = DatasetCardData(
        pretty_name=f"wordbench {bench.name}",
        license=bench.license,
        license_name=bench.license_name,
        license_link=bench.license_link,
        language=list(bench.language),
        task_categories=list(bench.task_categories),
        tags=list(bench.tags),
        size_categories=[_size_category(n)],
        configs=[
            {"config_name": cfg, "data_files": [{"split": s, "path": f"data/{cfg}/{s}-*.parquet"} for s in dsd]}
            for cfg, dsd in data.items()
        ],
    )
    sources = "\n".join(f"| {s['kind']} | {s['name']} | {s['version']} | {s['detail']} |" for s in meta["sources"])
    splits = "\n".join(f"| {cfg} | {s} | {len(ds)} |" for cfg, dsd in data.items() for s, ds in dsd.items())
    config = "\n".join(f"| `{k}` | `{v}` |" for k, v in meta["config"].items())
    version_line = f"- v{version} ({date.today().isoformat()}): {changelog or 'published with wordbench ' + meta['wordbench']}" if version else "- unpublished local build"
    return f"""---
{card_data.to_yaml()}
---

# wordbench {bench.name}

{bench.summary}.

## How it was built

{bench.card}
Builder `{bench.name}` version {meta['builder_version']}, wordbench {meta['wordbench']}.

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

## Usage

```python
from datasets import load_dataset
data = load_dataset("REPO_OR_FOLDER", revision="v{version or 'X.Y.Z'}")
```

Score a model: `wordbench score {bench.name} --data REPO_OR_FOLDER@v{version or 'X.Y.Z'} --model MODEL`.

## Changelog

{version_line}

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
            ds.to_parquet(str(folder / "data" / cfg / f"{split}-00000-of-00001.parquet"))
            ds.to_json(str(folder / "jsonl" / cfg / f"{split}.jsonl"), lines=True, force_ascii=False)
    meta = {
        "benchmark": bench.name,
        "builder_version": builder.version,
        "signature": data_signature(bench.name, builder.version, sources, config, bench.paper),
        "config": config_dict(config),
        "sources": [dataclasses.asdict(s) for s in sources],
        "wordbench": __version__,
        "extra_files": builder.export_extra(data, folder),
    }
    (folder / SIGNATURE_FILE).write_text(json.dumps(meta, indent=2, ensure_ascii=False) + "\n")
    (folder / "README.md").write_text(card_text(bench, data, meta, builder.summary(data), version, changelog))
    return meta


def build(name: str, overrides=(), out: Path | None = None, force: bool = False, progress: bool = True,
          faithful: bool = False) -> tuple[Path, dict]:
    """Build a benchmark into ``out`` (default: the wordbench cache, keyed by the data signature);
    ``faithful`` selects every behaviour of the paper and the authors' code (the ``--faithful`` switch)."""
    bench = get(name)
    builder = bench.builder()
    config = parse_overrides(builder.Config, overrides)
    if faithful:
        config = dataclasses.replace(config, faithful=True)
    sources = builder.sources(config)
    sig = data_signature(bench.name, builder.version, sources, config, bench.paper)
    folder = Path(out) if out else cache_dir("builds", bench.name) / short_hash(sig)
    if (folder / SIGNATURE_FILE).exists() and not force:
        meta = json.loads((folder / SIGNATURE_FILE).read_text())
        if meta["signature"] == sig:
            return folder, meta
    if folder.exists() and out is None:
        shutil.rmtree(folder)
    data = builder.build(config, progress=progress)
    return folder, write_folder(bench, builder, config, data, sources, folder)


def load_data(name: str, spec: str | None = None, progress: bool = True,
              faithful: bool = False) -> tuple[str, dict[str, datasets.DatasetDict]]:
    """(data signature, {config: DatasetDict}) from a built/published folder, a file in the paper's
    format, ``hub-id@revision``, or (no spec) the default build (the faithful build with ``faithful``)."""
    bench = get(name)
    if spec is None:
        folder, meta = build(name, progress=progress, faithful=faithful)
        return meta["signature"], _load_folder(folder)
    path = Path(spec).expanduser()
    if path.is_dir():
        sig_file = path / SIGNATURE_FILE
        if not sig_file.exists():  # a folder in the benchmark's own published layout (e.g. DistilLingEval)
            data = bench.builder().read_folder(path)
            files = sorted(p for p in path.rglob("*") if p.is_file())
            return f"{name}-folder:sha256-{file_sha8(*files)}", data
        meta = json.loads(sig_file.read_text())
        if meta.get("benchmark") != name:
            raise ConfigError(f"{path} holds {meta.get('benchmark')} data, not {name}")
        return meta["signature"], _load_folder(path)
    if path.is_file():
        return f"{name}-file:sha256-{file_sha8(path)}", bench.builder().read_file(path)
    files = [Path(p).expanduser() for p in spec.split(",")] if "," in spec else []
    if files and all(p.is_file() for p in files):  # several files of the published format (e.g. rare.txt,common.txt)
        return f"{name}-files:sha256-{file_sha8(*files)}", bench.builder().read_files(files)
    if "/" in spec or "@" in spec:
        return _load_hub(name, spec)
    raise SourceError(f"data {spec} not found: give a dataset folder, a {name} file, or HUB_ID@REVISION")


def _load_folder(folder: Path) -> dict[str, datasets.DatasetDict]:
    """Read the parquet files directly: ``load_dataset(folder)`` may serve a stale cache after a rebuild in place."""
    import pyarrow.parquet as pq

    out = {}
    for cfg in sorted(p.name for p in (folder / "data").iterdir() if p.is_dir()):
        splits: dict[str, list[Path]] = {}
        for file in sorted((folder / "data" / cfg).glob("*.parquet")):
            splits.setdefault(file.name.split("-")[0], []).append(file)
        out[cfg] = datasets.DatasetDict(
            {split: datasets.concatenate_datasets([datasets.Dataset(pq.read_table(f)) for f in files]) for split, files in splits.items()}
        )
    return out


def _load_hub(name: str, spec: str) -> tuple[str, dict[str, datasets.DatasetDict]]:
    from huggingface_hub import hf_hub_download

    repo, _, revision = spec.partition("@")
    revision = revision or None
    try:
        meta = json.loads(Path(hf_hub_download(repo, SIGNATURE_FILE, repo_type="dataset", revision=revision)).read_text())
        configs = datasets.get_dataset_config_names(repo, revision=revision)
        data = {cfg: datasets.load_dataset(repo, cfg, revision=revision) for cfg in configs}
    except Exception as exc:  # noqa: BLE001 - network, auth, missing revision: one line for the user
        raise SourceError(f"cannot load {repo} at revision {revision or 'main'}: {str(exc).splitlines()[0]}") from exc
    return meta["signature"] + (f"|rev:{revision}" if revision else ""), data


def publish(name: str, repo_id: str, version: str, local: Path | None = None, dry_run: bool = False, overrides=(),
            changelog: str | None = None, private: bool = False, progress: bool = True, faithful: bool = False) -> Path:
    """Write the Hub layout for ``version`` into ``local`` and (unless ``dry_run``) push it and tag ``vX.Y.Z``."""
    parts = version.split(".")
    if len(parts) != 3 or not all(p.isdigit() for p in parts):
        raise ConfigError(f"version must be X.Y.Z, got '{version}'")
    bench = get(name)
    built, meta = build(name, overrides, progress=progress, faithful=faithful)
    folder = Path(local) if local else Path("publish") / f"{name}-{version}"
    if folder.exists():
        shutil.rmtree(folder)
    shutil.copytree(built, folder)
    builder = bench.builder()
    data = _load_folder(folder)
    (folder / "README.md").write_text(card_text(bench, data, meta, builder.summary(data), version, changelog))
    if dry_run:
        return folder
    from huggingface_hub import HfApi

    api = HfApi()
    tag = f"v{version}"
    try:
        api.create_repo(repo_id, repo_type="dataset", exist_ok=True, private=private)
        api.upload_folder(folder_path=str(folder), repo_id=repo_id, repo_type="dataset", commit_message=f"wordbench {name} {tag}")
        api.create_tag(repo_id, tag=tag, repo_type="dataset", tag_message=f"wordbench {name} {tag}: {meta['signature']}")
    except Exception as exc:  # noqa: BLE001 - auth / network / existing tag: one line, token never printed
        raise WordbenchError(f"publishing to {repo_id} failed: {str(exc).splitlines()[0]} (log in with 'huggingface-cli login' or set HF_TOKEN)") from exc
    return folder

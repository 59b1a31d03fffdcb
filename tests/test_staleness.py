"""Nothing stale, nothing half-written: content-keyed sources and models, atomic builds, deterministic WordNet."""

import dataclasses
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import datasets
import pytest

from wordbench.benchmarks import hub
from wordbench.benchmarks.registry import REGISTRY, Benchmark
from wordbench.builders.base import Builder
from wordbench.errors import ConfigError
from wordbench.builders.sources.base import SourceInfo, file_sha8
from wordbench.builders.sources.corpora import corpus_info


def test_an_edited_model_config_is_a_new_model_version(tiny_models, tmp_path):
    from wordbench.identity import local_model_version as _local_version

    model = tmp_path / "gpt2"
    shutil.copytree(tiny_models["gpt2"], model)
    before = _local_version(model)
    config = json.loads((model / "config.json").read_text())
    config["n_positions"] = 32
    (model / "config.json").write_text(json.dumps(config))
    assert _local_version(model) != before  # same weights, another model
    (model / "tokenizer.json").write_text((model / "tokenizer.json").read_text().replace('"<pad>"', '"<PAD>"'))
    assert len({before, _local_version(model)}) == 2


def test_an_edited_corpus_is_a_new_source_version(tmp_path):
    corpus = tmp_path / "corpus.txt"
    corpus.write_text("the cat sat on the mat .\n")
    first = corpus_info(str(corpus)).version
    corpus.write_text("the dog sat on the mat .\n")  # same size, edited in place
    os.utime(corpus, ns=(1, 1))
    assert corpus_info(str(corpus)).version != first
    folder = tmp_path / "folder"
    folder.mkdir()
    (folder / "a.txt").write_text("one\n")
    link = tmp_path / "link"
    link.symlink_to(folder)
    assert file_sha8(link) == file_sha8(folder) != file_sha8(tmp_path / "corpus.txt")  # symlinks are followed


@dataclasses.dataclass
class _Config:
    rows: int = 3
    seed: int = 0
    faithful: bool = False


class _Builder(Builder):
    name, version, Config = "toy", "1.0.0", _Config
    fail = False

    def sources(self, config):
        return [SourceInfo("toy", "toy", "1")]

    def build(self, config, progress=True):
        if _Builder.fail:
            raise KeyboardInterrupt  # a build killed half-way
        ds = datasets.Dataset.from_dict({"id": [str(i) for i in range(config.rows)]})
        return {"default": datasets.DatasetDict({"test": ds})}


@pytest.fixture()
def toy(monkeypatch):
    bench = Benchmark("toy", "a toy", scorer_path=f"{__name__}:_Builder", builder_path=f"{__name__}:_Builder", card="card", citation="cite", paper="toy2020")
    monkeypatch.setitem(REGISTRY, "toy", bench)
    return bench


def test_a_killed_build_leaves_the_previous_build_whole(toy, tmp_path):
    out = tmp_path / "out"
    _, meta = hub.build("toy", ["rows=3"], out)
    _Builder.fail = True
    try:
        with pytest.raises(KeyboardInterrupt):
            hub.build("toy", ["rows=5"], out)
    finally:
        _Builder.fail = False
    assert json.loads((out / "signature.json").read_text())["signature"] == meta["signature"]
    assert len(hub._load_folder(out)["default"]["test"]) == 3
    _, meta5 = hub.build("toy", ["rows=5"], out)
    assert meta5["signature"] != meta["signature"] and len(hub._load_folder(out)["default"]["test"]) == 5
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".")]  # no temporary folder left


def test_out_reused_for_another_benchmark_is_refused(toy, tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    (out / "signature.json").write_text(json.dumps({"benchmark": "vast", "signature": "vast@1"}))
    with pytest.raises(ConfigError, match="holds a vast build"):
        hub.build("toy", (), out)


WALK = """
import os, sys

os.environ["WORDBENCH_CACHE"] = {cache!r}
from wordbench.builders.sources.wordnet import load_wordnet
wn, _ = load_wordnet()
out = []
for syn in list(wn.all_synsets("n"))[:3000:7]:
    out.append([s.name() for s in syn.hypernyms() + syn.hyponyms() + syn.member_holonyms()])
for syn in list(wn.all_synsets("a"))[:2000:5]:
    out.append([(l.name(), [a.name() for a in l.antonyms()]) for l in syn.lemmas()])
print(hash(str(out)) if False else __import__("hashlib").sha256(str(out).encode()).hexdigest())
"""


def test_wordnet_traversals_do_not_depend_on_the_hash_seed(tmp_path):
    root = str(Path(__file__).resolve().parents[1])
    cache = os.environ["WORDBENCH_CACHE"]
    digests = set()
    for seed in ("1", "2"):
        env = {**os.environ, "PYTHONHASHSEED": seed}
        out = subprocess.run([sys.executable, "-c", WALK.format(root=root, cache=cache)], capture_output=True, text=True, env=env, check=True)
        digests.add(out.stdout.strip())
    assert len(digests) == 1


BUILD = """
import hashlib, os, sys
os.environ["WORDBENCH_CACHE"] = {cache!r}
from wordbench.benchmarks.hub import build
folder, _ = build("paraphrase", {{"n_rare": "4", "n_common": "4"}}, out={out!r}, force=True, progress=False)
for f in sorted((folder / "data").rglob("*.parquet")):
    print(f.relative_to(folder), hashlib.sha256(f.read_bytes()).hexdigest())
"""


@pytest.mark.slow
def test_paraphrase_builds_are_byte_identical_under_any_hash_seed(tmp_path):
    cache = os.environ["WORDBENCH_CACHE"]
    outputs = []
    for seed in ("1", "2"):
        code = BUILD.format(cache=cache, out=str(tmp_path / f"build-{seed}"))
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                             env={**os.environ, "PYTHONHASHSEED": seed})
        outputs.append(out.stdout)
    assert outputs[0] and outputs[0] == outputs[1]


def test_files_named_by_options_and_a_models_code_are_keyed_by_content(tmp_path):
    """An edited fine-tuning corpus or prompts file, or an edited modeling_*.py of a remote-code model, gives another
    signature: the old run folder is never reused for it."""
    import shutil
    import time

    from wordbench.benchmarks.registry import get
    from wordbench.identity import local_model_version

    corpus = tmp_path / "tune.txt"
    corpus.write_text("the dog is a pet .\n")
    scorer = get("wordpred").scorer(finetune=str(corpus))
    before = scorer.signature_settings("causal")["finetune"]
    time.sleep(0.01)
    corpus.write_text("the cat is a pet .\n")
    assert get("wordpred").scorer(finetune=str(corpus)).signature_settings("causal")["finetune"] != before
    assert str(corpus) in before and "@sha256-" in before
    assert get("wordpred").scorer(finetune="hf:wikitext").signature_settings("causal")["finetune"] == "hf:wikitext"  # a Hub id as given
    prompts = tmp_path / "prompts.txt"
    prompts.write_text("The dog\n")
    first_prompts = get("tendencies").scorer(prompts=str(prompts)).signature_settings("causal")["prompts"]
    prompts.write_text("The cat\n")
    assert get("tendencies").scorer(prompts=str(prompts)).signature_settings("causal")["prompts"] != first_prompts
    assert "@sha256-" in first_prompts
    model = tmp_path / "remote"
    model.mkdir()
    (model / "config.json").write_text("{}")
    (model / "modeling_remote.py").write_text("SCALE = 1\n")
    first = local_model_version(model)
    (model / "modeling_remote.py").write_text("SCALE = 2\n")
    assert local_model_version(model) != first
    shutil.rmtree(model)

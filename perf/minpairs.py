"""minpairs: batched conditional scoring (each source encoded once for both variants) vs one pair at a time.

The baseline scores each (source, variant) separately, batch size 1: the source is encoded once per
variant and every forward pass holds one sentence. Ours groups each item's variants under one encoder
pass and batches items by length. Both score the same items of the default offline build (Ding
sentence pairs, human references); the scores must agree and the ratio is written to
perf/results/minpairs.json.
Model: --model (a seq2seq MT model), else a randomly initialised Marian of opus-mt-en-de's size
(6+6 layers, d_model 512, 58,101-token vocabulary) built from its config, with a BPE tokenizer
trained here on the German and English sentences: random weights, the same compute per token.

    python perf/minpairs.py [--model PATH] [--items 400] [--batch-size auto]
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

import numpy as np

from common import machine, sync, write_result
from wordbench.benchmarks.hub import build, load_data
from wordbench.hashing import seeded_key
from wordbench.scorers.models import load_model


def marian_base(folder: Path, texts: list[str]) -> Path:
    """A random Marian with opus-mt-en-de's shape and a tokenizer trained on ``texts``."""
    import torch
    import transformers
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, processors, trainers
    from transformers import PreTrainedTokenizerFast

    tok = Tokenizer(models.BPE())
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=True)
    tok.decoder = decoders.ByteLevel()
    tok.train_from_iterator(texts, trainers.BpeTrainer(vocab_size=16000, special_tokens=["<pad>", "</s>", "<unk>"],
                                                       initial_alphabet=pre_tokenizers.ByteLevel.alphabet()))
    tok.post_processor = processors.TemplateProcessing(single="$A </s>", special_tokens=[("</s>", tok.token_to_id("</s>"))])
    fast = PreTrainedTokenizerFast(tokenizer_object=tok, eos_token="</s>", pad_token="<pad>", unk_token="<unk>", model_max_length=512)
    torch.manual_seed(0)
    config = transformers.MarianConfig(vocab_size=58101, d_model=512, encoder_layers=6, decoder_layers=6, encoder_attention_heads=8,
                                       decoder_attention_heads=8, encoder_ffn_dim=2048, decoder_ffn_dim=2048, max_position_embeddings=512,
                                       pad_token_id=fast.pad_token_id, eos_token_id=fast.eos_token_id, decoder_start_token_id=fast.pad_token_id)
    transformers.MarianMTModel(config).save_pretrained(folder, safe_serialization=True)
    fast.save_pretrained(folder)
    return folder


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--model")
    ap.add_argument("--items", type=int, default=400)
    ap.add_argument("--batch-size", default="auto")
    args = ap.parse_args()

    folder, meta = build("minpairs", progress=False)
    rows = list(load_data("minpairs", str(folder), progress=False)[1]["default"]["test"])
    rows = sorted(rows, key=lambda r: seeded_key(0, r["id"]))[: args.items]
    with tempfile.TemporaryDirectory() as tmp:
        name = args.model or str(marian_base(Path(tmp), [t for r in rows for t in (r["source"], r["correct"])]))
        bs = args.batch_size if args.batch_size == "auto" else int(args.batch_size)
        model = load_model(name, batch_size=bs)
        single = load_model(name, batch_size=1)
        sources = [r["source"] for r in rows for _ in (0, 1)]
        targets = [r[k] for r in rows for k in ("correct", "incorrect")]

        model.conditional_logprobs(sources[:8], targets[:8])  # warm-up
        sync(model)
        t0 = time.perf_counter()
        fast = model.conditional_logprobs(sources, targets)
        sync(model)
        t_fast = time.perf_counter() - t0

        t0 = time.perf_counter()
        slow = [single.conditional_logprobs([s], [t])[0] for s, t in zip(sources, targets)]
        sync(single)
        t_slow = time.perf_counter() - t0

    diff = float(np.max(np.abs(np.array(fast) - np.array(slow))))
    assert diff < 1e-3, f"batched and one-at-a-time scores differ by {diff}"
    write_result("minpairs", model, {
        "benchmark": "minpairs conditional scoring (correct + incorrect per item)",
        "data": meta["signature"], "items": len(rows), "sequences": len(targets),
        "model": name if args.model else "random Marian, opus-mt-en-de shape (6+6 layers, d512, vocab 58101)",
        "batch_size": model.batch_size, "batched_s": round(t_fast, 3), "one_pair_at_a_time_s": round(t_slow, 3),
        "ratio": round(t_slow / t_fast, 2), "variants_per_s": round(len(targets) / t_fast, 1),
        "max_abs_score_diff": diff, "machine": machine(model),
    })


if __name__ == "__main__":
    main()

"""minpairs: batched conditional scoring (each source encoded once for both variants) vs one pair at a time,
for a seq2seq MT model (the paper's) and a causal model through the translation prompt.

The baseline scores each (source, variant) separately, batch size 1: the source is encoded once per
variant and every forward pass holds one sentence. Ours groups each item's variants under one encoder
pass and batches items by length. Both score the same items of the default offline build (Ding
sentence pairs, human references); the scores must agree and the ratio is written to
perf/results/minpairs.json.
Model: --model (a seq2seq MT model), else a randomly initialised Marian of opus-mt-en-de's size
(6+6 layers, d_model 512, 58,101-token vocabulary) built from its config, with a BPE tokenizer
trained here on the German and English sentences: random weights, the same compute per token.

Causal: --causal-model, else the peers' fp32 SmolLM2 folder (``python perf/peers.py prepare``); the prompt and
source are the context, each variant a continuation.

    python perf/minpairs.py [--model PATH] [--causal-model PATH] [--items 300] [--batch-size auto] [--rounds 3]
"""

from __future__ import annotations

import argparse
import json
import tempfile
from pathlib import Path

import numpy as np

from common import machine, timed, write_result
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


def versus(model, single, batched, one_at_a_time, rounds: int) -> dict:
    """The record of one family: both ways timed in turn ``rounds`` times, each way's fastest round kept."""
    times = {"fast": [], "slow": []}
    for _ in range(rounds):
        fast, t = timed(model, batched)
        times["fast"].append(t)
        slow, t = timed(single, one_at_a_time)
        times["slow"].append(t)
    t_fast, t_slow = min(times["fast"]), min(times["slow"])
    return {"batch_size": model.batch_size, "sequences": len(fast), "rounds": rounds, "batched_s": round(t_fast, 3),
            "one_pair_at_a_time_s": round(t_slow, 3), "ratio": round(t_slow / t_fast, 2), "variants_per_s": round(len(fast) / t_fast, 1),
            "max_abs_score_diff": float(np.max(np.abs(np.array(fast) - np.array(slow)))), "machine": machine(model)}


def seq2seq_case(rows, name, batch_size, rounds) -> dict:
    """Each source encoded once, its variants decoded as one prefix tree (``Seq2SeqLM.trees``), items batched by
    length; vs one (source, variant) per call."""
    model, single = load_model(name, batch_size=batch_size), load_model(name, batch_size=1)
    sources = [r["source"] for r in rows for _ in (0, 1)]
    targets = [r[k] for r in rows for k in ("correct", "incorrect")]
    model.conditional_logprobs(sources[:8], targets[:8])  # warm-up
    return {"prefix_tree": model.trees, **versus(model, single, lambda: model.conditional_logprobs(sources, targets),
                                                  lambda: [single.conditional_logprobs([s], [t])[0] for s, t in zip(sources, targets)], rounds)}


def causal_case(rows, name, batch_size, rounds) -> dict:
    """The scorer's translation prompt + source as the context, each variant a continuation: packed rows, each
    row a prefix tree (the prompt's start once per row, the source once per item, the variants' common start
    once); vs one (prompt, variant) per call."""
    from wordbench.scorers.minpairs import Options

    model, single = load_model(name, batch_size=batch_size, dtype="float32"), load_model(name, batch_size=1, dtype="float32")
    pairs = [(Options.prompt.format(source=r["source"]), " " + r[k] + Options.end) for r in rows for k in ("correct", "incorrect")]
    model.sequence_logprobs(pairs[:8])  # warm-up (and the packing probe)
    single.sequence_logprobs(pairs[:2])
    return {"packed_rows": model.packs, **versus(model, single, lambda: [s.total for s in model.sequence_logprobs(pairs)],
                                                 lambda: [single.sequence_logprobs([p])[0].total for p in pairs], rounds)}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--model", help="a seq2seq MT model (default: a random Marian of opus-mt-en-de's shape)")
    ap.add_argument("--causal-model", help="a causal model scored through the translation prompt (default: the peers' fp32 SmolLM2 "
                                           "folder, after `python perf/peers.py prepare`)")
    ap.add_argument("--items", type=int, default=300)
    ap.add_argument("--batch-size", default="auto")
    ap.add_argument("--rounds", type=int, default=3, help="both ways timed in turn this many times; each way's fastest round is kept")
    args = ap.parse_args()
    from peers import MODEL_DIR

    folder, meta = build("minpairs", progress=False)
    rows = list(load_data("minpairs", str(folder), progress=False)[1]["default"]["test"])
    rows = sorted(rows, key=lambda r: seeded_key(0, r["id"]))[: args.items]
    bs = args.batch_size if args.batch_size == "auto" else int(args.batch_size)
    result = {"benchmark": "minpairs conditional scoring (correct + incorrect per item): batched vs one pair at a time",
              "data": meta["signature"], "items": len(rows), "families": {}}
    with tempfile.TemporaryDirectory() as tmp:
        name = args.model or str(marian_base(Path(tmp), [t for r in rows for t in (r["source"], r["correct"])]))
        case = seq2seq_case(rows, name, bs, args.rounds)
        case["model"] = name if args.model else "random Marian, opus-mt-en-de shape (6+6 layers, d512, vocab 58101)"
        result["families"]["seq2seq"] = case
        print("seq2seq", json.dumps(case), flush=True)
    causal = args.causal_model or (str(MODEL_DIR) if (MODEL_DIR / "config.json").exists() else None)
    if causal:
        case = causal_case(rows, causal, bs, args.rounds)
        case["model"] = causal if args.causal_model else "SmolLM2-135M-Instruct (packaged GGUF dequantized to fp32)"
        result["families"]["causal"] = case
        print("causal", json.dumps(case), flush=True)
    for family, case in result["families"].items():
        assert case["max_abs_score_diff"] < 1e-3, f"{family}: batched and one-at-a-time scores differ by {case['max_abs_score_diff']}"
    write_result("minpairs", None, result)


if __name__ == "__main__":
    main()

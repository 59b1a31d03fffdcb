"""One pass of causal-LM fine-tuning on a train corpus (Dudy & Bedrick 2020, section 2.1), before scoring.

The paper fine-tuned each pretrained model on the WikiText-103 train split before its word-prediction
runs; ``finetune_causal`` does that with the transformers ``Trainer`` on the loaded model, in place.
"""

from __future__ import annotations

import tempfile
from typing import Iterable

from wordbench.errors import warn


def finetune_causal(model, lines: Iterable[str], epochs: float = 1.0, batch_size: int = 8, max_length: int = 128,
                    learning_rate: float = 5e-5, seed: int = 0) -> dict:
    """Fine-tune ``model.model`` (a causal LM) on ``lines`` for ``epochs`` passes; returns the Trainer's metrics."""
    import datasets
    import torch
    import transformers

    tok = model.tokenizer
    if tok.pad_token is None:
        tok.pad_token = tok.eos_token
    texts = [line.strip() for line in lines if line.strip()]
    if not texts:
        from wordbench.errors import SourceError

        raise SourceError("fine-tuning corpus has no text")
    limit = min(max_length, model.max_length or max_length)  # never past the model's positions
    encoded = tok(texts)["input_ids"]
    cut = sum(len(ids) > limit for ids in encoded)
    if cut:
        warn(f"fine-tuning: {cut} of {len(texts)} corpus lines are longer than {limit} tokens and were cut there")
    train = datasets.Dataset.from_dict({"input_ids": [ids[:limit] for ids in encoded]})
    net = model.model
    if net.dtype in (torch.float16, torch.bfloat16) and model.device.type == "cpu":
        net.float()  # half-precision weights do not train on CPU
    with tempfile.TemporaryDirectory() as out:
        args = transformers.TrainingArguments(
            output_dir=out, num_train_epochs=epochs, per_device_train_batch_size=batch_size, learning_rate=learning_rate,
            seed=seed, data_seed=seed, save_strategy="no", report_to=[], logging_steps=50, disable_tqdm=False,
            use_cpu=model.device.type == "cpu")
        trainer = transformers.Trainer(model=net, args=args, train_dataset=train,
                                       data_collator=transformers.DataCollatorForLanguageModeling(tok, mlm=False))
        net.train()
        result = trainer.train()
    net.eval()
    return dict(result.metrics)

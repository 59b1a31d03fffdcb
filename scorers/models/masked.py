"""Masked (bidirectional) language models, and encoders without an LM head."""

from __future__ import annotations

from typing import Sequence

import numpy as np
import torch

from .base import Encoded, ScoringModel, TokenScores


class EncoderModel(ScoringModel):
    """A bidirectional encoder without an LM head: hidden states only."""

    family = "encoder"

    def encode(self, text: str) -> Encoded:
        enc = self.tokenizer(text, add_special_tokens=True, return_offsets_mapping=True, return_special_tokens_mask=True)
        return Encoded(list(enc["input_ids"]), [tuple(o) for o in enc["offset_mapping"]], [bool(s) for s in enc["special_tokens_mask"]])

    @property
    def words(self):
        raise TypeError(f"{self.info.name} is an encoder without an LM head: it makes no token predictions")


class MaskedLM(EncoderModel):
    family = "masked"

    @property
    def words(self):
        return ScoringModel.words.fget(self)

    def _blank(self, context: str, right: str | None) -> tuple[list[int], int]:
        """Token ids of ``context [MASK] right`` and the mask position (footnote 9 of Dudy & Bedrick)."""
        text = f"{context.rstrip()} {self.tokenizer.mask_token}".lstrip() + (right or "")
        ids = self.encode(text).ids
        return ids, ids.index(self.tokenizer.mask_token_id)

    def _mask_logprobs(self, batch) -> torch.Tensor:
        ids, mask = self.pad([b[0] for b in batch])
        logits = self.model(input_ids=ids, attention_mask=mask).logits
        pos = torch.tensor([b[1] for b in batch], device=logits.device)
        return torch.log_softmax(logits[torch.arange(len(batch), device=logits.device), pos].float(), -1)

    def next_token_logprobs(self, contexts: Sequence[str], right_contexts=None) -> np.ndarray:
        """Log-probabilities of the token at a mask placed after each context: [n, vocab]."""
        rights = right_contexts or [None] * len(contexts)
        blanks = [self._blank(c, r) for c, r in zip(contexts, rights)]
        rows = self.batched(blanks, [len(b[0]) for b in blanks], lambda b: list(self._mask_logprobs(b).cpu().numpy()), "mask")
        return np.stack(rows)

    def topk_next(self, contexts: Sequence[str], k: int, right_contexts=None, word_start_only: bool = False):
        """The ``k`` most probable tokens at the mask between each context and its right context."""
        rights = right_contexts or [None] * len(contexts)
        blanks = [self._blank(c, r) for c, r in zip(contexts, rights)]
        start_mask = torch.as_tensor(self.words.is_start, device=self.device) if word_start_only else None

        def run(batch):
            lp = self._mask_logprobs(batch)
            return self._topk(lp, k, start_mask)

        return self.batched(blanks, [len(b[0]) for b in blanks], run, "top-k")

    def sequence_logprobs(self, items: Sequence[str | tuple[str, str]]) -> list[TokenScores]:
        """Pseudo-log-likelihood (Salazar et al. 2020): each token scored with itself masked."""
        mask_id = self.tokenizer.mask_token_id
        copies, owners, per_item = [], [], []
        for n, item in enumerate(items):
            context, cont = item if isinstance(item, tuple) else ("", item)
            enc = self.encode(context + cont)
            scored = [i for i, ((s, _e), sp) in enumerate(zip(enc.offsets, enc.special)) if not sp and s >= len(context)]
            per_item.append((enc, scored))
            for i in scored:
                ids = list(enc.ids)
                ids[i] = mask_id
                copies.append((ids, i, enc.ids[i]))
                owners.append(n)

        def run(batch):
            lp = self._mask_logprobs(batch)
            tgt = torch.tensor([b[2] for b in batch], device=lp.device)
            return lp[torch.arange(len(batch), device=lp.device), tgt].cpu().tolist()

        values = self.batched(copies, [len(c[0]) for c in copies], run, "pseudo-log-likelihood")
        out, cursor = [], 0
        for enc, scored in per_item:
            out.append(
                TokenScores(
                    self.tokenizer.convert_ids_to_tokens([enc.ids[i] for i in scored]),
                    [enc.offsets[i] for i in scored],
                    values[cursor : cursor + len(scored)],
                )
            )
            cursor += len(scored)
        return out

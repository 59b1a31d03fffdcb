"""Causal (decoder-only) language models."""

from __future__ import annotations

from typing import Sequence

import numpy as np
import torch

from .base import Encoded, ScoringModel, TokenScores


class CausalLM(ScoringModel):
    family = "causal"

    @property
    def bos_id(self) -> int | None:
        """Prepended to every text so that the first word is scored (EOS where there is no BOS)."""
        tok = self.tokenizer
        return tok.bos_token_id if tok.bos_token_id is not None else tok.eos_token_id

    def encode(self, text: str) -> Encoded:
        enc = super().encode(text)
        if self.bos_id is not None and (not enc.ids or enc.ids[0] != self.bos_id):
            enc = Encoded([self.bos_id] + enc.ids, [(0, 0)] + enc.offsets, [True] + enc.special)
        return enc

    def _context_ids(self, context: str) -> list[int]:
        # A trailing space belongs to the next word's first token (" dog"), so it is not part of the context.
        return self.encode(context.rstrip()).ids

    def _last_logprobs(self, batch: list[list[int]]) -> torch.Tensor:
        ids, mask = self.pad(batch)
        logits = self.model(input_ids=ids, attention_mask=mask).logits
        last = mask.sum(1) - 1
        return torch.log_softmax(logits[torch.arange(len(batch), device=logits.device), last].float(), -1)

    def next_token_logprobs(self, contexts: Sequence[str]) -> np.ndarray:
        """Log-probabilities of the next token after each context: [n, vocab]."""
        seqs = [self._context_ids(c) for c in contexts]
        rows = self.batched(seqs, [len(s) for s in seqs], lambda b: list(self._last_logprobs(b).cpu().numpy()), "next token")
        return np.stack(rows)

    def topk_next(self, contexts: Sequence[str], k: int, right_contexts=None, word_start_only: bool = False):
        """The ``k`` most probable next tokens per context: a list of (token ids, log-probs).

        ``right_contexts`` is accepted for a common signature with masked models and ignored (it
        follows the predicted token). ``word_start_only`` keeps tokens that begin a new word.
        """
        seqs = [self._context_ids(c) for c in contexts]
        start_mask = torch.as_tensor(self.words.is_start, device=self.device) if word_start_only else None

        def run(batch):
            lp = self._last_logprobs(batch)
            return self._topk(lp, k, start_mask)

        return self.batched(seqs, [len(s) for s in seqs], run, "top-k")

    def sequence_logprobs(self, items: Sequence[str | tuple[str, str]]) -> list[TokenScores]:
        """Token log-probabilities of texts, or of the continuation of (context, continuation) pairs.

        A pair is encoded as context tokens followed by continuation tokens, so the boundary is a
        token boundary; offsets index into ``context + continuation``.
        """
        prepared = []
        for item in items:
            context, cont = item if isinstance(item, tuple) else ("", item)
            head = self.encode(context)
            tail = super().encode(cont)
            shift = len(context)
            ids = head.ids + tail.ids
            offsets = [(s + shift, e + shift) for s, e in tail.offsets]
            prepared.append((ids, len(head.ids), offsets, tail.ids))
        if any(first == 0 for _, first, _, _ in prepared):
            raise ValueError("this tokenizer has no BOS or EOS token: the first token of a text cannot be scored")

        def run(batch):
            ids, mask = self.pad([b[0] for b in batch])
            logprobs = torch.log_softmax(self.model(input_ids=ids, attention_mask=mask).logits.float(), -1)
            out = []
            for row, (seq, first, offsets, targets) in enumerate(batch):
                positions = torch.arange(first - 1, len(seq) - 1, device=logprobs.device)
                tgt = torch.tensor(targets, device=logprobs.device)
                out.append(logprobs[row, positions, tgt].cpu().tolist())
            return out

        scores = self.batched(prepared, [len(p[0]) for p in prepared], run, "sequence log-probs")
        return [
            TokenScores(self.tokenizer.convert_ids_to_tokens(p[3]), p[2], s) for p, s in zip(prepared, scores)
        ]

"""Causal (decoder-only) language models."""

from __future__ import annotations

from typing import Sequence

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

    def _queries(self, contexts, right_contexts=None):
        return [(ids, len(ids) - 1) for ids in map(self._context_ids, contexts)]

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

"""Masked (bidirectional) language models, and encoders without an LM head."""

from __future__ import annotations

from typing import Sequence

import torch

from .base import Encoded, LineSteps, ScoringModel, TokenScores


class EncoderModel(ScoringModel):
    """A bidirectional encoder without an LM head: hidden states only."""

    family = "encoder"

    def encode(self, text: str, bos: bool = True) -> Encoded:
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

    def _queries(self, contexts, right_contexts=None):
        rights = right_contexts or [None] * len(contexts)
        return [self._blank(c, r) for c, r in zip(contexts, rights)]

    def _word_steps(self, lines):
        return _MaskedLineSteps(self, lines)

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

        def run(prepared):
            lp = self._position_logprobs(prepared)
            tgt = torch.tensor([b[2] for b in prepared[0]], device=lp.device)
            return lp[torch.arange(len(tgt), device=lp.device), tgt].cpu().tolist()

        values = self.batched(copies, [len(c[0]) for c in copies], run, "pseudo-log-likelihood", self._position_inputs)
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


class _MaskedLineSteps(LineSteps):
    """Whole-word steps for a masked LM: ``[CLS] context path [MASK] [SEP]`` per prefix (footnote 9)."""

    def positions(self, line: int, word: int, path: int) -> int:
        return self.starts[line][word] + path + 3  # [CLS] ... [MASK] [SEP]

    def steps(self, requests):
        from ..wholeword import summarize_steps

        tok = self.model.tokenizer
        items = []
        for line, word, path in requests:
            ids = [tok.cls_token_id] + self.ids[line][: self.starts[line][word]] + list(path) + [tok.mask_token_id, tok.sep_token_id]
            ids = [i for i in ids if i is not None]
            own = self.actual(line, word)
            target = own[len(path)] if len(path) < len(own) and list(path) == own[: len(path)] else -1
            items.append((ids, len(ids) - 2 if tok.sep_token_id is not None else len(ids) - 1, target))

        def run(prepared):
            lp = self.model._position_logprobs(prepared)
            return summarize_steps(lp, self.vocab_tensors, [b[2] for b in prepared[0]])

        return self.model.sizer.run(items, [len(i[0]) for i in items], run, prepare=self.model._position_inputs)

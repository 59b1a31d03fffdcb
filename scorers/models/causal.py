"""Causal (decoder-only) language models."""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Sequence

import torch

from .base import Encoded, LineSteps, ScoringModel, TokenScores

STRATEGIES = ("ancestral", "nucleus", "beam", "greedy")  # the sampling strategies of Meister & Cotterell
SEARCHES = ("greedy", "beam_search")  # deterministic decoding (translation)


@dataclass(frozen=True)
class Generation:
    text: str  # the continuation, special tokens removed
    tokens: int  # model tokens generated (EOS included)
    finished: bool  # ended with EOS; False = cut at max_new_tokens


def generation_config(strategy: str, max_new_tokens: int, top_p: float, beams: int, stops: set[int], **special):
    """The decoding settings of ``strategy``; every knob is explicit, since unset fields would be filled from the
    checkpoint's generation_config (its top-k, temperature, repetition penalty are not used)."""
    from transformers import GenerationConfig

    sampling = strategy not in SEARCHES
    return GenerationConfig(
        max_new_tokens=max_new_tokens, min_length=0, do_sample=sampling, num_beams=beams if strategy in ("beam", "beam_search") else 1,
        **({"top_k": 0, "top_p": top_p if strategy == "nucleus" else 1.0, "temperature": 1.0, "typical_p": 1.0,
            "epsilon_cutoff": 0.0, "eta_cutoff": 0.0} if sampling else {}),
        repetition_penalty=1.0, no_repeat_ngram_size=0, length_penalty=1.0, eos_token_id=sorted(stops) or None, **special,
    )


def finish_generation(tokenizer, row: list[int], stops: set[int]) -> Generation:
    """The text of generated tokens ``row`` up to and including its first stop token."""
    end = next((i + 1 for i, t in enumerate(row) if t in stops), len(row))
    text = tokenizer.decode(row[:end], skip_special_tokens=True, clean_up_tokenization_spaces=False)
    return Generation(text, end, end < len(row) or (bool(row) and row[-1] in stops))


class CausalLM(ScoringModel):
    family = "causal"
    add_bos: bool = True  # False: texts are encoded without a BOS (VAST's bos=none, the authors' GPT-2 runs)

    @property
    def bos_id(self) -> int | None:
        """Prepended to every text so that the first word is scored (EOS where there is no BOS)."""
        tok = self.tokenizer
        return tok.bos_token_id if tok.bos_token_id is not None else tok.eos_token_id

    @functools.cached_property
    def newline_ids(self) -> set[int]:
        """Tokens whose text holds a newline."""
        return {i for i in range(len(self.tokenizer)) if "\n" in self.tokenizer.decode([i])}

    def encode(self, text: str) -> Encoded:
        enc = super().encode(text)
        if self.add_bos and self.bos_id is not None and (not enc.ids or enc.ids[0] != self.bos_id):
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

    def _word_steps(self, lines):
        return _CausalLineSteps(self, lines)

    def generate(self, prompts: Sequence[str], strategy: str = "ancestral", max_new_tokens: int = 256,
                 top_p: float = 0.95, beams: int = 5, seed: int = 0, stop_at_newline: bool = False) -> list[Generation]:
        """Continue each prompt ("" = unconditional, from BOS) until EOS or ``max_new_tokens``.

        Strategies: ``ancestral`` (sampling from the full distribution), ``nucleus`` (top-p),
        ``beam`` (beam sampling: candidates sampled, the most probable kept on a beam of ``beams``),
        ``greedy``, ``beam_search`` (deterministic beam search of width ``beams``). Sampling is seeded (one seed per call; results depend on the batch size).
        The model's own generation defaults (top-k, temperature, repetition penalty) are not used.
        ``stop_at_newline`` ends a continuation at its first token holding a newline (prompted translation).
        """
        if strategy not in STRATEGIES + SEARCHES:
            raise ValueError(f"strategy must be one of {', '.join(STRATEGIES + SEARCHES[1:])}, not {strategy!r}")
        if self.bos_id is None and any(not p for p in prompts):
            raise ValueError(f"{self.info.name} has no BOS or EOS token to start from: give prompts")
        eos = self.tokenizer.eos_token_id
        stops = ({eos} if eos is not None else set()) | (self.newline_ids if stop_at_newline else set())
        config = generation_config(strategy, max_new_tokens, top_p, beams, stops, pad_token_id=self.pad_id, bos_token_id=self.bos_id)
        encoded = [self.encode(p.rstrip()).ids for p in prompts]

        def run(batch):
            ids, mask = self.pad(batch, left=True)
            width = ids.shape[1]
            out = self.model.generate(input_ids=ids, attention_mask=mask, generation_config=config)
            return [finish_generation(self.tokenizer, row, stops) for row in out[:, width:].tolist()]

        devices = [self.device.index or 0] if self.device.type == "cuda" else []
        with torch.random.fork_rng(devices=devices):
            torch.manual_seed(seed)
            return self.batched(encoded, [len(e) for e in encoded], run, f"generate ({strategy})")


class _CausalLineSteps(LineSteps):
    """Whole-word steps over a batch of lines: one teacher-forced pass with the KV cache kept.

    A prefix that follows the line's own tokens is read from that pass; any other prefix (a greedy
    or searched path off the line) continues from the cached keys and values of the line's context,
    so only the path's own tokens go through the model again.
    """

    CONTINUE_BATCH = 64

    def __init__(self, model: CausalLM, lines):
        from ..wholeword import summarize_steps

        if model.bos_id is None:
            raise ValueError("this tokenizer has no BOS or EOS token: the first word has no context to predict from")
        super().__init__(model, lines, [model.bos_id])
        ids, mask = model.pad(self.ids)
        out = model.model(input_ids=ids, attention_mask=mask, use_cache=True)
        self.kv = [(layer.keys, layer.values) for layer in out.past_key_values.layers]
        self.table = []
        for row, seq in enumerate(self.ids):
            logprobs = torch.log_softmax(out.logits[row, : len(seq)].float(), -1)
            self.table.append(summarize_steps(logprobs, self.vocab_tensors, seq[1:] + [-1]))

    def steps(self, requests):
        out = [None] * len(requests)
        off_line = []
        for n, (line, word, path) in enumerate(requests):
            start = self.starts[line][word]
            if list(path) == self.ids[line][start : start + len(path)]:
                out[n] = self.table[line][start + len(path) - 1]
            else:
                off_line.append(n)
        for i in range(0, len(off_line), self.CONTINUE_BATCH):
            chunk = off_line[i : i + self.CONTINUE_BATCH]
            for n, step in zip(chunk, self._continue([requests[n] for n in chunk])):
                out[n] = step
        return out

    def _continue(self, requests):
        """Steps after context + path for paths off the line, from the cached context keys/values."""
        from transformers import DynamicCache

        from ..wholeword import summarize_steps

        device = self.model.device
        rows = torch.tensor([line for line, _, _ in requests], device=device)
        context = [self.starts[line][word] for line, word, _ in requests]
        width = max(context)
        cache = DynamicCache(ddp_cache_data=[(k[rows, :, :width], v[rows, :, :width]) for k, v in self.kv])
        paths = [list(p) for _, _, p in requests]
        ids, path_mask = self.model.pad(paths)
        context_mask = (torch.arange(width, device=device)[None, :] < torch.tensor(context, device=device)[:, None]).long()
        positions = torch.tensor(context, device=device)[:, None] + torch.arange(ids.shape[1], device=device)[None, :]
        logits = self.model.model(
            input_ids=ids, attention_mask=torch.cat([context_mask, path_mask], 1), position_ids=positions, past_key_values=cache, use_cache=True
        ).logits
        last = torch.tensor([len(p) - 1 for p in paths], device=device)
        logprobs = torch.log_softmax(logits[torch.arange(len(paths), device=device), last].float(), -1)
        return summarize_steps(logprobs, self.vocab_tensors)

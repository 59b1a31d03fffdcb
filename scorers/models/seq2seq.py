"""Encoder-decoder (seq2seq) models: conditional target scores, beam translation, and the causal vocabulary
(cloze top-k, whole words, word log-probs, generation) through the decoder by infilling.

Two infilling styles, detected from the tokenizer (``infill="auto"``) or chosen with ``infill=``:
- ``sentinel`` (T5, mT5, FLAN-T5): the source holds ``<extra_id_0>`` at the gap; the decoder starts
  ``[start, <extra_id_0>]`` and its next distribution is the gap's first token; the next sentinel or EOS ends the span.
- ``mask`` (BART, mBART): the source holds ``<mask>`` at the gap; the decoder is teacher-forced on the
  target's special prefix (BART's ``<s>``) and the left context, and its next distribution is the gap's.
A model with neither (Marian) scores and translates but makes no word predictions.
Hidden states come from the encoder (``states="encoder"``) or, teacher-forced on the same text, the decoder.
"""

from __future__ import annotations

import contextlib
import functools
import re
from dataclasses import dataclass
from typing import Literal, Sequence

import torch

from wordbench.spec import Spec, opt

from .base import Encoded, LineSteps, ModelError, ScoringModel, cache_out, config_layers, narrowest_width, split_by, with_cache
from .causal import check_strategy, finish_generation, generation_config, sample_seeds, seeded_rows
from .trie import Trie, build_trie, forest

REDUCTIONS = ("mean", "sum")
INFILL = ("auto", "sentinel", "mask")
STATES = ("encoder", "decoder")


@dataclass(frozen=True)
class Seq2SeqOptions(Spec):
    """``--model-option`` keys of seq2seq models (part of the run signature)."""

    infill: Literal["auto", "sentinel", "mask"] = opt("auto", "how the decoder fills a gap: auto (T5 sentinel, else BART mask), sentinel, mask")
    states: Literal["encoder", "decoder"] = opt("encoder", "hidden states of the encoder (default) or the decoder")
SENTINEL = "<extra_id_0>"
TREE_PROBE = (("The cat sat on the mat.", ("Die Katze saß auf der Matte.", "Die Katze saß auf die Matte.")), ("Hello.", ("Hallo.",)))
SENTINELS = re.compile(r"^<extra_id_\d+>$")


class Seq2SeqLM(ScoringModel):
    family = "seq2seq"

    def __init__(self, model, tokenizer, info, device, batch_size="auto", progress: bool = False, infill: str = "auto", states: str = "encoder"):
        super().__init__(model, tokenizer, info, device, batch_size, progress)
        Seq2SeqOptions(infill, states)  # checked by the declaration
        self.infill_option, self.states = infill, states

    def encode(self, text: str, bos: bool = True) -> Encoded:
        """Source tokens with the tokenizer's special tokens, ending in EOS."""
        enc = self.tokenizer(text, add_special_tokens=True, return_offsets_mapping=True, return_special_tokens_mask=True)
        ids, offsets, special = list(enc["input_ids"]), [tuple(o) for o in enc["offset_mapping"]], [bool(s) for s in enc["special_tokens_mask"]]
        eos = self.tokenizer.eos_token_id
        if eos is not None and (not ids or ids[-1] != eos):
            ids, offsets, special = ids + [eos], offsets + [(0, 0)], special + [True]
        return Encoded(ids, offsets, special)

    def target_ids(self, text: str) -> list[int]:
        """Target tokens ending in EOS (the EOS is scored, as fairseq does)."""
        ids = list(self.tokenizer(text_target=text, add_special_tokens=True)["input_ids"])
        eos = self.tokenizer.eos_token_id
        if ids and ids[0] == self.tokenizer.bos_token_id and ids[0] != eos:
            ids = ids[1:]  # the decoder start token plays BOS
        return ids + [eos] if eos is not None and (not ids or ids[-1] != eos) else ids

    @functools.cached_property
    def decoder_start_id(self) -> int:
        """The config's decoder start; without one, a target's closing language code (mBART) or PAD."""
        config = self.model.config
        start = getattr(config, "decoder_start_token_id", None)
        if start is None:
            start = getattr(self.model.generation_config, "decoder_start_token_id", None)
        if start is None:
            closing = self._frame(target=True)[1]
            if closing and closing[-1] != self.tokenizer.eos_token_id and closing[-1] in self.tokenizer.all_special_ids:
                start = closing[-1]  # mBART: the decoder starts with the target language code (shift_tokens_right)
        return start if start is not None else self.pad_id

    # --- infilling ------------------------------------------------------------------------------
    @functools.cached_property
    def sentinel_ids(self) -> set[int]:
        """T5's sentinels ``<extra_id_N>`` present in the vocabulary."""
        return {i for t, i in self.tokenizer.get_vocab().items() if SENTINELS.match(t)}

    @functools.cached_property
    def infill(self) -> str | None:
        """``sentinel`` or ``mask`` (the option, else detected: a ``<extra_id_0>`` token, else a mask token); None: neither."""
        if self.infill_option != "auto":
            return self.infill_option
        if self.tokenizer.convert_tokens_to_ids(SENTINEL) in self.sentinel_ids:
            return "sentinel"
        return "mask" if self.tokenizer.mask_token_id is not None else None

    @functools.cached_property
    def gap_id(self) -> int:
        """The source token at the gap; a ``ModelError`` for a model that cannot infill."""
        style = self.infill
        gap = self.tokenizer.convert_tokens_to_ids(SENTINEL) if style == "sentinel" else self.tokenizer.mask_token_id
        if style is None or gap is None or gap == self.tokenizer.unk_token_id:
            raise ModelError(f"{self.info.name} has no {SENTINEL} sentinel or mask token to infill, so it makes no word predictions "
                             "(score it on minpairs, paraphrase or vast; give prompts to generate)")
        return gap

    def _frame(self, target: bool = False) -> tuple[list[int], list[int]]:
        """The special tokens the tokenizer puts before and after a source (or target) text."""
        key = "text_target" if target else "text"
        bare = list(self.tokenizer(**{key: "a"}, add_special_tokens=False)["input_ids"])
        full = list(self.tokenizer(**{key: "a"}, add_special_tokens=True)["input_ids"])
        at = next((i for i in range(len(full) - len(bare) + 1) if full[i : i + len(bare)] == bare), None)
        eos = self.tokenizer.eos_token_id
        if at is None:
            return [], [eos] if eos is not None else []
        after = full[at + len(bare) :]
        return full[:at], after if after or eos is None else [eos]

    @functools.cached_property
    def _frames(self) -> tuple[list[int], list[int], list[int]]:
        (pre, post), (target_pre, _) = self._frame(), self._frame(target=True)
        return pre, post, target_pre

    def infill_ids(self, left: Sequence[int], right: Sequence[int] = ()) -> tuple[list[int], list[int]]:
        """(source ids, decoder prefix) for a gap between token ids ``left`` and ``right``."""
        gap = self.gap_id
        pre, post, target_pre = self._frames
        source = pre + list(left) + [gap] + list(right) + post
        decoder = [self.decoder_start_id, gap] if self.infill == "sentinel" else [self.decoder_start_id] + target_pre + list(left)
        return source, decoder

    def _tokens(self, text: str) -> list[int]:
        return ScoringModel.encode(self, text).ids if text else []

    @functools.cached_property
    def words(self):
        """The word tables, with T5's sentinels ending a word (the next sentinel closes a span)."""
        import dataclasses

        vocab = ScoringModel.words.fget(self)
        ends = vocab.ends.copy()
        ends[[i for i in self.sentinel_ids if i < len(ends)]] = True
        return dataclasses.replace(vocab, ends=ends)

    def _queries(self, contexts, right_contexts=None):
        rights = right_contexts or [""] * len(contexts)
        return [self.infill_ids(self._tokens(c.rstrip()), self._tokens(r or "")) for c, r in zip(contexts, rights)]

    def _position_inputs(self, batch):
        src, src_mask = self.pad([b[0] for b in batch])
        dec, dec_mask = self.pad([b[1] for b in batch])
        last = self.to_device(torch.tensor([len(b[1]) - 1 for b in batch]))
        return batch, {"src": src, "src_mask": src_mask, "dec": dec, "dec_mask": dec_mask, "last": last}

    def _position_logprobs(self, prepared) -> torch.Tensor:
        """Log-softmax of the decoder's last position for each ``(source, decoder prefix)``: [batch, vocab]."""
        batch, t = prepared
        with self.head_at(torch.arange(len(batch), device=self.device), t["last"]) as pick:  # the head at the last position only
            logits = self.model(input_ids=t["src"], attention_mask=t["src_mask"], decoder_input_ids=t["dec"], decoder_attention_mask=t["dec_mask"]).logits
        return torch.log_softmax(pick(logits).float(), -1)

    def _word_steps(self, lines):
        return _Seq2SeqLineSteps(self, lines)

    # --- hidden states --------------------------------------------------------------------------
    @property
    def num_layers(self) -> int:
        """Layers of the encoder (or of the decoder with ``states="decoder"``)."""
        return config_layers(self.model.config, "seq2seq", self.states)

    def _all_hidden_states(self, ids, mask):
        """Encoder states; or decoder states teacher-forced on the source itself (``[start] + ids``), aligned with ``ids``."""
        if self.states == "encoder":
            return self.model.get_encoder()(input_ids=ids, attention_mask=mask, output_hidden_states=True).hidden_states
        start = torch.full((ids.shape[0], 1), self.decoder_start_id, dtype=ids.dtype, device=ids.device)
        out = self.model(input_ids=ids, attention_mask=mask, decoder_input_ids=torch.cat([start, ids], 1),
                         decoder_attention_mask=torch.cat([torch.ones_like(start), mask], 1), output_hidden_states=True)
        return tuple(h[:, 1:] for h in out.decoder_hidden_states)

    # --- conditional scores and translation -----------------------------------------------------
    def conditional_logprobs(self, sources: Sequence[str], targets: Sequence[str], reduce: str = "mean") -> list[float]:
        """log p(target | source) per pair: the sum over target tokens including EOS, or (``mean``) that sum
        divided by the number of target tokens, as fairseq's length-normalized score. Each distinct source
        is encoded once; its targets are decoded against that encoding in the same batch, as one prefix tree
        where the model takes it (``trees``: the words before a minimal pair's edit are decoded once)."""
        if reduce not in REDUCTIONS:
            raise ValueError(f"reduce must be one of {', '.join(REDUCTIONS)}")
        if len(sources) != len(targets):
            raise ValueError("sources and targets must be aligned")
        groups: dict[str, list[int]] = {}
        for n, src in enumerate(sources):
            groups.setdefault(src, []).append(n)
        items = [(self.encode(src).ids, [self.target_ids(targets[n]) for n in idx]) for src, idx in groups.items()]
        if any(not src for src, _ in items):  # nothing for the decoder to attend to
            raise ModelError(f"a source encodes to no tokens with {self.info.name} (an empty source and no EOS): give each pair a source")
        if self.trees:
            scores = self._score_rows(items)
        else:
            scores = self.batched(items, [len(s) + sum(map(len, t)) for s, t in items], self._score_batch, "conditional log-probs", self._plain_batch)
        out = [0.0] * len(sources)
        for idx, token_lps in zip(groups.values(), scores):
            for n, lps in zip(idx, token_lps):
                out[n] = sum(lps) / len(lps) if reduce == "mean" else sum(lps)
        return out

    def _plain_batch(self, batch):
        """The host's part of ``_score_batch``: padded sources and decoder rows, where the targets are read."""
        ids, mask = self.pad([src for src, _ in batch])
        rows = self.to_device(torch.tensor([k for k, (_, tgts) in enumerate(batch) for _ in tgts]))
        flat = [t for _, tgts in batch for t in tgts]
        dec_ids, dec_mask = self.pad([[self.decoder_start_id] + t[:-1] for t in flat])
        at_row = self.to_device(torch.tensor([i for i, t in enumerate(flat) for _ in t]))
        at_col = self.to_device(torch.tensor([j for t in flat for j in range(len(t))]))
        targets = self.to_device(torch.tensor([x for t in flat for x in t]))
        return batch, flat, ids, mask, rows, dec_ids, dec_mask, at_row, at_col, targets

    def _score_batch(self, prepared):
        """(source ids, [target ids]) groups (a ``_plain_batch``): each source encoded once, one target per padded decoder row."""
        batch, flat, ids, mask, rows, dec_ids, dec_mask, at_row, at_col, targets = prepared
        encoded = self.model.get_encoder()(input_ids=ids, attention_mask=mask).last_hidden_state

        def forward():
            return self.model(encoder_outputs=(encoded[rows],), attention_mask=mask[rows], decoder_input_ids=dec_ids,
                              decoder_attention_mask=dec_mask, use_cache=False).logits

        # the head at real target positions only, not at padding
        values = self.head_logprobs(at_row, at_col, forward, targets).cpu().tolist()
        return split_by(split_by(values, map(len, flat)), (len(tgts) for _, tgts in batch))

    @staticmethod
    @contextlib.contextmanager
    def _positions(module, positions: torch.Tensor):
        """While inside, the position embedding ``module`` reads ``positions`` [batch, length], not 0, 1, 2, ...
        (a packed row restarts them for each source, a tree row's are depths): the module itself is asked, one
        row at a time, since Marian's and BART's read 1D positions."""
        def first_row(module, args, kwargs):
            return args, {**kwargs, "position_ids": positions[0]}

        def every_row(module, args, kwargs, output):
            rows = [output] + [module.forward(*args, **{**kwargs, "position_ids": row}) for row in positions[1:]]
            return torch.stack([r.reshape(r.shape[-2:]) for r in rows])

        handles = [module.register_forward_pre_hook(first_row, with_kwargs=True), module.register_forward_hook(every_row, with_kwargs=True)]
        try:
            yield
        finally:
            for handle in handles:
                handle.remove()

    def _trie(self, targets: Sequence[Sequence[int]]) -> Trie:
        """The prefix tree of a source's decoder inputs (start + target but its last token)."""
        return build_trie([[self.decoder_start_id] + list(t[:-1]) for t in targets])

    def _layout(self, sizes: Sequence[tuple[int, int]], width: int) -> tuple[list[list[int]], tuple[int, int]]:
        """Items of (source tokens, tree nodes) filled into rows of about ``width`` tokens, shared between source and
        decoder side as the items share them (a longer item widens every row to its own): first fit over the last
        8 rows, longest first. Returns the rows (item indices) and the (source, decoder) width."""
        src, dec = sum(s for s, _ in sizes), sum(d for _, d in sizes)
        widths = (max(max(s for s, _ in sizes), round(width * src / (src + dec))), max(max(d for _, d in sizes), round(width * dec / (src + dec))))
        rows: list[list[int]] = []
        room: list[list[int]] = []
        for i in sorted(range(len(sizes)), key=lambda i: -sum(sizes[i])):
            s, d = sizes[i]
            fit = next((r for r in range(max(len(rows) - 8, 0), len(rows)) if room[r][0] >= s and room[r][1] >= d), None)
            if fit is None:
                rows.append([])
                room.append(list(widths))
                fit = len(rows) - 1
            rows[fit].append(i)
            room[fit][0] -= s
            room[fit][1] -= d
        return rows, widths

    def _score_rows(self, items):
        """(source ids, [target ids]) items, several to a row (``_layout`` at ``sizer.pack_width``): what fits in one
        batch gets rows as narrow as that many rows allow. Per item, its targets' token log-probs."""
        if not items:
            return []
        self.check_length(max(max(len(src), *map(len, tgts)) for src, tgts in items))  # positions restart for each source and target
        sizes = [(len(src), len(self._trie(tgts).tokens)) for src, tgts in items]
        rows, widths = self._layout(sizes, self.sizer.pack_width)
        if 1 < len(rows) <= self.sizer.size:
            rows, widths = self._layout(sizes, narrowest_width(lambda width: len(self._layout(sizes, width)[0]), 1, self.sizer.pack_width, len(rows)))
        out: list = [None] * len(items)
        batches = [[items[i] for i in row] for row in rows]
        for row, per_row in zip(rows, self.batched(batches, [sum(widths)] * len(rows), self._score_packed, "conditional log-probs", self._packed_batch)):
            for i, per_item in zip(row, per_row):
                out[i] = per_item
        return out

    def _packed_batch(self, batch):
        """The host's part of ``_score_packed``: rows of (source ids, [target ids]) items. A row holds its sources
        side by side, each attending to itself with positions from 0, and its items' decoder prefix trees side by side (``forest``: a prefix the targets
        of one source share is decoded once; positions are depths, a token sees its ancestors); each decoder token
        attends to its own source only. The head runs once per tree node, however many targets read it."""
        enc_width = max(sum(len(src) for src, _ in row) for row in batch)
        ids = torch.full((len(batch), enc_width), self.pad_id, dtype=torch.long)
        enc_pos = torch.zeros((len(batch), enc_width), dtype=torch.long)
        enc_seg = torch.full((len(batch), enc_width), -1, dtype=torch.long)
        tries, dec_seg = [], []
        for r, row in enumerate(batch):
            at = 0
            for g, (src, _) in enumerate(row):
                ids[r, at : at + len(src)], enc_pos[r, at : at + len(src)] = torch.tensor(src), torch.arange(len(src))
                enc_seg[r, at : at + len(src)] = g
                at += len(src)
            parts = [self._trie(tgts) for _, tgts in row]
            tries.append(forest(parts))
            dec_seg.append([g for g, part in enumerate(parts) for _ in part.tokens])
        dec, dec_pos, dec_mask = self.tree_inputs(tries)
        seg = torch.full(dec.shape, -2, dtype=torch.long)  # filler: no source
        for r, row_seg in enumerate(dec_seg):
            seg[r, : len(row_seg)] = torch.tensor(row_seg, dtype=torch.long)
        enc_mask = (enc_seg[:, :, None] == enc_seg[:, None, :]) | torch.eye(enc_width, dtype=torch.bool)  # filler sees itself
        cross = seg[:, :, None] == enc_seg[:, None, :]
        cross[:, :, 0] |= seg < 0  # decoder filler sees the first source token, so that no row of its softmax is empty
        targets = [[t for _, tgts in row for t in tgts] for row in batch]  # in the order of the forest's paths
        reads = [[(r, path[j], token) for j, token in enumerate(target)]
                 for r, (row, trie) in enumerate(zip(targets, tries)) for target, path in zip(row, trie.paths)]
        return batch, self.to_device(ids), self.to_device(enc_pos), self.mask_form(enc_mask), self.mask_form(cross), (dec, dec_pos, dec_mask), self.tree_reads(reads)

    def _score_packed(self, prepared):
        """Rows of (source ids, [target ids]) items, as ``_packed_batch`` lays them out."""
        batch, ids, enc_pos, enc_mask, cross, (dec, dec_pos, dec_mask), reads = prepared
        with self._positions(self.model.get_encoder().embed_positions, enc_pos):
            encoded = self.model.get_encoder()(input_ids=ids, attention_mask=enc_mask).last_hidden_state

        def forward():
            with self._positions(self.model.get_decoder().embed_positions, dec_pos):
                return self.model(encoder_outputs=(encoded,), attention_mask=cross, decoder_input_ids=dec,
                                  decoder_attention_mask=dec_mask, use_cache=False).logits

        per_target = iter(self.tree_logprobs(reads, forward).read())
        return [[[next(per_target) for _ in tgts] for _, tgts in row] for row in batch]

    @functools.cached_property
    def trees(self) -> bool:
        """Whether this model scores packed rows of prefix trees (``_score_packed``) as it scores one target per
        padded row: checked once on a short minimal pair and a second source sharing its row, beside a row of one.
        Models whose encoder or decoder has no ``embed_positions`` taking ``position_ids`` (T5's relative
        positions) or that ignore a 4D mask decode one row per target."""
        if any(getattr(part, "embed_positions", None) is None for part in (self.model.get_encoder(), self.model.get_decoder())):
            return False
        probe = [(self.encode(src).ids, [self.target_ids(t) for t in tgts]) for src, tgts in TREE_PROBE]
        try:
            with self.probing(), torch.inference_mode():
                packed, rows = self._score_packed(self._packed_batch([probe, probe[1:]])), self._score_batch(self._plain_batch(probe + probe[1:]))
                return self.scores_agree([x for row in packed for item in row for x in item], [y for item in rows for y in item])
        except (TypeError, ValueError, RuntimeError):
            return False

    def translate(self, sources: Sequence[str], beam: int = 5, max_new_tokens: int = 256) -> list[str]:
        """Beam-search translations (deterministic; the checkpoint's own sampling or penalties are not used).
        ``max_new_tokens`` only bounds a runaway (a translation ends at EOS), so it is capped at what the decoder's
        positions allow after its start token rather than refused."""
        from transformers import GenerationConfig

        if self.max_length is not None:
            max_new_tokens = max(1, min(max_new_tokens, self.max_length - 1))
        config = GenerationConfig(
            max_new_tokens=max_new_tokens, num_beams=beam, do_sample=False, length_penalty=1.0, repetition_penalty=1.0,
            no_repeat_ngram_size=0, early_stopping=True, min_new_tokens=1, eos_token_id=self.tokenizer.eos_token_id, pad_token_id=self.pad_id,
            decoder_start_token_id=self.decoder_start_id,
        )
        encoded = [self.encode(s).ids for s in sources]
        self.check_generation(1, max_new_tokens)  # the decoder: its start token, then the new tokens

        def run(batch):
            ids, mask = self.pad(batch)
            out = self.model.generate(input_ids=ids, attention_mask=mask, generation_config=config)
            return [self.tokenizer.decode(row, skip_special_tokens=True, clean_up_tokenization_spaces=True).strip() for row in out.tolist()]

        return self.batched(encoded, [len(e) for e in encoded], run, f"translate (beam {beam})")

    # --- generation -----------------------------------------------------------------------------
    def generate(self, prompts: Sequence[str], strategy: str = "ancestral", max_new_tokens: int = 256,
                 top_p: float = 0.95, beams: int = 5, seed: int | Sequence[int] = 0, stop_at_newline: bool = False):
        """Decoder samples, as ``CausalLM.generate`` (same strategies, per-sample seeds and ``stop_at_newline``); each
        prompt is a source.

        An empty prompt generates unconditionally: the source is the gap alone (``<extra_id_0>`` or ``<mask>``),
        the decoder starts as in infilling, and a sentinel or EOS ends the text.
        """
        check_strategy(strategy)
        if any(not p for p in prompts) and self.infill is None:
            raise ModelError(f"{self.info.name} has no {SENTINEL} sentinel or mask token, so it cannot generate without a source: "
                             "give prompts as sources (tendencies: --option prompts=FILE)")
        stops = self.stop_ids(stop_at_newline) | (self.sentinel_ids if self.infill == "sentinel" else set())
        config = generation_config(strategy, max_new_tokens, top_p, beams, stops, pad_token_id=self.pad_id,
                                   decoder_start_token_id=self.decoder_start_id, forced_bos_token_id=None, forced_eos_token_id=None)
        target_pre = self._frames[2]
        items = [self.infill_ids([]) if not p else (self.encode(p).ids, [self.decoder_start_id] + target_pre) for p in prompts]
        self.check_generation(max((len(d) for _, d in items), default=1), max_new_tokens)  # the decoder's prefix and new tokens
        seeds = sample_seeds(seed, len(items))
        rows = beams if strategy in ("beam", "beam_search") else 1

        def prepare(batch):
            return self.pad([items[n][0] for n in batch]), self.to_device(torch.tensor([items[n][1] for n in batch])), [seeds[n] for n in batch]

        def run(prepared):
            (ids, mask), dec, batch_seeds = prepared
            with seeded_rows(self.device, batch_seeds):
                out = self.model.generate(input_ids=ids, attention_mask=mask, decoder_input_ids=dec, generation_config=config)
            return [finish_generation(self.tokenizer, row, stops) for row in out[:, dec.shape[1] :].tolist()]

        out: list = [None] * len(items)
        for prefix in dict.fromkeys(tuple(d) for _, d in items):  # one decoder prefix per batch
            idx = [n for n, (_, d) in enumerate(items) if tuple(d) == prefix]
            lengths = [self.sizer.generation_length(len(items[n][0]), max_new_tokens, rows) for n in idx]
            for n, g in zip(idx, self.batched(idx, lengths, run, f"generate ({strategy})", prepare)):
                out[n] = g
        return out


class _Seq2SeqLineSteps(LineSteps):
    """Whole-word steps for a seq2seq model: the source is each word's left context with the gap after it.

    Each (line, word) context is encoded once and its decoder teacher-forced on the prefix and the
    word's own tokens in one batched pass, with the keys/values kept; a path off the word's tokens
    continues from the cached decoder prefix (and the cached cross-attention), so only the path's own
    tokens go through the decoder again.
    """

    def __init__(self, model: Seq2SeqLM, lines):
        super().__init__(model, lines)
        model.gap_id  # noqa: B018 - fails early for a model that cannot infill
        self.table: dict = {}  # (line, word) -> steps after each prefix of the word's own tokens
        self.where: dict = {}  # (line, word) -> (chunk, row, decoder prefix length)
        self.chunks: list = []  # per chunk: encoder states, source mask, self- and cross-attention keys/values

    def positions(self, line: int, word: int, path: int) -> int:
        source, prefix = self.model.infill_ids(self.ids[line][: self.starts[line][word]])
        return max(len(source), len(prefix) + path)  # positions restart in the decoder

    def _teacher_force(self, contexts):
        m = self.model
        prepared = {key: (*m.infill_ids(self.ids[key[0]][: self.starts[key[0]][key[1]]]), self.actual(*key)) for key in contexts}
        # Chunks of equal decoder-prefix length (mask style: the left context), so that a chunk's off-word paths
        # continue from its cache in one call; within that, the sizer's batches (row cap, token budget, OOM back-off).
        by_prefix: dict[int, list] = {}
        for key in contexts:
            by_prefix.setdefault(len(prepared[key][1]), []).append(key)
        for group in by_prefix.values():
            m.sizer.run(group, [sum(map(len, prepared[k])) for k in group], lambda keys: self._force_chunk(keys, prepared))

    def _force_chunk(self, keys, prepared) -> list[None]:
        """One batched encoder + teacher-forced decoder pass over ``keys``; keeps its caches as a chunk."""
        from ..wholeword import summarize_steps

        m = self.model
        part = [prepared[k] for k in keys]
        src, src_mask = m.pad([p[0] for p in part])
        enc = m.model.get_encoder()(input_ids=src, attention_mask=src_mask).last_hidden_state
        dec, dec_mask = m.pad([p[1] + p[2] for p in part])
        rows = [(r, len(d) - 1 + j) for r, (_, d, own) in enumerate(part) for j in range(len(own) + 1)]
        at = torch.tensor(rows, device=m.device)
        with m.head_at(at[:, 0], at[:, 1]) as pick:  # the head only where a step is read
            out = m.model(encoder_outputs=(enc,), attention_mask=src_mask, decoder_input_ids=dec, decoder_attention_mask=dec_mask, use_cache=True)
        cache = cache_out(out)
        logprobs = torch.log_softmax(pick(out.logits).float(), -1)
        steps = iter(summarize_steps(logprobs, self.vocab_tensors, [t for _, _, own in part for t in own + [-1]]))
        self.chunks.append((enc, src_mask, [(l.keys, l.values) for l in cache.self_attention_cache.layers],
                            [(l.keys, l.values) for l in cache.cross_attention_cache.layers]))
        for r, (key, (_, d, own)) in enumerate(zip(keys, part)):
            self.table[key] = [next(steps) for _ in range(len(own) + 1)]
            self.where[key] = (len(self.chunks) - 1, r, len(d))
        return [None] * len(keys)

    def steps(self, requests):
        new = list(dict.fromkeys((line, word) for line, word, _ in requests if (line, word) not in self.table))
        if new:
            self._teacher_force(new)
        out = [None] * len(requests)
        groups: dict = {}
        for n, (line, word, path) in enumerate(requests):
            if list(path) == self.actual(line, word)[: len(path)]:
                out[n] = self.table[line, word][len(path)]
            else:  # equal prefix lengths: no padding inside the cached prefix
                groups.setdefault(self.where[line, word][2], []).append(n)
        for ns in groups.values():  # by cached chunk and row, so that a call gathers few chunks
            ns.sort(key=lambda n: self.where[requests[n][0], requests[n][1]][:2])
        self.continue_groups(requests, out, groups, self._continue)
        return out

    def _gather(self, prefix: int, requests):
        """The cached rows of ``requests`` (sorted by chunk), across chunks: encoder states, source mask, caches."""
        import torch.nn.functional as F

        rows: dict[int, list[int]] = {}
        for line, word, _ in requests:
            chunk, row, _ = self.where[line, word]
            rows.setdefault(chunk, []).append(row)
        width = max(self.chunks[c][1].shape[1] for c in rows)
        parts = []
        for c, idx in rows.items():
            enc, src_mask, kv, cross = self.chunks[c]
            at = torch.tensor(idx, device=enc.device)
            pad = width - src_mask.shape[1]  # sources of another chunk are longer: pad the cross-attention side, masked
            parts.append((F.pad(enc[at], (0, 0, 0, pad)), F.pad(src_mask[at], (0, pad)),
                          [(k[at, :, :prefix], v[at, :, :prefix]) for k, v in kv],
                          [(F.pad(k[at], (0, 0, 0, pad)), F.pad(v[at], (0, 0, 0, pad))) for k, v in cross]))
        cat = lambda layers: [tuple(torch.cat(t) for t in zip(*per_layer)) for per_layer in zip(*layers)]  # noqa: E731
        return (torch.cat([p[0] for p in parts]), torch.cat([p[1] for p in parts]), cat([p[2] for p in parts]), cat([p[3] for p in parts]))

    def _continue(self, prefix: int, requests):
        """Steps after decoder prefix + path for paths off the word's tokens, from the cached keys/values."""
        from transformers import DynamicCache, EncoderDecoderCache

        from ..wholeword import summarize_steps

        m = self.model
        enc, src_mask, kv, cross = self._gather(prefix, requests)
        cache = EncoderDecoderCache(DynamicCache(ddp_cache_data=kv), DynamicCache(ddp_cache_data=cross))
        paths = [list(p) for _, _, p in requests]
        ids, path_mask = m.pad(paths)
        dec_mask = torch.cat([torch.ones((len(paths), prefix), dtype=path_mask.dtype, device=path_mask.device), path_mask], 1)
        last = torch.tensor([len(p) - 1 for p in paths], device=m.device)
        with m.head_at(torch.arange(len(paths), device=m.device), last) as pick:  # the head at each path's end only
            logits = m.model(encoder_outputs=(enc,), attention_mask=src_mask, decoder_input_ids=ids, decoder_attention_mask=dec_mask,
                             use_cache=True, **with_cache(m.model, cache)).logits
        return summarize_steps(torch.log_softmax(pick(logits).float(), -1), self.vocab_tensors)

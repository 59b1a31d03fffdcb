"""Causal (decoder-only) language models."""

from __future__ import annotations

import contextlib
import functools
from dataclasses import dataclass
from typing import Sequence

import torch

from wordbench.hashing import seeded_key

from .base import Encoded, LineSteps, ScoringModel, TokenScores, cache_out, narrowest_width, split_by, token_logprobs, with_cache
from .batching import Deferred
from .decode import ROWS_CPU, TOKENS_CPU, Budget, Decoder, Request, Stats
from .trie import build_trie, common_prefix

STRATEGIES = ("ancestral", "nucleus", "beam", "greedy")  # the sampling strategies of Meister & Cotterell
SEARCHES = ("greedy", "beam_search")  # deterministic decoding (translation)
PACK_PROBE = ("The cat sat on the mat.", "Colourless green ideas sleep furiously.")


def fill_rows(heads: Sequence[Sequence[int]], sizes: Sequence[int], width: int, reach: int = 8) -> list[list[int]]:
    """Indices of parts (a context and its continuations' tree, ``sizes[i]`` tokens) filled into rows of ``width``
    tokens in the order of their contexts, so that contexts starting alike share a row and their common start
    goes in once: a part costs its size less the start its context shares with the row's last part, and goes
    into the first of the last ``reach`` rows it fits (first fit), else a new row."""
    rows: list[list[int]] = []
    room: list[int] = []
    for i in sorted(range(len(sizes)), key=lambda i: list(heads[i])):
        for r in range(max(len(rows) - reach, 0), len(rows)):
            cost = sizes[i] - common_prefix(heads[rows[r][-1]], heads[i])
            if cost <= room[r]:
                rows[r].append(i)
                room[r] -= cost
                break
        else:
            rows.append([i])
            room.append(width - sizes[i])
    return rows


def _fed(tail: Sequence[int]) -> int:
    """Tokens of a continuation that go into a packed row: all but its last, which is only predicted."""
    return max(len(tail) - 1, 0)


@dataclass(frozen=True)
class Generation:
    text: str  # the continuation, special tokens removed
    tokens: int  # model tokens generated (EOS included)
    finished: bool  # ended with EOS; False = cut at max_new_tokens


def check_strategy(strategy: str) -> None:
    if strategy not in STRATEGIES + SEARCHES:
        raise ValueError(f"strategy must be one of {', '.join(STRATEGIES + SEARCHES[1:])}, not {strategy!r}")


def sample_seeds(seed: int | Sequence[int], n: int) -> list[int]:
    """One seed per sample: ``seed`` as given per prompt, or an int from which sample i's is derived (i, not its batch)."""
    if isinstance(seed, int):
        return [int(seeded_key(seed, f"sample-{i}")[:8], 16) for i in range(n)]
    if len(seed) != n:
        raise ValueError(f"{len(seed)} seeds for {n} prompts: give one seed per prompt, or one int")
    return [int(s) for s in seed]


@contextlib.contextmanager
def seeded_rows(device: torch.device, seeds: Sequence[int]):
    """While inside, each draw ``generate`` makes for a batch of ``len(seeds)`` rows (a token per sample, or a
    beam sample's candidates) comes from that row's own generator: a sample depends on its seed, not on the
    batch it is in. transformers draws with ``torch.multinomial`` over the whole batch; it is swapped for one
    draw per row for the call (other draws keep the original)."""
    generators = [torch.Generator(device=device).manual_seed(s) for s in seeds]
    original = torch.multinomial

    def per_row(probs, num_samples, replacement=False, **kwargs):
        if probs.dim() != 2 or len(probs) != len(generators) or kwargs.get("generator") is not None:
            return original(probs, num_samples, replacement, **kwargs)
        return torch.cat([original(probs[i : i + 1], num_samples, replacement, generator=g) for i, g in enumerate(generators)])

    torch.multinomial = per_row
    try:
        yield
    finally:
        torch.multinomial = original


def generation_config(strategy: str, max_new_tokens: int, top_p: float, beams: int, stops: set[int], **special):
    """The decoding settings of ``strategy``; every knob is explicit, since unset fields would be filled from the
    checkpoint's generation_config (its top-k, temperature, repetition penalty are not used). A beam search
    (translation) decodes as fairseq's does (the decoding of Vamvas & Sennrich, and of ``Seq2SeqLM.translate``):
    a prompt ends once ``beams`` hypotheses have finished, and none ends before its first token."""
    from transformers import GenerationConfig

    sampling = strategy not in SEARCHES
    return GenerationConfig(
        max_new_tokens=max_new_tokens, do_sample=sampling, num_beams=beams if strategy in ("beam", "beam_search") else 1,
        # min_new_tokens takes min_length's place (transformers warns where both are set)
        **({"early_stopping": True, "min_new_tokens": 1} if strategy == "beam_search" else {"early_stopping": False, "min_length": 0}),
        **({"top_k": 0, "top_p": top_p if strategy == "nucleus" else 1.0, "temperature": 1.0, "typical_p": 1.0,
            "epsilon_cutoff": 0.0, "eta_cutoff": 0.0} if sampling else {}),
        repetition_penalty=1.0, no_repeat_ngram_size=0, length_penalty=1.0, eos_token_id=sorted(stops) or None, **special,
    )


def finish_generation(tokenizer, row: list[int], stops: set[int]) -> Generation:
    """The text of generated tokens ``row`` up to and including its first stop token; a stop token holding a newline
    (``stop_at_newline``) ends the text where its newline begins."""
    end = next((i + 1 for i, t in enumerate(row) if t in stops), len(row))
    text = tokenizer.decode(row[:end], skip_special_tokens=True, clean_up_tokenization_spaces=False)
    if end and row[end - 1] in stops:
        text = text.split("\n", 1)[0]
    return Generation(text, end, end < len(row) or (bool(row) and row[-1] in stops))


class CausalLM(ScoringModel):
    family = "causal"

    @property
    def bos_id(self) -> int | None:
        """Prepended to every text so that the first word is scored (EOS where there is no BOS)."""
        tok = self.tokenizer
        return tok.bos_token_id if tok.bos_token_id is not None else tok.eos_token_id

    def encode(self, text: str, bos: bool = True) -> Encoded:
        return self._with_bos(super().encode(text), self.bos_id) if bos else super().encode(text)

    @staticmethod
    def _with_bos(enc: Encoded, bos: int | None) -> Encoded:
        """``enc`` starting with ``bos`` (the caller reads ``bos_id`` once for many texts: it asks the tokenizer,
        a fifth of the host's time on short candidates when read per text)."""
        if bos is not None and (not enc.ids or enc.ids[0] != bos):
            return Encoded([bos] + enc.ids, [(0, 0)] + enc.offsets, [True] + enc.special)
        return enc

    def _context_ids(self, context: str) -> list[int]:
        # A trailing space belongs to the next word's first token (" dog"), so it is not part of the context.
        return self.encode(context.rstrip()).ids

    def _queries(self, contexts, right_contexts=None):
        return [(ids, len(ids) - 1) for ids in map(self._context_ids, contexts)]

    @staticmethod
    def split_pair(item: str | tuple[str, str]) -> tuple[str, str]:
        """(context, continuation) with the context's trailing whitespace moved to the continuation:
        ("A smile ", "flitted") is scored as ("A smile", " flitted"), since the space belongs to the next
        word's first token (lm-eval-harness does the same). A text is ("", text)."""
        context, cont = item if isinstance(item, tuple) else ("", item)
        stripped = context.rstrip()
        return stripped, context[len(stripped) :] + cont

    def sequence_logprobs(self, items: Sequence[str | tuple[str, str]]) -> list[TokenScores]:
        """Token log-probabilities of texts, or of the continuation of (context, continuation) pairs.

        A pair is encoded as context tokens followed by continuation tokens, so the boundary is a
        token boundary; whitespace ending a context moves to the continuation (``split_pair``); offsets
        index into ``context + continuation``. The LM head runs only at the positions scored. Where
        several continuations share a context, the context goes through the model once. Texts are packed
        side by side into rows (``_score_rows``: no padding between them, each masked off from the others);
        a model that cannot take such rows (``packs``) gets padded rows, continuations going on from their
        context's cached keys and values.
        """
        pairs = [self.split_pair(item) for item in items]
        heads = self.plain_encodings([context for context, _ in pairs])
        tails = self.plain_encodings([cont for _, cont in pairs])
        bos = self.bos_id
        prepared = [(self._with_bos(head, bos).ids, tail.ids, [(s + len(context), e + len(context)) for s, e in tail.offsets])
                    for (context, _), head, tail in zip(pairs, heads, tails)]
        if any(not head for head, _, _ in prepared):
            raise ValueError("this tokenizer has no BOS or EOS token: the first token of a text cannot be scored")

        groups: dict[tuple[int, ...], list[int]] = {}
        for n, (head, _, _) in enumerate(prepared):
            groups.setdefault(tuple(head), []).append(n)
        scores: list = [None] * len(prepared)
        if self.packs:
            self._score_rows(prepared, groups, scores)
        else:
            self._score_padded(prepared, groups, scores)
        return [TokenScores(self.tokenizer.convert_ids_to_tokens(p[1]), p[2], s) for p, s in zip(prepared, scores)]

    def _gather_at(self, targets: Sequence[Sequence[int]], first: Sequence[int]) -> tuple:
        """The host's part of ``_gathered_logprobs``: row ``r``'s targets are predicted at its positions ``first[r]``,
        ``first[r] + 1``, ...: (target lengths, rows, cols, targets) with the tensors on the device."""
        rows = torch.tensor([r for r, t in enumerate(targets) for _ in t], dtype=torch.long)
        cols = torch.tensor([first[r] + j for r, t in enumerate(targets) for j in range(len(t))], dtype=torch.long)
        flat = torch.tensor([x for t in targets for x in t], dtype=torch.long)
        return [len(t) for t in targets], self.to_device(rows), self.to_device(cols), self.to_device(flat)

    def _gathered_logprobs(self, at: tuple, **inputs) -> Deferred:
        """One forward pass of ``inputs``, the head only at the positions of ``at`` (``_gather_at``): per row, the
        log-probs of its targets, read later."""
        lengths, rows, cols, targets = at
        values = self.head_logprobs(rows, cols, lambda: self.model(**inputs).logits, targets)
        return Deferred(lambda: split_by(values.cpu().tolist(), lengths))

    def _whole_batch(self, batch):
        """The host's part of ``_score_whole``: padded rows and where their continuations are read."""
        ids, mask = self.pad([h + t for h, t in batch])
        return self._gather_at([t for _, t in batch], [len(h) - 1 for h, _ in batch]), ids, mask

    def _score_whole(self, prepared) -> Deferred:
        """(context ids, continuation ids) pairs, each as one sequence (a ``_whole_batch``)."""
        at, ids, mask = prepared
        return self._gathered_logprobs(at, input_ids=ids, attention_mask=mask)

    def _score_padded(self, prepared, groups, scores) -> None:
        """One text per padded row; a context shared by several continuations runs once, with its cache kept."""
        # a context of BOS alone saves nothing; a group runs at most a batch of continuations at once
        step = self.sizer.size
        shared = [idx[i : i + step] for head, idx in groups.items() if len(idx) > 1 and len(head) > 1 for i in range(0, len(idx), step)]
        alone = [n for head, idx in groups.items() if not (len(idx) > 1 and len(head) > 1) for n in idx]
        single = [(prepared[n][0], prepared[n][1]) for n in alone]
        for n, s in zip(alone, self.batched(single, [len(h) + len(t) for h, t in single], self._score_whole, "sequence log-probs", self._whole_batch)):
            scores[n] = s
        if shared:
            grouped = [(prepared[idx[0]][0], [prepared[n][1] for n in idx]) for idx in shared]
            costs = [len(ts) * (len(h) + max(map(len, ts))) for h, ts in grouped]
            for idx, per in zip(shared, self.batched(grouped, costs, self._score_shared, "sequence log-probs (shared contexts)", self._shared_batch)):
                for n, s in zip(idx, per):
                    scores[n] = s

    @staticmethod
    def _tree_runs(prepared, groups) -> list[tuple[list[int], list[tuple[int, int, int]]]]:
        """Per group its context and its continuations in prefix-tree order, each as (item index, tokens it feeds,
        tokens it adds after the one before it): what ``_layout`` needs at any width, worked out once."""
        runs = []
        for head, idx in groups.items():
            run, prev = [], []
            for n in sorted(idx, key=lambda n: prepared[n][1][: _fed(prepared[n][1])]):  # as the tree lays them out
                fed = prepared[n][1][: _fed(prepared[n][1])]
                run.append((n, len(fed), len(fed) - common_prefix(prev, fed)))
                prev = fed
            runs.append((list(head), run))
        return runs

    @staticmethod
    def _layout(runs, width: int):
        """(parts, rows, row width): groups (``_tree_runs``) split into parts small enough for ``width`` tokens (a
        context and the prefix tree of some of its continuations; a longer one gets a row of its own), filled into
        rows in the order of their contexts (``fill_rows``: a start they share goes in once per row)."""
        parts, sizes = [], []  # (context ids, [item index, ...]), and its tokens in the row
        for head, run in runs:
            part, size = [], len(head)
            for n, fed, new in run:
                if part and size + new > width:
                    parts.append((head, part))
                    sizes.append(size)
                    part, size, new = [], len(head), fed
                part.append(n)
                size += new
            parts.append((head, part))
            sizes.append(size)
        row_width = max([width] + sizes)  # every row is padded to the longest: fill them all up to it
        return parts, fill_rows([head for head, _ in parts], sizes, row_width), row_width

    def _score_rows(self, prepared, groups, scores) -> None:
        """Groups (a context and its continuations, each but its last token, as a prefix tree) packed into rows
        of ``sizer.pack_width`` tokens (``_layout``); what fits in one batch gets rows as narrow as that many
        rows allow, so that no row is left half empty. One pass per batch of rows, no cache."""
        self.check_length(max((len(head) + len(tail) for head, tail, _ in prepared), default=0))
        runs = self._tree_runs(prepared, groups)
        parts, rows, row_width = self._layout(runs, self.sizer.pack_width)
        if 1 < len(rows) <= self.sizer.size:
            low = max((len(head) + _fed(tail) for head, tail, _ in prepared), default=1)
            row_width = narrowest_width(lambda width: len(self._layout(runs, width)[1]), low, row_width, len(rows))
            parts, rows, row_width = self._layout(runs, row_width)
        batches = [[(parts[g][0], [prepared[n][1] for n in parts[g][1]]) for g in row] for row in rows]
        for row, per_row in zip(rows, self.batched(batches, [row_width] * len(rows), self._score_tree, "sequence log-probs", self._tree_batch)):
            for g, per_group in zip(row, per_row):
                for n, s in zip(parts[g][1], per_group):
                    scores[n] = s

    def _tree_batch(self, batch):
        """The host's part of ``_score_tree``: the rows' prefix trees, their ancestor masks, where they are read."""
        texts = [[(h, t) for h, ts in row for t in ts] for row in batch]
        tries = [build_trie([list(h) + list(t[: _fed(t)]) for h, t in row]) for row in texts]
        reads = [[(r, path[len(head) - 1 + k], target) for k, target in enumerate(tail)]
                 for r, (row, trie) in enumerate(zip(texts, tries)) for (head, tail), path in zip(row, trie.paths)]
        sizes = ([len(ts) for row in batch for _, ts in row], [len(row) for row in batch])
        return self.tree_inputs(tries), self.tree_reads(reads), sizes

    def _score_tree(self, prepared) -> Deferred:
        """Rows of groups (context ids, [continuation ids]), as ``_tree_batch`` lays them out. A row is the prefix
        tree of its texts (a context, then one of its continuations without its last token), so whatever its texts
        share goes in once: a context and its continuations' common start, a prompt that several contexts begin with
        (``tree_inputs``: positions are depths, a token sees its ancestors). The head runs once per token read
        (a context's last token and the continuations' tokens), however many continuations read it."""
        (ids, positions, mask), reads, (per_group, per_row) = prepared
        per_tail = self.tree_logprobs(reads, lambda: self.model(input_ids=ids, attention_mask=mask, position_ids=positions, use_cache=False).logits)
        return Deferred(lambda: split_by(split_by(per_tail.read(), per_group), per_row))

    @functools.cached_property
    def packs(self) -> bool:
        """Whether this model scores packed rows (``_score_tree``) as it scores one text per padded row:
        checked once on short texts, two of them sharing a context and a prefix of their continuations. Models that ignore a 4D mask or
        restarting positions (remote code, older architectures, other attention kernels) get padded rows."""
        texts = [("", PACK_PROBE[0]), ("The cat", " sat on the mat."), ("The cat", " sat on the rug."), ("", PACK_PROBE[1])]
        probe = [(self.encode(c.rstrip()).ids, self.encode(c[len(c.rstrip()):] + t, bos=False).ids) for c, t in texts]
        try:
            with self.probing(), torch.inference_mode():
                batch = [[(probe[0][0], [probe[0][1]]), (probe[1][0], [probe[1][1], probe[2][1]]), (probe[3][0], [probe[3][1]])]]
                rows = self._score_tree(self._tree_batch(batch)).read()[0]
                packed = [rows[0][0], *rows[1], rows[2][0]]
                alone = [self._score_whole(self._whole_batch([p])).read()[0] for p in probe]
                return self.scores_agree(packed, alone)  # inside: at float32's tolerance
        except (TypeError, ValueError, RuntimeError):
            return False

    def _shared_batch(self, batch):
        """The host's part of ``_score_shared``: the padded contexts, and the continuations of two tokens or more
        padded to go on from their context's cache."""
        ids, mask = self.pad([h for h, _ in batch])
        conts = [(g, t) for g, (_, ts) in enumerate(batch) for t in ts]
        longer = [n for n, (_, t) in enumerate(conts) if len(t) > 1]
        rest = None
        if longer:
            owner = self.to_device(torch.tensor([conts[n][0] for n in longer]))
            cont_ids, cont_mask = self.pad([conts[n][1][:-1] for n in longer])
            start = torch.tensor([len(batch[conts[n][0]][0]) for n in longer])
            positions = self.to_device(start[:, None] + torch.arange(cont_ids.shape[1])[None, :])
            rest = owner, cont_ids, cont_mask, positions, self._gather_at([conts[n][1][1:] for n in longer], [0] * len(longer))
        return batch, conts, longer, ids, mask, rest

    def _score_shared(self, prepared):
        """(context ids, [continuation ids]) groups (a ``_shared_batch``): the context runs once with the cache
        kept, the head at its last position only (every continuation's first token); continuations of two tokens
        or more go on from the cache, fed all but their last token."""
        from transformers import DynamicCache

        batch, conts, longer, ids, mask, rest = prepared
        device = self.device
        groups = torch.arange(len(batch), device=device)
        with self.head_at(groups, torch.tensor([len(h) - 1 for h, _ in batch], device=device)) as pick:
            out = self.model(input_ids=ids, attention_mask=mask, use_cache=True)
            first_logits = pick(out.logits)
        values: list[list[float]] = [[] for _ in conts]
        scored = [n for n, (_, t) in enumerate(conts) if t]
        if scored:
            rows = torch.tensor([conts[n][0] for n in scored], device=device)
            first = token_logprobs(first_logits[rows], torch.tensor([conts[n][1][0] for n in scored], device=device)).cpu().tolist()
            for n, v in zip(scored, first):
                values[n] = [v]
        if rest is not None:
            owner, cont_ids, cont_mask, positions, at = rest
            kv = [(layer.keys, layer.values) for layer in cache_out(out).layers]
            more = self._gathered_logprobs(
                at, input_ids=cont_ids, use_cache=True, **with_cache(self.model, DynamicCache(ddp_cache_data=[(k[owner], v[owner]) for k, v in kv])),
                attention_mask=torch.cat([mask[owner], cont_mask], 1), position_ids=positions,
            ).read()
            for n, r in zip(longer, more):
                values[n] += r
        return split_by(values, (len(ts) for _, ts in batch))

    def _word_steps(self, lines):
        return _CausalLineSteps(self, lines)

    def generate(self, prompts: Sequence[str], strategy: str = "ancestral", max_new_tokens: int = 256,
                 top_p: float = 0.95, beams: int = 5, seed: int | Sequence[int] = 0, stop_at_newline: bool = False) -> list[Generation]:
        """Continue each prompt ("" = unconditional, from BOS) until EOS or ``max_new_tokens``.

        Strategies: ``ancestral`` (sampling from the full distribution), ``nucleus`` (top-p),
        ``beam`` (beam sampling: candidates sampled, the most probable kept on a beam of ``beams``),
        ``greedy``, ``beam_search`` (deterministic beam search of width ``beams``). Sampling is seeded per sample
        (``seed``: one per prompt, or an int they are derived from; ``sample_seeds``), so a sample does not depend on
        the batch it is generated in. The prompts are decoded with continuous batching (``decode.Decoder``: one decode
        batch sized from a memory budget, a finished prompt's rows refilled at once), with the outputs of ``generate``
        on one prompt at a time; a model whose cache the decoder cannot manage (``continuous``) decodes on fixed
        batches through ``generate``.
        The model's own generation defaults (top-k, temperature, repetition penalty) are not used.
        ``stop_at_newline`` ends a continuation at its first token holding a newline (prompted translation).
        """
        check_strategy(strategy)
        if self.bos_id is None and any(not p for p in prompts):
            raise ValueError(f"{self.info.name} has no BOS or EOS token to start from: give prompts")
        stops = self.stop_ids(stop_at_newline)
        items = list(zip([self.encode(p.rstrip()).ids for p in prompts], sample_seeds(seed, len(prompts))))
        self.check_generation(max((len(ids) for ids, _ in items), default=0), max_new_tokens)
        if self.continuous:
            return self._decode(items, Request(strategy, max_new_tokens, top_p, beams, stops), f"generate ({strategy})")
        return self._generate_batched(items, strategy, max_new_tokens, top_p, beams, stops)

    def _decode(self, items, request, desc: str) -> list[Generation]:
        """``items`` (prompt ids, seed) through the continuous-batching decoder (``decode.Decoder``)."""
        from tqdm.auto import tqdm

        if not items:
            return []
        decoder = Decoder(self.model, self.device, self.pad_id, self._decode_budget(request.rows))
        with torch.inference_mode(), tqdm(total=len(items), desc=desc, disable=not self.progress, leave=False):
            rows = decoder.run([ids for ids, _ in items], [s for _, s in items], request)
        self.decoding.add(decoder.stats)
        return [finish_generation(self.tokenizer, row, request.stops) for row in rows]

    def _decode_budget(self, rows: int) -> Budget | None:
        """An explicit batch size is that many prompts (of ``rows`` rows each) at once; ``auto`` is the device's budget
        (None on a GPU: measured from its free memory)."""
        if not self.sizer.auto:
            return Budget(self.sizer.size * rows)
        return None if self.device.type == "cuda" else Budget(ROWS_CPU, TOKENS_CPU)

    @functools.cached_property
    def decoding(self) -> Stats:
        """What this model's generations cost in decode steps (``decode.Stats``), summed over calls."""
        return Stats()

    @functools.cached_property
    def continuous(self) -> bool:
        """Whether this model decodes with continuous batching: its cache is a plain dynamic one and greedy decoding
        of two prompts together, at different lengths, equals ``generate`` on each alone (checked once)."""
        probe = [(self.encode(text).ids, 0) for text in PACK_PROBE]
        request = Request("greedy", 4, 1.0, 1, self.stop_ids())
        try:
            with self.probing(), torch.inference_mode():
                ours = [row for row in Decoder(self.model, self.device, self.pad_id, Budget(2)).run([p for p, _ in probe], [0, 0], request)]
                theirs = [self._generate_batched([item], "greedy", 4, 1.0, 1, request.stops)[0] for item in probe]
        except (TypeError, ValueError, RuntimeError, AttributeError):
            return False
        return [finish_generation(self.tokenizer, row, request.stops) for row in ours] == theirs

    def _generate_batched(self, items, strategy, max_new_tokens, top_p, beams, stops) -> list[Generation]:
        """``transformers``' ``generate`` over fixed batches (models the continuous decoder does not take)."""
        special = dict(pad_token_id=self.pad_id, bos_token_id=self.bos_id)
        rows = beams if strategy in ("beam", "beam_search") else 1
        return self.batched(items, [self.sizer.generation_length(len(ids), max_new_tokens, rows) for ids, _ in items],
                            lambda prepared: self._generate_batch(prepared, strategy, max_new_tokens, top_p, beams, stops, special),
                            f"generate ({strategy})", lambda batch: (self.pad([ids for ids, _ in batch], left=True), [s for _, s in batch]))

    def _generate_batch(self, prepared, strategy, max_new_tokens, top_p, beams, stops, special) -> list[Generation]:
        (ids, mask), seeds = prepared
        # A dynamic cache: with a static one transformers compiles the model on CUDA, again for each batch shape, and
        # batches here differ in rows and lengths.
        config = generation_config(strategy, max_new_tokens, top_p, beams, stops, **special)
        with seeded_rows(self.device, seeds):
            out = self.model.generate(input_ids=ids, attention_mask=mask, generation_config=config)
        return [finish_generation(self.tokenizer, row, stops) for row in out[:, ids.shape[1] :].tolist()]


class _CausalLineSteps(LineSteps):
    """Whole-word steps over a batch of lines: one teacher-forced pass with the KV cache kept.

    A prefix that follows the line's own tokens is read from that pass; any other prefix (a greedy
    or searched path off the line) continues from the cached keys and values of the line's context,
    so only the path's own tokens go through the model again.
    """

    def __init__(self, model: CausalLM, lines):
        from ..wholeword import summarize_steps

        if model.bos_id is None:
            raise ValueError("this tokenizer has no BOS or EOS token: the first word has no context to predict from")
        super().__init__(model, lines, [model.bos_id])
        ids, mask = model.pad(self.ids)
        out = model.model(input_ids=ids, attention_mask=mask, use_cache=True)
        self.kv = [(layer.keys, layer.values) for layer in cache_out(out).layers]
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
        self.continue_groups(requests, out, {None: off_line}, lambda _, reqs: self._continue(reqs))
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
        last = torch.tensor([len(p) - 1 for p in paths], device=device)
        with self.model.head_at(torch.arange(len(paths), device=device), last) as pick:
            logits = pick(self.model.model(
                input_ids=ids, attention_mask=torch.cat([context_mask, path_mask], 1), position_ids=positions, use_cache=True,
                **with_cache(self.model.model, cache)
            ).logits)
        logprobs = torch.log_softmax(logits.float(), -1)
        return summarize_steps(logprobs, self.vocab_tensors)

"""Continuous batching for causal generation: the prompts of a call share one decode batch, sized from a memory
budget; a finished prompt's rows are replaced by waiting prompts at once, so few rows idle and the number of
sequential forward passes (decode steps) is about the tokens generated per row, not per batch.

The outputs equal ``transformers``' ``generate`` on one prompt at a time: the same selection (top-k, sampling
without replacement, the top-p warper), the same beam bookkeeping (the finished hypotheses' length penalty, early
stopping) and one seeded generator per prompt, whose draws do not depend on the rows beside it.

``Scheduler`` is the layout alone (which prompts decode together, from their lengths), shared by ``Decoder`` and by
``plan``, which counts the decode steps of a layout from known lengths without a model (the cost of a device one
does not have, from its memory).
"""

from __future__ import annotations

import bisect
import inspect
from collections import deque
from dataclasses import dataclass, field
from typing import Sequence

import torch

from .base import cache_out, with_cache

NEG = -1.0e9  # transformers' "impossible" score in beam search
ROWS_CUDA = 8192  # rows decoded together at most on a GPU (their logits of a 128k vocabulary: 6 GB)
ROWS_CPU = 80  # on a CPU: 16 prompts of 5 beams, as the fixed batches before (a step costs about its rows there)
TOKENS_CPU = 64 * 1024  # cache tokens (rows x width) on a CPU
CUDA_SHARE = 0.8  # of the device memory free after the first prefill, what the cache and the logits may take
LOGIT_BYTES = 6  # per row and vocabulary entry: a step's logits in the model's dtype and in fp32
SELECT_ROWS = 1024  # a step selects the next tokens of this many rows at a time (more if one prompt has more beams)
SELECT_BYTES = 32  # per selecting row and vocabulary entry: log-probs, beam scores or the top-p sort (values, int64 indices, softmax, cumsum)
HEADROOM = 32  # width growth a prompt is admitted with (a longer row evicts the newest prompts, which restart)
REFILL = 4  # waiting prompts join once 1/REFILL of the rows is free (each join costs one prefill pass)
SEEN = 8  # outputs a call has finished before their lengths, not HEADROOM, set the growth a joining prompt reserves
QUANTILE = 0.9  # of those lengths: a prompt reserves room to reach it (one that outgrows it evicts the newest prompts)


@dataclass
class Budget:
    """How much decodes at once: ``rows`` at most, and ``tokens`` of cache (rows x the widest row) at most."""

    rows: int
    tokens: int | None = None
    select: int = SELECT_ROWS  # rows whose next tokens a step selects at a time

    @classmethod
    def for_memory(cls, free_bytes: float, cache_bytes_per_token: float, vocab: int, row_cap: int = ROWS_CUDA) -> "Budget":
        """The budget of a device with ``free_bytes`` left after the weights: one chunk of selection (``SELECT_BYTES``
        per row and vocabulary entry, a quarter of the memory at most) and each row's logits (``LOGIT_BYTES``) come off
        the top, the rest holds the cache; what is left of the free memory (1 - ``CUDA_SHARE``) is for a step's and a
        prefill's activations."""
        usable = free_bytes * CUDA_SHARE
        select = max(1, min(SELECT_ROWS, int(usable / 4 / (vocab * SELECT_BYTES))))
        usable -= select * vocab * SELECT_BYTES
        rows = max(1, min(row_cap, int(usable / 2 / (vocab * LOGIT_BYTES))))
        return cls(rows, max(1, int((usable - rows * vocab * LOGIT_BYTES) / cache_bytes_per_token)), select)


@dataclass
class Stats:
    """What a decode cost: forward passes that wait on the previous one, and how many rows they carried."""

    decode_steps: int = 0
    prefill_passes: int = 0
    row_steps: int = 0  # rows summed over decode steps
    restarts: int = 0  # prompts evicted for memory and decoded again

    @property
    def sequential_passes(self) -> int:
        return self.decode_steps + self.prefill_passes

    @property
    def rows_per_step(self) -> float:
        return self.row_steps / self.decode_steps if self.decode_steps else 0.0

    def add(self, other: "Stats") -> None:
        for key in ("decode_steps", "prefill_passes", "row_steps", "restarts"):
            setattr(self, key, getattr(self, key) + getattr(other, key))

    def as_dict(self) -> dict:
        return {"sequential_passes": self.sequential_passes, "decode_steps": self.decode_steps, "prefill_passes": self.prefill_passes,
                "row_steps": self.row_steps, "rows_per_step": round(self.rows_per_step, 2), "restarts": self.restarts}


class Scheduler:
    """Which prompts decode now. Each prompt takes ``rows`` rows (its beams); all rows share the cache's width, the
    longest live row (prompt plus generated tokens). Prompts join longest first while rows and ``rows x (width +
    HEADROOM)`` fit the budget; when a row grows past the budget, the newest prompts leave and wait again."""

    def __init__(self, prompt_lengths: Sequence[int], rows: int, budget: Budget, max_new: int | None = None):
        self.prompt, self.rows, self.budget = list(prompt_lengths), rows, budget
        self.waiting = deque(sorted(range(len(self.prompt)), key=lambda i: (-self.prompt[i], i)))
        self.active: list[int] = []
        self.generated: dict[int, int] = {}
        self.most = max_new or HEADROOM
        self.headroom = min(HEADROOM, self.most)  # doubles after each eviction: growth the budget keeps for a joining prompt
        self.seen: list[int] = []  # the output lengths of the prompts finished so far, sorted
        self.quantile = QUANTILE  # rises to the longest seen after an eviction

    def width(self, sources: Sequence[int] | None = None) -> int:
        sources = self.active if sources is None else sources
        return max((self.prompt[i] + self.generated.get(i, 0) for i in sources), default=0)

    def _expected(self) -> int | None:
        """The output length a prompt is expected to reach: the ``quantile`` of the lengths seen in this call."""
        if len(self.seen) < SEEN:
            return None
        return self.seen[min(len(self.seen) - 1, int(self.quantile * len(self.seen)))]

    def _reach(self, sources: Sequence[int]) -> int:
        """The width ``sources`` are expected to reach: each grows to the expected output length (past it, by one
        more step), or by ``headroom`` while no length is known."""
        expected = self._expected()
        if expected is None:
            return self.width(sources) + self.headroom
        return max((self.prompt[i] + max(self.generated.get(i, 0) + 1, expected) for i in sources), default=0)

    def _fits(self, rows: int, width: int) -> bool:
        return rows <= self.budget.rows and (self.budget.tokens is None or rows * width <= self.budget.tokens)

    def _refill_due(self, reach: int) -> bool:
        """Prompts join once a 1/REFILL share of the rows and of the cache is free (each join is a prefill pass), or
        when every waiting prompt fits."""
        rows = len(self.active) * self.rows
        # waiting[0] is the longest waiting prompt: they wait longest first, and an evicted one joined before the rest
        if not self.active or self._fits(rows + len(self.waiting) * self.rows, max(reach, self._reach([self.waiting[0]] if self.waiting else []))):
            return True
        if self.budget.rows - rows < max(self.rows, self.budget.rows // REFILL):
            return False
        return self.budget.tokens is None or self.budget.tokens - rows * reach >= self.budget.tokens // REFILL

    def admit(self) -> list[int]:
        """The waiting prompts that join now, longest first, while the rows and the width all are expected to reach
        fit the budget (the first always joins an empty batch)."""
        reach = self._reach(self.active)
        if not self._refill_due(reach):
            return []
        new: list[int] = []
        rows = len(self.active) * self.rows
        while self.waiting:
            i = self.waiting[0]
            wider = max(reach, self._reach([i]))
            if (self.active or new) and not self._fits(rows + self.rows, wider):
                break
            new.append(self.waiting.popleft())
            self.generated[i] = 0
            rows, reach = rows + self.rows, wider
        self.active += new
        return new

    def step(self) -> None:
        for i in self.active:
            self.generated[i] += 1

    def finish(self, done: Sequence[int]) -> None:
        gone = set(done)
        for i in gone:
            bisect.insort(self.seen, self.generated[i])
        self.active = [i for i in self.active if i not in gone]

    def evict(self) -> list[int]:
        """The newest prompts, put back first in line, until the next step's width fits the budget."""
        out = []
        while len(self.active) > 1 and not self._fits(len(self.active) * self.rows, self.width() + 1):
            i = self.active.pop()
            self.generated[i] = 0
            self.waiting.appendleft(i)
            out.append(i)
        if out:
            self.headroom = min(2 * self.headroom, self.most)
            self.quantile = 1.0
        return out


def plan(prompt_lengths: Sequence[int], output_lengths: Sequence[int], rows: int, budget: Budget, max_new: int | None = None) -> Stats:
    """The decode steps of ``Scheduler``'s layout when prompt i generates ``output_lengths[i]`` tokens (the step
    at which it ends: its last beam finished, or its sample stopped), under ``max_new`` tokens at most."""
    sched, stats = Scheduler(prompt_lengths, rows, budget, max_new), Stats()
    pending: set[int] = set()  # prefilled, their first token not yet chosen
    while sched.waiting or sched.active:
        new = sched.admit()
        if new:
            stats.prefill_passes += 1
            pending.update(new)
        sched.step()
        sched.finish([i for i in sched.active if sched.generated[i] >= max(1, output_lengths[i])])
        pending.clear()
        if not sched.active:
            continue
        evicted = sched.evict()
        stats.restarts += len(evicted)
        stats.decode_steps += 1
        stats.row_steps += len(sched.active) * rows
    return stats


def batch_plan(prompt_lengths: Sequence[int], output_lengths: Sequence[int], rows: int, batches: Sequence[Sequence[int]]) -> Stats:
    """The decode steps of fixed batches (``generate`` on each): a batch runs until its longest output ends."""
    stats = Stats()
    for batch in batches:
        steps = max(max(1, output_lengths[i]) for i in batch)
        stats.prefill_passes += 1
        stats.decode_steps += steps - 1
        stats.row_steps += (steps - 1) * len(batch) * rows
    return stats


@dataclass
class _Beams:
    """Beam-search state of the live prompts, [prompts, beams, ...] as transformers keeps it."""

    run_seq: torch.Tensor
    run_score: torch.Tensor
    fin_seq: torch.Tensor
    fin_score: torch.Tensor
    fin_len: torch.Tensor
    fin_flag: torch.Tensor
    improvable: torch.Tensor

    def take(self, keep: torch.Tensor) -> "_Beams":
        return _Beams(*(getattr(self, f)[keep] for f in self.__dataclass_fields__))

    def cat(self, other: "_Beams") -> "_Beams":
        return _Beams(*(torch.cat([getattr(self, f), getattr(other, f)]) for f in self.__dataclass_fields__))


@dataclass
class Request:
    """One call's decoding: ``strategy`` as ``CausalLM.generate`` names it."""

    strategy: str
    max_new_tokens: int
    top_p: float
    beams: int
    stops: set[int]
    ends: Sequence[int] | None = None  # per prompt, the step it ends at whatever it generates (a forced end: stops ignored)
    sampling: bool = field(init=False)
    rows: int = field(init=False)
    no_first_stop: bool = field(init=False)

    def __post_init__(self):
        if self.beams < 1 or self.max_new_tokens < 1 or not 0 < self.top_p <= 1:
            raise ValueError(f"beams and max_new_tokens must be >= 1 and top_p in (0, 1]; got beams={self.beams}, "
                             f"max_new_tokens={self.max_new_tokens}, top_p={self.top_p}")
        self.no_first_stop = self.strategy == "beam_search"  # min_new_tokens=1: no stop as the first token
        if self.strategy in ("beam", "beam_search") and self.beams == 1:  # transformers samples, or searches greedily
            self.strategy = "ancestral" if self.strategy == "beam" else "greedy"
        self.sampling = self.strategy not in ("greedy", "beam_search")
        self.rows = self.beams if self.strategy in ("beam", "beam_search") else 1


def _no_first_stop(scores: torch.Tensor, first: torch.Tensor, stops: torch.Tensor) -> torch.Tensor:
    """``scores`` with the stops impossible in the rows choosing their first token (``first``): min_new_tokens=1."""
    scores[first.nonzero()[:, 0][:, None], stops[None, :]] = -float("inf")
    return scores


class Decoder:
    """Decodes prompts (token ids) of a causal model with continuous batching; ``run`` returns each prompt's
    generated ids, through its first stop token."""

    def __init__(self, model, device: torch.device, pad_id: int, budget: Budget | None = None, row_cap: int = ROWS_CUDA):
        """``budget``: None on a GPU measures it from the free memory, with at most ``row_cap`` rows."""
        self.model, self.device, self.pad_id, self.budget, self.row_cap = model, device, pad_id, budget, row_cap
        params = inspect.signature(model.forward).parameters
        self.keep_last = "logits_to_keep" in params
        self.stats = Stats()
        self.ends: list[int] = []  # per prompt of the last ``run``: the step at which it ended (``plan``'s output length)
        self.oom_retries = 0  # calls begun again at half the budget after CUDA ran out of memory (``stats``: the last attempt)

    # --- the cache: rows x layers of [heads, width, dim], left-padded -----------------------------
    def _forward(self, ids, mask, positions, cache):
        kw = {"logits_to_keep": 1} if self.keep_last else {}
        out = self.model(input_ids=ids, attention_mask=mask, position_ids=positions, use_cache=True, **with_cache(self.model, cache), **kw)
        return out.logits[:, -1].float(), cache_out(out)

    @staticmethod
    def _layers(cache):
        from transformers.cache_utils import DynamicLayer

        layers = getattr(cache, "layers", None)
        if layers is None or any(type(layer) is not DynamicLayer for layer in layers):
            raise TypeError("continuous batching needs a plain dynamic KV cache")
        return layers

    def _select_rows(self, rows: torch.Tensor) -> None:
        for layer in self._layers(self.cache):
            layer.keys, layer.values = layer.keys[rows], layer.values[rows]
        self.mask, self.positions, self.last = self.mask[rows], self.positions[rows], self.last[rows]

    def _trim(self) -> None:
        """Drop the leading columns no row uses any more."""
        used = self.mask.any(0).nonzero()
        first = int(used[0]) if len(used) else self.mask.shape[1]
        if first:
            for layer in self._layers(self.cache):
                layer.keys, layer.values = layer.keys[:, :, first:], layer.values[:, :, first:]
            self.mask = self.mask[:, first:]

    def _join(self, cache, mask, positions, last) -> None:
        """Rows of a new prefill after the live rows, both left-padded to the wider."""
        import torch.nn.functional as F

        if self.cache is None:
            self.cache, self.mask, self.positions, self.last = cache, mask, positions, last
            return
        width = max(self.mask.shape[1], mask.shape[1])
        grow = lambda t, dim: F.pad(t, (0, 0, width - t.shape[dim], 0)) if t.dim() == 4 else F.pad(t, (width - t.shape[1], 0))  # noqa: E731
        for old, new in zip(self._layers(self.cache), self._layers(cache)):
            old.keys = torch.cat([grow(old.keys, 2), grow(new.keys, 2)])
            old.values = torch.cat([grow(old.values, 2), grow(new.values, 2)])
        self.mask = torch.cat([grow(self.mask, 1), grow(mask, 1)])
        self.positions, self.last = torch.cat([self.positions, positions]), torch.cat([self.last, last])

    def _prefill(self, prompts: list[list[int]], rows: int):
        """One forward over the new prompts (left-padded); each prompt's rows share its prefill."""
        from transformers import DynamicCache

        width = max(len(p) for p in prompts)
        ids = torch.full((len(prompts), width), self.pad_id, dtype=torch.long)
        mask = torch.zeros((len(prompts), width), dtype=torch.long)
        for r, p in enumerate(prompts):
            ids[r, width - len(p):], mask[r, width - len(p):] = torch.tensor(p, dtype=torch.long), 1
        ids, mask = ids.to(self.device), mask.to(self.device)
        positions = (mask.cumsum(-1) - 1).masked_fill(mask == 0, 1)
        logits, cache = self._forward(ids, mask, positions, DynamicCache())
        self.stats.prefill_passes += 1
        if rows > 1:
            for layer in self._layers(cache):
                layer.keys, layer.values = layer.keys.repeat_interleave(rows, 0), layer.values.repeat_interleave(rows, 0)
            mask, logits = mask.repeat_interleave(rows, 0), logits.repeat_interleave(rows, 0)
        return logits, cache, mask, mask.sum(-1)

    # --- decoding -------------------------------------------------------------------------------
    def run(self, prompts: Sequence[Sequence[int]], seeds: Sequence[int], request: Request) -> list[list[int]]:
        budget = self.budget or Budget(ROWS_CPU, TOKENS_CPU)
        if self.device.type == "cuda" and self.budget is None:
            budget = self._cuda_budget(prompts, request)
        while True:
            try:
                return self._run(prompts, seeds, request, budget)
            except torch.cuda.OutOfMemoryError:
                if budget.rows <= request.rows:
                    raise
            # outside the handler, so that the failed attempt's tensors are no longer held by its traceback
            self.cache = self.mask = self.positions = self.last = None
            self.oom_retries += 1
            budget = Budget(max(request.rows, budget.rows // 2), None if budget.tokens is None else budget.tokens // 2, budget.select)
            self.budget = budget
            torch.cuda.empty_cache()

    def _cuda_budget(self, prompts, request: Request) -> Budget:
        """From the memory free once a short prefill has shown the cache's bytes per token."""
        first = [list(prompts[0]) or [self.pad_id]]
        logits, cache, mask, _ = self._prefill(first, 1)
        per_token = sum(layer.keys.numel() * layer.keys.element_size() + layer.values.numel() * layer.values.element_size()
                        for layer in self._layers(cache)) / mask.numel()
        del logits, cache
        self.stats.prefill_passes -= 1  # a probe, not part of the decode
        torch.cuda.synchronize(self.device)
        free, _ = torch.cuda.mem_get_info(self.device)
        free += torch.cuda.memory_reserved(self.device) - torch.cuda.memory_allocated(self.device)  # held by torch's allocator, unused
        self.budget = Budget.for_memory(free, per_token, self.model.config.get_text_config().vocab_size, self.row_cap)
        return self.budget

    def _run(self, prompts, seeds, request: Request, budget: Budget) -> list[list[int]]:
        from transformers import TopPLogitsWarper

        rows, limit = request.rows, request.max_new_tokens
        sched = Scheduler([len(p) for p in prompts], rows, budget, limit)
        stops = torch.tensor(sorted(request.stops) if request.ends is None else [], dtype=torch.long, device=self.device)
        ends = torch.tensor(request.ends if request.ends is not None else [limit] * len(prompts), device=self.device)
        if request.ends is not None and max(request.ends, default=1) > limit:
            raise ValueError("a forced end past max_new_tokens")
        top_p = TopPLogitsWarper(request.top_p) if request.strategy == "nucleus" else None
        beam = request.strategy in ("beam", "beam_search")
        keep = max(2, 1 + len(stops)) * rows
        out: list = [None] * len(prompts)
        self.ends, self.stats = [0] * len(prompts), Stats()
        tokens: dict[int, list[int]] = {}
        generators: dict[int, torch.Generator] = {}
        self.cache = self.mask = self.positions = self.last = None
        beams: _Beams | None = None
        logits = None
        while sched.waiting or sched.active:
            new = sched.admit()
            if new:
                for i in new:
                    generators[i] = torch.Generator(device=self.device).manual_seed(int(seeds[i]))
                    tokens[i] = []
                new_logits, cache, mask, positions = self._prefill([list(prompts[i]) or [self.pad_id] for i in new], rows)
                self._join(cache, mask, positions, torch.zeros(len(new) * rows, dtype=torch.long, device=self.device))
                logits = new_logits if logits is None else torch.cat([logits, new_logits])
                if beam:
                    fresh = self._fresh_beams(len(new), rows, limit)
                    beams = fresh if beams is None else beams.cat(fresh)
            live = list(sched.active)
            generated = torch.tensor([sched.generated[i] for i in live], device=self.device)
            last_step = generated + 1 >= ends[torch.tensor(live, device=self.device)]
            if beam:
                beams, reorder, next_tokens, done = self._select(
                    len(live), rows, budget.select, lambda sel, n: self._beam_step(logits[n], beams.take(sel), live[sel], generated[sel], last_step[sel], generators, request, stops, keep))
            else:
                next_tokens, done = self._select(
                    len(live), rows, budget.select, lambda sel, n: self._sample_step(logits[n], live[sel], generated[sel], last_step[sel], generators, request, stops, top_p))
                reorder = None
            logits = None  # freed before the next forward makes its own
            sched.step()
            done_ids = [i for i, d in zip(live, done) if d]
            for i in done_ids:
                self.ends[i] = sched.generated[i]
            if not beam:
                for i, t in zip(live, next_tokens.tolist()):
                    tokens[i].append(t)
                for i in done_ids:
                    out[i] = tokens.pop(i)
            else:
                for k, (i, d) in enumerate(zip(live, done)):
                    if d:
                        length = int(beams.fin_len[k, 0])
                        out[i] = beams.fin_seq[k, 0, :length].tolist()
            keep_rows = reorder if reorder is not None else torch.arange(len(live) * rows, device=self.device)
            alive = torch.tensor([not d for d in done], device=self.device)
            sched.finish(done_ids)
            evicted = sched.evict()
            if evicted:
                self.stats.restarts += len(evicted)
                gone = set(evicted)
                alive &= torch.tensor([i not in gone for i in live], device=self.device)
                for i in evicted:
                    tokens.pop(i, None)
            row_alive = alive.repeat_interleave(rows)
            self._select_rows(keep_rows[row_alive])
            self.last = next_tokens[row_alive] if not beam else next_tokens.reshape(-1)[row_alive]
            if beam:
                beams = beams.take(alive)
            if len(done_ids) or evicted:
                self._trim()
            if not sched.active:
                self.cache = self.mask = self.positions = self.last = None
                beams, logits = None, None
                continue
            self.mask = torch.cat([self.mask, torch.ones_like(self.mask[:, :1])], 1)
            logits, self.cache = self._forward(self.last[:, None], self.mask, self.positions[:, None], self.cache)
            self.positions = self.positions + 1
            self.stats.decode_steps += 1
            self.stats.row_steps += len(self.last)
        return out

    @staticmethod
    def _select(prompts: int, rows: int, chunk: int, step):
        """``step(prompts, their rows)`` over chunks of about ``chunk`` rows (``Budget.select``), so that a step's selection holds
        the memory of one chunk; the chunks' outputs joined as one call's. Each prompt selects alone, so chunks do
        not change what it selects."""
        per = max(1, chunk // rows)
        parts = [step(slice(s, s + per), slice(s * rows, (s + per) * rows)) for s in range(0, prompts, per)]
        if len(parts) == 1:
            return parts[0]
        if len(parts[0]) == 2:  # sampling: tokens, done
            return torch.cat([p[0] for p in parts]), [d for p in parts for d in p[1]]
        fin = parts[0][0]
        for p in parts[1:]:
            fin = fin.cat(p[0])
        reorder = torch.cat([p[1] + k * per * rows for k, p in enumerate(parts)])
        return fin, reorder, torch.cat([p[2] for p in parts]), [d for p in parts for d in p[3]]

    def _sample_step(self, logits, live, generated, last_step, generators, request: Request, stops, top_p):
        """One token per row (a prompt has one row): the argmax, or a draw from the row's own generator."""
        if request.no_first_stop and bool((generated == 0).any()):
            logits = _no_first_stop(logits.clone(), generated == 0, stops)
        if not request.sampling:
            chosen = logits.argmax(-1)
        else:
            scores = top_p(None, logits) if top_p is not None else logits
            probs = torch.softmax(scores, -1)
            chosen = torch.cat([torch.multinomial(probs[k : k + 1], 1, generator=generators[i]) for k, i in enumerate(live)]).squeeze(1)
        done = torch.isin(chosen, stops) | last_step
        return chosen, done.tolist()

    def _fresh_beams(self, n: int, rows: int, limit: int) -> _Beams:
        run_score = torch.zeros((n, rows), device=self.device)
        run_score[:, 1:] = NEG
        seq = torch.full((n, rows, limit), self.pad_id, dtype=torch.long, device=self.device)
        return _Beams(seq, run_score, seq.clone(), torch.full((n, rows), NEG, device=self.device),
                      torch.zeros((n, rows), dtype=torch.long, device=self.device), torch.zeros((n, rows), dtype=torch.bool, device=self.device),
                      torch.ones((n, 1), dtype=torch.bool, device=self.device))

    def _beam_step(self, logits, b: _Beams, live, generated, last_step, generators, request: Request, stops, keep: int):
        """transformers' ``_beam_search`` step for every live prompt at once, each at its own length."""
        n, rows, limit = len(live), request.rows, request.max_new_tokens
        log_probs = torch.log_softmax(logits, -1)
        if request.no_first_stop:
            log_probs = _no_first_stop(log_probs, (generated == 0).repeat_interleave(rows), stops)
        vocab = log_probs.shape[-1]
        acc = (log_probs.view(n, rows, vocab) + b.run_score[:, :, None]).view(n, rows * vocab)
        if request.sampling:
            probs = torch.softmax(acc, -1)
            idx = torch.cat([torch.multinomial(probs[k : k + 1], keep, generator=generators[i]) for k, i in enumerate(live)])
            vals = acc.gather(1, idx)
            vals, order = vals.sort(-1, descending=True)
            idx = idx.gather(-1, order)
        else:
            vals, idx = torch.topk(acc, keep)
        src_beam, tok = idx // vocab, idx % vocab
        hits = torch.isin(tok, stops) | last_step[:, None]

        def extended(sel):  # the sequences of the candidates at ``sel`` [prompts, k], with their new token
            seq = b.run_seq.gather(1, src_beam.gather(1, sel)[:, :, None].expand(-1, -1, limit)).clone()
            seq.scatter_(2, generated[:, None, None].expand(-1, sel.shape[1], 1), tok.gather(1, sel)[:, :, None])
            return seq

        # e. the running beams for the next step: the best candidates that did not stop
        run_lp = vals + hits.float() * NEG
        nxt = torch.topk(run_lp, rows).indices
        run_seq, run_score, from_beam = extended(nxt), run_lp.gather(1, nxt), src_beam.gather(1, nxt)
        # f. the finished hypotheses: only the first ``rows`` candidates may finish (the rest are spares)
        first = torch.arange(rows, device=self.device)[None, :].expand(n, -1)
        just = hits[:, :rows]
        score = vals[:, :rows] / (generated + 1).float()[:, None]  # length_penalty=1.0
        full = b.fin_flag.all(-1, keepdim=True) & (request.strategy == "beam_search")
        score = score + full.float() * NEG + (~b.improvable).float() * NEG + (~just).float() * NEG
        m_seq, m_score = torch.cat([b.fin_seq, extended(first)], 1), torch.cat([b.fin_score, score], 1)
        m_len = torch.cat([b.fin_len, (generated + 1)[:, None].expand(-1, rows)], 1)
        m_flag = torch.cat([b.fin_flag, just], 1)
        best = torch.topk(m_score, rows).indices
        fin = _Beams(run_seq, run_score, m_seq.gather(1, best[:, :, None].expand(-1, -1, limit)), m_score.gather(1, best),
                     m_len.gather(1, best), m_flag.gather(1, best), b.improvable)
        # g. can a running beam still beat the worst finished one? (early_stopping=False: beam sampling)
        best_running = fin.run_score[:, :1] / (generated + 1).float()[:, None]
        worst = torch.where(fin.fin_flag, fin.fin_score.min(1, keepdim=True).values, torch.full_like(fin.fin_score, NEG))
        fin.improvable = b.improvable & (best_running > worst).any(-1, keepdim=True)
        stop = ~fin.improvable[:, 0] | last_step
        if request.strategy == "beam_search":
            stop |= fin.fin_flag.all(-1)
        offsets = torch.arange(n, device=self.device)[:, None] * rows
        reorder = (offsets + from_beam).reshape(-1)
        next_tokens = run_seq.gather(2, generated[:, None, None].expand(-1, rows, 1))[:, :, 0]
        return fin, reorder, next_tokens, stop.tolist()

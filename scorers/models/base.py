"""What every model family shares: encoding with offsets, padding, batching and hidden states."""

from __future__ import annotations

import contextlib
import functools
from dataclasses import dataclass, field
from itertools import islice
from typing import Callable, Iterable, Sequence

import numpy as np
import torch

from wordbench.errors import WordbenchError

from .. import wholeword
from ..wholeword import WordPrediction, WordVocabulary, word_vocabulary
from .batching import BatchSizer, Deferred, to_device
from .trie import Trie, ancestor_mask, subtree_ends


class ModelError(WordbenchError):
    """A model that cannot be found, loaded safely, or used by a scorer."""

POOLS = ("first", "last", "mean", "max")
LSE_CHUNK = {"cpu": 32, "cuda": 1024}  # logit rows per log-sum-exp: on CPU a float32 copy of 32 x vocab stays in cache (5x faster than 1024 rows)
# (rows, vocabulary entries) of the LM head computed at once when it is fused with the log-sum-exp: on CPU a 4096-entry
# slice of the head's weights stays in cache while every row reads it (perf/limit.py: sentences 89.2% -> 97.9% of the limit)
# CUDA: the whole vocabulary of any common model in one block, through one log-softmax kernel (perf/gpu_check.py on an
# H200, Llama-3.2-1B head, 8,192 positions: 4096 x 32768 blocks with a log-sum-exp each 17.9 ms, the full log-softmax 12.5 ms);
# 4,096 rows of a 128k vocabulary hold 3 GiB of logits at once
HEAD_BLOCK = {"cpu": (1024, 4096), "cuda": (4096, 262144)}


def text_config(config):
    """The config of the text model (a multimodal config holds it inside)."""
    return config.get_text_config() if hasattr(config, "get_text_config") else config


def config_positions(config) -> int | None:
    """Positions a model of ``config`` can take (None: no fixed limit in its config, e.g. relative positions)."""
    config = text_config(config)
    return getattr(config, "max_position_embeddings", None) or getattr(config, "n_positions", None)


def config_layers(config, family: str = "causal", states: str = "encoder") -> int:
    """Transformer layers of ``config``: hidden-state index 0 is the embeddings, this number the top; a seq2seq
    model's encoder's (or its decoder's, ``states="decoder"``)."""
    config = text_config(config)
    if family == "seq2seq":
        names = ("decoder_layers", "num_decoder_layers") if states == "decoder" else ("encoder_layers", "num_layers", "num_hidden_layers")
        return int(next(getattr(config, n) for n in names if getattr(config, n, None)))
    return int(getattr(config, "num_hidden_layers", None) or getattr(config, "n_layer"))


@functools.lru_cache(maxsize=64)
def _cache_keyword(forward) -> str:
    import inspect

    return "cache" if "cache" in inspect.signature(forward).parameters else "past_key_values"


def with_cache(model, cache) -> dict:
    """The keyword argument that hands a KV cache to ``model``'s forward: ``cache`` where the model takes it (transformers
    5 renamed ``past_key_values``, which it drops in 5.40), else ``past_key_values``."""
    forward = getattr(type(model), "forward", None) or model.forward
    return {_cache_keyword(forward): cache}


def cache_out(out):
    """The KV cache a forward returned, under either name (``cache_out(out).layers``: each layer's keys and values)."""
    return getattr(out, "cache", None) or getattr(out, "past_key_values", None)


def split_by(flat: Sequence, sizes: Iterable[int]) -> list[list]:
    """``flat`` cut into consecutive lists of the given sizes (per-token values back into their groups)."""
    items = iter(flat)
    return [list(islice(items, n)) for n in sizes]


def narrowest_width(rows_at: Callable[[int], int], low: int, high: int, rows: int) -> int:
    """The least row width in [low, high] at which a packing takes at most ``rows`` rows (``rows_at(width)``; a
    narrower width never takes fewer): binary search, so that what fits in one batch leaves no row half empty."""
    while low < high:
        mid = (low + high) // 2
        if rows_at(mid) <= rows:
            high = mid
        else:
            low = mid + 1
    return high


def token_logprobs(logits: torch.Tensor, targets: torch.Tensor, index: torch.Tensor | None = None) -> torch.Tensor:
    """log p(targets[i]) at row ``index[i]`` (default: row i) of logits [n, vocab]: the target's logit minus
    the row's log-sum-exp, in float32, a chunk of rows at a time (no full log-softmax is materialized). With
    ``index`` a row read for several targets (a branch of a prefix tree) is normalized once."""
    lse = torch.empty(len(logits), dtype=torch.float32, device=logits.device)
    chunk = LSE_CHUNK.get(logits.device.type, 1024)
    for i in range(0, len(logits), chunk):
        lse[i : i + chunk] = logits[i : i + chunk].float().logsumexp(-1)
    rows = torch.arange(len(targets), device=logits.device) if index is None else index
    return logits[rows, targets].float() - lse[rows]


@dataclass(frozen=True)
class ModelInfo:
    name: str  # what the user gave
    version: str  # hub revision / commit, or sha256-8 of the local weights
    family: str
    dtype: str
    extra: dict = field(default_factory=dict)
    options: str = ""  # the family's settings given at load (seq2seq: infill=..., states=...)

    @property
    def tag(self) -> str:
        """Signature fragment: ``model:NAME@VERSION|fam:FAMILY|dtype:DTYPE`` (``|opts:K=V,...`` with load options)."""
        return f"model:{self.name}@{self.version}|fam:{self.family}|dtype:{self.dtype}" + (f"|opts:{self.options}" if self.options else "")


@dataclass
class Encoded:
    ids: list[int]
    offsets: list[tuple[int, int]]  # character span of each token in the text; (0, 0) for special tokens
    special: list[bool]


@dataclass
class TokenScores:
    """Log-probabilities of the scored tokens of one text (or of one continuation)."""

    tokens: list[str]
    offsets: list[tuple[int, int]]
    logprobs: list[float]

    @property
    def total(self) -> float:
        return float(sum(self.logprobs))


class LineSteps:
    """What the families' ``WordSteps`` share: each line's word-aligned token ids after ``prefix``."""

    def __init__(self, model: "ScoringModel", lines: Sequence[Sequence[str]], prefix: Sequence[int] = ()):
        self.model = model
        vocab = model.words
        self.vocab_tensors = (torch.as_tensor(vocab.boundary, device=model.device), torch.as_tensor(vocab.ends, device=model.device))
        self.ids, self.starts = [], []  # starts[line][i]: first token of word i; one more entry = end of line
        for words in lines:
            ids, starts = model.word_tokens(words)
            self.ids.append(list(prefix) + ids)
            self.starts.append([s + len(prefix) for s in starts] + [len(prefix) + len(ids)])

    def actual(self, line: int, word: int) -> list[int]:
        return self.ids[line][self.starts[line][word] : self.starts[line][word + 1]]

    def positions(self, line: int, word: int, path: int) -> int:
        """Positions a step after ``path`` tokens of ``word`` takes (the line before the word, then the path)."""
        return self.starts[line][word] + path

    def check_reach(self, reach: Sequence[tuple[int, int, int]]) -> None:
        """A ``ModelError`` before any step when a path of ``path`` tokens after the context of some ``(line, word,
        path)`` would run past the model's positions (a learned position table fails on it; rotary positions
        extrapolate silently)."""
        most = self.model.max_length
        if most is None:
            return
        for line, word, path in reach:
            need = self.positions(line, word, path)
            if need > most:
                raise ModelError(f"whole-word search: word {word} of a line needs {need} positions (its left context, then paths of up to "
                                 f"{path} tokens), but {self.model.info.name} takes {most}: score shorter lines (split them, or --limit)")

    # off-line paths continued from the cache per forward pass: a search round's paths of many events and lines go
    # through the model together (on a GPU, a round of 256 lines is a few passes, not hundreds)
    CONTINUE_BATCH = {"cpu": 64, "cuda": 2048}

    def continue_groups(self, requests, out: list, groups: dict, cont) -> None:
        """Fill ``out[n]`` for the requests off their line: ``groups`` maps a key to request indices that can
        share one cached batch; ``cont(key, [request, ...])`` returns their steps, CONTINUE_BATCH at a time."""
        size = self.CONTINUE_BATCH.get(self.model.device.type) or self.CONTINUE_BATCH["cuda"]
        for key, ns in groups.items():
            for i in range(0, len(ns), size):
                part = ns[i : i + size]
                for n, step in zip(part, cont(key, [requests[n] for n in part])):
                    out[n] = step


class ScoringModel:
    """Base of the families. ``family`` is "causal", "masked" or "encoder"."""

    family = "base"

    @functools.cached_property
    def newline_ids(self) -> set[int]:
        """Tokens whose text holds a newline (generation can stop at the first: one line per sample)."""
        return {i for i in range(len(self.tokenizer)) if "\n" in self.tokenizer.decode([i])}

    def stop_ids(self, stop_at_newline: bool = False) -> set[int]:
        """Tokens that end a generated text: EOS, and with ``stop_at_newline`` any token holding a newline."""
        eos = self.tokenizer.eos_token_id
        return ({eos} if eos is not None else set()) | (self.newline_ids if stop_at_newline else set())

    def __init__(self, model, tokenizer, info: ModelInfo, device: torch.device, batch_size: int | str = "auto", progress: bool = False):
        self.model = model.eval()
        self.tokenizer = tokenizer
        self.info = info
        self.device = device
        self.sizer = BatchSizer(batch_size, device)
        self.progress = progress  # bars for long model work (the CLI's main process)

    # --- encoding -------------------------------------------------------------------------------
    def encode(self, text: str, bos: bool = True) -> Encoded:
        """Token ids with character offsets; families add their special tokens (``bos``: a causal model's BOS)."""
        return self.plain_encodings([text])[0]

    def plain_encodings(self, texts: Sequence[str]) -> list[Encoded]:
        """Token ids with character offsets of many texts without special tokens, in one tokenizer call (a fast
        tokenizer encodes them in parallel: on 1,024 short sentences a third of the time of one call each)."""
        if not texts:
            return []
        texts = list(texts)
        if self.backend_encodes is None:
            self.backend_encodes = self._backend_agrees(texts[:8])
        if self.backend_encodes:
            return [Encoded(e.ids, e.offsets, [False] * len(e.ids)) for e in self.tokenizer.backend_tokenizer.encode_batch(texts, add_special_tokens=False)]
        enc = self.tokenizer(texts, add_special_tokens=False, return_offsets_mapping=True)
        return [Encoded(list(ids), [tuple(o) for o in offsets], [False] * len(ids)) for ids, offsets in zip(enc["input_ids"], enc["offset_mapping"])]

    backend_encodes: bool | None = None  # whether the fast tokenizer's own encoder gives what its __call__ gives: checked on a first call

    def _backend_agrees(self, texts: list[str]) -> bool:
        """Whether the Rust tokenizer behind a fast tokenizer, called directly, encodes ``texts`` as the transformers
        call does (ids and offsets): it then takes the call's place, which spends about as long again in Python
        (2,048 short texts: 40 ms against 60-180 ms here). Not where the backend pads or truncates on its own."""
        backend = getattr(self.tokenizer, "backend_tokenizer", None)
        if not getattr(self.tokenizer, "is_fast", False) or backend is None or backend.truncation or backend.padding:
            return False
        enc = self.tokenizer(texts, add_special_tokens=False, return_offsets_mapping=True)
        ours = backend.encode_batch(texts, add_special_tokens=False)
        return all(list(ids) == e.ids and [tuple(o) for o in offs] == e.offsets
                   for ids, offs, e in zip(enc["input_ids"], enc["offset_mapping"], ours))

    @property
    def pad_id(self) -> int:
        tok = self.tokenizer
        for candidate in (tok.pad_token_id, tok.eos_token_id, tok.unk_token_id, 0):
            if candidate is not None:
                return candidate
        return 0

    fused_head: bool | None = None  # whether head_logprobs fuses the head with its log-sum-exp: None until checked on a first call

    @functools.cached_property
    def max_length(self) -> int | None:
        """Positions the model can take (None: no fixed limit in its config)."""
        return config_positions(self.model.config)

    def pad(self, seqs: Sequence[Sequence[int]], left: bool = False) -> tuple[torch.Tensor, torch.Tensor]:
        """Pad to a batch: (input_ids, attention_mask) on the model's device; right-padded unless ``left``
        (generation: every sequence then ends where new tokens start)."""
        width = max(len(s) for s in seqs)
        self.check_length(width)
        ids = torch.full((len(seqs), width), self.pad_id, dtype=torch.long)
        mask = torch.zeros((len(seqs), width), dtype=torch.long)
        for i, s in enumerate(seqs):
            cols = slice(width - len(s), width) if left else slice(0, len(s))
            ids[i, cols] = torch.tensor(s, dtype=torch.long)
            mask[i, cols] = 1
        return self.to_device(ids), self.to_device(mask)

    def to_device(self, tensor: torch.Tensor) -> torch.Tensor:
        """A host tensor on the model's device (pinned, not blocking, on a GPU: ``batching.to_device``)."""
        return to_device(tensor, self.device)

    def tree_inputs(self, tries: Sequence[Trie]) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
        """(ids, positions, 4D attention mask) on the model's device for rows that each hold one prefix tree:
        a token's position is its depth and it sees its ancestors only (filler sees itself alone)."""
        width = max(len(t.tokens) for t in tries)
        ids = torch.full((len(tries), width), self.pad_id, dtype=torch.long)
        positions = torch.zeros((len(tries), width), dtype=torch.long)
        ends = torch.arange(1, width + 1, dtype=torch.long).repeat(len(tries), 1)  # filler sees itself alone
        for r, trie in enumerate(tries):
            n = len(trie.tokens)
            ids[r, :n], positions[r, :n] = torch.tensor(trie.tokens, dtype=torch.long), torch.tensor(trie.depths, dtype=torch.long)
            ends[r, :n] = torch.tensor(subtree_ends(trie.parents), dtype=torch.long)
        return self.to_device(ids), self.to_device(positions), self.mask_form(ancestor_mask(self.to_device(ends)))

    def mask_form(self, mask: torch.Tensor) -> torch.Tensor:
        """A bool [rows, queries, keys] mask (True: may attend) as the model's attention takes a 4D mask, on its
        device: bool for SDPA; eager attention adds it to its scores, so 0 / the dtype's minimum."""
        mask = mask[:, None]
        if self.model.config._attn_implementation != "sdpa":
            mask = torch.zeros(mask.shape, dtype=self.model.dtype, device=mask.device).masked_fill(~mask, torch.finfo(self.model.dtype).min)
        return self.to_device(mask)

    def head_logprobs(self, rows: torch.Tensor, cols: torch.Tensor, forward, targets: torch.Tensor, index: torch.Tensor | None = None) -> torch.Tensor:
        """log p(targets[i]) at position (rows[j], cols[j]), j = index[i] (default: i), of the logits ``forward()``
        returns, in float32. Fused where the model allows: the body runs without the head, then the head and the
        log-sum-exp run a block of vocabulary at a time (``fused_logprobs``), so no [positions, vocab] logits are
        held. The first call with targets scores through the model's own head and checks the fused values against
        it (``scores_agree``), in the same forward pass; a model that does more after its head than a bias
        (scaling, soft-capping) keeps ``head_at``."""
        if self.fused_head:
            with self.states_at(rows, cols) as states:
                forward()
            return self.fused_logprobs(states(), targets, index)
        if self.fused_head is False or not len(targets) or self._head_weights() is None:
            with self.head_at(rows, cols) as pick:
                logits = pick(forward())
            return token_logprobs(logits, targets, index)
        with self.states_at(rows, cols, feed_head=True) as states:  # the head reads the kept states: one pass
            logits = forward()[:, 0]
        values = token_logprobs(logits, targets, index)
        try:
            fused = self.fused_logprobs(states(), targets, index)
        except (TypeError, ValueError, IndexError, RuntimeError):  # a head the fused path cannot take
            self.fused_head = False
        else:
            self.fused_head = self.scores_agree([fused.tolist()], [values.tolist()])
        return values

    def _head_weights(self) -> tuple[torch.Tensor, torch.Tensor | None] | None:
        """(weight [vocab, dim], bias [vocab] or None) of a linear LM head, with the bias some seq2seq models add
        after it (``final_logits_bias``); None for a head that is not a plain linear layer."""
        head = self.model.get_output_embeddings()
        if not isinstance(head, torch.nn.Linear):
            return None
        bias = head.bias
        extra = getattr(self.model, "final_logits_bias", None)
        if isinstance(extra, torch.Tensor):
            extra = extra.reshape(-1).to(head.weight.device, head.weight.dtype)
            bias = extra if bias is None else bias + extra
        return head.weight, bias

    def fused_logprobs(self, states: torch.Tensor, targets: torch.Tensor, index: torch.Tensor | None = None) -> torch.Tensor:
        """``token_logprobs`` of the head's logits at ``states`` [positions, dim], computed a block of
        (positions, vocabulary) at a time: each block's log-sum-exp and the targets that fall in it, combined."""
        weight, bias = self._head_weights()
        if len(targets) and int(targets.max()) >= len(weight):
            raise ModelError(f"token id {int(targets.max())} is outside {self.info.name}'s LM head ({len(weight)} entries): "
                             "the tokenizer has tokens the model's head lacks")
        states = states.to(weight.device)
        rows = torch.arange(len(targets), device=states.device) if index is None else index.to(states.device)
        targets = targets.to(states.device)
        n_rows, n_vocab = HEAD_BLOCK.get(states.device.type, HEAD_BLOCK["cuda"])
        lse = torch.empty(len(states), dtype=torch.float32, device=states.device)
        picked = torch.empty(len(targets), dtype=torch.float32, device=states.device)
        for i in range(0, len(states), n_rows):
            block = states[i : i + n_rows]
            mine = ((rows >= i) & (rows < i + len(block))).nonzero().squeeze(1)
            if n_vocab >= len(weight):  # the whole vocabulary in one block: one log-softmax kernel, half precision in, float32 out
                logprobs = torch.log_softmax(torch.nn.functional.linear(block, weight, bias), -1, dtype=torch.float32)
                picked[mine] = logprobs[rows[mine] - i, targets[mine]]
                lse[i : i + len(block)] = 0.0  # the picked log-probs are normalized already
                continue
            parts = []
            for j in range(0, len(weight), n_vocab):
                w, b = weight[j : j + n_vocab], None if bias is None else bias[j : j + n_vocab]
                logits = torch.nn.functional.linear(block, w, b).float()
                parts.append(logits.logsumexp(-1))
                here = mine[(targets[mine] >= j) & (targets[mine] < j + len(w))]
                picked[here] = logits[rows[here] - i, targets[here] - j]
            lse[i : i + len(block)] = torch.stack(parts, -1).logsumexp(-1)
        return (picked - lse[rows]).to(self.device)

    def tree_reads(self, reads: Sequence[Sequence[tuple[int, int, int]]]) -> tuple:
        """The host's part of ``tree_logprobs``: (text lengths, rows, cols, targets, index) with the tensors on the
        device; a position read by several texts is listed once."""
        at: dict[tuple[int, int], int] = {}
        index = [at.setdefault((r, p), len(at)) for text in reads for r, p, _ in text]
        lengths = [len(text) for text in reads]
        if not at:  # only empty texts
            return lengths, None, None, None, None
        rows, cols = (self.to_device(torch.tensor(c, dtype=torch.long)) for c in zip(*at))
        targets = self.to_device(torch.tensor([t for text in reads for _, _, t in text], dtype=torch.long))
        return lengths, rows, cols, targets, self.to_device(torch.tensor(index, dtype=torch.long))

    def tree_logprobs(self, reads, forward) -> Deferred:
        """Per text, the log-probs of its targets, each read at (row, position) of the logits ``forward()``
        returns: the head runs once per distinct position, however many texts read it. ``reads``: per text its
        (row, position, target) triples, or ``tree_reads`` of them. Read later (``Deferred``)."""
        lengths, rows, cols, targets, index = reads if isinstance(reads, tuple) else self.tree_reads(reads)
        if rows is None:
            return Deferred(lambda: [[] for _ in lengths])
        values = self.head_logprobs(rows, cols, forward, targets, index)
        return Deferred(lambda: split_by(values.cpu().tolist(), lengths))

    def scores_agree(self, got: Sequence[Sequence[float]], want: Sequence[Sequence[float]]) -> bool:
        """Whether two ways of scoring gave the same token log-probs (1e-4 in fp32/fp64, 5e-2 in half precision):
        the check a faster layout passes before a model uses it."""
        tolerance = 1e-4 if self.model.dtype in (torch.float32, torch.float64) else 5e-2
        return len(got) == len(want) and all(len(x) == len(y) and all(abs(a - b) <= tolerance for a, b in zip(x, y)) for x, y in zip(got, want))

    def check_length(self, tokens: int) -> None:
        """A ``ModelError`` for an input of more ``tokens`` than the model's positions."""
        if self.max_length is not None and tokens > self.max_length:
            raise ModelError(f"an input of {tokens} tokens is longer than {self.info.name} can take ({self.max_length}); "
                             "score shorter items (e.g. --limit, or a shorter prompt)")

    def check_generation(self, prompt_tokens: int, max_new_tokens: int) -> None:
        """A ``ModelError`` before any generation whose prompt and new tokens would run past the model's positions
        (the model would index past its position table, or extrapolate silently)."""
        if self.max_length is not None and prompt_tokens + max_new_tokens > self.max_length:
            raise ModelError(f"a prompt of {prompt_tokens} tokens plus max_new_tokens={max_new_tokens} needs {prompt_tokens + max_new_tokens} "
                             f"positions, but {self.info.name} takes {self.max_length}: give max_new_tokens <= "
                             f"{max(self.max_length - prompt_tokens, 0)} or shorter prompts")

    def batched(self, items: Sequence, lengths: Sequence[int], fn, desc: str | None = None, prepare=None) -> list:
        """Run ``fn`` over length-sorted batches under inference mode, results in input order; with ``prepare``
        the host's part of the next batch runs while this one computes (``BatchSizer.run``)."""
        from tqdm.auto import tqdm

        bar = tqdm(total=len(items), desc=desc, disable=not (self.progress and desc), leave=False)
        with torch.inference_mode(), bar:
            return self.sizer.run(items, lengths, fn, bar, prepare)

    @property
    def batch_size(self) -> int:
        """Rows per batch at most; under ``auto`` a token budget (``sizer.tokens``) also caps each batch."""
        return self.sizer.size

    @batch_size.setter
    def batch_size(self, value: int | str) -> None:
        """An integer (a row cap, no token budget) or ``"auto"``, as ``load_model(batch_size=)``."""
        self.sizer.configure(value)

    @contextlib.contextmanager
    def computing_in(self, dtype: torch.dtype):
        """While inside, the weights are cast to ``dtype``; after, each parameter and buffer goes back to its own
        dtype (bf16 -> fp32 -> bf16 gives the same weights, and a buffer a half-precision load keeps in fp32, as
        RoPE's ``inv_freq``, stays fp32): the same model computed at another precision, without a second copy."""
        kept = [(store, name, t.dtype) for module in self.model.modules() for store in (module._parameters, module._buffers)
                for name, t in store.items() if t is not None]
        try:
            self.model.to(dtype)
            yield
        finally:
            for store, name, dt in kept:
                t = store[name]
                if t.dtype != dt:
                    if isinstance(t, torch.nn.Parameter):
                        t.data = t.data.to(dt)
                    else:
                        store[name] = t.to(dt)

    @contextlib.contextmanager
    def probing(self):
        """While inside, a model in half precision computes in float32 (``computing_in``), so a probe of a faster
        layout tells a mask or position the model ignores from half precision's rounding (SmolLM2 in bf16: 0.17
        nats between packed and padded rows): compare inside, where ``scores_agree`` asks 1e-4. A sharded model, or
        one that does not fit in float32 on its GPU, is probed as it is (at half precision's tolerance)."""
        with contextlib.ExitStack() as stack:
            if self.model.dtype not in (torch.float32, torch.float64) and not getattr(self.model, "hf_device_map", None):
                try:
                    stack.enter_context(self.computing_in(torch.float32))
                except torch.cuda.OutOfMemoryError:  # computing_in has put every tensor back
                    torch.cuda.empty_cache()
            yield

    # --- the LM head only where it is read -------------------------------------------------------
    @contextlib.contextmanager
    def head_at(self, rows: torch.Tensor, cols: torch.Tensor):
        """While inside, the LM head sees only the hidden states at ``(rows[i], cols[i])``, so it costs
        one vector-matrix product per position read, not per position. Yields ``pick``: the model's
        logits -> the [len(rows), vocab] logits at those positions, with whatever the model does after
        its head (scaling, soft-capping) applied. A model without an output embedding module computes
        its full logits and ``pick`` indexes them."""
        if self.model.get_output_embeddings() is None:
            yield lambda logits: logits[rows, cols]
            return
        with self.states_at(rows, cols, feed_head=True):
            yield lambda logits: logits[:, 0]

    @contextlib.contextmanager
    def states_at(self, rows: torch.Tensor, cols: torch.Tensor, feed_head: bool = False):
        """While inside, the hidden states the LM head would read at ``(rows[i], cols[i])`` are kept, and the head
        is given none of them (the model's logits are empty), or with ``feed_head`` those alone, as ``head_at``.
        Yields a function returning the kept states [n, dim]."""
        kept: list[torch.Tensor] = []

        def keep(module, args):
            states = args[0]
            kept.append(states[rows.to(states.device), cols.to(states.device)])
            return ((kept[-1] if feed_head else kept[-1][:0]).unsqueeze(1), *args[1:])

        handle = self.model.get_output_embeddings().register_forward_pre_hook(keep)
        try:
            yield lambda: kept[-1]
        finally:
            handle.remove()

    # --- vocabulary -----------------------------------------------------------------------------
    @property
    def vocab_size(self) -> int:
        return self.model.get_output_embeddings().weight.shape[0] if self.model.get_output_embeddings() is not None else len(self.tokenizer)

    @property
    def words(self) -> WordVocabulary:
        return word_vocabulary(self.tokenizer, self.vocab_size)

    # --- predictions at one position (causal: the next token; masked: the mask) -----------------
    def _queries(self, contexts: Sequence[str], right_contexts) -> list[tuple[list[int], int]]:
        """(token ids, position whose distribution is wanted) per context; family-specific."""
        raise NotImplementedError

    def _position_inputs(self, batch) -> tuple[list, dict]:
        """The host's part of ``_position_logprobs``: (the batch, its padded tensors on the device)."""
        ids, mask = self.pad([b[0] for b in batch])
        cols = self.to_device(torch.tensor([b[1] for b in batch]))
        return batch, {"ids": ids, "mask": mask, "cols": cols}

    def _position_logprobs(self, prepared) -> torch.Tensor:
        """Log-softmax at ``item[1]`` of each ``(ids, position, ...)`` item of a ``_position_inputs`` batch: [batch, vocab], float32."""
        batch, t = prepared
        with self.head_at(torch.arange(len(batch), device=self.device), t["cols"]) as pick:
            logits = pick(self.model(input_ids=t["ids"], attention_mask=t["mask"]).logits)
        return torch.log_softmax(logits.float(), -1)

    def next_token_logprobs(self, contexts: Sequence[str], right_contexts=None) -> np.ndarray:
        """Log-probabilities of the token after each context (masked: at a mask before the right context): [n, vocab]."""
        queries = self._queries(contexts, right_contexts)
        rows = self.batched(queries, [len(q[0]) for q in queries], lambda p: list(self._position_logprobs(p).cpu().numpy()), "next token",
                            self._position_inputs)
        return np.stack(rows)

    def topk_next(self, contexts: Sequence[str], k: int, right_contexts=None, word_start_only: bool = False):
        """The ``k`` most probable tokens per context: a list of (token ids, log-probs).

        Causal models ignore ``right_contexts`` (it follows the predicted token); masked models put
        the mask between context and right context. ``word_start_only`` keeps tokens that begin a word.
        """
        queries = self._queries(contexts, right_contexts)
        allowed = torch.as_tensor(self.words.is_start, device=self.device) if word_start_only else None
        return self.batched(queries, [len(q[0]) for q in queries], lambda p: self._topk(self._position_logprobs(p), k, allowed), "top-k",
                            self._position_inputs)

    @staticmethod
    def _topk(logprobs: torch.Tensor, k: int, allowed: torch.Tensor | None) -> Deferred:
        """Top-``k`` (ids, log-probs) per row, over ``allowed`` tokens only (fewer when fewer are allowed), read later."""
        if allowed is not None:
            logprobs = logprobs.masked_fill(~allowed[: logprobs.shape[1]], float("-inf"))
        values, ids = logprobs.topk(min(k, logprobs.shape[1]), -1)

        def read():
            v, i = values.cpu().numpy(), ids.cpu().numpy()
            keep = np.isfinite(v)
            return [(a[m], b[m]) for a, b, m in zip(i, v, keep)]

        return Deferred(read)

    # --- whole words (Dudy & Bedrick 2020) ------------------------------------------------------
    def word_tokens(self, words: Sequence[str]) -> tuple[list[int], list[int]]:
        """Encode ``" ".join(words)``: (token ids without special tokens, first token index of each word).

        Raises ``ModelError`` when a token crosses a space, which would leave no word-aligned context.
        """

        text = " ".join(words)
        enc = ScoringModel.encode(self, text)  # no special tokens
        starts, pos, cursor = [], 0, 0
        for w in words:
            start = text.index(w, cursor)
            cursor = start + len(w)
            edge = start - 1 if starts else start  # the space before a word may belong to its first token ("Ġdog")
            while pos < len(enc.ids) and enc.offsets[pos][1] <= edge:
                pos += 1
            if pos == len(enc.ids) or (starts and enc.offsets[pos][0] < start - 1):
                raise ModelError(f"{self.info.name}: a token crosses the space before {w!r}; whole-word prediction needs word-aligned tokens")
            starts.append(pos)
        return enc.ids, starts

    def _word_steps(self, lines: Sequence[Sequence[str]]) -> "wholeword.WordSteps":
        raise NotImplementedError(f"{self.family} models make no word predictions")

    def _check_word_markers(self) -> WordVocabulary:

        vocab = self.words
        if not vocab.boundary.any():
            raise ModelError(f"{self.info.name}: its tokenizer marks no word starts (no Ġ/▁ prefixes, no ## pieces), so whole words cannot be decoded")
        return vocab

    def predict_words(self, lines: Sequence[Sequence[str]], events: Sequence[tuple[int, int]], search: bool = True,
                      faithful: bool = False) -> list[WordPrediction]:
        """Whole-word predictions of ``lines[l][i]`` from ``lines[l][:i]`` for each event ``(l, i)``, i >= 1.

        Lines go through the model in length-sorted batches; see ``wholeword.predict_words`` (``faithful``: the seed's search).
        """
        vocab = self._check_word_markers()
        by_line: dict[int, list[int]] = {}
        for e, (line, i) in enumerate(events):
            if i < 1 or i >= len(lines[line]):
                raise ValueError(f"event {(line, i)}: a word index must be >= 1 and inside the line")
            by_line.setdefault(line, []).append(e)
        order = sorted(by_line)
        decode = functools.partial(self.tokenizer.decode, skip_special_tokens=False, clean_up_tokenization_spaces=False)

        def run(batch):
            steps = self._word_steps([lines[l] for l in batch])
            local = [(b, events[e][1], lines[l][events[e][1]]) for b, l in enumerate(batch) for e in by_line[l]]
            preds = iter(wholeword.predict_words(steps, decode, vocab, local, search, faithful))
            return [[next(preds) for _ in by_line[l]] for l in batch]

        per_line = self.batched(order, [sum(len(w) for w in lines[l]) for l in order], run, "whole words")
        out: list = [None] * len(events)
        for l, preds in zip(order, per_line):
            for e, p in zip(by_line[l], preds):
                out[e] = p
        return out

    def word_logprobs(self, pairs: Sequence[tuple[str, str]]) -> list[float]:
        """Whole-word log-prob of ``word`` after ``context`` (words split on whitespace), P(word ends) included."""
        lines = [context.split() + [word] for context, word in pairs]
        if any(len(l) < 2 for l in lines):
            raise ValueError("word_logprobs needs a non-empty context")
        return [p.word_lp for p in self.predict_words(lines, [(n, len(l) - 1) for n, l in enumerate(lines)], search=False)]

    def word_logprob(self, context: str, word: str) -> float:
        return self.word_logprobs([(context, word)])[0]

    # --- hidden states (all families) -----------------------------------------------------------
    @property
    def num_layers(self) -> int:
        """Transformer layers; hidden-state index 0 is the embeddings, ``num_layers`` the top."""
        return config_layers(self.model.config)

    def _all_hidden_states(self, ids: torch.Tensor, mask: torch.Tensor) -> tuple[torch.Tensor, ...]:
        """The embedding output and every layer's states (seq2seq: the encoder's)."""
        return self.model(input_ids=ids, attention_mask=mask, output_hidden_states=True).hidden_states

    def token_states(self, texts: Sequence[str], layer: int) -> list[np.ndarray]:
        """Per text, the states of its non-special tokens at ``layer``: [tokens, dim] (BERTScore's input)."""
        if not 0 <= layer <= self.num_layers:
            raise ValueError(f"layer must be between 0 and {self.num_layers}")
        encoded = [self.encode(t) for t in texts]

        def prepare(batch):
            return batch, self.pad([encoded[i].ids for i in batch])

        def run(prepared):
            batch, (ids, mask) = prepared
            states = self._all_hidden_states(ids, mask)[layer]
            return [states[row, [j for j, sp in enumerate(encoded[i].special) if not sp]].float().cpu().numpy() for row, i in enumerate(batch)]

        return self.batched(list(range(len(texts))), [len(e.ids) for e in encoded], run, "token states", prepare)

    @staticmethod
    def _span_tokens(text: str, enc: Encoded, span: tuple[int, int]) -> list[int]:
        """Indices of the non-special tokens that overlap the character span ``[start, end)``."""
        start, end = span
        idx = [i for i, ((s, e), sp) in enumerate(zip(enc.offsets, enc.special)) if not sp and s < end and e > start]
        if not idx:
            raise ValueError(f"span {start}:{end} ({text[start:end]!r}) covers no token of {text!r}")
        return idx

    def span_token_ids(self, texts: Sequence[str], char_spans: Sequence[tuple[int, int]], bos: bool = True) -> list[list[int]]:
        """The ids of the tokens each span is split into (in its context)."""
        out = []
        for t, span in zip(texts, char_spans):
            enc = self.encode(t, bos)
            out.append([enc.ids[i] for i in self._span_tokens(t, enc, span)])
        return out

    def span_token_counts(self, texts: Sequence[str], char_spans: Sequence[tuple[int, int]], bos: bool = True) -> list[int]:
        """How many tokens the model splits each span into (in its context)."""
        return [len(ids) for ids in self.span_token_ids(texts, char_spans, bos)]

    def unseen(self, token_ids: Sequence[int]) -> bool:
        """Whether a span of these tokens is only the tokenizer's unknown token: text the model cannot see (a
        WordPiece vocabulary maps a word with a character it lacks to [UNK] as a whole)."""
        unk = getattr(self.tokenizer, "unk_token_id", None)
        return unk is not None and bool(token_ids) and all(i == unk for i in token_ids)

    def hidden_states(self, texts: Sequence[str], char_spans: Sequence[tuple[int, int]], pool: str = "last",
                      bos: bool = True) -> np.ndarray:
        """Per text, the pooled states of the tokens overlapping ``char_span`` at every layer: [n, layers + 1, dim].

        Layer 0 is the embedding output; the top layer is after the final layer norm where the model has one.
        ``bos=False``: a causal model encodes without its BOS (VAST's ``bos=none``, the authors' GPT-2 runs).
        """
        if pool not in POOLS:
            raise ValueError(f"pool must be one of {', '.join(POOLS)}")
        encoded = [self.encode(t, bos) for t in texts]
        spans = [self._span_tokens(text, enc, span) for text, enc, span in zip(texts, encoded, char_spans)]

        def prepare(batch):
            return batch, self.pad([encoded[i].ids for i in batch])

        def run(prepared):
            batch, (ids, mask) = prepared
            layers = torch.stack(self._all_hidden_states(ids, mask), 1)
            out = []
            for row, i in enumerate(batch):
                states = layers[row, :, spans[i]].float()  # [layers, tokens, dim]
                pooled = {"first": states[:, 0], "last": states[:, -1], "mean": states.mean(1), "max": states.max(1).values}[pool]
                out.append(pooled.cpu().numpy())
            return out

        result = self.batched(list(range(len(texts))), [len(e.ids) for e in encoded], run, "hidden states", prepare)
        return np.stack(result) if result else np.zeros((0, 0, 0), dtype=np.float32)

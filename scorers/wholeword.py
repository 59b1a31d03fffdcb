"""Whole words over subword vocabularies: which tokens start or end a word, and whole-word decoding.

``predict_words`` runs Dudy & Bedrick's two whole-word algorithms and the whole-word log-probability
for many (line, word) events at once, on any family that offers a ``WordSteps`` view of its lines.
The search proceeds in rounds; each round asks the model for all pending prefixes in one batched call.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Protocol, Sequence

import numpy as np

WORD_START_MARKERS = ("Ġ", "▁")  # byte-level BPE (GPT-2, Llama 3, SmolLM) and SentencePiece
BREAK_MARKERS = ("Ġ", "▁", "Ċ", "ĉ", " ", "\n", "\t")  # a token starting with one of these begins something new
TOP = 10  # the k of Algorithm 2 (top-10)
GREEDY_DEPTH = 7  # Algorithm 1: at most this many subtokens per predicted word
SEARCH_DEPTH = 5  # Algorithm 2: at most this many subtokens per path
SEED_SEARCH_DEPTH = 6  # the seed's beam_search.py: paths up to 6 subtokens (faithful mode)


def search_depth(faithful: bool) -> int:
    """The longest path the top-10 search follows: ``SEARCH_DEPTH``, or the seed's ``SEED_SEARCH_DEPTH``."""
    return SEED_SEARCH_DEPTH if faithful else SEARCH_DEPTH


@dataclass(frozen=True)
class WordVocabulary:
    is_start: np.ndarray  # bool per logit index: the token begins a new word and contains a letter
    words: tuple[str, ...]  # the word a start token spells (marker removed), "" otherwise
    boundary: np.ndarray  # bool: the token begins a new word (marker, or WordPiece without ##), letters or not
    ends: np.ndarray  # bool: after a word, this token means the word is finished (boundary, EOS/SEP, newline)

    def word(self, token_id: int) -> str:
        return self.words[token_id]


@functools.lru_cache(maxsize=8)
def _build(tokenizer, size: int) -> WordVocabulary:
    tokens = tokenizer.convert_ids_to_tokens(list(range(min(size, len(tokenizer)))))
    special = set(tokenizer.all_special_ids)
    wordpiece = any(t.startswith("##") for t in tokens if t)
    is_start = np.zeros(size, dtype=bool)
    boundary = np.zeros(size, dtype=bool)
    ends = np.zeros(size, dtype=bool)
    words = [""] * size
    for i, tok in enumerate(tokens):
        if tok is None or i in special:
            continue
        start = not tok.startswith("##") if wordpiece else tok.startswith(WORD_START_MARKERS)
        boundary[i] = start
        ends[i] = start or tok.startswith(BREAK_MARKERS)
        if not start:
            continue
        word = tokenizer.convert_tokens_to_string([tok]).strip()
        if any(ch.isalpha() for ch in word):
            is_start[i] = True
            words[i] = word
    for end_id in (tokenizer.eos_token_id, tokenizer.sep_token_id):
        if end_id is not None and end_id < size:
            ends[end_id] = True
    return WordVocabulary(is_start, tuple(words), boundary, ends)


def word_vocabulary(tokenizer, size: int | None = None) -> WordVocabulary:
    """The word-start table of ``tokenizer`` over ``size`` logits (the model's output size)."""
    return _build(tokenizer, size or len(tokenizer))


# --- what a model says about the token after a prefix -----------------------------------------------


@dataclass
class Step:
    top_ids: np.ndarray  # the TOP most probable tokens
    top_lp: np.ndarray
    start_ids: np.ndarray  # the TOP most probable tokens that begin a word
    start_lp: np.ndarray
    end_lp: float  # log P(the word ends here): boundary tokens, EOS/SEP, newline
    next_lp: float | None = None  # log-prob of the token asked for (teacher forcing)


def summarize_steps(logprobs, vocab_tensors, targets=None) -> list[Step]:
    """Steps from log-probability rows [n, vocab] (a torch tensor); ``targets`` gives a token per row or -1."""
    import torch

    boundary, ends = vocab_tensors
    width = logprobs.shape[1]
    top_lp, top_ids = logprobs.topk(TOP, -1)
    start_lp, start_ids = logprobs.masked_fill(~boundary[:width], float("-inf")).topk(TOP, -1)
    end_lp = torch.logsumexp(logprobs.masked_fill(~ends[:width], float("-inf")), -1)
    if targets is not None:
        tgt = torch.as_tensor(targets, device=logprobs.device)
        next_lp = logprobs.gather(1, tgt.clamp(min=0)[:, None])[:, 0].masked_fill(tgt < 0, float("nan"))
    arrays = [t.cpu().numpy() for t in (top_ids, top_lp, start_ids, start_lp, end_lp)]
    nxt = next_lp.cpu().numpy() if targets is not None else [None] * len(arrays[0])
    return [
        Step(arrays[0][i], arrays[1][i], arrays[2][i], arrays[3][i], float(arrays[4][i]), None if n is None or np.isnan(n) else float(n))
        for i, n in enumerate(nxt)
    ]


class WordSteps(Protocol):
    """A family's view of a batch of lines (lists of words) for whole-word prediction."""

    def actual(self, line: int, word: int) -> list[int]:
        """The token ids of ``word`` as the line is tokenized."""

    def steps(self, requests: Sequence[tuple[int, int, tuple[int, ...]]]) -> list[Step]:
        """For each (line, word, path): the next-token step after words[:word] + path (path: token ids).

        ``next_lp`` is the log-prob of the word's own next token when ``path`` is a proper prefix of ``actual``.
        """

    def check_reach(self, reach: Sequence[tuple[int, int, int]]) -> None:
        """Refuse, before any step, a (line, word, path length) that would run past the model's positions."""


@dataclass
class WordPrediction:
    greedy: str  # Algorithm 1's word
    greedy_lp: float  # log-prob of its subtokens
    greedy_tokens: int
    hit1: bool
    hit10: bool
    word_lp: float  # whole-word log-prob of the target, word-boundary probability included
    tokens: int  # subtokens of the target in this tokenizer
    path_lp: float | None = None  # log-prob of the top-10 path that spelled the target (None: no such path)


def _clean(text: str) -> str:
    return text.strip()


def _could_become(text: str, target: str) -> bool:
    """``text`` (decoded so far) can still grow into ``target``; a partial UTF-8 character at the end is allowed."""
    return target.startswith(text.rstrip("\ufffd"))


def predict_words(model_steps: WordSteps, decode, vocab: WordVocabulary, events: Sequence[tuple[int, int, str]],
                  search: bool = True, faithful: bool = False) -> list[WordPrediction]:
    """Algorithms 1 (greedy top-1) and 2 (top-10 path search) and the teacher-forced word log-prob.

    ``events`` are (line, word index, target word). ``decode`` maps token ids to text. With
    ``search=False`` only the word log-prob is computed (the prediction fields stay empty).
    A top-1 hit also counts as a top-10 hit, even when its path is longer than the search depth.
    Default: the first subtoken is chosen among word-start tokens, paths up to ``SEARCH_DEPTH``.
    ``faithful`` (the seed's code): the first subtoken over the whole vocabulary, paths up to
    ``SEED_SEARCH_DEPTH``, and the greedy log-prob includes the boundary token that ended the word.
    """
    depth_limit = search_depth(faithful)
    n = len(events)
    actual = [model_steps.actual(line, i) for line, i, _ in events]
    reach = max(GREEDY_DEPTH, depth_limit) if search else 0  # the longest path off the word's own tokens
    model_steps.check_reach([(line, i, max(reach, len(a))) for (line, i, _), a in zip(events, actual)])
    # Teacher forcing: one request per prefix of the target's own tokens (the last one gives P(end)).
    tf_requests = [(line, i, tuple(actual[e][:j])) for e, (line, i, _) in enumerate(events) for j in range(len(actual[e]) + 1)]
    tf_steps = model_steps.steps(tf_requests)
    known: dict[tuple[int, int, tuple[int, ...]], Step] = dict(zip(tf_requests, tf_steps))

    def ask(requests):
        missing = list(dict.fromkeys(r for r in requests if r not in known))
        if missing:
            known.update(zip(missing, model_steps.steps(missing)))
        return [known[r] for r in requests]

    word_lp = []
    for e, (line, i, _) in enumerate(events):
        toks = actual[e]
        lp = sum(known[(line, i, tuple(toks[:j]))].next_lp or 0.0 for j in range(len(toks)))
        word_lp.append(lp + known[(line, i, tuple(toks))].end_lp)
    if not search:
        return [WordPrediction("", 0.0, 0, False, False, float(w), len(a)) for w, a in zip(word_lp, actual)]

    # Algorithm 1: the best word-start token, then argmax subtokens until the model ends the word.
    # Algorithm 2: paths whose every subtoken is in the top 10 at its step; keep only prefixes of the target.
    # A path's log-prob is the sum of its subtokens' log-probs; the first path found (breadth first,
    # in rank order) is the one reported. A path that has spelled nothing yet (spaces, newlines: a prefix of every
    # word) is followed once per depth and event, the first in rank order: followed each, such paths grow as
    # 10^depth (a run on short lines, where newline and EOS rank high, never ends).
    # Both advance together, one depth per round: each round asks the model once for the greedy paths and the
    # search paths of that depth, over every event of the lines (one batched forward per depth, not per path).
    greedy = [None] * n
    hit10 = [False] * n
    path_lp: list[float | None] = [None] * n
    frontier = []
    for e, (line, i, _) in enumerate(events):
        step = known[(line, i, ())]
        first_ids, first_lp = (step.top_ids, step.top_lp) if faithful else (step.start_ids, step.start_lp)
        greedy[e] = ([int(first_ids[0])], float(first_lp[0]))
        frontier += [(e, (int(tok),), float(lp)) for tok, lp in zip(first_ids, first_lp)]
    active = list(range(n))
    depth = 1
    while active or frontier:
        grow, blank = [], set()
        for e, path, lp in frontier:
            if hit10[e]:
                continue
            text = _clean(decode(list(path)))
            if text == events[e][2]:
                hit10[e], path_lp[e] = True, lp
            elif depth < depth_limit and _could_become(text, events[e][2]) and not (text == "" and e in blank):
                grow.append((e, path, lp))
                if text == "":
                    blank.add(e)
        grow = [g for g in grow if not hit10[g[0]]]
        steps = ask([(events[e][0], events[e][1], tuple(greedy[e][0])) for e in active] + [(events[e][0], events[e][1], p) for e, p, _ in grow])
        still = []
        for e, step in zip(active, steps):
            path, lp = greedy[e]
            nxt = int(step.top_ids[0])
            if vocab.ends[nxt] if nxt < len(vocab.ends) else True:
                if faithful:  # the seed multiplies in the probability of the token that ended the word
                    greedy[e] = (path, lp + float(step.top_lp[0]))
                continue
            greedy[e] = (path + [nxt], lp + float(step.top_lp[0]))
            if len(path) + 1 < GREEDY_DEPTH:
                still.append(e)
        active = still
        searched = steps[len(steps) - len(grow) :] if grow else []
        frontier = [(e, p + (int(t),), lp + float(tl)) for (e, p, lp), s in zip(grow, searched) for t, tl in zip(s.top_ids, s.top_lp)]
        depth += 1

    out = []
    for e, (_, _, target) in enumerate(events):
        path, lp = greedy[e]
        word = _clean(decode(path))
        out.append(WordPrediction(word, lp, len(path), word == target, hit10[e] or word == target, float(word_lp[e]), len(actual[e]), path_lp[e]))
    return out

"""The trigram baseline of Meister & Cotterell (2021): an unsmoothed (MLE) word trigram model, as the paper's.

Counts come from ``nltk.lm`` (``MLE`` over padded everygrams of the train lines); each line is a
string ``<s> <s> w1 .. wn </s>``. Generation samples word by word with the strategies of the neural
models; ``</s>`` plays EOS. The paper uses no smoothing, so every context reached while sampling has
continuations (it was seen in training), and the held-out perplexity may diverge (not reported).
"""

from __future__ import annotations

import heapq
from typing import Sequence

import numpy as np

from .causal import STRATEGIES, Generation, sample_seeds

BOS, EOS = "<s>", "</s>"


class TrigramLM:
    family = "ngram"

    def __init__(self, lines: Sequence[str], order: int = 3):
        try:
            from nltk.lm import MLE
            from nltk.lm.preprocessing import padded_everygram_pipeline
        except ImportError as exc:  # pragma: no cover - nltk is a dependency
            from wordbench.errors import SourceError

            raise SourceError("the trigram baseline needs nltk: pip install nltk") from exc
        self.order = order
        grams, vocab = padded_everygram_pipeline(order, [line.split() for line in lines])
        self.lm = MLE(order)
        self.lm.fit(grams, vocab)
        self._dist: dict[tuple[str, ...], tuple[list[str], np.ndarray]] = {}

    def distribution(self, context: tuple[str, ...]) -> tuple[list[str], np.ndarray]:
        """The words seen after ``context`` (the last order-1 words) and their MLE probabilities, most probable first."""
        if context not in self._dist:
            counts = self.lm.counts[list(context)]
            words = sorted(counts, key=lambda w: (-counts[w], w))
            freq = np.array([counts[w] for w in words], dtype=np.float64)
            self._dist[context] = (words, freq / freq.sum())
        return self._dist[context]

    def _step(self, words: list[str], probs: np.ndarray, strategy: str, top_p: float, rng) -> str:
        if strategy == "greedy":
            return words[0]
        if strategy == "nucleus":  # the smallest set of most probable words with mass >= top_p
            keep = int(np.searchsorted(np.cumsum(probs), top_p - 1e-12)) + 1
            words, probs = words[:keep], probs[:keep] / probs[:keep].sum()
        return words[rng.choice(len(words), p=probs)]

    def _sample(self, strategy: str, max_new_tokens: int, top_p: float, rng) -> list[str]:
        out, context = [], (BOS,) * (self.order - 1)
        while len(out) < max_new_tokens:
            word = self._step(*self.distribution(context), strategy, top_p, rng)
            out.append(word)
            if word == EOS:
                break
            context = context[1:] + (word,)
        return out

    def _beam_sample(self, max_new_tokens: int, beams: int, rng) -> list[str]:
        """Beam sampling: each hypothesis's ``beams`` extensions are sampled from the model and the ``beams``
        most probable of all sampled extensions stay on the beam; the most probable finished one wins."""
        alive = [(0.0, [])]
        finished: list[tuple[float, list[str]]] = []
        for _ in range(max_new_tokens):
            candidates = {}
            for logp, seq in alive:
                context = ((BOS,) * (self.order - 1) + tuple(seq))[-(self.order - 1):]
                words, probs = self.distribution(context)
                for i in set(rng.choice(len(words), size=beams, p=probs).tolist()):
                    candidates[tuple(seq) + (words[i],)] = logp + float(np.log(probs[i]))
            best = heapq.nlargest(beams, candidates.items(), key=lambda kv: kv[1])
            alive = []
            for seq, logp in best:
                (finished if seq[-1] == EOS else alive).append((logp, list(seq)))
            if not alive or (finished and max(f[0] for f in finished) >= alive[0][0]):
                break
        pool = finished or alive
        return max(pool, key=lambda h: h[0])[1]

    def generate(self, prompts: Sequence[str], strategy: str = "ancestral", max_new_tokens: int = 256,
                 top_p: float = 0.95, beams: int = 5, seed: int | Sequence[int] = 0, stop_at_newline: bool = True) -> list[Generation]:
        """Unconditional samples (prompts are ignored: the model starts every line from ``<s> <s>``), each from its
        own seed (``sample_seeds``)."""
        if strategy not in STRATEGIES:
            raise ValueError(f"strategy must be one of {', '.join(STRATEGIES)}, not {strategy!r}")
        out = []
        for sample_seed in sample_seeds(seed, len(prompts)):
            rng = np.random.default_rng(sample_seed)
            seq = (self._beam_sample(max_new_tokens, beams, rng) if strategy == "beam"
                   else self._sample(strategy, max_new_tokens, top_p, rng))
            finished = bool(seq) and seq[-1] == EOS
            out.append(Generation(" ".join(seq[:-1] if finished else seq), len(seq), finished))
        return out

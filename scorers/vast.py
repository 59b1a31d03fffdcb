"""VAST scorer (Wolfe & Caliskan 2022): per-layer valence of contextual word embeddings.

Each context goes through the model once with all hidden states (layer 0 = embeddings, the top layer
after the final layer norm where the model has one); the word's subword states are pooled (default
last). SC-WEAT effect size of word w at layer l, with polar sets A (pleasant) and B (unpleasant):
(mean cos(w, A) - mean cos(w, B)) / std_{x in A u B} cos(w, x) (ddof=1); the VAST score of a layer is
the Pearson r of the effect sizes with the lexicon's valence. Polar words count only where the model
keeps them one token, and the larger group is cut to the smaller's size (seeded). Misaligned contexts
use the aligned polar embeddings. The math is vectorized over words x polar words x layers.
"""

from __future__ import annotations

import base64
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from wordbench.builders.errors import ConfigError, DataFormatError
from wordbench.builders.sources.base import seeded_key
from wordbench.builders.vast import SETTINGS
from wordbench.builders.vast_words import POLAR, WEAT_TESTS

from . import stats
from .base import Scorer
from .models import ModelError
from .models.base import POOLS


@dataclass
class Options:
    pool: str = "last"  # first | last | mean | max over the word's subword tokens
    layer: int | None = None  # layer of the isolation curve and the bias tests (default: top)
    max_pcs: int = 12  # the isolation curve removes 0..max_pcs principal components
    null_pcs: int | None = None  # PCs removed before the bias tests (default: the best n on the bleached curve)
    tokenization_setting: str = "random"
    n_resamples: int = 9999  # WEAT permutation test
    seed: int = 0


# --- the math -------------------------------------------------------------------------------------


def _unit(x: np.ndarray) -> np.ndarray:
    return x / np.maximum(np.linalg.norm(x, axis=-1, keepdims=True), 1e-12)


def sc_weat(words: np.ndarray, pleasant: np.ndarray, unpleasant: np.ndarray) -> np.ndarray:
    """SC-WEAT effect sizes: words [n, L, d], polar sets [a, L, d] and [b, L, d] -> [n, L]."""
    w, a, b = _unit(words), _unit(pleasant), _unit(unpleasant)
    cos_a = np.einsum("nld,ald->nla", w, a)
    cos_b = np.einsum("nld,bld->nlb", w, b)
    both = np.concatenate([cos_a, cos_b], -1)
    return (cos_a.mean(-1) - cos_b.mean(-1)) / both.std(-1, ddof=1)


def pearson_by_layer(effects: np.ndarray, valence: np.ndarray) -> np.ndarray:
    """Pearson r of each column of ``effects`` [n, L] with ``valence`` [n]."""
    e = effects - effects.mean(0)
    v = valence - valence.mean()
    return (e * v[:, None]).sum(0) / np.sqrt((e ** 2).sum(0) * (v ** 2).sum())


def top_components(vectors: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
    """(mean, top-``k`` principal directions [k, d]) of ``vectors`` [n, d]."""
    mean = vectors.mean(0)
    _, _, vt = np.linalg.svd(vectors - mean, full_matrices=False)
    return mean, vt[:k]


def nullify(vectors: np.ndarray, mean: np.ndarray, components: np.ndarray) -> np.ndarray:
    """Mean-centre and remove the projections on ``components``."""
    centred = vectors - mean
    return centred - centred @ components.T @ components


def weat(x: np.ndarray, y: np.ndarray, a: np.ndarray, b: np.ndarray, n_resamples: int, seed: int) -> tuple[float, float]:
    """WEAT effect size d (sample std) and the one-sided permutation p of Caliskan et al. (2017); vectors [n, d]."""
    def assoc(w):
        w, au, bu = _unit(w), _unit(a), _unit(b)
        return (w @ au.T).mean(1) - (w @ bu.T).mean(1)

    sx, sy = assoc(x), assoc(y)
    d = (sx.mean() - sy.mean()) / np.concatenate([sx, sy]).std(ddof=1)
    p = stats.mean_difference_test(sx, sy, n_resamples, seed, alternative="greater").pvalue
    return float(d), float(p)


def select_polar(entries: list[tuple[str, str, int]], seed: int) -> dict[str, list[int]]:
    """Indices of the polar words to use: one token only, the larger pole cut at random (seeded) to the smaller's size.

    ``entries``: (word, pole, number of tokens) per polar context.
    """
    chosen = {pole: [i for i, (_, g, n) in enumerate(entries) if g == pole and n == 1] for pole in POLAR}
    if not all(chosen.values()):
        empty = [p for p in POLAR if not chosen[p]]
        raise ModelError(f"the model tokenizes no {' or '.join(empty)} polar word as one token; SC-WEAT needs single-token polar words")
    size = min(len(v) for v in chosen.values())
    return {pole: sorted(sorted(idx, key=lambda i: seeded_key(seed, entries[i][0]))[:size]) for pole, idx in chosen.items()}


def encode_vector(v: np.ndarray) -> str:
    return base64.b64encode(np.asarray(v, dtype=np.float16).tobytes()).decode()


def decode_vector(s: str) -> np.ndarray:
    return np.frombuffer(base64.b64decode(s), dtype=np.float16).astype(np.float64)


# --- the scorer -----------------------------------------------------------------------------------


class VASTScorer(Scorer):
    name = "vast"
    families = ("causal", "masked", "encoder", "seq2seq")
    chunk_size = 256
    Options = Options

    def __init__(self, **options):
        super().__init__(**options)
        if self.opts.pool not in POOLS:
            raise ConfigError(f"vast: pool must be one of {', '.join(POOLS)}")
        if self.opts.tokenization_setting not in SETTINGS:
            raise ConfigError(f"vast: tokenization_setting must be one of {', '.join(SETTINGS)}")
        self.rows: list[dict] = []
        self._polar: dict[str, tuple[np.ndarray, np.ndarray]] = {}

    @property
    def settings(self) -> dict[str, object]:
        o = self.opts
        return {"pool": o.pool, "layer": "top" if o.layer is None else o.layer, "max_pcs": o.max_pcs,
                "null_pcs": "best" if o.null_pcs is None else o.null_pcs, "tokenization_setting": o.tokenization_setting,
                "n_resamples": o.n_resamples, "seed": o.seed}

    def prepare(self, data: dict) -> None:
        self.rows = [r for split in data["default"].values() for r in split]

    def stratum(self, row: dict) -> object:
        """--limit samples lexicon words by valence class (the aligned templates' five classes)."""
        v = row["valence9"]
        return None if not np.isfinite(v) else sum(v > c for c in (2.5, 4.0, 6.0, 7.5))

    def sample_unit(self, row: dict) -> str:
        return row["word"]  # a word is kept with all its contexts

    def always_keep(self, row: dict) -> bool:
        return row["group"] != "lexicon"  # polar and WEAT words: every run needs them

    def _layer(self, model) -> int:
        layer = model.num_layers if self.opts.layer is None else int(self.opts.layer)
        if not 0 <= layer <= model.num_layers:
            raise ConfigError(f"vast: layer must be between 0 and {model.num_layers}")
        return layer

    def _polar_states(self, model, setting: str) -> tuple[np.ndarray, np.ndarray]:
        """Pooled states of the selected pleasant and unpleasant words in ``setting`` (misaligned: aligned)."""
        source = "aligned" if setting == "misaligned" else setting
        if source not in self._polar:
            rows = [r for r in self.rows if r["setting"] == source and r["group"] in POLAR]
            if not rows:
                raise ConfigError(f"the dataset has no polar-word contexts for the {source} setting")
            texts, spans = [r["context"] for r in rows], [(r["start"], r["end"]) for r in rows]
            counts = model.span_token_counts(texts, spans)
            chosen = select_polar([(r["word"], r["group"], n) for r, n in zip(rows, counts)], self.opts.seed)
            states = model.hidden_states(texts, spans, self.opts.pool)
            self._polar[source] = (states[chosen["pleasant"]], states[chosen["unpleasant"]])
        return self._polar[source]

    def score(self, model, items: list[dict]) -> list[dict]:
        for r in items:
            if r["context"][r["start"]:r["end"]].lower() != r["word"].lower():
                raise DataFormatError(f"row {r['id']}: the word {r['word']!r} is not at {r['start']}:{r['end']} of {r['context']!r}")
        texts, spans = [r["context"] for r in items], [(r["start"], r["end"]) for r in items]
        states = model.hidden_states(texts, spans, self.opts.pool)  # [n, layers + 1, dim]
        counts = model.span_token_counts(texts, spans)
        layer = self._layer(model)
        effects: dict[int, list[float]] = {}
        for setting in dict.fromkeys(r["setting"] for r in items):
            idx = [i for i, r in enumerate(items) if r["setting"] == setting and r["group"] == "lexicon"]
            if idx:
                es = sc_weat(states[idx], *self._polar_states(model, setting))
                effects.update({i: [round(float(v), 6) for v in row] for i, row in zip(idx, es)})
        return [{"id": r["id"], "word": r["word"], "group": r["group"], "setting": r["setting"],
                 "valence": r["valence"] if np.isfinite(r["valence"]) else None,
                 "tokens": n, "effect_sizes": effects.get(i), "vector": encode_vector(states[i, layer])}
                for i, (r, n) in enumerate(zip(items, counts))]

    # --- summary --------------------------------------------------------------------------------
    def summarize(self, records: list[dict]) -> dict:
        o = self.opts
        by_setting: dict[str, list[dict]] = {}
        for r in records:
            by_setting.setdefault(r["setting"], []).append(r)
        layers = {}
        for setting, recs in by_setting.items():
            lex = [r for r in recs if r["group"] == "lexicon"]
            if len(lex) >= 3:
                layers[setting] = {"n": len(lex), "vast": _vast([r["effect_sizes"] for r in lex], [r["valence"] for r in lex]).tolist()}
        tokenization = self._tokenization(by_setting)
        isolation = {s: self._isolation(by_setting, s) for s in by_setting if any(r["group"] == "lexicon" for r in by_setting[s])}
        bias = self._bias(by_setting, isolation.get("bleached"))
        return {"layers": layers, "tokenization": tokenization, "isolation": {s: curve for s, (curve, _, _) in isolation.items()},
                "bias": bias, "pool": o.pool}

    def _tokenization(self, by_setting: dict) -> dict:
        setting = self.opts.tokenization_setting if self.opts.tokenization_setting in by_setting else "bleached"
        lex = [r for r in by_setting.get(setting, []) if r["group"] == "lexicon"]
        single = [r for r in lex if r["tokens"] == 1]
        multi = [r for r in lex if r["tokens"] > 1]
        size = min(len(single), len(multi))
        if size < 3:
            return {"setting": setting, "size": size, "single": None, "multi": None}
        pick = lambda rs: sorted(rs, key=lambda r: seeded_key(self.opts.seed, r["id"]))[:size]  # noqa: E731
        return {"setting": setting, "size": size, "available": {"single": len(single), "multi": len(multi)},
                **{name: _vast([r["effect_sizes"] for r in pick(rs)], [r["valence"] for r in pick(rs)]).tolist()
                   for name, rs in (("single", single), ("multi", multi))}}

    def _stack(self, by_setting: dict, setting: str):
        """Lexicon vectors, their valence and the selected polar vectors of ``setting`` at the isolation layer."""
        lex = [r for r in by_setting[setting] if r["group"] == "lexicon"]
        polar_recs = [r for r in by_setting.get("aligned" if setting == "misaligned" else setting, []) if r["group"] in POLAR]
        chosen = select_polar([(r["word"], r["group"], r["tokens"]) for r in polar_recs], self.opts.seed)
        vec = lambda rs: np.stack([decode_vector(r["vector"]) for r in rs])  # noqa: E731
        return (vec(lex), np.array([r["valence"] for r in lex]), vec([polar_recs[i] for i in chosen["pleasant"]]),
                vec([polar_recs[i] for i in chosen["unpleasant"]]))

    def _isolation(self, by_setting: dict, setting: str) -> tuple[list[float], np.ndarray, np.ndarray]:
        """VAST at the isolation layer after removing the top n principal components, n = 0..max_pcs (Figure 3)."""
        words, valence, a, b = self._stack(by_setting, setting)
        everything = np.concatenate([words, a, b])
        k = min(int(self.opts.max_pcs), min(everything.shape) - 1)
        mean, comps = top_components(everything, k)
        curve = []
        for n in range(k + 1):
            w, pa, pb = (nullify(x, mean, comps[:n]) for x in (words, a, b))
            curve.append(float(pearson_by_layer(sc_weat(w[:, None], pa[:, None], pb[:, None]), valence)[0]))
        return curve, mean, comps

    def _bias(self, by_setting: dict, isolation: tuple | None) -> dict:
        """WEAT effect sizes and p-values in the bleached setting, before and after nullifying PCs."""
        weat_recs = {}
        for r in by_setting.get("bleached", []):
            if r["group"].startswith("weat:"):
                weat_recs.setdefault(r["group"][5:], []).append(decode_vector(r["vector"]))
        if not weat_recs:
            return {}
        n = self.opts.null_pcs
        if n is None:
            n = int(np.argmax(isolation[0][1:]) + 1) if isolation and len(isolation[0]) > 1 else 0
        tests = {}
        for name, sets in WEAT_TESTS.items():
            if not all(s in weat_recs for s in sets):
                continue
            vectors = [np.stack(weat_recs[s]) for s in sets]
            before = weat(*vectors, int(self.opts.n_resamples), int(self.opts.seed))
            after = before
            if isolation and n:
                after = weat(*(nullify(v, isolation[1], isolation[2][:n]) for v in vectors),
                             int(self.opts.n_resamples), int(self.opts.seed))
            tests[name] = {"d": before[0], "p": before[1], "d_nullified": after[0], "p_nullified": after[1]}
        return {"null_pcs": n, "tests": tests}

    def report(self, summaries: list[dict]) -> str:
        from .vast_report import report

        return report(summaries)

    def compare_plots(self, summaries: list[dict], folder: Path) -> list[str]:
        from .vast_report import figures

        return figures(summaries, folder)


def _vast(effects, valence) -> np.ndarray:
    return pearson_by_layer(np.asarray(effects, dtype=np.float64), np.asarray(valence, dtype=np.float64))

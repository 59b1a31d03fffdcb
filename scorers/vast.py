"""VAST scorer (Wolfe & Caliskan 2022): per-layer valence of contextual word embeddings.

Each context goes through the model once with all hidden states (layer 0 = embeddings, the top layer
after the final layer norm where the model has one); the word's subword states are pooled (default
last). SC-WEAT effect size of word w at layer l, with polar sets A (pleasant) and B (unpleasant):
(mean cos(w, A) - mean cos(w, B)) / std_{x in A u B} cos(w, x) (ddof=1); the VAST score of a layer is
the Pearson r of the effect sizes with the lexicon's valence. As the paper's text, only the tokenization
experiment keeps single-token polar words with the larger group cut to the smaller's size (seeded);
``polar_filter`` changes that. Misaligned contexts use the aligned polar embeddings. Semantic isolation
(Mu & Viswanath 2018) mean-centres and nullifies the top principal components of the union of every
word the run embeds in the setting (lexica, polar and WEAT terms: the authors' VAST.py), at the top
layer and at the best VAST layer; the bias tests project the WEAT vectors with the same basis, at the
paper's n = round(d / 100). The math is vectorized over words x polar words x layers.
"""

from __future__ import annotations

import base64
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

import numpy as np

from wordbench.errors import ConfigError, DataFormatError
from wordbench.hashing import seeded_key
from wordbench.spec import Spec, opt, seed_opt
from wordbench.builders.vast import span_problem
from wordbench.builders.vast_words import valence_class
from wordbench.builders.vast_words import POLAR, VAD_SETS, WEAT_TESTS, WORD_SETS

from . import stats
from .stats import finite_argmax
from .base import RunContext
from .kinds import RatingsKind, correlation_cell
from .models import ModelError


@dataclass(frozen=True)
class Options(Spec):
    pool: Literal["first", "last", "mean", "max"] = opt("last", "pooling over the word's subword tokens (the paper: last)")
    layer: int | None = opt(None, "layer of the isolation curve and the bias tests (default: the top layer)", ge=0, model_max="layers")
    best_layer: int | None = opt(None, "second isolation layer (default: the best VAST layer of each setting, found on a probe)", ge=0,
                                 model_max="layers")
    probe_words: int = opt(1000, "lexicon words (a seeded sample) the best layer is found on", ge=3)
    max_pcs: int = opt(12, "the isolation curve removes 0..max_pcs principal components", ge=0)
    null_pcs: Literal["paper", "best"] | int = opt(
        "paper", "PCs nullified for Table 1 and the bias tests: paper (round(dim/100)), best (may be 0), or a number", ge=0)
    pca_basis: Literal["union", "run"] = opt("union", "union: every word the run embeds in the setting (authors' code); run: lexicon + polar words")
    polar_filter: Literal["tokenization", "all", "none"] = opt(
        "tokenization", "single-token, equalized polar words in: the tokenization experiment (paper), all settings, or none")
    bos: Literal["none", "prepend", "auto"] = opt(
        "none", "causal models: none (the authors' GPT-2 runs), prepend (a BOS before every context), or auto (wordbench's "
        "former default: prepend, none under --faithful)")
    tokenization_setting: Literal["bleached", "aligned", "misaligned", "random"] = opt(
        "random", "the setting of the tokenization experiment (bleached when the data lacks it)")
    n_resamples: int = opt(9999, "permutations of the WEAT test", ge=1)
    seed: int = seed_opt()




# --- the math -------------------------------------------------------------------------------------


def _unit(x: np.ndarray) -> np.ndarray:
    return x / np.maximum(np.linalg.norm(x, axis=-1, keepdims=True), 1e-12)


def sc_weat(words: np.ndarray, pleasant: np.ndarray, unpleasant: np.ndarray) -> np.ndarray:
    """SC-WEAT effect sizes: words [n, L, d], polar sets [a, L, d] and [b, L, d] -> [n, L]."""
    w, a, b = _unit(words), _unit(pleasant), _unit(unpleasant)
    cos_a = np.einsum("nld,ald->nla", w, a)
    cos_b = np.einsum("nld,bld->nlb", w, b)
    both = np.concatenate([cos_a, cos_b], -1)
    with np.errstate(invalid="ignore", divide="ignore"):  # a state equally close to every polar word: NaN, excluded by the scorer
        return (cos_a.mean(-1) - cos_b.mean(-1)) / both.std(-1, ddof=1)


def pearson_by_layer(effects: np.ndarray, valence: np.ndarray) -> np.ndarray:
    """Pearson r of each column of ``effects`` [n, L] with ``valence`` [n]."""
    return stats.pearson(effects, np.asarray(valence)[:, None], axis=0)


def top_components(vectors: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
    """(mean, top-``k`` principal directions [k, d]) of ``vectors`` [n, d]."""
    mean = vectors.mean(0)
    _, _, vt = np.linalg.svd(vectors - mean, full_matrices=False)
    return mean, vt[:k]


def nullify(vectors: np.ndarray, mean: np.ndarray, components: np.ndarray) -> np.ndarray:
    """Mean-centre and remove the projections on ``components``."""
    centred = vectors - mean
    return centred - centred @ components.T @ components


def weat_scores(x: np.ndarray, y: np.ndarray, a: np.ndarray, b: np.ndarray) -> tuple[float, np.ndarray, np.ndarray]:
    """WEAT effect size d (sample std) and the association scores s(x, A, B), s(y, A, B); vectors [n, d]."""
    def assoc(w):
        w, au, bu = _unit(w), _unit(a), _unit(b)
        return (w @ au.T).mean(1) - (w @ bu.T).mean(1)

    sx, sy = assoc(x), assoc(y)
    return float((sx.mean() - sy.mean()) / np.concatenate([sx, sy]).std(ddof=1)), sx, sy


def weat(x: np.ndarray, y: np.ndarray, a: np.ndarray, b: np.ndarray, n_resamples: int, seed: int) -> tuple[float, float]:
    """WEAT effect size d (sample std) and the one-sided permutation p of Caliskan et al. (2017); vectors [n, d]."""
    d, sx, sy = weat_scores(x, y, a, b)
    return d, float(stats.mean_difference_test(sx, sy, n_resamples, seed, alternative="greater").pvalue)


def paper_pcs(dim: int) -> int:
    """Mu & Viswanath's n = d / 100 (8 for GPT-2's 768 dimensions)."""
    return int(round(dim / 100))


def isolation_curve(words, valence, a, b, mean: np.ndarray, comps: np.ndarray) -> list[float]:
    """VAST of ``words`` [n, d] after mean-centring and nullifying the top n of ``comps``, n = 0..len(comps)."""
    return [float(pearson_by_layer(sc_weat(*(nullify(x, mean, comps[:n])[:, None] for x in (words, a, b))), valence)[0])
            for n in range(len(comps) + 1)]


def select_all(entries: list[tuple[str, str, int]]) -> dict[str, list[int]]:
    """Every polar word of each pole, whatever its token count."""
    chosen = {pole: [i for i, (_, g, _n) in enumerate(entries) if g == pole] for pole in POLAR}
    empty = [p for p in POLAR if not chosen[p]]
    if empty:
        raise ModelError(f"the dataset has no {' or '.join(empty)} polar word")
    return chosen


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


MIN_LEXICON_WORDS = 3


def too_few(valences) -> str | None:
    """Why a Pearson r with these words' valences is undefined (None: it is defined): fewer than
    ``MIN_LEXICON_WORDS`` words, or one valence for all."""
    valences = [v for v in valences if v is not None and np.isfinite(v)]
    if len(valences) < MIN_LEXICON_WORDS:
        return f"{len(valences)} lexicon word(s), a correlation with valence needs at least {MIN_LEXICON_WORDS}"
    if len(set(valences)) < 2:
        return f"every one has the valence {valences[0]}, a correlation with a constant is undefined"
    return None


class VASTScorer(RatingsKind):
    """The ratings kind on valence: per layer, Pearson's r of each lexicon word's SC-WEAT effect size with its human
    valence; its headline (bleached, top layer) with the kind's paired bootstrap interval."""

    name = "vast"
    metric_version = 2  # 2: Table 1's "before" with its paired bootstrap interval (``wordbench rescore`` adds it)
    chunk_size = 256
    Options = Options

    def __init__(self, **options):
        super().__init__(**options)
        self.rows: list[dict] = []
        self.selected: list[dict] = []
        self.pairs: list[dict] = []
        self._polar: dict[tuple[str, bool], tuple[np.ndarray, np.ndarray] | None] = {}
        self._best: dict[str, int] = {}
        self._cache: dict[str, np.ndarray] = {}  # states of probe rows until score() takes them
        self._seen_checked = False

    @property
    def bos_on(self) -> bool:
        return self.options.bos == "prepend" or (self.options.bos == "auto" and not self.faithful)

    @property
    def settings(self) -> dict[str, object]:
        o = self.options
        return {"pool": o.pool, "layer": "top" if o.layer is None else o.layer,
                "best_layer": f"probe{o.probe_words}" if o.best_layer is None else o.best_layer, "max_pcs": o.max_pcs,
                "null_pcs": o.null_pcs, "pca_basis": o.pca_basis, "polar_filter": o.polar_filter,
                "bos": "prepend" if self.bos_on else "none", "tokenization_setting": o.tokenization_setting,
                "unknown_token_words": "excluded",
                "n_resamples": o.n_resamples, "seed": o.seed}

    def prepare(self, context: RunContext) -> None:
        super().prepare(context)
        data = context.data
        self.rows = [r for split in data["default"].values() for r in split]
        self.pairs = [r for split in data["similarity"].values() for r in split] if "similarity" in data else []
        # VAST is a correlation with human valence: undefined for fewer than 3 words or one valence (checked
        # here, before the model loads, not as an All-NaN layer search after it).
        valences = {r["valence"] for r in self.rows if r["group"] == "lexicon" and np.isfinite(r["valence"])}
        words = {r["word"] for r in self.rows if r["group"] == "lexicon"}
        if len(words) < MIN_LEXICON_WORDS:
            raise DataFormatError(f"vast: the data holds {len(words)} lexicon word(s); a correlation with valence needs at least {MIN_LEXICON_WORDS}")
        if len(valences) < 2:
            raise DataFormatError(f"vast: every lexicon word has the valence {next(iter(valences), 'none')}: "
                                  "a correlation with a constant is undefined; check the lexicon's valence column")

    @property
    def _tokenization_setting(self) -> str:
        """The tokenization experiment's setting: the option's when the dataset has it, else bleached."""
        wanted = self.options.tokenization_setting
        return wanted if any(r["setting"] == wanted for r in self.rows) else "bleached"

    def work_items(self, rows: list[dict]) -> list[dict]:
        self.selected = rows
        return rows

    def stratum(self, row: dict) -> object:
        """--limit samples lexicon words by valence class (the aligned templates' five classes)."""
        v = row["valence9"]
        return None if not np.isfinite(v) else valence_class(v, self.faithful)

    def sample_unit(self, row: dict) -> str:
        return row["word"]  # a word is kept with all its contexts

    def always_keep(self, row: dict) -> bool:
        """Polar, WEAT and similarity words, and the whole PCA basis (other lexica and the WEAT / dominance / arousal
        terms): a sample's basis must not shrink towards its lexicon words, whose PC1 is valence itself."""
        return row["group"] in POLAR or row["group"] == "basis" or row["group"].startswith(("weat:", "sim:"))

    def _layer(self, model) -> int:
        """The isolation layer (its range was checked with the model's config: ``check_model``)."""
        return model.num_layers if self.options.layer is None else int(self.options.layer)

    def _single(self, tokenization: bool) -> bool:
        """Whether the polar words are cut to single-token, equal groups (main scores or the tokenization experiment)."""
        return self.options.polar_filter == "all" or (tokenization and self.options.polar_filter == "tokenization")

    def _polar_states(self, model, setting: str, single: bool):
        """Pooled states of the chosen pleasant and unpleasant words in ``setting`` (misaligned: aligned);
        None when ``single`` and the model keeps no polar word of a pole one token."""
        source = "aligned" if setting == "misaligned" else setting
        if (source, single) not in self._polar:
            rows = [r for r in self.rows if r["setting"] == source and r["group"] in POLAR]
            if not rows:
                raise ConfigError(f"the dataset has no polar-word contexts for the {source} setting")
            ids = model.span_token_ids([r["context"] for r in rows], [(r["start"], r["end"]) for r in rows], bos=self.bos_on)
            rows, counts = zip(*[(r, len(i)) for r, i in zip(rows, ids) if not model.unseen(i)]) if ids else ((), ())
            if not rows:
                raise ModelError(f"{model.info.name} sees none of the polar words of the {source} setting: each is its unknown token")
            texts, spans = [r["context"] for r in rows], [(r["start"], r["end"]) for r in rows]
            entries = [(r["word"], r["group"], n) for r, n in zip(rows, counts)]
            try:
                chosen = select_polar(entries, self.options.seed) if single else select_all(entries)
            except ModelError:
                if not single or self.options.polar_filter == "all":
                    raise
                self._polar[(source, single)] = None
                return None
            states = model.hidden_states(texts, spans, self.options.pool, bos=self.bos_on)
            self._polar[(source, single)] = (states[chosen["pleasant"]], states[chosen["unpleasant"]])
        return self._polar[(source, single)]

    def _states(self, model, rows: list[dict]) -> np.ndarray:
        """Pooled hidden states [n, layers + 1, dim] of rows; those the best-layer probe embedded come from its cache."""
        todo = [r for r in rows if r["id"] not in self._cache]
        if todo:
            fresh = model.hidden_states([r["context"] for r in todo], [(r["start"], r["end"]) for r in todo], self.options.pool, bos=self.bos_on)
            got = dict(zip((r["id"] for r in todo), fresh))
        else:
            got = {}
        return np.stack([got[r["id"]] if r["id"] in got else self._cache.pop(r["id"]) for r in rows])

    def _check_seen(self, model) -> None:
        """Once per run, before any state is computed: each setting's selected lexicon words the model sees (not its
        unknown token alone) must give a correlation; else one line, not an empty table or an All-NaN layer search."""
        if self._seen_checked:
            return
        lex = [r for r in (self.selected or self.rows) if r["group"] == "lexicon"]
        ids = model.span_token_ids([r["context"] for r in lex], [(r["start"], r["end"]) for r in lex], bos=self.bos_on)
        for setting in dict.fromkeys(r["setting"] for r in lex):
            rows = [r for r, i in zip(lex, ids) if r["setting"] == setting]
            seen = {r["word"]: r["valence"] for r, i in zip(lex, ids) if r["setting"] == setting and not model.unseen(i)}
            why = too_few(list(seen.values()))
            if why:
                raise ModelError(f"vast: {model.info.name} sees {len(seen)} of the {len({r['word'] for r in rows})} lexicon words of the "
                                 f"{setting} setting (the others are its unknown token alone): {why}; score a model whose tokenizer covers the lexicon")
        self._seen_checked = True

    def _best_layer(self, model, setting: str) -> int:
        """The best VAST layer of ``setting``: given, or the argmax on a seeded probe of the run's lexicon words."""
        if self.options.best_layer is not None:
            return int(self.options.best_layer)
        if setting not in self._best:
            lex = [r for r in (self.selected or self.rows) if r["setting"] == setting and r["group"] == "lexicon"]
            probe = sorted(lex, key=lambda r: seeded_key(self.options.seed, r["id"]))[: self.options.probe_words]
            ids = model.span_token_ids([r["context"] for r in probe], [(r["start"], r["end"]) for r in probe], bos=self.bos_on)
            probe = [r for r, i in zip(probe, ids) if not model.unseen(i)]  # as score(): an unknown token is no word
            self._best[setting] = self._layer(model)  # a probe with no defined correlation keeps the isolation layer
            if too_few([r["valence"] for r in probe]) is None:
                states = self._states(model, probe)
                self._cache.update({r["id"]: st for r, st in zip(probe, states)})  # scored once: score() takes them from here
                vast = _vast(sc_weat(states, *self._polar_states(model, setting, self._single(False))), [r["valence"] for r in probe])
                if finite_argmax(vast) is not None:
                    self._best[setting] = finite_argmax(vast)
        return self._best[setting]

    def score(self, model, items: list[dict]) -> list[dict]:
        for r in items:  # data given as rows (the API) has not met the builder's row_problem
            problem = span_problem(r["word"], r["context"], r["start"], r["end"])
            if problem:
                raise DataFormatError(f"row {r['id']}: {problem}")
        self._check_seen(model)
        layer = self._layer(model)
        best = {s: self._best_layer(model, s) for s in dict.fromkeys(r["setting"] for r in items)}
        states = self._states(model, items)  # [n, layers + 1, dim]
        ids = model.span_token_ids([r["context"] for r in items], [(r["start"], r["end"]) for r in items], bos=self.bos_on)
        counts = [len(i) for i in ids]
        unseen = {i for i, x in enumerate(ids) if model.unseen(x)}  # the model's unknown token only: never scored as a word
        effects: dict[int, list[float]] = {}
        single: dict[int, list[float]] = {}
        constant: set[int] = set()  # words whose state gives no SC-WEAT effect size at some layer
        for setting in best:
            idx = [i for i, r in enumerate(items) if r["setting"] == setting and r["group"] == "lexicon" and i not in unseen]
            if not idx:
                continue
            es = sc_weat(states[idx], *self._polar_states(model, setting, self._single(False)))
            constant.update(i for i, row in zip(idx, es) if not np.isfinite(row).all())  # equally close to every polar word
            effects.update({i: [round(float(v), 6) for v in row] for i, row in zip(idx, es) if i not in constant})
            if setting == self._tokenization_setting and self._single(True) != self._single(False):
                polar = self._polar_states(model, setting, True)
                if polar is not None:
                    es = sc_weat(states[idx], *polar)
                    single.update({i: [round(float(v), 6) for v in row] for i, row in zip(idx, es)})
        out = []
        for i, (r, n) in enumerate(zip(items, counts)):
            rec = {"id": r["id"], "word": r["word"], "group": r["group"], "setting": r["setting"],
                   "valence": r["valence"] if np.isfinite(r["valence"]) else None, "tokens": n,
                   "effect_sizes": effects.get(i), "vector": None if i in unseen else encode_vector(states[i, layer])}
            if i in unseen or i in constant:
                out.append({**rec, "effect_sizes": None, "vector": None, "excluded": "unknown_token" if i in unseen else "constant_state"})
                continue
            if i in single:
                rec["effect_sizes_single"] = single[i]
            if r["group"].startswith("sim:") or r["group"] in POLAR:  # every layer: word similarity per layer; polar
                rec["vectors"] = encode_vector(states[i])  # words serve misaligned isolation at another setting's best layer
            if best[r["setting"]] != layer:
                rec["best_layer"] = best[r["setting"]]
                rec["vector_best"] = encode_vector(states[i, best[r["setting"]]])
            out.append(rec)
        return out

    # --- summary --------------------------------------------------------------------------------
    def summarize(self, records: list[dict]) -> dict:
        o = self.options
        excluded = {why: sorted({r["word"] for r in records if r.get("excluded") == why}) for why in ("unknown_token", "constant_state")}
        records = [r for r in records if not r.get("excluded")]
        by_setting: dict[str, list[dict]] = {}
        for r in records:
            by_setting.setdefault(r["setting"], []).append(r)
        layers, uncorrelated, effects = {}, {}, {}
        for setting, recs in by_setting.items():
            lex = [r for r in recs if r["group"] == "lexicon"]
            why = too_few([r["valence"] for r in lex])
            if why:  # counted and said, not a table of NaN
                uncorrelated[setting] = why
                continue
            effects[setting] = np.asarray([r["effect_sizes"] for r in lex], dtype=np.float64), [r["valence"] for r in lex]
            layers[setting] = {"n": len(lex), "vast": _vast(*effects[setting]).tolist()}
        if not layers:
            raise DataFormatError("vast: no setting keeps lexicon words enough for a correlation once the words the model cannot "
                                  f"embed are excluded ({len(excluded['unknown_token'])} unknown token, {len(excluded['constant_state'])} "
                                  f"constant state): " + "; ".join(f"{k}: {v}" for k, v in uncorrelated.items()))
        top = max((len(v["vast"]) for v in layers.values()), default=1) - 1
        layer = top if o.layer is None else int(o.layer)
        dim = next((len(decode_vector(r["vector"])) for r in records), 0)
        k_paper = paper_pcs(dim) if o.null_pcs == "paper" else None
        k = max(int(o.max_pcs), k_paper or 0, int(o.null_pcs) if str(o.null_pcs).isdigit() else 0)
        isolation, top_pcs = {}, {}
        for setting in layers:
            best = next((r["best_layer"] for r in by_setting[setting] if "best_layer" in r), layer)
            curve, top_pcs[setting] = self._isolation(by_setting, setting, "vector", layer, k)
            curves = {"top": curve}
            if best != layer:
                curves["best"] = self._isolation(by_setting, setting, "vector_best", best, k)[0]
            isolation[setting] = {"layer": layer, "best_layer": best, "argmax_layer": finite_argmax(layers[setting]["vast"]),
                                  "basis_words": self._basis_size(by_setting, setting),
                                  **{f"curve_{key}": c for key, c in curves.items()}}
        bleached = isolation.get("bleached", {}).get("curve_top") or []
        n = k_paper if k_paper is not None else (int(np.argmax(bleached)) if o.null_pcs == "best" and bleached else int(o.null_pcs) if str(o.null_pcs).isdigit() else 0)
        table1 = {}
        for setting, iso in isolation.items():
            row = {}
            for key, lay in (("top", iso["layer"]), ("best", iso["best_layer"])):
                curve = iso.get(f"curve_{key}", iso["curve_top"])
                sizes, valence = effects[setting]
                row[key] = {"layer": lay, "before": layers[setting]["vast"][lay],
                            "before_ci": correlation_cell("r", sizes[:, lay], valence, stats.pearson)["r_ci"],
                            "after": curve[n] if n < len(curve) else None, "best_n": int(np.argmax(curve)), "best_after": max(curve)}
            table1[setting] = row
        first = self.rows[0] if self.rows else {}
        meta = {**{f"excluded_{why}": {"words": len(words), "examples": words[:10]} for why, words in excluded.items()},
                "settings_without_correlation": uncorrelated,
                "lexicon": first.get("lexicon"), "language": first.get("language"), "pool": o.pool, "layer": layer, "dim": dim, "null_pcs": n, "null_pcs_rule": str(o.null_pcs), "pca_basis": o.pca_basis,
                "polar_filter": o.polar_filter, "bos": "prepend" if self.bos_on else "none"}
        best = isolation.get("bleached", {}).get("best_layer", layer)
        return {**meta, "layers": layers, "tokenization": self._tokenization(by_setting), "isolation": isolation,
                "table1": table1, "bias": self._bias(by_setting, n, k, top_pcs.get("bleached")), "similarity": self._similarity(records, layer, best, n, k)}

    def _similarity(self, records: list[dict], layer: int, best: int, n: int, k: int) -> dict:
        """Spearman rho of cosine similarity with the human scores per layer, and after nullifying n PCs at the top and
        the best (bleached) layer; the PCA basis is the task's own words, as the authors' VAST.py (Figure 4)."""
        from scipy import stats as sps

        out = {}
        for task in dict.fromkeys(p["task"] for p in self.pairs):
            recs = {r["word"]: r for r in records if r["group"] == f"sim:{task}"}
            if not recs:
                continue
            pairs = [p for p in self.pairs if p["task"] == task and p["word1"] in recs and p["word2"] in recs]
            words = list(recs)
            dim = len(decode_vector(recs[words[0]]["vector"]))
            states = np.stack([decode_vector(recs[w]["vectors"]).reshape(-1, dim) for w in words])  # [words, layers, d]
            at = {w: i for i, w in enumerate(words)}
            a, b = [at[p["word1"]] for p in pairs], [at[p["word2"]] for p in pairs]
            human = [p["score"] for p in pairs]
            u = _unit(states)
            before = [float(sps.spearmanr(np.einsum("nd,nd->n", u[a, l], u[b, l]), human)[0]) for l in range(states.shape[1])]
            after = {}
            for key, lay in (("top", layer), ("best", best)):
                mean, comps = top_components(states[:, lay], min(k, len(words) - 1))
                curve = []
                for j in range(len(comps) + 1):
                    v = _unit(nullify(states[:, lay], mean, comps[:j]))
                    curve.append(float(sps.spearmanr(np.einsum("nd,nd->n", v[a], v[b]), human)[0]))
                after[key] = {"layer": lay, "before": before[lay], "after": curve[n] if n < len(curve) else None, "curve": curve}
            out[task] = {"pairs": len(pairs), "pairs_total": sum(p["task"] == task for p in self.pairs), "by_layer": before, **after}
        return out

    def _tokenization(self, by_setting: dict) -> dict:
        setting = self._tokenization_setting
        lex = [r for r in by_setting.get(setting, []) if r["group"] == "lexicon"]
        key = "effect_sizes_single" if self._single(True) != self._single(False) else "effect_sizes"
        polar = "single-token, equal groups" if self._single(True) else "all polar words"
        if lex and any(key not in r for r in lex):
            return {"setting": setting, "size": 0, "polar": polar, "single": None, "multi": None,
                    "note": "the model keeps no polar word of a pole one token"}
        single = [r for r in lex if r["tokens"] == 1]
        multi = [r for r in lex if r["tokens"] > 1]
        size = min(len(single), len(multi))
        if size < 3:
            return {"setting": setting, "size": size, "polar": polar, "single": None, "multi": None}
        pick = lambda rs: sorted(rs, key=lambda r: seeded_key(self.options.seed, r["id"]))[:size]  # noqa: E731
        return {"setting": setting, "size": size, "polar": polar, "available": {"single": len(single), "multi": len(multi)},
                **{name: _vast([r[key] for r in pick(rs)], [r["valence"] for r in pick(rs)]).tolist()
                   for name, rs in (("single", single), ("multi", multi))}}

    @staticmethod
    def _vectors(recs: list[dict], field: str, layer: int | None = None) -> np.ndarray:
        """Vectors of records at ``field`` (vector: the isolation layer, vector_best: the setting's best layer);
        records that keep every layer (polar and similarity words) give ``layer`` when it is known."""
        def one(r):
            if layer is not None and "vectors" in r:
                return decode_vector(r["vectors"]).reshape(-1, len(decode_vector(r["vector"])))[layer]
            return decode_vector(r.get(field) or r["vector"])
        return np.stack([one(r) for r in recs])

    def _polar_recs(self, by_setting: dict, setting: str) -> tuple[list[dict], list[dict]]:
        recs = [r for r in by_setting.get("aligned" if setting == "misaligned" else setting, []) if r["group"] in POLAR]
        entries = [(r["word"], r["group"], r["tokens"]) for r in recs]
        chosen = select_polar(entries, self.options.seed) if self._single(False) else select_all(entries)
        return [recs[i] for i in chosen["pleasant"]], [recs[i] for i in chosen["unpleasant"]]

    def _basis_recs(self, by_setting: dict, setting: str, lex: list[dict], polar: list[dict], union: bool = False) -> list[dict]:
        """The PCA basis: ``union`` every word embedded in the setting (and the polar words used), each once;
        ``run`` the scored lexicon words and the chosen polar words (``union`` forces the first)."""
        if self.options.pca_basis == "run" and not union:
            return lex + polar
        recs = list({r["word"]: r for r in _vast_rows(by_setting[setting]) + polar}.values())
        if self.faithful:  # VAST.py stacks the polar and dominance/arousal words a second time (weat_arr)
            twice = {w for name in (*POLAR, *VAD_SETS) for w in WORD_SETS[name]}
            recs += [r for r in recs if r["word"] in twice]
        return recs

    def _basis(self, by_setting: dict, setting: str, field: str, lex: list[dict], polar: list[dict], layer: int | None = None,
               union: bool = False) -> np.ndarray:
        return self._vectors(self._basis_recs(by_setting, setting, lex, polar, union), field, layer)

    def _basis_size(self, by_setting: dict, setting: str) -> int:
        """Distinct words of the setting's PCA basis (the report gives it beside the basis rule)."""
        lex = [r for r in by_setting[setting] if r["group"] == "lexicon"]
        polar = [r for pole in self._polar_recs(by_setting, setting) for r in pole]
        return len({r["word"] for r in self._basis_recs(by_setting, setting, lex, polar)})

    def _isolation(self, by_setting: dict, setting: str, field: str, layer: int, k: int) -> tuple[list[float], tuple[np.ndarray, np.ndarray]]:
        """VAST after nullifying the top n PCs of the basis, n = 0..k (Figure 3), at ``layer`` (``field``), and the
        (mean, PCs) it nullified: in the bleached setting the bias tests reuse them (one SVD)."""
        lex = [r for r in by_setting[setting] if r["group"] == "lexicon"]
        pleasant, unpleasant = self._polar_recs(by_setting, setting)
        basis = self._basis(by_setting, setting, field, lex, pleasant + unpleasant, layer)
        pcs = top_components(basis, min(k, min(basis.shape) - 1))
        return isolation_curve(self._vectors(lex, field), np.array([r["valence"] for r in lex]),
                               self._vectors(pleasant, field, layer), self._vectors(unpleasant, field, layer), *pcs), pcs

    def _bias(self, by_setting: dict, n: int, k: int, pcs: tuple[np.ndarray, np.ndarray] | None) -> dict:
        """WEAT effect sizes and p-values in the bleached setting at ``layer``, before and after nullifying n PCs of
        the isolation step's basis (``pcs``; a run without a bleached lexicon: every word it embeds there, each
        once); d for every n = 0..k (Figure 5)."""
        recs = by_setting.get("bleached", [])
        weat_recs: dict[str, list[dict]] = {}
        for r in recs:
            if r["group"].startswith("weat:"):
                weat_recs.setdefault(r["group"][5:], []).append(r)
        if not weat_recs:
            return {}
        if pcs is None:  # no isolation step here (fewer than 3 lexicon words): the same rule, union if none
            lex = [r for r in recs if r["group"] == "lexicon"]
            polar = [r for pole in self._polar_recs(by_setting, "bleached") for r in pole] if lex else []
            basis = self._basis(by_setting, "bleached", "vector", lex, polar, union=not lex)
            pcs = top_components(basis, min(k, min(basis.shape) - 1))
        mean, comps = pcs
        tests = {}
        for name, sets in WEAT_TESTS.items():
            if not all(s in weat_recs for s in sets):
                continue
            vectors = [self._vectors(weat_recs[s], "vector") for s in sets]
            before = weat(*vectors, int(self.options.n_resamples), int(self.options.seed))
            after = weat(*(nullify(v, mean, comps[:n]) for v in vectors), int(self.options.n_resamples), int(self.options.seed))
            sweep = [weat_scores(*(nullify(v, mean, comps[:j]) for v in vectors))[0] for j in range(len(comps) + 1)]
            tests[name] = {"d": before[0], "p": before[1], "d_nullified": after[0], "p_nullified": after[1], "d_by_pcs": sweep}
        return {"null_pcs": n, "tests": tests}

    def report(self, summaries: list[dict]) -> str:
        from .vast_report import report

        return report(summaries)

    def compare_plots(self, summaries: list[dict], folder: Path) -> list[str]:
        from .vast_report import figures

        return figures(summaries, folder)


def _vast_rows(recs: list[dict]) -> list[dict]:
    """The rows of the VAST run proper (the word-similarity words stay out of its PCA basis)."""
    return [r for r in recs if not r["group"].startswith("sim:")]


def _vast(effects, valence) -> np.ndarray:
    return pearson_by_layer(np.asarray(effects, dtype=np.float64), np.asarray(valence, dtype=np.float64))

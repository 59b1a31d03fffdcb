"""Tables (the paper's Tables 1-4 and Appendix D) and figures (Figures 2-4, rank-frequency, distributions) of tendencies runs."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from . import plots, stats
from .stats import proportion_ci

NOTE = ("Stars: * p < 0.05, ** p < 0.01, *** p < 0.001. KS ranks and TVD: permutation tests over documents; "
        "KS of per-document values: two-sample KS test; Δ mean: permutation test of the difference in means. "
        "*human* rows: mean ± std over samples of the train split of the same size compared with the reference, "
        "i.e. what two human samples differ by.")


def stars(p) -> str:
    """Significance stars of a p-value: *** < 0.001, ** < 0.01, * < 0.05."""
    if p is None or not np.isfinite(p):
        return ""
    return "***" if p < 0.001 else "**" if p < 0.01 else "*" if p < 0.05 else ""


def _f(value, digits: int = 3, p=None) -> str:
    if value is None or (isinstance(value, float) and not np.isfinite(value)):
        return "–"
    return f"{value:.{digits}f}{stars(p)}"


def _pct(share) -> str:
    return "–" if share is None else f"{100 * share:.1f}%"


def _pm(human: dict, key: str, digits: int = 3) -> str:
    mean, std = human["mean"].get(key), human["std"].get(key)
    if mean is None or not np.isfinite(mean):
        return "–"
    return f"{mean:.{digits}f} ± {std:.{digits}f}" if std is not None and np.isfinite(std) else f"{mean:.{digits}f}"


def _rows(summaries: list[dict]):
    """(label, sample statistics) of every strategy of every run."""
    several = len(summaries) > 1
    for s in summaries:
        for name, result in s["metrics"]["samples"].items():
            yield (f"{s['model']['name']} / {name}" if several else name), result, s


def _table1(summaries: list[dict]) -> list[str]:
    """Table 1: the scored model's perplexity on the reference lines."""
    out = ["## Test-set perplexity (Table 1)", "",
           "| model | reference lines | words | model tokens | perplexity per token | perplexity per word |", "|---|---|---|---|---|---|"]
    for s in summaries:
        ppl = s["metrics"].get("perplexity")
        if ppl:
            out.append(f"| {s['model']['name']} | {ppl['lines']} | {ppl['words']} | {ppl['model_tokens']} | "
                       f"{_f(ppl['ppl_token'], 2)} | {_f(ppl['ppl_word'], 2)} |")
        else:
            why = {"ngram": "unsmoothed: diverges, not reported (as the paper)",
                   "seq2seq": "not computed: a seq2seq decoder scores text given a source"}.get(s["model"]["family"], "not computed")
            out.append(f"| {s['model']['name']} | – | – | – | – ({why}) | – |")
    for s in summaries:
        ppl = s["metrics"].get("perplexity") or {}
        if ppl.get("lines_too_long"):
            out += ["", f"{s['model']['name']}: {ppl['lines_too_long']} reference line(s) longer than the model's positions are left out."]
    return out + ["", "Log-probabilities of the reference lines as the builder wrote them (XLM-preprocessed: lower-cased, "
                  "Moses tokens, no accents), each from BOS, EOS not scored; per word = exp(-sum log p / whitespace words).", ""]


def _heaps_table(summaries: list[dict], humans: dict) -> list[str]:
    """The paper's Heaps KS distances (Figure 4 averaged over its lengths)."""
    out = ["## Type-token: NHPP KS distances (Figure 4, mean over lengths)", "",
           "| sample | lengths | KS NHPP(model fit) | KS NHPP(reference fit) | KS empirical vs reference |", "|---|---|---|---|---|"]
    for size, h in sorted(humans.items(), key=lambda kv: int(kv[0])):
        out.append(f"| human (train, {h['size']} docs) | – | {_pm(h, 'heaps_ks_nhpp_model')} | {_pm(h, 'heaps_ks_nhpp_ref')} | "
                   f"{_pm(h, 'heaps_ks_empirical')} |")
    for label, r, _ in _rows(summaries):
        curve = r.get("heaps_nhpp", {})
        out.append(f"| {label} | {len(curve.get('lengths', []))} | {_f(r.get('heaps_ks_nhpp_model'))} | "
                   f"{_f(r.get('heaps_ks_nhpp_ref'))} | {_f(r.get('heaps_ks_empirical'))} |")
    return out + ["", "At each length n of a log-spaced grid, the numbers of distinct words in the first n tokens of the "
                  "sample's lines at least n long are compared with the Poisson(K n^β) cdf of the NHPP fitted on the sample "
                  "(D(p̂, p_θ̂)), with the one fitted on the reference (D(p̂, p_θ̂ref)), and with the reference lines' own "
                  "counts (two-sample KS); lengths with fewer than 5 lines on either side are left out.", ""]


def report(summaries: list[dict]) -> str:
    ref = summaries[0]["metrics"]["reference"]
    humans = {k: h for s in summaries for k, h in s["metrics"].get("human", {}).items()}
    out = _table1(summaries) + ["## Rank-frequency, type-token and unigram distribution (Table 2)", "",
           "| sample | docs | tokens | unfinished | Zipf α | KS Zipf(α) | KS Zipf(α_ref) | KS ranks vs ref | Heaps β | Heaps K | KS types per length | TVD |",
           "|---|---|---|---|---|---|---|---|---|---|---|---|",
           f"| reference (human test) | {ref['documents']} | {ref['tokens']} | – | {_f(ref['zipf_alpha'])} | {_f(ref['zipf_ks'])} | – | – | "
           f"{_f(ref['heaps_beta'])} | {_f(ref['heaps_K'])} | – | – |"]
    for size, h in sorted(humans.items(), key=lambda kv: int(kv[0])):
        out.append(f"| human (train, {h['size']} docs, {h['draws']} draws) | {h['size']} | – | – | {_pm(h, 'zipf_alpha')} | {_pm(h, 'zipf_ks')} | "
                   f"{_pm(h, 'zipf_ks_ref_alpha')} | {_pm(h, 'rank_ks')} | {_pm(h, 'heaps_beta')} | {_pm(h, 'heaps_K')} | {_pm(h, 'heaps_ks')} | {_pm(h, 'tvd')} |")
    for label, r, _ in _rows(summaries):
        out.append(f"| {label} | {r['documents']} | {r['tokens']} | {_pct(r['unfinished'])} | {_f(r['zipf_alpha'])} | {_f(r['zipf_ks'])} | "
                   f"{_f(r['zipf_ks_ref_alpha'])} | {_f(r['rank_ks'], p=r.get('rank_ks_p'))} | {_f(r['heaps_beta'])} | {_f(r['heaps_K'])} | "
                   f"{_f(r['heaps_ks'])} | {_f(r['tvd'], p=r.get('tvd_p'))} |")
    out += [""] + _heaps_table(summaries, humans)
    out += ["## Length, stopwords and symbols (Table 3, Appendix D)", "",
            "| sample | mean length | KS length | Δ length | stopword share | KS stopwords | Δ stopwords | symbol share | KS symbols | Δ symbols |",
            "|---|---|---|---|---|---|---|---|---|---|",
            f"| reference (human test) | {_f(ref['length_mean'], 1)} | – | – | {_f(ref['stopwords_mean'])} | – | – | {_f(ref['symbols_mean'])} | – | – |"]
    for size, h in sorted(humans.items(), key=lambda kv: int(kv[0])):
        out.append(f"| human (train, {h['size']} docs) | {_pm(h, 'length_mean', 1)} | {_pm(h, 'length_ks')} | {_pm(h, 'length_diff', 1)} | "
                   f"{_pm(h, 'stopwords_mean')} | {_pm(h, 'stopwords_ks')} | {_pm(h, 'stopwords_diff')} | {_pm(h, 'symbols_mean')} | "
                   f"{_pm(h, 'symbols_ks')} | {_pm(h, 'symbols_diff')} |")
    for label, r, _ in _rows(summaries):
        cells = []
        for name, digits in (("length", 1), ("stopwords", 3), ("symbols", 3)):
            cells += [_f(r[f"{name}_mean"], digits), _f(r[f"{name}_ks"], 3, r.get(f"{name}_ks_p")), _f(r[f"{name}_diff"], digits, r.get(f"{name}_diff_p"))]
        out.append(f"| {label} | " + " | ".join(cells) + " |")
    out += ["", NOTE]
    skipped = {f"{s['model']['name']} / {k}": v for s in summaries for k, v in s["metrics"].get("skipped", {}).items()}
    if skipped:
        out += ["", "Not compared (too few samples): " + "; ".join(f"{k} ({v})" for k, v in skipped.items())]
    return "\n".join(out) + "\n"


def figures(summaries: list[dict], folder: Path) -> list[str]:
    """rank_frequency.png (with fitted Zipf lines), type_token.png (with Heaps fits), distributions.png."""
    plt = plots.pyplot()
    ref = summaries[0]["metrics"]["reference"]
    curves = [("reference", ref, ref["curves"])] + [(label, r, r["curves"]) for label, r, _ in _rows(summaries)]
    names = []

    fig, ax = plt.subplots(figsize=(6, 4.5))
    for n, (label, r, c) in enumerate(curves):
        color = f"C{n}"
        ranks = np.array(c["ranks"])
        ax.loglog(ranks, c["freq"], "o", ms=3, color=color, label=f"{label} (α = {r['zipf_alpha']:.2f})")
        pmf = stats._zipf_pmf(r["zipf_alpha"], min(int(r["types"]), stats.ZIPF_RANKS))
        fit = ranks[ranks <= pmf.size]
        ax.loglog(fit, pmf[fit - 1], "--", lw=1, color=color)
    ax.set(xlabel="rank", ylabel="relative frequency", title="Rank-frequency (dashed: Zipf MLE fit)")
    _caption(fig, "Relative frequency of each word rank (log-log) per sample; dashed: the Zipf law fitted by MLE on the first 10,000 ranks.")
    ax.legend(fontsize=7)
    names.append(plots.save(fig, folder, "rank_frequency.png"))

    fig, ax = plt.subplots(figsize=(6, 4.5))
    for n, (label, r, c) in enumerate(curves):
        lengths = np.array(c["lengths"], dtype=float)
        mean_types = np.array([np.nan if v is None else v for v in c["types1"]], dtype=float)
        ax.plot(lengths, mean_types, "-", color=f"C{n}", label=f"{label} (β = {r['heaps_beta']:.2f})")
        if np.isfinite(r["heaps_beta"]):
            ax.plot(lengths, stats.HeapsFit(r["heaps_K"], r["heaps_beta"]).expected_types(lengths), ":", lw=1, color=f"C{n}")
    ax.set(xscale="log", yscale="log", xlabel="document length (tokens)", ylabel="unique words in the first n tokens",
           title="Type-token (Figure 3; dotted: Heaps fit)")
    _caption(fig, "Mean number of distinct words in the first n tokens of the lines at least n long; dotted: K n^β of the Heaps / NHPP fit.")
    ax.legend(fontsize=7)
    names.append(plots.save(fig, folder, "type_token.png"))

    names.append(_figure2(plt, summaries, ref, folder))
    names += _figure4(plt, summaries, folder)

    fig, axes = plt.subplots(1, 3, figsize=(12, 3.8))
    q = np.linspace(0, 1, 51)
    for ax, (key, title) in zip(axes, (("length", "document length"), ("stopwords", "stopword share"), ("symbols", "symbol share"))):
        for n, (label, _, c) in enumerate(curves):
            if c.get(f"q_{key}"):
                ax.step(c[f"q_{key}"], q, where="post", color=f"C{n}", label=label)
        ax.set(xlabel=title, ylabel="cumulative share of documents", xscale="log" if key == "length" else "linear")
    axes[0].legend(fontsize=7)
    _caption(fig, "Empirical cdfs over lines of length (whitespace tokens), stopword share (NLTK's 179 words) and symbol share (tokens without a letter).")
    names.append(plots.save(fig, folder, "distributions.png"))
    return names


def _caption(fig, text: str) -> None:
    """What the figure shows, under it."""
    import textwrap

    # a figure-level x label: tight_layout (plots.save) keeps room for it under the axes
    fig.supxlabel(textwrap.fill(text, int(fig.get_figwidth() * 19)), fontsize=6.5, ha="left", x=0.01)


def _figure2(plt, summaries: list[dict], ref: dict, folder: Path) -> str:
    """Figure 2: vocabulary statistics of each sample (word types, and the share of them the reference also has)."""
    rows = [(label, r) for label, r, _ in _rows(summaries)]
    fig, axes = plt.subplots(1, 2, figsize=(10, 1.6 + 0.35 * max(len(rows), 3)))
    labels = [label for label, _ in rows]
    y = np.arange(len(rows))
    axes[0].barh(y, [r["types"] for _, r in rows], color="C0")
    axes[0].axvline(ref["types"], color="k", ls="--", lw=1, label=f"reference ({ref['types']} types)")
    axes[0].set(yticks=y, yticklabels=labels, xlabel="word types (unigram vocabulary)")
    axes[0].legend(fontsize=7)
    shares = np.array([100 * r.get("types_in_reference", np.nan) for _, r in rows])
    cis = [proportion_ci(round(v * r["types"] / 100), r["types"]) if np.isfinite(v) and r["types"] else (np.nan, np.nan)
           for v, (_, r) in zip(shares, rows)]
    err = plots.error_bars(shares, cis, 100)
    axes[1].barh(y, shares, xerr=err, capsize=2, color="C1")
    for yi, (_, r) in zip(y, rows):
        axes[1].text(1, yi, f"n={r['types']}", va="center", fontsize=6)
    axes[1].set(yticks=y, yticklabels=[""] * len(rows), xlabel="% of the sample's types found in the reference (95% Wilson)", xlim=(0, 100))
    fig.suptitle("Vocabulary statistics (Figure 2)")
    _caption(fig, "Number of distinct words in each sample (dashed: the reference) and the share of them that occur in the reference; "
                  "samples and reference are whitespace tokens after the same XLM preprocessing.")
    return plots.save(fig, folder, "vocabulary.png")


def _figure4(plt, summaries: list[dict], folder: Path) -> list[str]:
    """Figure 4: KS distances per length between each sample's type counts and the NHPPs / the reference."""
    rows = [(label, r["heaps_nhpp"]) for label, r, _ in _rows(summaries) if r.get("heaps_nhpp", {}).get("lengths")]
    if not rows:
        return []
    titles = (("heaps_ks_nhpp_model", "vs NHPP fitted on the sample"), ("heaps_ks_nhpp_ref", "vs NHPP fitted on the reference"),
              ("heaps_ks_empirical", "vs the reference's counts"))
    fig, axes = plt.subplots(1, 3, figsize=(13, 4), sharey=True)
    for ax, (key, title) in zip(axes, titles):
        for n, (label, curve) in enumerate(rows):
            ax.plot(curve["lengths"], curve[key], "o-", ms=2.5, lw=1, color=f"C{n + 1}", label=label)
        ax.set(xscale="log", xlabel="length n (tokens)", title=title, ylim=(0, 1))
    axes[0].set_ylabel("KS distance")
    axes[0].legend(fontsize=7)
    fig.suptitle("Type-token KS distances per length (Figure 4)")
    _caption(fig, "For each length n, the KS distance between the numbers of distinct words in the first n tokens of the sample's lines "
                  "and: the Poisson(K n^β) cdf with (K, β) fitted on the sample; the same with (K, β) fitted on the reference; "
                  "the reference lines' own counts at n (two-sample KS).")
    return [plots.save(fig, folder, "heaps_nhpp_ks.png")]

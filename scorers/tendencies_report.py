"""Tables (the paper's Tables 2-3 and Appendix D) and figures (rank-frequency, type-token, distributions) of tendencies runs."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from . import plots, stats

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


def report(summaries: list[dict]) -> str:
    ref = summaries[0]["metrics"]["reference"]
    humans = {k: h for s in summaries for k, h in s["metrics"].get("human", {}).items()}
    out = ["## Rank-frequency, type-token and unigram distribution (Table 2)", "",
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
    out += ["", "## Length, stopwords and symbols (Table 3, Appendix D)", "",
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
    ax.legend(fontsize=7)
    names.append(plots.save(fig, folder, "type_token.png"))

    fig, axes = plt.subplots(1, 3, figsize=(12, 3.8))
    q = np.linspace(0, 1, 51)
    for ax, (key, title) in zip(axes, (("length", "document length"), ("stopwords", "stopword share"), ("symbols", "symbol share"))):
        for n, (label, _, c) in enumerate(curves):
            if c.get(f"q_{key}"):
                ax.step(c[f"q_{key}"], q, where="post", color=f"C{n}", label=label)
        ax.set(xlabel=title, ylabel="cumulative share of documents", xscale="log" if key == "length" else "linear")
    axes[0].legend(fontsize=7)
    names.append(plots.save(fig, folder, "distributions.png"))
    return names

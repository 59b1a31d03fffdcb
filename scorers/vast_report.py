"""Tables and figures of VAST runs: per-layer VAST by setting (Figure 1), singly vs multiply tokenized words
(Figure 2), PC nullification (Figure 3, Table 1) and WEAT bias effect sizes over the PCs nullified (Figure 5).
Every table, title and legend names what was measured: model, lexicon, language, layer, pooling, n, basis."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from wordbench.text import as_code

from . import plots
from .stats import finite_argmax


def _with_ci(cell: dict) -> str:
    """r before nullifying, with its interval where the run has one (runs of earlier versions have none)."""
    ci = cell.get("before_ci")
    return _f(cell["before"]) + (f" [{_f(ci[0])}, {_f(ci[1])}]" if ci else "")


def _f(v, digits: int = 3) -> str:
    return "–" if v is None or not np.isfinite(v) else f"{v:.{digits}f}"


def label(s: dict) -> str:
    """A run's name in tables and legends: model and lexicon (and language when not English)."""
    m = s["metrics"]
    lang = f", {m['language']}" if m.get("language") not in (None, "en") else ""
    return f"{s['model']['name']} · {m.get('lexicon') or '?'}{lang}"


def _basis(m: dict) -> str:
    """The PCA basis rule and, where the run recorded them (older summaries do not), its distinct words per setting."""
    sizes = {k: v["basis_words"] for k, v in (m.get("isolation") or {}).items() if "basis_words" in v}
    return f"**{m.get('pca_basis')}**" + (" (" + ", ".join(f"{k} {n:,} words" for k, n in sizes.items()) + ")" if sizes else "")


def _settings_line(m: dict) -> str:
    n_rule = {"paper": f"round(d/100), d={m.get('dim')}", "best": "the best n on the bleached curve"}.get(m.get("null_pcs_rule"), "given")
    return (f"Lexicon **{m.get('lexicon')}** ({m.get('language')}); pooling **{m.get('pool')}**; isolation and bias tests at layer "
            f"**{m.get('layer')}** (top unless set) and each setting's best layer; **n = {m.get('null_pcs')}** PCs nullified "
            f"({n_rule}); PCA basis {_basis(m)}; single-token polar filter: **{m.get('polar_filter')}**; "
            f"BOS: **{m.get('bos')}**.")


def report(summaries: list[dict]) -> str:
    out = []
    for s in summaries:
        m = s["metrics"]
        title = f" — {label(s)}"
        settings = list(m["layers"])
        n_layers = max((len(v["vast"]) for v in m["layers"].values()), default=0)
        unseen = m.get("excluded_unknown_token") or {}
        if unseen.get("words"):
            out += [f"Excluded: {unseen['words']} word(s) the model's tokenizer maps to its unknown token only "
                    f"(e.g. {', '.join(unseen['examples'][:5])}); they are in no correlation, basis or test.", ""]
        constant = m.get("excluded_constant_state") or {}
        if constant.get("words"):
            out += [f"Excluded: {constant['words']} word(s) whose state is equally close to every polar word at some layer, so "
                    f"their SC-WEAT effect size is undefined (e.g. {', '.join(constant['examples'][:5])}).", ""]
        for setting, why in (m.get("settings_without_correlation") or {}).items():
            out += [f"Not reported: the {setting} setting ({why}).", ""]
        out += [f"# VAST{title}", "", _settings_line(m), "", f"Signature: {as_code(s.get('signature', ''))}", "",
                f"## VAST per layer (Pearson r of SC-WEAT effect sizes with valence){title}", "",
                "| layer | " + " | ".join(f"{k} (n={m['layers'][k]['n']})" for k in settings) + " |",
                "|---" * (len(settings) + 1) + "|"]
        for layer in range(n_layers):
            out.append(f"| {layer} | " + " | ".join(_f(m["layers"][k]["vast"][layer]) for k in settings) + " |")
        t1 = m.get("table1") or {}
        if t1:
            n = m.get("null_pcs")
            out += ["", f"## Table 1: semantic isolation, VAST before and after nullifying {n} PCs{title}", "",
                    f"| setting | top layer | before | after ({n} PCs) | best layer | before | after ({n} PCs) | best n at the best layer (VAST) |",
                    "|---|---|---|---|---|---|---|---|"]
            for setting, row in t1.items():
                t, b = row["top"], row["best"]
                out.append(f"| {setting} | {t['layer']} | {_with_ci(t)} | {_f(t['after'])} | {b['layer']} | {_with_ci(b)} | "
                           f"{_f(b['after'])} | {b['best_n']} ({_f(b['best_after'])}) |")
            out += ["", "Before: Pearson r with its 95% paired bootstrap interval (a word's effect size and valence resampled together)."]
        tok = m["tokenization"]
        out += ["", f"## Single vs multiply tokenized words ({tok['setting']} setting, {tok['size']} words each, "
                f"polar words: {tok.get('polar', '')}){title}", ""]
        if tok.get("single"):
            out += ["| layer | singly tokenized | multiply tokenized |", "|---|---|---|"]
            out += [f"| {layer} | {_f(a)} | {_f(b)} |" for layer, (a, b) in enumerate(zip(tok["single"], tok["multi"]))]
        else:
            out.append(tok.get("note", "Too few singly or multiply tokenized words to compare.") + ".")
        iso = m["isolation"]
        curves = {f"{k} (layer {v['layer']})": v["curve_top"] for k, v in iso.items()}
        curves.update({f"{k} (layer {v['best_layer']})": v["curve_best"] for k, v in iso.items() if "curve_best" in v})
        out += ["", f"## Semantic isolation: VAST after nullifying the top principal components (basis: {m.get('pca_basis')}; "
                f"n = 0 is mean-centring only){title}", "", "| PCs nullified | " + " | ".join(curves) + " |",
                "|---" * (len(curves) + 1) + "|"]
        for n in range(max((len(c) for c in curves.values()), default=0)):
            out.append(f"| {n} | " + " | ".join(_f(c[n]) if n < len(c) else "–" for c in curves.values()) + " |")
        bias = m.get("bias") or {}
        if bias.get("tests"):
            k = bias["null_pcs"]
            out += ["", f"## WEAT bias tests, bleached setting, layer {m.get('layer')} (effect size d, one-sided permutation p){title}", "",
                    f"| test | d | p | d ({k} PCs nullified) | p ({k} PCs nullified) |", "|---|---|---|---|---|"]
            out += [f"| {name} | {_f(t['d'], 2)} | {_f(t['p'], 4)} | {_f(t['d_nullified'], 2)} | {_f(t['p_nullified'], 4)} |"
                    for name, t in bias["tests"].items()]
            sweep = max(len(t["d_by_pcs"]) for t in bias["tests"].values())
            out += ["", f"WEAT d by PCs nullified (Figure 5){title}", "", "| test | " + " | ".join(map(str, range(sweep))) + " |",
                    "|---" * (sweep + 1) + "|"]
            out += [f"| {name} | " + " | ".join(_f(v, 2) for v in t["d_by_pcs"]) + " |" for name, t in bias["tests"].items()]
        sim = m.get("similarity") or {}
        if sim:
            n = m.get("null_pcs")
            out += ["", f"## Word similarity after isolation (Spearman rho; PCA basis: the task's words; Figure 4){title}", "",
                    f"| task | pairs found | best layer before (rho) | top layer | before | after ({n} PCs) | best bleached layer | before | after ({n} PCs) |",
                    "|---|---|---|---|---|---|---|---|---|"]
            for task, t in sim.items():
                by = t["by_layer"]
                out.append(f"| {task} | {t['pairs']}/{t['pairs_total']} | {_argmax_cell(by)} | {t['top']['layer']} | "
                           f"{_f(t['top']['before'])} | {_f(t['top']['after'])} | {t['best']['layer']} | {_f(t['best']['before'])} | {_f(t['best']['after'])} |")
        out.append("")
    return "\n".join(out)


def _legend(ax) -> None:
    """The legend outside the axes, so that it never covers the data."""
    if ax.get_legend_handles_labels()[0]:
        ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1.0), borderaxespad=0)


def _title(ax, main: str, summaries: list[dict]) -> None:
    """Two lines: what the figure shows, and whose run (model, lexicon, pooling) it is."""
    ax.set_title(f"{main}\n{_what(summaries)}", fontsize=9)


def _what(summaries: list[dict]) -> str:
    """The title's account of one run (several runs: their labels are in the legend)."""
    if len(summaries) != 1:
        return f"{len(summaries)} runs"
    m = summaries[0]["metrics"]
    return f"{label(summaries[0])}, pool {m.get('pool')}"


def figures(summaries: list[dict], folder: Path) -> list[str]:
    plt = plots.pyplot()
    styles = ["-", "--", ":", "-."]
    names = []
    many = len(summaries) > 1
    suffix = lambda s: f" ({label(s)})" if many else ""  # noqa: E731

    fig, ax = plt.subplots(figsize=(8.5, 4.2))
    for run, s in enumerate(summaries):
        for n, (setting, v) in enumerate(s["metrics"]["layers"].items()):
            ax.plot(v["vast"], styles[run % 4], color=f"C{n}", marker="o", ms=3, label=setting + suffix(s))
    ax.set(xlabel="layer", ylabel="VAST (Pearson r)")
    _title(ax, "VAST by layer and setting (Figure 1)", summaries)
    _legend(ax)
    names.append(plots.save(fig, folder, "layers.png"))

    fig, ax = plt.subplots(figsize=(8.5, 4.2))
    for run, s in enumerate(summaries):
        tok = s["metrics"]["tokenization"]
        for n, key in enumerate(("single", "multi")):
            if tok.get(key):
                ax.plot(tok[key], styles[run % 4], color=f"C{n}", marker="o", ms=3,
                        label=f"{'singly' if key == 'single' else 'multiply'} tokenized ({tok['size']} words)" + suffix(s))
    setting = summaries[0]["metrics"]["tokenization"]["setting"] if summaries else ""
    ax.set(xlabel="layer", ylabel="VAST (Pearson r)")
    _title(ax, f"Singly vs multiply tokenized words, {setting} setting (Figure 2)", summaries)
    if ax.get_legend_handles_labels()[0]:
        _legend(ax)
    else:
        ax.text(0.5, 0.5, "too few singly or multiply tokenized words", ha="center", transform=ax.transAxes)
    names.append(plots.save(fig, folder, "tokenization.png"))

    fig, ax = plt.subplots(figsize=(8.5, 4.2))
    for run, s in enumerate(summaries):
        for n, (setting, iso) in enumerate(s["metrics"]["isolation"].items()):
            ax.plot(iso["curve_top"], styles[run % 4], color=f"C{n}", marker="o", ms=3, label=f"{setting}, layer {iso['layer']}" + suffix(s))
            if "curve_best" in iso:
                ax.plot(iso["curve_best"], styles[run % 4], color=f"C{n}", marker="x", ms=4, alpha=0.5,
                        label=f"{setting}, best layer {iso['best_layer']}" + suffix(s))
    basis = summaries[0]["metrics"].get("pca_basis") if summaries else ""
    ax.set(xlabel="principal components nullified", ylabel="VAST (Pearson r)")
    _title(ax, f"Semantic isolation, PCA basis {basis} (Figure 3)", summaries)
    _legend(ax)
    names.append(plots.save(fig, folder, "isolation.png"))

    tested = [s for s in summaries if (s["metrics"].get("bias") or {}).get("tests")]
    if tested:
        fig, ax = plt.subplots(figsize=(9.5, 4.8))
        for run, s in enumerate(tested):
            for n, (name, t) in enumerate(s["metrics"]["bias"]["tests"].items()):
                ax.plot(t["d_by_pcs"], styles[run % 4], color=f"C{n}", marker="o", ms=3, label=name + (f" ({label(s)})" if len(tested) > 1 else ""))
            ax.axvline(s["metrics"]["bias"]["null_pcs"], color="grey", lw=0.8, ls=styles[run % 4])
        ax.axhline(0, color="black", lw=0.5)
        m = tested[0]["metrics"]
        ax.set(xlabel="principal components nullified", ylabel="WEAT effect size d")
        _title(ax, f"Bias tests by PCs nullified, layer {m.get('layer')}, bleached (Figure 5)", tested)
        _legend(ax)
        names.append(plots.save(fig, folder, "bias.png"))
    return names


def _argmax_cell(values) -> str:
    """The best layer and its value, or n/a where no layer's value is defined."""
    best = finite_argmax(values)
    return "n/a" if best is None else f"{best} ({_f(values[best])})"

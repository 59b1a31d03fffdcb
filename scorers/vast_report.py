"""Tables and figures of VAST runs: per-layer VAST by setting (Figure 1), single vs multiply tokenized words
(Figure 2), PC nullification (Figure 3) and WEAT bias effect sizes (Figure 5)."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from . import plots


def _f(v, digits: int = 3) -> str:
    return "–" if v is None or not np.isfinite(v) else f"{v:.{digits}f}"


def report(summaries: list[dict]) -> str:
    out = []
    for s in summaries:
        m = s["metrics"]
        title = f" — {s['model']['name']}" if len(summaries) > 1 else ""
        settings = list(m["layers"])
        n_layers = max((len(v["vast"]) for v in m["layers"].values()), default=0)
        out += [f"## VAST per layer (Pearson r of SC-WEAT effect sizes with valence){title}", "",
                "| layer | " + " | ".join(f"{k} (n={m['layers'][k]['n']})" for k in settings) + " |",
                "|---" * (len(settings) + 1) + "|"]
        for layer in range(n_layers):
            out.append(f"| {layer} | " + " | ".join(_f(m["layers"][k]["vast"][layer]) for k in settings) + " |")
        tok = m["tokenization"]
        out += ["", f"## Single vs multiply tokenized words ({tok['setting']} setting, {tok['size']} words each){title}", ""]
        if tok.get("single"):
            out += ["| layer | single | multi |", "|---|---|---|"]
            out += [f"| {layer} | {_f(a)} | {_f(b)} |" for layer, (a, b) in enumerate(zip(tok["single"], tok["multi"]))]
        else:
            out.append("Too few singly or multiply tokenized words to compare.")
        iso = m["isolation"]
        out += ["", f"## Semantic isolation: VAST after nullifying the top principal components{title}", "",
                "| PCs removed | " + " | ".join(iso) + " |", "|---" * (len(iso) + 1) + "|"]
        for n in range(max((len(c) for c in iso.values()), default=0)):
            out.append(f"| {n} | " + " | ".join(_f(c[n]) if n < len(c) else "–" for c in iso.values()) + " |")
        bias = m.get("bias") or {}
        if bias.get("tests"):
            k = bias["null_pcs"]
            out += ["", f"## WEAT bias tests, bleached setting (effect size d, one-sided permutation p){title}", "",
                    f"| test | d | p | d ({k} PCs nullified) | p ({k} PCs nullified) |", "|---|---|---|---|---|"]
            out += [f"| {name} | {_f(t['d'], 2)} | {_f(t['p'], 4)} | {_f(t['d_nullified'], 2)} | {_f(t['p_nullified'], 4)} |"
                    for name, t in bias["tests"].items()]
        out.append("")
    return "\n".join(out)


def figures(summaries: list[dict], folder: Path) -> list[str]:
    plt = plots.pyplot()
    styles = ["-", "--", ":", "-."]
    names = []

    fig, ax = plt.subplots(figsize=(6.5, 4.2))
    for run, s in enumerate(summaries):
        for n, (setting, v) in enumerate(s["metrics"]["layers"].items()):
            ax.plot(v["vast"], styles[run % 4], color=f"C{n}", marker="o", ms=3,
                    label=setting + (f" ({s['model']['name']})" if len(summaries) > 1 else ""))
    ax.set(xlabel="layer", ylabel="VAST (Pearson r)", title="VAST by layer and setting (Figure 1)")
    ax.legend(fontsize=7)
    names.append(plots.save(fig, folder, "layers.png"))

    fig, ax = plt.subplots(figsize=(6.5, 4.2))
    for run, s in enumerate(summaries):
        tok = s["metrics"]["tokenization"]
        for n, key in enumerate(("single", "multi")):
            if tok.get(key):
                ax.plot(tok[key], styles[run % 4], color=f"C{n}", marker="o", ms=3,
                        label=f"{key}ly tokenized" + (f" ({s['model']['name']})" if len(summaries) > 1 else ""))
    ax.set(xlabel="layer", ylabel="VAST (Pearson r)", title="Single vs multiply tokenized words (Figure 2)")
    if ax.get_legend_handles_labels()[0]:
        ax.legend(fontsize=7)
    else:
        ax.text(0.5, 0.5, "too few singly or multiply tokenized words", ha="center", transform=ax.transAxes)
    names.append(plots.save(fig, folder, "tokenization.png"))

    fig, ax = plt.subplots(figsize=(6.5, 4.2))
    for run, s in enumerate(summaries):
        for n, (setting, curve) in enumerate(s["metrics"]["isolation"].items()):
            ax.plot(curve, styles[run % 4], color=f"C{n}", marker="o", ms=3,
                    label=setting + (f" ({s['model']['name']})" if len(summaries) > 1 else ""))
    ax.set(xlabel="principal components nullified", ylabel="VAST (Pearson r)", title="Semantic isolation (Figure 3)")
    ax.legend(fontsize=7)
    names.append(plots.save(fig, folder, "isolation.png"))

    tested = [s for s in summaries if (s["metrics"].get("bias") or {}).get("tests")]
    if tested:
        tests = list(tested[0]["metrics"]["bias"]["tests"])
        fig, ax = plt.subplots(figsize=(8, 0.45 * len(tests) + 1.5))
        width = 0.8 / (2 * len(tested))
        y = np.arange(len(tests))
        for run, s in enumerate(tested):
            t = s["metrics"]["bias"]["tests"]
            label = f" ({s['model']['name']})" if len(tested) > 1 else ""
            ax.barh(y + plots.bar_offset(2 * run, 2 * len(tested), width), [t[k]["d"] for k in tests], width, label="d" + label)
            ax.barh(y + plots.bar_offset(2 * run + 1, 2 * len(tested), width), [t[k]["d_nullified"] for k in tests], width,
                    label=f"d, {s['metrics']['bias']['null_pcs']} PCs nullified" + label)
        ax.set_yticks(y, tests, fontsize=7)
        ax.axvline(0, color="black", lw=0.5)
        ax.set(xlabel="WEAT effect size d", title="Bias tests before and after PC nullification (Figure 5)")
        ax.legend(fontsize=7)
        names.append(plots.save(fig, folder, "bias.png"))
    return names

"""The report's figures (matplotlib, PNG), each from one result file."""
import math

from experiments.harness.systems import COLORS, LABELS
from experiments.report import results as R


def _plt():
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    plt.rcParams.update({"font.size": 9, "figure.dpi": 120})
    return plt


def compile_phases(c, path):
    """Stacked bars: each phase's median for a few specializations, parse and trace side by side."""
    plt = _plt()
    ph = R.phase_medians(c)
    specs = list(dict.fromkeys(s["spec"] for s in c["phases"]["twintile"]))
    pick = [s for s in specs if s in ("vector_add<1024>", "softmax<f16,1024>", "layernorm<f32,1024>",
                                      "matmul<64,64,32>", "flash_attention<64,64,64>")] or specs[:5]
    phases = [("parse_s", "parse"), ("walk_s", "walk"), ("host_compile_s", "host: Clang"),
              ("host_codegen_s", "host: codegen"), ("host_load_s", "host: load"), ("trace_s", "trace"),
              ("cleanup_s", "IR cleanup"), ("lower_s", "lower"), ("libdevice_s", "libdevice"),
              ("optimize_s", "LLVM opt"), ("verify_s", "verify, print"), ("nvptx_s", "NVPTX")]
    fig, ax = plt.subplots(figsize=(7.5, 3.6))
    labels, x = [], 0
    cmap = plt.get_cmap("tab10")
    for spec in pick:
        for system in ("parse", "trace"):
            m = ph.get((system, spec))
            if not m:
                continue
            bottom = 0.0
            for i, (key, name) in enumerate(phases):
                v = (m.get(key) or 0.0) * 1e3
                ax.bar(x, v, bottom=bottom, color=cmap(i), label=name if x == 0 else None, width=0.8)
                bottom += v
            labels.append(f"{spec}\n{system}")
            x += 1
    ax.set_xticks(range(len(labels)), labels, rotation=60, ha="right", fontsize=7)
    ax.set_ylabel("ms (median)")
    ax.set_title("Source to PTX, by phase (ptxas excluded)")
    ax.legend(fontsize=7, ncol=3)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


def scaling(c, key, xlabel, path):
    plt = _plt()
    summ = R.scaling_summary(c.get(key))
    fig, ax = plt.subplots(figsize=(5, 3.4))
    for system, pts in sorted(summ.items()):
        xs = [p[0] for p in pts]
        ax.plot(xs, [p[2] * 1e3 for p in pts], marker="o", color=COLORS.get(system), label=f"{LABELS.get(system, system)}, to PTX")
        ax.plot(xs, [p[1] * 1e3 for p in pts], marker=".", linestyle="--", color=COLORS.get(system),
                label=f"{LABELS.get(system, system)}, front end")
    ax.set_xscale("log", base=2)
    ax.set_yscale("log")
    ax.set_xlabel(xlabel)
    ax.set_ylabel("ms (median)")
    ax.legend(fontsize=7)
    ax.grid(True, which="both", alpha=0.3)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


def sweep(c, path):
    plt = _plt()
    s = R.sweep_summary(c)
    names = sorted(s, key=lambda k: s[k]["median"])
    fig, ax = plt.subplots(figsize=(6, 3))
    ys = range(len(names))
    med = [s[n]["median"] for n in names]
    err = [[s[n]["median"] - s[n]["min"] for n in names], [s[n]["max"] - s[n]["median"] for n in names]]
    ax.barh(ys, med, xerr=err,
            color=[COLORS.get(n.replace("_one_process", "").replace("_command", ""), "#888") for n in names])
    ax.set_yticks(list(ys), [n.replace("_", " ") for n in names], fontsize=7)
    ax.set_xlabel("seconds, 12 softmax variants (median, min–max)")
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


# (twintile's variant, against, label, bar style): twintile's PTX over theirs. Triton's defaults are
# fast math (approximate exp, division), met by twintile's --math=fast. The handwritten CUDA keeps
# IEEE division and calls exp2f and rsqrtf, which nvcc makes approximate: twintile's precise math
# against it does no less exact work.
LIKE_WITH_LIKE = (("fast", "triton", "twintile --math=fast / Triton (fast defaults)", {}),
                  ("assumed", "nvcc", "twintile (precise) / handwritten CUDA, nvcc", {}))
PRECISE_AGAINST_FAST = (("assumed", "triton", "twintile (precise) / Triton (fast defaults)",
                         {"hatch": "//", "edgecolor": "white"}),)


def _ratio_bars(cg, series, title, path):
    """Bars of twintile's PTX instructions over another producer's, per specialization (sm_90a, with
    hints), one colour per series. False, and nothing written, if no series has a row."""
    measured = [(against, label, style, R.codegen_ratios(cg, variant, "sm_90a", against))
                for variant, against, label, style in series]
    order = sorted({r[0] for *_, rows in measured for r in rows})
    if not order:
        return False
    plt = _plt()
    pos = {spec: i for i, spec in enumerate(order)}
    width = 0.8 / len(series)
    fig, ax = plt.subplots(figsize=(7.5, 3.4))
    for i, (against, label, style, rows) in enumerate(measured):
        if rows:
            offset = (i - (len(series) - 1) / 2) * width
            ax.bar([pos[r[0]] + offset for r in rows], [r[1] for r in rows], width=width, color=COLORS[against],
                   label=f"{label} (geometric mean {R.geomean([r[1] for r in rows]):.2f}×)", **style)
    ax.axhline(1.0, color="black", linewidth=0.8)
    ax.set_xticks(range(len(order)), order, rotation=70, ha="right", fontsize=6)
    ax.set_ylabel("PTX instructions, ratio")
    ax.set_title(title, fontsize=9)
    ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)
    return True


def codegen_ratios(cg, path):
    """The fair comparison: twintile's PTX over Triton's in Triton's math mode, and over nvcc's.
    False, and nothing written, if none compare."""
    return _ratio_bars(cg, LIKE_WITH_LIKE, "twintile's PTX against Triton's in the same math mode, and "
                       "against handwritten CUDA (sm_90a, with hints)", path)


def codegen_ratios_precise(cg, path):
    """Apart, and labelled so: twintile's precise math over Triton's fast defaults (the price of
    precision, not like with like). False, and nothing written, if none compare."""
    return _ratio_bars(cg, PRECISE_AGAINST_FAST, "Not like with like: twintile's precise math against "
                       "Triton's fast defaults (sm_90a, with hints)", path)


def expressiveness(ex, path):
    plt = _plt()
    matrix, systems = R.expressiveness_matrix(ex)
    value = {"accepted": 2, "wrong": 1, "refused": 0, None: float("nan")}
    feats = list(matrix)
    data = [[value[matrix[f].get(s)] for s in systems] for f in feats]
    fig, ax = plt.subplots(figsize=(4.2, 0.17 * len(feats) + 1))
    from matplotlib.colors import ListedColormap
    ax.imshow(data, aspect="auto", cmap=ListedColormap(["#d62728", "#ffbf00", "#2ca02c"]), vmin=0, vmax=2)
    ax.set_xticks(range(len(systems)), [LABELS.get(s, s) for s in systems], fontsize=7, rotation=30)
    ax.set_yticks(range(len(feats)), feats, fontsize=6)
    ax.set_title("accepted (green), refused (red), absent (white)", fontsize=8)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


def realworld(rw, path):
    """The real-world kernels, one row each: left, milliseconds to PTX through each front end and
    through Triton (log scale); right, what each front end made of the port as written (a circle:
    accepted; hollow: and right, filled: accepted but unchecked, no upstream reference ran) or the
    lines of code its rewrite changed (a bar). False, and nothing written, if the result has no kernel."""
    per = R.realworld_compile(rw)
    cells = R.realworld_cells(rw)
    names = [k["name"] for k in rw.get("kernels", [])]
    frontends = R.realworld_frontends(rw)
    if not names or not frontends:  # (no front end ran: no NumPy)
        return False
    plt = _plt()
    from matplotlib.ticker import FuncFormatter, LogLocator, NullFormatter
    fig, (left, right) = plt.subplots(1, 2, sharey=True, figsize=(8.5, 0.22 * len(names) + 1.9),
                                      gridspec_kw={"width_ratios": [3, 2]})
    ys = range(len(names))
    series = [(f, f"twintile_{f}", LABELS[f"twintile_{f}"]) for f in frontends] + \
        [("triton", "triton", "upstream kernel, Triton")]
    height = 0.8 / len(series)
    for i, (key, color, label) in enumerate(series):
        pts = [(y, per.get(n, {}).get(key)) for y, n in zip(ys, names)]
        pts = [(y, v * 1e3) for y, v in pts if v]
        left.barh([y + (i - (len(series) - 1) / 2) * height for y, _ in pts], [v for _, v in pts], height=height,
                  color=COLORS[color], label=label)
    left.set_xscale("log")
    shortest = min((v for n in names for key, _, _ in series if (v := per.get(n, {}).get(key))), default=None)
    if shortest:  # from a round number of milliseconds, so that the first bar is seen against a tick
        left.set_xlim(left=10 ** math.floor(math.log10(shortest * 1e3 * 0.8)))
    left.xaxis.set_major_locator(LogLocator(base=10, subs=(1, 2, 5)))
    left.xaxis.set_major_formatter(FuncFormatter(lambda v, _: f"{v:g}"))
    left.xaxis.set_minor_formatter(NullFormatter())
    left.set_xlabel("ms to PTX, median (log scale)")
    left.set_title("Compile time, as Triton's JIT compiles (fast math, hints)", fontsize=8)
    left.grid(True, axis="x", which="both", alpha=0.3)
    left.set_yticks(list(ys), names, fontsize=6)
    left.set_ylim(len(names) - 0.5, -0.5)
    kinds = {}
    step = 0.8 / len(frontends)
    for i, (frontend, color) in enumerate((f, f"twintile_{f}") for f in frontends):
        offset = (i - (len(frontends) - 1) / 2) * step
        for y, k in zip(ys, rw.get("kernels", [])):
            written = cells.get((k["name"], frontend, "written")) or {}
            rewrite = k.get("rewrites", {}).get(frontend)
            if written.get("outcome") == "accepted" and R.realworld_right(written):
                kinds.setdefault((frontend, "right"), []).append(y + offset)
            elif written.get("outcome") == "accepted" and str(written.get("check", "")).startswith("unchecked"):
                kinds.setdefault((frontend, "unchecked"), []).append(y + offset)
            elif rewrite:
                kinds.setdefault((frontend, "lines"), []).append((y + offset, rewrite["added"] + rewrite["removed"]))
        label = LABELS[color]
        right.barh([y for y, _ in kinds.get((frontend, "lines"), [])], [v for _, v in kinds.get((frontend, "lines"), [])],
                   height=step, color=COLORS[color], label=f"{label}: lines its rewrite changed")
        right.scatter([0] * len(kinds.get((frontend, "right"), [])), kinds.get((frontend, "right"), []), marker="o",
                      s=14, facecolors="none", edgecolors=COLORS[color], label=f"{label}: accepted as written, right")
        right.scatter([0] * len(kinds.get((frontend, "unchecked"), [])), kinds.get((frontend, "unchecked"), []),
                      marker="o", s=14, color=COLORS[color], label=f"{label}: accepted as written, unchecked")
    right.set_xlabel("lines of code changed to be accepted")
    right.set_title("What porting cost each front end", fontsize=8)
    right.grid(True, axis="x", alpha=0.3)
    right.set_xlim(left=-1.5)
    handles, labels = left.get_legend_handles_labels()
    more, more_labels = right.get_legend_handles_labels()
    fig.legend(handles + more, labels + more_labels, loc="lower center", ncol=3, fontsize=7, frameon=False)
    fig.tight_layout(rect=(0, 0.7 / (0.22 * len(names) + 1.9), 1, 1))
    fig.savefig(path)
    plt.close(fig)
    return True


def all_figures(res, outdir):
    """Writes every figure the results allow; returns their file names."""
    written = []
    if "compile" in res:
        c = res["compile"]
        if c.get("phases", {}).get("twintile"):
            compile_phases(c, outdir / "compile_phases.png")
            written.append("compile_phases.png")
        if c.get("sweep"):
            sweep(c, outdir / "compile_sweep.png")
            written.append("compile_sweep.png")
        for key, label, name in (("scaling_stages", "chained stages N", "scaling_stages.png"),
                                 ("scaling_specs", "specializations S", "scaling_specs.png")):
            if c.get(key):
                scaling(c, key, label, outdir / name)
                written.append(name)
    if "codegen" in res:
        for draw, name in ((codegen_ratios, "codegen_ratios.png"),
                           (codegen_ratios_precise, "codegen_ratios_precise.png")):
            if draw(res["codegen"], outdir / name):
                written.append(name)
    if "expressiveness" in res:
        expressiveness(res["expressiveness"], outdir / "expressiveness.png")
        written.append("expressiveness.png")
    if "realworld" in res and realworld(res["realworld"], outdir / "realworld.png"):
        written.append("realworld.png")
    return written

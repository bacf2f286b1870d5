"""The report's tables, as Markdown, each from one result file (results.py reduces it)."""
import re

from experiments.report import claims as C
from experiments.report import results as R
from experiments.harness.systems import LABELS


def ms(seconds, digits=3):
    """Seconds as milliseconds with `digits` significant digits; '–' for nothing."""
    if seconds is None:
        return "–"
    v = seconds * 1e3
    if v == 0:
        return "0"
    if v >= 100:
        return f"{v:.0f}"
    return f"{v:.{digits}g}"


def ratio(x, digits=2):
    return "–" if x is None else f"{x:.{digits}f}×"


def table(header, rows, align=None):
    align = align or ["l"] + ["r"] * (len(header) - 1)
    sep = ["---:" if a == "r" else "---" for a in align]
    lines = ["| " + " | ".join(header) + " |", "| " + " | ".join(sep) + " |"]
    lines += ["| " + " | ".join(str(c) for c in row) + " |" for row in rows]
    return "\n".join(lines) + "\n"


def missing_note(result):
    """A line per baseline the run lacked, after a table's notes (which end here)."""
    missing = result.get("missing") or {}
    if not missing:
        return "\n"
    return "\n\n" + "\n".join(f"*{k} missing from this run: {why}.*" for k, why in sorted(missing.items())) + "\n"


def env_line(result):
    e = result["environment"]
    return (f"*Measured {e['date'][:10]} on {e['cpu']} ({e['cores']} cores, load {e['load_average'][0]:.2f}), "
            f"commit {str(e['git_commit'])[:10]}{' (modified)' if e.get('git_dirty') else ''}.*\n")


def compile_frontends(c):
    """Front-end phases per specialization, twintile's three against Triton's and Pallas's."""
    ph = R.phase_medians(c)
    tri = R.triton_medians(c)
    pal, _ = R.pallas_medians(c)
    specs = list(dict.fromkeys(s["spec"] for s in c["phases"]["twintile"]))
    rows = []
    for spec in specs:
        p, n, t = ph.get(("parse", spec), {}), ph.get(("parse_nopch", spec), {}), ph.get(("trace", spec), {})
        k, h = ph.get(("trace_clang", spec), {}), ph.get(("hybrid", spec), {})
        hybrid = [h.get(x) for x in ("parse_s", "rewrite_s", "host_compile_s", "host_codegen_s", "host_load_s",
                                     "trace_s")]
        rows.append([f"`{spec}`", ms(p.get("parse_s")), ms(n.get("parse_s")), ms(p.get("walk_s")),
                     ms(t.get("host_compile_s")), ms(t.get("host_codegen_s")), ms(t.get("host_load_s")),
                     ms(k.get("host_compile_s")), ms(k.get("host_load_s")), ms(t.get("host_cached_s")),
                     ms(t.get("trace_s")), ms(h.get("rewrite_s")), ms(None if None in hybrid else sum(hybrid)),
                     ms(tri.get(spec, {}).get("ast")), ms(pal.get(spec, {}).get("trace_s"))])
    head = ["specialization", "parse", "parse, no PCH", "walk", "host: Clang", "host: codegen", "host: load",
            "clang++", "clang++: load", "cache hit", "trace", "hybrid: rewrite", "hybrid: all", "Triton AST→TTIR",
            "Pallas trace"]
    return ("### Front ends, per specialization (ms, median)\n\n" + env_line(c) + "\n" + table(head, rows) +
            "\nparse: Clang 19 in-process with the precompiled language header (and without it); walk: the "
            "instantiated AST to tile IR. The tracing front end compiles the kernel file for the host (cold) in "
            "process: host: Clang, from the same precompiled header, to an LLVM module; host: codegen, LLVM's x86-64 "
            "code generator to an object; host: load, ORC's JIT linker loading it in the child process that runs "
            "the kernel. clang++: the other way (--trace-host clang++), a clang++-19 process making a shared object, "
            "and dlopen loading it. cache hit: the same kernel traced again in that process from the warm cache, less "
            "the trace (hashing, the lookup, the fork, the load and the IR's way back as text); trace: running the "
            "kernel on abstract values. hybrid: rewrite, planning and editing the source after the parse; hybrid: "
            "all, its parse, rewrite, host compile (Clang, codegen, load) and trace of the rewritten file. Each "
            "sample is a "
            f"process of its own (compile_probe) after one untimed warm-up run in it; {c['config']['reps']} "
            "repetitions, interleaved." + missing_note(c))


def compile_backend(c):
    """Backend phases per specialization, against Triton's whole compile."""
    ph = R.phase_medians(c)
    tri = R.triton_medians(c)
    cute = R.cute_medians(c)
    specs = list(dict.fromkeys(s["spec"] for s in c["phases"]["twintile"]))
    rows = []
    for spec in specs:
        p = ph.get(("parse", spec), {})
        to_ptx = sum(p.get(k) or 0 for k in R.BACKEND_TO_PTX) if p else None
        t = tri.get(spec, {})
        rows.append([f"`{spec}`", ms(p.get("cleanup_s")), ms(p.get("lower_s")), ms(p.get("libdevice_s")),
                     ms(p.get("optimize_s")), ms(p.get("verify_s")), ms(p.get("nvptx_s")), ms(to_ptx),
                     ms(p.get("ptxas_s")), ms(t.get("to_ptx")), ms(t.get("cubin")), ms(cute.get(spec))])
    head = ["specialization", "IR cleanup", "lower", "libdevice", "LLVM opt", "verify, print", "NVPTX",
            "twintile → PTX", "ptxas", "Triton → PTX", "Triton's ptxas", "CuTe DSL → cubin"]
    return ("### Backend, per specialization (ms, median)\n\n" + table(head, rows) +
            "\ntwintile → PTX: lower + libdevice + LLVM opt + verify and print the LLVM IR + NVPTX, uncached. Triton → PTX: its whole compile "
            "(AST → TTIR → TTGIR → LLVM IR → PTX) in one warm process, fresh cache, without its ptxas step. "
            "CuTe DSL → cubin: `cute.compile` (AST preprocessing, tracing, its MLIR pipeline, PTX, and the "
            "assembly to a cubin it always makes) in one warm process, its cache bypassed; vector_add and "
            "softmax only."
            + missing_note(c))


SWEEP_LABELS = {
    "twintile_parse_command": "twintile parse, one driver command for the 12",
    "twintile_trace_command": "twintile trace, one driver command (one host compile)",
    "twintile_trace_clang_command": "twintile trace through clang++, one driver command",
    "twintile_parse_one_process": "twintile parse, one process (one parse, 12 walks)",
    "twintile_trace_one_process": "twintile trace, one process (one host compile, 12 traces)",
    "twintile_parse": "twintile parse, 12 driver processes",
    "twintile_trace": "twintile trace, 12 driver processes",
    "twintile_trace_clang": "twintile trace through clang++, 12 driver processes",
    "nvcc": "nvcc -ptx, one file with 12 instantiations",
    "triton": "Triton, one process (import + 12 compiles)",
    "pallas": "Pallas, one process (to Triton IR only)",
    "cute": "CuTe DSL, one process (import + 12 compiles)",
}


def compile_sweep(c):
    s = R.sweep_summary(c)
    if not s:
        return "### The 12-variant softmax sweep\n\nNot measured in this run.\n"
    nvcc = s.get("nvcc", {}).get("median")
    rows = []
    for name in sorted(s, key=lambda k: s[k]["median"]):
        m = s[name]
        rows.append([SWEEP_LABELS.get(name, name), f"{m['median']:.3f}", f"{m['min']:.3f}–{m['max']:.3f}",
                     ratio(nvcc / m["median"]) if nvcc else "–"])
    return ("### The 12-variant softmax sweep, source to PTX (s)\n\n" + env_line(c) + "\n" +
            table(["system", "median", "min–max", "speed vs nvcc"], rows) +
            f"\nsoftmax over f16/bf16/f32 × BLOCK 128/256/512/1024; {s[next(iter(s))]['n']} interleaved "
            "repetitions in one run. speed vs nvcc: nvcc's median over the system's (above 1: faster than "
            "nvcc). No system runs ptxas here except Triton and CuTe DSL, whose compiles always end in a cubin."
            + missing_note(c))


NAMES = LABELS  # each system named once: experiments/harness/systems.py


def compile_scaling(c):
    out = []
    for key, title, unit in (("scaling_stages", "kernel size: N chained elementwise stages", "N"),
                             ("scaling_specs", "specializations: one file compiled for S specializations", "S")):
        summ = R.scaling_summary(c.get(key))
        if not summ:
            continue
        systems = [s for s in ("twintile_parse", "twintile_trace", "twintile_trace_clang", "triton") if s in summ]
        sizes = sorted({size for pts in summ.values() for size, _, _ in pts})
        rows = []
        for size in sizes:
            row = [str(size)]
            for system in systems:
                pt = next((p for p in summ[system] if p[0] == size), None)
                row += [ms(pt[1]) if pt else "–", ms(pt[2]) if pt else "–"]
            rows.append(row)
        head = [unit] + [f"{NAMES[s]}, {what}" for s in systems for what in ("front end", "to PTX")]
        slopes = ", ".join(f"{NAMES[s]} {R.growth(summ[s]):.2f}" for s in systems if R.growth(summ[s]) is not None)
        out.append(f"### Scaling in {title} (ms, median)\n\n" + table(head, rows) +
                   f"\nGrowth of the time to PTX (log–log slope, smallest to largest {unit}): {slopes}.\n")
    return "\n".join(out) if out else "### Scaling\n\nNot measured in this run.\n"


def codegen(cg):
    idx = R.codegen_index(cg)
    specs = list(dict.fromkeys(r["spec"] for r in cg["rows"] if r["producer"] == "twintile_parse"))
    rows = []
    for spec in specs:
        row = [f"`{spec}`"]
        for producer, variant in (("twintile_parse", "plain"), ("twintile_parse", "assumed"),
                                  ("twintile_parse", "fast_plain"), ("twintile_parse", "fast"), ("triton", "plain"),
                                  ("triton", "assumed"), ("cute", "assumed"), ("nvcc", "plain")):
            r = idx.get((producer, variant, "sm_90a", spec))
            row.append(f"{r['instructions']} / {R.registers(r) or '–'}" if r else "–")
        same = idx.get(("twintile_trace", "plain", "sm_90a", spec), {}).get("ptx_sha256") == \
            idx.get(("twintile_parse", "plain", "sm_90a", spec), {}).get("ptx_sha256")
        row.append("yes" if same else "no")
        rows.append(row)
    head = ["specialization", "twintile", "twintile, hints", "twintile, fast math", "twintile, hints, fast math",
            "Triton", "Triton, hints",
            "CuTe DSL, aligned",
            "nvcc (CUDA C++)", "trace PTX = parse PTX"]
    checks = cg.get("triton_checks", [])
    ok = sum(c["check"] == "ok" for c in checks)
    unchecked = [c for c in checks if c["check"].startswith("unchecked")]
    differ = [c for c in checks if c["check"] != "ok" and not c["check"].startswith("unchecked")]
    checked = (f" The Triton kernels were run in Triton's interpreter mode against twintile's interpreter on the "
               f"same inputs: {ok} of {len(checks)} agree"
               + (f", {len(differ)} differ ({', '.join(c['spec'] for c in differ)})" if differ else "")
               + (f", {len(unchecked)} unchecked ({unchecked[0]['check'][len('unchecked: '):]})" if unchecked else "")
               + ".") if checks else ""
    ratios_t = R.codegen_ratios(cg, "assumed", "sm_90a", "triton")
    gm = R.geomean([r for _, r, _ in ratios_t])
    gm_regs = R.geomean([r for _, _, r in ratios_t if r])
    ratios_f = R.codegen_ratios(cg, "fast", "sm_90a", "triton")
    ratios_fp = R.codegen_ratios(cg, "fast_plain", "sm_90a", "triton")
    fast = (f" With --math=fast (Triton's defaults: approximate exp, log, rsqrt, div.full, f32 fma fusion), over "
            f"{len(ratios_f)}: {ratio(R.geomean([r for _, r, _ in ratios_f]))} instructions, "
            f"{ratio(R.geomean([r for _, _, r in ratios_f if r]))} registers") if ratios_f else ""
    if ratios_fp:
        fast += (f"; without hints, against Triton's without, over {len(ratios_fp)}: "
                 f"{ratio(R.geomean([r for _, r, _ in ratios_fp]))} instructions, "
                 f"{ratio(R.geomean([r for _, _, r in ratios_fp if r]))} registers")
    fast += "." if fast else ""
    return ("### PTX per specialization, sm_90a (instructions / registers)\n\n" + env_line(cg) + "\n" +
            table(head, rows) +
            f"\nInstructions: PTX instruction statements of the kernel (ptx_stats.py, one rule for every producer). "
            f"Registers: {cg['config']['ptxas_why']}, `{cg['config'].get('ptxas_version')}`. hints: twintile's "
            "--assume-aligned '*' --assume-divisible '*', and Triton's divisibility-16 hints on the same parameters. "
            "CuTe DSL: vector_add and softmax written one element per access (no TiledCopy), tensors assumed "
            "16-byte aligned; compiled, not run (CuTe has no CPU mode). "
            "nvcc: the handwritten CUDA baselines (vector_add, softmax, layernorm; vector and scalar paths both "
            f"counted). Geometric mean over the {len(ratios_t)} specializations, twintile / Triton with hints: "
            f"{ratio(gm)} instructions, {ratio(gm_regs)} registers." + fast + checked + missing_note(cg))


def codegen_targets(cg):
    """The memory-bound kernels against Triton, same math mode and hints: the PTX targets."""
    rows, met, measured = [], {"instr": 0, "sass": 0, "regs": 0, "alloc": 0}, {"instr": 0, "sass": 0, "regs": 0, "alloc": 0}
    targets = R.codegen_targets(cg)
    for spec, ours, theirs in targets:
        cells = [f"`{spec}`"]
        checks = (("instr", ours["instructions"], theirs["instructions"], lambda a, b: a <= 1.1 * b),
                  ("sass", R.sass_instructions(ours), R.sass_instructions(theirs), lambda a, b: a <= b),
                  ("regs", R.registers(ours), R.registers(theirs), lambda a, b: a <= b),
                  ("alloc", R.allocated_registers(R.registers(ours)), R.allocated_registers(R.registers(theirs)),
                   lambda a, b: a <= b))
        for key, a, b, ok in checks:
            if a is None or b is None:
                cells.append("–")
                continue
            good = ok(a, b)
            met[key] += good
            measured[key] += 1
            cells.append(f"{a} / {b}" + ("" if good else " ✗"))
        live = R.peak_live_registers(ours), R.peak_live_registers(theirs)
        cells.append(f"{live[0]} / {live[1]}" if None not in live else "–")
        rows.append(cells)
    head = ["specialization", "PTX instructions", "machine instructions", "registers (ptxas)",
            "registers allocated", "live at most"]

    def of(key):
        return f"{met[key]} of {measured[key]}" if measured[key] else "not measured"

    return ("### Memory-bound kernels against Triton, sm_90a (twintile / Triton, fast math and hints on both)\n\n"
            + env_line(cg) + "\n" + table(head, rows) +
            "\ntwintile compiled with --math=fast and the hints, Triton (whose defaults are fast) with its "
            f"divisibility-16 hints. ✗: over 1.1× Triton's PTX instructions, or more than Triton's in the other columns. PTX instructions within 1.1× of Triton's: {of('instr')}. "
            "Machine instructions (nvdisasm of ptxas's cubin, padding left out) no more than Triton's: "
            f"{of('sass')}. Registers no more than Triton's, as ptxas counts them: {of('regs')}; as the GPU "
            "allocates them (a warp's registers come in units of 256, so a thread holds ptxas's count rounded up "
            f"to a multiple of 8): {of('alloc')}. Live at most: the most registers live at one instruction in "
            "ptxas's allocation (nvdisasm --print-life-ranges), what the code needs where ptxas's count is also "
            "how it chose to name them.\n")


def codegen_dynamic(cg):
    """The emulator's counts of one launch of twintile's PTX per specialization."""
    rows = []
    for variant in ("plain", "assumed"):
        for d in cg.get("dynamic", []):
            if d["variant"] != variant:
                continue
            if "error" in d:
                rows.append([f"`{d['spec']}`", variant] + ["–"] * 6 + ["error"])
                continue
            p = d["profile"]
            warp = sum(p["warp_instructions"].values())
            efficiency = p["global_bytes"] / (32 * p["global_sectors"]) if p["global_sectors"] else None
            conflicts = (p["shared_wavefronts"] / p["shared_ideal_wavefronts"]) if p["shared_ideal_wavefronts"] else None
            rows.append([f"`{d['spec']}`", variant, warp, p["global_requests"], p["global_sectors"],
                         "–" if efficiency is None else f"{100 * efficiency:.0f}%", p["shared_requests"],
                         "–" if conflicts is None else ratio(conflicts), "yes" if d["agrees_with_interpreter"] else "NO"])
    head = ["specialization", "variant", "warp instructions", "global requests", "32-byte sectors",
            "bytes used per sector", "shared requests", "shared wavefronts / ideal", "= interpreter"]
    return ("### One launch in the PTX emulator: twintile's PTX, sm_90a (dynamic counts)\n\n" + table(head, rows) +
            "\nOne launch per specialization (`experiments/kernels/launches.py`: three rows or programs, sizes "
            "divisible by 16 as the promises require, the same launch for both variants), profiled by the emulator "
            "(`twintile run --profile`; the model is in `runtime/EmuProfile.cpp`): warp-level instructions issued, "
            "global requests and the 32-byte sectors they touch (bytes used per sector: 100% is perfect "
            "coalescing), shared-memory wavefronts over the conflict-free ideal (1.00×: no bank conflicts). "
            "= interpreter: the launch's outputs match the IR interpreter's.\n")


def codegen_classes(cg, spec):
    idx = R.codegen_index(cg)
    producers = [("twintile_parse", "assumed", "twintile"), ("triton", "assumed", "Triton"),
                 ("cute", "assumed", "CuTe DSL"), ("nvcc", "plain", "nvcc")]
    present = [(p, v, label) for p, v, label in producers if (p, v, "sm_90a", spec) in idx]
    classes = sorted({c for p, v, _ in present for c in idx[(p, v, "sm_90a", spec)]["classes"]})
    rows = [[c] + [str(idx[(p, v, "sm_90a", spec)]["classes"].get(c, 0)) for p, v, _ in present] for c in classes]
    return (f"### `{spec}`, sm_90a, PTX instructions by class\n\n" +
            table(["class"] + [label for _, _, label in present], rows) + "\n")


CELL = {"accepted": "✓", "refused": "✗", "wrong": "≠", None: "·"}


def tensorcores(tc):
    rows = []
    for (spec, warps, stages, arch, variant), ours, theirs in R.tensorcore_pairs(tc):
        if not ours or "error" in ours:
            rows.append([f"`{spec}`", arch, str(warps), str(stages), variant, "error: " + (ours or {}).get("error", "not run")[:60]]
                        + ["–"] * 6)
            continue

        def pair(f, fmt=str):
            a, b = f(ours), f(theirs) if theirs and "error" not in theirs else None
            return (fmt(a) if a is not None else "–") + " / " + (fmt(b) if b is not None else "–")

        def ptx_ops(row):
            unit, n = R.tensor_core_ptx(row)
            return f"{unit} {n}" if unit else "none"

        def copies(row):
            ops = row.get("ptx_ops") or {}
            found = [f"{name} {ops[key]}" for key, name in (("cp.async.bulk.tensor", "TMA"), ("cp.async", "cp.async"))
                     if ops.get(key)]
            return found[0] if found else "none"

        def sass(row):
            s = R.tensor_core_sass(row)
            return None if s is None else ", ".join(f"{k} {v}" for k, v in s.items() if v) or "none"

        shared = ours.get("shared_bytes")
        # Where the rings did not fit, twintile planned fewer stages and said so in a note.
        fewer = next((m.group(1) for n in ours.get("notes", []) for m in [re.search(r"pipelined with (\d+)", n)] if m),
                     None)
        depth = f"{stages} (twintile {fewer})" if fewer else str(stages)
        rows.append([f"`{spec}`", arch, str(warps), depth, variant, pair(ptx_ops), pair(copies), pair(sass),
                     pair(R.registers), pair(R.spill_bytes), pair(lambda r: r.get("instructions")),
                     f"{shared / 1024:.0f}" if shared is not None else "–"])
    head = ["kernel", "target", "warps", "stages", "promises", "tensor cores, PTX", "copies, PTX", "SASS", "registers",
            "spill bytes", "PTX instructions", "twintile shared KiB"]
    missing = "".join(f" {k}: {v}." for k, v in tc.get("missing", {}).items())
    return ("### Tensor cores: matmul and attention at Triton's configurations (twintile / Triton)\n\n" + table(head, rows) +
            "\nEach cell is twintile's figure, then Triton's, for the same kernel (experiments/kernels/ and "
            "experiments/baselines/triton_kernels.py), tiles, warps and pipelining depth; `assumed` with the "
            "promises Triton's JIT derives from 16-byte-aligned pointers and integers divisible by 16 (twintile's "
            "--assume-aligned/--assume-divisible, Triton's divisibility hints), `plain` without. Tensor cores, PTX: "
            "the dot's instructions in the PTX (wgmma.mma_async or mma.sync); copies: its loads' asynchronous copies "
            "(TMA's cp.async.bulk.tensor, loads and stores, where there are any, else cp.async); SASS: their machine instructions "
            "(nvdisasm: HGMMA, Hopper's warpgroup MMA; HMMA, mma.sync's); registers and spills: ptxas "
            f"({tc.get('config', {}).get('ptxas_version') or 'not run'}). Shared memory: twintile's manifest (Triton "
            "sizes its own at launch)." + missing + "\n")


def expressiveness(ex):
    matrix, systems = R.expressiveness_matrix(ex)
    names = NAMES
    rows = [[f"`{f}`"] + [CELL[cells.get(s)] for s in systems] for f, cells in matrix.items()]
    summary = R.expressiveness_summary(ex)
    srows = []
    for s in systems:
        m = summary[s]
        followed = ["–"] * 4 if m["followed_right"] is None else \
            [f"{m['followed_right']}/{m['refused']}", m["followed_refused"], m["followed_wrong"], m["no_advice"]]
        srows.append([names[s], m["cases"], m["accepted"], m["refused"],
                      "–" if m["located"] is None else f"{m['located']}/{m['refused']}"] + followed)
    unfollowed = [[names[f"twintile_{fe}"], f"`{feature}`", FOLLOWED_WORDS[followed], detail.replace("|", "\\|")]
                  for fe, feature, followed, detail in R.expressiveness_followed(ex)]
    return ("### What each front end accepts\n\n" + env_line(ex) + "\n" + table(["feature"] + [names[s] for s in systems], rows,
                                                                       ["l"] + ["c"] * len(systems)) +
            "\n✓ accepted (and, for twintile, computes the reference in the interpreter); ✗ refused; "
            "≠ accepted but wrong; · no case written for that system: Python lacks the construct (goto, static "
            "locals, host pointers, C++'s virtual calls and references), the combinators are twintile's and "
            "Pallas's own, or the case is a C++ variant of one already covered.\n\n" +
            table(["system", "cases", "accepted", "refused", "refusal at the marked line", "following it worked",
                   "refused again", "wrong", "no advice"], srows) +
            "\nTriton's cases are compiled to PTX; Pallas's are traced and lowered to Triton IR. The location "
            "check needs the marker comments only twintile's cases carry. Following a refusal: the rewrite its "
            "message suggests, applied as literally as it says (`experiments/features/fixes/`), compiled with the "
            "same front end and, if accepted, run in the interpreter against what the case as written computes; "
            "written for twintile's refusals only." + missing_note(ex) +
            ("" if not unfollowed else "\n### Refusals whose message, followed, did not work\n\n" +
             table(["front end", "case", "following the message", "the new message, or why there is none"],
                   unfollowed, ["l"] * 4)))


FOLLOWED_WORDS = {"refused": "refused again", "wrong": "accepted, wrong answer", "no advice": "no advice"}


def gpu(g):
    runs = R.gpu_latest_runs(g)
    if not runs:
        note = g.get("note") or "no GPU run recorded"
        return note[0].upper() + note[1:] + ".\n"
    rows = []
    for run in runs:
        for k in run.get("kernels", []):
            checks = {k.get("check"), k.get("check_fast", k.get("check"))}
            fast = k.get("twintile_fast_s")
            rows.append([run.get("machine", "?"), f"`{k.get('kernel')}`", k.get("size", ""),
                         " / ".join(sorted(c or "not run" for c in checks)), ms(k.get("twintile_s")), ms(fast),
                         ms(k.get("triton_s")), ms(k.get("torch_s")), k.get("throughput", ""),
                         f"{k['triton_s'] / fast:.2f}" if fast and k.get("triton_s") else "–",
                         f"{k['torch_s'] / fast:.2f}" if fast and k.get("torch_s") else "–"])
    earlier = len(g.get("runs", [])) - len(runs)
    return ("### Kernel times on a GPU, the largest specialization of each kernel (ms, median)\n\n" +
            table(["machine", "kernel", "size", "check", "twintile", "twintile fast", "Triton", "PyTorch", "throughput (fast)", "Triton / twintile fast", "PyTorch / twintile fast"], rows) +
            "\nThe newest run of each machine (" + ", ".join(f"{r.get('machine')} on {r.get('date', '?')[:10]}, "
                                                           f"commit {r.get('commit')}" for r in runs) +
            "); medians of " + "/".join(sorted({str(len(k.get("twintile_seconds") or [])) for r in runs
                                                for k in r.get("kernels", [])})) +
            " timed launches after warm-up, each after a 256 MiB memset that clears the L2. "
            "`twintile` is `--math=precise`, `twintile fast` is `--math=fast` (the approximate division and "
            "exponential that Triton's `/` and `tl.exp` lower to); both are checked against the IR interpreter. "
            "Throughput is compulsory traffic (GB/s) or FLOP (TFLOP/s) over twintile fast's time; a ratio above 1 "
            "means twintile is faster. PyTorch is its own ops: cuBLAS for matmul, `scaled_dot_product_attention` "
            "for attention." + (f" {earlier} earlier run(s) are kept in experiments/results/gpu.json." if earlier
                                else "") + "\n")


def realworld(rw):
    """The real-world corpus: each upstream kernel, what each front end made of its port."""
    cells = R.realworld_cells(rw)
    libs = ", ".join(f"{lib} {v or '(not installed: unchecked)'}" for lib, v in sorted(rw.get("libraries", {}).items()))

    def mark(row):
        if not row:
            return "–"
        if row["outcome"] == "refused":
            return f"✗ line {row['line']}" if row.get("line") else "✗"
        if row["outcome"] != "accepted":
            return "‼ " + row["outcome"]
        check = str(row.get("check"))
        if check.startswith("failed"):
            return "‼ launch failed"
        return "✓" if check == "ok" else "✓ (unchecked)" if check.startswith("unchecked") else "≠"

    def rewrite(k, frontend):
        r = k.get("rewrites", {}).get(frontend)
        if not r:
            return ""
        after = mark(cells.get((k["name"], frontend, "rewritten")))
        return f"{after} +{r['added']} −{r['removed']}: {', '.join(r.get('why', []))}"

    frontends = R.realworld_frontends(rw)
    rewritten = [f for f in frontends if any(f in k.get("rewrites", {}) for k in rw.get("kernels", []))]
    rows = [[f"`{k['name']}`", f"{k['library']}: `{k['function']}`", k["lines"]] +
            [mark(cells.get((k["name"], f, "written"))) for f in frontends] +
            [rewrite(k, f) for f in rewritten] for k in rw.get("kernels", [])]
    summary = R.realworld_summary(rw)
    srows = []
    for frontend in frontends:
        m = summary[frontend]
        srows.append([frontend, m["kernels"], m["right"], m["wrong"], m["refused"], m["broken"],
                      f"{m['rewrites_right']}/{m['rewrites']}" +
                      (f" ({m['rewrites_unchecked']} unchecked)" if m["rewrites_unchecked"] else ""),
                      f"{R.median(m['lines']):g}" if m["lines"] else "–",
                      "; ".join(f"{c} {n}" for c, n in sorted(m["categories"].items(), key=lambda x: -x[1])) or "–"])
    return ("### Kernels from the wild: upstream Triton kernels ported as written\n\n" +
            table(["kernel", "upstream", "lines"] + frontends + [f"{f}: rewritten" for f in rewritten], rows,
                  ["l", "l", "r"] + ["l"] * (len(frontends) + len(rewritten))) +
            f"\nUpstream: {libs}; each port checked against its upstream kernel run in Triton "
            f"{rw.get('triton') or '(not installed)'}'s interpreter on the same inputs, and in twintile's PTX "
            "emulator against its IR interpreter. ✓ accepted and right; ≠ accepted but computing something else "
            "(than upstream, or the PTX than the IR); "
            "✗ refused (at the port's line); ‼ an internal error, a crash or a launch that failed after the compile; rewritten: the variant that front end "
            "accepts, lines of code added and removed, and what forced the change.\n\n" +
            table(["front end", "kernels", "right as written", "wrong", "refused", "internal error or failure", "rewrites right",
                   "lines changed (median)", "what forced the rewrites"], srows) + missing_note(rw))


def realworld_compile(rw):
    """Compile time and PTX of each port beside its upstream kernel."""
    per = R.realworld_compile(rw)

    def ratio(a, b, digits=2):
        return f"{a / b:.{digits}f}×" if a and b else "–"

    frontends = R.realworld_frontends(rw)
    rows = [[f"`{name}`"] + [ms(m.get(f)) for f in frontends] + [ms(m.get("triton"))] +
            [ratio(m.get("triton"), m.get(f), 1) for f in frontends] +
            [f"{m.get('twintile_instructions', '–')} / {m.get('upstream_instructions', '–')}",
             f"{m.get('twintile_registers') or '–'} / {m.get('upstream_registers') or '–'}"]
            for name, m in per.items()]
    return ("### Kernels from the wild: compile time and PTX against the upstream kernel (ms, median)\n\n" +
            table(["kernel"] + [f"{f} → PTX" for f in frontends] + ["Triton → PTX"] +
                  [f"Triton / {f}" for f in frontends] +
                  ["PTX instructions, twintile / upstream", "registers, twintile / upstream"], rows) +
            "\nBoth compiled as Triton's JIT compiles at the manifest's launch: fast math (twintile's "
            "`--math=fast`, Triton's defaults), the launch's num_warps, pointers aligned and integers divisible by "
            "16 hinted (Triton's JIT also makes an integer equal to 1 a constant; twintile has no such "
            "specialization). Each accepted port (as written, else its rewrite) through each front end in one "
            "compile_probe process after a warm-up; the upstream kernel through Triton's compile in one process "
            "after a warm-up, a fresh cache each repetition, its ptxas stage left out. PTX: the parsing front "
            "end's (else the tracing one's), counted by one rule; registers by one ptxas. – where a front end "
            "accepts no right variant or a baseline is missing.\n")


def realworld_profile(rw):
    """The emulator's counts of one launch of each port's PTX."""
    rows = []
    for name, m in R.realworld_profile(rw).items():
        port = f"{m['frontend']}{', rewritten' if m.get('rewritten') else ''}"
        if "error" in m:
            rows.append([f"`{name}`", port] + ["–"] * 7 + ["error"])
            continue
        rows.append([f"`{name}`", port, m["warp_instructions"], m["global_requests"], m["global_sectors"],
                     m["global_bytes"], "–" if m["sector_use"] is None else f"{100 * m['sector_use']:.0f}%",
                     m["shared_requests"], ratio(m["conflicts"]), "yes" if m["agrees"] else "NO"])
    head = ["kernel", "port", "warp instructions", "global requests", "32-byte sectors", "bytes asked for",
            "asked for / sector bytes", "shared requests", "shared wavefronts / ideal", "= interpreter"]
    return ("### Kernels from the wild: one launch in the PTX emulator, twintile's PTX, sm_90a (dynamic counts)\n\n" +
            table(head, rows) +
            "\nThe PTX the compile table counts (the parsing front end's port as written, else its rewrite, else "
            "the tracing front end's; compiled as Triton's JIT compiles: fast math, the launch's num_warps, the "
            "JIT's hints), launched once at the manifest's grid on the inputs the check gives it, profiled by the "
            "emulator (`twintile run --profile`; the model is in `runtime/EmuProfile.cpp`): warp-level "
            "instructions issued, global requests and the 32-byte sectors they touch, the bytes the lanes asked "
            "for over the bytes of those sectors (100%: perfect coalescing; below, bytes fetched that no lane "
            "asked for; above, several lanes asked for the same bytes, which one sector serves once), "
            "shared-memory wavefronts over the conflict-free ideal "
            "(1.00×: no bank conflicts). = interpreter: the launch's outputs match the IR interpreter's. "
            "twintile's side only: the upstream kernel runs in Triton's interpreter, which has no such counts.\n")


def claims(res):
    """The seed essay's claims, each measured, with its verdict (experiments/report/claims.py)."""
    rows = [[r["claim"], r["source"], r["numbers"], f"**{r['verdict']}**: {r['why']}"] for r in C.rows(res)]
    c = res.get("claims")
    return ("### The seed's claims, measured\n\n" + (env_line(c) + "\n" if c and c.get("environment") else "") +
            table(["claim", "measured by", "numbers", "verdict"], rows, align=["l"] * 4) +
            f"\nThe bars: \"tens of seconds\" is at least {C.TENS_OF_SECONDS:.0f} s; a library build's "
            f"\"over {C.LIBRARY_MINUTES:.0f} minutes\" (the essay's figure) holds where the projected build takes "
            f"longer even on {C.BUILD_SERVER_CORES} cores and does not where this machine's cores fit it in; the "
            "build is a projection (the kernel count of CUTLASS's own generator times the median compile here), not "
            f"a build; \"up to 100×\" holds where every DSL front end is {C.DSL_FACTOR:.0f}× faster and does not "
            f"where none is {C.DSL_FLOOR:.0f}×. nvcc compiles the CUTLASS kernel to an object (`-c`, ptxas included); "
            "the DSLs' times are to a cubin too, each one process, start-up included (Triton's: Python, its import "
            "and one compile with an empty cache). The block-size row: a load is a vector one where it moves more "
            f"than an element ({C.F32_BYTES} bytes, f32), counted statically in the PTX of each softmax (nvcc -ptx, "
            "sm_90a); the verdict compares only nvcc's loops that differ in the block size's being a constant "
            "(experiments/claims/softmax_runtime_block.cu: scalar accesses to a thread's contiguous columns, the "
            "compiler's to vectorize, and 16-byte accesses written by hand), which are compiled, not run; a loop "
            "that vectorizes in neither form says nothing of the claim; twintile's rows are promised "
            "what its launch API, as Triton's JIT, specializes on at launch (16-byte alignment, divisibility by 16), "
            "where the CUDA kernels test alignment in the kernel. The instantiations row: a caller's dispatch is the "
            "code between its file's markers (experiments/claims/dispatch/, our renderings), neither blank nor only "
            "a comment; a variant is named where an element type and a block size stand side by side; when each "
            "system compiles the variants is recorded with the file, not measured; nvcc's \"one\" is one "
            "instantiation alone, which an ahead-of-time build cannot choose; the compiles are to PTX on one thread "
            "(Triton's to a cubin)." +
            (missing_note(c) if c else ""))


def all_tables(res):
    """{file name: Markdown} for every table the results allow."""
    out = {}
    if "compile" in res:
        c = res["compile"]
        if c.get("phases", {}).get("twintile"):
            out["compile_frontends.md"] = compile_frontends(c)
            out["compile_backend.md"] = compile_backend(c)
        out["compile_sweep.md"] = compile_sweep(c)
        out["compile_scaling.md"] = compile_scaling(c)
    if "codegen" in res:
        out["codegen.md"] = codegen(res["codegen"])
        if R.codegen_targets(res["codegen"]):
            out["codegen_targets.md"] = codegen_targets(res["codegen"])
        specs = {r["spec"] for r in res["codegen"]["rows"]}
        for spec in ("softmax<f16,1024>", "softmax<f32,1024>", "matmul<64,64,32>"):
            if spec in specs:
                out["codegen_classes.md"] = out.get("codegen_classes.md", "") + codegen_classes(res["codegen"], spec) + "\n"
        if res["codegen"].get("dynamic"):
            out["codegen_dynamic.md"] = codegen_dynamic(res["codegen"])
    if "tensorcores" in res:
        out["tensorcores.md"] = tensorcores(res["tensorcores"])
    if "expressiveness" in res:
        out["expressiveness.md"] = expressiveness(res["expressiveness"])
    if "gpu" in res:
        out["gpu.md"] = gpu(res["gpu"])
    if "claims" in res:
        out["claims.md"] = claims(res)
    if "realworld" in res:
        out["realworld.md"] = realworld(res["realworld"])
        if res["realworld"].get("compile"):
            out["realworld_compile.md"] = realworld_compile(res["realworld"])
        if res["realworld"].get("profile"):
            out["realworld_profile.md"] = realworld_profile(res["realworld"])
    return out

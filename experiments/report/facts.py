"""The named numbers the paper's prose states, each computed from the results.

paper/paper.md.in writes `{{name}}` where a number goes; facts() gives every
name its text. A name the results cannot give reads "n/a" (a quick run
measures fewer kernels), never a typed-in number.
"""
import math

from experiments.report import results as R

NA = "n/a"


def _f(x, fmt):
    return NA if x is None else format(x, fmt)


def _ms(seconds):
    if seconds is None:
        return NA
    v = seconds * 1e3
    return f"{v:.0f}" if v >= 100 else f"{v:.3g}"


def _us(seconds):
    return NA if seconds is None else f"{seconds * 1e6:.3g}"


def _x(r):
    return NA if r is None else f"{r:.1f}×"


def _times2(r):
    return NA if r is None else f"{r:.2f}×"


def _word(r, above, below, same="as fast as"):
    if r is None:
        return NA
    return above if r > 1.05 else below if r < 0.95 else same


def key_spec(specs):
    for want in ("softmax<f16,1024>", "softmax<f32,1024>"):
        if want in specs:
            return want
    return specs[0] if specs else None


ENVIRONMENT = ("date", "cpu", "cores", "commit", "llvm", "nvcc", "triton", "jax", "cutlass", "ptxas")


def environment_facts(res):
    """The machine and tools (from the first result file), and the commit each suite ran at."""
    f = dict.fromkeys(ENVIRONMENT, NA)
    env = next((r["environment"] for r in res.values() if "environment" in r), None)
    if env:
        f.update(date=env["date"][:10], cpu=env.get("cpu") or NA, cores=str(env.get("cores")),
                 llvm=env.get("llvm") or NA, nvcc=env.get("nvcc") or NA,
                 triton=env.get("triton") or "not installed", jax=env.get("jax") or "not installed",
                 cutlass=env.get("cutlass") or "not installed", ptxas=env.get("ptxas") or NA)
    by_commit = {}
    for suite, r in res.items():
        if "environment" in r:
            e = r["environment"]
            key = str(e.get("git_commit"))[:10] + (" (modified)" if e.get("git_dirty") else "")
            by_commit.setdefault(key, []).append(suite)
    if len(by_commit) == 1:
        f["commit"] = f"`{next(iter(by_commit))}`"
    elif by_commit:
        f["commit"] = "; ".join(f"`{c}` for {', '.join(s)}" for c, s in by_commit.items())
    return f


def compile_facts(c):
    config = c.get("config", {})
    f = {"reps": str(config.get("reps", NA)), "run_kind": "quick" if config.get("quick") else "full"}
    s = R.sweep_summary(c)
    med = {k: v["median"] for k, v in s.items()}
    for k in ("twintile_parse", "twintile_trace", "twintile_trace_clang", "twintile_parse_command",
              "twintile_trace_command", "twintile_trace_clang_command", "twintile_parse_one_process",
              "twintile_trace_one_process", "nvcc", "triton", "pallas", "cute"):
        f[f"sweep_{k}_s"] = _f(med.get(k), ".2f")

    def r(a, b):
        return med[a] / med[b] if a in med and b in med and med[b] else None

    f["nvcc_over_parse_driver"] = _x(r("nvcc", "twintile_parse"))
    f["parse_driver_vs_nvcc_word"] = _word(r("nvcc", "twintile_parse"), "faster than", "slower than")
    f["nvcc_over_parse_command"] = _x(r("nvcc", "twintile_parse_command"))
    f["nvcc_over_trace_command"] = _x(r("nvcc", "twintile_trace_command"))
    f["nvcc_over_trace_clang_command"] = _x(r("nvcc", "twintile_trace_clang_command"))
    f["trace_clang_driver_over_nvcc"] = _x(r("twintile_trace_clang", "nvcc"))
    f["trace_command_vs_nvcc_word"] = _word(r("nvcc", "twintile_trace_command"), "faster than", "slower than")
    f["triton_over_parse_command"] = _x(r("triton", "twintile_parse_command"))
    f["triton_over_trace_command"] = _x(r("triton", "twintile_trace_command"))
    f["nvcc_over_parse_one"] = _x(r("nvcc", "twintile_parse_one_process"))
    f["nvcc_over_trace_one"] = _x(r("nvcc", "twintile_trace_one_process"))
    f["trace_one_vs_nvcc_word"] = _word(r("nvcc", "twintile_trace_one_process"), "faster than", "slower than")
    f["trace_driver_over_nvcc"] = _x(r("twintile_trace", "nvcc"))
    f["triton_over_parse_one"] = _x(r("triton", "twintile_parse_one_process"))
    f["triton_over_trace_one"] = _x(r("triton", "twintile_trace_one_process"))
    f["trace_over_parse_driver"] = _x(r("twintile_trace", "twintile_parse"))
    f["cute_over_parse_one"] = _x(r("cute", "twintile_parse_one_process"))
    cute = R.cute_medians(c)

    inproc = R.sweep_backend(c)
    f["sweep_backend_ms"] = _ms(inproc.get("median"))
    f["sweep_backend_first_ms"] = _ms(inproc.get("first"))

    ph = R.phase_medians(c)
    tri = R.triton_medians(c)
    pal, checks = R.pallas_medians(c)
    specs = list(dict.fromkeys(s["spec"] for s in c.get("phases", {}).get("twintile", [])))
    k = key_spec(specs)
    f["key_spec"] = f"`{k}`" if k else NA
    p, t = ph.get(("parse", k), {}), ph.get(("trace", k), {})
    nopch = ph.get(("parse_nopch", k), {})
    f["key_parse_ms"] = _ms(p.get("parse_s"))
    f["key_parse_nopch_ms"] = _ms(nopch.get("parse_s"))
    f["key_walk_us"] = _us(p.get("walk_s"))
    clangxx = ph.get(("trace_clang", k), {})
    host = R.host_cost(t)
    f["key_host_compile_ms"] = _ms(host)
    f["key_host_clang_ms"] = _ms(t.get("host_compile_s"))
    f["key_host_codegen_ms"] = _ms(t.get("host_codegen_s"))
    f["key_host_load_ms"] = _ms(t.get("host_load_s"))
    f["key_host_clangxx_ms"] = _ms(R.host_cost(clangxx))
    f["key_host_over_parse"] = _x(host / p["parse_s"] if host and p.get("parse_s") else None)
    f["key_clangxx_over_host"] = _x(R.host_cost(clangxx) / host if host and R.host_cost(clangxx) else None)
    f["key_trace_us"] = _us(t.get("trace_s"))
    # The hybrid: the parse front end's parse, the rewrite, then the tracing front end's host compile and trace.
    h = ph.get(("hybrid", k), {})
    hybrid = [h.get(x) for x in ("parse_s", "rewrite_s") + R.HOST_PHASES + ("trace_s",)]
    hybrid_s = None if None in hybrid else sum(hybrid)
    traced_s = host + t["trace_s"] if host and t.get("trace_s") is not None else None
    f["key_hybrid_parse_ms"] = _ms(h.get("parse_s"))
    f["key_hybrid_rewrite_us"] = _us(h.get("rewrite_s"))
    f["key_hybrid_ms"] = _ms(hybrid_s)
    f["key_trace_front_ms"] = _ms(traced_s)
    f["key_hybrid_over_trace"] = _x(hybrid_s / traced_s if hybrid_s and traced_s else None)
    f["key_backend_ms"] = _ms(sum(p.get(x) or 0 for x in R.BACKEND_TO_PTX) if p else None)
    f["key_optimize_nvptx_share"] = _f(100 * ((p.get("optimize_s") or 0) + (p.get("nvptx_s") or 0)) /
                                       sum(p.get(x) or 0 for x in R.BACKEND_TO_PTX) if p else None, ".0f")
    f["key_triton_ast_ms"] = _ms(tri.get(k, {}).get("ast"))
    f["key_triton_to_ptx_ms"] = _ms(tri.get(k, {}).get("to_ptx"))
    f["key_pallas_trace_ms"] = _ms(pal.get(k, {}).get("trace_s"))
    f["key_cute_ms"] = _ms(cute.get(k))
    f["key_pallas_lower_ms"] = _ms(pal.get(k, {}).get("lower_s"))
    f["pallas_checked"] = str(sum(v == "ok" for v in checks.values()))
    f["pallas_kernels"] = str(len(checks))

    for key, name in (("scaling_stages", "stages"), ("scaling_specs", "specs")):
        summ = R.scaling_summary(c.get(key))
        for system in ("twintile_parse", "twintile_trace", "twintile_trace_clang", "triton"):
            pts = summ.get(system, [])
            f[f"{name}_{system}_slope"] = _f(R.growth(pts), ".2f")
            f[f"{name}_{system}_max_ms"] = _ms(pts[-1][2]) if pts else NA
        sizes = sorted({p[0] for pts in summ.values() for p in pts})
        f[f"{name}_max"] = str(sizes[-1]) if sizes else NA
    return f


def codegen_facts(cg):
    f = {}
    for against in ("triton", "nvcc"):
        rows = R.codegen_ratios(cg, "assumed", "sm_90a", against)
        f[f"instr_vs_{against}"] = _x(R.geomean([r for _, r, _ in rows]))
        f[f"regs_vs_{against}"] = _x(R.geomean([g for _, _, g in rows if g]))
        f[f"n_vs_{against}"] = str(len(rows))
        f[f"fewer_instr_than_{against}"] = str(sum(r < 1 for _, r, _ in rows))
    fast = R.codegen_ratios(cg, "fast", "sm_90a", "triton")
    f["n_vs_triton_fast"] = str(len(fast))
    f["instr_vs_triton_fast"] = _x(R.geomean([r for _, r, _ in fast]))
    f["regs_vs_triton_fast"] = _x(R.geomean([g for _, _, g in fast if g]))
    fast_plain = R.codegen_ratios(cg, "fast_plain", "sm_90a", "triton")
    f["instr_vs_triton_fast_plain"] = _x(R.geomean([r for _, r, _ in fast_plain]))
    f["regs_vs_triton_fast_plain"] = _x(R.geomean([g for _, _, g in fast_plain if g]))
    targets = R.codegen_targets(cg)
    f["n_memory_bound"] = str(len(targets))
    f["memory_bound_instr_ok"] = str(sum(o["instructions"] <= 1.1 * t["instructions"] for _, o, t in targets))
    regs = [(R.registers(o), R.registers(t)) for _, o, t in targets if R.registers(o) and R.registers(t)]
    f["memory_bound_regs_ok"] = str(sum(a <= b for a, b in regs))
    def over(spec, o, t):
        live = R.peak_live_registers(o), R.peak_live_registers(t)
        return (f"`{spec}` ({R.registers(o)} against {R.registers(t)}"
                + (f"; at most {live[0]} live against {live[1]}" if None not in live else "") + ")")

    f["memory_bound_regs_over"] = ", ".join(over(s, o, t) for s, o, t in targets if R.registers(o) and
                                            R.registers(t) and R.registers(o) > R.registers(t)) or "none"
    f["memory_bound_alloc_ok"] = str(sum(R.allocated_registers(a) <= R.allocated_registers(b) for a, b in regs))
    sass = [(R.sass_instructions(o), R.sass_instructions(t)) for _, o, t in targets
            if R.sass_instructions(o) and R.sass_instructions(t)]
    f["memory_bound_sass_ratio"] = f"{R.geomean([a / b for a, b in sass]):.2f}×" if sass else NA
    f["memory_bound_sass_fewer"] = str(sum(a <= b for a, b in sass)) if sass else NA
    checks = cg.get("triton_checks", [])
    f["triton_checked_ok"] = str(sum(c["check"] == "ok" for c in checks))
    f["triton_checked"] = str(len(checks))
    f["triton_unchecked"] = str(sum(c["check"].startswith("unchecked") for c in checks))
    f["dynamic_launches"] = str(len(cg.get("dynamic", [])))  # failed launches count, as disagreements
    dyn = [d for d in cg.get("dynamic", []) if "profile" in d]
    f["dynamic_agree"] = str(sum(d["agrees_with_interpreter"] for d in dyn))
    conflicted = sorted({d["spec"] for d in dyn if d["profile"]["shared_wavefronts"] >
                         d["profile"]["shared_ideal_wavefronts"]})
    f["bank_conflict_specs"] = ", ".join(f"`{s}`" for s in conflicted) if conflicted else "none"
    for variant in ("plain", "assumed"):
        rows = [d["profile"] for d in dyn if d["variant"] == variant]
        req = sum(p["global_requests"] for p in rows)
        used = sum(p["global_bytes"] for p in rows)
        f[f"bytes_per_request_{variant}"] = _f(used / req if req else None, ".0f")

    def use(p):  # the share of each touched sector the lanes asked for, in percent
        return 100 * p["global_bytes"] / (32 * p["global_sectors"]) if p["global_sectors"] else None

    per_spec = {}
    for d in dyn:
        per_spec.setdefault(d["spec"], {})[d["variant"]] = use(d["profile"])
    up, down, same = [], [], 0
    for spec, u in per_spec.items():
        a, b = u.get("plain"), u.get("assumed")
        if a is None or b is None:
            continue
        if b > a + 1:
            up.append(f"`{spec}` ({a:.0f}% → {b:.0f}%)")
        elif b < a - 1:
            down.append(f"`{spec}` ({a:.0f}% → {b:.0f}%)")
        else:
            same += 1
    f["sector_use_same"] = str(same)
    f["sector_use_up"] = ", ".join(up) if up else "none"
    f["sector_use_down"] = ", ".join(down) if down else "none"
    idx = R.codegen_index(cg)
    plain = [R.registers(idx.get(("twintile_parse", "plain", "sm_90a", s))) for s in
             {r["spec"] for r in cg.get("rows", [])}]
    f["same_ptx_both_frontends"] = str(sum(
        1 for (p, v, a, s), row in idx.items() if p == "twintile_parse" and
        idx.get(("twintile_trace", v, a, s), {}).get("ptx_sha256") == row["ptx_sha256"]))
    f["ptx_compared"] = str(sum(1 for (p, _, _, _) in idx if p == "twintile_parse"))
    # The hybrid's PTX against the parsing front end's, where the result has it (runs from before the
    # hybrid have none: the sentence is left out).
    hybrid = [(row, idx.get(("twintile_parse", v, a, s))) for (p, v, a, s), row in idx.items() if p == "twintile_hybrid"]
    hybrid = [(h, p) for h, p in hybrid if p and "ptx_sha256" in h and "ptx_sha256" in p]
    f["codegen_hybrid_sentence"] = (
        f" The hybrid front end's PTX is byte-identical to the parsing front end's in "
        f"{sum(h['ptx_sha256'] == p['ptx_sha256'] for h, p in hybrid)} of the {len(hybrid)} compiles both made."
        if hybrid else "")
    f["max_registers"] = str(max((r for r in plain if r), default=0)) if any(plain) else NA
    return f


def expressiveness_facts(ex):
    f = {}
    summ = R.expressiveness_summary(ex)
    for system in ("twintile_parse", "twintile_trace", "twintile_hybrid", "triton", "pallas"):
        m = summ.get(system)
        for key in ("accepted", "refused", "cases", "located", "followed_unsaid") + tuple(R.FOLLOWED.values()):
            value = m.get(key) if m else None
            f[f"{system}_{key}"] = NA if value is None else str(value)
    # The three front ends together: following the message worked for followed_right_all of refused_all.
    twintile = [summ[s] for s in ("twintile_parse", "twintile_trace", "twintile_hybrid") if s in summ]
    for key in ("refused",) + tuple(R.FOLLOWED.values()):
        values = [m[key] for m in twintile]
        f[f"{key}_all"] = NA if not values or None in values else str(sum(values))
    f.update(_hybrid_facts(ex))
    return f


def _hybrid_facts(ex):
    """What the hybrid accepts beside the two pure front ends: the union of theirs, and the cases
    on each side of it."""
    matrix, _ = R.expressiveness_matrix(ex)
    three = {feat: m for feat, m in matrix.items() if all(f"twintile_{fe}" in m for fe in ("parse", "trace", "hybrid"))}
    ok = {fe: {feat for feat, m in three.items() if m[f"twintile_{fe}"] == "accepted"} for fe in ("parse", "trace", "hybrid")}
    in_order = lambda names: [feat for feat in three if feat in names]  # noqa: E731
    if not three:
        return dict.fromkeys(("ex_three_n", "ex_union", "ex_hybrid_not_parse", "ex_parse_not_hybrid",
                              "ex_trace_not_hybrid", "ex_hybrid_only"), NA)
    return {"ex_three_n": str(len(three)), "ex_union": str(len(ok["parse"] | ok["trace"])),
            "ex_hybrid_not_parse": _some(in_order(ok["hybrid"] - ok["parse"]), limit=8),
            "ex_parse_not_hybrid": _some(in_order(ok["parse"] - ok["hybrid"]), limit=8),
            "ex_trace_not_hybrid": _some(in_order(ok["trace"] - ok["hybrid"])),
            "ex_hybrid_only": _some(in_order(ok["hybrid"] - ok["parse"] - ok["trace"]))}


GPU_FACTS = ("gpu_device", "gpu_date", "gpu_mem_verdict", "gpu_mem_precise_median",
             "gpu_precise_worst", "gpu_precise_worst_cost", "gpu_checks", "gpu_checks_ok", "gpu_mem_kernels", "gpu_mem_triton_geomean",
             "gpu_mem_triton_min", "gpu_mem_triton_max", "gpu_mem_gbps_median", "gpu_mem_torch_geomean",
             "gpu_matmul_tflops", "gpu_matmul_triton_tflops", "gpu_matmul_torch_tflops",
             "gpu_flash_tflops", "gpu_flash_triton_tflops", "gpu_flash_torch_tflops", "gpu_dot_engine")


def gpu_facts(g):
    """The newest GPU run's story (of the first machine by name, where several ran)."""
    f = dict.fromkeys(GPU_FACTS, NA)
    f["gpu_runs"] = str(len(g.get("runs", []))) if g else NA
    runs = R.gpu_latest_runs(g) if g else []
    if not runs:
        return f
    run = runs[0]
    s = R.gpu_summary(run)
    mem = [r for r in s["rows"] if r["bound"] == "memory"]
    ratios = [r["triton_ratio"] for r in mem if r["triton_ratio"]]
    by = {r["kernel"]: r for r in s["rows"]}
    f.update(gpu_device=run.get("device") or run.get("machine", NA), gpu_date=run.get("date", NA)[:10],
             gpu_checks=str(s["checks"]), gpu_checks_ok=str(s["checks_ok"]), gpu_mem_kernels=str(len(mem)),
             gpu_mem_triton_geomean=_f(R.geomean(ratios), ".2f"),
             gpu_mem_triton_min=_f(min(ratios, default=None), ".2f"),
             gpu_mem_triton_max=_f(max(ratios, default=None), ".2f"),
             gpu_mem_gbps_median=_f(R.median([r["gbps"] for r in mem]), ".0f"),
             gpu_mem_torch_geomean=_f(R.geomean([r["torch_ratio"] for r in mem]), ".2f"),
             gpu_mem_verdict=_word(R.geomean(ratios), "faster than", "slower than"),
             gpu_mem_precise_median=_f(R.median([r["precise_cost"] for r in mem]), ".2f"))
    worst = max((r for r in mem if r["precise_cost"]), key=lambda r: r["precise_cost"], default=None)
    if worst:
        f.update(gpu_precise_worst=worst["kernel"], gpu_precise_worst_cost=_f(worst["precise_cost"], ".2f"))
    # Runs record which instructions the dots used since twintile lowered them to wgmma; every
    # earlier run's were mma.sync.
    recorded = [r for r in run.get("kernels", []) if "tensor_cores" in r]
    engines = sorted({r["tensor_cores"] for r in recorded if r["tensor_cores"]})
    f["gpu_dot_engine"] = (" and ".join(f"`{e}`" for e in engines) or "no tensor-core instruction" if recorded else
                           "`mma.sync` (the run predates twintile's wgmma)")
    for key, spec in (("matmul", "matmul<64,64,32>"), ("flash", "flash_attention<64,64,64>")):
        r = by.get(spec, {})
        f[f"gpu_{key}_tflops"] = _f(r.get("tflops"), ".0f")
        f[f"gpu_{key}_triton_tflops"] = _f(r.get("triton_tflops"), ".0f")
        f[f"gpu_{key}_torch_tflops"] = _f(r.get("torch_tflops"), ".0f")
    return f


def realworld_facts(rw):
    f = {}
    summary = R.realworld_summary(rw) if rw else {}
    libs = rw.get("libraries", {}) if rw else {}
    f["rw_kernels"] = str(len(rw.get("kernels", []))) if rw else NA
    f["rw_libraries"] = " and ".join(f"{lib} {v}" for lib, v in sorted(libs.items()) if v) or NA
    for frontend in ("parse", "trace", "hybrid"):
        m = summary.get(frontend)
        for key in ("right", "wrong", "refused", "broken", "rewrites", "rewrites_right", "rewrites_unchecked",
                    "unchecked"):
            f[f"rw_{frontend}_{key}"] = str(m[key]) if m else NA
        f[f"rw_{frontend}_lines"] = _f(R.median(m["lines"]) if m else None, "g")
        top = sorted(m["categories"].items(), key=lambda x: -x[1]) if m else []
        f[f"rw_{frontend}_top_category"] = f"{top[0][0]} ({top[0][1]} of {m['rewrites']})" if top else NA
    cells = R.realworld_cells(rw) if rw else {}
    refused = [k["name"] for k in rw.get("kernels", [])
               if (cells.get((k["name"], "hybrid", "written")) or {}).get("outcome") == "refused"] if rw else []
    f["rw_hybrid_refused_names"] = _some(refused) if "hybrid" in summary else NA
    # (A result from before the measure has no agreement; one where nothing ran, no rows.)
    measured = bool(rw) and "agreement" in rw and bool(rw.get("rows"))
    agreed = [a for a in rw.get("agreement", []) if "same_ptx" in a] if measured else []
    for frontend in ("trace", "hybrid"):  # of the ports it and the parsing front end accept as written
        pairs = [a["same_ptx"][frontend] for a in agreed if frontend in a["same_ptx"]]
        ran = measured and frontend in R.realworld_frontends(rw)
        f[f"rw_{frontend}_agree_n"] = str(len(pairs)) if ran else NA
        f[f"rw_{frontend}_same_ptx"] = str(sum(pairs)) if ran else NA
    per = R.realworld_compile(rw) if rw else {}
    ran = R.realworld_frontends(rw) if rw else []
    for frontend in ("parse", "trace", "hybrid"):
        ratios = [m["triton"] / m[frontend] for m in per.values() if m.get("triton") and m.get(frontend)]
        f[f"rw_{frontend}_compile_speedup"] = _f(R.geomean(ratios), ".1f")
        f[f"rw_{frontend}_compile_kernels"] = str(len(ratios)) if per and frontend in ran else NA
    pairs = [m for m in per.values() if m.get("twintile_instructions") and m.get("upstream_instructions")]
    f["rw_ptx_kernels"] = str(len(pairs)) if per else NA
    f["rw_ptx_ratio"] = _f(R.geomean([m["twintile_instructions"] / m["upstream_instructions"] for m in pairs]), ".2f")
    regs = [m for m in pairs if m.get("twintile_registers") and m.get("upstream_registers")]
    f["rw_reg_ratio"] = _f(R.geomean([m["twintile_registers"] / m["upstream_registers"] for m in regs]), ".2f")
    prof = R.realworld_profile(rw) if rw else {}
    ran = {n: m for n, m in prof.items() if "error" not in m}
    f["rw_profile_launches"] = str(len(prof)) if rw else NA  # failed launches count, as disagreements
    f["rw_profile_agree"] = str(sum(m["agrees"] for m in ran.values())) if rw else NA
    use = sorted((m["sector_use"], n) for n, m in ran.items() if m["sector_use"] is not None)
    f["rw_profile_sector_use"] = _f(100 * R.median([u for u, _ in use]) if use else None, ".0f")
    f["rw_profile_sector_use_min"] = f"{100 * use[0][0]:.0f}%, `{use[0][1]}`" if use else NA
    f["rw_profile_full_sectors"] = str(sum(u >= 0.995 for u, _ in use)) if rw else NA
    conflicted = [f"`{n}` ({m['conflicts']:.2f}×)" for n, m in ran.items() if m["conflicts"] and m["conflicts"] > 1]
    f["rw_profile_shared"] = str(sum(m["shared_requests"] > 0 for m in ran.values())) if rw else NA
    f["rw_profile_conflicted"] = ", ".join(conflicted) if conflicted else "none" if rw else NA
    return f


# --- the answer: which embedding wins each axis -------------------------------

TIE_RATIO = 1.1   # two times, or two counts of lines changed, within this factor of each other tie
TIE_SHARE = 0.05  # two counts of accepted cases within this share of the cases tie
SIDE = {"parse": "parsing", "trace": "tracing"}


def fewer_wins(parse, trace):
    """'parse', 'trace' or 'tie': which front end paid less of a cost (a time, lines changed), a tie
    within TIE_RATIO; None where either is unmeasured."""
    if parse is None or trace is None:
        return None
    lo, hi = sorted((parse, trace))
    if hi == 0 or (lo > 0 and hi / lo <= TIE_RATIO):
        return "tie"
    return "parse" if parse < trace else "trace"


def more_wins(parse, trace, cases):
    """'parse', 'trace' or 'tie': which front end accepted more of `cases`, a tie within TIE_SHARE
    of them; None without cases."""
    if parse is None or trace is None or not cases:
        return None
    if abs(parse - trace) <= TIE_SHARE * cases:
        return "tie"
    return "parse" if parse > trace else "trace"


def verdict(winner):
    return NA if winner is None else "a tie" if winner == "tie" else f"{SIDE[winner]} wins"


def _times(r):
    if r is None:
        return NA
    return f"{r:.1f}×" if r < 10 else f"{r:.0f}×"


def _some(names, limit=3):
    """'none', or how many and the first few: '5 (`a`, `b`, `c` and 2 more)'."""
    if not names:
        return "none"
    shown = ", ".join(f"`{n}`" for n in names[:limit])
    return f"{len(names)} ({shown}{f' and {len(names) - limit} more' if len(names) > limit else ''})"


def _trend(first, last):
    """How tracing's time over parsing's moves between a scaling experiment's ends: the gap
    'widens', 'narrows', 'holds' (within TIE_RATIO) or 'reverses' (the faster front end changes)."""
    if not first or not last:
        return NA
    w0, w1 = fewer_wins(1, first), fewer_wins(1, last)
    if w0 != w1 and "tie" not in (w0, w1):
        return "reverses"
    g0, g1 = abs(math.log(first)), abs(math.log(last))
    band = math.log(TIE_RATIO)
    return "widens" if g1 > g0 + band else "narrows" if g1 < g0 - band else "holds"


def _ratios(per):
    """{name: trace / parse} of the {name: {"parse": x, "trace": y}} measured on both sides."""
    return {k: m["trace"] / m["parse"] for k, m in per.items() if m.get("parse") and m.get("trace")}


def _span(ratios):
    """'from 1.8× for `a` to 4.9× for `b`' of {name: ratio}."""
    if not ratios:
        return NA
    lo, hi = min(ratios, key=ratios.get), max(ratios, key=ratios.get)
    return f"from {_times(ratios[lo])} for `{lo}` to {_times(ratios[hi])} for `{hi}`"


def _compile_answer(res):
    rw = res.get("realworld") or {}
    real = _ratios(R.realworld_compile(rw)) if rw else {}
    corpus = _ratios(R.to_ptx_medians(res.get("compile", {})))
    gm_real, gm_corpus = R.geomean(list(real.values())), R.geomean(list(corpus.values()))
    # The verdict is the real-world kernels' where they were measured, else the corpus's.
    gm = gm_real if gm_real is not None else gm_corpus
    f = {"ans_compile_winner": None if gm is None else fewer_wins(1.0, gm),
         "ans_compile_real": _times(gm_real), "ans_compile_real_n": str(len(real)) if rw else NA,
         "ans_compile_real_span": _span(real), "ans_compile_corpus": _times(gm_corpus),
         "ans_compile_corpus_n": str(len(corpus)) if corpus else NA, "ans_compile_corpus_span": _span(corpus),
         "ans_compile_trace_faster": _some([k for k, r in {**real, **corpus}.items() if r < 1])
         if real or corpus else NA}
    for key, name in (("scaling_stages", "stages"), ("scaling_specs", "specs")):
        summ = R.scaling_summary(res.get("compile", {}).get(key))
        p, t = dict((x[0], x[2]) for x in summ.get("twintile_parse", [])), \
            dict((x[0], x[2]) for x in summ.get("twintile_trace", []))
        sizes = sorted(set(p) & set(t))
        first = t[sizes[0]] / p[sizes[0]] if sizes and p[sizes[0]] else None
        last = t[sizes[-1]] / p[sizes[-1]] if len(sizes) > 1 and p[sizes[-1]] else None
        f.update({f"ans_{name}_min": str(sizes[0]) if sizes else NA, f"ans_{name}_max": str(sizes[-1]) if sizes else NA,
                  f"ans_{name}_first": _times(first), f"ans_{name}_last": _times(last),
                  f"ans_{name}_trend": _trend(first, last)})
    return f


def _accept_answer(res):
    f = {}
    written = R.realworld_written(res["realworld"]) if res.get("realworld") else {}
    right = {fe: [k for k, m in written.items() if m[fe]] for fe in ("parse", "trace")}
    matrix, _ = R.expressiveness_matrix(res.get("expressiveness", {}))
    both = {feat: m for feat, m in matrix.items() if "twintile_parse" in m and "twintile_trace" in m}
    ok = {fe: [feat for feat, m in both.items() if m[f"twintile_{fe}"] == "accepted"] for fe in ("parse", "trace")}
    for axis, accepted, n in (("real", right, len(written)), ("feature", ok, len(both))):
        f[f"ans_{axis}_winner"] = more_wins(len(accepted["parse"]), len(accepted["trace"]), n)
        f[f"ans_{axis}_n"] = str(n) if n else NA
        for fe, other in (("parse", "trace"), ("trace", "parse")):
            f[f"ans_{axis}_{fe}"] = str(len(accepted[fe])) if n else NA
            only = [k for k in accepted[fe] if k not in accepted[other]]
            f[f"ans_{axis}_{fe}_only"] = _some(only, limit=8 if axis == "feature" else 3) if n else NA
            f[f"ans_{axis}_{fe}_only_n"] = str(len(only) or "none") if n else NA
    return f


def _cost_answer(res):
    lines = {k: m for k, m in R.realworld_lines(res.get("realworld") or {}).items() if None not in m.values()}
    total = {fe: sum(m[fe] for m in lines.values()) for fe in ("parse", "trace")}
    f = {"ans_cost_winner": fewer_wins(total["parse"], total["trace"]) if lines else None,
         "ans_cost_n": str(len(lines)) if lines else NA,
         "ans_cost_same": str(sum(m["parse"] == m["trace"] for m in lines.values())) if lines else NA}
    for fe, other in (("parse", "trace"), ("trace", "parse")):
        f[f"ans_cost_{fe}"] = str(total[fe]) if lines else NA
        f[f"ans_cost_{fe}_kernels"] = str(sum(m[fe] > 0 for m in lines.values())) if lines else NA
        f[f"ans_cost_{fe}_larger"] = _some([k for k, m in lines.items() if m[fe] > m[other]]) if lines else NA
    return f


def _code_answer(res):
    idx = R.codegen_index(res.get("codegen", {}))
    pairs = [(row["instructions"], idx[("twintile_trace",) + key[1:]]["instructions"])
             for key, row in idx.items() if key[0] == "twintile_parse" and ("twintile_trace",) + key[1:] in idx]
    gm = R.geomean([t / p for p, t in pairs if p])
    f = {"ans_code_winner": None if gm is None else fewer_wins(1.0, gm), "ans_code_ratio": _times(gm)}
    runs = R.gpu_latest_runs(res["gpu"]) if res.get("gpu") else []
    compute = [r for r in R.gpu_summary(runs[0])["rows"] if r["bound"] == "compute"] if runs else []
    f["ans_gpu_compute_word"] = _word(R.geomean([r["triton_tflops"] / r["tflops"] for r in compute
                                                 if r["triton_tflops"] and r["tflops"]]),
                                      "behind", "ahead of", "level with")
    return f


AXES = (("compile", "compile time"), ("real", "real kernels as written"), ("feature", "feature code"),
        ("cost", "the cost of a refusal"), ("code", "generated code"))


def _listing(items):
    return NA if not items else items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def answer_facts(res):
    """Per axis of the question, which embedding wins (computed with the tie bands above), by how
    much and where that depends on the kernel; then the answer, the axes counted."""
    f = {"ans_tie_ratio": f"{TIE_RATIO:g}×", "ans_tie_share": f"{100 * TIE_SHARE:g}%"}
    for part in (_compile_answer, _accept_answer, _cost_answer, _code_answer):
        f.update(part(res))
    won = {side: [name for key, name in AXES if f[f"ans_{key}_winner"] == side] for side in ("parse", "trace", "tie")}
    unmeasured = [name for key, name in AXES if f[f"ans_{key}_winner"] is None]
    for key, _ in AXES:
        f[f"ans_{key}_verdict"] = verdict(f.pop(f"ans_{key}_winner"))
    n_parse, n_trace = len(won["parse"]), len(won["trace"])
    lead = "parse" if n_parse > n_trace else "trace" if n_trace > n_parse else None
    if not won["parse"] and not won["trace"]:
        f["ans_overall_verdict"] = NA if unmeasured and not won["tie"] else "neither: they tie"
    else:
        f["ans_overall_verdict"] = SIDE[lead] if lead else "it depends on the kernel: each wins as many axes"
    f["ans_overall"] = (f"Parsing wins on {_listing(won['parse']) if won['parse'] else 'no axis'}, tracing on "
                        f"{_listing(won['trace']) if won['trace'] else 'none'}, and they tie on "
                        f"{_listing(won['tie']) if won['tie'] else 'none'}"
                        + (f"; not measured: {_listing(unmeasured)}" if unmeasured else "") + ".")
    if not won["parse"] and not won["trace"] and not won["tie"]:
        f["ans_exception"] = NA
    elif lead:
        other = "trace" if lead == "parse" else "parse"
        f["ans_exception"] = (f"{SIDE[other].capitalize()} is the one to pick only for a kernel that needs what "
                              f"only it accepts: {f[f'ans_feature_{other}_only_n']} of the feature cases, "
                              f"{f[f'ans_real_{other}_only_n']} of the real kernels.")
    else:
        f["ans_exception"] = (f"Which to pick depends on the kernel: only tracing accepts "
                              f"{f['ans_feature_trace_only_n']} of the feature cases and "
                              f"{f['ans_real_trace_only_n']} of the real kernels, only parsing "
                              f"{f['ans_feature_parse_only_n']} and {f['ans_real_parse_only_n']}.")
    return f


TENSORCORE_FACTS = ("tc_hopper", "tc_hopper_wgmma", "tc_hopper_hgmma", "tc_hopper_sass_read", "tc_hopper_nospill",
                    "tc_hopper_plain_nospill", "tc_hopper_plain", "tc_hopper_regs_ok", "tc_hopper_instr_ratio",
                    "tc_hopper_instr_ok", "tc_hopper_regs_ratio", "tc_ampere", "tc_ampere_nospill",
                    "tc_ampere_plain_nospill", "tc_ampere_instr_ratio", "tc_triton_hopper_wgmma",
                    "tc_tma", "tc_tma_bulk", "tc_triton_tma_bulk", "tc_tma_nospill", "tc_tma_regs_ratio",
                    "tc_tma_instr_ratio", "tc_tma_copies_ratio", "tc_tma_store", "tc_triton_tma_store",
                    "tc_tma_stmatrix", "tc_triton_tma_stmatrix", "tc_tma_instr_ok")


def tensorcore_facts(tc):
    """The tensor-core suite's story: twintile against Triton at the same configurations."""
    f = dict.fromkeys(TENSORCORE_FACTS, NA)
    pairs = [(k, o, t) for k, o, t in R.tensorcore_pairs(tc or {}) if o and "error" not in o]
    if not pairs:
        return f

    def of(arch, variant, descriptors=False):
        return [(o, t if t and "error" not in t else None) for k, o, t in pairs
                if k[3] == arch and k[4] == variant and k[0].startswith("matmul_desc<") == descriptors]

    hopper, plain = of("sm_90a", "assumed"), of("sm_90a", "plain")
    tma = of("sm_90a", "assumed", descriptors=True)
    tma_both = [(o, t) for o, t in tma if t]

    def bulk(row, key="cp.async.bulk.tensor"):
        return ((row or {}).get("ptx_ops") or {}).get(key) or 0

    def stores(row):
        return bulk(row, "cp.async.bulk.tensor.bulk_group")
    ampere, ampere_plain = of("sm_80", "assumed"), of("sm_80", "plain")
    sass = [R.tensor_core_sass(o) for o, _ in hopper if R.tensor_core_sass(o) is not None]
    both = [(o, t) for o, t in hopper if t]
    regs = [(R.registers(o), R.registers(t)) for o, t in both if R.registers(o) and R.registers(t)]
    instr = [o["instructions"] / t["instructions"] for o, t in both if t.get("instructions")]
    f.update(tc_hopper=str(len(hopper)),
             tc_hopper_wgmma=str(sum(R.tensor_core_ptx(o)[0] == "wgmma" for o, _ in hopper)),
             tc_triton_hopper_wgmma=str(sum(R.tensor_core_ptx(t)[0] == "wgmma" for _, t in both)),
             tc_hopper_sass_read=str(len(sass)),
             tc_hopper_hgmma=str(sum(bool(s.get("HGMMA")) for s in sass)),
             tc_hopper_nospill=str(sum(R.spill_bytes(o) == 0 for o, _ in hopper)),
             tc_hopper_plain=str(len(plain)),
             tc_hopper_plain_nospill=str(sum(R.spill_bytes(o) == 0 for o, _ in plain)),
             tc_hopper_regs_ok=str(sum(a <= b for a, b in regs)),
             tc_hopper_regs_ratio=_times2(R.geomean([a / b for a, b in regs])),
             tc_hopper_instr_ratio=_times2(R.geomean(instr)),
             tc_hopper_instr_ok=str(sum(r <= 1.1 for r in instr)),
             tc_ampere=str(len(ampere)),
             tc_ampere_nospill=str(sum(R.spill_bytes(o) == 0 for o, _ in ampere)),
             tc_ampere_plain_nospill=str(sum(R.spill_bytes(o) == 0 for o, _ in ampere_plain)),
             tc_ampere_instr_ratio=_times2(R.geomean([o["instructions"] / t["instructions"] for o, t in ampere
                                                     if t and t.get("instructions")])),
             tc_tma=str(len(tma)),
             tc_tma_bulk=str(sum(bulk(o) > 0 for o, _ in tma)),
             tc_triton_tma_bulk=str(sum(bulk(t) > 0 for _, t in tma_both)),
             tc_tma_store=str(sum(stores(o) > 0 for o, _ in tma)),
             tc_triton_tma_store=str(sum(stores(t) > 0 for _, t in tma_both)),
             tc_tma_stmatrix=str(sum(bulk(o, "stmatrix") > 0 for o, _ in tma)),
             tc_triton_tma_stmatrix=str(sum(bulk(t, "stmatrix") > 0 for _, t in tma_both)),
             tc_tma_nospill=str(sum(R.spill_bytes(o) == 0 for o, _ in tma)),
             tc_tma_regs_ratio=_times2(R.geomean([R.registers(o) / R.registers(t) for o, t in tma_both
                                                  if R.registers(o) and R.registers(t)])),
             tc_tma_instr_ratio=_times2(R.geomean([o["instructions"] / t["instructions"] for o, t in tma_both
                                                  if t.get("instructions")])),
             tc_tma_instr_ok=str(sum(o["instructions"] <= 1.1 * t["instructions"] for o, t in tma_both
                                     if t.get("instructions"))),
             tc_tma_copies_ratio=_times2(R.geomean([bulk(o) / bulk(t) for o, t in tma_both if bulk(t)])))
    return f


def facts(res):
    """Every name the template may use; what a missing result file cannot give reads NA."""
    f = environment_facts(res)
    f.update(compile_facts(res.get("compile", {})))
    f.update(codegen_facts(res.get("codegen", {})))
    f.update(tensorcore_facts(res.get("tensorcores", {})))
    f.update(expressiveness_facts(res.get("expressiveness", {})))
    f.update(gpu_facts(res.get("gpu", {})))
    f.update(realworld_facts(res.get("realworld", {})))
    f.update(answer_facts(res))
    return f

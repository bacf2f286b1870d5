"""The seed essay's claims, each with its measurement and a verdict computed from the results.

A verdict is one of: "holds", "does not hold", "depends" (on what: said in its reason), or
"untested" (what is not measured yet: said). The thresholds that turn a number into a verdict
are named here, once, and printed with the table: "tens of seconds" is at least 10 s; the
essay's "over 17 minutes" for a CUTLASS build holds where the projected build takes longer even
on a 64-core build machine, and does not where it fits in 17 minutes on this one's cores; "up to
100×" holds where every DSL measured compiles at least 100 times faster and does not hold where
none is 10 times faster. Standard library only.
"""
from experiments.report import results as R

TENS_OF_SECONDS = 10.0       # s: "a CUTLASS kernel takes tens of seconds"
LIBRARY_MINUTES = 17.0       # min: the essay's full CUTLASS build
BUILD_SERVER_CORES = 64      # a large build machine's cores, for that projection
DSL_FACTOR, DSL_FLOOR = 100.0, 10.0  # "up to 100×"; below 10× nowhere near it
NEAR = 1.1                   # within 10%: neither front end's cost is the lower
F32_BYTES = 4                # the vectorize claim's element: a wider load is a vector one


def _verdict(all_above, none_above):
    return "holds" if all_above else "does not hold" if none_above else "depends"


def _missing(claims, *keys):
    m = claims.get("missing") or {}
    return next((m[k] for k in keys if k in m), None)


def cutlass_medians(claims):
    """{config: (median seconds, median peak bytes, samples)} of the CUTLASS compiles that succeeded."""
    groups = {}
    for r in claims.get("cutlass", []):
        if "error" not in r:
            groups.setdefault(r["config"], []).append(r)
    return {c: (R.median([r["seconds"] for r in rows]), R.median([r["peak_bytes"] for r in rows]), len(rows))
            for c, rows in groups.items()}


def cutlass_errors(claims):
    """The configurations no compile of which succeeded."""
    ok = {r["config"] for r in claims.get("cutlass", []) if "error" not in r}
    return sorted({r["config"] for r in claims.get("cutlass", []) if "error" in r} - ok)


def same_tile_medians(claims):
    """{SYSTEM_TO: median seconds} of the DSLs' compiles of the GEMM with CUTLASS's tile, each one
    process: twintile's front ends to a cubin (ptxas run, as nvcc's -c does) and to PTX, Triton's
    to a cubin (its compiles always end in one)."""
    rows = (claims.get("same_tile") or {}).get("rows", [])
    out = {}
    for system in ("twintile_parse", "twintile_trace", "twintile_hybrid", "triton"):
        for to in ("cubin", "ptx"):
            xs = [r["seconds"] for r in rows if r["system"] == system and r.get("to") == to and "error" not in r]
            if xs:
                out[f"{system}_{to}"] = R.median(xs)
    return out


def _cutlass_kernel(claims):
    m, failed = cutlass_medians(claims), cutlass_errors(claims)
    if not m:
        why = _missing(claims, "nvcc", "cutlass") or \
            ("every compile failed: " + ", ".join(failed) if failed else "no CUTLASS compile in the results")
        return {"numbers": "—", "verdict": "untested", "why": why}
    secs = [s for s, _, _ in m.values()]
    numbers = "; ".join([f"{c}: {s:.1f} s, {b / 2**30:.1f} GiB" for c, (s, b, _) in m.items()] +
                        [f"{c}: did not compile" for c in failed])
    verdict = _verdict(min(secs) >= TENS_OF_SECONDS, max(secs) < TENS_OF_SECONDS)
    why = {"holds": f"every configuration that compiled took at least {TENS_OF_SECONDS:.0f} s",
           "does not hold": f"every configuration that compiled took under {TENS_OF_SECONDS:.0f} s",
           "depends": "on the configuration"}[verdict]
    if failed:
        why += f" ({len(failed)} of {len(failed) + len(m)} did not compile)"
    return {"numbers": numbers, "verdict": verdict, "why": why}


def _cutlass_library(claims, cores):
    m, p = cutlass_medians(claims), claims.get("projection") or {}
    if not m:
        return {"numbers": "—", "verdict": "untested",
                "why": _missing(claims, "nvcc", "cutlass") or "no CUTLASS compile succeeded"}
    if "default" not in p:
        return {"numbers": "—", "verdict": "untested", "why": p.get("error") or "no kernel count in the results"}
    per_kernel = R.median([s for s, _, _ in m.values()])
    core_minutes = p["default"] * per_kernel / 60
    here = max(1, cores or 1)
    needed = core_minutes / LIBRARY_MINUTES  # the cores that fit the build into the essay's minutes
    numbers = (f"projection: {p['default']} Hopper GEMM kernels in CUTLASS {p.get('nvidia_cutlass')}'s default set "
               f"({p['all']} in all) × {per_kernel:.1f} s = {core_minutes / 60:.1f} core-hours: "
               f"{core_minutes / here:.0f} min on {here} cores, {core_minutes / BUILD_SERVER_CORES:.0f} min on "
               f"{BUILD_SERVER_CORES}")
    verdict = ("holds" if core_minutes / BUILD_SERVER_CORES > LIBRARY_MINUTES else
               "does not hold" if core_minutes / here <= LIBRARY_MINUTES else "depends")
    why = {"holds": f"over {LIBRARY_MINUTES:.0f} min even on {BUILD_SERVER_CORES} cores",
           "does not hold": f"within {LIBRARY_MINUTES:.0f} min on this machine's {here} cores",
           "depends": f"on the build machine: over {LIBRARY_MINUTES:.0f} min below {needed:.0f} cores"}[verdict]
    return {"numbers": numbers, "verdict": verdict, "why": "a projection, not a build: " + why}


def _dsl_factor(claims):
    m, d = cutlass_medians(claims), same_tile_medians(claims)
    first = ((claims.get("config") or {}).get("configs") or [None])[0]
    if first not in m or not d:
        return {"numbers": "—", "verdict": "untested", "why": "no CUTLASS compile or no DSL compile of its tile"}
    cut = m[first][0]
    factors = {k: cut / v for k, v in d.items() if k.endswith("_cubin")}
    if not factors:
        return {"numbers": "—", "verdict": "untested", "why": _missing(claims, "ptxas") or "no DSL compiled a cubin"}
    label = {"twintile_parse_cubin": "twintile parse", "twintile_trace_cubin": "twintile trace",
             "twintile_hybrid_cubin": "twintile hybrid", "triton_cubin": "Triton"}
    numbers = (f"CUTLASS {first} {cut:.1f} s; to a cubin, each one process: " +
               ", ".join(f"{label[k]} {d[k]:.2f} s ({f:.0f}×)" for k, f in factors.items()))
    verdict = _verdict(all(f >= DSL_FACTOR for f in factors.values()), all(f < DSL_FLOOR for f in factors.values()))
    unmeasured = ["CuTe DSL's own GEMM is not measured yet"]
    if "triton_cubin" not in factors:
        unmeasured.append("nor Triton's (" + (_missing(claims, "triton") or "its compiles failed") + ")")
    why = ("; ".join(unmeasured) + "; " +
           {"holds": f"every DSL measured is at least {DSL_FACTOR:.0f}× faster",
            "does not hold": f"no DSL measured is {DSL_FLOOR:.0f}× faster",
            "depends": "on the DSL: " + ", ".join(f"{label[k]} {f:.0f}×" for k, f in factors.items())}[verdict])
    return {"numbers": numbers, "verdict": verdict, "why": why}


def _instantiations(claims):
    """Softmax's twelve variants (the claims suite's `instantiations`): how long each caller's
    dispatch is, and each system's compile of all twelve against the one a call needs."""
    i = claims.get("instantiations") or {}
    callers = {r["system"]: r for r in i.get("callers", [])}
    if not callers:
        return {"numbers": "—", "verdict": "untested", "why": "no dispatch counted in the results"}
    n = len(i.get("variants") or [])
    medians = {k: R.median(v) for k, v in (i.get("samples") or {}).items() if v}
    label = {"nvcc": "CUDA C++", "triton": "Triton", "twintile": "twintile's launch API",
             "twintile_parse": "twintile parse"}
    lines = ", ".join(f"{label[s]} {r['lines']}" + (" (did not build)" if "error" in r else
                                                   " (not built here)" if "unchecked" in r else "")
                      for s, r in callers.items())
    compiles = [f"{label[s]} {medians[s + '_all']:.2f} s for the {n}, {medians[s + '_one']:.2f} s for the one"
                for s in ("nvcc", "triton", "twintile_parse") if s + "_all" in medians and s + "_one" in medians]
    numbers = (f"the caller's dispatch, lines of code: {lines}" +
               ("; compiling, one process each: " + "; ".join(compiles) if compiles else ""))
    built = [s for s, r in callers.items() if "error" not in r]
    names_each = [s for s in built if callers[s]["lines"] >= n]
    others = [s for s in built if s not in names_each]
    verdict = _verdict(bool(built) and not others, not names_each)
    if not built:
        return {"numbers": numbers, "verdict": "untested", "why": "no caller's dispatch built"}

    def names(systems):
        said = [label[s] for s in systems]
        return said[0] if len(said) == 1 else ", ".join(said[:-1]) + " and " + said[-1]
    if verdict == "holds":
        why = f"every caller's dispatch has a line or more per variant ({n})"
    elif verdict == "does not hold":
        why = f"no caller's dispatch has a line per variant ({n})"
    else:
        why = (f"on when the variants are compiled: ahead of time, {names(names_each)} compiles all {n} and the "
               f"caller's dispatch names each; {names(others)} compile the one a call needs, when it first needs it, "
               "and the caller computes its name from the arguments")
    return {"numbers": numbers, "verdict": verdict, "why": why}


def _widest_load(row):
    """The widest global load of a vectorize row, in bytes (0 where it has none)."""
    widths = (row.get("global_access_bytes") or {}).get("ld") or {}
    return max((int(b) for b, n in widths.items() if n), default=0)


def _vectorize(claims):
    """Softmax's block size compile-time against run-time (the claims suite's `vectorize`): does
    the run-time one lose its vector loads, and does writing the vectors by hand, or tracing,
    keep them?"""
    rows = {(r["system"], r["variant"]): r for r in (claims.get("vectorize") or {}).get("rows", [])}
    ok = {k: r for k, r in rows.items() if "error" not in r}
    template, scalar, vector = (ok.get(("nvcc", v)) for v in ("template parameter", "run-time argument, scalar loop",
                                                                "run-time argument, vector loop"))
    meta, host = ok.get(("twintile_trace", "meta-parameter")), ok.get(("twintile_trace", "host variable"))
    if not (template and scalar):
        return {"numbers": "—", "verdict": "untested",
                "why": _missing(claims, "nvcc") or "no nvcc compile of the softmax kernels in the results"}

    def loads(r):
        return f"{_widest_load(r)}-byte loads at widest, {r['instructions']} PTX instructions"
    parts = [f"nvcc, the block size a template parameter: {loads(template)}; a run-time argument, a scalar loop: "
             f"{loads(scalar)}"]
    if vector:
        parts.append(f"a loop vectorized by hand (the width a constant): {loads(vector)}")
    if meta and host:
        parts.append(f"twintile trace (promised Triton's alignment), a meta-parameter: {loads(meta)}; the block size "
                     f"read from a host variable: {loads(host)}")
    parse = rows.get(("twintile_parse", "host variable"))
    if parse and "error" in parse:
        parts.append("twintile parse refuses the host variable")
    def vectorized(r):
        return r is not None and _widest_load(r) > F32_BYTES
    by_hand, traced = vectorized(vector), vectorized(meta) and vectorized(host)
    if not vectorized(template):
        return {"numbers": "; ".join(parts), "verdict": "untested",
                "why": "the kernel with a compile-time block size has no vector loads either"}
    verdict = "does not hold" if vectorized(scalar) else "depends" if by_hand or traced else "holds"
    keeps = [w for w, yes in (("a loop vectorized by hand keeps them (the width a constant, the block size not)",
                               by_hand),
                              ("a tracer keeps them: it compiles in the block size it reads when it traces", traced))
             if yes]
    why = {"does not hold": "nvcc vectorizes the run-time loop as well",
           "holds": "the run-time block size loses the wide loads, and nothing measured keeps them",
           "depends": "on who vectorizes: nvcc's run-time loop loses the wide loads; " + "; ".join(keeps)}[verdict]
    return {"numbers": "; ".join(parts), "verdict": verdict, "why": why}


def _tracing_instantiation(compile_result):
    """Each front end's cost for one specialization compiled alone (compile_probe's samples), over
    the specializations both compiled, where the results have every host phase (R.host_cost)."""
    m = R.phase_medians(compile_result)
    specs = sorted({spec for (system, spec) in m if system == "parse" and ("trace", spec) in m})
    pairs = []
    for spec in specs:
        host = R.host_cost(m[("trace", spec)])
        if host is not None:
            pairs.append((sum(m[("parse", spec)].get(p) or 0 for p in R.FRONT_END_PHASES["parse"]),
                          host + (m[("trace", spec)].get("trace_s") or 0)))
    if not pairs:
        return {"numbers": "—", "verdict": "untested", "why": "no compile suite result with both front ends' phases"}
    p, t = R.median([a for a, _ in pairs]), R.median([b for _, b in pairs])
    numbers = (f"one specialization compiled alone, median over {len(pairs)}: parse (Clang's parse of the file and "
               f"its instantiation, the walk) {p * 1e3:.0f} ms; trace (the file's host compile and load, the trace) "
               f"{t * 1e3:.0f} ms")
    verdict = "holds" if t * NEAR < p else "does not hold" if t > p * NEAR else "depends"
    why = {"holds": f"tracing's front end costs {t / p:.2f}× parsing's",
           "does not hold": f"tracing's front end costs {t / p:.1f}× parsing's",
           "depends": "the two are within 10% of each other"}[verdict]
    return {"numbers": numbers, "verdict": verdict, "why": why}


def _tracing_preferable(ex, rw):
    e = R.expressiveness_summary(ex) if ex else {}
    w = R.realworld_summary(rw) if rw else {}
    if not {"twintile_parse", "twintile_trace"} <= set(e) or \
            not all(w.get(f, {}).get("kernels") for f in ("parse", "trace")):
        return {"numbers": "—", "verdict": "untested", "why": "no expressiveness or real-world result for both"}
    ep, et = e["twintile_parse"]["accepted"], e["twintile_trace"]["accepted"]
    wp, wt = w["parse"]["right"], w["trace"]["right"]
    numbers = (f"feature cases accepted: parse {ep} of {e['twintile_parse']['cases']}, trace {et} of "
               f"{e['twintile_trace']['cases']}; library kernels accepted as written and right: parse {wp} of "
               f"{w['parse']['kernels']}, trace {wt} of {w['trace']['kernels']}")
    verdict = "holds" if et >= ep and wt >= wp and (et, wt) != (ep, wp) else \
        "does not hold" if et <= ep and wt <= wp else "depends"
    why = {"holds": "the tracing front end accepts at least as much, and more in one",
           "does not hold": "the tracing front end accepts no more of either",
           "depends": "on the kind of kernel: each front end accepts more of one"}[verdict]
    return {"numbers": numbers, "verdict": verdict, "why": why}


def rows(res):
    """The claims table's rows: claim, source, numbers, verdict, why."""
    claims = res.get("claims", {})
    cores = (claims.get("environment") or {}).get("cores")
    out = [
        ("A CUTLASS kernel takes tens of seconds to compile (~20 s)", "claims: nvcc on CUTLASS 3.x Hopper GEMMs",
         _cutlass_kernel(claims)),
        ("A CUTLASS library build takes many minutes (over 17)", "claims: cutlass_library's kernel count × the median",
         _cutlass_library(claims, cores)),
        ("DSLs compile up to 100× faster than CUTLASS C++", "claims: a GEMM of the same tile",
         _dsl_factor(claims)),
        ("Three types × four block sizes mean twelve instantiations, and the caller dispatches",
         "claims: softmax's twelve variants, each system's caller and compiles", _instantiations(claims)),
        ("Block sizes must be compile-time constants to vectorize",
         "claims: softmax, its block size compile-time and run-time", _vectorize(claims)),
        ("Tracing avoids the instantiation cost", "compile: every specialization's front end",
         _tracing_instantiation(res.get("compile", {}))),
        ("Tracing is often preferable to parsing", "expressiveness, realworld",
         _tracing_preferable(res.get("expressiveness"), res.get("realworld"))),
    ]
    return [{"claim": c, "source": s, **m} for c, s, m in out]

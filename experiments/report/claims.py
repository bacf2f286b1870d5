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
           {"holds": f"every DSL front end measured is at least {DSL_FACTOR:.0f}× faster",
            "does not hold": f"no DSL front end measured is {DSL_FLOOR:.0f}× faster",
            "depends": "on the DSL: " + ", ".join(f"{label[k]} {f:.0f}×" for k, f in factors.items())}[verdict])
    return {"numbers": numbers, "verdict": verdict, "why": why}


def _names(said):
    """'A', 'A and B', 'A, B and C'."""
    return said[0] if len(said) == 1 else ", ".join(said[:-1]) + " and " + said[-1]


def _instantiations(claims):
    """Softmax's twelve variants (the claims suite's `instantiations`): how many of them each
    caller's dispatch names, when each system compiles them (as recorded with its file), and each
    system's compile of all twelve against the one a call needs. A caller's dispatch not built
    here decides nothing (and without CUDA C++'s, whose claim it is, nothing is decided)."""
    i = claims.get("instantiations") or {}
    callers = {r["system"]: r for r in i.get("callers", []) if "variants_named" in r and "compiles" in r}
    n = len(i.get("variants") or [])
    if not callers:
        return {"numbers": "—", "verdict": "untested", "why": "no caller's dispatch counted in the results"}
    if not n:
        return {"numbers": "—", "verdict": "untested", "why": "the results name no variants"}
    medians = {k: R.median(v) for k, v in (i.get("samples") or {}).items() if v}
    label = {"nvcc": "CUDA C++", "triton": "Triton", "twintile": "twintile's launch API",
             "twintile_parse": "twintile parse"}

    def state(r):
        return (" (did not build)" if "error" in r else
                f" (not built here: {r['unchecked']})" if "unchecked" in r else "")
    said = ", ".join(f"{label.get(s, s)} {r['lines']} lines naming {r['variants_named']}{state(r)}"
                     for s, r in callers.items())
    compiles = [f"{label[s]} {medians[s + '_all']:.2f} s for the {n}, {medians[s + '_one']:.2f} s for the one"
                for s in ("nvcc", "triton", "twintile_parse") if s + "_all" in medians and s + "_one" in medians]
    failed = sorted(i.get("errors") or {})
    numbers = (f"the caller's dispatch: {said}; compiling, one process each: " + ("; ".join(compiles) or "—") +
               "".join(f"; {k} failed" for k in failed))
    built = [s for s, r in callers.items() if "error" not in r and "unchecked" not in r]
    if "nvcc" not in built:  # the claim is CUDA C++'s
        return {"numbers": numbers, "verdict": "untested", "why": "the CUDA C++ dispatch did not build here"}
    if len(built) < 2:
        return {"numbers": numbers, "verdict": "untested", "why": "no other caller's dispatch built here"}
    each = [s for s in built if callers[s]["variants_named"] >= n]
    others = [s for s in built if s not in each]
    verdict = _verdict(not others, not each)
    if verdict == "holds":
        return {"numbers": numbers, "verdict": verdict, "why": f"every caller's dispatch names each of the {n} variants"}
    if verdict == "does not hold":
        return {"numbers": numbers, "verdict": verdict, "why": f"no caller's dispatch names the {n} variants"}

    def group(systems):
        models = sorted({callers[s]["compiles"] for s in systems})
        return f"{_names([label.get(s, s) for s in systems])} ({_names(models)})", models
    named, named_models = group(each)
    computed, computed_models = group(others)
    verb = "has" if len(others) == 1 else "have"
    why = (f"{named} {'has' if len(each) == 1 else 'have'} the caller's dispatch name each of the {n}; {computed} "
           f"{verb} the caller compute the variant's name from the arguments")
    if not set(named_models) & set(computed_models):
        why = "on when the variants are compiled: " + why
    return {"numbers": numbers, "verdict": verdict, "why": why}


def _widest_load(row):
    """The widest global load of a vectorize row, in bytes (0 where it has none)."""
    widths = (row.get("global_access_bytes") or {}).get("ld") or {}
    return max((int(b) for b, n in widths.items() if n), default=0)


# (constant, run-time): nvcc's pairs that differ in the block size's being a constant alone.
VECTORIZE_PAIRS = [("constant, contiguous loop", "run-time argument, contiguous loop"),
                   ("constant, vector loop", "run-time argument, vector loop")]


def _vectorize(claims):
    """Softmax's block size a constant against a run-time value (the claims suite's `vectorize`):
    for each of nvcc's pairs that differ in that alone, whether the run-time one keeps the
    vector loads (wider than an element) of the constant one. The handwritten kernel (the row in
    registers) and the tracing front end's rows are numbers beside the verdict, not part of it."""
    v = claims.get("vectorize") or {}
    rows = {(r["system"], r["variant"]): r for r in v.get("rows", [])}
    ok = {k: r for k, r in rows.items() if "error" not in r}
    nvcc_missing = _missing(claims, "nvcc")

    def loads(r):
        shared = f", {r['shared_accesses']} shared accesses" if "shared_accesses" in r else ""
        return f"{_widest_load(r)}-byte loads at widest{shared}, {r['instructions']} PTX instructions (static)"
    parts, failed = [], []
    for key in [k for k in rows if k[0] == "nvcc"] + [k for k in rows if k[0] == "twintile_trace"]:
        who = "nvcc" if key[0] == "nvcc" else "twintile trace"
        if key in ok:
            parts.append(f"{who}, {key[1]}: {loads(ok[key])}")
        elif not (key[0] == "nvcc" and nvcc_missing):
            failed.append(f"{who}, {key[1]}: failed")
    parse = rows.get(("twintile_parse", "host variable"))
    if parse and "mutable global" in parse.get("error", ""):
        parts.append("twintile parse refuses the host variable")
    elif parse:
        failed.append("twintile parse, host variable: " + ("compiled" if "error" not in parse else "failed"))
    numbers = "; ".join(parts + failed) or "—"
    if nvcc_missing:
        return {"numbers": numbers, "verdict": "untested", "why": nvcc_missing}

    def loop(variant):
        return variant.split(", ")[1]
    pairs, incomplete = [], []
    for c, r in VECTORIZE_PAIRS:
        if ("nvcc", c) in ok and ("nvcc", r) in ok:
            pairs.append((loop(c), ok[("nvcc", c)], ok[("nvcc", r)]))
        elif ("nvcc", c) in rows or ("nvcc", r) in rows:
            incomplete.append(loop(c))
    # A loop that does not vectorize with its block size a constant says nothing of the claim.
    never = [name for name, c, _ in pairs if _widest_load(c) <= F32_BYTES]
    pairs = [(name, c, r) for name, c, r in pairs if _widest_load(c) > F32_BYTES]
    if not pairs:
        why = ("no loop vectorizes with its block size constant" if never else
               f"the {_names(incomplete)} did not compile in both forms" if incomplete else
               "no nvcc compile of a pair of softmax loops in the results")
        return {"numbers": numbers, "verdict": "untested", "why": why}
    lost = [name for name, _, r in pairs if _widest_load(r) <= F32_BYTES]
    kept = [name for name, _, r in pairs if _widest_load(r) > F32_BYTES]
    verdict = "holds" if not kept else "does not hold" if not lost else "depends"
    if verdict == "holds":
        why = f"the run-time block size loses the vector loads of every loop that has them ({_names(lost)})"
    elif verdict == "does not hold":
        why = f"the {_names(kept)} keeps its vector loads with the block size a run-time value"
    else:
        why = f"on the loop: the {_names(lost)} loses its vector loads, the {_names(kept)} keeps them"
    if never:
        why += f"; nvcc vectorizes the {_names(never)} in neither form"
    if incomplete:
        why += f"; the {_names(incomplete)} did not compile in both forms"
    traced = ok.get(("twintile_trace", "meta-parameter")), ok.get(("twintile_trace", "host variable"))
    if all(traced) and _widest_load(traced[0]) == _widest_load(traced[1]):
        why += ("; a tracer reads a host value when it traces, making it a constant of that compile (twintile: the "
                "same loads as the meta-parameter's)")
    return {"numbers": numbers, "verdict": verdict, "why": why}


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

"""Reading the result files and reducing raw samples to the figures the report shows.

Everything the tables, the figures and the paper state is computed here, from
experiments/results/*.json alone (or a folder of recorded results given to
scripts/report --results). Standard library only, so that the consistency
check runs anywhere.
"""
import json
import math
import statistics
from pathlib import Path

from experiments.harness import common, variants

SUITES = ("compile", "expressiveness", "codegen", "tensorcores", "gpu", "realworld", "claims")


def load(results_dir):
    """{suite: its result object} for each suite whose file exists."""
    out = {}
    for suite in SUITES:
        path = Path(results_dir) / f"{suite}.json"
        if path.exists():
            out[suite] = json.loads(path.read_text())
    return out


def median(xs):
    xs = [x for x in xs if x is not None]
    return statistics.median(xs) if xs else None


def geomean(xs):
    xs = [x for x in xs if x]
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else None


# --- compile ------------------------------------------------------------------

TWINTILE_PHASES = ("parse_s", "walk_s", "rewrite_s", "host_compile_s", "host_codegen_s", "host_load_s", "host_cached_s", "trace_s",
                   "cleanup_s", "lower_s",
                   "libdevice_s", "optimize_s", "verify_s", "nvptx_s", "ptxas_s", "backend_s")
BACKEND_TO_PTX = ("lower_s", "libdevice_s", "optimize_s", "verify_s", "nvptx_s")


def phase_medians(compile_result):
    """{(system, spec): {phase: median seconds}} for twintile's parse, parse_nopch, trace, trace_clang, hybrid."""
    groups = {}
    for s in compile_result.get("phases", {}).get("twintile", []):
        if "error" in s:
            continue
        groups.setdefault((s["system"], s["spec"]), []).append(s)
    out = {}
    for key, samples in groups.items():
        out[key] = {p: median([x.get(p) for x in samples]) for p in TWINTILE_PHASES}
    return out


def triton_medians(compile_result):
    """{spec: {stage: median seconds, "to_ptx": ..., "total": ...}} of Triton's per-spec compiles."""
    groups = {}
    for r in compile_result.get("phases", {}).get("triton", []):
        if "stages" in r:
            groups.setdefault(r["spec"], []).append(r)
    out = {}
    for spec, rows in groups.items():
        stages = {k for r in rows for k in r["stages"]}
        m = {k: median([r["stages"].get(k) for r in rows]) for k in stages}
        m["to_ptx"] = median([r["seconds"] - r["stages"].get("cubin", 0.0) for r in rows])
        m["total"] = median([r["seconds"] for r in rows])
        out[spec] = m
    return out


def cute_medians(compile_result):
    """{spec: median seconds} of CuTe DSL's per-spec compiles."""
    groups = {}
    for r in compile_result.get("phases", {}).get("cute", []):
        if "seconds" in r:
            groups.setdefault(r["spec"], []).append(r["seconds"])
    return {spec: median(xs) for spec, xs in groups.items()}


def pallas_medians(compile_result):
    groups, checks = {}, {}
    for r in compile_result.get("phases", {}).get("pallas", []):
        if "trace_s" in r:
            groups.setdefault(r["spec"], []).append(r)
        if "check" in r:
            checks[r["spec"]] = r["check"]
    return ({spec: {"trace_s": median([r["trace_s"] for r in rows]), "lower_s": median([r["lower_s"] for r in rows])}
             for spec, rows in groups.items()}, checks)


HOST_PHASES = ("host_compile_s", "host_codegen_s", "host_load_s")
FRONT_END_PHASES = {"parse": ("parse_s", "walk_s"), "trace": HOST_PHASES + ("trace_s",)}


def host_cost(m):
    """The tracing front end's cost of compiling and loading the kernel file (s), or None, as for
    results that predate the in-process host compile (no host_codegen_s: clang++'s time alone)."""
    if any(m.get(p) is None for p in HOST_PHASES):
        return None
    return sum(m[p] for p in HOST_PHASES)


def to_ptx_medians(compile_result):
    """{spec: {"parse": s, "trace": s}}: each front end's median time from source to PTX per
    specialization (its front-end phases, the IR cleanup and the backend; ptxas left out)."""
    out = {}
    for (system, spec), m in phase_medians(compile_result).items():
        if system in FRONT_END_PHASES:
            phases = FRONT_END_PHASES[system] + ("cleanup_s",) + BACKEND_TO_PTX
            out.setdefault(spec, {})[system] = sum(m.get(p) or 0 for p in phases)
    return out


def sweep_summary(compile_result):
    """{system: {"median", "min", "max", "n"}} of the 12-variant sweep."""
    sweep = compile_result.get("sweep")
    if not sweep:
        return {}
    return {name: {"median": median(xs), "min": min(xs), "max": max(xs), "n": len(xs)}
            for name, xs in sweep["samples"].items() if xs}


def sweep_backend(compile_result, frontend="parse"):
    """Median and per-spec medians (s) of the backend's time per variant inside the one-process
    sweep (compile_probe compiling all 12): {"median": s, "first": s, "specs": {spec: s}}, or {}."""
    runs = ((compile_result.get("sweep") or {}).get("backend_in_process") or {}).get(frontend) or []
    if not runs:
        return {}
    specs = list(runs[0])
    per_spec = {spec: median([r[spec] for r in runs if spec in r]) for spec in specs}
    return {"median": median(list(per_spec.values())), "first": per_spec[specs[0]], "specs": per_spec}


def scaling_summary(part):
    """{system: [(size, median frontend_s, median total_s)]} of a scaling part."""
    if not part:
        return {}
    groups = {}
    for s in part["samples"]:
        groups.setdefault((s["system"], s["size"]), []).append(s)
    out = {}
    for (system, size), rows in sorted(groups.items(), key=lambda kv: (kv[0][0], kv[0][1])):
        out.setdefault(system, []).append((size, median([r["frontend_s"] for r in rows]),
                                           median([r["total_s"] for r in rows])))
    return out


def growth(points):
    """The log-log slope of total time between the smallest and largest size."""
    if len(points) < 2:
        return None
    (s0, _, t0), (s1, _, t1) = points[0], points[-1]
    if not (t0 and t1) or s0 == s1:
        return None
    return math.log(t1 / t0) / math.log(s1 / s0)


# --- codegen ------------------------------------------------------------------

def codegen_index(codegen_result):
    """{(producer, variant, arch, spec): row} of the rows that measured."""
    return {(r["producer"], r["variant"], r["arch"], r["spec"]): r
            for r in codegen_result.get("rows", []) if "error" not in r}


def registers(row):
    p = (row or {}).get("ptxas") or {}
    return p.get("registers")


def sass_instructions(row):
    """The machine instructions ptxas made (nvdisasm; ptx_stats.sass_instructions), or None."""
    p = (row or {}).get("ptxas") or {}
    return p.get("sass_instructions")


def peak_live_registers(row):
    """The most registers live at one instruction in ptxas's allocation (nvdisasm), or None."""
    p = (row or {}).get("ptxas") or {}
    return p.get("peak_live_registers")


def allocated_registers(n):
    """The registers a thread of the kernel holds on the GPU: a warp's are
    allocated in units of 256 (CUDA's occupancy calculator), so ptxas's count
    rounded up to a multiple of 8. ptxas itself takes 24 as the least it
    allocates on sm_90a (a --maxrregcount below it is raised to 24)."""
    return -(-n // 8) * 8 if n else None


# The corpus kernels whose speed is the bytes they move (launches.bench gives
# them no flops): those the PTX-against-Triton targets are set for.
MEMORY_BOUND = tuple(k["name"] for k in common.corpus_entries() if k["class"] == "memory")  # corpus.json


# --- tensorcores --------------------------------------------------------------

def tensorcore_pairs(tc):
    """[(config, twintile's row, Triton's row or None)] in the suite's order; config is
    (spec, warps, stages, arch, variant)."""
    order, rows = [], {}
    for r in tc.get("rows", []):
        key = (r["spec"], r["warps"], r["stages"], r["arch"], r["variant"])
        if key not in rows:
            order.append(key)
            rows[key] = {}
        rows[key][r["producer"]] = r
    return [(key, rows[key].get("twintile"), rows[key].get("triton")) for key in order]


def spill_bytes(row):
    """ptxas's spill stores plus loads, or None."""
    p = (row or {}).get("ptxas") or {}
    if p.get("spill_store_bytes") is None:
        return None
    return p["spill_store_bytes"] + (p.get("spill_load_bytes") or 0)


def tensor_core_ptx(row):
    """("wgmma", n) or ("mma.sync", n) or (None, 0): the dot's instructions in the PTX."""
    ops = (row or {}).get("ptx_ops") or {}
    for key, unit in (("wgmma.mma_async", "wgmma"), ("mma.sync", "mma.sync")):
        if ops.get(key):
            return unit, ops[key]
    return None, 0


def tensor_core_sass(row):
    """{"HGMMA": n, "HMMA": n, ...} from nvdisasm, or None."""
    return ((row or {}).get("ptxas") or {}).get("tensor_core_sass")


def codegen_targets(codegen_result, arch="sm_90a"):
    """[(spec, twintile's row, Triton's row)] for the memory-bound
    specializations: twintile under --math=fast with hints against Triton (its
    defaults are fast) with hints, as the targets compare them."""
    idx = codegen_index(codegen_result)
    out = []
    for (producer, variant, a, spec), row in idx.items():
        if producer == "twintile_parse" and variant == "fast" and a == arch and spec.split("<")[0] in MEMORY_BOUND:
            theirs = idx.get(("triton", "assumed", arch, spec))
            if theirs:
                out.append((spec, row, theirs))
    return out


def codegen_ratios(codegen_result, variant="assumed", arch="sm_90a", against="triton"):
    """[(spec, twintile instructions / theirs, twintile registers / theirs)] over common specs."""
    idx = codegen_index(codegen_result)
    out = []
    for (producer, v, a, spec), row in sorted(idx.items()):
        if producer != "twintile_parse" or v != variant or a != arch:
            continue
        # twintile's fast math meets Triton's defaults, which are fast: with hints against
        # Triton's with hints (`fast`), without against Triton's without (`fast_plain`).
        theirs_variant = variants.VARIANTS[variant].baseline
        theirs = idx.get((against, "plain" if against == "nvcc" else theirs_variant, arch, spec))
        if not theirs:
            continue
        r_ours, r_theirs = registers(row), registers(theirs)
        out.append((spec, row["instructions"] / theirs["instructions"],
                    r_ours / r_theirs if r_ours and r_theirs else None))
    return out


# --- expressiveness -----------------------------------------------------------

def expressiveness_matrix(ex):
    """({feature: {system: cell}}, [systems]); a cell is accepted / refused / None (no such construct)."""
    matrix = {}
    for r in ex.get("twintile", []):
        cell = "accepted" if r["outcome"] == "accepted" and r["correct"] is not False else \
            ("wrong" if r["outcome"] == "accepted" else "refused")
        matrix.setdefault(r["feature"], {})[f"twintile_{r['frontend']}"] = cell
    for r in ex.get("baselines", []):
        matrix.setdefault(r["feature"], {})[r["system"]] = r["outcome"]
    systems = [s for s in ("twintile_parse", "twintile_trace", "twintile_hybrid")
               if any(f"twintile_{r['frontend']}" == s for r in ex.get("twintile", []))] + \
        [s for s in ("triton", "pallas")
                                                      if any(r["system"] == s for r in ex.get("baselines", []))]
    return matrix, systems


# A refusal's `followed` (experiments/suites/expressiveness.py): its summary key.
FOLLOWED = {"right": "followed_right", "refused": "followed_refused", "wrong": "followed_wrong",
            "no advice": "no_advice"}


def expressiveness_summary(ex):
    """{system: {"cases", "accepted", "refused", "located", "followed_right", "followed_refused",
    "followed_wrong", "no_advice", "followed_unsaid"}}: what following each refusal's message gave
    (`followed_unsaid`: right, but needing what the message does not say); None where the system's
    refusals are not followed (the baselines) or a result file predates the measure."""
    out, unfollowed = {}, set()
    for r in ex.get("twintile", []):
        s = out.setdefault(f"twintile_{r['frontend']}", {"cases": 0, "accepted": 0, "refused": 0, "located": 0,
                                                         "as_expected": 0, "followed_unsaid": 0,
                                                         **dict.fromkeys(FOLLOWED.values(), 0)})
        s["cases"] += 1
        s["as_expected"] += bool(r.get("as_expected"))
        if r["outcome"] == "accepted":
            s["accepted"] += r["correct"] is not False
        else:
            s["refused"] += 1
            s["located"] += bool(r.get("located"))
            if r.get("followed") in FOLLOWED:
                s[FOLLOWED[r["followed"]]] += 1
                s["followed_unsaid"] += r["followed"] == "right" and bool(r.get("unsaid"))
            else:
                unfollowed.add(f"twintile_{r['frontend']}")
    for system in unfollowed:  # refusals not followed: a result file from before the measure
        out[system].update(dict.fromkeys(list(FOLLOWED.values()) + ["followed_unsaid"], None))
    for r in ex.get("baselines", []):
        s = out.setdefault(r["system"], {"cases": 0, "accepted": 0, "refused": 0, "located": None,
                                         "as_expected": None, "followed_unsaid": None,
                                         **dict.fromkeys(FOLLOWED.values(), None)})
        s["cases"] += 1
        if r["outcome"] == "accepted":
            s["accepted"] += 1
        else:
            s["refused"] += 1
    return out


def expressiveness_followed(ex):
    """The twintile refusals whose message, followed, did not give a right answer: (frontend,
    feature, followed, detail), detail the new message, why the message names nothing to write, or
    the fix's note."""
    return [(r["frontend"], r["feature"], r["followed"],
             r.get("fix_message") or r.get("no_advice") or r.get("fix_note") or "")
            for r in ex.get("twintile", []) if r["outcome"] == "refused" and r.get("followed") not in (None, "right")]


# --- gpu ----------------------------------------------------------------------

def gpu_latest_runs(gpu_result):
    """The newest recorded run of each machine (dry runs left out), by machine name."""
    latest = {}
    for run in gpu_result.get("runs", []):
        if run.get("dry"):
            continue
        machine = run.get("machine", "?")
        if machine not in latest or run.get("date", "") > latest[machine].get("date", ""):
            latest[machine] = run
    return [latest[m] for m in sorted(latest)]


def gpu_summary(run):
    """What one GPU run says: checks passed (each math mode a check), and per kernel
    the baselines' times over twintile's --math=fast time ('memory' for kernels
    measured in bytes, 'compute' for those measured in FLOP)."""
    kernels = run.get("kernels", [])
    checks = [k.get(c) for k in kernels for c in ("check", "check_fast") if c in k]
    rows = []
    for k in kernels:
        fast = k.get("twintile_fast_s") or k.get("twintile_s")
        if not fast:
            continue
        rows.append({"kernel": k["kernel"], "bound": "compute" if k.get("flops") else "memory",
                     "twintile_s": k.get("twintile_s"), "fast_s": fast,
                     "triton_ratio": k["triton_s"] / fast if k.get("triton_s") else None,
                     "torch_ratio": k["torch_s"] / fast if k.get("torch_s") else None,
                     "precise_cost": k["twintile_s"] / fast if k.get("twintile_s") else None,
                     "gbps": k["bytes"] / fast / 1e9 if k.get("bytes") and not k.get("flops") else None,
                     "tflops": k["flops"] / fast / 1e12 if k.get("flops") else None,
                     "triton_tflops": k["flops"] / k["triton_s"] / 1e12 if k.get("flops") and k.get("triton_s")
                     else None,
                     "torch_tflops": k["flops"] / k["torch_s"] / 1e12 if k.get("flops") and k.get("torch_s")
                     else None})
    return {"checks": len(checks), "checks_ok": sum(c == "ok" for c in checks), "rows": rows}


# --- realworld ----------------------------------------------------------------

def realworld_cells(rw):
    """{(kernel, frontend, variant): its row} of the realworld suite."""
    return {(r["name"], r["frontend"], r["variant"]): r for r in rw.get("rows", [])}


def realworld_right(row):
    """A row whose port was accepted and computed what the upstream kernel computes."""
    return bool(row) and row.get("outcome") == "accepted" and row.get("check") == "ok"


def realworld_frontends(rw):
    """The front ends the realworld suite ran (a result file from before the hybrid has two)."""
    return [f for f in ("parse", "trace", "hybrid") if any(r["frontend"] == f for r in rw.get("rows", []))]


def realworld_summary(rw):
    """Per front end: kernels, accepted as written and right, accepted but wrong, refused,
    internal errors, crashes or failed launches, rewrites accepted and right, lines each rewrite changed,
    and how often each category forced a rewrite."""
    cells = realworld_cells(rw)
    out = {}
    for frontend in realworld_frontends(rw):
        written = [cells.get((k["name"], frontend, "written")) for k in rw.get("kernels", [])]
        written = [r for r in written if r]
        rewrites = [(k, k["rewrites"][frontend]) for k in rw.get("kernels", []) if frontend in k.get("rewrites", {})]
        categories = {}
        for _, rw_ in rewrites:
            for c in rw_.get("why", []):
                categories[c] = categories.get(c, 0) + 1
        out[frontend] = {
            "kernels": len(written),
            "right": sum(realworld_right(r) for r in written),
            "wrong": sum(r["outcome"] == "accepted" and not realworld_right(r)
                         and not str(r.get("check", "")).startswith(("unchecked", "failed")) for r in written),
            "unchecked": sum(r["outcome"] == "accepted" and str(r.get("check", "")).startswith("unchecked")
                             for r in written),
            "refused": sum(r["outcome"] == "refused" for r in written),
            "broken": sum(r["outcome"] in ("internal error", "crashed") or str(r.get("check", "")).startswith("failed")
                          for r in written),
            "rewrites": len(rewrites),
            "rewrites_right": sum(realworld_right(cells.get((k["name"], frontend, "rewritten"))) for k, _ in rewrites),
            "rewrites_unchecked": sum(str((cells.get((k["name"], frontend, "rewritten")) or {}).get("check", ""))
                                      .startswith("unchecked") for k, _ in rewrites),
            "lines": [rw_["added"] + rw_["removed"] for _, rw_ in rewrites],
            "categories": categories,
        }
    return out


def realworld_written(rw):
    """{kernel: {frontend: accepted as written and right}} of the kernels both front ends ran."""
    cells = realworld_cells(rw)
    out = {}
    for k in rw.get("kernels", []):
        rows = {f: cells.get((k["name"], f, "written")) for f in ("parse", "trace")}
        if all(rows.values()):
            out[k["name"]] = {f: realworld_right(r) for f, r in rows.items()}
    return out


def realworld_lines(rw):
    """{kernel: {frontend: lines changed to be accepted}}: 0 where the kernel was accepted and right
    as written, the rewrite's lines where not, None where no rewrite is recorded."""
    written = realworld_written(rw)
    out = {}
    for k in rw.get("kernels", []):
        if k["name"] not in written:
            continue
        m = {}
        for f in ("parse", "trace"):
            r = k.get("rewrites", {}).get(f)
            m[f] = 0 if written[k["name"]][f] else r["added"] + r["removed"] if r else None
        out[k["name"]] = m
    return out


def realworld_compile(rw):
    """Per kernel: median seconds to PTX through each front end and through Triton (its ptxas
    stage left out), and the PTX counts of twintile's port and the upstream kernel."""
    out = {}
    for k in rw.get("kernels", []):
        name = k["name"]
        m = {}
        for frontend in realworld_frontends(rw):
            m[frontend] = median([s["to_ptx_s"] for s in rw.get("compile", [])
                                  if s["name"] == name and s["frontend"] == frontend and "to_ptx_s" in s])
        m["triton"] = median([s["to_ptx_s"] for s in rw.get("upstream_compile", [])
                              if s["name"] == name and "to_ptx_s" in s])
        for r in rw.get("codegen", []):
            if r["name"] == name and "error" not in r:
                m[r["producer"] + "_instructions"] = r.get("instructions")
                m[r["producer"] + "_registers"] = (r.get("ptxas") or {}).get("registers")
        out[name] = m
    return out


def realworld_profile(rw):
    """Per profiled port: the emulator's counts of its one launch, reduced as the codegen table
    reduces them — warp instructions, global requests and sectors, the share of each touched
    sector's bytes the lanes asked for, shared-memory requests and wavefronts over the
    conflict-free ideal — or {"error": ...} where the launch gave no profile."""
    out = {}
    for d in rw.get("profile", []):
        if "profile" not in d:
            out[d["name"]] = {"frontend": d["frontend"], "error": d.get("error", "no profile")}
            continue
        p = d["profile"]
        out[d["name"]] = {
            "frontend": d["frontend"], "rewritten": d["file"] != next(
                (k["file"] for k in rw.get("kernels", []) if k["name"] == d["name"]), d["file"]),
            "warp_instructions": sum(p["warp_instructions"].values()),
            "global_requests": p["global_requests"], "global_sectors": p["global_sectors"],
            "global_bytes": p["global_bytes"],
            "sector_use": p["global_bytes"] / (32 * p["global_sectors"]) if p["global_sectors"] else None,
            "shared_requests": p["shared_requests"],
            "conflicts": p["shared_wavefronts"] / p["shared_ideal_wavefronts"] if p["shared_ideal_wavefronts"] else None,
            "agrees": d["agrees_with_interpreter"]}
    return out

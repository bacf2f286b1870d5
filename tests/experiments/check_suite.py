#!/usr/bin/env python3
"""Runs one experiment suite in its quick mode on one kernel and checks what it wrote.

    check_suite.py SUITE OUTDIR

The suite must exit 0 and write OUTDIR/SUITE.json with its environment and raw
samples that make sense (positive times, every phase of both front ends,
counted PTX, judged refusals). Where a baseline (Triton, JAX, nvcc) is missing
the twintile parts are still checked, then the test reports SKIP (exit 77)
with the suite's own reason: the baseline columns went unchecked.
"""
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
ARGS = {
    "compile": ["--quick", "--kernels", "vector_add"],
    "codegen": ["--quick", "--kernels", "softmax"],
    "expressiveness": ["--quick"],
    "gpu": ["--quick"],
    "tensorcores": ["--quick"],
    "realworld": ["--quick", "--manifest", str(ROOT / "tests" / "experiments" / "realworld" / "kernels.json")],
    "claims": ["--quick"],
}

failures = []


def expect(cond, what):
    if not cond:
        failures.append(what)


def positive(x):
    return isinstance(x, (int, float)) and x > 0


def check_compile(r):
    samples = r["phases"]["twintile"]
    systems = {s["system"] for s in samples}
    expect(systems == {"parse", "parse_nopch", "trace", "trace_clang", "hybrid"}, f"phase systems: {systems}")
    expect(not any("error" in s for s in samples), "a compile_probe sample has an error")
    for s in samples:
        if s["system"] == "parse":
            for k in ("parse_s", "walk_s", "cleanup_s", "lower_s", "optimize_s", "verify_s", "nvptx_s", "backend_s"):
                expect(positive(s.get(k)), f"parse sample without a positive {k}: {s}")
            expect(s["ops"] > 3 and s["ptx_bytes"] > 500, f"parse sample compiled nothing: {s}")
        if s["system"] == "trace":  # in process: Clang, the code generator, the JIT linker
            for k in ("host_compile_s", "host_codegen_s", "host_load_s", "host_cached_s", "trace_s", "backend_s"):
                expect(positive(s.get(k)), f"trace sample without a positive {k}: {s}")
        if s["system"] == "trace_clang":  # a clang++ process, dlopen; no code generator of ours
            for k in ("host_compile_s", "host_load_s", "host_cached_s", "trace_s"):
                expect(positive(s.get(k)), f"trace_clang sample without a positive {k}: {s}")
            expect(not s.get("host_codegen_s"), f"trace_clang sample with a code generator phase: {s}")
        if s["system"] == "hybrid":  # the parse, the rewrite, then the trace front end's phases
            for k in ("parse_s", "rewrite_s", "host_compile_s", "host_codegen_s", "host_load_s", "trace_s"):
                expect(positive(s.get(k)), f"hybrid sample without a positive {k}: {s}")
    reps = r["config"]["reps"]
    expect(len(samples) == 5 * reps * len(r["config"]["kernels"]), f"{len(samples)} phase samples for {reps} reps")
    sweep = r["sweep"]["samples"]
    for name in ("twintile_parse", "twintile_trace", "twintile_trace_clang", "twintile_parse_one_process",
                 "twintile_trace_one_process", "twintile_trace_command", "twintile_trace_clang_command"):
        expect(len(sweep.get(name, [])) == reps and all(positive(x) for x in sweep.get(name, [])),
               f"sweep {name}: {sweep.get(name)}")
    for frontend in ("parse", "trace"):
        runs = r["sweep"].get("backend_in_process", {}).get(frontend, [])
        expect(len(runs) == reps and all(len(run) == len(r["sweep"]["specs"]) and all(positive(x) for x in run.values())
                                         for run in runs),
               f"sweep: the backend's time per variant in the {frontend} process: {runs}")
    for key in ("scaling_stages", "scaling_specs"):
        sizes = {s["size"] for s in r[key]["samples"]}
        expect(sizes == set(r[key]["sizes"]), f"{key}: sizes {sizes}")
        expect(all(positive(s["total_s"]) and s["total_s"] >= s["frontend_s"] for s in r[key]["samples"]),
               f"{key}: a total below its front end")
        expect({s["system"] for s in r[key]["samples"]} >= {"twintile_parse", "twintile_trace", "twintile_trace_clang"},
               f"{key}: systems {sorted({s['system'] for s in r[key]['samples']})}")
    for base, system in (("triton", "triton"), ("pallas", "pallas"), ("nvcc", "nvcc"), ("cute", "cute")):
        if base in r["missing"]:
            continue
        expect(len(sweep.get(system, [])) == reps, f"sweep has no {system} samples")
    if "cute" not in r["missing"]:
        cute = [c for c in r["phases"]["cute"] if "spec" in c]
        expect(cute and all(positive(c.get("seconds")) and c["ptx_bytes"] > 500 for c in cute),
               f"CuTe DSL phase rows: {cute[:2]}")
    if "pallas" not in r["missing"]:
        checks = [p for p in r["phases"]["pallas"] if "check" in p]
        expect(checks and all(p["check"] == "ok" and p["against"] == "twintile interpreter" for p in checks),
               f"the Pallas kernels against twintile's interpreter: {checks}")
    if "triton" not in r["missing"]:
        rows = [t for t in r["phases"]["triton"] if "spec" in t]
        expect(rows and all("stages" in t and positive(t["stages"].get("ast")) for t in rows),
               f"Triton phase rows: {rows[:2]}")


def check_codegen(r):
    rows = r["rows"]
    expect(not any("error" in x for x in rows if x["producer"].startswith("twintile")), "a twintile compile failed")
    tw = [x for x in rows if x["producer"] == "twintile_parse"]
    expect(len(tw) == 8, f"{len(tw)} twintile_parse rows for one spec x 2 targets x 4 variants")
    hy = {(x["variant"], x["arch"], x["spec"]): x for x in rows if x["producer"] == "twintile_hybrid"}
    expect(len(hy) == 8 and all(hy.get((x["variant"], x["arch"], x["spec"]), {}).get("ptx_sha256") == x["ptx_sha256"]
                                for x in tw),
           "the hybrid's PTX is not the parsing front end's for a kernel without native device control flow")
    for x in tw:
        expect(x["instructions"] > 20 and sum(x["classes"].values()) == x["instructions"],
               f"classes do not add up to the instruction count: {x}")
    # The caller's promises must widen global accesses (16-byte loads appear).
    assumed = [x for x in tw if x["variant"] == "assumed"]
    expect(all("16" in x["global_access_bytes"]["ld"] for x in assumed), "no 16-byte loads under the promises")
    # Fast math (with the same promises) never costs instructions.
    for x in (x for x in tw if x["variant"] == "fast"):
        same = [a for a in assumed if a["arch"] == x["arch"] and a["spec"] == x["spec"]]
        expect(same and x["instructions"] <= same[0]["instructions"], f"fast math gave more instructions: {x['spec']}")
    # Machine code, where nvdisasm was found: the rows the memory-bound targets compare.
    if r["config"].get("nvdisasm"):
        machine = [x for x in rows if x["arch"] == "sm_90a" and "error" not in x and
                   (x["producer"], x["variant"]) in {("twintile_parse", "fast"), ("triton", "assumed")}]
        expect(machine and all(x["ptxas"]["sass_instructions"] > 20 and
                               0 < x["ptxas"]["peak_live_registers"] <= x["ptxas"]["registers"] for x in machine),
               f"machine instructions or live registers missing or out of range: {machine[:1]}")
    if "triton" not in r["missing"]:
        tri = [x for x in rows if x["producer"] == "triton"]
        expect(len(tri) == 4 and all("error" not in x for x in tri), f"Triton rows: {tri[:1]}")
        if "cute" not in r["missing"]:
            cute = [x for x in rows if x["producer"] == "cute"]
            expect(len(cute) == 4 and all("error" not in x and x["instructions"] > 20 for x in cute),
                   f"CuTe DSL rows: {cute[:1]}")
        checks = r["triton_checks"]
        expect(len(checks) == 1 and checks[0]["check"] == "ok" and checks[0]["elements"] > 0,
               f"the Triton kernel does not agree with twintile's interpreter: {checks}")
    dyn = r["dynamic"]
    expect(len(dyn) == 2 and all(d.get("agrees_with_interpreter") for d in dyn),
           f"the profiled launches: {[(d['variant'], d.get('error', 'ok')[:200]) for d in dyn]}")
    for d in dyn:
        p = d.get("profile", {})
        expect(p.get("global_requests", 0) > 0 and p["global_sectors"] * 32 >= p["global_bytes"] > 0,
               f"global counts that cannot be: {p}")
        expect(sum(d["classes"].values()) == sum(p["warp_instructions"].values()), "classes do not add up")
    if r["config"]["ptxas"]:
        expect(all(x.get("ptxas") and x["ptxas"]["registers"] for x in tw), "ptxas measured no registers")


def check_tensorcores(r):
    rows = r["rows"]
    tw = [x for x in rows if x["producer"] == "twintile"]
    expect(len(tw) == 4 and not any("error" in x for x in tw), f"twintile rows (2 configs x 2 variants): {tw[:1]}")
    for x in tw:
        ops = x.get("ptx_ops", {})
        unit = "wgmma.mma_async" if x["arch"] == "sm_90a" else "mma.sync"
        expect(ops.get(unit, 0) > 0, f"{x['spec']} on {x['arch']}: no {unit} in the PTX ({ops})")
        expect(x["instructions"] > 100 and x["shared_bytes"] > 0, f"{x['spec']}: nothing counted")
        if x["variant"] == "assumed":
            expect(ops.get("cp.async", 0) > 0, f"{x['spec']}: the promises did not pipeline the loads")
        if r["config"]["ptxas"]:
            p = x.get("ptxas") or {}
            expect(p.get("registers") and p.get("spill_store_bytes") is not None, f"ptxas measured nothing: {x}")
            sass = p.get("tensor_core_sass")
            if r["config"].get("nvdisasm") and sass is not None:
                want = "HGMMA" if x["arch"] == "sm_90a" else "HMMA"
                expect(sass.get(want, 0) > 0, f"{x['spec']} on {x['arch']} {x['variant']}: no {want} in the SASS ({sass})")
    if "triton" not in r["missing"]:
        tri = [x for x in rows if x["producer"] == "triton"]
        expect(len(tri) == 4 and all("error" not in x and x["instructions"] > 100 for x in tri), f"Triton rows: {tri[:1]}")


def check_expressiveness(r):
    tw = r["twintile"]
    expect(len(tw) == 3 * r["config"]["features"], f"{len(tw)} rows for {r['config']['features']} features")
    expect({x["frontend"] for x in tw} == {"parse", "trace", "hybrid"}, "not every front end probed")
    expect(all(x["as_expected"] for x in tw),
           "not as features.json expects: " + ", ".join(f"{x['frontend']} {x['feature']}" for x in tw
                                                         if not x["as_expected"]))
    refused = [x for x in tw if x["outcome"] == "refused"]
    expect(refused and all(x["located"] for x in refused), "a refusal not at its marked line")
    expect(all(x.get("followed") in ("right", "refused", "wrong", "no advice") for x in refused),
           "a refusal not followed: " + ", ".join(f"{x['frontend']} {x['feature']}" for x in refused
                                                  if x.get("followed") not in ("right", "refused", "wrong", "no advice")))
    expect(all(x.get("fix") and (x["followed"] != "refused" or x.get("fix_message"))
               for x in refused if x.get("followed") != "no advice"), "a followed refusal without its fix or message")
    expect(any(x.get("followed") == "right" for x in refused), "no refusal's message, followed, worked")
    for system in ("triton", "pallas"):
        if system not in r["missing"]:
            rows = [x for x in r["baselines"] if x["system"] == system]
            expect(len(rows) >= 15, f"{len(rows)} {system} rows")
            expect(any(x["outcome"] == "refused" for x in rows) and any(x["outcome"] == "accepted" for x in rows),
                   f"{system}: all one outcome")


def check_gpu(r):
    expect(isinstance(r["runs"], list), "runs is not a list")
    expect(r["runs"] or r["note"], "no runs and no note saying so")


def check_realworld(r):
    if "numpy" in r["missing"]:  # nothing ran: the test reports SKIP with the reason
        expect(not r["rows"], "rows without NumPy")
        return
    rows = {(x["frontend"], x["variant"]): x for x in r["rows"]}
    expect(set(rows) == {("parse", "written"), ("trace", "written"), ("trace", "rewritten"), ("hybrid", "written")}
           and len(r["rows"]) == 4,
           f"rows: {sorted(rows)}: parse and hybrid accept the port as written, trace needs its rewrite")
    want = "ok" if not r["missing"] else "unchecked"
    for key in (("parse", "written"), ("trace", "rewritten"), ("hybrid", "written")):
        row = rows.get(key, {})
        expect(row.get("outcome") == "accepted" and str(row.get("check", "")).startswith(want),
               f"{key}: {row.get('outcome')}, {row.get('check')} (expected accepted, {want})")
    written = rows.get(("trace", "written"), {})
    expect(written.get("outcome") == "refused" and written.get("line") == 13 and
           "for_range" in (written.get("message") or ""),
           f"trace: the device loop is not refused at line 13 naming for_range: {written}")
    for frontend in ("parse", "trace", "hybrid"):
        samples = [c for c in r["compile"] if c["frontend"] == frontend]
        expect(len(samples) == 2 and all(positive(c.get("to_ptx_s")) and c["to_ptx_s"] >= c["frontend_s"]
                                         for c in samples), f"{frontend} compile samples: {samples}")
    ours = [c for c in r["codegen"] if c["producer"] == "twintile"]
    expect(len(ours) == 1 and ours[0].get("instructions", 0) > 10, f"twintile's PTX counts: {ours}")
    if not r["missing"]:
        theirs = [c for c in r["codegen"] if c["producer"] == "upstream"]
        expect(len(theirs) == 1 and theirs[0].get("instructions", 0) > 10, f"the upstream PTX counts: {theirs}")
        expect(len(r["upstream_compile"]) == 2 and all(positive(c.get("to_ptx_s")) for c in r["upstream_compile"]),
               f"the upstream compile samples: {r['upstream_compile']}")
    prof = r.get("profile", [])
    counts = prof[0].get("profile", {}) if len(prof) == 1 else {}
    expect(len(prof) == 1 and prof[0]["frontend"] == "parse" and prof[0].get("agrees_with_interpreter") and
           sum(counts.get("warp_instructions", {}).values()) > 10 and counts.get("global_sectors", 0) > 0 and
           counts.get("global_bytes", 0) > 0, f"the emulator's profile of the parsing front end's port: {prof}")
    k = r["kernels"][0]
    expect(k["rewrites"]["trace"]["added"] == 2 and k["rewrites"]["trace"]["removed"] == 2,
           f"the trace rewrite changes two lines of code: {k['rewrites']['trace']}")


def check_claims(r):
    if not {"nvcc", "cutlass"} & set(r["missing"]):
        rows = r["cutlass"]
        expect(len(rows) == 1 and "error" not in rows[0], f"the CUTLASS compile: {str(rows)[:600]}")
        expect(all(x["seconds"] > 1 and x["peak_bytes"] > 100 << 20 for x in rows),
               f"a CUTLASS compile too quick or too small to have compiled a kernel: {rows}")
    p = r["projection"]
    if "cutlass_library" not in r["missing"]:  # its error is there, and the test reports SKIP
        expect(p.get("default", 0) > 100 and p["all"] >= p["default"], f"the kernel count: {p}")
    same = r["same_tile"]["rows"]
    for system in ("twintile_parse", "twintile_trace", "twintile_hybrid"):
        for to in ("ptx",) if "ptxas" in r["missing"] else ("ptx", "cubin"):
            xs = [x for x in same if x["system"] == system and x.get("to") == to]
            expect(xs and all("error" not in x and positive(x["seconds"]) for x in xs), f"{system} to {to}: {xs}")
    vec = {(x["system"], x["variant"]): x for x in r["vectorize"]["rows"]}
    for key, x in vec.items():
        if key[0] == "twintile_parse":
            expect("error" in x and "mutable global" in x["error"], f"the parse front end refuses the host variable: {x}")
        elif key[0] != "nvcc" or "nvcc" not in r["missing"]:
            expect("error" not in x and x["instructions"] > 10 and x["global_access_bytes"]["ld"],
                   f"{key}: a compile with loads: {str(x)[:400]}")
    expect(len(vec) == 8, f"eight vectorize entries: {sorted(vec)}")

    def widest(key):
        x = vec.get(key) or {}
        return max((int(b) for b in (x.get("global_access_bytes") or {}).get("ld") or {}), default=0)
    if "nvcc" not in r["missing"]:  # what the kernels are written to do (and nvcc's vectorizer leaves alone)
        for variant, width in (("template parameter, row in registers", 16), ("constant, contiguous loop", 4),
                               ("run-time argument, contiguous loop", 4), ("constant, vector loop", 16),
                               ("run-time argument, vector loop", 16)):
            expect(widest(("nvcc", variant)) == width, f"nvcc {variant}: {width}-byte loads at widest")
    expect(widest(("twintile_trace", "meta-parameter")) == widest(("twintile_trace", "host variable")) == 16,
           "the traced host variable loads as the meta-parameter does, 16 bytes at a time")
    inst = r["instantiations"]
    callers = {x["system"]: x for x in inst["callers"]}
    expect(set(callers) == {"nvcc", "triton", "twintile"} and all(x["lines"] > 0 for x in callers.values()),
           f"every caller's dispatch counted: {callers}")
    n = len(inst["variants"])
    expect(callers["nvcc"]["variants_named"] == n and callers["triton"]["variants_named"] ==
           callers["twintile"]["variants_named"] == 0, f"the variants each dispatch names: {callers}")
    for system in ("nvcc", "triton"):
        if system not in r["missing"]:
            expect("error" not in callers[system], f"the {system} caller builds: {callers[system]}")
    expect(not inst["errors"], f"every compile of the twelve and of the one: {inst['errors']}")
    for system in ["twintile_parse"] + [s for s in ("nvcc", "triton") if s not in r["missing"]]:
        expect(inst["samples"][f"{system}_all"] and inst["samples"][f"{system}_one"], f"{system}'s compile samples")
    if "triton" not in r["missing"]:
        tri = [x for x in same if x["system"] == "triton"]
        expect(tri and all("error" not in x and x["seconds"] > x["compile_s"] > 0 for x in tri),
               f"Triton's compiles, each a process longer than its compile: {str(tri)[:600]}")


def main():
    suite, outdir = sys.argv[1], Path(sys.argv[2])
    outdir.mkdir(parents=True, exist_ok=True)
    out = outdir / f"{suite}.json"
    out.unlink(missing_ok=True)
    proc = subprocess.run([sys.executable, "-m", f"experiments.suites.{suite}", *ARGS[suite], "--out", str(out)],
                          capture_output=True, text=True, cwd=ROOT)
    if proc.returncode != 0:
        print(proc.stdout[-3000:], proc.stderr[-3000:])
        print(f"FAIL: the {suite} suite exited {proc.returncode}")
        return 1
    r = json.loads(out.read_text())
    expect(r["suite"] == suite, "wrong suite name")
    for k in ("date", "git_commit", "cpu", "cores", "load_average", "llvm", "gpu"):
        expect(k in r["environment"], f"environment lacks {k}")
    globals()[f"check_{suite}"](r)
    for f in failures:
        print(f"FAIL: {f}")
    if failures:
        return 1
    missing = r.get("missing") or {}
    if missing:
        print("SKIP: twintile's part checked, but baselines missing: " +
              "; ".join(f"{k}: {v}" for k, v in missing.items()))
        return 77
    print(f"{suite} suite: checked {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

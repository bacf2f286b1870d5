#!/usr/bin/env python3
"""The compile suite: how long each front end, the backend, and the systems a reader
would pick instead take to turn kernels into PTX.

    python3 -m experiments.suites.compile [--quick] [--reps N] [--kernels a,b] [--out FILE] [--shard I/N]

Four parts, all written raw to experiments/results/compile.json:

  phases   every corpus specialization x front end, in process (compile_probe),
           each phase timed: parse (Clang, with the precompiled language header;
           and without it), walk; the tracing front end's host compile (cold:
           Clang in process and the host's code generator, or a clang++
           process, the two measured apart), its load, cached load, trace; the
           hybrid's parse, rewrite and trace of the rewritten file; IR
           cleanup; lowering, libdevice link, LLVM optimization, NVPTX, ptxas.
           Beside them Triton's stages for the same kernels (triton_compile.py:
           AST to TTIR, TTIR, TTGIR, LLVM IR, PTX, its ptxas) and Pallas's trace
           and lowering to Triton IR (pallas_probe.py) where a Pallas version
           exists, each Pallas kernel first checked against twintile's interpreter
           on the same inputs; CuTe DSL's compiles of vector_add and softmax.
  sweep    the 12 softmax variants (f16/bf16/f32 x BLOCK 128..1024), source to
           PTX, as whole processes, interleaved in one run: twintile parse and
           twintile trace (in-process host compile, and through clang++) as one
           driver command for the 12 and as one driver process per variant
           (caches off), nvcc -ptx of the CUDA template with the same 12
           instantiations (experiments/baselines/softmax.cu), Triton (one process,
           12 variants, fresh cache), Pallas (one process, to Triton IR); and
           in process, twintile with one parse for all 12, whose own report
           gives each variant's backend time in that process.
  stages   scaling in kernel size: one kernel of N chained elementwise stages.
  specs    scaling in specializations: one file compiled for S specializations.

Repetitions are interleaved (rep outermost), so drift on this shared machine
touches every system alike. --quick: 2 repetitions, a few kernels, short
scaling ranges: the same code paths in a few minutes.
"""
import argparse
import json
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from experiments.harness import common, shard, systems  # noqa: E402

SWEEP = [f"softmax<{t},{b}>" for t in ("f16", "bf16", "f32") for b in (128, 256, 512, 1024)]


def probe(frontend, file, specs, env=None, extra=()):
    rows, err, code = common.run_json_lines(
        [common.tool("compile_probe"), "--frontend", frontend, str(file), *specs, "--ptxas", "--warmup", *extra], env=env,
        check=False)
    if not rows:
        raise RuntimeError(f"compile_probe failed on {file}: {err[-2000:]}")
    return rows[0]


def run_baseline(name, specs, reps, *extra):
    """Baseline `name`'s compile of `specs`, `reps` times: its JSON rows."""
    return systems.run(name, [*specs, "--reps", reps, *extra])[0]


def phases(kernels, reps, missing):
    """Per specialization and front end, every phase, in process."""
    samples = []
    work = [(f, s) for _, f, specs in kernels for s in specs]
    progress = common.Progress(len(work) * reps, "compile phases")
    for rep in range(reps):
        for file, spec in work:
            progress.step(f"{spec} parse, parse without PCH, trace, trace through clang++, hybrid "
                          f"(rep {rep + 1}/{reps})")
            for frontend, env, extra, label in (("parse", None, (), "parse"),
                                                ("parse", {"TWINTILE_NO_PCH": "1"}, ("--no-backend", ), "parse_nopch"),
                                                ("trace", None, ("--trace-host", "jit"), "trace"),
                                                ("trace", None, ("--trace-host", "clang++", "--no-backend"),
                                                 "trace_clang"),
                                                ("hybrid", None, ("--trace-host", "jit", "--no-backend"), "hybrid")):
                row = probe(frontend, file, [spec], env=env, extra=extra)
                samples.append({"rep": rep, "system": label, "spec": spec, "parse_s": row.get("parse_s"),
                                **row["specs"][0]} if row["specs"] else
                               {"rep": rep, "system": label, "spec": spec, "error": row.get("error")})
    all_specs = [s for _, s in work]
    triton, pallas = [], []
    if not missing.get("triton"):
        print(f"[compile phases] Triton: {len(all_specs)} specializations x {reps}", flush=True)
        triton = run_baseline("triton", all_specs, reps, "--warmup")
    if not missing.get("pallas"):
        pallas_specs = systems.covered("pallas", all_specs)
        if pallas_specs:
            print(f"[compile phases] Pallas: {len(pallas_specs)} specializations x {reps}", flush=True)
            pallas = run_baseline("pallas", pallas_specs, reps, "--interp-probe", common.tool("interp_probe"))
    cute = []
    if not missing.get("cute"):
        cute_specs = systems.covered("cute", all_specs)
        if cute_specs:
            print(f"[compile phases] CuTe DSL: {len(cute_specs)} specializations x {reps}", flush=True)
            cute = run_baseline("cute", cute_specs, reps, "--warmup")
    return {"twintile": samples, "triton": triton, "pallas": pallas, "cute": cute}


def sweep(reps, missing):
    """The 12-variant softmax sweep, whole processes, interleaved."""
    twintile = common.tool("twintile")
    nvcc = common.cuda_tool("nvcc")
    out = common.scratch("compile-sweep")
    softmax_cpp = common.KERNELS / "softmax.cpp"

    def driver(frontend, *extra):
        total = 0.0
        for spec in SWEEP:
            secs, code, err = common.timed_process(
                [twintile, "compile", f"--frontend={frontend}", *extra, str(softmax_cpp), "--kernel", spec, "--emit",
                 "ptx", "--no-cache", "-o", str(out / f"{frontend}-{common.spec_file_name(spec)}.ptx")])
            if code != 0:
                raise RuntimeError(f"twintile compile failed on {spec}: {err}")
            total += secs
        return total

    def whole(cmd, what):
        """A function timing `cmd` as one whole process, start-up included; a failure is an error."""
        def run():
            secs, code, err = common.timed_process([str(c) for c in cmd])
            if code != 0:
                raise RuntimeError(f"{what} failed on the sweep: {err[-2000:]}")
            return secs
        return run

    py = common.venv_python()
    nvcc_run = whole([nvcc, "-ptx", "-arch=sm_90a", common.BASELINES / "softmax.cu", "-o", out / "nvcc-softmax.ptx"],
                     "nvcc")
    def baseline(name, *extra):
        program = systems.SYSTEMS[name].program
        return whole([py, common.BASELINES / program, *SWEEP, *extra], program)

    triton_run = baseline("triton")
    cute_run = baseline("cute")
    pallas_run = baseline("pallas", "--no-check")

    def one_command(frontend, *extra):
        # What a user runs: one driver command for all 12, -o naming a folder (no ptxas).
        specs = [a for spec in SWEEP for a in ("--kernel", spec)]
        return whole([twintile, "compile", f"--frontend={frontend}", *extra, softmax_cpp, *specs, "--emit", "ptx",
                      "--no-cache", "-o", out / f"{frontend}-command"], "twintile compile")()

    in_process = {"parse": [], "trace": []}  # per repetition, {spec: backend seconds} of one_process's run

    def one_process(frontend):
        # The whole process, start-up included, as nvcc's and Triton's are timed; no ptxas. Its own
        # report also gives each variant's backend time in a process compiling all 12 (the first
        # pays LLVM's one-time set-up, as in any such program).
        extra = ("--trace-host", "jit", "--cold-only") if frontend == "trace" else ()
        cmd = [str(c) for c in (common.tool("compile_probe"), "--frontend", frontend, softmax_cpp, *SWEEP, *extra)]
        start = time.perf_counter()
        proc = subprocess.run(cmd, capture_output=True, text=True)
        secs = time.perf_counter() - start
        if proc.returncode != 0:
            raise RuntimeError(f"compile_probe failed on the sweep: {proc.stderr[-2000:]}")
        row = json.loads(proc.stdout.splitlines()[0])
        in_process[frontend].append({s["spec"]: s["backend_s"] for s in row["specs"]})
        return secs

    clang = ("--trace-host", "clang++")
    runs = {"twintile_parse": lambda: driver("parse"), "twintile_trace": lambda: driver("trace", "--trace-host", "jit"),
               "twintile_trace_clang": lambda: driver("trace", *clang),
               "twintile_parse_command": lambda: one_command("parse"),
               "twintile_trace_command": lambda: one_command("trace", "--trace-host", "jit"),
               "twintile_trace_clang_command": lambda: one_command("trace", *clang),
               "twintile_parse_one_process": lambda: one_process("parse"),
               "twintile_trace_one_process": lambda: one_process("trace")}
    if nvcc:
        runs["nvcc"] = nvcc_run
    if not missing.get("triton"):
        runs["triton"] = triton_run
    if not missing.get("pallas"):
        runs["pallas"] = pallas_run
    if not missing.get("cute"):
        runs["cute"] = cute_run
    samples = {name: [] for name in runs}
    order = list(runs)
    progress = common.Progress(reps * len(order), "compile sweep")
    rng = random.Random(1)
    for rep in range(reps):
        rng.shuffle(order)
        for name in order:
            secs = runs[name]()
            samples[name].append(secs)
            progress.step(f"12 softmax variants, {name}: {secs:.3f} s (rep {rep + 1}/{reps})")
    return {"specs": SWEEP, "samples": samples, "backend_in_process": in_process,
            "notes": {"twintile_parse": "12 driver processes, --emit ptx --no-cache (no ptxas)",
                      "twintile_trace": "12 driver processes, each compiling the kernel file in process "
                                        "(Clang, the host's code generator, ORC's JIT linker; --no-cache; no ptxas)",
                      "twintile_trace_clang": "12 driver processes, each compiling the kernel file with a clang++ "
                                              "process, after reading its signatures with Clang in process "
                                              "(front end only) (--trace-host clang++ --no-cache; no ptxas)",
                      "twintile_parse_command": "one driver command for the 12 (--kernel x12 --emit ptx -o DIR "
                                                "--no-cache): one parse, the backends in parallel on the cores",
                      "twintile_trace_command": "one driver command for the 12: one host compile of the kernel file "
                                                "for all 12 entry points, the backends in parallel (--no-cache)",
                      "twintile_trace_clang_command": "the same through a clang++ process (--trace-host clang++)",
                      "twintile_parse_one_process": "one compile_probe process: one parse, 12 walks, cleanups "
                                                   "and backends to PTX (no ptxas)",
                      "twintile_trace_one_process": "one compile_probe process: one host compile (in process) for "
                                                   "the 12, 12 traces, cleanups and backends to PTX (no ptxas)",
                      "nvcc": "nvcc -ptx -arch=sm_90a of softmax.cu (the 12 instantiations in one file)",
                      "triton": "one Python process: import, 12 ASTSource compiles to PTX and cubin (its ptxas), "
                                "fresh cache",
                      "pallas": "one Python process: import JAX, 12 pallas_calls traced and lowered to Triton IR "
                                "(not to PTX: that needs jaxlib for CUDA)",
                      "cute": "one Python process: import CuTe DSL, 12 cute.compile to PTX and the cubin it always "
                              "makes (fake tensors, no GPU)"}}


CHAIN_CPP = """#include <twintile.h>
using namespace tt;

template <int BLOCK>
TT_KERNEL void chain(Ptr<f32> x, Ptr<f32> y, i32 n) {{
  auto offs = program_id(0) * BLOCK + arange(0, BLOCK);
  auto mask = offs < n;
  auto v = load(x + offs, mask, 0.0f);
{body}  store(y + offs, v, mask);
}}
"""

CHAIN_PY = """import triton
import triton.language as tl


@triton.jit
def chain(x, y, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    v = tl.load(x + offs, mask, other=0.0)
{body}    tl.store(y + offs, v, mask)


def specialize(spec, assume=False):
    return chain, {{"x": "*fp32", "y": "*fp32", "n": "i32", "BLOCK": "constexpr"}}, {{"BLOCK": 128}}, {{}}
"""

SPECS_CPP = """#include <twintile.h>
using namespace tt;

template <int K>
TT_KERNEL void scaled(Ptr<f32> x, Ptr<f32> y, i32 n) {
  auto offs = program_id(0) * 128 + arange(0, 128);
  auto mask = offs < n;
  store(y + offs, load(x + offs, mask, 0.0f) * (K + 0.5f), mask);
}
"""

SPECS_PY = """import triton
import triton.language as tl


@triton.jit
def scaled(x, y, n, K: tl.constexpr):
    offs = tl.program_id(0) * 128 + tl.arange(0, 128)
    mask = offs < n
    tl.store(y + offs, tl.load(x + offs, mask, other=0.0) * (K + 0.5), mask)


def specialize(spec, assume=False):
    k = int(spec.split("<")[1].rstrip(">"))
    return scaled, {"x": "*fp32", "y": "*fp32", "n": "i32", "K": "constexpr"}, {"K": k}, {}
"""


def frontend_and_total(row, frontend):
    """(front-end seconds, source-to-PTX seconds without ptxas) of one probe run."""
    fe = row.get("parse_s") or 0.0
    total = 0.0
    for s in row["specs"]:
        fe += sum(s.get(k, 0.0) for k in ("walk_s", "host_compile_s", "host_codegen_s", "host_load_s", "trace_s"))
        total += s.get("cleanup_s", 0.0) + s.get("backend_s", 0.0) - s.get("ptxas_s", 0.0)
    return fe, fe + total


def triton_frontend_and_total(rows):
    fe = sum(r["stages"].get("ast", 0.0) for r in rows if "stages" in r)
    total = sum(r["seconds"] - r["stages"].get("cubin", 0.0) for r in rows if "stages" in r)
    return fe, total


def scaling(kind, sizes, reps, missing):
    """Front-end and total time against kernel size (stages) or specialization count (specs)."""
    with tempfile.TemporaryDirectory(prefix=f"twintile-scaling-{kind}-") as tmp:
        return _scaling(kind, sizes, reps, missing, Path(tmp))


def _scaling(kind, sizes, reps, missing, work):
    samples = []
    progress = common.Progress(reps * len(sizes), f"compile scaling ({kind})")
    for rep in range(reps):
        for size in sizes:
            if kind == "stages":
                body_cpp = "".join(f"  v = v * 1.0001f + {i % 7 + 1}.0f;\n" for i in range(size))
                body_py = "".join(f"    v = v * 1.0001 + {i % 7 + 1}.0\n" for i in range(size))
                cpp, py = CHAIN_CPP.format(body=body_cpp), CHAIN_PY.format(body=body_py)
                specs = ["chain<128>"]
            else:
                cpp, py = SPECS_CPP, SPECS_PY
                specs = [f"scaled<{k}>" for k in range(1, size + 1)]
            (work / f"k{size}.cpp").write_text(cpp)
            (work / f"k{size}.py").write_text(py)
            for frontend, extra, system in (("parse", (), "twintile_parse"),
                                            ("trace", ("--trace-host", "jit"), "twintile_trace"),
                                            ("trace", ("--trace-host", "clang++"), "twintile_trace_clang")):
                row = probe(frontend, work / f"k{size}.cpp", specs, extra=extra)
                if row.get("error") or any("error" in s for s in row["specs"]):
                    raise RuntimeError(f"compile_probe failed at {kind}={size}: {row}")
                fe, total = frontend_and_total(row, frontend)
                samples.append({"rep": rep, "size": size, "system": system, "frontend_s": fe, "total_s": total})
            if not missing.get("triton"):
                rows = run_baseline("triton", specs, 1, "--warmup", "--module", work / f"k{size}.py")
                fe, total = triton_frontend_and_total(rows)
                samples.append({"rep": rep, "size": size, "system": "triton", "frontend_s": fe, "total_s": total})
            progress.step(f"{kind} = {size} (rep {rep + 1}/{reps})")
    return {"sizes": sizes, "samples": samples}


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--reps", type=int)
    ap.add_argument("--kernels", help="comma-separated corpus kernel names (default: all; --quick: a few)")
    ap.add_argument("--out")
    ap.add_argument("--parts", default="phases,sweep,stages,specs")
    shard.add_argument(ap)
    args = ap.parse_args(argv)
    reps = args.reps or (2 if args.quick else 5)
    names = args.kernels.split(",") if args.kernels else (["vector_add", "softmax", "matmul"] if args.quick else None)
    kernels = common.corpus(names)
    if args.quick:  # one specialization per kernel
        kernels = [(n, f, specs[-1:]) for n, f, specs in kernels]
    parts = args.parts.split(",")
    # The units a shard takes a block of: each kernel's phases, then the sweep and the scalings whole.
    plan = ([k for k, _, _ in kernels] if "phases" in parts else []) + [p for p in ("sweep", "stages", "specs")
                                                                         if p in parts]
    mine = shard.share(args.shard, plan)
    config = {"reps": reps, "quick": args.quick, "kernels": [k for k, _, _ in kernels], "target": "sm_90a"}
    if not mine:
        common.write_result("compile", {"config": config}, args.out, args.shard, plan)
        return 0
    missing = {name: why for name in ("triton", "pallas", "cute") if (why := systems.missing(name))}
    if not common.cuda_tool("nvcc"):
        missing["nvcc"] = "nvcc not found (run scripts/setup)"
    for k, why in missing.items():
        print(f"[compile] {k} is missing: {why}", flush=True)

    payload = {"config": config, "missing": missing}
    if any(k in mine for k, _, _ in kernels):
        payload["phases"] = {system: shard.unit_major(rows, plan, shard.kernel_of) for system, rows in
                             phases([k for k in kernels if k[0] in mine], reps, missing).items()}
    if "sweep" in mine:
        payload["sweep"] = sweep(max(reps, 3) if not args.quick else reps, missing)
    if "stages" in mine:
        sizes = [1, 4, 16, 64] if args.quick else [1, 2, 4, 8, 16, 32, 64, 128, 256]
        payload["scaling_stages"] = scaling("stages", sizes, reps if not args.quick else 1, missing)
    if "specs" in mine:
        sizes = [1, 4, 16] if args.quick else [1, 2, 4, 8, 16, 32, 64]
        payload["scaling_specs"] = scaling("specs", sizes, min(reps, 3) if not args.quick else 1, missing)
    common.write_result("compile", payload, args.out, args.shard, plan)
    return 0


if __name__ == "__main__":
    sys.exit(main())

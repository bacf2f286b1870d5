#!/usr/bin/env python3
"""The claims suite: the measurements the seed essay's claims rest on, where no other suite has them.

    python3 -m experiments.suites.claims [--quick] [--reps N] [--out FILE] [--shard I/N]

The essay ("A Case for Tracing Based DSL Kernel Languages") says that a CUTLASS kernel
takes tens of seconds to compile and a CUTLASS library build many minutes, that Python DSLs
escape this, and that a CUDA kernel's block size must be a compile-time constant (to
vectorize), so that three element types and four block sizes mean twelve instantiations
for the caller to choose among. Five parts, raw in experiments/results/claims.json; the
report (experiments/report/claims.py) gives every claim its verdict from them and from
the other suites' results:

  cutlass     nvcc (-O3, sm_90a, -c) on one CUTLASS 3.x Hopper GEMM per configuration
              (experiments/claims/cutlass_gemm.cu: bf16, f32 accumulation, TMA,
              warp-specialized, built by CUTLASS's collective builders, against the
              pinned nvidia-cutlass wheel's headers and nvidia-cuda-cccl's): two tile
              shapes under the cooperative schedule and two under ping-pong, each
              repeated; wall seconds and the compile's peak resident memory (its
              processes' largest, from wait4).
  projection  how many Hopper GEMM kernels CUTLASS's own generator would have a library
              build compile (experiments/claims/cutlass_kernels.py): with the median
              above, a projection of the build's cost, labelled as one.
  same_tile   a GEMM of the first configuration's tile compiled by the DSLs, each as one
              process, as nvcc is: twintile's corpus matmul through every front end
              (`twintile compile`, to PTX and, with ptxas, to a cubin), and Triton's matmul
              (triton_compile.py: Python's start, Triton's import and one compile with a
              fresh cache, its stages timed within, its cubin included).
  vectorize   softmax's PTX with its block size a compile-time constant and a run-time
              value (nvcc -ptx, sm_90a): the handwritten kernel (baselines/softmax.cu, the
              row in registers), and claims/softmax_runtime_block.cu's two loops over a row
              in shared memory (one of scalar accesses to contiguous columns, the compiler's
              to vectorize; one vectorized by hand), each with the block size a constant and
              a run-time argument; twintile's tracing front end on the
              corpus softmax (a meta-parameter) and on the same kernel reading its block size
              from a host variable when it traces (claims/softmax_runtime_block.cpp), which
              the parsing front end refuses, both promised what twintile's launch API and
              Triton's JIT specialize on at launch (16-byte alignment, divisibility by 16).
              Per entry: static PTX instructions, global accesses by width, shared accesses.
  instantiations  softmax's twelve variants (f16, bf16, f32 × blocks 128 to 1024): what
              each system makes its caller write to pick one (claims/dispatch/: a CUDA C++
              dispatch over softmax.cu's instantiations, a Triton launch, twintile's launch
              API; the lines between their markers, and how many variants they name), each
              compiled or loaded here so that the count is of code that builds (the twintile
              one by the build); and compiling all twelve against the one a call needs, each
              one process on one thread, interleaved, to PTX (Triton's to a cubin: its
              compiles always end in one): nvcc -ptx on softmax.cu with its twelve
              instantiations and with one alone, Triton (triton_compile.py) on twelve
              specializations and on one, twintile's driver on twelve and on one.

--quick: the first configuration once, 2 repetitions of the DSLs' compiles (about two
minutes here, 3 GB of memory for nvcc). Where nvcc, the CUTLASS headers or Triton are
missing the suite records why under `missing`, and the claims' rows say so.
"""
import argparse
import json
import os
import random
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from experiments.harness import common, shard, systems  # noqa: E402

CLAIMS = common.ROOT / "experiments" / "claims"
FRONTENDS = ("parse", "trace", "hybrid")  # twintile's, each compiling the same-tile GEMM
# (name, tile M, N, K, cluster M, N, schedule)
CONFIGS = [("128x128x64 cooperative", 128, 128, 64, 1, 2, "cooperative"),
           ("128x256x64 cooperative", 128, 256, 64, 1, 2, "cooperative"),
           ("64x128x64 pingpong", 64, 128, 64, 1, 2, "pingpong"),
           ("128x128x64 pingpong", 128, 128, 64, 1, 2, "pingpong")]
NVCC_FLAGS = ["-std=c++17", "-O3", "-gencode=arch=compute_90a,code=sm_90a", "-c"]


def cutlass_includes():
    """The pinned wheels' header folders (nvidia-cutlass, nvidia-cuda-cccl), or (None, why)."""
    site = sorted(common.ROOT.glob(".venv/lib/python3*/site-packages"))
    for s in site:
        cutlass, cccl = s / "cutlass_library" / "source", s / "nvidia" / "cu13" / "include" / "cccl"
        if (cutlass / "include" / "cutlass" / "cutlass.h").exists() and (cccl / "cuda").exists():
            return [cutlass / "include", cutlass / "tools" / "util" / "include", cccl], None
    return None, "the nvidia-cutlass and nvidia-cuda-cccl wheels' headers are not in .venv/ (run scripts/setup)"


def measured_process(cmd, stdout=None):
    """(wall seconds, the largest resident memory of the process and the children it waited
    for, in bytes, exit code, stderr); its standard output to the file `stdout`, if given."""
    with tempfile.TemporaryFile() as err, open(stdout or os.devnull, "wb") as out:
        start = time.perf_counter()
        proc = subprocess.Popen([str(c) for c in cmd], stdout=out, stderr=err)
        _, status, usage = os.wait4(proc.pid, 0)
        seconds = time.perf_counter() - start
        proc.returncode = os.waitstatus_to_exitcode(status)
        err.seek(0)
        return seconds, usage.ru_maxrss * 1024, proc.returncode, err.read().decode(errors="replace")


def cutlass(configs, reps, nvcc, includes, work):
    rows = []
    progress = common.Progress(len(configs) * reps, "claims cutlass")
    for rep in range(reps):
        for name, m, n, k, cm, cn, schedule in configs:
            progress.step(f"nvcc: CUTLASS GEMM {name} (rep {rep + 1}/{reps})")
            defines = [f"-DTILE_M={m}", f"-DTILE_N={n}", f"-DTILE_K={k}", f"-DCLUSTER_M={cm}", f"-DCLUSTER_N={cn}",
                       f"-DSCHEDULE_{schedule.upper()}=1"]
            cmd = [nvcc, *NVCC_FLAGS, *defines, *[f"-I{i}" for i in includes], CLAIMS / "cutlass_gemm.cu",
                   "-o", work / "gemm.o"]
            seconds, peak, code, err = measured_process(cmd)
            row = {"config": name, "tile": [m, n, k], "cluster": [cm, cn], "schedule": schedule, "rep": rep,
                   "seconds": seconds, "peak_bytes": peak}
            if code != 0:
                row["error"] = err.strip()[-1500:] or f"exit {code}"
            elif (work / "gemm.o").stat().st_size < 10000:
                row["error"] = f"the object has {(work / 'gemm.o').stat().st_size} bytes: no kernel was compiled"
            rows.append(row)
    return rows


def projection():
    rows, err, _ = common.run_json_lines([common.venv_python(), str(CLAIMS / "cutlass_kernels.py")], check=False)
    return rows[0] if rows else {"error": err.strip()[-500:] or "cutlass_kernels.py printed nothing"}


def same_tile(tile, reps, missing, work):
    """The DSLs' compiles of a GEMM with CUTLASS's first tile, each a whole process. (A child's
    peak memory here is at least this Python's: the measure is nvcc's, whose gigabytes it is.)"""
    spec = f"matmul<{tile[0]},{tile[1]},{tile[2]}>"
    file = next(f for name, f, _ in common.corpus(["matmul"]))
    twintile = common.tool("twintile")
    rows = []
    targets = [("ptx", [])] + ([] if "ptxas" in missing else [("cubin", ["--resources"])])
    triton = "triton" not in missing
    progress = common.Progress(reps * (len(FRONTENDS) * len(targets) + triton), "claims same tile")
    for rep in range(reps):
        for frontend in FRONTENDS:
            for target, extra in targets:
                progress.step(f"twintile {frontend} {spec} to {target} (rep {rep + 1}/{reps})")
                cmd = [twintile, "compile", f"--frontend={frontend}", file, "--kernel", spec, "--emit", "ptx",
                       "-o", work / "matmul.ptx", "--no-cache", *extra]
                seconds, peak, code, err = measured_process(cmd)
                row = {"system": f"twintile_{frontend}", "spec": spec, "to": target, "rep": rep, "seconds": seconds,
                       "peak_bytes": peak}
                if code != 0 or (target == "cubin" and "registers" not in err):
                    row["error"] = err.strip()[-800:] or f"exit {code}"
                rows.append(row)
        if triton:
            progress.step(f"Triton {spec}, one process (rep {rep + 1}/{reps})")
            out = work / "triton.jsonl"
            out.unlink(missing_ok=True)
            seconds, peak, code, err = measured_process(
                [common.venv_python(), common.BASELINES / "triton_compile.py", spec], stdout=out)
            lines = [json.loads(l) for l in out.read_text().splitlines() if l.startswith("{")] if out.exists() else []
            compiled = next((r for r in lines if "stages" in r), None)
            row = {"system": "triton", "spec": spec, "to": "cubin", "rep": rep, "seconds": seconds,
                   "peak_bytes": peak}
            if code != 0 or compiled is None:
                row["error"] = err.strip()[-800:] or f"exit {code}"
            else:
                row.update(stages=compiled["stages"], compile_s=compiled["seconds"],
                           process=next((r["process"] for r in lines if "process" in r), None))
            rows.append(row)
    return {"spec": spec, "tile": list(tile), "rows": rows}


# (system, variant, source, entry or specialization). nvcc's: the handwritten kernel (the row in
# registers), then each loop of claims/softmax_runtime_block.cu with the block size a constant
# and a run-time argument, which differ in that alone.
VECTORIZE_BLOCK = 1024
RUNTIME_CU, RUNTIME_CPP = CLAIMS / "softmax_runtime_block.cu", CLAIMS / "softmax_runtime_block.cpp"
VECTORIZE = [("nvcc", "template parameter, row in registers", common.BASELINES / "softmax.cu",
              f"softmax_f32_{VECTORIZE_BLOCK}"),
             ("nvcc", "constant, contiguous loop", RUNTIME_CU, f"softmax_constant_contiguous_f32_{VECTORIZE_BLOCK}"),
             ("nvcc", "run-time argument, contiguous loop", RUNTIME_CU, "softmax_runtime_contiguous_f32"),
             ("nvcc", "constant, vector loop", RUNTIME_CU, f"softmax_constant_vector_f32_{VECTORIZE_BLOCK}"),
             ("nvcc", "run-time argument, vector loop", RUNTIME_CU, "softmax_runtime_vector_f32"),
             ("twintile_trace", "meta-parameter", None, f"softmax<f32,{VECTORIZE_BLOCK}>"),
             ("twintile_trace", "host variable", RUNTIME_CPP, "softmax_runtime_block<f32>"),
             ("twintile_parse", "host variable", RUNTIME_CPP, "softmax_runtime_block<f32>")]


def vectorize(missing, work):
    """One row per VECTORIZE entry: its PTX's static instruction count, global loads and stores by
    bytes moved ({"4": n, "16": m}) and shared-memory accesses, or why there is none (a tool
    missing, a refusal)."""
    from experiments.baselines import ptx_stats
    nvcc, twintile = common.cuda_tool("nvcc"), common.tool("twintile")
    softmax = next(f for name, f, _ in common.corpus(["softmax"]))
    rows = []
    for system, variant, source, entry in VECTORIZE:
        row = {"system": system, "variant": variant, "entry": entry}
        rows.append(row)
        ptx = work / f"vectorize-{len(rows)}.ptx"
        if system == "nvcc":
            if "nvcc" in missing:
                row["error"] = missing["nvcc"]
                continue
            cmd = [nvcc, "-ptx", "-arch=sm_90a", source, "-o", ptx]
        else:
            # Promised what Triton's JIT and twintile's launch API specialize on at launch (pointers
            # 16-byte aligned, integers divisible by 16); the CUDA kernels test alignment in the kernel.
            cmd = [twintile, "compile", f"--frontend={system.split('_')[1]}", source or softmax, "--kernel", entry,
                   "--emit", "ptx", "-o", ptx, "--no-cache", "--assume-aligned", "*", "--assume-divisible", "*"]
        proc = subprocess.run([str(c) for c in cmd], capture_output=True, text=True)
        if proc.returncode != 0:
            row["error"] = (proc.stderr + proc.stdout).strip()[-800:] or f"exit {proc.returncode}"
            continue
        functions = ptx_stats.parse_ptx(ptx.read_text())
        name = entry if system == "nvcc" else None  # twintile's file has the one entry
        f = next((f for f in functions if name is None or f["name"] == name), None)
        if f is None:
            row["error"] = f"no entry {entry} in the PTX"
            continue
        row.update(instructions=f["instructions"], global_access_bytes=f["global_access_bytes"],
                   shared_accesses=f["selected"]["ld.shared"] + f["selected"]["st.shared"])
    return {"block": VECTORIZE_BLOCK, "rows": rows}


INSTANTIATIONS = [f"softmax<{t},{b}>" for t in ("f16", "bf16", "f32") for b in (128, 256, 512, 1024)]
ONE = "softmax<f32,1024>"  # the one a call needs
ONE_CUDA = ["-DSOFTMAX_ONE_T=f32", "-DSOFTMAX_ONE_BLOCK=1024"]  # baselines/softmax.cu's instantiation of it alone
DISPATCH = CLAIMS / "dispatch"
# (system, the caller's file, when the variants are compiled): how each picks among them.
DISPATCHERS = [("nvcc", DISPATCH / "softmax_cuda.cu", "ahead of time"),
               ("triton", DISPATCH / "softmax_triton.py", "at a call's first need"),
               ("twintile", DISPATCH / "softmax_twintile.cpp", "at a call's first need")]
# A variant named in a dispatch: one of its element types and one of its block sizes side by side
# (`SOFTMAX_CASE(f16, 128)`, `softmax_f16_128`, `softmax<f16,128>`).
VARIANT_NAMED = re.compile(r"(?<![A-Za-z0-9])(%s)[^A-Za-z0-9]{1,3}(%s)(?![0-9])" % (
    "|".join(sorted({v[8:-1].split(",")[0] for v in INSTANTIATIONS}, key=len, reverse=True)),
    "|".join(sorted({v[8:-1].split(",")[1] for v in INSTANTIATIONS}, key=len, reverse=True))))


def dispatch_code(path):
    """The lines of code between a file's `dispatch: begin` and `dispatch: end` markers: neither
    blank nor only a comment (`#` starts one in Python only)."""
    comment = "#" if path.suffix == ".py" else "//"
    inside, lines = False, []
    for line in path.read_text().splitlines():
        text = line.strip()
        if text.endswith("dispatch: begin"):
            inside = True
        elif text.endswith("dispatch: end"):
            return lines
        elif inside:
            code = text.split(f" {comment} ")[0].strip()  # a trailing comment is not code either
            if code and not code.startswith(comment):
                lines.append(code)
    raise ValueError(f"{path}: no dispatch markers")


def instantiations(reps, missing, work):
    """The caller's dispatch per system, and each system's compile of all the variants against the
    one a call needs (median seconds of `reps` interleaved whole processes)."""
    nvcc, twintile, py = common.cuda_tool("nvcc"), common.tool("twintile"), common.venv_python()
    softmax_cpp = next(f for name, f, _ in common.corpus(["softmax"]))
    callers = []
    for system, path, compiled in DISPATCHERS:
        code = dispatch_code(path)
        named = {m.groups() for m in VARIANT_NAMED.finditer("\n".join(code))}
        row = {"system": system, "file": str(path.relative_to(common.ROOT)), "compiles": compiled,
               "lines": len(code), "variants_named": len(named)}
        if system == "nvcc":
            check = None if "nvcc" in missing else [nvcc, "-c", "-arch=sm_90a", path, "-o", work / "dispatch.o"]
            why = missing.get("nvcc")
        elif system == "triton":
            check = None if "triton" in missing else [py, "-c", "import experiments.claims.dispatch.softmax_triton"]
            why = missing.get("triton")
        else:
            check, why = None, None  # the build compiles it (experiments/claims/CMakeLists.txt)
        if check:
            proc = subprocess.run([str(c) for c in check], capture_output=True, text=True, cwd=common.ROOT)
            if proc.returncode != 0:
                row["error"] = (proc.stderr + proc.stdout).strip()[-800:]
        elif why:
            row["unchecked"] = why
        callers.append(row)

    runs = {}
    for name, specs in (("all", INSTANTIATIONS), ("one", [ONE])):
        if "nvcc" not in missing:
            extra = [] if name == "all" else ONE_CUDA
            runs[("nvcc", name)] = [nvcc, "-ptx", "-arch=sm_90a", *extra, common.BASELINES / "softmax.cu", "-o",
                                    work / f"softmax-{name}.ptx"]
        if "triton" not in missing:
            runs[("triton", name)] = [py, common.BASELINES / "triton_compile.py", *specs]
        # One thread, as nvcc and Triton compile (the driver's default is a thread per core).
        runs[("twintile_parse", name)] = [twintile, "compile", "--frontend=parse", "-j", "1", softmax_cpp,
                                          *[a for spec in specs for a in ("--kernel", spec)], "--emit", "ptx",
                                          "--no-cache", "-o", work / f"twintile-{name}"]
    samples = {f"{system}_{name}": [] for system, name in runs}
    errors = {}
    order = list(runs)
    progress = common.Progress(reps * len(order), "claims instantiations")
    rng = random.Random(1)
    for rep in range(reps):
        rng.shuffle(order)
        for key in order:
            progress.step(f"{key[0]}: {'all twelve' if key[1] == 'all' else 'the one'} (rep {rep + 1}/{reps})")
            seconds, _, code, err = measured_process(runs[key])
            if code != 0:
                errors[f"{key[0]}_{key[1]}"] = err.strip()[-800:] or f"exit {code}"
            else:
                samples[f"{key[0]}_{key[1]}"].append(seconds)
    return {"variants": INSTANTIATIONS, "one": ONE, "callers": callers, "samples": samples, "errors": errors}


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--reps", type=int)
    ap.add_argument("--out")
    shard.add_argument(ap)
    args = ap.parse_args(argv)
    configs = CONFIGS[:1] if args.quick else CONFIGS
    reps = args.reps or (1 if args.quick else 3)
    dsl_reps = max(reps, 2) if args.quick else max(reps, 5)
    plan = [c[0] for c in configs] + ["projection", "same_tile", "vectorize", "instantiations"]
    mine = shard.share(args.shard, plan)
    config = {"quick": args.quick, "reps": reps, "dsl_reps": dsl_reps, "configs": [c[0] for c in configs],
              "nvcc_flags": NVCC_FLAGS}
    if not mine:
        common.write_result("claims", {"config": config}, args.out, args.shard, plan)
        return 0
    nvcc = common.cuda_tool("nvcc")
    includes, why = cutlass_includes()
    missing = {}
    if not nvcc:
        missing["nvcc"] = "nvcc not found (run scripts/setup)"
    if why:
        missing["cutlass"] = why
    if (why := systems.missing("triton")):
        missing["triton"] = why
    if not common.cuda_tool("ptxas"):
        missing["ptxas"] = "ptxas not found (run scripts/setup): the DSLs' compiles stop at PTX"
    for k, why in missing.items():
        print(f"[claims] {k} is missing: {why}", flush=True)
    work = common.scratch("claims", args.shard)
    payload = {"config": config, "missing": missing}
    mine_configs = [c for c in configs if c[0] in mine]
    if mine_configs:
        payload["cutlass"] = [] if "nvcc" in missing or "cutlass" in missing else \
            shard.unit_major(cutlass(mine_configs, reps, nvcc, includes, work), plan, lambda r: r["config"])
    if "projection" in mine:
        payload["projection"] = projection()
        if "error" in payload["projection"]:
            missing["cutlass_library"] = f"CUTLASS's kernel generator did not count: {payload['projection']['error']}"
    if "same_tile" in mine:
        payload["same_tile"] = same_tile(configs[0][1:4], dsl_reps, missing, work)
    if "vectorize" in mine:
        payload["vectorize"] = vectorize(missing, work)
    if "instantiations" in mine:
        payload["instantiations"] = instantiations(dsl_reps, missing, work)
    common.write_result("claims", payload, args.out, args.shard, plan)
    return 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""The codegen suite: the PTX each producer makes of the same kernels, measured one way.

    python3 -m experiments.suites.codegen [--quick] [--kernels a,b] [--out FILE] [--shard I/N]

For every corpus specialization and target (sm_90a, sm_80): twintile's PTX from
each of its three front ends (parse, trace, hybrid), as compiled (`plain`) and under the caller's promises that
pointers are 16-byte aligned and integers divisible by 16 (`assumed`:
--assume-aligned '*' --assume-divisible '*'), and both again under --math=fast,
Triton's defaults (`fast_plain`, `fast`); Triton's PTX of the same kernel
(experiments/baselines/triton_kernels.py), without hints and with Triton's
divisibility-16 hints on the same parameters, which is what its JIT derives
from such arguments — each Triton kernel first checked against twintile's
interpreter on the same inputs (triton_check.py); CuTe DSL's PTX of vector_add
and softmax (cute_kernels.py, with and without 16-byte alignment assumed); nvcc's PTX of the handwritten CUDA baselines
(experiments/baselines/*.cu) where one exists. Every PTX is measured by
ptx_stats.py (instructions by class, selected opcodes, global access widths)
and one ptxas for all (registers, spills, stack, shared memory): Triton's
bundled ptxas when present (it accepts Triton's newer PTX ISA), else CUDA's;
with CUDA's nvdisasm, for the rows the memory-bound targets compare
(MACHINE_ROWS), the machine instructions ptxas made and the most registers
live at once in its allocation (ptx_stats.sass_stats).
And one launch of twintile's PTX per specialization (experiments/kernels/
launches.py, sizes divisible by 16 so that the same launch serves the code
compiled with and without the promises) in the PTX emulator, profiled: warp-level instructions executed by
class, global requests and 32-byte sectors, shared-memory wavefronts against the
conflict-free ideal (runtime/EmuProfile.cpp states the model), checked against
the interpreter on the same launch.
"""
import argparse
import functools
import hashlib
import json
import subprocess
import sys
from pathlib import Path

from experiments.harness import common, shard, systems, variants  # noqa: E402
from experiments.baselines import ptx_stats  # noqa: E402

TARGETS = ("sm_90a", "sm_80")


@functools.lru_cache(maxsize=None)
def nvdisasm():
    """CUDA's nvdisasm, which counts the machine instructions ptxas made; None if absent."""
    return common.cuda_tool("nvdisasm")


# The rows whose machine code is read too (nvdisasm takes about 0.3 s a
# cubin): the comparison of the memory-bound targets, twintile's fast math
# with hints against Triton with hints, on sm_90a.
MACHINE_ROWS = {("twintile_parse", "fast"), ("triton", "assumed")}


def measure(ptx_path, entry, arch, ptxas, machine=False):
    text = Path(ptx_path).read_text()
    funcs = {f["name"]: f for f in ptx_stats.parse_ptx(text)}
    if entry not in funcs:
        if len(funcs) == 1:
            entry = next(iter(funcs))
        else:
            return {"error": f"no entry '{entry}' in {ptx_path}"}
    f = funcs[entry]
    row = {"instructions": f["instructions"], "classes": f["classes"], "selected": f["selected"],
           "global_access_bytes": f["global_access_bytes"],
           "ptx_sha256": hashlib.sha256(text.encode()).hexdigest()[:16]}
    if ptxas:
        usage, err = ptx_stats.run_ptxas(ptxas, arch, ptx_path, nvdisasm() if machine else None)
        row["ptxas"] = usage.get(entry) if not err else None
        if err:
            row["ptxas_error"] = err[:500]
    return row


def twintile_rows(kernels, ptxas, out, progress):
    rows = []
    twintile = common.tool("twintile")
    for name, file, specs in kernels:
        for spec in specs:
            for arch in TARGETS:
                progress.step(f"{spec} {arch} twintile (parse, trace, hybrid; plain, assumed, fast, fast_plain)")
                for frontend in ("parse", "trace", "hybrid"):
                    for variant, extra in ((v.name, v.flags) for v in variants.VARIANTS.values()):
                        ptx = out / f"twintile-{frontend}-{variant}-{arch}-{common.spec_file_name(spec)}.ptx"
                        proc = subprocess.run([twintile, "compile", f"--frontend={frontend}", str(file), "--kernel", spec,
                                               "--emit", "ptx", "--target", arch, "-o", str(ptx), *extra],
                                              capture_output=True, text=True)
                        base = {"producer": f"twintile_{frontend}", "variant": variant, "arch": arch, "spec": spec}
                        if proc.returncode != 0:
                            rows.append({**base, "error": proc.stderr[-1000:]})
                            continue
                        rows.append({**base, **measure(ptx, name, arch, ptxas, machine=arch == "sm_90a" and
                                                       (base["producer"], variant) in MACHINE_ROWS)})
    return rows


def baseline_rows(producer, specs, ptxas, out, progress):
    """A Python baseline's PTX of `specs` for each target, plain and under its alignment hints.

    Its program (systems.py) compiles SPEC... with --arch, --ptx-dir and --assume and prints
    a JSON line per spec (with "kernel", the PTX entry's name, where it knows it)."""
    rows = []
    for arch in TARGETS:
        for variant in ("plain", "assumed"):
            progress.step(f"{producer} {arch} {variant}: {len(specs)} specializations")
            d = out / f"{producer}-{variant}-{arch}"
            results, err, _ = systems.run(producer, [*specs, "--arch", arch, "--ptx-dir", d] +
                                          (["--assume"] if variant == "assumed" else []), check=False)
            by_spec = {r["spec"]: r for r in results if "spec" in r}
            for spec in specs:
                base = {"producer": producer, "variant": variant, "arch": arch, "spec": spec}
                r = by_spec.get(spec)
                if r is None or "error" in r:
                    rows.append({**base, "error": (r or {}).get("error", err[-1000:])})
                    continue
                rows.append({**base, **measure(d / f"{common.spec_file_name(spec)}.ptx", r.get("kernel", ""),
                                               arch, ptxas, machine=arch == "sm_90a" and
                                               (producer, variant) in MACHINE_ROWS)})
    return rows


def dynamic_rows(kernels, progress):
    """The emulator's dynamic counts of one launch of twintile's PTX (parse front end, sm_90a)."""
    from experiments.kernels import launches
    twintile = common.tool("twintile")
    rows = []
    for _, file, specs in kernels:
        for spec in specs:
            progress.step(f"{spec}: one launch in the PTX emulator, profiled (plain, assumed)")
            # One launch for both variants (sizes divisible by 16, which the promises need), so
            # that their counts compare like with like.
            grid, sizes, scalars = launches.launch(spec, divisible=True)
            for variant in ("plain", "assumed"):
                cmd = [twintile, "run", "--frontend=parse", str(file), "--kernel", spec, "--profile",
                       "--grid", ",".join(map(str, grid))]
                for name, count in sizes.items():
                    cmd += ["--arg", f"{name}={count}"]
                for name, value in scalars.items():
                    cmd += ["--arg", f"{name}={value}"]
                if variant == "assumed":
                    cmd += ["--assume-aligned", "*", "--assume-divisible", "*"]
                proc = subprocess.run(cmd, capture_output=True, text=True)
                base = {"spec": spec, "variant": variant, "arch": "sm_90a", "grid": list(grid), "sizes": sizes,
                        "scalars": scalars}
                line = next((l for l in proc.stdout.splitlines() if l.startswith("profile: ")), None)
                if line is None:
                    rows.append({**base, "error": (proc.stdout + proc.stderr)[-1000:]})
                    continue
                profile = json.loads(line[len("profile: "):])
                rows.append({**base, "agrees_with_interpreter": proc.returncode == 0, "profile": profile,
                             "classes": ptx_stats.class_counts(profile["warp_instructions"])})
    return rows


def triton_checks(kernels, progress):
    """Each Triton kernel against twintile's interpreter on the same inputs (triton_check.py)."""
    specs = [s for _, _, ss in kernels for s in ss]
    progress.step(f"Triton's kernels against twintile's interpreter: {len(specs)} specializations")
    rows, err, _ = common.run_json_lines([common.venv_python(), str(common.BASELINES / "triton_check.py"), *specs,
                                          "--interp-probe", common.tool("interp_probe")], check=False)
    if len(rows) != len(specs):
        raise RuntimeError(f"triton_check.py answered for {len(rows)} of {len(specs)} specializations: {err[-2000:]}")
    return rows


def nvcc_rows(kernels, ptxas, out, progress):
    nvcc = common.cuda_tool("nvcc")
    wanted = {s for _, _, ss in kernels for s in ss}
    measured = {name for name, _, _ in kernels}
    nvcc_kernels = [k["name"] for k in common.corpus_entries() if "nvcc" in k["baselines"]]
    rows = []
    for arch in TARGETS:
        progress.step(f"nvcc {arch}: the CUDA baselines")
        for cu, ptx, _, err in ptx_stats.compile_baselines(nvcc, arch, out / f"nvcc-{arch}", []):
            if err and cu.stem not in measured:  # a file of a kernel another shard measures
                continue
            if err:
                rows.append({"producer": "nvcc", "variant": "plain", "arch": arch, "spec": cu.stem, "error": err[-1000:]})
                continue
            for f in ptx_stats.parse_ptx(ptx.read_text()):
                # entry name_A_B is spec name<A,B> (experiments/baselines/README.md)
                for kernel in nvcc_kernels:
                    if f["name"].startswith(kernel + "_"):
                        spec = f"{kernel}<{','.join(f['name'][len(kernel) + 1:].split('_'))}>"
                        if spec in wanted:
                            rows.append({"producer": "nvcc", "variant": "plain", "arch": arch, "spec": spec,
                                         **measure(ptx, f["name"], arch, ptxas)})
    return rows


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--kernels")
    ap.add_argument("--out")
    shard.add_argument(ap)
    args = ap.parse_args(argv)
    names = args.kernels.split(",") if args.kernels else (["vector_add", "softmax", "matmul"] if args.quick else None)
    kernels = common.corpus(names)
    if args.quick:  # one specialization per kernel
        kernels = [(n, f, specs[-1:]) for n, f, specs in kernels]
    plan = [k for k, _, _ in kernels]
    mine = shard.share(args.shard, plan)
    kernels = [k for k in kernels if k[0] in mine]
    ptxas, ptxas_why = common.pick_ptxas()
    version = None
    if ptxas:
        version = subprocess.run([ptxas, "--version"], capture_output=True, text=True).stdout.strip().splitlines()[-1]
    config = {"quick": args.quick, "kernels": plan, "targets": list(TARGETS), "ptxas": ptxas,
              "ptxas_version": version, "ptxas_why": ptxas_why, "nvdisasm": nvdisasm()}
    if not mine:
        common.write_result("codegen", {"config": config}, args.out, args.shard, plan)
        return 0
    missing = {}
    if (why := systems.missing("triton")):
        missing["triton"] = why
    if not common.cuda_tool("nvcc"):
        missing["nvcc"] = "nvcc not found (run scripts/setup)"
    if (why := systems.missing("cute")):
        missing["cute"] = why
    out = common.scratch("codegen", args.shard)
    n_specs = sum(len(s) for _, _, s in kernels)
    specs = [s for _, _, ss in kernels for s in ss]
    cute_specs = [] if "cute" in missing else systems.covered("cute", specs)
    progress = common.Progress(n_specs * (len(TARGETS) + 1) + (0 if "triton" in missing else 5) +
                               (4 if cute_specs else 0) + (0 if "nvcc" in missing else 2), "codegen")
    rows = twintile_rows(kernels, ptxas, out, progress)
    dynamic = dynamic_rows(kernels, progress)
    checks = []
    if "triton" not in missing:
        rows += baseline_rows("triton", specs, ptxas, out, progress)
        checks = triton_checks(kernels, progress)
    if cute_specs:
        rows += baseline_rows("cute", cute_specs, ptxas, out, progress)
    if "nvcc" not in missing:
        rows += nvcc_rows(kernels, ptxas, out, progress)
    rows, dynamic, checks = (shard.unit_major(x, plan, shard.kernel_of) for x in (rows, dynamic, checks))
    common.write_result("codegen", {"config": config, "missing": missing, "rows": rows, "dynamic": dynamic,
                                    "triton_checks": checks}, args.out, args.shard, plan)
    return 0


if __name__ == "__main__":
    sys.exit(main())

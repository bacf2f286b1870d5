#!/usr/bin/env python3
"""The tensor-core suite: matmul and attention at Triton's Hopper and Ampere configurations.

    python3 -m experiments.suites.tensorcores [--quick] [--out FILE] [--shard I/N]

The corpus's matmul and flash_attention (f16 into f32) at the tile sizes, warps
and pipelining depths Triton runs them with, compiled by twintile (the parsing
front end; the tracing one makes the same PTX) and by Triton (experiments/
baselines/triton_kernels.py, the same kernels) for sm_90a, and at Triton's usual
Ampere configurations for sm_80; and the matmul through tensor descriptors
(experiments/kernels/matmul_desc.cpp, not a corpus kernel), which both load by
TMA on sm_90a; each with and without the promises Triton's
JIT derives from 16-byte-aligned pointers and integers divisible by 16
(`assumed`, `plain`). Per PTX: its instructions (ptx_stats.py), the tensor-core
and copy instructions in it (wgmma.mma_async, mma.sync, ldmatrix, cp.async,
cp.async.bulk.tensor), and from one ptxas for all (Triton's bundled ptxas when
present, else CUDA's) registers, spills, stack and static shared memory, and,
with nvdisasm, the machine instructions of the tensor cores: HGMMA (Hopper's
warpgroup MMA) or HMMA (mma.sync). twintile's shared memory past 48 KiB is
dynamic (ptxas counts static only): its manifest's total is recorded too.
Nothing here runs a kernel; scripts/gpu-bench times them on a GPU.
"""
import argparse
import json
import subprocess
import sys

from experiments.harness import common, shard, systems
from experiments.baselines import ptx_stats

# (spec, num_warps, num_stages, target): Triton's configurations. Matmul on Hopper
# at 128x128x64 (4 and 8 warps) and 128x256x64 (8 warps), 3 and 4 stages;
# attention with head dims 64 and 128; on Ampere Triton's usual 128x128x32 and
# 64x64x64 matmul and 64-row attention.
CONFIGS = [
    ("matmul<128,128,64>", 4, 3, "sm_90a"), ("matmul<128,128,64>", 4, 4, "sm_90a"),
    ("matmul<128,128,64>", 8, 3, "sm_90a"), ("matmul<128,128,64>", 8, 4, "sm_90a"),
    ("matmul<128,256,64>", 8, 3, "sm_90a"), ("matmul<128,256,64>", 8, 4, "sm_90a"),
    ("flash_attention<64,64,64>", 4, 3, "sm_90a"), ("flash_attention<128,64,64>", 8, 3, "sm_90a"),
    ("flash_attention<64,64,128>", 4, 3, "sm_90a"), ("flash_attention<128,64,128>", 8, 3, "sm_90a"),
    ("matmul<128,128,32>", 4, 3, "sm_80"), ("matmul<64,64,64>", 4, 3, "sm_80"),
    ("flash_attention<64,64,64>", 4, 3, "sm_80"),
    ("matmul_desc<128,128,64>", 4, 3, "sm_90a"), ("matmul_desc<128,128,64>", 8, 4, "sm_90a"),
    ("matmul_desc<128,256,64>", 8, 3, "sm_90a"),
]
QUICK = [CONFIGS[0], CONFIGS[10]]
# The kernel files beside the corpus's.
EXTRA_FILES = {"matmul_desc": common.KERNELS / "matmul_desc.cpp"}
VARIANTS = {"plain": [], "assumed": ["--assume-aligned", "*", "--assume-divisible", "*"]}
# The PTX opcodes the table reports (ptx_stats.SELECTED keys).
# cp.async.bulk.tensor counts TMA's loads and stores; its bulk_group form, the stores.
PTX_KEYS = ("wgmma.mma_async", "mma.sync", "ldmatrix", "stmatrix", "cp.async", "cp.async.bulk.tensor",
            "cp.async.bulk.tensor.bulk_group", "fence.proxy.async")


def config_name(spec, warps, stages, arch):
    return f"{common.spec_file_name(spec)}-w{warps}-s{stages}-{arch}"


def measure(ptx_path, entry, arch, ptxas, nvdisasm):
    text = ptx_path.read_text()
    funcs = {f["name"]: f for f in ptx_stats.parse_ptx(text)}
    if entry not in funcs and len(funcs) == 1:
        entry = next(iter(funcs))
    if entry not in funcs:
        return {"error": f"no entry '{entry}' in {ptx_path}"}
    f = funcs[entry]
    row = {"instructions": f["instructions"], "ptx_ops": {k: f["selected"][k] for k in PTX_KEYS}}
    if ptxas:
        usage, err = ptx_stats.run_ptxas(ptxas, arch, ptx_path, nvdisasm)
        if err:
            row["ptxas_error"] = err[:500]
        else:
            row["ptxas"] = usage.get(entry)
    return row


def twintile_row(twintile, file, spec, warps, stages, arch, variant, ptxas, nvdisasm, out):
    name = spec.split("<")[0]
    ptx = out / f"twintile-{variant}-{config_name(spec, warps, stages, arch)}.ptx"
    proc = subprocess.run([twintile, "compile", "--frontend=parse", str(file), "--kernel", spec, "--target", arch,
                           "--num-warps", str(warps), "--num-stages", str(stages), "--emit", "ptx", "-o", str(ptx),
                           *VARIANTS[variant]], capture_output=True, text=True)
    if proc.returncode != 0:
        return {"error": proc.stderr[-1000:]}
    row = measure(ptx, name, arch, ptxas, nvdisasm)
    manifest = json.loads(ptx.with_suffix(".json").read_text())
    row["shared_bytes"] = manifest.get("shared_bytes")
    row["notes"] = [l for l in proc.stderr.splitlines() if "note:" in l]
    return row


def triton_row(spec, warps, stages, arch, variant, ptxas, nvdisasm, out):
    d = out / f"triton-{variant}-{config_name(spec, warps, stages, arch)}"
    results, err, _ = systems.run("triton", [spec, "--arch", arch, "--ptx-dir", d, "--num-warps", str(warps),
                                             "--num-stages", str(stages)] + (["--assume"] if variant == "assumed" else []),
                                  check=False)
    r = next((r for r in results if r.get("spec") == spec), None)
    if r is None or "error" in r:
        return {"error": (r or {}).get("error", err[-1000:])}
    return measure(d / f"{common.spec_file_name(spec)}.ptx", r.get("kernel", ""), arch, ptxas, nvdisasm)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--out")
    shard.add_argument(ap)
    args = ap.parse_args(argv)
    configs = QUICK if args.quick else CONFIGS
    plan = [config_name(*c) for c in configs]  # the units a shard takes a block of
    mine = shard.share(args.shard, plan)
    configs = [c for c in configs if config_name(*c) in mine]
    files = {name: file for name, file, _ in common.corpus(["matmul", "flash_attention"])} | EXTRA_FILES
    ptxas, ptxas_why = common.pick_ptxas()
    nvdisasm = common.cuda_tool("nvdisasm")
    missing = {}
    if (why := systems.missing("triton")):
        missing["triton"] = why
    if not nvdisasm:
        missing["nvdisasm"] = "nvdisasm not found (run scripts/setup): no machine instructions counted"
    version = None
    if ptxas:
        version = subprocess.run([ptxas, "--version"], capture_output=True, text=True).stdout.strip().splitlines()[-1]
    config = {"quick": args.quick, "ptxas": ptxas, "ptxas_version": version, "ptxas_why": ptxas_why,
              "nvdisasm": nvdisasm}
    if not mine:
        common.write_result("tensorcores", {"config": config}, args.out, args.shard, plan)
        return 0
    twintile = common.tool("twintile")
    out = common.scratch("tensorcores", args.shard)
    progress = common.Progress(len(configs) * len(VARIANTS), "tensorcores")
    rows = []
    for spec, warps, stages, arch in configs:
        for variant in VARIANTS:
            progress.step(f"{spec} {warps} warps {stages} stages {arch} {variant}")
            base = {"spec": spec, "warps": warps, "stages": stages, "arch": arch, "variant": variant}
            rows.append({**base, "producer": "twintile",
                         **twintile_row(twintile, files[spec.split("<")[0]], spec, warps, stages, arch, variant, ptxas,
                                        nvdisasm, out)})
            if "triton" not in missing:
                rows.append({**base, "producer": "triton",
                             **triton_row(spec, warps, stages, arch, variant, ptxas, nvdisasm, out)})
    common.write_result("tensorcores", {"config": config, "missing": missing, "rows": rows}, args.out, args.shard, plan)
    return 0


if __name__ == "__main__":
    sys.exit(main())

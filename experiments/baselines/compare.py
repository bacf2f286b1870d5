#!/usr/bin/env python3
"""twintile's PTX beside the handwritten CUDA baselines, kernel by kernel.

For every baseline entry point (spec `name<A,B>` is entry `name_A_B`), compiles
the corpus kernel with the twintile driver (tracing front end, sm_90a) twice:
as is, and with every pointer asserted 16-byte aligned and every integer
divisible by 16 (--assume-aligned '*' --assume-divisible '*'), and nvcc's PTX of
the baseline; measures all three with ptx_stats (instructions, global access
widths, shuffles, barriers, ptxas registers, spills, stack) and writes one JSON
(raw results, for tables) and a readable table.

  python3 experiments/baselines/compare.py [--twintile build/tools/twintile]
        [--out out/compare] [--json experiments/results/ptx_quality.json]
"""
import argparse
import json
import subprocess
import sys
from pathlib import Path

import ptx_stats

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent


def spec_of(entry):
    """softmax_f16_128 -> softmax<f16,128>; vector_add_1024 -> vector_add<1024>."""
    for kernel in ("vector_add", "softmax", "layernorm"):
        if entry.startswith(kernel + "_"):
            return kernel, f"{kernel}<{','.join(entry[len(kernel) + 1:].split('_'))}>"
    return None, None


def measure(ptxas, arch, ptx_path, entry):
    funcs = {f["name"]: f for f in ptx_stats.parse_ptx(ptx_path.read_text())}
    usage, err = ptx_stats.run_ptxas(ptxas, arch, ptx_path) if ptxas else ({}, "ptxas not found")
    f = funcs[entry]
    u = usage.get(entry, {})
    return {
        "instructions": f["instructions"],
        "global_access_bytes": f["global_access_bytes"],
        "shfl": f["selected"].get("shfl.sync", 0),
        "bar": f["selected"].get("bar.sync", 0),
        "registers": u.get("registers"),
        "spill_bytes": (u.get("spill_store_bytes") or 0) + (u.get("spill_load_bytes") or 0) if u else None,
        "stack_bytes": u.get("stack_frame_bytes"),
        "ptxas_error": err,
    }


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--twintile", default=str(ROOT / "build/tools/twintile"))
    ap.add_argument("--out", default=str(ROOT / "out/compare"))
    ap.add_argument("--json", help="write the raw results here")
    ap.add_argument("--arch", default="sm_90a")
    args = ap.parse_args(argv)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    nvcc = ptx_stats.find_tool("nvcc", None, "TWINTILE_NVCC")
    ptxas = ptx_stats.find_tool("ptxas", None, "TWINTILE_PTXAS")
    if not nvcc:
        sys.exit("compare.py: nvcc not found (run scripts/setup)")
    rows = []
    for cu, ptx, _, err in ptx_stats.compile_baselines(nvcc, args.arch, out / "nvcc", []):
        if err:
            sys.exit(f"compare.py: nvcc failed on {cu}:\n{err}")
        for f in ptx_stats.parse_ptx(ptx.read_text()):
            kernel, spec = spec_of(f["name"])
            if not kernel:
                continue
            row = {"spec": spec, "nvcc": measure(ptxas, args.arch, ptx, f["name"])}
            for variant, extra in (("twintile", []), ("twintile_assumed", ["--assume-aligned", "*", "--assume-divisible", "*"])):
                path = out / variant / (f["name"] + ".ptx")
                path.parent.mkdir(parents=True, exist_ok=True)
                cmd = [args.twintile, "compile", "--frontend=trace", str(ROOT / "experiments/kernels" / (kernel + ".cpp")),
                       "--kernel", spec, "--emit", "ptx", "--target", args.arch, "-o", str(path), *extra]
                proc = subprocess.run(cmd, capture_output=True, text=True)
                if proc.returncode != 0:
                    sys.exit(f"compare.py: twintile failed on {spec}:\n{proc.stderr}")
                row[variant] = measure(ptxas, args.arch, path, kernel)
            rows.append(row)
    if args.json:
        Path(args.json).parent.mkdir(parents=True, exist_ok=True)
        Path(args.json).write_text(json.dumps({"arch": args.arch, "kernels": rows}, indent=2) + "\n")
    cols = ("nvcc", "twintile", "twintile_assumed")
    print(f"{'spec':22} " + " ".join(f"{c + ' instr/regs/v4':>26}" for c in cols))
    for r in rows:
        cells = []
        for c in cols:
            m = r[c]
            v4 = sum(n for b, n in m["global_access_bytes"]["ld"].items() if b == "16") + \
                 sum(n for b, n in m["global_access_bytes"]["st"].items() if b == "16")
            cells.append(f"{m['instructions']:>10} / {str(m['registers']):>4} / {v4:>3}")
        print(f"{r['spec']:22} " + " ".join(f"{c:>26}" for c in cells))
    print("instr: PTX instructions; regs: ptxas registers; v4: 16-byte global loads + stores in the PTX")


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Compile the corpus into a bundle that a GPU machine without LLVM can run.

    experiments/gpu/bundle.py --twintile BUILD/tools/twintile --out DIR [--dry]

For each kernel of the GPU bench (the largest specialization of each corpus
kernel and element type, and the descriptor matmul, which loads by TMA), in
each math mode (--math=precise and fast), the bundle holds:

  kNN/kernel.ptx, kNN/kernel.json   the PTX and its launch manifest (parse
                                    front end, sm_90a, compiled with the
                                    promises: aligned pointers, integers
                                    divisible by 16, as Triton's JIT would
                                    specialize at these sizes; the
                                    math mode as bundle.json says)
  kNN/check/NAME.in.npy             a small launch's inputs, and
  kNN/check/NAME.out.npy            the IR interpreter's outputs for them
                                    (written by `twintile run --device interp
                                    --save`): the references the GPU must match

and bundle.json lists them with the small launch and the bench launch (grid,
sizes, scalars, flops) from experiments/kernels/launches.py. include/ holds
the nlohmann/json headers the runner needs, in case the GPU machine lacks
them. With --dry the bench launch is the small one (for the emulator).

Besides them, the tuning space (TUNE): for matmul and attention, the
configurations (meta-parameters, warps, stages) that both twintile and
Triton are timed over before the tuned comparison, each a kernel of the
bundle in --math=fast marked with its group and configuration; one that
twintile refuses is listed under "untuned" with why (Triton is still
timed at it); an internal error stops the bundle.
"""
import argparse
import datetime
import json
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "experiments" / "kernels"))
import launches  # noqa: E402

# The largest specialization of each corpus kernel and element type, and the
# matmul through tensor descriptors at Triton's Hopper tile (TMA on sm_90a;
# experiments/kernels/matmul_desc.cpp, not a corpus kernel).
SPECS = ["vector_add<1024>", "softmax<f16,1024>", "softmax<bf16,1024>", "softmax<f32,1024>", "layernorm<f16,1024>",
         "layernorm<f32,1024>", "rmsnorm<bf16,1024>", "rmsnorm<f32,1024>", "matmul<64,64,32>",
         "flash_attention<64,64,64>", "row_argmax<1024>", "row_cumsum<f32,1024>", "gelu<f32,1024>",
         "swiglu<bf16,1024>", "matmul_desc<128,128,64>"]
# Kernel files beside the corpus's.
EXTRA_FILES = {"matmul_desc": ROOT / "experiments" / "kernels" / "matmul_desc.cpp"}
QUICK = ["vector_add<1024>", "softmax<f16,1024>", "matmul<64,64,32>", "matmul_desc<128,128,64>"]
# Each is compiled twice: IEEE division, square root and exp/log to within
# libdevice's error (precise), and with the approximations that Triton's
# own `/` and tl.exp lower to (fast: div.full.f32, ex2.approx.f32),
# which is the like-for-like comparison with Triton's default.
MATH = ["precise", "fast"]
# The configurations both systems are tuned over (spec, num_warps, num_stages): tiles and
# warps as Triton's Hopper matmul and attention tutorials' autotuning lists offer them.
TUNE = {
    "matmul": [("matmul<64,64,32>", 4, 3), ("matmul<128,64,32>", 4, 4), ("matmul<64,128,32>", 4, 4),
               ("matmul<128,128,32>", 4, 3), ("matmul<128,128,64>", 8, 3), ("matmul<128,256,64>", 8, 3)],
    "flash_attention": [("flash_attention<64,64,64>", 4, 2), ("flash_attention<64,32,64>", 4, 3),
                        ("flash_attention<128,64,64>", 8, 2), ("flash_attention<128,128,64>", 8, 2)],
}
TUNE_QUICK = {"matmul": [("matmul<32,32,32>", 2, 2), ("matmul<64,64,32>", 4, 3)]}


def corpus_file(spec):
    name, _ = launches.parse_spec(spec)
    if name in EXTRA_FILES:
        return EXTRA_FILES[name]
    corpus = json.loads((ROOT / "experiments" / "kernels" / "corpus.json").read_text())
    for k in corpus["kernels"]:
        if k["name"] == name:
            return ROOT / "experiments" / "kernels" / k["file"]
    raise KeyError(f"{name} is not in the corpus")


def flops(spec, grid, scalars):
    name, args = launches.parse_spec(spec)
    if name in ("matmul", "matmul_desc"):
        return 2 * scalars["M"] * scalars["N"] * scalars["K"]
    if name == "flash_attention":
        return 4 * grid[1] * scalars["seq_len"] ** 2 * int(args[2])
    return 0


def run(cmd):
    proc = subprocess.run([str(c) for c in cmd], capture_output=True, text=True)
    if proc.returncode != 0:
        raise SystemExit(f"bundle.py: {' '.join(map(str, cmd))} failed:\n{proc.stdout}{proc.stderr}")
    return proc.stdout


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--twintile", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--dry", action="store_true", help="bench launches as small as the check launches")
    ap.add_argument("--quick", action="store_true", help=f"only {', '.join(QUICK)}")
    args = ap.parse_args(argv)
    out = Path(args.out)
    if out.exists():
        # Only an earlier bundle (or nothing) is replaced: --out names a folder of its own.
        if not out.is_dir() or (any(out.iterdir()) and not (out / "bundle.json").exists()):
            raise SystemExit(f"bundle.py: {out} exists and is not a bundle; give a new folder")
        shutil.rmtree(out)
    out.mkdir(parents=True)
    json_headers = Path("/usr/include/nlohmann")
    if not (json_headers / "json.hpp").exists():
        raise SystemExit("bundle.py: nlohmann/json's headers are not in /usr/include/nlohmann (scripts/setup installs "
                         "them): the runner needs them on the GPU machine")
    promises = ["--assume-aligned", "*", "--assume-divisible", "*"]
    kernels, untuned = [], []
    variants = [(spec, math, None) for spec in (QUICK if args.quick else SPECS) for math in MATH]
    variants += [(spec, "fast", {"group": group, "num_warps": w, "num_stages": st,
                                 "config": f"{spec} num_warps={w} num_stages={st}"})
                 for group, configs in (TUNE_QUICK if args.quick else TUNE).items() for spec, w, st in configs]
    for i, (spec, math, tune) in enumerate(variants):
        d = out / f"k{i:02d}"
        (d / "check").mkdir(parents=True)
        file = corpus_file(spec)
        options = [*promises, f"--math={math}"]
        if tune:
            options += ["--num-warps", str(tune["num_warps"]), "--num-stages", str(tune["num_stages"])]
            proc = subprocess.run([str(c) for c in (args.twintile, "compile", "--frontend=parse", file, "--kernel",
                                                    spec, "--emit", "ptx", "-o", d / "kernel.ptx", *options)],
                                  capture_output=True, text=True)
            if proc.returncode not in (0, 1):  # an internal error or a crash is twintile's bug: not a trial
                raise SystemExit(f"bundle.py: twintile failed on {tune['config']} (exit {proc.returncode}):\n"
                                 f"{proc.stderr}")
            if proc.returncode != 0:  # a configuration twintile refuses: said; Triton is still timed at it
                errors = [l for l in proc.stderr.splitlines() if "error:" in l] or proc.stderr.splitlines() or ["?"]
                bgrid, bsizes, bscalars, _ = launches.bench(spec)
                untuned.append({"id": f"k{i:02d}", "spec": spec, "tune": tune, "error": errors[0].strip()[:300],
                                "bench": {"grid": list(bgrid), "sizes": bsizes, "scalars": bscalars,
                                          "flops": flops(spec, bgrid, bscalars)}})
                print(f"[bundle] tuning {tune['config']}: not compiled: {untuned[-1]['error']}", flush=True)
                shutil.rmtree(d)
                continue
        else:
            run([args.twintile, "compile", "--frontend=parse", file, "--kernel", spec, "--emit", "ptx", "-o",
                 d / "kernel.ptx", *options])
        grid, sizes, scalars = launches.launch(spec, divisible=True)
        cmd = [args.twintile, "run", "--frontend=parse", file, "--kernel", spec, "--device", "interp", "--grid",
               ",".join(map(str, grid)), "--save", d / "check", "--seed", "1", *options]
        for name, value in {**sizes, **scalars}.items():
            cmd += ["--arg", f"{name}={value}"]
        run(cmd)
        check = {"grid": list(grid), "args": {}}
        for name in sizes:
            check["args"][name] = {"input": f"k{i:02d}/check/{name}.in.npy", "reference": f"k{i:02d}/check/{name}.out.npy"}
        for name, value in scalars.items():
            check["args"][name] = {"value": value}
        if args.dry:
            bgrid, bsizes, bscalars = grid, sizes, scalars
        else:
            bgrid, bsizes, bscalars, _ = launches.bench(spec)
        ptx = (d / "kernel.ptx").read_text()
        tensor_cores = "wgmma" if "wgmma.mma_async" in ptx else "mma.sync" if "mma.sync" in ptx else None
        kernels.append({"id": f"k{i:02d}", "spec": spec, "math": math, "ptx": f"k{i:02d}/kernel.ptx",
                        "manifest": f"k{i:02d}/kernel.json", "tensor_cores": tensor_cores, "check": check,
                        "bench": {"grid": list(bgrid), "sizes": bsizes, "scalars": bscalars,
                                  "flops": flops(spec, bgrid, bscalars)},
                        **({"tune": tune} if tune else {})})
        print(f"[bundle] {tune['config'] if tune else spec} --math={math}: PTX, manifest, {len(sizes)} checked buffers",
              flush=True)
    commit = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"], capture_output=True, text=True)
    manifest = {"format": "twintile-gpu-bundle-1", "created": datetime.datetime.now(datetime.timezone.utc).isoformat(),
                "commit": commit.stdout.strip() or None, "dry": args.dry, "kernels": kernels, "untuned": untuned}
    (out / "bundle.json").write_text(json.dumps(manifest, indent=1) + "\n")
    shutil.copytree(json_headers, out / "include" / "nlohmann")
    print(f"[bundle] {len(kernels)} kernels in {out}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())

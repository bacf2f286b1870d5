#!/usr/bin/env python3
"""twintile run --save on the emulator and the interpreter, judged by NumPy.

Two kernels no corpus holds (kernels/unseen.cpp) run on each device with one
buffer given as a .npy file (--input) and the rest random; every buffer comes
back as NAME.in.npy and NAME.out.npy, and an independent NumPy computation of
the kernel from the .in files must match the .out files.

Usage: check_run_save.py TWINTILE OUT_DIR
Exits 77 (ctest's SKIP) when NumPy is not installed.
"""
import os
import subprocess
import sys

try:
    import numpy as np
except ImportError:
    print("SKIP: NumPy is not installed (scripts/setup installs it into .venv)")
    sys.exit(77)

HERE = os.path.dirname(os.path.abspath(__file__))
KERNELS = os.path.join(HERE, "kernels", "unseen.cpp")


def run(twintile, out, device, spec, grid, args, inputs):
    cmd = [twintile, "run", KERNELS, "--kernel", spec, "--device", device, "--grid", grid, "--save", out, "--seed", "7"]
    for name, value in args.items():
        cmd += ["--arg", f"{name}={value}"]
    for name, path in inputs.items():
        cmd += ["--input", f"{name}={path}"]
    proc = subprocess.run(cmd, capture_output=True, text=True)
    assert proc.returncode == 0, f"{' '.join(cmd)}\n{proc.stdout}{proc.stderr}"
    load = lambda name, when: np.load(os.path.join(out, f"{name}.{when}.npy"))
    return proc.stdout, load


def relu_affine(twintile, out, device):
    rows, cols = 6, 200
    x = (np.random.default_rng(3).standard_normal(rows * cols) * 2).astype(np.float16)
    np.save(os.path.join(out, "x-given.npy"), x)
    _, load = run(twintile, out, device, "relu_affine<256>", "6",
                  {"bias": cols, "y": rows * cols, "scale": 1.5, "n_cols": cols}, {"x": os.path.join(out, "x-given.npy")})
    assert load("x", "in").dtype == np.float16 and np.array_equal(load("x", "in"), x), "--input x was not used as given"
    bias = load("bias", "in")
    want = (np.maximum(x.astype(np.float32).reshape(rows, cols), 0) * np.float32(1.5) + bias).astype(np.float16)
    got = load("y", "out").reshape(rows, cols)
    assert got.dtype == np.float16
    # Both round one f32 result to f16: at most one unit in the last place apart.
    close = np.abs(got.astype(np.float32) - want.astype(np.float32)) <= np.abs(want.astype(np.float32)) * 2 ** -10 + 1e-7
    assert close.all(), f"relu_affine on {device}: {np.count_nonzero(~close)} of {close.size} elements differ from NumPy"
    assert np.array_equal(load("x", "out"), x) and np.array_equal(load("bias", "out"), bias), "inputs changed"


def histogram(twintile, out, device):
    values = np.random.default_rng(5).integers(-5, 25, 1000).astype(np.int32)
    np.save(os.path.join(out, "values-given.npy"), values)
    _, load = run(twintile, out, device, "histogram<128,16>", "8", {"counts": 16, "n": 1000},
                  {"values": os.path.join(out, "values-given.npy")})
    want = load("counts", "in") + np.bincount(np.clip(values, 0, 15), minlength=16).astype(np.int32)
    got = load("counts", "out")
    assert got.dtype == np.int32 and np.array_equal(got, want), f"histogram on {device}: {got} vs NumPy's {want}"


def main():
    twintile, out = sys.argv[1:3]
    for device in ("emu", "interp"):
        for check in (relu_affine, histogram):
            d = os.path.join(out, device, check.__name__)
            os.makedirs(d, exist_ok=True)
            check(twintile, d, device)
            print(f"ok: {check.__name__} on {device}: the saved outputs match NumPy's")
    return 0


if __name__ == "__main__":
    sys.exit(main())

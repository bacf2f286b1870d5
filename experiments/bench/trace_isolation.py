#!/usr/bin/env python3
"""What running the kernel's host code in a child process costs the tracer.

    python3 experiments/bench/trace_isolation.py [--reps N]

Times `twintile compile --frontend=trace --emit tile` of 1 and of 12 softmax
specializations (host object cached), isolated (the default) and in process
(TWINTILE_TRACE_IN_PROCESS=1), as whole processes, interleaved; prints the
medians and the difference per command and per trace. Uses build/ unless
$TWINTILE_BUILD_DIR says otherwise.
"""
import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--reps", type=int, default=15)
    args = ap.parse_args()
    twintile = Path(os.environ.get("TWINTILE_BUILD_DIR", ROOT / "build")) / "tools" / "twintile"
    kernel = ROOT / "experiments" / "kernels" / "softmax.cpp"
    specs = [f"softmax<{t},{b}>" for t in ("f16", "bf16", "f32") for b in (128, 256, 512, 1024)]

    def command(n):
        return [str(twintile), "compile", "--frontend=trace", str(kernel), "--emit", "tile",
                *[a for s in specs[:n] for a in ("--kernel", s)]]

    cases = [(n, mode) for n in (1, 12) for mode in ("isolated", "in process")]
    samples = {c: [] for c in cases}
    for n in (1, 12):  # warm the host-object cache
        subprocess.run(command(n), stdout=subprocess.DEVNULL, check=True)
    for _ in range(args.reps):
        for n, mode in cases:
            env = dict(os.environ, **({"TWINTILE_TRACE_IN_PROCESS": "1"} if mode == "in process" else {}))
            start = time.perf_counter()
            subprocess.run(command(n), env=env, stdout=subprocess.DEVNULL, check=True)
            samples[(n, mode)].append(time.perf_counter() - start)
    for (n, mode), xs in samples.items():
        print(f"{n:2d} specializations, {mode:10s}: median {statistics.median(xs) * 1e3:6.1f} ms of {len(xs)}")
    for n in (1, 12):
        d = statistics.median(samples[(n, "isolated")]) - statistics.median(samples[(n, "in process")])
        print(f"isolation, {n} specializations: {d * 1e3:.1f} ms per command, {d * 1e3 / n:.2f} ms per trace")
    return 0


if __name__ == "__main__":
    sys.exit(main())

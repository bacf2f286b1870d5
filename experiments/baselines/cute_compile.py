#!/usr/bin/env python3
"""Compile CuTe DSL kernels (cute_kernels.py) to PTX without a GPU, in one process, timed.

cute.compile always assembles a cubin too (its JIT executes binaries), so
the times include that step, as Triton's include its ptxas.

    cute_compile.py SPEC... [--arch sm_90a|sm_80] [--assume] [--ptx-dir DIR] [--reps N] [--warmup]

Each SPEC ('softmax<f16,1024>') is compiled by cute.compile with fake tensors
(no data, no device) and `--gpu-arch ARCH --keep-ptx`; CuTe's own JIT cache is
bypassed (no_cache) so every sample compiles. --warmup compiles the first
spec once, untimed. Prints one JSON object per compile per line: {"rep",
"spec", "seconds", "ptx_bytes"}, then {"process": {"import_s", "cutlass"}}.
"""
import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # the repository, for the harness's one name rule
from experiments.harness.common import spec_file_name  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("specs", nargs="+")
    ap.add_argument("--arch", default="sm_90a", choices=["sm_90a", "sm_80"])
    ap.add_argument("--assume", action="store_true", help="tensors assumed 16-byte aligned")
    ap.add_argument("--ptx-dir")
    ap.add_argument("--reps", type=int, default=1)
    ap.add_argument("--warmup", action="store_true")
    args = ap.parse_args(argv)

    start = time.perf_counter()
    import cutlass
    import cutlass.cute as cute
    import cute_kernels
    import_s = time.perf_counter() - start

    def compile_one(spec, dump):
        fn, fargs = cute_kernels.specialize(spec, assume=args.assume)
        t = time.perf_counter()
        cute.compile(fn, *fargs, options=f"--gpu-arch {args.arch} --keep-ptx --dump-dir {dump}", no_cache=True)
        seconds = time.perf_counter() - t
        ptx = sorted(Path(dump).glob("*.ptx"))
        return seconds, ptx[0].read_text() if ptx else ""

    failed = False
    if args.warmup:
        with tempfile.TemporaryDirectory() as dump:
            try:
                compile_one(args.specs[0], dump)
            except Exception:
                pass  # reported below, with the spec
    for rep in range(args.reps):
        for spec in args.specs:
            with tempfile.TemporaryDirectory() as dump:
                try:
                    seconds, ptx = compile_one(spec, dump)
                except Exception as e:
                    failed = True
                    print(json.dumps({"rep": rep, "spec": spec, "error": f"{type(e).__name__}: {e}"[:2000]}),
                          flush=True)
                    continue
            if args.ptx_dir and rep == 0:
                Path(args.ptx_dir).mkdir(parents=True, exist_ok=True)
                (Path(args.ptx_dir) / (spec_file_name(spec) + ".ptx")).write_text(ptx)
            print(json.dumps({"rep": rep, "spec": spec, "seconds": seconds, "ptx_bytes": len(ptx)}), flush=True)
    print(json.dumps({"process": {"import_s": import_s, "cutlass": getattr(cutlass, "__version__", None)}}),
          flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

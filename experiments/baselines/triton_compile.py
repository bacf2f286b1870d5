#!/usr/bin/env python3
"""Compile Triton kernels ahead of time to PTX, in one process, each stage timed.

    triton_compile.py SPEC... [--module FILE.py] [--arch sm_90a|sm_80] [--assume]
                      [--ptx-dir DIR] [--reps N] [--num-warps W] [--num-stages S]

Each SPEC ('softmax<f16,1024>') names a kernel of the module (default:
triton_kernels.py beside this file, the corpus in Triton) and its
meta-parameters. Triton compiles for the target without a GPU (its
ahead-of-time path: ASTSource + triton.compile with a GPUTarget). Every
repetition uses a fresh, empty Triton cache; --warmup compiles the first spec
once before them, so that Triton's one-time start-up is not in the first sample. Stages are timed apart: `ast`
(Triton's front end: Python AST to TTIR), `ttir`, `ttgir`, `llir`, `ptx` (the
passes of each stage) and `cubin` (Triton's bundled ptxas). Prints one JSON
object per line: {"rep", "spec", "seconds", "stages": {...}, "ptx_bytes"},
then one {"process": {"import_s", "first_compile_s"}}.
"""
import argparse
import importlib.util
import json
import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # the repository, for the harness's one name rule
from experiments.harness.common import spec_file_name  # noqa: E402

HERE = Path(__file__).resolve().parent


def load_module(path):
    spec = importlib.util.spec_from_file_location(Path(path).stem, path)
    module = importlib.util.module_from_spec(spec)
    sys.path.insert(0, str(Path(path).parent))
    spec.loader.exec_module(module)
    return module


def time_stages(knobs):
    """Has Triton time each stage of every compile (ttir, ttgir, llir, ptx, cubin): returns the
    dict each compile's stage times land in, by stage name."""
    times = {}

    def hook(backend=None, stages=None, options=None, language=None, capability=None):
        if backend is None:  # Triton asks the hook for a cache key first
            return "twintile-timed-stages", "twintile-timed-stages"
        for name, fn in list(stages.items()):
            def timed(src, metadata, fn=fn, name=name):
                t = time.perf_counter()
                result = fn(src, metadata)
                times[name] = time.perf_counter() - t
                return result
            stages[name] = timed

    knobs.runtime.add_stages_inspection_hook = hook
    return times


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("specs", nargs="+")
    ap.add_argument("--module", default=str(HERE / "triton_kernels.py"))
    ap.add_argument("--arch", default="sm_90a", choices=["sm_90a", "sm_80"])
    ap.add_argument("--assume", action="store_true", help="divisibility-16 hints on every pointer and i32")
    ap.add_argument("--ptx-dir", help="write each spec's PTX here")
    ap.add_argument("--reps", type=int, default=1)
    ap.add_argument("--warmup", action="store_true", help="compile the first spec once, untimed, before the samples")
    ap.add_argument("--num-warps", type=int, default=4)
    ap.add_argument("--num-stages", type=int, help="Triton's software-pipelining depth (default: Triton's own, 3)")
    args = ap.parse_args(argv)

    os.environ.setdefault("TRITON_DEFAULT_FP_FUSION", "1")  # Triton 3.9's default, without its warning
    start = time.perf_counter()
    import triton
    from triton import knobs
    from triton.backends.compiler import GPUTarget
    import_s = time.perf_counter() - start
    kernels = load_module(args.module)
    capability = 90 if args.arch == "sm_90a" else 80
    target = GPUTarget("cuda", capability, 32)
    options = {"num_warps": args.num_warps}
    if args.num_stages is not None:
        options["num_stages"] = args.num_stages

    times = time_stages(knobs)
    failed = False
    first = None
    if args.warmup:  # Triton's one-time start-up (MLIR contexts, its Python modules), kept out of the samples
        with tempfile.TemporaryDirectory() as cache:
            knobs.cache.dir = cache
            try:
                fn, signature, constexprs, attrs = kernels.specialize(args.specs[0], assume=args.assume)
                t = time.perf_counter()
                triton.compile(triton.compiler.ASTSource(fn, signature, constexprs=constexprs, attrs=attrs),
                               target=target, options=options)
                first = time.perf_counter() - t
            except Exception:
                pass  # reported below, with the spec
    for rep in range(args.reps):
        with tempfile.TemporaryDirectory() as cache:
            knobs.cache.dir = cache
            for spec in args.specs:
                times.clear()
                try:
                    fn, signature, constexprs, attrs = kernels.specialize(spec, assume=args.assume)
                    src = triton.compiler.ASTSource(fn, signature, constexprs=constexprs, attrs=attrs)
                    make_ir = src.make_ir

                    def timed_make_ir(*a, **kw):
                        t = time.perf_counter()
                        result = make_ir(*a, **kw)
                        times["ast"] = time.perf_counter() - t
                        return result

                    src.make_ir = timed_make_ir
                    t = time.perf_counter()
                    compiled = triton.compile(src, target=target, options=options)
                    seconds = time.perf_counter() - t
                except Exception as e:  # a kernel Triton refuses: reported, the others go on
                    failed = True
                    print(json.dumps({"rep": rep, "spec": spec, "error": f"{type(e).__name__}: {e}"}), flush=True)
                    continue
                if first is None:
                    first = seconds
                ptx = compiled.asm["ptx"]
                if args.ptx_dir and rep == 0:
                    Path(args.ptx_dir).mkdir(parents=True, exist_ok=True)
                    (Path(args.ptx_dir) / (spec_file_name(spec) + ".ptx")).write_text(ptx)
                print(json.dumps({"rep": rep, "spec": spec, "seconds": seconds, "stages": dict(times),
                                  "ptx_bytes": len(ptx), "kernel": compiled.metadata.name}), flush=True)
    print(json.dumps({"process": {"import_s": import_s, "first_compile_s": first,
                                  "triton": triton.__version__}}), flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

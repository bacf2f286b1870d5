#!/usr/bin/env python3
"""Compile the upstream kernels of the real-world corpus with Triton, to PTX, timed.

    experiments/realworld/compile_upstream.py [NAME...] [--manifest FILE] [--reps N]
                                              [--arch sm_90a|sm_80] [--ptx-dir DIR]

For each kernel of the manifest (all, or the NAMEs): the upstream @triton.jit
function (upstream.py: loaded from the installed library) compiled ahead of
time for the target (no GPU needed), with the meta-parameters and num_warps
of the manifest's launch and the hints Triton's JIT would infer from that
launch: every pointer 16-byte aligned (a framework allocation is), every
integer argument whose value is a multiple of 16 marked divisible by 16, and
every one equal to 1 made the constant 1.
One warm-up compile of each kernel, untimed, then N rounds over every kernel,
each round in a fresh cache (Triton's one-time start-up stays out). Prints
one JSON object per kernel and round: {"name", "rep", "seconds", "to_ptx_s"}
(the whole compile, and without its ptxas stage), or "error", then one
{"name", "ptx"} per kernel with --ptx-dir (the PTX written there as
NAME.ptx), then {"process": {"triton"}}.
"""
import argparse
import inspect
import json
import os
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent / "baselines"))

import corpus  # noqa: E402
from triton_compile import time_stages  # noqa: E402
import upstream  # noqa: E402

TRITON_TYPES = {"f16": "fp16", "bf16": "bf16", "f32": "fp32", "f64": "fp64", "i1": "i1", "i8": "i8", "i16": "i16",
                "i32": "i32", "i64": "i64", "u8": "u8", "u16": "u16", "u32": "u32", "u64": "u64"}


def hinted(entry):
    """The integer arguments Triton's JIT would mark divisible by 16 at the manifest's launch."""
    return [a["name"] for a in entry["args"]
            if a.get("scalar", "").startswith("i") and int(a["value"]) % 16 == 0]


def ones(entry):
    """The integer arguments equal to 1, which Triton's JIT turns into the constant 1."""
    return [a["name"] for a in entry["args"] if a.get("scalar", "").startswith("i") and int(a["value"]) == 1]


def source(entry):
    """Triton's ASTSource for the upstream kernel at the manifest's launch."""
    import triton
    import triton.language as tl
    fn = upstream.kernel(entry["library"], entry["module"], entry["function"])
    divisible = set(hinted(entry))
    signature, attrs, constexprs = {}, {}, {}
    names = list(fn.arg_names)
    given = {a["name"]: a for a in entry["args"]}
    for i, name in enumerate(names):
        if name in ones(entry):  # the JIT specializes an integer argument equal to 1
            signature[name] = "constexpr"
            constexprs[name] = 1
        elif name in given:
            a = given[name]
            signature[name] = ("*" + TRITON_TYPES[a["buffer"]]) if "buffer" in a else TRITON_TYPES[a["scalar"]]
            if "buffer" in a or name in divisible:
                attrs[(i,)] = [["tt.divisibility", 16]]
        else:  # a meta-parameter: the manifest's value, or the kernel's default
            signature[name] = "constexpr"
            if name in entry.get("constexprs", {}):
                value = entry["constexprs"][name]
            elif name == "num_warps":  # a kernel that takes the launch option as a parameter too
                value = entry.get("num_warps", 4)
            elif fn.params[i].default is not inspect.Parameter.empty:
                value = fn.params[i].default
            else:
                raise LookupError(f"{entry['name']}: no value for the meta-parameter '{name}'")
            if isinstance(value, str) and value.startswith("tl."):
                value = getattr(tl, value[3:])
            constexprs[name] = value
    return triton.compiler.ASTSource(fn, signature, constexprs=constexprs, attrs=attrs)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("names", nargs="*")
    ap.add_argument("--manifest", default=str(corpus.MANIFEST))
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--arch", default="sm_90a", choices=["sm_90a", "sm_80"])
    ap.add_argument("--ptx-dir")
    args = ap.parse_args(argv)
    if os.environ.get("TRITON_INTERPRET"):
        sys.exit("compile_upstream.py: TRITON_INTERPRET is set: Triton would interpret, not compile")
    os.environ.setdefault("TRITON_DEFAULT_FP_FUSION", "1")
    import triton
    from triton import knobs
    from triton.backends.compiler import GPUTarget
    target = GPUTarget("cuda", 90 if args.arch == "sm_90a" else 80, 32)
    stages = time_stages(knobs)
    entries = [e for e in corpus.load_checked(args.manifest) if not args.names or e["name"] in args.names]

    def compile_one(entry):
        src = source(entry)
        stages.clear()
        t = time.perf_counter()
        compiled = triton.compile(src, target=target, options={"num_warps": entry.get("num_warps", 4)})
        seconds = time.perf_counter() - t
        return seconds, seconds - stages.get("cubin", 0.0), compiled.asm["ptx"]

    failed, ptx = {}, {}
    with tempfile.TemporaryDirectory() as cache:  # the warm-up: Triton's start-up, and the PTX
        knobs.cache.dir = cache
        for e in entries:
            try:
                ptx[e["name"]] = compile_one(e)[2]
            except Exception as ex:  # noqa: BLE001 - a kernel Triton cannot compile is reported, not fatal
                failed[e["name"]] = f"{type(ex).__name__}: {ex}"[:500]
    for rep in range(args.reps):
        with tempfile.TemporaryDirectory() as cache:
            knobs.cache.dir = cache
            for e in entries:
                if e["name"] in failed:
                    print(json.dumps({"name": e["name"], "rep": rep, "error": failed[e["name"]]}), flush=True)
                    continue
                seconds, to_ptx, _ = compile_one(e)
                print(json.dumps({"name": e["name"], "rep": rep, "seconds": seconds, "to_ptx_s": to_ptx}), flush=True)
    if args.ptx_dir:
        Path(args.ptx_dir).mkdir(parents=True, exist_ok=True)
        for name, text in ptx.items():
            (Path(args.ptx_dir) / f"{name}.ptx").write_text(text)
            print(json.dumps({"name": name, "ptx": str(Path(args.ptx_dir) / f"{name}.ptx")}), flush=True)
    print(json.dumps({"process": {"triton": triton.__version__}}), flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""The GPU bench's baselines: the same kernels in Triton, and PyTorch's own ops.

    experiments/gpu/baselines.py BUNDLE [--device cuda|cpu] [--warmup N] [--repeat N] [--only SPEC]

For each kernel of the bundle, at its bench launch's sizes: the corpus's
Triton version (experiments/baselines/triton_kernels.py, same grid, same
meta-parameters, num_warps 4) and the PyTorch op a user would call instead
(cuBLAS for matmul, scaled_dot_product_attention for attention), each timed
like twintile's runner: `warmup` launches, then the median of `repeat` timed
with CUDA events (timed() says how). Prints one JSON object per kernel. Then
the tuning space's configurations (bundle.py's TUNE, those twintile refused
too), Triton's kernel at each one's meta-parameters, warps and stages: one
object each, with its "id".

--device cpu runs the same code on the CPU with Triton's interpreter
(TRITON_INTERPRET=1, set before Triton is imported) and wall-clock times, on
a bundle made with --dry: a test of this script, not a measurement.
"""
import argparse
import json
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def parse_args(argv):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("bundle")
    ap.add_argument("--device", choices=("cuda", "cpu"), default="cuda")
    ap.add_argument("--warmup", type=int, default=5)
    ap.add_argument("--repeat", type=int, default=20)
    ap.add_argument("--only")
    return ap.parse_args(argv)


ARGS = parse_args(sys.argv[1:]) if __name__ == "__main__" else None
if ARGS is not None and ARGS.device == "cpu":
    os.environ["TRITON_INTERPRET"] = "1"

import torch  # noqa: E402
import torch.nn.functional as F  # noqa: E402

sys.path.insert(0, str(ROOT / "experiments" / "baselines"))
sys.path.insert(0, str(ROOT / "experiments" / "kernels"))
import launches  # noqa: E402
import triton_kernels as K  # noqa: E402

DTYPES = {"fp16": torch.float16, "bf16": torch.bfloat16, "fp32": torch.float32, "i32": torch.int32}


def tensors(spec, bench, device, gen):
    """The Triton kernel's arguments at the bench sizes, in its parameter order."""
    name, _ = K.parse_spec(spec)
    _, params, _ = K.KERNELS[name]
    _, signature, _, _ = K.specialize(spec)
    values = {}
    for p, _ in params:
        t = signature[p]
        if t.startswith("*"):
            dtype = DTYPES[t[1:]]
            n = bench["sizes"][p]
            if dtype.is_floating_point:
                values[p] = (torch.rand(n, generator=gen, device="cpu") * 2 - 1).to(dtype).to(device)
            else:
                values[p] = torch.randint(-50, 51, (n, ), generator=gen, dtype=dtype).to(device)
        else:
            values[p] = bench["scalars"][p]
    return values


def torch_op(spec, v, bench):
    """What a PyTorch user calls for the kernel, as a function of no arguments."""
    name, args = K.parse_spec(spec)
    s = bench["scalars"]
    if name == "vector_add":
        return lambda: torch.add(v["x"], v["y"], out=v["out"])
    if name == "gelu":
        return lambda: F.gelu(v["x"], approximate="tanh")
    if name == "swiglu":
        return lambda: F.silu(v["a"]) * v["b"]
    if name in ("softmax", "layernorm", "rmsnorm", "row_argmax", "row_cumsum"):
        cols = s["n_cols"]
        x = v["x"].view(-1, s["stride"])[:, :cols]  # the bench's rows are whole (n_cols == stride)
        if name == "softmax":
            return lambda: torch.softmax(x, -1)
        if name == "row_argmax":
            return lambda: torch.max(x, 1)
        if name == "row_cumsum":
            return lambda: torch.cumsum(x, 1)
        w = v["w"][:cols].to(x.dtype)  # PyTorch's norms take weights of the input's type
        if name == "layernorm":
            b = v["b"][:cols].to(x.dtype)
            return lambda: F.layer_norm(x, (cols, ), w, b, s["eps"])
        return lambda: F.rms_norm(x, (cols, ), w, s["eps"])
    if name in ("matmul", "matmul_desc"):
        a = v["a"].view(s["M"], s["K"])
        b = v["b"].view(s["K"], s["N"])
        return lambda: torch.matmul(a, b)
    if name == "flash_attention":
        d = int(args[2])
        heads = bench["grid"][1]
        q, k_, vv = (v[p].view(1, heads, s["seq_len"], d) for p in ("q", "k", "v"))
        return lambda: F.scaled_dot_product_attention(q, k_, vv, scale=s["scale"])
    raise KeyError(name)


def timed(fn, device, warmup, repeat):
    """Seconds of each of `repeat` calls after `warmup`. On a GPU, CUDA events
    around each call, every call preceded by a 256 MB memset that clears the
    L2 (as triton.testing.do_bench does) and keeps the GPU busy while Python
    enqueues the call, so that the host's launch overhead is not timed; one
    synchronization at the end."""
    for _ in range(warmup):
        fn()
    if device != "cuda":
        out = []
        for _ in range(repeat):
            t0 = time.perf_counter()
            fn()
            out.append(time.perf_counter() - t0)
        return out
    flush = torch.empty(256 << 20, dtype=torch.int8, device="cuda")
    starts = [torch.cuda.Event(enable_timing=True) for _ in range(repeat)]
    ends = [torch.cuda.Event(enable_timing=True) for _ in range(repeat)]
    for start, end in zip(starts, ends):
        flush.zero_()
        start.record()
        fn()
        end.record()
    torch.cuda.synchronize()
    return [start.elapsed_time(end) / 1e3 for start, end in zip(starts, ends)]


def median(xs):
    xs = sorted(xs)
    return (xs[len(xs) // 2] + xs[(len(xs) - 1) // 2]) / 2 if xs else None


def main(args):
    bundle = json.loads((Path(args.bundle) / "bundle.json").read_text())
    gen = torch.Generator().manual_seed(2026)
    if args.device == "cuda":
        print(f"baselines: {torch.cuda.get_device_name()}, torch {torch.__version__}, triton "
              f"{__import__('triton').__version__}", file=sys.stderr, flush=True)
        # Triton's device-side tensor descriptors (matmul_desc) live in scratch its launcher asks for.
        import triton
        triton.set_allocator(lambda size, align, stream: torch.empty(size, dtype=torch.int8, device="cuda"))
    seen = set()  # a kernel's math modes share one baseline
    for k in bundle["kernels"]:
        spec = k["spec"]
        if (args.only and spec != args.only) or spec in seen or "tune" in k:
            continue
        seen.add(spec)
        bench = k["bench"]
        row = {"spec": spec}
        try:
            fn, _, constexprs, _ = K.specialize(spec)
            name, _ = K.parse_spec(spec)
            v = tensors(spec, bench, args.device, gen)
            grid = tuple(bench["grid"])
            params = [p for p, _ in K.KERNELS[name][1]]
            call = lambda: fn[grid](*[v[p] for p in params], **constexprs, num_warps=4)  # noqa: E731
            row["triton_seconds"] = timed(call, args.device, args.warmup, args.repeat)
            row["triton_s"] = median(row["triton_seconds"])
        except Exception as e:  # a baseline that fails is reported, not fatal
            row["triton_error"] = f"{type(e).__name__}: {e}"[:500]
        try:
            v = tensors(spec, bench, args.device, gen)
            row["torch_seconds"] = timed(torch_op(spec, v, bench), args.device, args.warmup, args.repeat)
            row["torch_s"] = median(row["torch_seconds"])
        except Exception as e:
            row["torch_error"] = f"{type(e).__name__}: {e}"[:500]
        print(f"baselines: {spec}: Triton {row.get('triton_s', row.get('triton_error'))}, "
              f"PyTorch {row.get('torch_s', row.get('torch_error'))}", file=sys.stderr, flush=True)
        print(json.dumps(row), flush=True)
    # The tuning space, twintile's refusals too: Triton's best is over every configuration.
    for k in [k for k in bundle["kernels"] if "tune" in k] + bundle.get("untuned", []):
        if not args.only or k["spec"] == args.only:
            print(json.dumps(tuned(k, args, gen)), flush=True)
    return 0


def tuned(k, args, gen):
    """Triton's kernel at one configuration of the tuning space, timed as above."""
    spec, tune, bench = k["spec"], k["tune"], k["bench"]
    row = {"id": k["id"], "spec": spec, "tune": tune["group"]}
    try:
        fn, _, constexprs, _ = K.specialize(spec)
        name, _ = K.parse_spec(spec)
        v = tensors(spec, bench, args.device, gen)
        grid = tuple(bench["grid"])
        params = [p for p, _ in K.KERNELS[name][1]]
        call = lambda: fn[grid](*[v[p] for p in params], **constexprs, num_warps=tune["num_warps"],  # noqa: E731
                                num_stages=tune["num_stages"])
        row["triton_seconds"] = timed(call, args.device, args.warmup, args.repeat)
        row["triton_s"] = median(row["triton_seconds"])
    except Exception as e:  # a configuration Triton cannot compile or run is a failed trial
        row["triton_error"] = f"{type(e).__name__}: {e}"[:500]
    print(f"baselines: tuning {tune['config']}: Triton {row.get('triton_s', row.get('triton_error'))}",
          file=sys.stderr, flush=True)
    return row


if __name__ == "__main__":
    sys.exit(main(ARGS))

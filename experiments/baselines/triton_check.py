#!/usr/bin/env python3
"""Check the Triton kernels against twintile's interpreter, on the same inputs.

    triton_check.py SPEC... --interp-probe PATH [--work DIR]

For each corpus SPEC: random inputs (a fixed seed per spec) and the launch of
experiments/kernels/launches.py, which exercises the masks; the Triton kernel
(triton_kernels.py) runs in Triton's interpreter mode on the CPU
(TRITON_INTERPRET=1), twintile's IR in its reference interpreter
(interp_probe) on copies of the same buffers, and every output buffer is
compared (f32 within 1e-4 relative, f16 and bf16 within their rounding,
integers exactly). Prints one JSON object per spec: {"spec", "check": "ok" |
what differed | "unchecked: why", "elements"}. Triton's interpreter reads tensors through a
small NumPy-backed stand-in for a torch tensor (host_tensor.py), so
PyTorch is not needed. Triton's interpreter runs no libdevice function, so
libdevice.tanh (gelu's) is given the identity 2 sigmoid(2x) - 1 for the check.
"""
import argparse
import json
import os
import sys
import tempfile
from pathlib import Path

os.environ["TRITON_INTERPRET"] = "1"  # before Triton is imported
HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(ROOT / "experiments" / "kernels"))

import numpy as np  # noqa: E402
import triton.language as tl  # noqa: E402
from triton.runtime.jit import TensorWrapper  # noqa: E402

from host_tensor import HostTensor, bf16_to_f32, to_bf16_bits  # noqa: E402

import launches  # noqa: E402
import oracle  # noqa: E402
import triton_kernels as K  # noqa: E402

# Storage of each element type: NumPy has no bf16, so it travels as its 16 bits.
NP = {"fp16": np.float16, "bf16": np.uint16, "fp32": np.float32, "i32": np.int32}
TL = {"fp16": tl.float16, "bf16": tl.bfloat16, "fp32": tl.float32, "i32": tl.int32}


def inputs(spec, rng):
    """(grid, {param: array or scalar}): the corpus launch (experiments/kernels/launches.py), random buffers."""
    name, args = K.parse_spec(spec)
    _, params, metas = K.KERNELS[name]
    elem = K.TYPES.get(dict(zip(metas, args)).get("T", "f32"))
    grid, sizes, scalars = launches.launch(spec)
    values = {}
    for p, ptype in params:
        if not ptype.startswith("*"):
            values[p] = scalars[p]
            continue
        t = ptype[1:].replace("T", elem)
        if t == "i32":
            values[p] = rng.integers(-50, 50, sizes[p]).astype(np.int32)
        else:
            v = rng.uniform(-2, 2, sizes[p]).astype(np.float32)
            values[p] = to_bf16_bits(v) if t == "bf16" else v.astype(NP[t])
    return grid, values


def compare(ours, theirs, t):
    """None if they agree, else what differs."""
    if t == "i32":
        bad = np.nonzero(ours != theirs)[0]
        tol = None
    else:
        a = bf16_to_f32(ours) if t == "bf16" else ours.astype(np.float32)
        b = bf16_to_f32(theirs) if t == "bf16" else theirs.astype(np.float32)
        tol = {"fp16": 4e-3, "bf16": 3e-2, "fp32": 1e-4}[t]
        close = np.isclose(a, b, rtol=tol, atol=1e-5) | (np.isnan(a) & np.isnan(b))
        bad = np.nonzero(~close)[0]
    if len(bad) == 0:
        return None
    i = int(bad[0])
    return f"{len(bad)} of {len(ours)} elements differ (first at {i}: twintile {ours[i]}, Triton {theirs[i]})"


def _interpreted_tanh(x):
    """tanh for Triton's interpreter, which runs no libdevice function: 2 sigmoid(2x) - 1, exactly tanh."""
    return 2.0 * tl.sigmoid(2.0 * x) - 1.0


# In this process kernels only run in the interpreter; the compiled gelu keeps libdevice's tanh.
K.libdevice.tanh = _interpreted_tanh


def check(spec, probe, work):
    name, _ = K.parse_spec(spec)
    fn, params, _ = K.KERNELS[name]
    _, signature, constexprs, _ = K.specialize(spec)
    rng = np.random.default_rng(sum(map(ord, spec)))
    grid, values = inputs(spec, rng)
    # twintile's interpreter on copies of the inputs (written out before Triton runs).
    outs, why = oracle.interpret(probe, spec, grid, {p: values[p] for p, _ in params}, work)
    if why:
        return why, 0
    # Triton's interpreter on the originals.
    args = []
    for p, _ in params:
        v = values[p]
        t = signature[p]
        args.append(TensorWrapper(HostTensor(v), TL[t[1:]]) if isinstance(v, np.ndarray) else v)
    fn[grid[:2] if grid[2] == 1 else grid](*args, **constexprs, num_warps=4)
    elements = 0
    for p, _ in params:
        v = values[p]
        if not isinstance(v, np.ndarray):
            continue
        ours = outs[p]
        elements += len(ours)
        why = compare(ours, v, signature[p][1:])
        if why:
            return f"{p}: {why}", elements
    return "ok", elements


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("specs", nargs="+")
    ap.add_argument("--interp-probe", required=True)
    args = ap.parse_args(argv)
    failed = False
    for spec in args.specs:
        with tempfile.TemporaryDirectory() as work:
            try:
                result, elements = check(spec, args.interp_probe, Path(work))
            except Exception as e:  # a kernel Triton's interpreter cannot run is a finding, not a crash
                result, elements = f"{type(e).__name__}: {e}"[:500], 0
        failed |= result != "ok" and not result.startswith("unchecked")
        print(json.dumps({"spec": spec, "check": result, "elements": elements}), flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

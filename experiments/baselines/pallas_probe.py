#!/usr/bin/env python3
"""JAX Pallas kernels: checked in interpret mode, traced, and lowered to Triton IR, timed.

    pallas_probe.py SPEC... [--reps N] [--no-check] [--interp-probe PATH]

For each corpus SPEC that pallas_kernels.py has ('softmax<f16,1024>'):
  check  the kernel in Pallas's interpret mode (on the CPU) against twintile's
         interpreter running the corpus kernel on the same inputs
         (interp_probe, --interp-probe), or against NumPy without it;
  trace  jax.make_jaxpr of the pallas_call: Pallas runs the kernel body on
         abstract values and records a jaxpr (the tracing front end's work);
  lower  the jaxpr lowered for CUDA through Pallas's Triton backend to Triton
         IR, as jax.export does for a GPU platform (no GPU or jaxlib-cuda
         needed; the Triton custom call's compatibility check is disabled,
         since nothing is serialized for later use).
JAX's caches are cleared before every sample, so each one is cold; with more
than one repetition, one untimed lowering first keeps JAX's start-up out.
lower_s includes tracing again (the caches are cleared between the two).
Prints one JSON object per line: {"rep", "spec", "trace_s", "lower_s",
"ttir_bytes"} and, once per spec, {"spec", "check": "ok" | error text}.
"""
import argparse
import json
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))


def tolerance(dtype_name):
    return {"float16": 2e-2, "bfloat16": 8e-2}.get(dtype_name, 1e-4)


def against_interpreter(spec, fn, inputs, probe):
    """None if the Pallas kernel's output equals the corpus kernel's in twintile's interpreter, else why."""
    import tempfile
    import numpy as np
    import oracle
    import pallas_kernels
    theirs = np.asarray(fn(*inputs))
    grid, args, output = pallas_kernels.corpus_launch(spec, [np.asarray(x) for x in inputs])
    with tempfile.TemporaryDirectory() as work:
        outs, why = oracle.interpret(probe, spec, grid, args, work)
    if why:
        return why
    ours = outs[output].reshape(theirs.shape)
    a, b = ours.astype(np.float32), theirs.astype(np.float32)
    tol = tolerance(str(theirs.dtype))
    finite = np.abs(a[np.isfinite(a)])
    scale = float(finite.max()) if finite.size else 0.0
    close = np.abs(a - b) <= 1e-5 + tol * np.maximum(np.abs(a), scale / 32)  # False wherever a NaN is
    same_special = (np.isnan(a) & np.isnan(b)) | (np.isinf(a) & (a == b))
    bad = ~(close | same_special)
    if not bad.any():
        return None
    i = int(np.argmax(bad.reshape(-1)))
    return f"{int(bad.sum())} of {bad.size} elements differ (first at {i}: twintile {a.reshape(-1)[i]}, Pallas {b.reshape(-1)[i]})"


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("specs", nargs="+")
    ap.add_argument("--reps", type=int, default=1)
    ap.add_argument("--no-check", action="store_true")
    ap.add_argument("--interp-probe", help="twintile's interp_probe: check against its interpreter, not NumPy")
    args = ap.parse_args(argv)
    os.environ.setdefault("JAX_PLATFORMS", "cpu")
    start = time.perf_counter()
    import jax
    import numpy as np
    from jax import export
    import pallas_kernels
    import_s = time.perf_counter() - start

    failed = False
    for spec in args.specs:
        if not args.no_check:
            try:
                fn, inputs, ref = pallas_kernels.build(spec, interpret=True)
                if args.interp_probe:
                    why = against_interpreter(spec, fn, inputs, args.interp_probe)
                    check = "ok" if why is None else why
                else:
                    out = np.asarray(fn(*inputs), np.float32)
                    tol = tolerance(str(np.asarray(inputs[0]).dtype))
                    err = float(np.max(np.abs(out - ref) / (1 + np.abs(ref))))
                    check = "ok" if err <= tol else f"max relative error {err:.3g} over {tol}"
            except Exception as e:
                check = f"{type(e).__name__}: {e}"
            failed |= check != "ok"
            print(json.dumps({"spec": spec, "check": check,
                              "against": "twintile interpreter" if args.interp_probe else "NumPy"}), flush=True)
    if args.reps > 1:  # JAX's one-time start-up, kept out of the samples
        try:
            fn, inputs, _ = pallas_kernels.build(args.specs[0], interpret=False)
            shapes = [jax.ShapeDtypeStruct(np.shape(x), np.asarray(x).dtype) for x in inputs]
            export.export(jax.jit(fn), platforms=["cuda"],
                          disabled_checks=[export.DisabledSafetyCheck.custom_call("__gpu$xla.gpu.triton")])(*shapes)
        except Exception:
            pass  # reported below, with the spec
    for rep in range(args.reps):
        for spec in args.specs:
            jax.clear_caches()
            try:
                fn, inputs, _ = pallas_kernels.build(spec, interpret=False)
                shapes = [jax.ShapeDtypeStruct(np.shape(x), np.asarray(x).dtype) for x in inputs]
                t = time.perf_counter()
                jax.make_jaxpr(fn)(*shapes)
                trace_s = time.perf_counter() - t
                jax.clear_caches()
                t = time.perf_counter()
                exported = export.export(
                    jax.jit(fn), platforms=["cuda"],
                    disabled_checks=[export.DisabledSafetyCheck.custom_call("__gpu$xla.gpu.triton")])(*shapes)
                lower_s = time.perf_counter() - t
                text = exported.mlir_module()
                row = {"rep": rep, "spec": spec, "trace_s": trace_s, "lower_s": lower_s,
                       "lowered_to_triton": "xla.gpu.triton" in text}
            except Exception as e:
                failed = True
                row = {"rep": rep, "spec": spec, "error": f"{type(e).__name__}: {e}"[:2000]}
            print(json.dumps(row), flush=True)
    print(json.dumps({"process": {"import_s": import_s, "jax": jax.__version__}}), flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

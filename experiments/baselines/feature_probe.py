#!/usr/bin/env python3
"""What Triton or Pallas makes of the feature cases (triton_features.py, pallas_features.py).

    feature_probe.py triton|pallas

Triton: each case compiled to PTX ahead of time (sm_90a). Pallas: each case
traced (jax.make_jaxpr) and lowered to Triton IR for CUDA. Prints one JSON
object per case per line: {"feature", "system", "outcome": "accepted" |
"refused", "stage" (where it was refused), "message" (the error's own words,
without the source excerpt Triton prints above them), "line" (the line the
error names in the file, where it names one)}.
"""
import inspect
import json
import os
import re
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))


def short_message(e):
    """The error's message without the excerpt Triton puts above it."""
    text = str(e).strip()
    lines = [l for l in text.splitlines() if l.strip()]
    if "^" in text:  # Triton: "at L:C:", the source, a caret line, then the message
        after = [i for i, l in enumerate(lines) if l.strip() == "^" or set(l.strip()) == {"^"}]
        if after and after[-1] + 1 < len(lines):
            lines = lines[after[-1] + 1:]
    return f"{type(e).__name__}: " + " ".join(lines)[:400]


def triton_cases():
    os.environ.setdefault("TRITON_DEFAULT_FP_FUSION", "1")
    import triton
    from triton import knobs
    from triton.backends.compiler import GPUTarget
    import triton_features
    knobs.cache.dir = tempfile.mkdtemp()
    for name in triton_features.CASES:
        fn, sig, constexprs, attrs = triton_features.specialize(name)
        row = {"feature": name, "system": "triton"}
        try:
            triton.compile(triton.compiler.ASTSource(fn, sig, constexprs=constexprs, attrs=attrs),
                           target=GPUTarget("cuda", 90, 32), options={"num_warps": 4})
            row["outcome"] = "accepted"
        except Exception as e:
            row.update(outcome="refused", stage="compile", message=short_message(e))
            m = re.match(r"at (\d+):(\d+)", str(e).strip())
            if m:
                first = inspect.getsourcelines(fn.fn)[1]  # the decorator's line
                row["line"] = first + int(m.group(1))  # Triton counts from the def, one below
        yield row


def pallas_cases():
    os.environ.setdefault("JAX_PLATFORMS", "cpu")
    import jax
    import jax.numpy as jnp
    from jax import export
    import pallas_features
    x = jax.ShapeDtypeStruct((256, ), jnp.float32)
    for name in pallas_features.CASES:
        row = {"feature": name, "system": "pallas"}
        f = pallas_features.call(name)
        try:
            stage = "trace"
            jax.make_jaxpr(f)(x)
            stage = "lower"
            export.export(jax.jit(f), platforms=["cuda"],
                          disabled_checks=[export.DisabledSafetyCheck.custom_call("__gpu$xla.gpu.triton")])(x)
            row["outcome"] = "accepted"
        except Exception as e:
            row.update(outcome="refused", stage=stage, message=short_message(e))
            tb = e.__traceback__
            line = None
            while tb is not None:
                if tb.tb_frame.f_code.co_filename.endswith("pallas_features.py"):
                    line = tb.tb_lineno
                tb = tb.tb_next
            if line:
                row["line"] = line
        yield row


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    if argv not in (["triton"], ["pallas"]):
        print(__doc__, file=sys.stderr)
        return 2
    for row in (triton_cases() if argv[0] == "triton" else pallas_cases()):
        print(json.dumps(row), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())

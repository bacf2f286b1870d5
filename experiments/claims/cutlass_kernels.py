#!/usr/bin/env python3
"""How many Hopper GEMM kernels a CUTLASS library build compiles: CUTLASS's own kernel
generator (cutlass_library, from the pinned nvidia-cutlass wheel) asked for sm_90a's
warpgroup-MMA GEMMs (16-bit, tf32, int8 and fp8, with their unaligned variants), counted
as its manifest enables them: the default set (what a build without CUTLASS_LIBRARY_KERNELS
compiles) and all of them. Prints one JSON line. Run with the project's .venv Python."""
import contextlib
import io
import json
import logging
import sys
import tempfile
from importlib import metadata

GENERATORS = ("GenerateSM90_TensorOp_16b_WGMMA_gemm", "GenerateSM90_TensorOp_16b_WGMMA_alignx_gemm",
              "GenerateSM90_TensorOp_tf32_WGMMA_gemm", "GenerateSM90_TensorOp_tf32_WGMMA_alignx_gemm",
              "GenerateSM90_TensorOp_int8_WGMMA_gemm", "GenerateSM90_TensorOp_int8_WGMMA_alignx_gemm",
              "GenerateSM90_TensorOp_fp8_WGMMA_gemm", "GenerateSM90_TensorOp_fp8_WGMMA_alignx_gemm")


def count(kernels, build_dir):
    from cutlass_library import generator
    from cutlass_library.manifest import Manifest
    args = generator.define_parser().parse_args(
        ["--operations", "gemm", "--architectures", "90a", "--kernels", kernels, "--cuda-version", "13.0.0",
         "--curr-build-dir", build_dir, "--build-dir", build_dir])
    manifest = Manifest(args)
    with contextlib.redirect_stdout(io.StringIO()):
        for name in GENERATORS:
            getattr(generator, name)(manifest, "13.0.0")
    return manifest.operation_count


def main():
    logging.disable(logging.CRITICAL)
    try:
        with tempfile.TemporaryDirectory() as d:
            row = {"default": count("", d), "all": count("all", d), "generators": list(GENERATORS),
                   "nvidia_cutlass": metadata.version("nvidia-cutlass")}
    except Exception as e:  # not installed, or a generator that changed: the claim's row says so
        row = {"error": f"{type(e).__name__}: {e}"[:500]}
    print(json.dumps(row))
    return 0


if __name__ == "__main__":
    sys.exit(main())

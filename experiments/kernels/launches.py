"""A launch for each corpus specialization: grid, buffer sizes and scalar values.

Sizes leave ragged edges (rows shorter than BLOCK, vectors not a multiple of
it, matrices not a multiple of the tile) so that every mask is exercised;
with divisible=True every integer is a multiple of 16 instead, as a kernel
compiled under --assume-divisible requires. Used by the codegen suite (the
emulator's dynamic counts of a launch) and by the Triton check. Standard
library only.
"""


def parse_spec(spec):
    """'softmax<f16,1024>' -> ('softmax', ['f16', '1024'])."""
    name, _, rest = spec.partition("<")
    return name.strip(), [a.strip() for a in rest.rstrip(">").split(",")] if rest else []


def launch(spec, divisible=False):
    """(grid (x, y, z), {pointer parameter: element count}, {scalar parameter: value})."""
    name, args = parse_spec(spec)
    ragged = 16 if divisible else 3
    rows = 3
    if name in ("vector_add", "gelu", "swiglu"):
        block = int(args[-1])
        n = 3 * block - ragged - (2 if not divisible else 0)
        ptrs = {"vector_add": ("x", "y", "out"), "gelu": ("x", "y"), "swiglu": ("a", "b", "out")}[name]
        return (3, 1, 1), {p: n for p in ptrs}, {"n": n}
    if name in ("softmax", "layernorm", "rmsnorm", "row_argmax", "row_cumsum"):
        block = int(args[-1])
        scalars = {"n_cols": block - ragged, "stride": block}
        if name in ("layernorm", "rmsnorm"):
            scalars["eps"] = 1e-5
        sizes = {"x": rows * block}
        sizes.update({"row_argmax": {"index": rows, "value": rows}, "layernorm": {"y": rows * block, "w": block,
                                                                                  "b": block},
                      "rmsnorm": {"y": rows * block, "w": block}}.get(name, {"y": rows * block}))
        return (rows, 1, 1), sizes, scalars
    if name in ("matmul", "matmul_desc"):
        bm, bn, bk = (int(a) for a in args)
        if divisible:
            m, n, k = 2 * bm - 16 if bm > 16 else 32, 2 * bn - 16 if bn > 16 else 32, 2 * bk + 16
        else:
            m, n, k = 2 * bm - 3, 2 * bn - 5, 2 * bk + 3
        return (2, 2, 1), {"a": m * k, "b": k * n, "c": m * n}, {"M": m, "N": n, "K": k}
    if name == "flash_attention":
        bm, _, d = (int(a) for a in args)
        seq = 2 * bm - ragged if bm > 16 or not divisible else 32
        return (2, 2, 1), {p: 2 * seq * d for p in ("q", "k", "v", "o")}, {"seq_len": seq, "scale": 0.125}
    raise KeyError(f"no launch for '{name}'")


def bench(spec):
    """A launch large enough to time on a GPU: every vector and matrix several
    times the 60 MB L2 of an H100/H200 (rows of BLOCK columns, 2^26-element
    vectors, 4096^3 matmul, 32 heads of 4096 tokens for attention). Sizes are
    multiples of 16 (kernels compiled with the promises run them). Returns
    (grid, sizes, scalars, flops); flops is 0 for the memory-bound kernels,
    whose throughput is their bytes moved."""
    name, args = parse_spec(spec)
    if name in ("vector_add", "gelu", "swiglu"):
        block = int(args[-1])
        n = 1 << 26
        ptrs = {"vector_add": ("x", "y", "out"), "gelu": ("x", "y"), "swiglu": ("a", "b", "out")}[name]
        return (n // block, 1, 1), {p: n for p in ptrs}, {"n": n}, 0
    if name in ("softmax", "layernorm", "rmsnorm", "row_argmax", "row_cumsum"):
        block = int(args[-1])
        rows = 1 << 16
        scalars = {"n_cols": block, "stride": block}
        if name in ("layernorm", "rmsnorm"):
            scalars["eps"] = 1e-5
        sizes = {"x": rows * block}
        sizes.update({"row_argmax": {"index": rows, "value": rows},
                      "layernorm": {"y": rows * block, "w": block, "b": block},
                      "rmsnorm": {"y": rows * block, "w": block}}.get(name, {"y": rows * block}))
        return (rows, 1, 1), sizes, scalars, 0
    if name in ("matmul", "matmul_desc"):
        bm, bn, _ = (int(a) for a in args)
        m = n = k = 4096
        return (m // bm, n // bn, 1), {"a": m * k, "b": k * n, "c": m * n}, {"M": m, "N": n, "K": k}, 2 * m * n * k
    if name == "flash_attention":
        bm, _, d = (int(a) for a in args)
        heads, seq = 32, 4096
        return ((seq // bm, heads, 1), {p: heads * seq * d for p in ("q", "k", "v", "o")},
                {"seq_len": seq, "scale": d ** -0.5}, 4 * heads * seq * seq * d)
    raise KeyError(f"no launch for '{name}'")

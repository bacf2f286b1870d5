"""Corpus kernels in JAX Pallas (the tracing DSL twintile's trace front end is compared with).

Written as a Pallas user writes them for Pallas's Triton backend: BlockSpecs
cut the arrays into the blocks a program sees, so a program's `x_ref` is its
block and no pointer arithmetic or mask appears. That is the one semantic
difference from the corpus: Pallas's kernels take whole blocks (rows of
exactly BLOCK columns, vectors a multiple of BLOCK, matrices a multiple of the
tile), where the corpus masks a ragged edge. On such sizes they compute what
the corpus computes.

`build(spec, interpret)` gives (function, example arguments, NumPy reference)
for a corpus spec; the arguments are small enough for interpret mode.
"""
import functools

import jax
import jax.numpy as jnp
import numpy as np
from jax.experimental import pallas as pl
from jax.experimental.pallas import triton as pltriton

DTYPES = {"f16": jnp.float16, "bf16": jnp.bfloat16, "f32": jnp.float32}


def _params(interpret):
    return None if interpret else pltriton.CompilerParams(num_warps=4)


def _vector_add_kernel(x_ref, y_ref, o_ref):
    o_ref[...] = x_ref[...] + y_ref[...]


def vector_add(x, y, *, block, interpret=False):
    spec = pl.BlockSpec((block, ), lambda i: (i, ))
    return pl.pallas_call(_vector_add_kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),
                          grid=(x.shape[0] // block, ), in_specs=[spec, spec], out_specs=spec,
                          interpret=interpret, compiler_params=_params(interpret))(x, y)


def _softmax_kernel(x_ref, y_ref):
    v = x_ref[...].astype(jnp.float32)
    e = jnp.exp(v - jnp.max(v, axis=1, keepdims=True))
    y_ref[...] = (e / jnp.sum(e, axis=1, keepdims=True)).astype(y_ref.dtype)


def softmax(x, *, interpret=False):
    rows, block = x.shape
    spec = pl.BlockSpec((1, block), lambda i: (i, 0))
    return pl.pallas_call(_softmax_kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), grid=(rows, ),
                          in_specs=[spec], out_specs=spec, interpret=interpret,
                          compiler_params=_params(interpret))(x)


def _layernorm_kernel(x_ref, w_ref, b_ref, y_ref, *, eps):
    v = x_ref[...].astype(jnp.float32)
    n = v.shape[1]
    mean = jnp.sum(v, axis=1, keepdims=True) / n
    d = v - mean
    rstd = jax.lax.rsqrt(jnp.sum(d * d, axis=1, keepdims=True) / n + eps)
    y_ref[...] = (d * rstd * w_ref[...] + b_ref[...]).astype(y_ref.dtype)


def layernorm(x, w, b, *, eps, interpret=False):
    rows, block = x.shape
    row = pl.BlockSpec((1, block), lambda i: (i, 0))
    vec = pl.BlockSpec((1, block), lambda i: (0, 0))
    return pl.pallas_call(functools.partial(_layernorm_kernel, eps=eps),
                          out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), grid=(rows, ),
                          in_specs=[row, vec, vec], out_specs=row, interpret=interpret,
                          compiler_params=_params(interpret))(x, w.reshape(1, -1), b.reshape(1, -1))


def _matmul_kernel(a_ref, b_ref, c_ref, *, bk):
    k_steps = a_ref.shape[1] // bk

    def body(i, acc):
        ta = a_ref[:, pl.ds(i * bk, bk)]
        tb = b_ref[pl.ds(i * bk, bk), :]
        return acc + jnp.dot(ta, tb, preferred_element_type=jnp.float32)

    acc = jax.lax.fori_loop(0, k_steps, body, jnp.zeros(c_ref.shape, jnp.float32))
    c_ref[...] = acc.astype(c_ref.dtype)


def matmul(a, b, *, bm, bn, bk, interpret=False):
    m, k = a.shape
    _, n = b.shape
    return pl.pallas_call(functools.partial(_matmul_kernel, bk=bk), out_shape=jax.ShapeDtypeStruct((m, n), a.dtype),
                          grid=(m // bm, n // bn),
                          in_specs=[pl.BlockSpec((bm, k), lambda i, j: (i, 0)),
                                    pl.BlockSpec((k, bn), lambda i, j: (0, j))],
                          out_specs=pl.BlockSpec((bm, bn), lambda i, j: (i, j)), interpret=interpret,
                          compiler_params=_params(interpret))(a, b)


def parse_spec(spec):
    name, _, rest = spec.partition("<")
    return name.strip(), [a.strip() for a in rest.rstrip(">").split(",")] if rest else []


KERNELS = ("vector_add", "softmax", "layernorm", "matmul")


def build(spec, interpret=False, seed=0):
    """(function of the arguments, the arguments, the NumPy reference of the result)."""
    name, args = parse_spec(spec)
    rng = np.random.default_rng(seed)
    if name == "vector_add":
        block = int(args[0])
        x = rng.standard_normal(4 * block, dtype=np.float32)
        y = rng.standard_normal(4 * block, dtype=np.float32)
        return functools.partial(vector_add, block=block, interpret=interpret), (x, y), x + y
    if name == "softmax":
        dtype, block = DTYPES[args[0]], int(args[1])
        x = rng.standard_normal((4, block), dtype=np.float32).astype(dtype)
        v = np.asarray(x, np.float32)
        e = np.exp(v - v.max(axis=1, keepdims=True))
        return functools.partial(softmax, interpret=interpret), (x, ), e / e.sum(axis=1, keepdims=True)
    if name == "layernorm":
        dtype, block = DTYPES[args[0]], int(args[1])
        x = rng.standard_normal((4, block), dtype=np.float32).astype(dtype)
        w = rng.standard_normal(block, dtype=np.float32)
        b = rng.standard_normal(block, dtype=np.float32)
        v = np.asarray(x, np.float32)
        d = v - v.mean(axis=1, keepdims=True)
        ref = d / np.sqrt((d * d).mean(axis=1, keepdims=True) + 1e-5) * w + b
        return functools.partial(layernorm, eps=1e-5, interpret=interpret), (x, w, b), ref
    if name == "matmul":
        bm, bn, bk = (int(a) for a in args)
        a = rng.standard_normal((2 * bm, 2 * bk), dtype=np.float32).astype(jnp.float16)
        b = rng.standard_normal((2 * bk, 2 * bn), dtype=np.float32).astype(jnp.float16)
        ref = np.asarray(a, np.float32) @ np.asarray(b, np.float32)
        return functools.partial(matmul, bm=bm, bn=bn, bk=bk, interpret=interpret), (a, b), ref
    raise KeyError(f"no Pallas version of '{name}'")


def corpus_launch(spec, inputs):
    """The corpus kernel's launch on the same inputs: (grid, {parameter: array or scalar}, output parameter).

    The Pallas kernels take whole blocks, so the corpus kernel runs with sizes that are whole
    blocks too (n_cols == BLOCK, M a multiple of BM, ...); its output buffer starts zeroed."""
    name, args = parse_spec(spec)
    if name == "vector_add":
        x, y = inputs
        block = int(args[0])
        return (len(x) // block, 1, 1), {"x": x, "y": y, "out": np.zeros_like(x), "n": len(x)}, "out"
    if name == "softmax":
        (x, ) = inputs
        rows, block = x.shape
        return (rows, 1, 1), {"x": x, "y": np.zeros_like(x), "n_cols": block, "stride": block}, "y"
    if name == "layernorm":
        x, w, b = inputs
        rows, block = x.shape
        return (rows, 1, 1), {"x": x, "y": np.zeros_like(x), "w": w, "b": b, "n_cols": block, "stride": block,
                              "eps": 1e-5}, "y"
    if name == "matmul":
        a, b = inputs
        bm, bn, _ = (int(v) for v in args)
        m, k = a.shape
        n = b.shape[1]
        return (m // bm, n // bn, 1), {"a": a, "b": b, "c": np.zeros((m, n), a.dtype), "M": m, "N": n, "K": k}, "c"
    raise KeyError(f"no Pallas version of '{name}'")
"""The feature cases of experiments/features/ in JAX Pallas, where the construct exists in Python.

Each case is a Pallas kernel over one block of 64 f32 (x_ref -> y_ref), named
as the twintile case it mirrors. The expressiveness suite traces each
(jax.make_jaxpr) and lowers it to Triton IR for CUDA, and records whether
Pallas accepts it, and what it says if not. Like twintile's tracing front end,
Pallas runs the kernel's Python on abstract values: Python control flow over a
traced value is refused; lax.cond / fori_loop / while_loop are the combinators.
"""
import jax
import jax.numpy as jnp
from jax import lax
from jax.experimental import pallas as pl
from jax.experimental.pallas import triton as pltriton

RUNTIME_BLOCK = 64
BLOCK = 64


def native_if(x_ref, y_ref):
    v = x_ref[...]
    if jnp.sum(v) > 0:
        v = v * 2.0
    else:
        v = v - 1.0
    y_ref[...] = v


def native_for(x_ref, y_ref):
    v = x_ref[...]
    acc = jnp.zeros_like(v)
    for _ in range(jnp.sum(v > 0)):
        acc += v
    y_ref[...] = acc


def native_while(x_ref, y_ref):
    v = x_ref[...]
    while jnp.max(v) > 1.0:
        v = v * 0.5
    y_ref[...] = v


def native_break(x_ref, y_ref):
    v = x_ref[...]
    for _ in range(8):
        v = v + 1.0
        if jnp.max(v) > 3.0:
            break
    y_ref[...] = v


def native_continue(x_ref, y_ref):
    v = x_ref[...]
    for k in range(4):
        if jnp.max(v) > k:
            continue
        v = v + 1.0
    y_ref[...] = v


def early_return_device(x_ref, y_ref):
    v = x_ref[...]
    if jnp.sum(v) > 0:
        return
    y_ref[...] = v


def ternary_device(x_ref, y_ref):
    v = x_ref[...]
    y_ref[...] = v * 2.0 if jnp.sum(v) > 0 else v


def short_circuit(x_ref, y_ref):
    v = x_ref[...]
    y_ref[...] = jnp.where((v > 0) and (v < 1), v, 0.0)


def logical_not(x_ref, y_ref):
    v = x_ref[...]
    y_ref[...] = jnp.where(not (v > 0), 0.0, v)


def _halve_until_small(v):
    if jnp.sum(v) > 1.0:
        return _halve_until_small(v * 0.5)
    return v


def recursion_device(x_ref, y_ref):
    y_ref[...] = _halve_until_small(x_ref[...])


def _cube(v, depth):
    return v if depth == 0 else _cube(v, depth - 1) * v


def recursion_host(x_ref, y_ref):
    y_ref[...] = _cube(x_ref[...], 2)


def _double(v):
    return v * 2.0


def helper_function(x_ref, y_ref):
    y_ref[...] = _double(x_ref[...])


def lambda_(x_ref, y_ref):
    f = lambda t: 3.0 * t + 1.0  # noqa: E731
    y_ref[...] = f(x_ref[...])


def std_array_of_tiles(x_ref, y_ref):
    v = x_ref[...]
    parts = [v, v * 2.0, v * 3.0]
    y_ref[...] = sum(parts[1:], parts[0])


def struct_of_tiles(x_ref, y_ref):
    v = x_ref[...]
    pair = (v, v > 0)
    y_ref[...] = jnp.where(pair[1], pair[0] * 2.0, pair[0])


def runtime_block_size(x_ref, y_ref):
    y_ref[...] = x_ref[pl.ds(0, RUNTIME_BLOCK)] + 1.0


def host_unroll(x_ref, y_ref):
    v = x_ref[...]
    acc = jnp.zeros_like(v)
    for i in range(3):
        acc += v * i
    y_ref[...] = v + acc


def host_if(x_ref, y_ref, negate=True):
    v = x_ref[...]
    y_ref[...] = -v if negate else v


def exceptions(x_ref, y_ref):
    try:
        v = x_ref[...]
    except Exception:
        v = jnp.zeros((BLOCK, ), jnp.float32)
    y_ref[...] = v


def device_print(x_ref, y_ref):
    v = x_ref[...]
    pl.debug_print("sum of the block", jnp.sum(v))
    y_ref[...] = v


def combinator_for_range(x_ref, y_ref):
    v = x_ref[...]
    y_ref[...] = lax.fori_loop(0, 3, lambda i, acc: acc + v, jnp.zeros_like(v))


def combinator_if_else(x_ref, y_ref):
    v = x_ref[...]
    y_ref[...] = lax.cond(jnp.sum(v) > 0, lambda t: t * 2.0, lambda t: t - 1.0, v)


def combinator_while_loop(x_ref, y_ref):
    v = x_ref[...]
    y_ref[...] = lax.while_loop(lambda t: jnp.max(t) > 1.0, lambda t: t * 0.5, v)


def combine_function(x_ref, y_ref):
    v = x_ref[...]
    y_ref[...] = lax.associative_scan(jnp.maximum, v) - lax.reduce(v, -jnp.inf, jnp.maximum, (0, ))


CASES = {
    "native_if": native_if, "native_for": native_for, "native_while": native_while,
    "native_break": native_break, "native_continue": native_continue,
    "early_return_device": early_return_device, "ternary_device": ternary_device,
    "short_circuit": short_circuit, "logical_not": logical_not, "recursion_device": recursion_device,
    "recursion_host": recursion_host, "helper_function": helper_function, "lambda": lambda_,
    "std_array_of_tiles": std_array_of_tiles, "struct_of_tiles": struct_of_tiles,
    "runtime_block_size": runtime_block_size, "host_unroll": host_unroll, "host_if": host_if,
    "exceptions": exceptions, "device_print": device_print,
    "combinator_for_range": combinator_for_range, "combinator_if_else": combinator_if_else,
    "combinator_while_loop": combinator_while_loop, "combine_function": combine_function,
}


def call(name):
    """The case as a function of x (256 f32), for jax.make_jaxpr and export."""
    spec = pl.BlockSpec((BLOCK, ), lambda i: (i, ))

    def f(x):
        return pl.pallas_call(CASES[name], out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),
                              grid=(x.shape[0] // BLOCK, ), in_specs=[spec], out_specs=spec,
                              compiler_params=pltriton.CompilerParams(num_warps=4))(x)

    return f

"""libdevice's functions for Triton's interpreter, computed by NumPy.

Triton's interpreter (TRITON_INTERPRET=1) runs no libdevice function: a
kernel that calls `libdevice.rsqrt(x)` gets None back. install() replaces the
functions of `triton.language.extra.libdevice` (and of its CUDA module) with
NumPy's, elementwise on the interpreter's arrays, in the argument's own
element type, before an upstream module imports them. Only for checking
kernels on the CPU: NumPy's results may differ from libdevice's in the last
place, which the checks' tolerances allow.
"""
import numpy as np

UNARY = {
    "rsqrt": lambda x: 1 / np.sqrt(x), "sqrt": np.sqrt, "exp": np.exp, "exp2": np.exp2, "expm1": np.expm1,
    "log": np.log, "log2": np.log2, "log10": np.log10, "log1p": np.log1p, "tanh": np.tanh, "sin": np.sin,
    "cos": np.cos, "tan": np.tan, "erf": None, "floor": np.floor, "ceil": np.ceil, "trunc": np.trunc,
    "rint": np.rint, "round": lambda x: np.sign(x) * np.floor(np.abs(x.astype(np.float64)) + 0.5), "abs": np.abs,
    "fast_expf": np.exp, "fast_logf": np.log, "sigmoid": lambda x: 1 / (1 + np.exp(-x)),
}
BINARY = {"pow": np.power, "fast_powf": np.power, "div_rn": np.divide, "fast_dividef": np.divide, "fmod": np.fmod,
          "fmax": np.fmax, "fmin": np.fmin, "atan2": np.arctan2}
PREDICATE = {"isnan": np.isnan, "isinf": np.isinf, "isfinited": np.isfinite, "finitef": np.isfinite}


def _erf(x):
    import math
    return np.vectorize(math.erf, otypes=[x.dtype])(x)


def _data(v):
    return v.handle.data if hasattr(v, "handle") else np.asarray(v)


def _result(like, data, tl_type=None):
    import triton.language as tl
    from triton.runtime.interpreter import TensorHandle
    scalar = tl_type or like.type.scalar
    out_type = like.type if tl_type is None else (
        tl.block_type(tl_type, like.type.shape) if like.type.is_block() else tl_type)
    return tl.tensor(TensorHandle(np.asarray(data).astype(_data(like).dtype if tl_type is None else np.bool_),
                                  scalar), out_type)


def _unary(f):
    def call(x, _semantic=None):
        with np.errstate(all="ignore"):
            return _result(x, f(_data(x)))
    return call


def _binary(f):
    """libdevice's two-operand functions take operands of one type (pow(f32, f32)); the result
    has it."""
    def call(x, y, _semantic=None):
        like = x if hasattr(x, "handle") else y
        with np.errstate(all="ignore"):
            return _result(like, f(_data(x), _data(y)))
    return call


def _predicate(f):
    def call(x, _semantic=None):
        import triton.language as tl
        return _result(x, f(_data(x)), tl.int1)
    return call


def install():
    """Replace libdevice's functions, in every module Triton keeps them in, by NumPy's."""
    import importlib
    shims = {name: _unary(_erf if f is None else f) for name, f in UNARY.items()}
    shims.update({name: _binary(f) for name, f in BINARY.items()})
    shims.update({name: _predicate(f) for name, f in PREDICATE.items()})
    for module_name in ("triton.language.extra.libdevice", "triton.language.extra.cuda.libdevice"):
        try:
            module = importlib.import_module(module_name)
        except ImportError:
            continue
        for name, shim in shims.items():
            if hasattr(module, name):
                setattr(module, name, shim)
    return sorted(shims)

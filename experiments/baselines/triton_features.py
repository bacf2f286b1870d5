"""The feature cases of experiments/features/ in Triton, where the construct exists in Python.

Each kernel has the feature cases' signature (x, y, n, BLOCK) and is named as
the twintile case it mirrors; constructs that Python does not have (goto,
static locals, host pointers, virtual calls as C++ has them) have no entry.
The expressiveness suite compiles each to PTX with Triton's ahead-of-time
path and records whether Triton accepts it, and what it says if not.
"""
import triton
import triton.language as tl

RUNTIME_BLOCK = 64  # a module global that is not a constexpr


@triton.jit
def _double(v):
    return v * 2.0


@triton.jit
def _halve_until_small(v):
    if tl.sum(v, 0) > 1.0:
        v = _halve_until_small(v * 0.5)
    return v


@triton.jit
def _cube(v, DEPTH: tl.constexpr):
    if DEPTH == 0:
        return v
    else:
        return _cube(v, DEPTH - 1) * v


@triton.jit
def native_if(x, y, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    v = tl.load(x + offs, offs < n, other=0.0)
    if tl.sum(v, 0) > 0:
        v = v * 2.0
    else:
        v = v - 1.0
    tl.store(y + offs, v, offs < n)


@triton.jit
def native_for(x, y, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    v = tl.load(x + offs, offs < n, other=0.0)
    acc = tl.zeros((BLOCK, ), tl.float32)
    for k in range(0, n % 4):
        acc += v
    tl.store(y + offs, acc, offs < n)


@triton.jit
def native_while(x, y, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    v = tl.load(x + offs, offs < n, other=0.0)
    k = 0
    while k < n:
        v = v * 0.5
        k += 25
    tl.store(y + offs, v, offs < n)


@triton.jit
def native_break(x, y, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    v = tl.load(x + offs, offs < n, other=0.0)
    for k in range(0, n):
        v = v + 1.0
        if k > 2:
            break
    tl.store(y + offs, v, offs < n)


@triton.jit
def native_continue(x, y, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    v = tl.load(x + offs, offs < n, other=0.0)
    for k in range(0, 4):
        if k == 1:
            continue
        v = v + 1.0
    tl.store(y + offs, v, offs < n)


@triton.jit
def early_return_device(x, y, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    v = tl.load(x + offs, offs < n, other=0.0)
    if tl.sum(v, 0) > 0:
        return
    tl.store(y + offs, v, offs < n)


@triton.jit
def early_return_loop(x, y, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    v = tl.load(x + offs, mask, other=0.0)
    for k in range(0, n):
        v = v + 1.0
        if k == 3:
            tl.store(y + offs, v, mask)
            return
    tl.store(y + offs, v * 0.0, mask)


@triton.jit
def _scaled(v):
    if tl.sum(v, 0) > 0:
        return v * 2.0
    return v - 1.0


@triton.jit
def _first_square_above(n, limit):
    for k in range(0, n):
        if k * k > limit:
            return k
    return n


@triton.jit
def early_return_helper(x, y, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    v = tl.load(x + offs, offs < n, other=0.0)
    k = _first_square_above(n, 10)
    tl.store(y + offs, _scaled(v) + k.to(tl.float32), offs < n)


@triton.jit
def ternary_device(x, y, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    v = tl.load(x + offs, offs < n, other=0.0)
    w = v * 2.0 if tl.sum(v, 0) > 0 else v
    tl.store(y + offs, w, offs < n)


@triton.jit
def short_circuit(x, y, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = (offs < n) and (offs >= 0)
    tl.store(y + offs, tl.load(x + offs, mask, other=0.0), mask)


@triton.jit
def logical_not(x, y, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    v = tl.load(x + offs, offs < n, other=0.0)
    tl.store(y + offs, tl.where(not (v > 0), 0.0, v), offs < n)


@triton.jit
def recursion_device(x, y, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    v = tl.load(x + offs, offs < n, other=0.0)
    tl.store(y + offs, _halve_until_small(v), offs < n)


@triton.jit
def recursion_host(x, y, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    v = tl.load(x + offs, offs < n, other=0.0)
    tl.store(y + offs, _cube(v, 2), offs < n)


@triton.jit
def helper_function(x, y, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    v = tl.load(x + offs, offs < n, other=0.0)
    tl.store(y + offs, _double(v), offs < n)


@triton.jit
def lambda_(x, y, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    v = tl.load(x + offs, offs < n, other=0.0)
    f = lambda t: 3.0 * t + 1.0  # noqa: E731
    tl.store(y + offs, f(v), offs < n)


@triton.jit
def std_array_of_tiles(x, y, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    v = tl.load(x + offs, offs < n, other=0.0)
    parts = [v, v * 2.0, v * 3.0]
    acc = tl.zeros((BLOCK, ), tl.float32)
    for p in parts:
        acc += p
    tl.store(y + offs, acc, offs < n)


@triton.jit
def struct_of_tiles(x, y, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    v = tl.load(x + offs, offs < n, other=0.0)
    pair = (v, v > 0)
    tl.store(y + offs, tl.where(pair[1], pair[0] * 2.0, pair[0]), offs < n)


@triton.jit
def runtime_block_size(x, y, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * RUNTIME_BLOCK + tl.arange(0, RUNTIME_BLOCK)
    tl.store(y + offs, tl.load(x + offs, offs < n, other=0.0) + 1.0, offs < n)


@triton.jit
def host_unroll(x, y, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    v = tl.load(x + offs, offs < n, other=0.0)
    acc = tl.zeros((BLOCK, ), tl.float32)
    for i in tl.static_range(3):
        acc += v * i
    tl.store(y + offs, v + acc, offs < n)


@triton.jit
def host_if(x, y, n, BLOCK: tl.constexpr, NEGATE: tl.constexpr = True):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    v = tl.load(x + offs, offs < n, other=0.0)
    if NEGATE:
        v = -v
    tl.store(y + offs, v, offs < n)


@triton.jit
def exceptions(x, y, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    try:
        v = tl.load(x + offs, offs < n, other=0.0)
    except Exception:
        v = tl.zeros((BLOCK, ), tl.float32)
    tl.store(y + offs, v, offs < n)


@triton.jit
def device_print(x, y, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    v = tl.load(x + offs, offs < n, other=0.0)
    tl.device_print("v", v)
    tl.store(y + offs, v, offs < n)


@triton.jit
def device_assert(x, y, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    v = tl.load(x + offs, offs < n, other=0.0)
    tl.device_assert(v == v, "NaN")
    tl.store(y + offs, v, offs < n)


@triton.jit
def _larger(a, b):
    return tl.maximum(a, b)


@triton.jit
def combine_function(x, y, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    v = tl.load(x + offs, offs < n, other=-1e30)
    tl.store(y + offs, tl.associative_scan(v, 0, _larger) - tl.reduce(v, 0, _larger), offs < n)


CASES = {
    "native_if": native_if, "native_for": native_for, "native_while": native_while,
    "native_break": native_break, "native_continue": native_continue,
    "early_return_device": early_return_device, "early_return_loop": early_return_loop,
    "early_return_helper": early_return_helper, "ternary_device": ternary_device,
    "short_circuit": short_circuit, "logical_not": logical_not, "recursion_device": recursion_device,
    "recursion_host": recursion_host, "helper_function": helper_function, "lambda": lambda_,
    "std_array_of_tiles": std_array_of_tiles, "struct_of_tiles": struct_of_tiles,
    "runtime_block_size": runtime_block_size, "host_unroll": host_unroll, "host_if": host_if,
    "exceptions": exceptions, "device_print": device_print, "device_assert": device_assert,
    "combine_function": combine_function,
}


def specialize(name, assume=False):
    fn = CASES[name]
    sig = {"x": "*fp32", "y": "*fp32", "n": "i32", "BLOCK": "constexpr"}
    constexprs = {"BLOCK": 64}
    if name == "host_if":
        sig["NEGATE"] = "constexpr"
        constexprs["NEGATE"] = True
    return fn, sig, constexprs, {}

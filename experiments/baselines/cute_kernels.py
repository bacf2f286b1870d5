"""vector_add and softmax in NVIDIA's CuTe DSL (CUTLASS 4's Python DSL), a third embedding.

CuTe DSL preprocesses the Python AST (turning `if`/`for` over dynamic values
into IR) and then traces the result, so it sits between the two approaches
twintile compares. The kernels are written as the corpus's are: one thread
per element (vector_add), one block of 128 threads per row with a warp
reduction and one cross-warp step through shared memory (softmax); each
thread moves its elements one at a time (no TiledCopy vectorization, which a
CuTe expert would add). They compute what experiments/kernels/*.cpp compute,
with the same masks. CuTe has no CPU execution mode, so they are compiled
and measured, not run here.

`specialize(spec)` gives the @cute.jit function and the arguments
`cute.compile` specializes on (fake tensors of dynamic size: no data, no GPU).
"""
import math

import cutlass
import cutlass.cute as cute
from cutlass.cute.runtime import make_fake_compact_tensor

THREADS = 128
DTYPES = {"f16": cutlass.Float16, "bf16": cutlass.BFloat16, "f32": cutlass.Float32}


@cute.kernel
def _vector_add_kernel(gx: cute.Tensor, gy: cute.Tensor, gout: cute.Tensor, n: cutlass.Int32,
                       BLOCK: cutlass.Constexpr):
    tidx, _, _ = cute.arch.thread_idx()
    bidx, _, _ = cute.arch.block_idx()
    for k in cutlass.range_constexpr(BLOCK // THREADS):
        i = bidx * BLOCK + k * THREADS + tidx
        if i < n:
            gout[i] = gx[i] + gy[i]


@cute.jit
def vector_add(x: cute.Tensor, y: cute.Tensor, out: cute.Tensor, n: cutlass.Int32, BLOCK: cutlass.Constexpr):
    _vector_add_kernel(x, y, out, n, BLOCK).launch(grid=((n + BLOCK - 1) // BLOCK, 1, 1), block=(THREADS, 1, 1))


@cute.kernel
def _softmax_kernel(gx: cute.Tensor, gy: cute.Tensor, n_cols: cutlass.Int32, stride: cutlass.Int32,
                    BLOCK: cutlass.Constexpr):
    tidx, _, _ = cute.arch.thread_idx()
    bidx, _, _ = cute.arch.block_idx()
    row = bidx * stride
    partial = cutlass.memory.SmemAllocator().allocate_tensor(cutlass.Float32, cute.make_layout(THREADS // 32))
    warp = tidx // 32
    values = []
    m = cutlass.Float32(-math.inf)
    for k in cutlass.range_constexpr(BLOCK // THREADS):
        c = k * THREADS + tidx
        x = cutlass.Float32(-math.inf)
        if c < n_cols:
            x = gx[row + c].to(cutlass.Float32)
        values.append(x)
        m = cute.arch.fmax(m, x)
    m = cute.arch.warp_reduction_max(m)
    if tidx % 32 == 0:
        partial[warp] = m
    cute.arch.sync_threads()
    m = partial[0]
    for w in cutlass.range_constexpr(1, THREADS // 32):
        m = cute.arch.fmax(m, partial[w])
    cute.arch.sync_threads()
    s = cutlass.Float32(0.0)
    exps = []
    for k in cutlass.range_constexpr(BLOCK // THREADS):
        e = cute.math.exp(values[k] - m)
        exps.append(e)
        s = s + e
    s = cute.arch.warp_reduction_sum(s)
    if tidx % 32 == 0:
        partial[warp] = s
    cute.arch.sync_threads()
    s = partial[0]
    for w in cutlass.range_constexpr(1, THREADS // 32):
        s = s + partial[w]
    for k in cutlass.range_constexpr(BLOCK // THREADS):
        c = k * THREADS + tidx
        if c < n_cols:
            gy[row + c] = (exps[k] / s).to(gy.element_type)


@cute.jit
def softmax(x: cute.Tensor, y: cute.Tensor, n_cols: cutlass.Int32, stride: cutlass.Int32, rows: cutlass.Int32,
            BLOCK: cutlass.Constexpr):
    _softmax_kernel(x, y, n_cols, stride, BLOCK).launch(grid=(rows, 1, 1), block=(THREADS, 1, 1))


KERNELS = ("vector_add", "softmax")


def parse_spec(spec):
    name, _, rest = spec.partition("<")
    return name.strip(), [a.strip() for a in rest.rstrip(">").split(",")] if rest else []


def specialize(spec, assume=False):
    """(@cute.jit function, the arguments cute.compile takes) for a corpus spec.

    assume=True: tensors assumed 16-byte aligned, the counterpart of --assume-aligned."""
    name, args = parse_spec(spec)
    align = 16 if assume else None

    def tensor(dtype):
        return make_fake_compact_tensor(dtype, (cute.sym_int(), ), assumed_align=align)

    if name == "vector_add":
        return vector_add, (tensor(cutlass.Float32), tensor(cutlass.Float32), tensor(cutlass.Float32),
                            cutlass.Int32(0), int(args[0]))
    if name == "softmax":
        dtype = DTYPES[args[0]]
        return softmax, (tensor(dtype), tensor(dtype), cutlass.Int32(0), cutlass.Int32(0), cutlass.Int32(0),
                         int(args[1]))
    raise KeyError(f"no CuTe version of '{name}'")

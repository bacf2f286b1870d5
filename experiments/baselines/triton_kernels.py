"""The corpus kernels in Triton: one @triton.jit function per corpus kernel.

Each computes what experiments/kernels/<name>.cpp computes, with the same
parameters in the same order and the same meta-parameters as constexprs, so
that a corpus specialization `softmax<f16,1024>` has one Triton counterpart:
`specialize("softmax<f16,1024>")` gives the function, its signature in
Triton's spelling and its constexprs. Launch shapes are the corpus's
(num_warps 4; one program per row for the row kernels).

Where the corpus uses an operation Triton lacks as such, the nearest thing a
Triton user writes is used and said: tanh from libdevice (the corpus's tanh is
libdevice's too; Triton's interpreter mode runs no libdevice function, so
triton_check.py gives it the exact identity tanh(x) = 2 sigmoid(2x) - 1 there).
"""
import triton
import triton.language as tl
from triton.language.extra import libdevice


@triton.jit
def vector_add(x, y, out, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(out + offs, tl.load(x + offs, mask) + tl.load(y + offs, mask), mask)


@triton.jit
def softmax(x, y, n_cols, stride, BLOCK: tl.constexpr):
    cols = tl.arange(0, BLOCK)
    row = tl.program_id(0) * stride
    v = tl.load(x + row + cols, cols < n_cols, other=-float("inf")).to(tl.float32)
    e = tl.exp(v - tl.max(v, 0))
    tl.store(y + row + cols, (e / tl.sum(e, 0)).to(y.dtype.element_ty), cols < n_cols)


@triton.jit
def layernorm(x, y, w, b, n_cols, stride, eps, BLOCK: tl.constexpr):
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    row = tl.program_id(0) * stride
    v = tl.load(x + row + cols, mask, other=0.0).to(tl.float32)
    n = n_cols.to(tl.float32)
    mean = tl.sum(v, 0) / n
    d = tl.where(mask, v - mean, 0.0)
    rstd = tl.rsqrt(tl.sum(d * d, 0) / n + eps)
    out = d * rstd * tl.load(w + cols, mask, other=0.0) + tl.load(b + cols, mask, other=0.0)
    tl.store(y + row + cols, out.to(y.dtype.element_ty), mask)


@triton.jit
def rmsnorm(x, y, w, n_cols, stride, eps, BLOCK: tl.constexpr):
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    row = tl.program_id(0) * stride
    v = tl.load(x + row + cols, mask, other=0.0).to(tl.float32)
    rms = tl.rsqrt(tl.sum(v * v, 0) / n_cols.to(tl.float32) + eps)
    tl.store(y + row + cols, (v * rms * tl.load(w + cols, mask, other=0.0)).to(y.dtype.element_ty), mask)


@triton.jit
def matmul(a, b, c, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rn = tl.program_id(1) * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, K, BK):
        ka = rk + k
        ta = tl.load(a + rm[:, None] * K + ka[None, :], (rm[:, None] < M) & (ka[None, :] < K), other=0.0)
        tb = tl.load(b + ka[:, None] * N + rn[None, :], (ka[:, None] < K) & (rn[None, :] < N), other=0.0)
        acc = tl.dot(ta, tb, acc, input_precision="ieee")
    mask = (rm[:, None] < M) & (rn[None, :] < N)
    tl.store(c + rm[:, None] * N + rn[None, :], acc.to(tl.float16), mask)


@triton.jit
def matmul_desc(a, b, c, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    # The matmul through tensor descriptors (Triton's device-side
    # tl.make_tensor_descriptor): TMA on sm_90a.
    da = tl.make_tensor_descriptor(a, [M, K], [K, 1], [BM, BK])
    db = tl.make_tensor_descriptor(b, [K, N], [N, 1], [BK, BN])
    dc = tl.make_tensor_descriptor(c, [M, N], [N, 1], [BM, BN])
    rm = tl.program_id(0) * BM
    rn = tl.program_id(1) * BN
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, K, BK):
        acc = tl.dot(da.load([rm, k]), db.load([k, rn]), acc, input_precision="ieee")
    dc.store([rm, rn], acc.to(tl.float16))


@triton.jit
def flash_attention(q, k, v, o, seq_len, scale, BM: tl.constexpr, BN: tl.constexpr, D: tl.constexpr):
    head = tl.program_id(1) * seq_len * D
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rd = tl.arange(0, D)
    rows = rm[:, None] < seq_len
    tq = tl.load(q + head + rm[:, None] * D + rd[None, :], rows, other=0.0)
    m = tl.full((BM, ), -float("inf"), tl.float32)
    l = tl.zeros((BM, ), tl.float32)
    acc = tl.zeros((BM, D), tl.float32)
    for start in range(0, seq_len, BN):
        rn = start + tl.arange(0, BN)
        keys = rn[None, :] < seq_len
        kt = tl.load(k + head + rn[None, :] * D + rd[:, None], keys, other=0.0)
        s = tl.where(keys, tl.dot(tq, kt, input_precision="ieee") * scale, -float("inf"))
        m_new = tl.maximum(m, tl.max(s, 1))
        p = tl.exp(s - m_new[:, None])
        alpha = tl.exp(m - m_new)
        tv = tl.load(v + head + rn[:, None] * D + rd[None, :], rn[:, None] < seq_len, other=0.0)
        l = l * alpha + tl.sum(p, 1)
        acc = tl.dot(p.to(tl.float16), tv, acc * alpha[:, None], input_precision="ieee")
        m = m_new
    tl.store(o + head + rm[:, None] * D + rd[None, :], (acc / l[:, None]).to(tl.float16), rows)


@triton.jit
def row_argmax(x, index, value, n_cols, stride, BLOCK: tl.constexpr):
    cols = tl.arange(0, BLOCK)
    row = tl.program_id(0)
    v = tl.load(x + row * stride + cols, cols < n_cols, other=-float("inf"))
    tl.store(index + row, tl.argmax(v, 0))
    tl.store(value + row, tl.max(v, 0))


@triton.jit
def row_cumsum(x, y, n_cols, stride, BLOCK: tl.constexpr):
    cols = tl.arange(0, BLOCK)
    row = tl.program_id(0) * stride
    mask = cols < n_cols
    tl.store(y + row + cols, tl.cumsum(tl.load(x + row + cols, mask, other=0), 0), mask)


@triton.jit
def gelu(x, y, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    v = tl.load(x + offs, mask, other=0.0).to(tl.float32)
    inner = 0.7978845608 * (v + 0.044715 * v * v * v)
    tl.store(y + offs, (0.5 * v * (1.0 + libdevice.tanh(inner))).to(y.dtype.element_ty), mask)


@triton.jit
def swiglu(a, b, out, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(a + offs, mask, other=0.0).to(tl.float32)
    g = tl.load(b + offs, mask, other=0.0).to(tl.float32)
    tl.store(out + offs, (x * tl.sigmoid(x) * g).to(out.dtype.element_ty), mask)


# Per kernel: its parameters in the corpus's order as (name, type), where a type
# is a Triton spelling or "*T"/"T" for the element-type meta-parameter, and the
# names of its meta-parameters in the corpus's template order ("T" is the type).
KERNELS = {
    "vector_add": (vector_add, [("x", "*fp32"), ("y", "*fp32"), ("out", "*fp32"), ("n", "i32")], ["BLOCK"]),
    "softmax": (softmax, [("x", "*T"), ("y", "*T"), ("n_cols", "i32"), ("stride", "i32")], ["T", "BLOCK"]),
    "layernorm": (layernorm, [("x", "*T"), ("y", "*T"), ("w", "*fp32"), ("b", "*fp32"), ("n_cols", "i32"),
                              ("stride", "i32"), ("eps", "fp32")], ["T", "BLOCK"]),
    "rmsnorm": (rmsnorm, [("x", "*T"), ("y", "*T"), ("w", "*fp32"), ("n_cols", "i32"), ("stride", "i32"),
                          ("eps", "fp32")], ["T", "BLOCK"]),
    "matmul": (matmul, [("a", "*fp16"), ("b", "*fp16"), ("c", "*fp16"), ("M", "i32"), ("N", "i32"), ("K", "i32")],
               ["BM", "BN", "BK"]),
    "matmul_desc": (matmul_desc, [("a", "*fp16"), ("b", "*fp16"), ("c", "*fp16"), ("M", "i32"), ("N", "i32"),
                                  ("K", "i32")], ["BM", "BN", "BK"]),
    "flash_attention": (flash_attention, [("q", "*fp16"), ("k", "*fp16"), ("v", "*fp16"), ("o", "*fp16"),
                                          ("seq_len", "i32"), ("scale", "fp32")], ["BM", "BN", "D"]),
    "row_argmax": (row_argmax, [("x", "*fp32"), ("index", "*i32"), ("value", "*fp32"), ("n_cols", "i32"),
                                ("stride", "i32")], ["BLOCK"]),
    "row_cumsum": (row_cumsum, [("x", "*T"), ("y", "*T"), ("n_cols", "i32"), ("stride", "i32")], ["T", "BLOCK"]),
    "gelu": (gelu, [("x", "*T"), ("y", "*T"), ("n", "i32")], ["T", "BLOCK"]),
    "swiglu": (swiglu, [("a", "*T"), ("b", "*T"), ("out", "*T"), ("n", "i32")], ["T", "BLOCK"]),
}

# Kernels beside the corpus's (corpus.json), which only a suite compares:
# the tensor-core suite's matmul through tensor descriptors.
SUITE_ONLY = ("matmul_desc", )

# twintile's element types in Triton's spelling.
TYPES = {"f16": "fp16", "bf16": "bf16", "f32": "fp32", "f64": "fp64", "i8": "i8", "i16": "i16", "i32": "i32",
         "i64": "i64", "i1": "i1", "u8": "u8", "u16": "u16", "u32": "u32", "u64": "u64"}


def parse_spec(spec):
    """'softmax<f16,1024>' -> ('softmax', ['f16', '1024'])."""
    name, _, rest = spec.partition("<")
    args = [a.strip() for a in rest.rstrip(">").split(",")] if rest else []
    return name.strip(), args


def specialize(spec, assume=False):
    """The Triton function, signature, constexprs and attributes for a corpus spec.

    assume=True is the counterpart of twintile's --assume-aligned '*'
    --assume-divisible '*': every pointer and integer parameter gets Triton's
    divisibility-16 hint, which is what Triton's JIT infers from aligned,
    divisible arguments (and what it needs to vectorize masked accesses)."""
    name, args = parse_spec(spec)
    if name not in KERNELS:
        raise KeyError(f"no Triton version of '{name}'")
    fn, params, metas = KERNELS[name]
    if len(args) != len(metas):
        raise ValueError(f"'{spec}': {name} takes {len(metas)} meta-parameters")
    elem = None
    constexprs = {}
    for meta, value in zip(metas, args):
        if meta == "T":
            elem = TYPES[value]
        else:
            constexprs[meta] = int(value)
    signature = {}
    attrs = {}
    for i, (pname, ptype) in enumerate(params):
        ptype = ptype.replace("T", elem) if "T" in ptype else ptype
        signature[pname] = ptype
        if assume and (ptype.startswith("*") or ptype == "i32"):
            attrs[(i, )] = [["tt.divisibility", 16]]
    for meta in constexprs:
        signature[meta] = "constexpr"
    return fn, signature, constexprs, attrs

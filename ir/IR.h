//===- IR.h - the tile IR: values, operations, blocks, functions ---------===//
//
// The tile IR is what both front ends produce and the backend consumes. A
// Func is one kernel: parameters, meta-parameter attributes, and a body Block
// of Ops in SSA form. Structured control flow nests Blocks inside Ops (one
// Block per region); there are no branches and no CFG.
//
// Semantics (the reference interpreter implements exactly this):
//
// * Values are scalars or tiles (Type.h). Elementwise ops take operands of one
//   identical type; front ends insert splat/broadcast/cast explicitly (NumPy
//   broadcasting and Triton's promotion rules live in the front ends).
// * Integers wrap on overflow; they are signed (i8 .. i64) or unsigned
//   (u8 .. u64), by their element type, and the ops that depend on it read it
//   from their operands: div and rem truncate toward zero (C++ semantics),
//   dividing by zero is an error; shl/shr by an amount outside [0, width)
//   gives 0 (shl) or the sign fill (shr: arithmetic on signed types, logical
//   on unsigned ones, 0 beyond the width); comparisons, minimum/maximum and
//   the max/min/argmax/argmin reductions order unsigned types (and i1) as
//   unsigned numbers.
//   umulhi is the high half of the product of its operands' bits read as
//   unsigned (CUDA's __umulhi; i1: always 0).
// * Floats are IEEE. f16 and bf16 arithmetic is rounded to the element type
//   after every op (round to nearest even), as a GPU computing in f32 and
//   converting back does. Reductions and dot of f16/bf16 accumulate in f32.
//   minimum/maximum and the max/min reductions ignore a NaN operand (IEEE
//   minNum/maxNum). Comparisons are ordered except ne, which is true on NaN.
//   Transcendentals (exp, log, sin, erf, pow, ...) are approximate on the
//   GPU; the interpreter computes them in double and rounds once. Compiled
//   with --math=precise (the default) they are libdevice's (within a few ulp,
//   full range); with --math=fast, Triton's defaults, f32 (and f16/bf16,
//   computed in f32) exp2, log2, rsqrt, sin, cos, tanh are the GPU's
//   approximations, exp and log through ex2/lg2 with a scaling (its rounding
//   adds a relative error up to |x|*2^-24 to exp), and division of f32 (and
//   of f16/bf16, computed in f32) is div.full: by the PTX ISA, div.full, ex2 and rsqrt within about 2 ulp, lg2,
//   sin and cos within an absolute 2^-21 or so (sin/cos on moderate
//   arguments; far outside [-100pi, 100pi] much worse), tanh within a
//   relative 2^-11; and an f32 multiply feeding an add or subtract (a sum
//   or cumsum too) may be fused there into one fma (Triton's
//   enable_fp_fusion; by LLVM or by ptxas, which gets f32 adds and
//   multiplies without .rn), even where its product is also used elsewhere: the
//   product is not rounded there, which moves that result by up to half an
//   ulp of the product (so a*b - a*b need not be 0). rsqrt flushes a
//   subnormal f32 operand to a zero of its sign (giving +inf or -inf), as
//   Triton's does (the interpreter's fastMath option does too); nothing
//   else is flushed to zero. sqrt, erf, pow, f64 and the
//   other arithmetic stay precise. `twintile run` compares f32 results of a
//   fast compile with a relative 2e-3 instead of 1e-4. pow is C's
//   (NaN for a negative base and an exponent that is not an integer). floor
//   and ceil are exact.
// * cast: int to int truncates or extends by the source's signedness (i1 and
//   unsigned types zero-extend); float to int truncates toward zero and
//   saturates to the target's range (an unsigned one's is [0, 2^w - 1]), NaN
//   gives 0; anything to i1 is "!= 0"; other conversions round to nearest
//   even. An unsigned offset to addptr is zero-extended.
// * bitcast reinterprets an element's bits as another type of the same width
//   (f32 <-> i32, f16 and bf16 <-> i16, f64 <-> i64); i1 and pointers have none.
//   The interpreter holds floats as numbers: a NaN's payload (and a signalling
//   NaN) does not survive it there, as it does on the GPU.
// * Pointers step in elements of their pointee: addptr(p, k) is p + k elements.
//   load/store with a mask touch only lanes whose mask is 1; masked-off lanes
//   of a load yield `other` (or 0 without it). An unmasked access outside every
//   allocation is an error. Atomics (atomic_add, _max, _min, _and, _or, _xor,
//   _xchg, _cas) return the old values; max and min compare as integers of
//   their signedness or as floats (a NaN operand ignored); atomic_cas(p, cmp, v)
//   writes v where the element equals cmp bit for bit, and takes no mask.
//   Each element is one atomic access, by one GPU thread. `sem` (relaxed, the
//   default; acquire, release, acq_rel) orders that thread's other accesses
//   around it as C++'s memory orders do, at `scope` (gpu, the default, or
//   cta), as Triton's do: to order the other threads' accesses of the
//   program too, put a debug_barrier before a release (after an acquire).
//   Relaxed is the
//   default, unlike Triton's acq_rel, because a histogram or a reduction
//   needs no ordering and pays for it. Programs of a grid run in an
//   unspecified order, and the ops of one program in order.
//   load and store may carry hints that never change what they compute: a
//   cache operator (`cache`: ca, cg, cv for load; wb, cg, cs, wt for store,
//   PTX's) or an L1 eviction priority (`evict`: evict_first, evict_last), not
//   both (PTX has no form with both), as Triton's cache_modifier and
//   eviction_policy. A load's `cache` may instead be `volatile` (Triton's
//   volatile=True, PTX's ld.volatile): read from memory every time, never
//   merged with another load nor moved across the program's other accesses
//   (what another program sets, in a spin-wait).
//   descriptor_load and descriptor_store (ir/Descriptor.h names their
//   operands) read or write one block of a strided tensor, Triton's tensor
//   descriptors: base, shape[R] and offsets[R] (integers of one type, i32
//   or i64), strides[R] (i64, as Triton makes them; the innermost stride is
//   1 and not an operand), and the block's shape as the attribute `block`.
//   Element i of the block is the tensor's element c = offsets + i (in the
//   shape's type, wrapping as its integers do), at base + sum(c[d] *
//   strides[d]) (in i64); it exists where 0 <= c[d] < shape[d] for every d.
//   A load gives 0 where it does not, a store leaves such elements unwritten.
//   Where the descriptor addresses memory outside every allocation, the
//   access is an error as a load's is.
//   Distinct pointer parameters must not address overlapping memory, except
//   that one buffer may be passed twice when every element is accessed at the
//   same offset through both (an in-place elementwise update), as with C's
//   restrict; the backend relies on it to order accesses without barriers.
// * Reductions remove their axis (a 1-D tile reduces to a scalar); argmax and
//   argmin give i32 indices, the first on ties. cumsum is inclusive.
// * reduce and scan combine with their region, which takes two scalars of the
//   element type and yields one, computing only on scalars (elementwise
//   arithmetic, comparisons, select, casts, constants; no memory, no control
//   flow). The interpreter combines left to right along the axis: reduce
//   gives c(...c(c(x0, x1), x2)..., xn-1), scan the prefix of each element
//   (inclusive). The backend combines partial results in a tree, in an order
//   that is unspecified: reduce's region must be associative and commutative,
//   scan's associative (it keeps the order of its operands), and floating
//   point may round differently from the interpreter. The region may also
//   be evaluated on operands whose result is then discarded (lanes with
//   nothing to combine), so it must not trap or divide by zero on any
//   values of the element type. f16 and bf16 combine in
//   their own type, as the region says, not in f32. Over n tiles of one
//   shape (a tuple of tiles, as Triton's tl.reduce takes) the region takes
//   2n scalars, the earlier element of each tile first (a0..an-1, then
//   b0..bn-1), and yields n: one result per tile, all combined together.
// * multiple_of(x, values) and max_contiguous(x, values) are x, with a promise
//   per dimension that the backend's axis analysis takes as given, as
//   Triton's do: the first element of every run of consecutive integers is a
//   multiple of the value (multiple_of), and such runs are that long
//   (max_contiguous). The backend vectorizes on them; a broken promise is
//   undefined behaviour on the GPU, and the interpreter does not check it.
// * debug_barrier waits until every thread of the program has reached it
//   (bar.sync): no op moves across it. The interpreter runs a program's ops
//   in order, so it is a no-op there.
// * dot(a[M,K], b[K,N], acc[M,N]) = acc + a @ b. Integer dots wrap like any
//   integer sum. For floats the interpreter adds acc and the products in k
//   order with one fma each; the GPU may add them in another order (tensor
//   cores sum a k-step of exact f16/bf16 products at once), so each result
//   may differ from the interpreter's by the rounding of a reordered f32 sum:
//   at most about K * 2^-22 * (|acc| + sum over k of |a[m,k] * b[k,n]|)
//   (tensor cores may truncate where the interpreter rounds). Attention-like
//   kernels that round such a sum to f16 before using it may see that
//   rounding go the other way: an f16 ulp. With precision = "tf32" (f32
//   operands only; Triton's input_precision), a and b are first cut to
//   TF32, their mantissa's low 13 bits dropped, as the tensor cores read
//   them; the default, "ieee" (or no attribute), multiplies full f32.
// * for %lo, %hi, %step, inits... runs its body with iv = lo, lo+step, ...
//   while iv < hi (step > 0); the body yields the next carried values; the
//   results are the last carried values. if has a then and an else region,
//   each yielding the results. while has a condition region (carried values
//   in, one i1 yielded) and a body region (carried values in and out).
//
//===----------------------------------------------------------------------===//
#pragma once

#include "ir/Attr.h"
#include "ir/Location.h"
#include "ir/Type.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace twintile::ir {

enum class OpKind : uint8_t {
#define TT_OP(Kind, Name, MinOps, MaxOps, NumResults, NumRegions, Traits, Attrs, Family, Surface) Kind,
#include "ir/Ops.def"
};

/// How an op is evaluated and lowered: every consumer that treats ops by
/// kind dispatches on this first (a switch over it has no default), then on
/// the kind inside the family.
enum class OpFamily : uint8_t {
  Source,     // program_id, num_programs, constant, arange: values from nothing
  Shape,      // splat, broadcast, expand_dims, reshape, trans: elements moved
  Unary,      // elementwise, one operand
  Binary,     // elementwise, two operands of the result's type
  Compare,    // elementwise, two operands, result i1
  Select,     // select(cond, a, b)
  Fma,        // fma(a, b, c)
  Cast,       // element type conversion
  Address,    // addptr
  Memory,     // load, store, atomics
  Descriptor, // descriptor_load, descriptor_store: a block of a strided tensor
  Reduction,  // removes an axis
  Scan,       // keeps the axis: prefix along it
  Combine,    // reduce, scan: a reduction or a scan by the op's region
  Dot,        // matrix multiply-accumulate
  Hint,       // multiple_of, max_contiguous: the operand, with a promise about it
  Debug,      // device_print, device_assert
  Control,    // for, if, while, yield, return
};

/// An op's family, known at compile time (the header's language table is
/// checked against it).
constexpr OpFamily familyOf(OpKind k) {
  switch (k) {
#define TT_OP(Kind, Name, MinOps, MaxOps, NumResults, NumRegions, Traits, Attrs, Family, Surface) \
  case OpKind::Kind:                                                                             \
    return OpFamily::Family;
#include "ir/Ops.def"
  }
  return OpFamily::Control;
}

/// Case labels for every op of the families Unary, Binary, Compare and Fma:
/// one list for the switches that must name every kind (type rules,
/// interpreter, lowering), checked against the table below.
#define TT_ARITH_CASES                                                                                         \
  case OpKind::Neg: case OpKind::Not: case OpKind::Abs: case OpKind::Exp: case OpKind::Exp2: case OpKind::Log: \
  case OpKind::Log2: case OpKind::Sqrt: case OpKind::Rsqrt: case OpKind::Sin: case OpKind::Cos:               \
  case OpKind::Tanh: case OpKind::Sigmoid: case OpKind::Floor: case OpKind::Ceil: case OpKind::Erf:           \
  case OpKind::Log1p: case OpKind::Expm1: case OpKind::Round: case OpKind::Rint:                             \
  case OpKind::Pow: case OpKind::Umulhi: case OpKind::Add: case OpKind::Sub: case OpKind::Mul:                \
  case OpKind::Div: case OpKind::Rem: case OpKind::Minimum: case OpKind::Maximum: case OpKind::And:           \
  case OpKind::Or: case OpKind::Xor: case OpKind::Shl: case OpKind::Shr: case OpKind::Eq: case OpKind::Ne:    \
  case OpKind::Lt: case OpKind::Le: case OpKind::Gt: case OpKind::Ge: case OpKind::Fma

inline constexpr int kNumOpKinds = 0
#define TT_OP(Kind, Name, MinOps, MaxOps, NumResults, NumRegions, Traits, Attrs, Family, Surface) +1
#include "ir/Ops.def"
    ;

namespace detail {
constexpr bool arithCasesComplete() {
  for (int i = 0; i < kNumOpKinds; ++i) {
    auto k = static_cast<OpKind>(i);
    bool listed = false;
    switch (k) {
    TT_ARITH_CASES:
      listed = true;
      break;
    default: break;
    }
    OpFamily f = familyOf(k);
    if (listed != (f == OpFamily::Unary || f == OpFamily::Binary || f == OpFamily::Compare || f == OpFamily::Fma))
      return false;
  }
  return true;
}
} // namespace detail
static_assert(detail::arithCasesComplete(), "TT_ARITH_CASES must list exactly the Unary, Binary, Compare and Fma ops of Ops.def");

/// A read-modify-write of memory: every Memory op but load and store.
constexpr bool isAtomic(OpKind k) { return familyOf(k) == OpFamily::Memory && k != OpKind::Load && k != OpKind::Store; }
/// The operand a memory op writes (store, atomics; atomic_cas: the new value).
constexpr int valueOperand(OpKind k) { return k == OpKind::AtomicCas ? 2 : 1; }
/// The operand that holds a memory op's mask, if it has one (atomic_cas has none).
constexpr int maskOperand(OpKind k) { return k == OpKind::Load ? 1 : k == OpKind::AtomicCas ? 3 : 2; }
/// Atomics' memory orders and scopes, by the index the language's
/// enumerations give them (tt::Sem, tt::Scope); absent attributes are
/// the first of each.
inline constexpr std::string_view kAtomicSems[] = {"relaxed", "acquire", "release", "acq_rel"};
inline constexpr std::string_view kAtomicScopes[] = {"gpu", "cta", "sys"};
/// The cache and eviction hints of load and store (attributes `cache` and
/// `evict`), in the order of the language's tt::Cache and tt::Evict ("": none).
inline constexpr std::string_view kCacheModifiers[] = {"", "ca", "cg", "cv", "wb", "cs", "wt", "volatile"};
inline constexpr std::string_view kEvictionPolicies[] = {"", "evict_first", "evict_last"};

/// How the language writes an op ("exp", "+"; "" if no call is this op alone).
constexpr std::string_view surfaceOf(OpKind k) {
  switch (k) {
#define TT_OP(Kind, Name, MinOps, MaxOps, NumResults, NumRegions, Traits, Attrs, Family, Surface) \
  case OpKind::Kind:                                                                             \
    return Surface;
#include "ir/Ops.def"
  }
  return "";
}

/// Properties of an op kind, used generically by every consumer of the table.
enum OpTrait : unsigned {
  Pure = 1u << 0,          // no side effects: may be CSE'd and removed when unused
  Elementwise = 1u << 1,   // applies per element; operands share the result's shape
  Commutative = 1u << 2,
  Compare = 1u << 3,       // elementwise, result i1
  FloatOnly = 1u << 4,
  IntOnly = 1u << 5,
  ExplicitType = 1u << 6,  // result type chosen by the creator, not inferred
  ReadsMemory = 1u << 7,
  WritesMemory = 1u << 8,
  Reduction = 1u << 9,     // removes its axis
  Terminator = 1u << 10,
  // The backend may compute it again from its operands, in any layout and
  // for any loop iteration: no memory, no communication between threads.
  // Every Elementwise op is; the table marks the others (OpInfo::recomputable).
  Recomputable = 1u << 11,
};

struct OpInfo {
  OpKind kind;
  std::string_view name;
  int minOperands;
  int maxOperands;  // -1: variadic
  int numResults;   // -1: one per carried value
  int numRegions;
  unsigned traits;
  std::vector<std::string_view> attrs;     // required attribute names
  std::vector<std::string_view> optional;  // attributes it may have ("?name" in Ops.def)
  OpFamily family;
  std::string_view surface;             // how the language writes it, or ""

  bool has(OpTrait t) const { return (traits & t) != 0; }
  /// Elementwise, or marked Recomputable: what the backend evaluates again
  /// where it needs a value in another layout (Layout.h's recomputable) or a
  /// later iteration's address (the pipeliner), instead of moving it.
  bool recomputable() const { return has(Recomputable) || has(Elementwise); }
};

const OpInfo &opInfo(OpKind k);
/// The op kind named `name` in IR text, if any.
const OpInfo *lookupOp(std::string_view name);
/// Every op kind, in table order.
const std::vector<OpInfo> &allOps();
/// The op of `family` the language writes `surface` ("exp", "+"), if any.
const OpInfo *surfaceOp(std::string_view surface, OpFamily family);

class Op;
class Block;

/// An SSA value: the result of an Op or an argument of a Block.
class Value {
public:
  Value(Type type, Op *def, Block *owner, unsigned index)
      : type(std::move(type)), def(def), owner(owner), index(index) {}

  Type type;
  Op *def;        // defining op, or null for a block argument
  Block *owner;   // the block whose argument this is, or null for a result
  unsigned index; // result or argument number
  std::string name;  // a hint for printing (function parameters), may be empty
};

/// A straight-line list of ops with arguments, the body of a region.
class Block {
public:
  std::vector<std::unique_ptr<Value>> args;
  std::vector<std::unique_ptr<Op>> ops;
  Op *parentOp = nullptr;  // null for a function body

  Value *addArg(Type t, std::string name = {});
  Value *arg(size_t i) const { return args[i].get(); }
  /// The last op if it is a terminator, else null.
  Op *terminator() const;
  /// Removes `op` from this block and destroys it.
  void erase(Op *op);
  /// Moves `op` out of this block without destroying it.
  std::unique_ptr<Op> take(Op *op);
  /// Inserts `op` before `before` (at the end when null); returns it.
  Op *insert(Op *before, std::unique_ptr<Op> op);
};

class Op {
public:
  Op(OpKind kind, Location loc) : kind(kind), loc(std::move(loc)) {}

  OpKind kind;
  std::vector<Value *> operands;
  std::vector<std::unique_ptr<Value>> results;
  std::vector<std::unique_ptr<Block>> regions;
  AttrMap attrs;
  Location loc;
  Block *parent = nullptr;

  const OpInfo &info() const { return opInfo(kind); }
  std::string_view name() const { return info().name; }
  Value *result(size_t i = 0) const { return results[i].get(); }
  Value *operand(size_t i) const { return operands[i]; }
  Block &region(size_t i) const { return *regions[i]; }
  bool hasAttr(const std::string &n) const { return attrs.count(n) != 0; }
  const Attr &attr(const std::string &n) const { return attrs.at(n); }
  int64_t intAttr(const std::string &n) const { return attrs.at(n).i; }

  Value *addResult(Type t);
  Block &addRegion();
  /// Whether the op does more than compute its results: it writes memory
  /// (stores, atomics, prints, asserts), or it is a volatile load, which a
  /// spin-wait repeats until another program writes. Never removed when unused.
  bool hasEffects() const {
    return info().has(WritesMemory) || (kind == OpKind::Load && hasAttr("cache") && attr("cache").s == "volatile");
  }
};

/// The deepest software pipeline a kernel may ask for (num_stages).
inline constexpr int kMaxStages = 8;
/// A kernel's warps and pipelining depth when neither it nor the compile asks: Triton's.
inline constexpr int kDefaultNumWarps = 4;
inline constexpr int kDefaultNumStages = 3;
/// Why `n` cannot be a kernel's num_warps (a power of two from 1 to 32) or
/// num_stages (1 to kMaxStages): the message, or empty if it can. Every
/// place that takes one (IR text, kernel_options, the driver, the launch
/// API, the backend) refuses with these words.
std::string numWarpsProblem(int64_t n);
std::string numStagesProblem(int64_t n);

/// A kernel: parameters, meta-parameters it was specialized with, options.
class Func {
public:
  std::string name;
  Block body;  // arguments are the kernel's parameters
  std::vector<std::pair<std::string, Attr>> meta;  // e.g. BLOCK = 1024, in order
  int numWarps = kDefaultNumWarps;
  int numStages = 0;  // software-pipelining depth the kernel asks for; 0: the backend's choice
  Location loc;

  Value *param(size_t i) const { return body.arg(i); }
  size_t numParams() const { return body.args.size(); }
};

class Module {
public:
  std::vector<std::unique_ptr<Func>> funcs;
  Func *lookup(std::string_view name) const;
};

/// Calls `fn` on every op nested in `block`, parents before their regions.
void walk(Block &block, const std::function<void(Op &)> &fn);
/// The first op in the region of a reduce or scan that does not compute on
/// scalars alone (memory, control flow, a tile), or null when every op does.
const Op *nonScalarCombineOp(const Block &region);
void walk(const Block &block, const std::function<void(const Op &)> &fn);

/// A copy of `f` that shares nothing with it: values, ops and blocks anew,
/// in the same order, with the same types, names, attributes and locations.
std::unique_ptr<Func> clone(const Func &f);

/// Replaces every use of `from` inside `scope` (recursively) with `to`.
void replaceAllUsesWith(Block &scope, Value *from, Value *to);

/// Number of uses of each value defined in `scope`, for DCE and rewrites.
size_t countUses(const Block &scope, const Value *v);

} // namespace twintile::ir

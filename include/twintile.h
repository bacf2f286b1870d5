//===- twintile.h - the twintile kernel language ----------------------------===//
//
// One header defines the language that both front ends read: the parsing
// front end walks kernels written against these declarations, and the
// tracing front end runs them, with the definitions of `tt::detail` supplied
// by the trace library. The header includes no standard header, so that
// Clang parses it in a few milliseconds. Its parts, included here: the
// promotion rule (twintile/promote.h), the op table (twintile/ops.def), the
// device value classes and their operators (twintile/values.h), random
// numbers (twintile/random.h), carry(...) and the control-flow combinators
// (twintile/control.h), and sort/gather/histogram (twintile/algorithms.h).
//
// Staging is decided by type. Values of the language's types are device
// values, known only when the kernel runs:
//
//   i1 i8 i16 i32 i64 u8 u16 u32 u64     scalars: a mask, integers
//   f16 bf16 f32 f64                      and floats
//   Ptr<E>                                a pointer to elements of type E
//   Tile<E>                               a tile of E (or of Ptr<E>); its shape is
//                                         known when the kernel is specialized;
//                                         a 0-d tile is a scalar
//
// Values of ordinary C++ types are host values, known when the kernel is
// specialized: template parameters and parameters of plain C++ types are the
// kernel's meta-parameters. No device value converts to a host type, so the
// C++ type checker keeps the stages apart; host numbers convert to device
// values of the type they meet (`offs < n`, `x * 0.5f`).
//
// Operands of two element types compute in the type Triton promotes them to
// (twintile/promote.h; the recorder inserts the casts); convert explicitly
// with cast<T>(). Host literals take the type of the device operand they
// meet (Triton's "weak" scalars) unless their kind outranks it (`n * 0.5f`
// with an integer n is f32). Shapes broadcast as in NumPy.
//
// Device control flow is written with the combinators for_range, if_else and
// while_loop, which both front ends accept; native `if`/`for`/`while` over a
// device condition are read only by the parsing front end (a device i1's
// `explicit operator bool` is where the tracer refuses them). On masks, `!`,
// `&&` and `||` are Triton's `not`, `and` and `or`: element by element, both
// operands evaluated (no short circuit, as for any overloaded && in C++).
//===----------------------------------------------------------------------===//
#ifndef TWINTILE_H
#define TWINTILE_H

#include "twintile/promote.h"

/// Marks a kernel. The parsing front end looks kernels up by name; the
/// annotation lets it tell kernels from helpers.
#if defined(__clang__)
#define TT_KERNEL [[clang::annotate("twintile.kernel")]]
#else
#define TT_KERNEL
#endif

namespace tt {

//===-- Element types ---------------------------------------------------===//

class i1; class i8; class i16; class i32; class i64;
class u8; class u16; class u32; class u64;
class f16; class bf16; class f32; class f64;

namespace detail {
/// What a Ptr points to: a scalar element type. The name is the message
/// Clang shows (with the parameter's line) for Ptr<Ptr<f32>> or Ptr<int>.
template <class E> inline constexpr bool Ptr_points_to_an_element_type_i1_to_i64_u8_to_u64_f16_bf16_f32_or_f64__pass_each_buffer_as_its_own_Ptr = false;
#define TT_POINTEE_(E) \
  template <> inline constexpr bool Ptr_points_to_an_element_type_i1_to_i64_u8_to_u64_f16_bf16_f32_or_f64__pass_each_buffer_as_its_own_Ptr<E> = true;
TT_POINTEE_(i1) TT_POINTEE_(i8) TT_POINTEE_(i16) TT_POINTEE_(i32) TT_POINTEE_(i64)
TT_POINTEE_(u8) TT_POINTEE_(u16) TT_POINTEE_(u32) TT_POINTEE_(u64)
TT_POINTEE_(f16) TT_POINTEE_(bf16) TT_POINTEE_(f32) TT_POINTEE_(f64)
#undef TT_POINTEE_
template <class E> concept Pointee = Ptr_points_to_an_element_type_i1_to_i64_u8_to_u64_f16_bf16_f32_or_f64__pass_each_buffer_as_its_own_Ptr<E>;
} // namespace detail

template <detail::Pointee E> class Ptr;
template <class E> class Tile;

namespace detail {

/// An opaque device value (the tracer's IR value).
struct Node;

/// A source position, captured by default arguments at the call site.
struct Loc {
  const char *file;
  unsigned line;
  unsigned col;
};

#if defined(__clang__)
#define TT_HERE_ {__builtin_FILE(), __builtin_LINE(), __builtin_COLUMN()}
#else
#define TT_HERE_ {__builtin_FILE(), __builtin_LINE(), 0}
#endif

/// Element kinds, in the IR's order (ir::ScalarKind).
enum class Kind : unsigned char { I1, I8, I16, I32, I64, U8, U16, U32, U64, F16, BF16, F32, F64, Ptr };

template <class E> struct Elem;  // kind of a scalar element type
template <> struct Elem<i1> { static constexpr Kind kind = Kind::I1; };
template <> struct Elem<i8> { static constexpr Kind kind = Kind::I8; };
template <> struct Elem<i16> { static constexpr Kind kind = Kind::I16; };
template <> struct Elem<i32> { static constexpr Kind kind = Kind::I32; };
template <> struct Elem<i64> { static constexpr Kind kind = Kind::I64; };
template <> struct Elem<u8> { static constexpr Kind kind = Kind::U8; };
template <> struct Elem<u16> { static constexpr Kind kind = Kind::U16; };
template <> struct Elem<u32> { static constexpr Kind kind = Kind::U32; };
template <> struct Elem<u64> { static constexpr Kind kind = Kind::U64; };
template <> struct Elem<f16> { static constexpr Kind kind = Kind::F16; };
template <> struct Elem<bf16> { static constexpr Kind kind = Kind::BF16; };
template <> struct Elem<f32> { static constexpr Kind kind = Kind::F32; };
template <> struct Elem<f64> { static constexpr Kind kind = Kind::F64; };
template <class E> struct Elem<Ptr<E>> {
  static constexpr Kind kind = Kind::Ptr;
  static constexpr Kind pointee = Elem<E>::kind;
};

/// The static type of a device value: element kind, pointee, tile or scalar.
/// Four bytes, not three: passed and returned as a 32-bit integer, which the
/// host's fast instruction selector (the tracer's code generation, -O0)
/// takes, where a 24-bit one sends the whole function to the slow one.
struct TypeCode {
  Kind kind;
  Kind pointee;
  bool tile;
  unsigned char unused = 0;
};
static_assert(sizeof(TypeCode) == 4);

template <class V> struct Traits;  // for every device value type V
template <class E> struct ScalarTraits {
  using Element = E;
  using Scalar = E;
  using Bool = i1;
  static constexpr bool isTile = false;
};
template <> struct Traits<i1> : ScalarTraits<i1> {};
template <> struct Traits<i8> : ScalarTraits<i8> {};
template <> struct Traits<i16> : ScalarTraits<i16> {};
template <> struct Traits<i32> : ScalarTraits<i32> {};
template <> struct Traits<i64> : ScalarTraits<i64> {};
template <> struct Traits<u8> : ScalarTraits<u8> {};
template <> struct Traits<u16> : ScalarTraits<u16> {};
template <> struct Traits<u32> : ScalarTraits<u32> {};
template <> struct Traits<u64> : ScalarTraits<u64> {};
template <> struct Traits<f16> : ScalarTraits<f16> {};
template <> struct Traits<bf16> : ScalarTraits<bf16> {};
template <> struct Traits<f32> : ScalarTraits<f32> {};
template <> struct Traits<f64> : ScalarTraits<f64> {};
template <class E> struct Traits<Ptr<E>> : ScalarTraits<Ptr<E>> {};
template <class E> struct Traits<Tile<E>> {
  using Element = E;
  using Scalar = E;
  using Bool = Tile<i1>;
  static constexpr bool isTile = true;
};

template <class V> constexpr TypeCode typeCode() {
  using E = typename Traits<V>::Element;
  Kind pointee = Kind::I32;
  if constexpr (Elem<E>::kind == Kind::Ptr) pointee = Elem<E>::pointee;
  return {Elem<E>::kind, pointee, Traits<V>::isTile};
}

template <class V> concept Device = requires { typename Traits<V>::Element; };

constexpr bool isIntKind(Kind k) { return k <= Kind::U64; }
constexpr bool isFloatKind(Kind k) { return k >= Kind::F16 && k <= Kind::F64; }
template <class V> concept IntDevice = Device<V> && isIntKind(Elem<typename Traits<V>::Element>::kind);
template <class V> concept FloatDevice = Device<V> && isFloatKind(Elem<typename Traits<V>::Element>::kind);
template <class V> concept PtrDevice = Device<V> && Elem<typename Traits<V>::Element>::kind == Kind::Ptr;
template <class V> concept NumericDevice = IntDevice<V> || FloatDevice<V>;

template <class T, class U> constexpr bool same = false;
template <class T> constexpr bool same<T, T> = true;
template <class T> constexpr bool IsPtr = false;
template <class E> constexpr bool IsPtr<Ptr<E>> = true;

/// W is a number on the device whose element type differs from V's.
template <class V, class W>
concept OtherElement = NumericDevice<W> && !same<typename Traits<V>::Element, typename Traits<W>::Element>;

template <bool C, class T, class F> struct If { using type = T; };
template <class T, class F> struct If<false, T, F> { using type = F; };

template <class V, class E> struct Rebind;  // V's shape kind, element E
template <class V, class E> requires (!Traits<V>::isTile) struct Rebind<V, E> { using type = E; };
template <class V, class E> requires Traits<V>::isTile struct Rebind<V, E> { using type = Tile<E>; };

/// The C++ element type of a promotion::K.
template <promotion::K> struct KindType;
template <> struct KindType<promotion::K::I1> { using type = i1; };
template <> struct KindType<promotion::K::I8> { using type = i8; };
template <> struct KindType<promotion::K::I16> { using type = i16; };
template <> struct KindType<promotion::K::I32> { using type = i32; };
template <> struct KindType<promotion::K::I64> { using type = i64; };
template <> struct KindType<promotion::K::U8> { using type = u8; };
template <> struct KindType<promotion::K::U16> { using type = u16; };
template <> struct KindType<promotion::K::U32> { using type = u32; };
template <> struct KindType<promotion::K::U64> { using type = u64; };
template <> struct KindType<promotion::K::F16> { using type = f16; };
template <> struct KindType<promotion::K::BF16> { using type = bf16; };
template <> struct KindType<promotion::K::F32> { using type = f32; };
template <> struct KindType<promotion::K::F64> { using type = f64; };

/// An operator between numbers V and W of two element types: the element
/// type they compute in (Triton's promotion, twintile/promote.h), the
/// result (a tile if either is) and its comparison's mask. Nothing for
/// anything else, so that an operator's overload on it is discarded quietly.
template <class V, class W, bool DivOrMod> struct Mixed {};
template <NumericDevice V, NumericDevice W, bool DivOrMod> struct Mixed<V, W, DivOrMod> {
  static constexpr promotion::K kind =
      promotion::promote(static_cast<promotion::K>(Elem<typename Traits<V>::Element>::kind),
                         static_cast<promotion::K>(Elem<typename Traits<W>::Element>::kind), DivOrMod);
  using Element = typename KindType<kind>::type;
  static constexpr bool tile = Traits<V>::isTile || Traits<W>::isTile;
  using type = typename If<tile, Tile<Element>, Element>::type;
  using Bool = typename If<tile, Tile<i1>, i1>::type;
};
/// W assigns to a variable of type V by conversion: another element type
/// that promotes to V's (an i32 into an i64, a scalar into a tile of the
/// same kind), as a C++ variable of a wider type takes a narrower value.
template <class V, class W>
concept Widening = OtherElement<V, W> && same<typename Mixed<V, W, false>::type, V>;
/// T is a tile that may hold a 0-d value for the scalar variable V: of V's
/// element type or a narrower one (checked to be 0-d when it runs).
template <class V, class T>
concept ZeroDInto = !Traits<V>::isTile && Traits<T>::isTile &&
                    (same<typename Traits<T>::Element, V> || Widening<V, typename Traits<T>::Element>);



// What the language refuses, refused by a deleted overload whose reason
// Clang prints at the user's line (C++26's `= delete("why")`, an extension
// Clang 19 accepts in C++20).
#if defined(__clang__) && __clang_major__ >= 19
#define TT_REFUSED_(why) = delete(why)
#else
#define TT_REFUSED_(why) = delete
#endif
#define TT_WIDENS_ "the other operand's type is wider than this variable's (or unsigned where it is signed), whose type cannot change: write `auto y = x + v` (or cast<T>(v) the other operand)"
#define TT_BITWISE_ "bitwise operators take integers: convert a float with cast<T>(x), or take its bits with bitcast<T>(x)"
#define TT_HOST_ACC_ "a host number cannot hold a device value: declare the variable as one, such as `f32 acc = 0.0f` or `Tile<f32> acc = 0.0f`"
#define TT_UNSIGNED_BOUND_ "a device loop's bounds and step are signed integers (i32 or i64): cast<i32>(n) or cast<i64>(n) an unsigned one"
#define TT_REDUCE_TWO_ "reductions take a tile and a host int axis (sum(x, 0)); for two values element by element write minimum(a, b), maximum(a, b) or a + b"
#define TT_LOGICAL_ "'&&', '||' and '!' take masks (device i1): make one with a comparison, such as x != 0"
#define TT_BOOL_MASK_ "a mask is a device i1, and this one is a C++ bool (host values compared?): compare device values to make a mask, or leave the mask out"
#define TT_INT_TO_PTR_ "no value becomes a pointer (Triton's int_to_ptr, .to(tl.pointer_type(T)), a table of pointers): every buffer a kernel reads is a pointer parameter, so that the interpreter and the emulator check each access; pass the tensors as one buffer and a table of i64 element offsets into it, and read base + load(offsets + g)"

/// A mask or condition: a device i1 (a scalar or a tile).
template <class M> concept Mask = same<typename Traits<M>::Element, i1>;
template <class T> struct RemoveRef { using type = T; };
template <class T> struct RemoveRef<T &> { using type = T; };
template <class T> struct RemoveRef<T &&> { using type = T; };
template <class T> struct RemoveConst { using type = T; };
template <class T> struct RemoveConst<const T> { using type = T; };
template <class T> using Plain = typename RemoveConst<typename RemoveRef<T>::type>::type;

template <class T> constexpr bool hostInt =
    same<T, bool> || same<T, char> || same<T, signed char> || same<T, unsigned char> ||
    same<T, short> || same<T, unsigned short> || same<T, int> || same<T, unsigned> ||
    same<T, long> || same<T, unsigned long> || same<T, long long> || same<T, unsigned long long>;
template <class T> constexpr bool hostFloat = same<T, float> || same<T, double> || same<T, long double>;
template <class T> concept HostNumber = hostInt<T> || hostFloat<T>;
template <class T> concept HostIntLike = hostInt<T>;
template <class T> concept HostFloatLike = hostFloat<T>;

//===-- The tracer's entry points (defined by the trace library) --------===//

/// What the generic entry points record (twintile/ops.def names each op).
enum class Op : unsigned char {
#define TT_LANG_OP(Kind) Kind,
#define TT_LANG_UNARY(Kind, name, Accepts) Kind,
#define TT_LANG_REDUCE(Kind, name, Result) Kind,
#define TT_LANG_SCAN(Kind, name) Kind,
#define TT_LANG_ATOMIC(Kind, name) Kind,
#define TT_LANG_CAS(Kind, name) Kind,
#include "twintile/ops.def"
};
/// The same list as text: a kernel traced from its file passes its copy to
/// the twintile program that loads it, which refuses one that differs from
/// its own (a header edited or installed apart from the program would map
/// every Op to another op, silently).
inline constexpr char kOpTable[] =
#define TT_LANG_OP(Kind) #Kind ","
#define TT_LANG_UNARY(Kind, name, Accepts) #Kind ","
#define TT_LANG_REDUCE(Kind, name, Result) #Kind ","
#define TT_LANG_SCAN(Kind, name) #Kind ","
#define TT_LANG_ATOMIC(Kind, name) #Kind ","
#define TT_LANG_CAS(Kind, name) #Kind ","
#include "twintile/ops.def"
    "";

Node *constantInt(long long v, TypeCode t, Loc loc);
Node *constantUInt(unsigned long long v, TypeCode t, Loc loc);  // its value, above LLONG_MAX too
Node *constantFloat(double v, TypeCode t, Loc loc);
/// A host floating-point number given where an integer scalar is wanted
/// (`i32 s = 1.5f;`): an error at `loc`.
Node *refuseFloatToInt(TypeCode t, Loc loc);
Node *binary(Op op, Node *a, Node *b, Loc loc);
Node *unary(Op op, Node *a, Loc loc);
/// Triton's `and`/`or` (b given) or `not` (b null) of masks, placed where
/// the last device operand was made.
Node *logical(Op op, Node *a, Node *b);
/// A binary op recorded where no call-site position was captured (an
/// operator of a class's own), placed like logical().
Node *placed(Op op, Node *a, Node *b);
/// A tile given where a scalar is wanted: itself if it is 0-d, else an error
/// at `loc` (none: where the tile was made).
Node *scalarOf(Node *tile, Loc loc);
/// A reduction along `axis` (keepDims: the axis stays, of size 1), or over
/// every axis when `axis` is kAllAxes (a scalar).
Node *reduce(Op op, Node *a, int axis, bool keepDims, Loc loc);
inline constexpr int kAllAxes = -1000;
Node *addptr(Node *p, Node *offset, Loc loc);
Node *subptr(Node *p, Node *offset, Loc loc);  // p - k (an unsigned k widened first)
Node *select(Node *c, Node *a, Node *b, Loc loc);
Node *fma(Node *a, Node *b, Node *c, Loc loc);
Node *cast(Node *a, Kind to, Loc loc);
Node *bitcast(Node *a, Kind to, Loc loc);
/// multiple_of (contiguity false) or max_contiguous of `a`.
Node *hint(bool contiguity, Node *a, const int *values, int n, Loc loc);
Node *programId(int axis, Loc loc);
Node *numPrograms(int axis, Loc loc);
Node *arange(int start, int end, Loc loc);
Node *full(const int *shape, int rank, Node *value, Loc loc);
Node *expandDims(Node *a, int axis, Loc loc);
Node *broadcastTo(Node *a, const int *shape, int rank, Loc loc);
Node *reshape(Node *a, const int *shape, int rank, Loc loc);
Node *trans(Node *a, const int *perm, int rank, Loc loc);
/// cache and evict: indices of tt::Cache and tt::Evict.
Node *load(Node *ptr, Node *mask, Node *other, int cache, int evict, Loc loc);
void store(Node *ptr, Node *value, Node *mask, int cache, int evict, Loc loc);
/// An atomic (cmp: atomic_cas's expected values; sem and scope: indices of
/// tt::Sem and tt::Scope).
Node *atomic(Op op, Node *ptr, Node *cmp, Node *value, Node *mask, int sem, int scope, Loc loc);
Node *dot(Node *a, Node *b, Node *acc, int precision, Loc loc);
void print(const char *prefix, Node *const *values, int n, Loc loc);
void assertTrue(Node *cond, const char *msg, Loc loc);
void barrier(Loc loc);
void options(int numWarps, int numStages, Loc loc);
/// A device condition reached C++ control flow: the tracer stops here.
[[noreturn]] void nativeControlFlow(Node *cond);
/// `n`, which must have been assigned (a mask, an `other`, a value to store).
Node *present(Node *n, Loc loc);
/// The element kind of `n`'s value.
Kind kindOf(Node *n);
/// for_range's body takes its index as i32 (or is generic) where a bound is i64: an error at `loc`.
[[noreturn]] void refuseNarrowIndex(Loc loc);
/// A language algorithm's refusal of its arguments (twintile/algorithms.h), at the caller's `loc`.
[[noreturn]] void refuse(const char *message, Loc loc);
/// The size of `x` along `axis` (negative: from the end) and its rank, known while recording.
int shapeOf(Node *x, int axis, Loc loc);
int rankOf(Node *x, Loc loc);

// Structured control flow. A scope opens a region of the current op; the
// combinators below drive them.
struct Region;
Region *forBegin(Node *lo, Node *hi, Node *step, Node *const *inits, int n, Loc loc);
Region *ifBegin(Node *cond, Loc loc);
Region *whileBegin(Node *const *inits, int n);
Node *regionArg(Region *r, int i);
/// Ends the current region with a yield of `values`; for `if`, the then
/// region is followed by the else region (elseBegin).
void regionYield(Region *r, Node *const *values, int n, Loc loc);
void elseBegin(Region *r);
/// Closes the op and returns its i-th result (results are valid after end).
void regionEnd(Region *r);
Node *regionResult(Region *r, int i);
/// For a while loop: after the condition region, the body region.
void whileBody(Region *r);
/// reduce (scan false) or associative_scan of the n tiles `xs` (one shape)
/// along `axis` (kAllAxes: every axis); its region's 2n arguments are the
/// values to combine (the earlier element of each tile, then the later), and
/// combineEnd gives the n results once they are yielded.
Region *combineBegin(bool scan, Node *const *xs, int n, int axis, Loc loc);
void combineEnd(Region *r, bool keepDims, Loc loc, Node **out);

/// A host number H whose kind outranks device value V's element (a float
/// against an integer or a mask, an integer against a mask): Triton's
/// Python number then takes part in the promotion, as f32 or i32.
template <class V, class H>
concept HostOutranks = HostNumber<H> && NumericDevice<V> &&
                       ((hostFloat<H> && IntDevice<V>) || (hostInt<H> && !same<H, bool> &&
                                                           same<typename Traits<V>::Element, i1>));
template <class V, class H> struct HostPromoted {
  using Element = typename If<hostFloat<H>, f32, i32>::type;
  using type = typename Rebind<V, Element>::type;
};
/// A host bool meeting a mask (`mask && HAS_BIAS`): an i1 constant.
inline Node *hostBool(bool b, Loc l) { return constantInt(b, {Kind::I1, Kind::I32, false}, l); }
/// A host integer as a device constant of type t: an unsigned long long
/// keeps its value (0x9E3779B97F4A7C15ull is not negative).
template <class H> Node *intConstant(H h, TypeCode t, Loc l) {
  if constexpr (sizeof(H) == 8 && static_cast<H>(-1) > static_cast<H>(0)) return constantUInt(h, t, l);
  else return constantInt(static_cast<long long>(h), t, l);
}
/// That host number as a device constant: f32 or i32.
template <class H> Node *hostConstant(H h, Loc l) {
  if constexpr (hostFloat<H>) return constantFloat(static_cast<double>(h), {Kind::F32, Kind::I32, false}, l);
  else return intConstant(h, {Kind::I32, Kind::I32, false}, l);
}

#if defined(__clang__)
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wc++26-extensions"  // = delete("why")
#endif
/// The right side of V's compound assignment when its element type differs:
/// a device number that promotes to V's own type (`acc += load(f16s)` with
/// an f32 `acc`), recorded at the call site; one that would change V's type
/// is refused, since a C++ variable keeps its type.
template <class V, bool DivOrMod> struct Narrower {
  template <class W> requires OtherElement<V, W> && same<typename Mixed<V, W, DivOrMod>::type, V>
  Narrower(const W &w, Loc l = TT_HERE_) : node(w.node()), loc(l) {}
  template <class W> requires OtherElement<V, W> && (!same<typename Mixed<V, W, DivOrMod>::type, V>)
  Narrower(const W &, Loc = TT_HERE_) TT_REFUSED_(TT_WIDENS_);
  Node *node;
  Loc loc;
};
#if defined(__clang__)
#pragma clang diagnostic pop
#endif

/// Constructs a device value of type V from a node.
struct FromNode {};

} // namespace detail

} // namespace tt

#include "twintile/values.h"

namespace tt {

//===-- Result types of functions -----------------------------------------===//

namespace detail {


/// The common type of two operands (a tile if either is): of one element
/// type, that type; of two numeric ones, the type they promote to; a host
/// number takes the other's type; two host numbers, f32 or i32.
template <class A, class B> struct Common;
template <Device A, Device B>
  requires same<typename Traits<A>::Element, typename Traits<B>::Element>
struct Common<A, B> {
  using type = typename If<Traits<A>::isTile || Traits<B>::isTile, Tile<typename Traits<A>::Element>,
                           typename Traits<A>::Element>::type;
};
template <NumericDevice A, NumericDevice B> requires OtherElement<A, B>
struct Common<A, B> { using type = typename Mixed<A, B, false>::type; };
template <Device A, HostNumber B> struct Common<A, B> {
  using type = typename If<HostOutranks<A, B>, typename HostPromoted<A, B>::type, A>::type;
};
/// Two host numbers (`where(m, 1.0f, 0.0f)`): f32 if either is a float, else i32, as
/// Triton types Python's numbers.
template <HostNumber A, HostNumber B> struct Common<A, B> {
  using type = typename If<hostFloat<A> || hostFloat<B>, f32, i32>::type;
};
template <HostNumber A, Device B> struct Common<A, B> {
  using type = typename If<HostOutranks<B, A>, typename HostPromoted<B, A>::type, B>::type;
};
template <class A, class B> using CommonT = typename Common<Plain<A>, Plain<B>>::type;

/// The node of a value, converting a host number to the element type of `V`.
template <class V, class A> Node *nodeOf(const A &a, Loc loc) {
  if constexpr (Device<A>) return a.node();
  else return Operand<typename Traits<V>::Scalar>(a, loc).node;
}

template <class V> V make(Node *n) { return V(FromNode{}, n); }

} // namespace detail

//===-- Program identity, creation ----------------------------------------===//

inline i32 program_id(int axis, detail::Loc l = TT_HERE_) { return detail::make<i32>(detail::programId(axis, l)); }
inline i32 num_programs(int axis, detail::Loc l = TT_HERE_) { return detail::make<i32>(detail::numPrograms(axis, l)); }
inline Tile<i32> arange(int start, int end, detail::Loc l = TT_HERE_) {
  return detail::make<Tile<i32>>(detail::arange(start, end, l));
}
namespace detail {
/// `{}` as a shape: a 0-d tile (Triton's `tl.full((), v)`), which C++ cannot
/// deduce as an array of no elements.
struct NoShape {};
} // namespace detail
template <class E, detail::HostNumber H> Tile<E> full(detail::NoShape, H value, detail::Loc l = TT_HERE_) {
  return detail::make<Tile<E>>(detail::full(nullptr, 0, detail::Operand<E>(value, l).node, l));
}
template <class E> Tile<E> zeros(detail::NoShape, detail::Loc l = TT_HERE_) {
  return detail::make<Tile<E>>(detail::full(nullptr, 0, detail::Operand<E>(0, l).node, l));
}
template <class E, int N, detail::HostNumber H>
Tile<E> full(const int (&shape)[N], H value, detail::Loc l = TT_HERE_) {
  return detail::make<Tile<E>>(detail::full(shape, N, detail::Operand<E>(value, l).node, l));
}
template <class E, int N> Tile<E> zeros(const int (&shape)[N], detail::Loc l = TT_HERE_) {
  return detail::make<Tile<E>>(detail::full(shape, N, detail::Operand<E>(0, l).node, l));
}
namespace detail {
/// A device value converted to element type E (a no-op when it is E's).
template <class E, Device S> Node *asElement(const S &v, Loc l) {
  if constexpr (same<typename Traits<S>::Element, E>) return v.node();
  else return cast(v.node(), Elem<E>::kind, l);
}
} // namespace detail
/// full(shape, v) of a device scalar v (or a 0-d tile), converted to E, as
/// Triton's tl.full takes a size-1 tensor.
template <class E, int N, detail::NumericDevice S>
Tile<E> full(const int (&shape)[N], const S &value, detail::Loc l = TT_HERE_) {
  return detail::make<Tile<E>>(detail::full(shape, N, detail::asElement<E>(value, l), l));
}
template <class E, detail::NumericDevice S> Tile<E> full(detail::NoShape, const S &value, detail::Loc l = TT_HERE_) {
  return detail::make<Tile<E>>(detail::full(nullptr, 0, detail::asElement<E>(value, l), l));
}

/// Integer division rounding up, (a + b - 1) / b, as Triton's tl.cdiv: a
/// constant expression of two host integers (a meta-parameter helper), or a
/// device value of their common type.
template <class A, class B>
  requires detail::hostInt<A> && detail::hostInt<B>
constexpr auto cdiv(A a, B b) {  // in their common type: a 64-bit size stays 64-bit
  return (a + b - 1) / b;
}
template <class A, class B, class R = detail::CommonT<A, B>>
  requires(detail::Device<A> || detail::Device<B>) && detail::IntDevice<R> && (!detail::Mask<R>)
R cdiv(const A &a, const B &b, detail::Loc l = TT_HERE_) {
  detail::Node *x = detail::nodeOf<R>(a, l), *y = detail::nodeOf<R>(b, l);
  detail::Node *sum = detail::binary(detail::Op::Add, x, y, l);
  detail::Node *less = detail::binary(detail::Op::Sub, sum, detail::nodeOf<R>(1, l), l);
  return detail::make<R>(detail::binary(detail::Op::Div, less, y, l));
}

//===-- Shapes ------------------------------------------------------------===//

template <class E> Tile<E> expand_dims(const Tile<E> &x, int axis, detail::Loc l = TT_HERE_) {
  return detail::make<Tile<E>>(detail::expandDims(x.node(), axis, l));
}
template <class E, int N> Tile<E> broadcast_to(const Tile<E> &x, const int (&shape)[N], detail::Loc l = TT_HERE_) {
  return detail::make<Tile<E>>(detail::broadcastTo(x.node(), shape, N, l));
}
/// A scalar broadcast to `shape`: full(shape, x).
template <detail::Device S, int N>
  requires(!detail::Traits<S>::isTile)
Tile<typename detail::Traits<S>::Element> broadcast_to(const S &x, const int (&shape)[N], detail::Loc l = TT_HERE_) {
  return detail::make<Tile<typename detail::Traits<S>::Element>>(detail::broadcastTo(x.node(), shape, N, l));
}
template <class E, int N> Tile<E> reshape(const Tile<E> &x, const int (&shape)[N], detail::Loc l = TT_HERE_) {
  return detail::make<Tile<E>>(detail::reshape(x.node(), shape, N, l));
}
/// Transposes a 2-D tile.
template <class E> Tile<E> trans(const Tile<E> &x, detail::Loc l = TT_HERE_) {
  const int perm[2] = {1, 0};
  return detail::make<Tile<E>>(detail::trans(x.node(), perm, 2, l));
}
template <class E, int N> Tile<E> trans(const Tile<E> &x, const int (&perm)[N], detail::Loc l = TT_HERE_) {
  return detail::make<Tile<E>>(detail::trans(x.node(), perm, N, l));
}

//===-- Elementwise functions ---------------------------------------------===//

#define TT_LANG_UNARY(Kind, name, Accepts)                                    \
  template <detail::Accepts V> V name(const V &x, detail::Loc l = TT_HERE_) { \
    return detail::make<V>(detail::unary(detail::Op::Kind, x.node(), l));     \
  }
#include "twintile/ops.def"

template <class A, class B, class R = detail::CommonT<A, B>>
R minimum(const A &a, const B &b, detail::Loc l = TT_HERE_) {
  return detail::make<R>(detail::binary(detail::Op::Minimum, detail::nodeOf<R>(a, l), detail::nodeOf<R>(b, l), l));
}
template <class A, class B, class R = detail::CommonT<A, B>>
R maximum(const A &a, const B &b, detail::Loc l = TT_HERE_) {
  return detail::make<R>(detail::binary(detail::Op::Maximum, detail::nodeOf<R>(a, l), detail::nodeOf<R>(b, l), l));
}
/// clamp(x, lo, hi): minimum(maximum(x, lo), hi), Triton's tl.clamp (where
/// lo > hi is undefined; here hi wins).
template <class X, class A, class B> requires detail::NumericDevice<X>
auto clamp(const X &x, const A &lo, const B &hi, detail::Loc l = TT_HERE_) {
  return minimum(maximum(x, lo, l), hi, l);
}
/// pow(a, b): a raised to b, for floats (C's pow, NaN for a negative a and a
/// b that is not an integer).
template <class A, class B, class R = detail::CommonT<A, B>>
  requires detail::FloatDevice<R>
R pow(const A &a, const B &b, detail::Loc l = TT_HERE_) {
  return detail::make<R>(detail::binary(detail::Op::Pow, detail::nodeOf<R>(a, l), detail::nodeOf<R>(b, l), l));
}
/// umulhi(a, b): the high half of the product of a and b's bits read as
/// unsigned integers (CUDA's __umulhi, Triton's umulhi).
template <class A, class B, class R = detail::CommonT<A, B>>
  requires detail::IntDevice<R>
R umulhi(const A &a, const B &b, detail::Loc l = TT_HERE_) {
  return detail::make<R>(detail::binary(detail::Op::Umulhi, detail::nodeOf<R>(a, l), detail::nodeOf<R>(b, l), l));
}
/// where(cond, a, b): a where cond holds, else b.
template <class C, class A, class B, class R = detail::CommonT<A, B>>
  requires detail::same<typename detail::Traits<C>::Element, i1>
auto where(const C &cond, const A &a, const B &b, detail::Loc l = TT_HERE_) {
  using E = typename detail::Traits<R>::Element;
  using Out = typename detail::If<detail::Traits<C>::isTile || detail::Traits<R>::isTile, Tile<E>, E>::type;
  return detail::make<Out>(detail::select(cond.node(), detail::nodeOf<R>(a, l), detail::nodeOf<R>(b, l), l));
}
/// where on a host condition (a meta-parameter, Triton's constexpr one): a
/// select on a constant, which folds to a or b.
template <class A, class B, class R = detail::CommonT<A, B>>
auto where(bool cond, const A &a, const B &b, detail::Loc l = TT_HERE_) {
  using E = typename detail::Traits<R>::Element;
  using Out = typename detail::If<detail::Traits<R>::isTile, Tile<E>, E>::type;
  return detail::make<Out>(
      detail::select(detail::hostBool(cond, l), detail::nodeOf<R>(a, l), detail::nodeOf<R>(b, l), l));
}
/// isnan(x), isinf(x), isfinite(x): masks of a float's class, as Triton's
/// are: x != x, |x| == inf, |x| < inf.
template <detail::FloatDevice V> typename detail::Traits<V>::Bool isnan(const V &x, detail::Loc l = TT_HERE_) {
  return detail::make<typename detail::Traits<V>::Bool>(detail::binary(detail::Op::Ne, x.node(), x.node(), l));
}
template <detail::FloatDevice V> typename detail::Traits<V>::Bool isinf(const V &x, detail::Loc l = TT_HERE_) {
  detail::Node *a = detail::unary(detail::Op::Abs, x.node(), l);
  return detail::make<typename detail::Traits<V>::Bool>(detail::binary(detail::Op::Eq, a, detail::nodeOf<V>(inf, l), l));
}
template <detail::FloatDevice V> typename detail::Traits<V>::Bool isfinite(const V &x, detail::Loc l = TT_HERE_) {
  detail::Node *a = detail::unary(detail::Op::Abs, x.node(), l);
  return detail::make<typename detail::Traits<V>::Bool>(detail::binary(detail::Op::Lt, a, detail::nodeOf<V>(inf, l), l));
}
template <detail::FloatDevice V> V fma(const V &a, const V &b, const V &c, detail::Loc l = TT_HERE_) {
  return detail::make<V>(detail::fma(a.node(), b.node(), c.node(), l));
}
/// Converts to element type T, keeping the shape.
template <class T, detail::Device V>
  requires(!detail::IsPtr<T>)
typename detail::Rebind<V, T>::type cast(const V &x, detail::Loc l = TT_HERE_) {
  return detail::make<typename detail::Rebind<V, T>::type>(detail::cast(x.node(), detail::Elem<T>::kind, l));
}
/// A host number as a device scalar of element type T, converted as a device
/// value of its kind would be (Triton's constexpr.to(T)): cast<u32>(-1) is
/// 4294967295, cast<i32>(2.5f) is 2.
template <class T, detail::HostNumber H>
  requires(!detail::IsPtr<T>)
T cast(H v, detail::Loc l = TT_HERE_) {
  using Wide = typename detail::If<detail::hostFloat<H>, f64,
                                   typename detail::If<(sizeof(H) == 8 && static_cast<H>(-1) > static_cast<H>(0)), u64,
                                                       i64>::type>::type;
  return cast<T>(Wide(v, l), l);
}
/// No integer becomes a pointer: refused with what to write instead.
#if defined(__clang__)
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wc++26-extensions"  // = delete("why")
#endif
template <class T, detail::Device V>
  requires detail::IsPtr<T>
T cast(const V &x, detail::Loc l = TT_HERE_) TT_REFUSED_(TT_INT_TO_PTR_);
template <class T, detail::Device V> Ptr<T> int_to_ptr(const V &x, detail::Loc l = TT_HERE_) TT_REFUSED_(TT_INT_TO_PTR_);
#if defined(__clang__)
#pragma clang diagnostic pop
#endif
/// Promises about an integer value the backend takes as given (Triton's
/// tl.multiple_of, tl.max_contiguous; ir/IR.h): one value for every
/// dimension, or one per dimension ({16, 1}).
template <detail::IntDevice V> V multiple_of(const V &x, int value, detail::Loc l = TT_HERE_) {
  return detail::make<V>(detail::hint(false, x.node(), &value, 1, l));
}
template <detail::IntDevice V, int N> V multiple_of(const V &x, const int (&values)[N], detail::Loc l = TT_HERE_) {
  return detail::make<V>(detail::hint(false, x.node(), values, N, l));
}
template <detail::IntDevice V> V max_contiguous(const V &x, int value, detail::Loc l = TT_HERE_) {
  return detail::make<V>(detail::hint(true, x.node(), &value, 1, l));
}
template <detail::IntDevice V, int N> V max_contiguous(const V &x, const int (&values)[N], detail::Loc l = TT_HERE_) {
  return detail::make<V>(detail::hint(true, x.node(), values, N, l));
}
/// Reinterprets the bits of each element as T, of the same width (f32 <-> i32,
/// f16/bf16 <-> i16, f64 <-> i64), keeping the shape.
template <class T, detail::Device V>
typename detail::Rebind<V, T>::type bitcast(const V &x, detail::Loc l = TT_HERE_) {
  return detail::make<typename detail::Rebind<V, T>::type>(detail::bitcast(x.node(), detail::Elem<T>::kind, l));
}

//===-- Memory ------------------------------------------------------------===//

namespace detail {
template <class E> struct PtrElem;
template <class E> struct PtrElem<Ptr<E>> { using type = E; };
template <class P> using LoadT = typename Rebind<P, typename PtrElem<typename Traits<P>::Element>::type>::type;
} // namespace detail

/// Where a load or store keeps its data (Triton's cache_modifier and
/// eviction_policy): PTX's cache operators (load: Ca, Cg, Cv; store: Wb, Cg,
/// Cs, Wt) or an L1 eviction priority, not both. Hints never change values:
/// `load(p, mask, other, {.cache_modifier = Cache::Cg})`,
/// `store(p, v, {.eviction_policy = Evict::First})`.
/// Volatile (loads): Triton's `volatile=True`, PTX's ld.volatile, read from
/// memory every time (a flag another program sets); it takes the place of a
/// cache operator, as in PTX.
enum class Cache { Default, Ca, Cg, Cv, Wb, Cs, Wt, Volatile };
enum class Evict { Normal, First, Last };
struct MemoryHints {
  Cache cache_modifier = Cache::Default;
  Evict eviction_policy = Evict::Normal;
};

template <detail::PtrDevice P> detail::LoadT<P> load(const P &ptrs, MemoryHints h = {}, detail::Loc l = TT_HERE_) {
  return detail::make<detail::LoadT<P>>(
      detail::load(ptrs.node(), nullptr, nullptr, static_cast<int>(h.cache_modifier), static_cast<int>(h.eviction_policy), l));
}
template <detail::PtrDevice P, detail::Mask M>
detail::LoadT<P> load(const P &ptrs, const M &mask, MemoryHints h = {}, detail::Loc l = TT_HERE_) {
  return detail::make<detail::LoadT<P>>(detail::load(ptrs.node(), detail::present(mask.node(), l), nullptr,
                                                     static_cast<int>(h.cache_modifier), static_cast<int>(h.eviction_policy), l));
}
template <detail::PtrDevice P, detail::Mask M, class O>
detail::LoadT<P> load(const P &ptrs, const M &mask, const O &other, MemoryHints h = {}, detail::Loc l = TT_HERE_) {
  return detail::make<detail::LoadT<P>>(detail::load(ptrs.node(), detail::present(mask.node(), l),
                                                     detail::present(detail::nodeOf<detail::LoadT<P>>(other, l), l),
                                                     static_cast<int>(h.cache_modifier), static_cast<int>(h.eviction_policy), l));
}
template <detail::PtrDevice P, class V>
void store(const P &ptrs, const V &value, MemoryHints h = {}, detail::Loc l = TT_HERE_) {
  detail::store(ptrs.node(), detail::nodeOf<detail::LoadT<P>>(value, l), nullptr, static_cast<int>(h.cache_modifier),
                static_cast<int>(h.eviction_policy), l);
}
template <detail::PtrDevice P, class V, detail::Mask M>
void store(const P &ptrs, const V &value, const M &mask, MemoryHints h = {}, detail::Loc l = TT_HERE_) {
  detail::store(ptrs.node(), detail::nodeOf<detail::LoadT<P>>(value, l), detail::present(mask.node(), l),
                static_cast<int>(h.cache_modifier), static_cast<int>(h.eviction_policy), l);
}

} // namespace tt

#include "twintile/descriptor.h"

namespace tt {

/// Atomics: each element one atomic access, returning the old values. `sem`
/// orders the program's other accesses around it (relaxed by default, where
/// Triton's default is acq_rel: see ir/IR.h), at `scope`.
enum class Sem { Relaxed, Acquire, Release, AcqRel };
enum class Scope { Gpu, Cta, Sys };

#define TT_LANG_ATOMIC(Kind, name)                                                                                \
  template <detail::PtrDevice P, class V>                                                                         \
  detail::LoadT<P> name(const P &ptrs, const V &value, detail::Loc l = TT_HERE_) {                                \
    return detail::make<detail::LoadT<P>>(detail::atomic(detail::Op::Kind, ptrs.node(), nullptr,                  \
                                                         detail::nodeOf<detail::LoadT<P>>(value, l), nullptr, 0, 0, l)); \
  }                                                                                                               \
  template <detail::PtrDevice P, class V>                                                                         \
  detail::LoadT<P> name(const P &ptrs, const V &value, Sem sem, Scope scope = Scope::Gpu,                         \
                        detail::Loc l = TT_HERE_) {                                                               \
    return detail::make<detail::LoadT<P>>(detail::atomic(detail::Op::Kind, ptrs.node(), nullptr,                  \
                                                         detail::nodeOf<detail::LoadT<P>>(value, l), nullptr,     \
                                                         static_cast<int>(sem), static_cast<int>(scope), l));     \
  }                                                                                                               \
  template <detail::PtrDevice P, class V, detail::Mask M>                                                         \
  detail::LoadT<P> name(const P &ptrs, const V &value, const M &mask, Sem sem = Sem::Relaxed,                     \
                        Scope scope = Scope::Gpu, detail::Loc l = TT_HERE_) {                                     \
    return detail::make<detail::LoadT<P>>(detail::atomic(detail::Op::Kind, ptrs.node(), nullptr,                  \
                                                         detail::nodeOf<detail::LoadT<P>>(value, l),              \
                                                         detail::present(mask.node(), l), static_cast<int>(sem),  \
                                                         static_cast<int>(scope), l));                            \
  }
#define TT_LANG_CAS(Kind, name)                                                                                   \
  template <detail::PtrDevice P, class C, class V>                                                                \
  detail::LoadT<P> name(const P &ptrs, const C &cmp, const V &value, Sem sem = Sem::Relaxed,                      \
                        Scope scope = Scope::Gpu, detail::Loc l = TT_HERE_) {                                     \
    return detail::make<detail::LoadT<P>>(detail::atomic(                                                         \
        detail::Op::Kind, ptrs.node(), detail::nodeOf<detail::LoadT<P>>(cmp, l),                                  \
        detail::nodeOf<detail::LoadT<P>>(value, l), nullptr, static_cast<int>(sem), static_cast<int>(scope), l));  \
  }
#include "twintile/ops.def"

// A C++ bool where a mask belongs: refused at the call with the fix (typed
// as the real operation, so that the error is said once, not again outside).
// The bool is deduced, so that `{}` (empty hints) is never taken for one.
#if defined(__clang__)
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wc++26-extensions"  // = delete("why")
#endif
namespace detail {
template <class B> concept CxxBool = same<B, bool>;
}
template <detail::PtrDevice P, detail::CxxBool B>
detail::LoadT<P> load(const P &, B, detail::Loc = TT_HERE_) TT_REFUSED_(TT_BOOL_MASK_);
template <detail::PtrDevice P, detail::CxxBool B, class O>
detail::LoadT<P> load(const P &, B, const O &, detail::Loc = TT_HERE_) TT_REFUSED_(TT_BOOL_MASK_);
template <detail::PtrDevice P, class V, detail::CxxBool B>
void store(const P &, const V &, B, detail::Loc = TT_HERE_) TT_REFUSED_(TT_BOOL_MASK_);
#define TT_LANG_ATOMIC(Kind, name)                                                           \
  template <detail::PtrDevice P, class V, detail::CxxBool B>                                 \
  detail::LoadT<P> name(const P &, const V &, B, Sem = Sem::Relaxed, Scope = Scope::Gpu,     \
                        detail::Loc = TT_HERE_) TT_REFUSED_(TT_BOOL_MASK_);
#include "twintile/ops.def"
#if defined(__clang__)
#pragma clang diagnostic pop
#endif

//===-- Reductions, scans, dot ---------------------------------------------===//

#if defined(__clang__)
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wc++26-extensions"  // = delete("why")
#endif
/// Reductions remove `axis` (a 1-D tile reduces to a 0-d tile, a scalar),
/// keep it with size 1 when `keep_dims` is true, or reduce every axis when
/// none is given. argmax and argmin give i32 indices (over every axis: into
/// the tile read in row-major order). Scans (cumsum) keep the axis.
#define TT_LANG_REDUCE(Kind, name, Result)                                                                         \
  template <class E> Tile<Result> name(const Tile<E> &x, int axis, detail::Loc l = TT_HERE_) {                     \
    return detail::make<Tile<Result>>(detail::reduce(detail::Op::Kind, x.node(), axis, false, l));                 \
  }                                                                                                                \
  template <class E> Tile<Result> name(const Tile<E> &x, int axis, bool keep_dims, detail::Loc l = TT_HERE_) {     \
    return detail::make<Tile<Result>>(detail::reduce(detail::Op::Kind, x.node(), axis, keep_dims, l));             \
  }                                                                                                                \
  template <class E> Tile<Result> name(const Tile<E> &x, detail::Loc l = TT_HERE_) {                               \
    return detail::make<Tile<Result>>(detail::reduce(detail::Op::Kind, x.node(), detail::kAllAxes, false, l));     \
  }                                                                                                                \
  template <class V, class H> requires detail::Device<V> && (detail::Device<H> || detail::hostFloat<H>)            \
  int name(const V &, const H &, detail::Loc = TT_HERE_) TT_REFUSED_(TT_REDUCE_TWO_);
#define TT_LANG_SCAN(Kind, name)                                                                 \
  template <class E> Tile<E> name(const Tile<E> &x, int axis, detail::Loc l = TT_HERE_) {        \
    return detail::make<Tile<E>>(detail::reduce(detail::Op::Kind, x.node(), axis, false, l));     \
  }
#include "twintile/ops.def"
#if defined(__clang__)
#pragma clang diagnostic pop
#endif

namespace detail {
/// A combine function for elements of type E: callable with two of them.
template <class F, class E> concept Combiner = requires(const F &f, const E &a) { f(a, a); };

template <class E, class F> Node *combined(bool scan, Node *x, int axis, bool keepDims, const F &combine, Loc l) {
  Region *r = combineBegin(scan, &x, 1, axis, l);
  Node *out = nodeOf<E>(combine(make<E>(regionArg(r, 0)), make<E>(regionArg(r, 1))), l);
  regionYield(r, &out, 1, l);
  combineEnd(r, keepDims, l, &out);
  return out;
}
} // namespace detail

/// reduce(x, axis, combine) combines the elements along `axis` with
/// combine(a, b), a lambda or function object taking two scalars of x's
/// element type and returning one, as Triton's tl.reduce; keep_dims keeps the
/// axis, and reduce(x, combine) reduces every axis. The GPU combines in a
/// tree, in no fixed order: combine must be associative and commutative.
/// associative_scan(x, axis, combine) is the inclusive prefix combination
/// along `axis` (combine associative; the order of its operands is kept).
/// The function computes on its scalars only: no memory, no control flow.
template <class E, detail::Combiner<E> F>
Tile<E> reduce(const Tile<E> &x, int axis, const F &combine, detail::Loc l = TT_HERE_) {
  return detail::make<Tile<E>>(detail::combined<E>(false, x.node(), axis, false, combine, l));
}
template <class E, detail::Combiner<E> F>
Tile<E> reduce(const Tile<E> &x, int axis, const F &combine, bool keep_dims, detail::Loc l = TT_HERE_) {
  return detail::make<Tile<E>>(detail::combined<E>(false, x.node(), axis, keep_dims, combine, l));
}
template <class E, detail::Combiner<E> F> Tile<E> reduce(const Tile<E> &x, const F &combine, detail::Loc l = TT_HERE_) {
  return detail::make<Tile<E>>(detail::combined<E>(false, x.node(), detail::kAllAxes, false, combine, l));
}
template <class E, detail::Combiner<E> F>
Tile<E> associative_scan(const Tile<E> &x, int axis, const F &combine, detail::Loc l = TT_HERE_) {
  return detail::make<Tile<E>>(detail::combined<E>(true, x.node(), axis, false, combine, l));
}

/// How a dot of f32 tiles multiplies (Triton's input_precision): Ieee in
/// full f32 (the default), Tf32 on tensor cores, each operand cut to TF32's
/// 10-bit mantissa first.
enum class Precision { Ieee, Tf32 };

/// dot(a, b, acc) = acc + a @ b, for a [M, K] and b [K, N].
template <class E, class C>
Tile<C> dot(const Tile<E> &a, const Tile<E> &b, const Tile<C> &acc, detail::Loc l = TT_HERE_) {
  return detail::make<Tile<C>>(detail::dot(a.node(), b.node(), acc.node(), 0, l));
}
template <class E, class C>
Tile<C> dot(const Tile<E> &a, const Tile<E> &b, const Tile<C> &acc, Precision p, detail::Loc l = TT_HERE_) {
  return detail::make<Tile<C>>(detail::dot(a.node(), b.node(), acc.node(), static_cast<int>(p), l));
}

//===-- Debugging ---------------------------------------------------------===//

namespace detail {
/// The prefix of device_print, converted at the call site to record it.
struct Prefix {
  Prefix(const char *t, Loc l = TT_HERE_) : text(t), loc(l) {}
  const char *text;
  Loc loc;
};
} // namespace detail

template <detail::Device... Vs> void device_print(detail::Prefix prefix, const Vs &...values) {
  detail::Node *const nodes[sizeof...(Vs) + 1] = {values.node()..., nullptr};
  detail::print(prefix.text, nodes, sizeof...(Vs), prefix.loc);
}
/// device_assert(cond, msg): a mask (every element must hold), or a host
/// condition, asserted at run time as Triton does with a constexpr one.
template <detail::Mask C> void device_assert(const C &cond, const char *msg, detail::Loc l = TT_HERE_) {
  detail::assertTrue(cond.node(), msg, l);
}
inline void device_assert(bool cond, const char *msg, detail::Loc l = TT_HERE_) {
  detail::assertTrue(detail::hostBool(cond, l), msg, l);
}
/// Every thread of the program waits here for the others (bar.sync).
inline void debug_barrier(detail::Loc l = TT_HERE_) { detail::barrier(l); }

/// The kernel's options, said in its body:
/// `kernel_options({.num_warps = 8, .num_stages = 3});` (0: the default).
/// The command line's --num-warps, when given, overrides the file.
struct KernelOptions {
  int num_warps = 0;
  int num_stages = 0;
};
inline void kernel_options(KernelOptions o, detail::Loc l = TT_HERE_) { detail::options(o.num_warps, o.num_stages, l); }

} // namespace tt

#include "twintile/random.h"
#include "twintile/control.h"
#include "twintile/algorithms.h"

#endif // TWINTILE_H

//===- twintile/values.h - the device value classes --------------------===//
//
// The classes of device values: scalars (i32, f32, ...), tiles, pointers,
// and their operators, as hidden friends (Arith, PtrArith), with Triton's
// promotion between element types (promote.h) and the refusals of what has
// no meaning on device values, each with what to write instead.
// Included by twintile.h where the element types are declared; not a header
// of its own.
//===----------------------------------------------------------------------===//
#pragma once

namespace tt {

//===-- Device value classes ----------------------------------------------===//

namespace detail {

/// Common state of every device value: the node it stands for.
class Value {
public:
  Node *node() const { return node_; }

protected:
  Value() = default;
  explicit Value(Node *n) : node_(n) {}
  Node *node_ = nullptr;
};

/// An operand of an operator of V, converted at the operator's call site so
/// that the conversion's default argument records where the operator is:
/// from V itself, from its scalar (for tiles), and from host numbers.
template <class V> class Operand {
public:
  using E = typename Traits<V>::Element;

  Operand(const V &v, Loc l = TT_HERE_) : node(v.node()), loc(l) {}
  Operand(const E &v, Loc l = TT_HERE_) requires Traits<V>::isTile : node(v.node()), loc(l) {}
  template <HostIntLike H>
  Operand(H v, Loc l = TT_HERE_) requires NumericDevice<V>
      : node(intConstant(v, typeCode<E>(), l)), loc(l) {}
  template <HostFloatLike H>
  Operand(H v, Loc l = TT_HERE_) requires FloatDevice<V>
      : node(constantFloat(static_cast<double>(v), typeCode<E>(), l)), loc(l) {}

  Node *node;
  Loc loc;
};

/// A scalar of type V made from a host number: the same as an operand of V,
/// except that a floating-point number for an integer scalar is refused at
/// run time, at the user's line, rather than converted to V and back for ever.
template <class V, class H> Node *hostScalar(H v, Loc l) {
  if constexpr (IntDevice<V> && hostFloat<H>) return refuseFloatToInt(typeCode<typename Traits<V>::Element>(), l);
  else return Operand<V>(v, l).node;
}

/// An integer offset for pointer arithmetic: 32- and 64-bit integer scalars,
/// host integers. An unsigned offset counts forward only (it is zero-extended).
class Offset {
public:
  Offset(const i32 &v, Loc l = TT_HERE_);
  Offset(const i64 &v, Loc l = TT_HERE_);
  Offset(const u32 &v, Loc l = TT_HERE_);
  Offset(const u64 &v, Loc l = TT_HERE_);
  template <HostIntLike H>
  Offset(H v, Loc l = TT_HERE_) : node(constantInt(static_cast<long long>(v), {Kind::I32, Kind::I32, false}, l)), loc(l) {}
  Node *node;
  Loc loc;
};

/// An integer tile offset for pointer arithmetic.
class TileOffset {
public:
  TileOffset(const Tile<i32> &v, Loc l = TT_HERE_);
  TileOffset(const Tile<i64> &v, Loc l = TT_HERE_);
  TileOffset(const Tile<u32> &v, Loc l = TT_HERE_);
  TileOffset(const Tile<u64> &v, Loc l = TT_HERE_);
  Node *node;
  Loc loc;
};

/// Operators shared by every numeric device type V (a scalar or a tile),
/// as hidden friends: found only through a device operand, never for two
/// host numbers.
template <class V> class Arith {
  // Taken by reference: an Operand is 24 bytes, which the x86-64 calling
  // convention passes in memory (byval), where LLVM's fast instruction
  // selector gives up on the traced kernel file's host code.
  using O = const Operand<V> &;
  using B = typename Traits<V>::Bool;
  static V make(Node *n) { return V(FromNode{}, n); }
  static B makeBool(Node *n) { return B(FromNode{}, n); }

public:
  friend V operator+(O a, O b) { return make(binary(Op::Add, a.node, b.node, b.loc)); }
  friend V operator-(O a, O b) { return make(binary(Op::Sub, a.node, b.node, b.loc)); }
  friend V operator*(O a, O b) { return make(binary(Op::Mul, a.node, b.node, b.loc)); }
  friend V operator/(O a, O b) { return make(binary(Op::Div, a.node, b.node, b.loc)); }
  friend V operator%(O a, O b) { return make(binary(Op::Rem, a.node, b.node, b.loc)); }
  friend V operator&(O a, O b) requires IntDevice<V> { return make(binary(Op::And, a.node, b.node, b.loc)); }
  friend V operator|(O a, O b) requires IntDevice<V> { return make(binary(Op::Or, a.node, b.node, b.loc)); }
  friend V operator^(O a, O b) requires IntDevice<V> { return make(binary(Op::Xor, a.node, b.node, b.loc)); }
  friend V operator<<(O a, O b) requires IntDevice<V> { return make(binary(Op::Shl, a.node, b.node, b.loc)); }
  friend V operator>>(O a, O b) requires IntDevice<V> { return make(binary(Op::Shr, a.node, b.node, b.loc)); }
  friend B operator==(O a, O b) { return makeBool(binary(Op::Eq, a.node, b.node, b.loc)); }
  friend B operator!=(O a, O b) { return makeBool(binary(Op::Ne, a.node, b.node, b.loc)); }
  friend B operator<(O a, O b) { return makeBool(binary(Op::Lt, a.node, b.node, b.loc)); }
  friend B operator<=(O a, O b) { return makeBool(binary(Op::Le, a.node, b.node, b.loc)); }
  friend B operator>(O a, O b) { return makeBool(binary(Op::Gt, a.node, b.node, b.loc)); }
  friend B operator>=(O a, O b) { return makeBool(binary(Op::Ge, a.node, b.node, b.loc)); }
  friend V operator-(O a) { return make(unary(Op::Neg, a.node, a.loc)); }
  friend V operator~(O a) requires IntDevice<V> { return make(unary(Op::Not, a.node, a.loc)); }
  // Triton's `and`, `or` and `not` on masks: element by element, with both
  // operands evaluated (as C++'s overloaded && and || always are, and as
  // compiled Triton's are on tensors). A host bool or integer takes part as a
  // constant (an integer as `!= 0`).
  // The operands are taken as they are, not through Operand: a conversion
  // would tie with C++'s built-in && on the mask's explicit operator bool.
  // An operator has no default argument to capture the call's position, so
  // the op is placed where its last operand was made (logical()).
  friend V operator&&(const V &a, const V &b) requires Mask<V> { return make(logical(Op::And, a.node(), b.node())); }
  friend V operator||(const V &a, const V &b) requires Mask<V> { return make(logical(Op::Or, a.node(), b.node())); }
  friend V operator!(const V &a) requires Mask<V> { return make(logical(Op::Not, a.node(), nullptr)); }
  template <class W> requires Mask<V> && Traits<V>::isTile && same<W, i1>
  friend V operator&&(const V &a, const W &b) { return make(logical(Op::And, a.node(), b.node())); }
  template <class W> requires Mask<V> && Traits<V>::isTile && same<W, i1>
  friend V operator&&(const W &a, const V &b) { return make(logical(Op::And, a.node(), b.node())); }
  template <class W> requires Mask<V> && Traits<V>::isTile && same<W, i1>
  friend V operator||(const V &a, const W &b) { return make(logical(Op::Or, a.node(), b.node())); }
  template <class W> requires Mask<V> && Traits<V>::isTile && same<W, i1>
  friend V operator||(const W &a, const V &b) { return make(logical(Op::Or, a.node(), b.node())); }
  template <class H> requires Mask<V> && (same<H, bool> || hostInt<H>)
  friend V operator&&(const V &a, H b) { return make(logical(Op::And, a.node(), hostBool(b != 0, {}))); }
  template <class H> requires Mask<V> && (same<H, bool> || hostInt<H>)
  friend V operator&&(H a, const V &b) { return make(logical(Op::And, hostBool(a != 0, {}), b.node())); }
  template <class H> requires Mask<V> && (same<H, bool> || hostInt<H>)
  friend V operator||(const V &a, H b) { return make(logical(Op::Or, a.node(), hostBool(b != 0, {}))); }
  template <class H> requires Mask<V> && (same<H, bool> || hostInt<H>)
  friend V operator||(H a, const V &b) { return make(logical(Op::Or, hostBool(a != 0, {}), b.node())); }

#if defined(__clang__)
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wc++26-extensions"  // = delete("why")
#endif
  // Operands of two element types compute in the type Triton promotes them
  // to (twintile/promote.h); the recorder inserts the casts.
  template <class W> using M = Mixed<V, W, false>;
  template <class W> using MDiv = Mixed<V, W, true>;
  template <class R, class W> static R mixed(Op op, O a, const W &b) {
    return R(FromNode{}, binary(op, a.node, b.node(), a.loc));
  }
  template <class W> requires OtherElement<V, W>
  friend typename M<W>::type operator+(O a, const W &b) { return mixed<typename M<W>::type>(Op::Add, a, b); }
  template <class W> requires OtherElement<V, W>
  friend typename M<W>::type operator-(O a, const W &b) { return mixed<typename M<W>::type>(Op::Sub, a, b); }
  template <class W> requires OtherElement<V, W>
  friend typename M<W>::type operator*(O a, const W &b) { return mixed<typename M<W>::type>(Op::Mul, a, b); }
  template <class W> requires OtherElement<V, W>
  friend typename MDiv<W>::type operator/(O a, const W &b) { return mixed<typename MDiv<W>::type>(Op::Div, a, b); }
  template <class W> requires OtherElement<V, W>
  friend typename MDiv<W>::type operator%(O a, const W &b) { return mixed<typename MDiv<W>::type>(Op::Rem, a, b); }
  template <class W> requires OtherElement<V, W> && IntDevice<V> && IntDevice<W>
  friend typename M<W>::type operator&(O a, const W &b) { return mixed<typename M<W>::type>(Op::And, a, b); }
  template <class W> requires OtherElement<V, W> && IntDevice<V> && IntDevice<W>
  friend typename M<W>::type operator|(O a, const W &b) { return mixed<typename M<W>::type>(Op::Or, a, b); }
  template <class W> requires OtherElement<V, W> && IntDevice<V> && IntDevice<W>
  friend typename M<W>::type operator^(O a, const W &b) { return mixed<typename M<W>::type>(Op::Xor, a, b); }
  // Shifts promote as the bitwise operators do (Triton's): u32 >> i32 is u32,
  // i64 << i32 i64 (a signed value >> an unsigned amount of its width or
  // more is refused by the recorder: Triton shifts it arithmetically).
  template <class W> requires OtherElement<V, W> && IntDevice<V> && IntDevice<W>
  friend typename M<W>::type operator<<(O a, const W &b) { return mixed<typename M<W>::type>(Op::Shl, a, b); }
  template <class W> requires OtherElement<V, W> && IntDevice<V> && IntDevice<W>
  friend typename M<W>::type operator>>(O a, const W &b) { return mixed<typename M<W>::type>(Op::Shr, a, b); }
  // A host number whose kind outranks V's (a float against integers, an
  // integer against masks) takes part, as Triton's Python number does: f32
  // or i32 (HostOutranks).
  template <class H> using HR = typename HostPromoted<V, H>::type;
  template <class H> using HB = typename Traits<HR<H>>::Bool;
  template <class R, class H> static R hostLeft(Op op, H a, O b) {
    return R(FromNode{}, binary(op, hostConstant(a, b.loc), b.node, b.loc));
  }
  template <class R, class H> static R hostRight(Op op, O a, H b) {
    return R(FromNode{}, binary(op, a.node, hostConstant(b, a.loc), a.loc));
  }
#define TT_HOST_NUMBER_(sym, OpKind, R)                                                                      \
  template <HostNumber H> requires HostOutranks<V, H>                                                       \
  friend R<H> operator sym(O a, H b) { return hostRight<R<H>>(Op::OpKind, a, b); }                          \
  template <HostNumber H> requires HostOutranks<V, H>                                                       \
  friend R<H> operator sym(H a, O b) { return hostLeft<R<H>>(Op::OpKind, a, b); }
  TT_HOST_NUMBER_(+, Add, HR)
  TT_HOST_NUMBER_(-, Sub, HR)
  TT_HOST_NUMBER_(*, Mul, HR)
  TT_HOST_NUMBER_(/, Div, HR)
  TT_HOST_NUMBER_(%, Rem, HR)
  TT_HOST_NUMBER_(==, Eq, HB)
  TT_HOST_NUMBER_(!=, Ne, HB)
  TT_HOST_NUMBER_(<, Lt, HB)
  TT_HOST_NUMBER_(<=, Le, HB)
  TT_HOST_NUMBER_(>, Gt, HB)
  TT_HOST_NUMBER_(>=, Ge, HB)
#define TT_HOST_INT_(sym, OpKind)                                                                            \
  template <HostIntLike H> requires HostOutranks<V, H>                                                      \
  friend HR<H> operator sym(O a, H b) { return hostRight<HR<H>>(Op::OpKind, a, b); }                        \
  template <HostIntLike H> requires HostOutranks<V, H>                                                      \
  friend HR<H> operator sym(H a, O b) { return hostLeft<HR<H>>(Op::OpKind, a, b); }
  TT_HOST_INT_(&, And)
  TT_HOST_INT_(|, Or)
  TT_HOST_INT_(^, Xor)
  TT_HOST_INT_(<<, Shl)
  TT_HOST_INT_(>>, Shr)
#undef TT_HOST_INT_
#undef TT_HOST_NUMBER_

  template <class W> requires OtherElement<V, W> && (FloatDevice<V> || FloatDevice<W>)
  friend void operator&(const V &, const W &) TT_REFUSED_(TT_BITWISE_);
  template <class W> requires OtherElement<V, W> && (FloatDevice<V> || FloatDevice<W>)
  friend void operator|(const V &, const W &) TT_REFUSED_(TT_BITWISE_);
  template <class W> requires OtherElement<V, W> && (FloatDevice<V> || FloatDevice<W>)
  friend void operator^(const V &, const W &) TT_REFUSED_(TT_BITWISE_);
  // Exact operands, as for masks: a scalar's explicit operator bool makes
  // C++'s built-in && a candidate too.
  friend void operator&&(const V &, const V &) requires(NumericDevice<V> && !Mask<V>) TT_REFUSED_(TT_LOGICAL_);
  friend void operator||(const V &, const V &) requires(NumericDevice<V> && !Mask<V>) TT_REFUSED_(TT_LOGICAL_);
  friend void operator!(const V &) requires(NumericDevice<V> && !Mask<V>) TT_REFUSED_(TT_LOGICAL_);
  template <class W> requires(NumericDevice<V> && !Mask<V> && Traits<V>::isTile && Device<W>)
  friend void operator&&(const V &, const W &) TT_REFUSED_(TT_LOGICAL_);
  template <class W> requires(NumericDevice<V> && !Mask<V> && Traits<V>::isTile && Device<W>)
  friend void operator&&(const W &, const V &) TT_REFUSED_(TT_LOGICAL_);
  template <class W> requires(NumericDevice<V> && !Mask<V> && Traits<V>::isTile && Device<W>)
  friend void operator||(const V &, const W &) TT_REFUSED_(TT_LOGICAL_);
  template <class W> requires(NumericDevice<V> && !Mask<V> && Traits<V>::isTile && Device<W>)
  friend void operator||(const W &, const V &) TT_REFUSED_(TT_LOGICAL_);
  friend void operator&(O, O) requires FloatDevice<V> TT_REFUSED_(TT_BITWISE_);
  friend void operator|(O, O) requires FloatDevice<V> TT_REFUSED_(TT_BITWISE_);
  friend void operator^(O, O) requires FloatDevice<V> TT_REFUSED_(TT_BITWISE_);
  template <class W> requires OtherElement<V, W>
  friend typename M<W>::Bool operator==(O a, const W &b) { return mixed<typename M<W>::Bool>(Op::Eq, a, b); }
  template <class W> requires OtherElement<V, W>
  friend typename M<W>::Bool operator!=(O a, const W &b) { return mixed<typename M<W>::Bool>(Op::Ne, a, b); }
  template <class W> requires OtherElement<V, W>
  friend typename M<W>::Bool operator<(O a, const W &b) { return mixed<typename M<W>::Bool>(Op::Lt, a, b); }
  template <class W> requires OtherElement<V, W>
  friend typename M<W>::Bool operator<=(O a, const W &b) { return mixed<typename M<W>::Bool>(Op::Le, a, b); }
  template <class W> requires OtherElement<V, W>
  friend typename M<W>::Bool operator>(O a, const W &b) { return mixed<typename M<W>::Bool>(Op::Gt, a, b); }
  template <class W> requires OtherElement<V, W>
  friend typename M<W>::Bool operator>=(O a, const W &b) { return mixed<typename M<W>::Bool>(Op::Ge, a, b); }

#if defined(__clang__)
#pragma clang diagnostic pop
#endif

  V &operator+=(O b) { return self() = self() + b; }
  V &operator-=(O b) { return self() = self() - b; }
  V &operator*=(O b) { return self() = self() * b; }
  V &operator/=(O b) { return self() = self() / b; }
  V &operator%=(O b) { return self() = self() % b; }
  V &operator&=(O b) requires IntDevice<V> { return self() = self() & b; }
  V &operator|=(O b) requires IntDevice<V> { return self() = self() | b; }
  V &operator^=(O b) requires IntDevice<V> { return self() = self() ^ b; }
  V &operator<<=(O b) requires IntDevice<V> { return self() = self() << b; }
  V &operator>>=(O b) requires IntDevice<V> { return self() = self() >> b; }
#if defined(__clang__)
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wc++26-extensions"  // = delete("why")
#endif
  // A host number that would make the result another type (mask += 1 is i32).
  template <HostNumber H> requires HostOutranks<V, H> V &operator+=(H) TT_REFUSED_(TT_WIDENS_);
  template <HostNumber H> requires HostOutranks<V, H> V &operator-=(H) TT_REFUSED_(TT_WIDENS_);
  template <HostNumber H> requires HostOutranks<V, H> V &operator*=(H) TT_REFUSED_(TT_WIDENS_);
  template <HostNumber H> requires HostOutranks<V, H> V &operator/=(H) TT_REFUSED_(TT_WIDENS_);
  // A host number cannot hold a device value (`auto acc = 0.0; acc += sum(x)`).
  template <HostNumber H> friend void operator+=(H &, const V &) TT_REFUSED_(TT_HOST_ACC_);
  template <HostNumber H> friend void operator-=(H &, const V &) TT_REFUSED_(TT_HOST_ACC_);
  template <HostNumber H> friend void operator*=(H &, const V &) TT_REFUSED_(TT_HOST_ACC_);
  template <HostNumber H> friend void operator/=(H &, const V &) TT_REFUSED_(TT_HOST_ACC_);
#if defined(__clang__)
#pragma clang diagnostic pop
#endif
  // A 0-d tile (a reduction's result) into a scalar variable: `acc += sum(x, 0)`
  // (of V's element type, or one that promotes to it).
  // (No call-site position to capture: placed where the tile was made.)
  template <class T> requires(ZeroDInto<V, T>)
  V &operator+=(const T &t) { return self() = make(placed(Op::Add, self().node(), scalarOf(t.node(), {}))); }
  template <class T> requires(ZeroDInto<V, T>)
  V &operator-=(const T &t) { return self() = make(placed(Op::Sub, self().node(), scalarOf(t.node(), {}))); }
  template <class T> requires(ZeroDInto<V, T>)
  V &operator*=(const T &t) { return self() = make(placed(Op::Mul, self().node(), scalarOf(t.node(), {}))); }
  template <class T> requires(ZeroDInto<V, T>)
  V &operator/=(const T &t) { return self() = make(placed(Op::Div, self().node(), scalarOf(t.node(), {}))); }
  // Of another element type: only one that promotes to V's own (Narrower).
  V &operator+=(const Narrower<V, false> &b) { return self() = make(binary(Op::Add, self().node(), b.node, b.loc)); }
  V &operator-=(const Narrower<V, false> &b) { return self() = make(binary(Op::Sub, self().node(), b.node, b.loc)); }
  V &operator*=(const Narrower<V, false> &b) { return self() = make(binary(Op::Mul, self().node(), b.node, b.loc)); }
  V &operator/=(const Narrower<V, true> &b) { return self() = make(binary(Op::Div, self().node(), b.node, b.loc)); }

private:
  V &self() { return static_cast<V &>(*this); }
};

/// Pointer arithmetic: p + k steps k elements.
template <class V> class PtrArith {
  using E = typename Traits<V>::Element;  // Ptr<T>
  using TileV = Tile<E>;

public:
  friend V operator+(const V &p, const Offset &k) { return V(FromNode{}, addptr(p.node(), k.node, k.loc)); }
  friend TileV operator+(const V &p, const TileOffset &k) { return TileV(FromNode{}, addptr(p.node(), k.node, k.loc)); }
  /// k + p, as Triton allows.
  friend V operator+(const Offset &k, const V &p) { return V(FromNode{}, addptr(p.node(), k.node, k.loc)); }
  friend TileV operator+(const TileOffset &k, const V &p) { return TileV(FromNode{}, addptr(p.node(), k.node, k.loc)); }
  /// p - k steps back k elements (Triton's pointer minus an integer).
  friend V operator-(const V &p, const Offset &k) { return V(FromNode{}, subptr(p.node(), k.node, k.loc)); }
  friend TileV operator-(const V &p, const TileOffset &k) {
    return TileV(FromNode{}, subptr(p.node(), k.node, k.loc));
  }
  V &operator+=(const Offset &k) { return static_cast<V &>(*this) = static_cast<V &>(*this) + k; }
  V &operator-=(const Offset &k) { return static_cast<V &>(*this) = static_cast<V &>(*this) - k; }
};

} // namespace detail

#define TT_SCALAR_(Name)                                                                   \
  class Name : public detail::Value, public detail::Arith<Name> {                         \
  public:                                                                                  \
    Name() = default;                                                                      \
    Name(detail::FromNode, detail::Node *n) : detail::Value(n) {}                          \
    template <detail::HostNumber H>                                                        \
    Name(H v, detail::Loc l = TT_HERE_) : detail::Value(detail::hostScalar<Name>(v, l)) {}   \
    /** A 0-d tile (a reduction's result) is a scalar; another tile is refused. */           \
    template <class T> requires detail::same<T, Tile<Name>>                                  \
    Name(const T &t, detail::Loc l = TT_HERE_) : detail::Value(detail::scalarOf(t.node(), l)) {} \
    /** As a C++ condition (Triton's `if x:`), x != 0: native control flow. */              \
    explicit operator bool() const { detail::nativeControlFlow(node_); }                     \
    Name(const Name &) = default;                                                            \
    Name &operator=(const Name &) = default;                                                 \
    /** A narrower value (an i32 into an i64 variable) is converted. */                      \
    template <class W> requires detail::Widening<Name, W>                                     \
    Name &operator=(const W &w) {                                                            \
      node_ = detail::cast(w.node(), detail::Elem<Name>::kind, {});                          \
      return *this;                                                                          \
    }                                                                                        \
  };

TT_SCALAR_(i8)
TT_SCALAR_(i16)
TT_SCALAR_(i32)
TT_SCALAR_(i64)
TT_SCALAR_(u8)
TT_SCALAR_(u16)
TT_SCALAR_(u32)
TT_SCALAR_(u64)
TT_SCALAR_(f16)
TT_SCALAR_(bf16)
TT_SCALAR_(f32)
TT_SCALAR_(f64)
#undef TT_SCALAR_

/// A device boolean. Using one as a C++ condition is native device control
/// flow: the parsing front end reads it, the tracer stops there.
class i1 : public detail::Value, public detail::Arith<i1> {
public:
  i1() = default;
  i1(detail::FromNode, detail::Node *n) : detail::Value(n) {}
  i1(bool v, detail::Loc l = TT_HERE_) : detail::Value(detail::constantInt(v, {detail::Kind::I1, detail::Kind::I32, false}, l)) {}
  template <class T> requires detail::same<T, Tile<i1>>
  i1(const T &t, detail::Loc l = TT_HERE_) : detail::Value(detail::scalarOf(t.node(), l)) {}
  explicit operator bool() const { detail::nativeControlFlow(node_); }
};

template <detail::Pointee E> class Ptr : public detail::Value, public detail::PtrArith<Ptr<E>> {
public:
  Ptr() = default;
  Ptr(detail::FromNode, detail::Node *n) : detail::Value(n) {}
};

namespace detail {
template <class E> struct TileBase : Value, Arith<Tile<E>> {
  TileBase() = default;
  explicit TileBase(Node *n) : Value(n) {}
};
template <class E> struct TileBase<Ptr<E>> : Value, PtrArith<Tile<Ptr<E>>> {
  TileBase() = default;
  explicit TileBase(Node *n) : Value(n) {}
};
} // namespace detail

template <class E> class Tile : public detail::TileBase<E> {
public:
  Tile() = default;
  Tile(detail::FromNode, detail::Node *n) : detail::TileBase<E>(n) {}
  /// A scalar is a 0-d tile.
  Tile(const E &scalar) : detail::TileBase<E>(scalar.node()) {}
  template <detail::HostNumber H>
  Tile(H v, detail::Loc l = TT_HERE_) requires detail::NumericDevice<E>
      : detail::TileBase<E>(detail::Operand<E>(v, l).node) {}
  /// Using a tile of booleans as a C++ condition: native control flow.
  explicit operator bool() const requires detail::same<E, i1> { detail::nativeControlFlow(this->node_); }
  Tile(const Tile &) = default;
  Tile &operator=(const Tile &) = default;
  /// A value of a narrower element type, or a scalar, is converted (and broadcast).
  template <class W> requires detail::Widening<Tile, W>
  Tile &operator=(const W &w) {
    this->node_ = detail::cast(w.node(), detail::Elem<E>::kind, {});
    return *this;
  }
};

inline detail::Offset::Offset(const i32 &v, Loc l) : node(v.node()), loc(l) {}
inline detail::Offset::Offset(const i64 &v, Loc l) : node(v.node()), loc(l) {}
inline detail::Offset::Offset(const u32 &v, Loc l) : node(v.node()), loc(l) {}
inline detail::Offset::Offset(const u64 &v, Loc l) : node(v.node()), loc(l) {}
inline detail::TileOffset::TileOffset(const Tile<i32> &v, Loc l) : node(v.node()), loc(l) {}
inline detail::TileOffset::TileOffset(const Tile<i64> &v, Loc l) : node(v.node()), loc(l) {}
inline detail::TileOffset::TileOffset(const Tile<u32> &v, Loc l) : node(v.node()), loc(l) {}
inline detail::TileOffset::TileOffset(const Tile<u64> &v, Loc l) : node(v.node()), loc(l) {}

/// Infinity, for masked loads of maxima (`load(p, mask, -inf)`).
inline constexpr float inf = __builtin_huge_valf();

} // namespace tt

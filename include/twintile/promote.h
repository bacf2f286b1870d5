//===- twintile/promote.h - the element type mixed operands compute in ----===//
//
// Triton's type promotion, the one rule the language header (the result
// types of its operators) and the front ends' recorder (the casts it
// inserts) both use. An operator between device values of two element types
// (scalars or tiles alike) computes in:
//
//   1. f64 if either is f64, else f32 if either is f32;
//   2. else f16 if either is f16 (f32 under / and %);
//   3. else f32 if either is bf16 (both bf16 is one type: see below);
//   4. else, both integers of one signedness, the wider (i1 the narrowest,
//      and signed);
//   5. else, one signed and one unsigned: the unsigned one if it is at least
//      as wide (i32 with u32 is u32, i8 with u16 is u16), else the signed
//      one (u8 with i32 is i32): Triton's rule, and C++'s usual arithmetic
//      conversions where no int promotion intervenes.
//
// A host number (a C++ literal or constant) is Triton's Python number: it
// takes the device operand's type, except where its kind outranks it: a
// float against a device integer or mask makes the operator f32, an integer
// against a mask i32 (twintile.h's HostOutranks). Operands of one
// element type compute in it (f16 / f16 is f16, where Triton's is f32;
// i32 / i32 is C++'s integer division, where Triton's `/` is f32: twintile
// keeps what the user wrote in one type as written). Standard C++ only:
// twintile.h includes it, and so does the compiler.
//===----------------------------------------------------------------------===//
#pragma once

namespace tt::promotion {

/// Element kinds, in the IR's order (ir::ScalarKind, twintile.h's Kind).
enum class K : unsigned char { I1, I8, I16, I32, I64, U8, U16, U32, U64, F16, BF16, F32, F64 };

constexpr bool isFloat(K k) { return k >= K::F16; }
constexpr bool isUnsigned(K k) { return k >= K::U8 && k <= K::U64; }
/// An integer kind's width in bits.
constexpr int intWidth(K k) {
  return k == K::I1 ? 1 : k == K::I8 || k == K::U8 ? 8 : k == K::I16 || k == K::U16 ? 16
       : k == K::I32 || k == K::U32 ? 32 : 64;
}

/// The element kind an operator between device values of kinds a and b
/// computes in; divOrMod: the operator is / or %.
constexpr K promote(K a, K b, bool divOrMod) {
  if (a == b) return a;
  if (a == K::F64 || b == K::F64) return K::F64;
  if (a == K::F32 || b == K::F32) return K::F32;
  if (a == K::F16 || b == K::F16) return divOrMod ? K::F32 : K::F16;
  if (a == K::BF16 || b == K::BF16) return K::F32;
  if (isUnsigned(a) == isUnsigned(b)) return a > b ? a : b;  // in each group the order is width's
  K u = isUnsigned(a) ? a : b, s = isUnsigned(a) ? b : a;
  return intWidth(u) >= intWidth(s) ? u : s;
}

} // namespace tt::promotion

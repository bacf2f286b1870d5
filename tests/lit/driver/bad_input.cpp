// Inputs that once went wrong quietly or crashed, in both front ends: the
// user's text in device_print is printed as written (never a format); a
// constant that does not fit its type (an offset, an unsigned mask) is an
// error at its line, the same in both; a kernel in
// a namespace compiles, to the same IR from both; a float for an integer
// scalar is refused alike by both (the tracer once recursed until its stack
// ran out); twintile-opt refuses a directory with a message.
// RUN: twintile run --frontend=parse %s --kernel 'fmt<4>' --grid 1 --arg x=4 | FileCheck %s --check-prefix=FMT
// RUN: twintile run --frontend=trace %s --kernel 'fmt<4>' --grid 1 --arg x=4 | FileCheck %s --check-prefix=FMT
// RUN: not twintile compile --frontend=parse %s --kernel 'big<4>' 2>&1 | FileCheck %s --check-prefix=BIG
// RUN: not twintile compile --frontend=trace %s --kernel 'big<4>' 2>&1 | FileCheck %s --check-prefix=BIG
// RUN: not twintile compile --frontend=parse %s --kernel 'halfbig<4>' 2>&1 | FileCheck %s --check-prefix=HALF
// RUN: not twintile compile --frontend=trace %s --kernel 'halfbig<4>' 2>&1 | FileCheck %s --check-prefix=HALF
// RUN: twintile compile --frontend=trace %s --kernel 'lib::inner<4>' --emit ptx | FileCheck %s --check-prefix=NS
// RUN: twintile diff %s --kernel 'lib::inner<4>' | FileCheck %s --check-prefix=NS-DIFF
// RUN: not %twintile-opt %S 2>&1 | FileCheck %s --check-prefix=DIR
// RUN: not twintile compile --frontend=parse %s --kernel 'conv<4>' 2>&1 | FileCheck %s --check-prefix=CONV
// RUN: not twintile compile --frontend=parse %s --kernel 'far<4>' 2>&1 | FileCheck %s --check-prefix=FAR
// RUN: not twintile compile --frontend=trace %s --kernel 'far<4>' 2>&1 | FileCheck %s --check-prefix=FAR
// RUN: not twintile compile --frontend=parse %s --kernel 'mask<4>' 2>&1 | FileCheck %s --check-prefix=MASK
// RUN: not twintile compile --frontend=trace %s --kernel 'mask<4>' 2>&1 | FileCheck %s --check-prefix=MASK
// RUN: not twintile compile --frontend=trace %s --kernel 'conv<4>' 2>&1 | FileCheck %s --check-prefix=CONV
#include <twintile.h>
using namespace tt;

template <int B>
TT_KERNEL void fmt(Ptr<i32> x) {
  auto i = arange(0, B);
  device_print("100%s done %d", load(x + i));
}

template <int B>
TT_KERNEL void big(Ptr<i32> x) {
  auto i = arange(0, B);
  store(x + i, load(x + i) + 9000000000LL);  // <- big
}

template <int B>
TT_KERNEL void halfbig(Ptr<f16> x) {
  auto i = arange(0, B);
  store(x + i, load(x + i) * f16(1e10f));  // <- half
}

template <int B>
TT_KERNEL void conv(Ptr<i32> x) {
  auto i = arange(0, B);
  i32 s = 1.5f;  // <- conv
  store(x + i, load(x + i) + s);
}

template <int B>
TT_KERNEL void far(Ptr<f32> x) {
  auto i = arange(0, B);
  store(x + 3000000000LL + i, load(x + i));  // <- far
}

template <int B>
TT_KERNEL void mask(Ptr<i32> x) {
  auto i = arange(0, B);
  store(x + i, load(x + i) & 0xFFFFFFFF);  // <- mask
}

namespace lib {
template <int B>
TT_KERNEL void inner(Ptr<f32> x) {
  auto i = arange(0, B);
  store(x + i, load(x + i) + 1.0f);
}
} // namespace lib

// FMT: device_print:
// FMT-NEXT: pid (0, 0, 0) idx (0) 100%s done %d {{-?[0-9]+}}
// FMT: ok: fmt on emu
// BIG: bad_input.cpp:{{[0-9]+}}:30: error: the constant 9000000000 does not fit in i32 (the type it meets here); cast the other operand to a wider type first
// BIG-NEXT: store(x + i, load(x + i) + 9000000000LL);  // <- big
// HALF: bad_input.cpp:{{[0-9]+}}:30: error: the constant 1e+10 is out of f16's range (the type it meets here); compute in a wider type, or write inf if that is meant
// HALF-NEXT: store(x + i, load(x + i) * f16(1e10f));  // <- half
// NS: .visible .entry inner(
// NS-DIFF: equal: the parse and trace IR of lib::inner<4> are structurally identical
// DIR: twintile-opt: error: cannot read '{{.*}}driver'
// FAR: error: the constant 3000000000 does not fit in i32 (the type it meets here)
// FAR-NEXT: store(x + 3000000000LL + i, load(x + i));  // <- far
// MASK: error: the constant 4294967295 does not fit in i32 (the type it meets here)
// MASK-NEXT: store(x + i, load(x + i) & 0xFFFFFFFF);  // <- mask
// CONV: bad_input.cpp:{{[0-9]+}}:11: error: a floating-point number does not convert to i32
// CONV-NEXT: i32 s = 1.5f;  // <- conv

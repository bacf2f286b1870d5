// The first attempts a Triton user makes that have no meaning here are
// refused at their line with what to write: Python's min/max of two values
// (here min(x, axis) reduces), a host float where a reduction's axis goes
// (max(t, 0.0f) would have reduced over axis 0), and a host number as an
// accumulator of device values.
// RUN: not twintile compile --frontend=parse %s --kernel 'refusals<64>' 2>&1 | FileCheck %s
// RUN: not twintile compile --frontend=trace %s --kernel 'refusals<64>' 2>&1 | FileCheck %s
// An integer made a pointer (Triton's int_to_ptr, a grouped GEMM's pointer
// table) is refused with the rewrite; so is an if_else branch returning a
// host value (its message in the header, the user's line in the note).
// RUN: not twintile compile --frontend=parse %s --kernel 'pointer_table<16>' 2>&1 | FileCheck %s --check-prefix=TABLE
// RUN: not twintile compile --frontend=trace %s --kernel 'pointer_table<16>' 2>&1 | FileCheck %s --check-prefix=TABLE
// RUN: not twintile compile --frontend=parse %s --kernel 'host_branch<16>' 2>&1 | FileCheck %s --check-prefix=BRANCH
// RUN: not twintile compile --frontend=trace %s --kernel 'host_branch<16>' 2>&1 | FileCheck %s --check-prefix=BRANCH
#include <twintile.h>
using namespace tt;

template <int B>
TT_KERNEL void refusals(Ptr<f32> x, i32 n) {
  auto t = load(x + arange(0, B));
  auto a = min(cast<i64>(arange(0, B)), n);     // Python's min of two values
  auto r = max(t, 0.0f);                         // not a reduction over axis 0
  auto acc = 0.0;                                // a host accumulator
  acc += sum(t, 0);
  store(x + arange(0, B), r + a);
}

// CHECK: triton_idioms_refused.cpp:21:12: error: call to deleted function 'min': reductions take a tile and a host int axis (sum(x, 0)); for two values element by element write minimum(a, b), maximum(a, b) or a + b
// CHECK: triton_idioms_refused.cpp:22:12: error: call to deleted function 'max'
// CHECK: triton_idioms_refused.cpp:24:7: error: overload resolution selected deleted operator '+=': a host number cannot hold a device value: declare the variable as one, such as `f32 acc = 0.0f` or `Tile<f32> acc = 0.0f`

template <int B>
TT_KERNEL void pointer_table(Ptr<i64> table, Ptr<f32> y) {
  auto addr = load(table + program_id(0));
  auto a = cast<Ptr<f32>>(addr);                 // .to(tl.pointer_type(tl.float32))
  auto b = int_to_ptr<f32>(addr);
  store(y, load(a) + load(b));
}
// TABLE: triton_idioms_refused.cpp:[[@LINE-4]]:12: error: call to deleted function 'cast': no value becomes a pointer (Triton's int_to_ptr, .to(tl.pointer_type(T)), a table of pointers): every buffer a kernel reads is a pointer parameter, so that the interpreter and the emulator check each access; pass the tensors as one buffer and a table of i64 element offsets into it, and read base + load(offsets + g)
// TABLE: triton_idioms_refused.cpp:[[@LINE-4]]:12: error: call to deleted function 'int_to_ptr'

template <int B>
TT_KERNEL void host_branch(Ptr<f32> x, Ptr<f32> y) {
  auto s = sum(load(x + arange(0, B)), 0);
  float h = if_else(s > 0.0f, [&] { return 1.0f; }, [&] { return 2.0f; });
  store(y, s + h);
}
// BRANCH: error: static assertion failed due to requirement 'detail::allDevice<float>': if_else's branches return device values (or carry(...) of them, or nothing): a host value cannot depend on a device condition; give the variable a device type, e.g. f32 x = 0.0f
// BRANCH: triton_idioms_refused.cpp:[[@LINE-4]]:13: note: in instantiation of function template specialization 'tt::if_else

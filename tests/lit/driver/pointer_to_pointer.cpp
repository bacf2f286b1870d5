// A pointer to pointers is refused at the parameter's line by both front ends
// (Clang checks the language's constraint on what a Ptr points to; its name
// says what to write instead), with nothing about generated code after it.
// RUN: not twintile compile --frontend=parse %s --kernel 'gather<64>' 2>&1 | FileCheck %s
// RUN: not twintile compile --frontend=trace %s --kernel 'gather<64>' 2>&1 | FileCheck %s
#include <twintile.h>
using namespace tt;

template <int B>
TT_KERNEL void gather(Ptr<Ptr<f32>> rows, Ptr<f32> y) {
  auto offs = arange(0, B);
  store(y + offs, load(load(rows) + offs));
}

// CHECK: pointer_to_pointer.cpp:10:23: error: constraints not satisfied for class template 'Ptr' [with E = tt::Ptr<tt::f32>]
// CHECK: note: because 'Ptr_points_to_an_element_type_i1_to_i64_u8_to_u64_f16_bf16_f32_or_f64__pass_each_buffer_as_its_own_Ptr<tt::Ptr<tt::f32> >' evaluated to false
// CHECK-NOT: __twintile_spec
// CHECK-NOT: entry.cpp

// The corpus's vector_add becomes PTX whose global accesses are 128-bit when
// the caller asserts 16-byte aligned pointers and n divisible by 16 (the
// specialization), through either front end; without the assertions the
// accesses stay scalar, since nothing proves them aligned.
// RUN: twintile compile --frontend=trace %S/../../../experiments/kernels/vector_add.cpp --kernel 'vector_add<1024>' --emit ptx --assume-aligned '*' --assume-divisible n | FileCheck %s
// RUN: twintile compile --frontend=parse %S/../../../experiments/kernels/vector_add.cpp --kernel 'vector_add<1024>' --emit ptx --assume-aligned x,y,out --assume-divisible n --target sm_80 | FileCheck %s --check-prefix=SM80
// RUN: twintile compile --frontend=trace %S/../../../experiments/kernels/vector_add.cpp --kernel 'vector_add<1024>' --emit ptx | FileCheck %s --check-prefix=SCALAR
// RUN: twintile compile --frontend=trace %S/../../../experiments/kernels/vector_add.cpp --kernel 'vector_add<1024>' --emit ptx --assume-aligned '*' --assume-divisible n -o %t.ptx && FileCheck %s --check-prefix=MANIFEST < %t.json
// f32 elements travel in f32 registers, so no mov.b32 copies them between
// register kinds around the accesses (what Triton's PTX, with a newer LLVM, has):
// RUN: FileCheck %s --check-prefix=NOMOV < %t.ptx

// CHECK: .target sm_90a
// CHECK: .reqntid 128, 1, 1
// CHECK: @%p{{[0-9]+}} ld.global.v4.b32 {%f{{[0-9]+}}, %f{{[0-9]+}}, %f{{[0-9]+}}, %f{{[0-9]+}}}, [%rd{{[0-9]+}}];
// CHECK: @%p{{[0-9]+}} ld.global.v4.b32
// CHECK: @%p{{[0-9]+}} st.global.v4.b32 [%rd{{[0-9]+}}], {%f{{[0-9]+}}, %f{{[0-9]+}}, %f{{[0-9]+}}, %f{{[0-9]+}}};
// CHECK-NOT: ld.global.f32
// CHECK-NOT: .local

// NOMOV: ld.global.v4.b32
// NOMOV-NOT: mov.b32 %f{{[0-9]+}}, %r{{[0-9]+}};
// NOMOV-NOT: mov.b32 %r{{[0-9]+}}, %f{{[0-9]+}};
// NOMOV: ret;

// SM80: .target sm_80
// SM80: ld.global.v4.b32
// SM80: st.global.v4.b32

// SCALAR-NOT: ld.global.v4
// SCALAR: ld.global.f32
// SCALAR-NOT: ld.global.v4

// MANIFEST: "format": "twintile-manifest-1"
// MANIFEST: "kernel": "vector_add"
// MANIFEST: "arch": "sm_90a"
// MANIFEST: "threads_per_program": 128
// MANIFEST: "name": "x",
// MANIFEST-NEXT: "type": "ptr<f32>",
// MANIFEST-NEXT: "aligned16": true,
// MANIFEST: "name": "n",
// MANIFEST-NEXT: "type": "i32",
// MANIFEST-NEXT: "aligned16": false,
// MANIFEST-NEXT: "divisible16": true

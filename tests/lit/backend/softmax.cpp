// softmax reduces a row within each warp by shfl.sync butterflies (of f32
// registers: no copies into b32 ones and back), and across the four warps
// through shared memory, with no local memory (stack).
// RUN: twintile compile --frontend=trace %S/../../../experiments/kernels/softmax.cpp --kernel 'softmax<f32,1024>' --emit ptx | FileCheck %s
// RUN: twintile compile --frontend=parse %S/../../../experiments/kernels/softmax.cpp --kernel 'softmax<f16,256>' --emit ptx --target sm_80 | FileCheck %s
// Each warp's partial goes to shared memory from every lane (after the
// butterfly they hold the same bits), with no lane test, predicate or
// branch: with aligned rows the kernel is one block, no branch at all.
// RUN: twintile compile --frontend=parse %S/../../../experiments/kernels/softmax.cpp --kernel 'softmax<f32,1024>' --assume-aligned '*' --assume-divisible '*' --emit ptx | FileCheck %s --check-prefix=ONEBLOCK
// A combine region need not be commutative, so its lanes may disagree: the
// first lane along the axis stores the value and whether it holds any, by
// predicated st.shared.
// RUN: twintile compile --frontend=parse %S/../../../experiments/features/combine_function.cpp --kernel 'combine_function<1024>' --assume-aligned '*' --assume-divisible '*' --emit ptx | FileCheck %s --check-prefix=REGION
// The LLVM IR carries the kernel annotations the NVPTX target reads.
// RUN: twintile compile --frontend=trace %S/../../../experiments/kernels/softmax.cpp --kernel 'softmax<f32,1024>' --emit llvm | FileCheck %s --check-prefix=LLVM

// CHECK: .shared .align 16 .b8 twintile_smem[
// CHECK: shfl.sync.bfly.b32 %f{{[0-9]+}}, %f{{[0-9]+}}, 1, 31, -1;
// CHECK: shfl.sync.bfly.b32 {{.*}}, 16, 31, -1;
// CHECK: bar.sync 0;
// CHECK: shfl.sync.bfly.b32 {{.*}}, 16, 31, -1;
// CHECK-NOT: .local
// CHECK: ret;

// ONEBLOCK-NOT: bra
// ONEBLOCK: {{^[[:space:]]+}}st.shared.f32 [%r{{[0-9]+}}], %f{{[0-9]+}};
// ONEBLOCK-NOT: bra
// ONEBLOCK: {{^[[:space:]]+}}st.shared.f32 [%r{{[0-9]+}}], %f{{[0-9]+}};
// ONEBLOCK-NOT: bra
// ONEBLOCK: ret;

// The scan's warp totals (the last lane's), then the reduction's partials.
// REGION: @%p[[S:[0-9]+]] st.shared.b32 [%r{{[0-9]+}}], %f{{[0-9]+}};
// REGION: @%p[[S]] st.shared.b32 [%r{{[0-9]+}}], %f{{[0-9]+}};
// REGION: bar.sync 0;
// REGION: @%p[[R:[0-9]+]] st.shared.b32 [%r{{[0-9]+}}], %f{{[0-9]+}};
// REGION-NOT: st.shared
// REGION: @%p[[R]] st.shared.b32 [%r{{[0-9]+}}], %r{{[0-9]+}};
// REGION-NOT: st.shared
// REGION: ret;

// LLVM: define ptx_kernel void @softmax(ptr addrspace(1) {{.*}}%x, ptr addrspace(1) {{.*}}%y, i32 %n_cols, i32 %stride)
// LLVM: @llvm.nvvm.shfl.sync.bfly.f32
// LLVM: !{ptr @softmax, !"kernel", i32 1}
// LLVM: !{ptr @softmax, !"reqntidx", i32 128}

// A reduction to a scalar across warps, as Triton's: each warp stores its
// partial, then lane i reads warp i % warps's and a butterfly over the low
// lane bits combines them (backend/LowerReduce.cpp), one value per thread,
// not a vector of all the partials. softmax<f32,1024> with 8 warps and 4:
// RUN: twintile compile --frontend=parse %S/../../../experiments/kernels/softmax.cpp --kernel 'softmax<f32,1024>' --emit ptx --num-warps 8 | FileCheck %s --check-prefix=EIGHT
// RUN: twintile compile --frontend=parse %S/../../../experiments/kernels/softmax.cpp --kernel 'softmax<f32,1024>' --emit ptx | FileCheck %s --check-prefix=FOUR
// Against the interpreter with 2, 4 and 8 warps, rows partly masked:
// RUN: twintile run --frontend=parse %S/../../../experiments/kernels/softmax.cpp --kernel 'softmax<f32,1024>' --num-warps 2 --arg x=3072 --arg y=3072 --arg n_cols=1000 --arg stride=1024 --grid 3 | FileCheck %s
// RUN: twintile run --frontend=trace %S/../../../experiments/kernels/softmax.cpp --kernel 'softmax<f16,512>' --arg x=1536 --arg y=1536 --arg n_cols=500 --arg stride=512 --grid 3 | FileCheck %s
// RUN: twintile run --frontend=parse %S/../../../experiments/kernels/softmax.cpp --kernel 'softmax<bf16,1024>' --num-warps 8 --arg x=3072 --arg y=3072 --arg n_cols=1000 --arg stride=1024 --grid 3 | FileCheck %s

// EIGHT-NOT: ld.shared.v4
// EIGHT: st.shared.f32
// EIGHT-NEXT: bar.sync 0;
// EIGHT: and.b32 {{.*}}, 7;
// EIGHT: ld.shared.f32 [[P:%f[0-9]+]],
// EIGHT-NEXT: shfl.sync.bfly.b32 [[Q:%f[0-9]+]], [[P]], 1, 31, -1;
// EIGHT-NEXT: max.f32 [[M:%f[0-9]+]], [[P]], [[Q]];
// EIGHT-NEXT: shfl.sync.bfly.b32 {{%f[0-9]+}}, [[M]], 2, 31, -1;
// EIGHT: shfl.sync.bfly.b32 {{%f[0-9]+}}, {{%f[0-9]+}}, 4, 31, -1;
// EIGHT-NOT: ld.shared.v4
// EIGHT: ret;

// FOUR-NOT: ld.shared.v4
// FOUR: and.b32 {{.*}}, 3;
// FOUR: ld.shared.f32 [[P:%f[0-9]+]],
// FOUR-NEXT: shfl.sync.bfly.b32 [[Q:%f[0-9]+]], [[P]], 1, 31, -1;
// FOUR-NEXT: max.f32 [[M:%f[0-9]+]], [[P]], [[Q]];
// FOUR-NEXT: shfl.sync.bfly.b32 [[R:%f[0-9]+]], [[M]], 2, 31, -1;
// FOUR-NEXT: max.f32 [[MAX:%f[0-9]+]], [[M]], [[R]];
// FOUR-NEXT: sub.rn.f32 {{%f[0-9]+}}, {{%f[0-9]+}}, [[MAX]];
// FOUR: ld.shared.f32 [[S:%f[0-9]+]],
// FOUR-NEXT: shfl.sync.bfly.b32 [[T:%f[0-9]+]], [[S]], 1, 31, -1;
// FOUR-NEXT: add.rn.f32 [[U:%f[0-9]+]], [[S]], [[T]];
// FOUR-NEXT: shfl.sync.bfly.b32 [[V:%f[0-9]+]], [[U]], 2, 31, -1;
// FOUR-NEXT: add.rn.f32 {{%f[0-9]+}}, [[U]], [[V]];
// FOUR-NOT: ld.shared
// FOUR: ret;

// CHECK: ok: softmax on emu, {{.*}}: matches the interpreter

// A load only tensor-core dots read takes chunks as wide as its pointer's
// contiguity allows (16 bytes: 8 f16 along K for a, along N for b) even
// without the alignment promises: the accesses stay 2-byte loads, but the 8
// of a chunk share one address (immediate offsets), and the chunk is staged
// by one 16-byte shared store. Without promises the rows here are ragged (K =
// 37: every row starts at another alignment), so the masks and the narrow
// loads must hold; the emulator runs it against the interpreter on both
// targets, at 4 and 8 warps. The kernel is the corpus matmul.
// RUN: twintile compile --frontend=parse %S/../../../experiments/kernels/matmul.cpp --kernel 'matmul<64, 64, 32>' --emit layouts | FileCheck %s --check-prefix=LAYOUT
// RUN: twintile compile --frontend=trace %S/../../../experiments/kernels/matmul.cpp --kernel 'matmul<64, 64, 32>' --emit ptx | FileCheck %s --check-prefix=PTX
// RUN: twintile run --frontend=parse %S/../../../experiments/kernels/matmul.cpp --kernel 'matmul<64, 64, 32>' --grid 2,2 --arg a=4000 --arg b=4000 --arg c=10000 --arg M=100 --arg N=90 --arg K=37 | FileCheck %s --check-prefix=RAN
// RUN: twintile run --frontend=trace %S/../../../experiments/kernels/matmul.cpp --kernel 'matmul<64, 64, 32>' --num-warps 8 --target sm_80 --grid 2,2 --arg a=4000 --arg b=4000 --arg c=10000 --arg M=100 --arg N=90 --arg K=37 | FileCheck %s --check-prefix=RAN
// LAYOUT: load {{.*}} : tile<64x32xf16> {{.*}} #blocked<spt=[1,8] tpw=[8,4]
// LAYOUT: load {{.*}} : tile<32x64xf16> {{.*}} #blocked<spt=[1,8] tpw=[4,8]
// PTX-NOT: ld.global.v
// PTX: ld.global.b16
// PTX: st.shared.v4.b32
// PTX: wgmma.mma_async
// RAN: ok: matmul on emu, {{.*}}: matches the interpreter

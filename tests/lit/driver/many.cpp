// Several specializations in one command: one parse (or one host compile),
// the backends in parallel, a file per specialization under -o DIR, each
// byte-identical to the PTX a compile of that specialization alone gives.
// One that does not compile fails alone.
// RUN: rm -rf %t && mkdir -p %t
// RUN: twintile compile --frontend=parse %s --kernel 'scale<64>' --kernel 'scale<128>' --kernel 'scale<256>' --emit ptx -o %t/parse --time --no-cache 2>&1 | FileCheck %s --check-prefix=TIME
// RUN: twintile compile --frontend=trace %s --kernel 'scale<64>' --kernel 'scale<128>' --kernel 'scale<256>' --emit ptx -o %t/trace -j 1
// RUN: ls %t/parse | FileCheck %s --check-prefix=FILES
// RUN: twintile compile --frontend=parse %s --kernel 'scale<128>' --emit ptx -o %t/alone.ptx
// RUN: cmp %t/alone.ptx %t/parse/scale_128.ptx
// RUN: cmp %t/alone.ptx %t/trace/scale_128.ptx
// RUN: cmp %t/alone.json %t/parse/scale_128.json
// RUN: twintile compile --frontend=trace %s --kernel 'scale<64>' --kernel 'scale<32>' --emit tile --no-locs | FileCheck %s --check-prefix=STDOUT
// RUN: twintile compile --frontend=parse %s --kernel 'scale<64>' --kernel 'scale<32>' --emit tile --json | FileCheck %s --check-prefix=JSON
// RUN: not twintile compile --frontend=parse %s --kernel 'scale<64>' --kernel 'scale<3>' --emit ptx -o %t/bad 2>&1 | FileCheck %s --check-prefix=ONEBAD
// RUN: ls %t/bad | FileCheck %s --check-prefix=ONEBAD-FILES
// RUN: not twintile compile --frontend=trace %s --kernel 'scale<64>' --kernel 'scale<3>' --emit ptx -o %t/badtrace 2>&1 | FileCheck %s --check-prefix=ONEBAD
// RUN: ls %t/badtrace | FileCheck %s --check-prefix=ONEBAD-FILES
// RUN: touch %t/file
// RUN: not twintile compile --frontend=parse %s --kernel 'scale<64>' --kernel 'scale<32>' --emit ptx -o %t/file 2>&1 | FileCheck %s --check-prefix=NOTDIR
#include <twintile.h>
using namespace tt;

template <int B>
TT_KERNEL void scale(Ptr<f32> x, f32 s) {
  static_assert(B % 2 == 0, "B must be even");
  auto offs = arange(0, B);
  store(x + offs, load(x + offs) * s);
}

// TIME: scale<64>: parse:
// TIME: scale<64>: walk:
// TIME: scale<64>: dce:
// TIME: scale<64>: verify-ir:
// TIME: scale<64>: lower:
// TIME: scale<128>: walk:
// TIME: scale<256>: nvptx:
// TIME: total: {{[0-9.]+}} ms for 3 specializations
// FILES: scale_128.json
// FILES-NEXT: scale_128.ptx
// FILES-NEXT: scale_256.json
// FILES-NEXT: scale_256.ptx
// FILES-NEXT: scale_64.json
// FILES-NEXT: scale_64.ptx
// STDOUT: // ----- scale<64>
// STDOUT-NEXT: func @scale(%x: ptr<f32>, %s: f32) meta {B = 64}
// STDOUT: // ----- scale<32>
// STDOUT-NEXT: func @scale(%x: ptr<f32>, %s: f32) meta {B = 32}
// JSON: "command": "compile",
// JSON: "kernels": [
// JSON: "kernel": "scale<64>",
// JSON: "kernel": "scale<32>",
// ONEBAD: B must be even
// ONEBAD-FILES-NOT: scale_3
// ONEBAD-FILES: scale_64.json
// ONEBAD-FILES-NEXT: scale_64.ptx
// ONEBAD-FILES-NOT: scale_3
// NOTDIR: twintile: error: with several --kernel, -o names a directory, and '{{.*}}file' cannot be one

// f16 and bf16 results computed in f32 are stored two to a word with one
// cvt.rn.{f16,bf16}x2.f32 (LLVM 19 would convert each and move the halves
// together), the first element in the low half: the emulator matches the
// interpreter, which a swap of the halves would break. A cast of an f32 tile
// narrows its registers two at a time the same way, wherever the result goes
// (a masked store here; a matmul's epilogue through shared memory).
// RUN: twintile compile --frontend=parse %s --kernel 'scaled<f16,1024>' --emit ptx --assume-aligned '*' | FileCheck %s --check-prefix=F16
// RUN: twintile compile --frontend=trace %s --kernel 'scaled<bf16,1024>' --emit ptx --assume-aligned '*' --target sm_80 | FileCheck %s --check-prefix=BF16
// RUN: twintile run --frontend=parse %s --kernel 'scaled<f16,1024>' --assume-aligned '*' --arg x=4096 --arg y=4096 --grid 4 | FileCheck %s --check-prefix=RAN
// RUN: twintile run --frontend=trace %s --kernel 'scaled<bf16,512>' --assume-aligned '*' --arg x=4096 --arg y=4096 --grid 8 | FileCheck %s --check-prefix=RAN
// RUN: twintile compile --frontend=parse %s --kernel 'narrowed<f16,1024>' --emit ptx --assume-aligned '*' | FileCheck %s --check-prefix=CAST
// RUN: twintile compile --frontend=trace %s --kernel 'tile_product<bf16,64>' --emit ptx --target sm_80 | FileCheck %s --check-prefix=CAST-BF16
// RUN: twintile run --frontend=trace %s --kernel 'narrowed<f16,256>' --assume-aligned '*' --arg x=1024 --arg y=1024 --grid 4 | FileCheck %s --check-prefix=RAN-CAST
// RUN: twintile run --frontend=parse %s --kernel 'tile_product<bf16,64>' --arg a=4096 --arg b=4096 --arg c=4096 --grid 1 | FileCheck %s --check-prefix=RAN-CAST
// RUN: twintile run --frontend=trace %s --kernel 'tile_product<f16,64>' --target sm_80 --arg a=4096 --arg b=4096 --arg c=4096 --grid 1 | FileCheck %s --check-prefix=RAN-CAST
#include <twintile.h>
using namespace tt;

template <class T, int B>
TT_KERNEL void scaled(Ptr<T> x, Ptr<T> y) {
  auto offs = program_id(0) * B + arange(0, B);
  store(y + offs, load(x + offs) * T(1.5f) + T(0.25f));
}

// F16: cvt.rn.f16x2.f32 %r{{[0-9]+}}, %f{{[0-9]+}}, %f{{[0-9]+}};
// F16: st.global.v4.b32
// BF16: cvt.rn.bf16x2.f32 %r{{[0-9]+}}, %f{{[0-9]+}}, %f{{[0-9]+}};
// BF16: st.global.v4.b32
// RAN: ok: scaled on emu, {{.*}}: matches the interpreter on {{[0-9]+}} elements of 2 buffers

// A cast stored whole (vector stores), and a dot's result narrowed on its
// way through shared memory to the layout its store wants: both narrow two
// neighbours at once; a masked store of single elements narrows them alone.
template <class T, int B>
TT_KERNEL void narrowed(Ptr<f32> x, Ptr<T> y) {
  auto offs = program_id(0) * B + arange(0, B);
  store(y + offs, cast<T>(load(x + offs) * 3.0f));
}

template <class T, int B>
TT_KERNEL void tile_product(Ptr<T> a, Ptr<T> b, Ptr<T> c) {
  auto r = arange(0, B);
  auto at = expand_dims(r, 1) * B + expand_dims(r, 0);
  store(c + at, cast<T>(dot(load(a + at), load(b + at), zeros<f32>({B, B}))));
}

// CAST: cvt.rn.f16x2.f32
// CAST-NOT: cvt.rn.f16.f32
// CAST-BF16: cvt.rn.bf16x2.f32
// CAST-BF16-NOT: cvt.rn.bf16.f32
// RAN-CAST: ok: {{narrowed|tile_product}} on emu, {{.*}}: matches the interpreter

// --math=precise (the default: libdevice) and --math=fast (Triton's defaults:
// the GPU's approximations for f32 exp, log, rsqrt, sin, cos, tanh, rsqrt's
// flushing a subnormal operand to zero, and div.full for f32 division, a
// multiply fused into the add that uses it),
// from both front ends; each kept apart in the
// cache and recorded in the manifest; in the emulator, each matches the
// interpreter within its mode's tolerance.
// RUN: rm -rf %t && mkdir -p %t
// RUN: twintile compile --frontend=parse %s --kernel 'math<f32>' --emit ptx --math=fast -o %t/fast.ptx
// RUN: FileCheck %s --check-prefix=FAST < %t/fast.ptx
// RUN: FileCheck %s --check-prefix=FAST-MANIFEST < %t/fast.json
// RUN: twintile compile --frontend=parse %s --kernel 'math<f32>' --emit ptx -o %t/precise.ptx
// RUN: FileCheck %s --check-prefix=PRECISE < %t/precise.ptx
// RUN: FileCheck %s --check-prefix=PRECISE-MANIFEST < %t/precise.json
// RUN: twintile compile --frontend=trace %s --kernel 'math<f16>' --emit ptx --math=fast | FileCheck %s --check-prefix=FAST
// RUN: twintile run --frontend=parse %s --kernel 'math<f32>' --math=fast --grid 2 | FileCheck %s --check-prefix=RAN
// RUN: twintile run --frontend=trace %s --kernel 'math<bf16>' --math=fast --grid 2 | FileCheck %s --check-prefix=RAN
// RUN: twintile run --frontend=parse %s --kernel 'math<f64>' --math=fast --grid 2 | FileCheck %s --check-prefix=RAN
// RUN: not twintile compile %s --kernel 'math<f32>' --math=sloppy 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: twintile compile --frontend=parse %s --kernel 'muladd<f32>' --emit ptx --math=fast | FileCheck %s --check-prefix=FUSED
// RUN: twintile compile --frontend=trace %s --kernel 'muladd<f32>' --emit ptx | FileCheck %s --check-prefix=UNFUSED
// RUN: twintile run --frontend=trace %s --kernel 'muladd<f32>' --math=fast --grid 2 | FileCheck %s --check-prefix=RAN-MULADD
// f64 stays precise in the fast mode: no fusion.
// RUN: twintile compile --frontend=parse %s --kernel 'muladd<f64>' --emit ptx --math=fast | FileCheck %s --check-prefix=F64
// RUN: twintile run --frontend=trace %s --kernel 'muladd<f64>' --math=fast --grid 2 | FileCheck %s --check-prefix=RAN-MULADD
// RUN: twintile run --frontend=parse %s --kernel 'dotsum<f64>' --math=fast --grid 2 | FileCheck %s --check-prefix=RAN-DOTSUM
// A sum of products fuses within each thread, never across lanes: every
// lane of a warp stores the warp's partial, so each must add its partner's
// value the same way round (an fma of its own product would differ). The
// product itself is left unrounded (mul.f32) for ptxas to fuse where it can;
// the butterfly's adds round (add.rn.f32), which ptxas never fuses.
// RUN: twintile compile --frontend=parse %s --kernel 'dotsum<f32>' --emit ptx --math=fast | FileCheck %s --check-prefix=BUTTERFLY
// RUN: twintile run --frontend=parse %s --kernel 'dotsum<f32>' --math=fast --grid 2 | FileCheck %s --check-prefix=RAN-DOTSUM
// rsqrt of subnormals (and of zeros and normals): flushed to a zero of its
// sign under --math=fast, so +inf and -inf, which the interpreter models;
// NaN for the negative ones and large finite values precise.
// RUN: twintile run --frontend=parse %s --kernel 'tiny<f32>' --math=fast --grid 1 --arg z=128 | FileCheck %s --check-prefix=RAN-TINY
// RUN: twintile run --frontend=trace %s --kernel 'tiny<bf16>' --math=fast --grid 1 --arg z=128 | FileCheck %s --check-prefix=RAN-TINY
// RUN: twintile run --frontend=parse %s --kernel 'tiny<f32>' --grid 1 --arg z=128 | FileCheck %s --check-prefix=RAN-TINY
// f16/bf16 round after every op in the fast mode too (to f32, then to their
// type: their own op's result), so their multiply and add never fuse.
// RUN: twintile compile --frontend=parse %s --kernel 'muladd<f16>' --emit ptx --math=fast | FileCheck %s --check-prefix=HALF
// RUN: twintile run --frontend=parse %s --kernel 'muladd<f16>' --math=fast --grid 2 | FileCheck %s --check-prefix=RAN-MULADD
// RUN: twintile run --frontend=trace %s --kernel 'muladd<bf16>' --math=fast --grid 2 | FileCheck %s --check-prefix=RAN-MULADD
// libdevice's functions (pow, erf; every f64 one) compute in the fast mode
// what they do in the precise mode: none of their adds and multiplies loses
// its .rn, so nothing of theirs fuses.
// RUN: twintile compile --frontend=parse %s --kernel 'libm<f32>' --emit ptx --math=fast | FileCheck %s --check-prefix=LIBM32
// RUN: twintile compile --frontend=parse %s --kernel 'libm<f64>' --emit ptx --math=fast | FileCheck %s --check-prefix=LIBM64
// RUN: twintile run --frontend=parse %s --kernel 'libm<f64>' --math=fast --grid 2 | FileCheck %s --check-prefix=RAN-LIBM
// log's own multiply by ln 2 does not fuse with an add of its result: the
// stored log and the one added are the same value.
// RUN: twintile compile --frontend=parse %s --kernel 'logtwice<f32>' --emit ptx --math=fast | FileCheck %s --check-prefix=LOG
#include <twintile.h>
using namespace tt;

template <class T>
TT_KERNEL void libm(Ptr<T> x, Ptr<T> y, Ptr<T> z) {
  auto offs = program_id(0) * 128 + arange(0, 128);
  auto v = load(x + offs), w = load(y + offs);
  store(z + offs, pow(v, w));
  store(z + offs + 256, erf(v));
  store(z + offs + 512, sin(v));  // f64: libdevice's fma(x, -1, 0), which codegen would make a plain sub
}

template <class T>
TT_KERNEL void logtwice(Ptr<T> x, Ptr<T> y, Ptr<T> z, Ptr<T> u) {
  auto offs = program_id(0) * 128 + arange(0, 128);
  auto l = log(load(x + offs));
  store(z + offs, l);
  store(u + offs, l + load(y + offs));
}

template <class T>
TT_KERNEL void tiny(Ptr<T> z) {
  auto k = arange(0, 128) - 64;  // -64 .. 63, times 2^-133 .. 2^-120
  auto v = cast<T>(cast<f32>(k) * 1e-40f);
  store(z + arange(0, 128), rsqrt(where(k > 60, v + T(1.0f), v)));
}

template <class T>
TT_KERNEL void math(Ptr<T> x, Ptr<T> y, Ptr<T> z) {
  auto offs = program_id(0) * 128 + arange(0, 128);
  auto v = load(x + offs), w = load(y + offs);
  auto a = abs(v) + T(0.5f);
  store(z + offs, exp(v) + exp2(v) + log(a) + log2(a) + rsqrt(a) + sin(v) + cos(v) + tanh(v) + sigmoid(v) + v / a);
}

template <class T>
TT_KERNEL void muladd(Ptr<T> x, Ptr<T> y, Ptr<T> z) {
  auto offs = program_id(0) * 128 + arange(0, 128);
  auto v = load(x + offs), w = load(y + offs);
  store(z + offs, v * w - w);
}

template <class T>
TT_KERNEL void dotsum(Ptr<T> x, Ptr<T> y, Ptr<T> z) {
  auto offs = program_id(0) * 128 + arange(0, 128);
  store(z + program_id(0), sum(load(x + offs) * load(y + offs), 0));
}

// FAST-DAG: ex2.approx.f32
// FAST-DAG: lg2.approx.f32
// FAST-DAG: rsqrt.approx.ftz.f32
// FAST-DAG: sin.approx.f32
// FAST-DAG: cos.approx.f32
// FAST-DAG: tanh.approx.f32
// FAST-DAG: div.full.f32
// FAST-MANIFEST: "math": "fast"

// PRECISE-NOT: div.full.f32
// PRECISE-NOT: tanh.approx.f32
// PRECISE-NOT: rsqrt.approx.ftz
// PRECISE-MANIFEST: "math": "precise"

// RAN-TINY: ok: tiny on emu, {{.*}}: matches the interpreter on 128 elements of 1 buffers
// RAN: ok: math on emu, {{.*}}: matches the interpreter on {{[0-9]+}} elements of 3 buffers

// BAD: --math: sloppy not in {precise,fast}

// FUSED: fma.rn.f32
// FUSED-NOT: mul.rn.f32
// UNFUSED-NOT: fma.rn.f32
// UNFUSED: mul.rn.f32
// UNFUSED: sub.rn.f32
// RAN-MULADD: ok: muladd on emu, {{.*}}: matches the interpreter
// F64-NOT: fma.rn.f64
// F64: mul.rn.f64
// F64-NOT: fma.rn.f64
// BUTTERFLY: mul.f32
// BUTTERFLY-NOT: fma.rn.f32
// BUTTERFLY: shfl.sync.bfly.b32
// BUTTERFLY-NOT: fma.rn.f32
// BUTTERFLY: add.rn.f32
// BUTTERFLY-NOT: fma.rn.f32
// BUTTERFLY: st.shared.f32
// RAN-DOTSUM: ok: dotsum on emu, {{.*}}: matches the interpreter
// HALF-NOT: fma.rn.{{b?}}f16
// HALF-NOT: {{(add|mul|sub)\.f32}}
// HALF: cvt.rn.f16.f32
// LIBM32-NOT: {{(add|mul|sub)\.f32}}
// LIBM32: fma.rn.f32
// LIBM32-NOT: {{(add|mul|sub)\.f32}}
// LIBM64-NOT: {{(add|mul|sub)\.f64}}
// LIBM64: fma.rn.f64
// LIBM64-NOT: {{(add|mul|sub)\.f64}}
// RAN-LIBM: ok: libm on emu, {{.*}}: matches the interpreter
// LOG: lg2.approx.f32
// LOG-NOT: fma.rn.f32
// LOG: mul.rn.f32
// LOG-NOT: fma.rn.f32

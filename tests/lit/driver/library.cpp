// twintile library: a kernel file compiled into NAME.h (a typed function per
// specialization) and NAME.cpp (its variants), with the files it read as a
// Makefile rule; every mistake a located message, and nothing written.
// RUN: rm -rf %t && mkdir -p %t
// RUN: twintile library %s --name lib --kernel 'axpy<f32>' --kernel 'half_axpy=axpy<f16>' --target sm_80 -o %t/out --depfile %t/lib.d
// RUN: FileCheck %s --check-prefix=HEADER < %t/out/lib.h
// RUN: FileCheck %s --check-prefix=SOURCE < %t/out/lib.cpp
// RUN: FileCheck %s --check-prefix=DEPS -DFILE=%s < %t/lib.d
// HEADER: namespace lib {
// HEADER: /// axpy<f32>(x: ptr<f32>, y: ptr<f32>, n: i32, a: f32)
// HEADER-NEXT: /// Its variants, the first whose promises the arguments keep running:
// HEADER-NEXT: ///   sm_80: x:aligned y:aligned n:divisible; x:aligned y:aligned; plain
// HEADER-NEXT: ::twintile::runtime::Call axpy_f32(::twintile::runtime::Device &device, ::twintile::runtime::Dim3 grid,
// HEADER-NEXT:     ::std::span<float> x,
// HEADER-NEXT:     ::std::span<float> y,
// HEADER-NEXT:     ::std::int32_t n,
// HEADER-NEXT:     float a,
// HEADER: ::twintile::runtime::Call half_axpy(
// HEADER-NEXT:     ::std::span<::twintile::runtime::f16> x,
// HEADER: namespace kernels {
// HEADER-NEXT: extern const ::twintile::runtime::CompiledKernel axpy_f32;
// HEADER-NEXT: extern const ::twintile::runtime::CompiledKernel half_axpy;
// SOURCE: "x:aligned y:aligned n:divisible", k0v0_manifest, k0v0_ptx, sizeof k0v0_ptx - 1,
// SOURCE: const ::twintile::runtime::CompiledKernel axpy_f32{"axpy<f32>",
// SOURCE: callCompiled(::lib::kernels::axpy_f32, device, grid, options,
// SOURCE-NEXT: {::twintile::runtime::LaunchArg::buf(0), ::twintile::runtime::LaunchArg::buf(1), ::twintile::runtime::scalarArg(n), ::twintile::runtime::scalarArg(a)},
// DEPS: lib.h: \
// DEPS-NEXT: [[FILE]]
//
// RUN: not twintile library %s --name lib --kernel 'axpy<f32>' --kernel 'axpy_f32=axpy<f16>' -o %t/dup 2>&1 | FileCheck %s --check-prefix=DUP
// DUP: twintile: error: two --kernel make the function 'axpy_f32'; name one: --kernel OTHER=axpy<f16>
// RUN: not twintile library %s --name lib --kernel 'for=axpy<f32>' -o %t/keyword 2>&1 | FileCheck %s --check-prefix=KEYWORD
// KEYWORD: twintile: error: --kernel 'for=axpy<f32>' makes the function name 'for', which C++ cannot have
// RUN: not twintile library %s --name class --kernel 'axpy<f32>' -o %t/ns 2>&1 | FileCheck %s --check-prefix=NS
// NS: twintile: error: --name 'class' does not make a C++ namespace name ('class')
// RUN: not twintile library %s --name lib --kernel 'kernels=axpy<f32>' -o %t/taken 2>&1 | FileCheck %s --check-prefix=TAKEN
// TAKEN: twintile: error: --kernel 'kernels=axpy<f32>' makes the function name 'kernels', which the library's variants have
// RUN: not twintile library %s --name 'a"b' --kernel 'axpy<f32>' -o %t/quote 2>&1 | FileCheck %s --check-prefix=FILENAME
// FILENAME: twintile: error: --name 'a"b' must be a file name of letters, digits, '_', '-' and '.'
// RUN: not twintile library %s --name lib --kernel 'axpy<f32>' --assume-aligned z -o %t/assume 2>&1 | FileCheck %s --check-prefix=ASSUME
// ASSUME: twintile: error: axpy<f32>: kernel 'axpy' has no parameter 'z'
// RUN: not twintile library %s --name lib --kernel 'nothing<f32>' -o %t/bad 2>&1 | FileCheck %s --check-prefix=BAD
// BAD: error:
// RUN: not ls %t/dup %t/keyword %t/ns %t/taken %t/quote %t/assume %t/bad
#include <twintile.h>
using namespace tt;

template <class T, int BLOCK = 128>
TT_KERNEL void axpy(Ptr<T> x, Ptr<T> y, i32 n, f32 a) {
  auto offs = program_id(0) * BLOCK + arange(0, BLOCK);
  auto m = offs < n;
  store(y + offs, cast<T>(cast<f32>(load(x + offs, m)) * a + cast<f32>(load(y + offs, m))), m);
}

// The tracing front end's cache of compiled kernel files keys an object on
// the file's own text, and keeps beside it the files it includes with their
// contents: a change to one compiles the file again (both host compilers),
// as a build would; an unchanged one is a cache hit.
// RUN: rm -rf %t && mkdir -p %t && cp %s %t/kernel.cpp
// RUN: echo 'constexpr int kWidth = 64;' > %t/width.h
// RUN: env TWINTILE_CACHE_DIR=%t/cache twintile compile %t/kernel.cpp --kernel 'fill<f32>' | FileCheck %s --check-prefix=W64
// RUN: env TWINTILE_CACHE_DIR=%t/cache twintile compile %t/kernel.cpp --kernel 'fill<f32>' --time 2>&1 | FileCheck %s --check-prefix=HIT
// RUN: echo 'constexpr int kWidth = 128;' > %t/width.h
// RUN: env TWINTILE_CACHE_DIR=%t/cache twintile compile %t/kernel.cpp --kernel 'fill<f32>' | FileCheck %s --check-prefix=W128
// RUN: echo 'constexpr int kWidth = 32;' > %t/width.h
// RUN: env TWINTILE_CACHE_DIR=%t/cache twintile compile %t/kernel.cpp --kernel 'fill<f32>' --trace-host clang++ | FileCheck %s --check-prefix=W32
// RUN: echo 'constexpr int kWidth = 16;' > %t/width.h
// RUN: env TWINTILE_CACHE_DIR=%t/cache twintile compile %t/kernel.cpp --kernel 'fill<f32>' --trace-host clang++ | FileCheck %s --check-prefix=W16
// W64: arange {end = 64
// HIT: host-compile: cached
// W128: arange {end = 128
// W32: arange {end = 32
// W16: arange {end = 16
#include <twintile.h>

#include "width.h"

using namespace tt;

template <class T>
TT_KERNEL void fill(Ptr<T> out, T value) {
  auto offs = program_id(0) * kWidth + arange(0, kWidth);
  store(out + offs, value + cast<T>(offs));
}

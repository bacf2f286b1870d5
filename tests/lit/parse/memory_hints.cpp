// Cache and eviction hints on load and store (Triton's cache_modifier and
// eviction_policy), from both front ends: recorded as the ops' `cache` and
// `evict` attributes, written by the backend on the vector accesses and on
// the predicated one-element ones, accepted by ptxas where it is found, and
// never changing a value (the emulator matches the interpreter).
// RUN: twintile compile --frontend=parse %s --kernel 'hinted<f32,128>' --no-locs > %t.parse
// RUN: twintile compile --frontend=trace %s --kernel 'hinted<f32,128>' --no-locs > %t.trace
// RUN: diff %t.parse %t.trace
// RUN: FileCheck %s --check-prefix=IR < %t.parse
// RUN: twintile compile --frontend=parse %s --kernel 'hinted<f16,128>' --emit ptx | FileCheck %s --check-prefix=ONE
// RUN: twintile compile --frontend=trace %s --kernel 'copy<f32,1024>' --emit ptx --assume-aligned '*' | FileCheck %s --check-prefix=VEC
// RUN: twintile compile --frontend=parse %s --kernel 'copy<i8,1024>' --emit ptx --assume-aligned '*' --target sm_80 | FileCheck %s --check-prefix=VEC
// RUN: twintile run --frontend=parse %s --kernel 'hinted<f16,256>' --arg n=1000 --grid 8 | FileCheck %s --check-prefix=RAN
// RUN: twintile run --frontend=trace %s --kernel 'hinted<i8,64>' --arg n=1000 --grid 8 | FileCheck %s --check-prefix=RAN
// RUN: twintile run --frontend=parse %s --kernel 'hinted<f64,128>' --arg n=1000 --grid 8 | FileCheck %s --check-prefix=RAN
// RUN: twintile run --frontend=trace %s --kernel 'copy<i64,512>' --grid 1 | FileCheck %s --check-prefix=RAN-COPY
// RUN: not twintile compile --frontend=parse %s --kernel 'store_cache_on_load<64>' 2>&1 | FileCheck %s --check-prefix=WRONG
// RUN: not twintile compile --frontend=trace %s --kernel 'store_cache_on_load<64>' 2>&1 | FileCheck %s --check-prefix=WRONG
// RUN: not twintile compile --frontend=parse %s --kernel 'both<64>' 2>&1 | FileCheck %s --check-prefix=BOTH
// RUN: not twintile compile --frontend=trace %s --kernel 'both<64>' 2>&1 | FileCheck %s --check-prefix=BOTH
// RUN: twintile diff %s --kernel 'variable<64>' | FileCheck %s --check-prefix=SAME
// RUN: not twintile compile --frontend=parse %s --kernel 'out_of_range<64>' 2>&1 | FileCheck %s --check-prefix=RANGE
// RUN: not twintile compile --frontend=trace %s --kernel 'out_of_range<64>' 2>&1 | FileCheck %s --check-prefix=RANGE
// RUN: twintile compile --frontend=parse %s --kernel 'variable<64>' --no-locs | FileCheck %s --check-prefix=VAR
#include <twintile.h>
using namespace tt;

template <class T, int B>
TT_KERNEL void hinted(Ptr<T> x, Ptr<T> y, Ptr<T> z, i32 n) {
  auto offs = program_id(0) * B + arange(0, B);
  auto v = load(x + offs, offs < n, T(0), {.cache_modifier = Cache::Cg});
  auto w = load(y + offs, {.eviction_policy = Evict::Last});
  store(z + offs, v + w, offs < n, {.cache_modifier = Cache::Cs});
  store(z, load(x, {.cache_modifier = Cache::Cv}), {.eviction_policy = Evict::First});
}

// IR: load {cache = "cg"} %{{[0-9]+}}, %{{[0-9]+}}, %{{[0-9]+}} : tile<128xf32>
// IR: load {evict = "evict_last"} %{{[0-9]+}} : tile<128xf32>
// IR: store {cache = "cs"} %{{[0-9]+}}, %{{[0-9]+}}, %{{[0-9]+}}
// IR: load {cache = "cv"} %x : f32
// IR: store {evict = "evict_first"} %z, %{{[0-9]+}}

// ONE: @%p{{[0-9]+}} ld.global.cg.b16 %rs{{[0-9]+}}, [%rd{{[0-9]+}}];
// ONE: ld.global.L1::evict_last.b16 %rs{{[0-9]+}}, [%rd{{[0-9]+}}];
// ONE: @%p{{[0-9]+}} st.global.cs.b16 [%rd{{[0-9]+}}], %rs{{[0-9]+}};
// ONE: ld.global.cv.b16
// ONE: st.global.L1::evict_first.b16

template <class T, int B>
TT_KERNEL void copy(Ptr<T> y, Ptr<T> z) {
  auto offs = arange(0, B);
  store(z + offs, load(y + offs, {.eviction_policy = Evict::Last}), {.cache_modifier = Cache::Wt});
}

// VEC: ld.global.L1::evict_last.v{{[24]}}.b32 {
// VEC: st.global.wt.v{{[24]}}.b32 [

// RAN: ok: hinted on emu, {{.*}}: matches the interpreter on {{[0-9]+}} elements of 3 buffers
// RAN-COPY: ok: copy on emu, {{.*}}: matches the interpreter on {{[0-9]+}} elements of 2 buffers

template <int B>
TT_KERNEL void store_cache_on_load(Ptr<f32> x, Ptr<f32> y) {
  store(y + arange(0, B), load(x + arange(0, B), {.cache_modifier = Cache::Wb}));
}
// WRONG: memory_hints.cpp:63:27: error: 'load' cache must be one of ca, cg, cv, volatile, got 'wb'

template <int B>
TT_KERNEL void both(Ptr<f32> x, Ptr<f32> y) {
  store(y + arange(0, B), load(x + arange(0, B), {.cache_modifier = Cache::Cg, .eviction_policy = Evict::First}));
}
// BOTH: memory_hints.cpp:69:27: error: 'load' takes a cache modifier or an eviction policy, not both (PTX has no form with both)

// Hints in a variable, set field by field, and empty hints `{}` (no hint;
// not a bool mask).
template <int B>
TT_KERNEL void variable(Ptr<f32> x, Ptr<f32> y) {
  auto offs = arange(0, B);
  MemoryHints h;
  h.cache_modifier = Cache::Cg;
  store(y + offs, load(x + offs, h) + load(y + offs, {}), {});
}
// SAME: equal: the parse and trace IR of variable<64> are structurally identical
// VAR: load {cache = "cg"} %{{[0-9]+}} : tile<64xf32>
// VAR: load %{{[0-9]+}} : tile<64xf32>
// VAR: store %{{[0-9]+}}, %{{[0-9]+}}

// A hint that is none of tt::Cache's values.
template <int B>
TT_KERNEL void out_of_range(Ptr<f32> x, Ptr<f32> y) {
  store(y + arange(0, B), load(x + arange(0, B), {.cache_modifier = static_cast<Cache>(9)}));
}
// RANGE: memory_hints.cpp:90:27: error: a cache modifier or eviction policy out of range (use tt::Cache and tt::Evict)

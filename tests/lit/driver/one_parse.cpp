// twintile dump and diff parse the file once: the tracing front end's
// in-process host compile hands the kernels Clang instantiated to the parse
// front end's walker (pipeline::compileBoth), which then has no parse phase
// of its own and says so. Where there is no such compile (the host object
// cached, a clang++ host compile, a file or spec Clang rejects), the parse
// front end parses the file itself - and every stage reads the same either
// way. The walker's refusals and the spec's errors are the parse front
// end's own words in both cases; diff --json reports them, as JSON. The
// host compile searches no directory the parse does not (a header beside
// the kernel, included <so>, is found by neither), so sharing accepts no
// file that parsing alone rejects.
// RUN: rm -rf %t.cache %t.shared %t.own %t.clang
// RUN: env TWINTILE_CACHE_DIR=%t.cache twintile dump %s --kernel 'twice<64>' --dir %t.shared --json | FileCheck %s --check-prefix=SHARED
// RUN: env TWINTILE_CACHE_DIR=%t.cache twintile dump %s --kernel 'twice<64>' --dir %t.own --json | FileCheck %s --check-prefix=OWN
// RUN: env TWINTILE_CACHE_DIR=%t.cache twintile dump %s --kernel 'twice<64>' --dir %t.clang --trace-host clang++ --no-cache --json | FileCheck %s --check-prefix=OWN
// RUN: for s in source.cpp tile.tir tile-opt.tir llvm.ll ptx.ptx; do diff %t.shared/parse.$s %t.own/parse.$s && diff %t.shared/parse.$s %t.clang/parse.$s || exit 1; done
// RUN: env TWINTILE_CACHE_DIR=%t.cache twintile diff %s --kernel 'twice<64>' --no-cache | FileCheck %s --check-prefix=EQUAL
// RUN: rm -rf %t.inc && mkdir -p %t.inc && echo 'inline float sibling() { return 2.0f; }' > %t.inc/sibling.h
// RUN: sed 's|^// ANGLE-INCLUDE$|#include <sibling.h>|' %s > %t.inc/k.cpp
// RUN: env TWINTILE_CACHE_DIR=%t.cache not twintile diff %t.inc/k.cpp --kernel 'twice<64>' --no-cache 2>&1 | FileCheck %s --check-prefix=ANGLE
// RUN: env TWINTILE_CACHE_DIR=%t.cache not twintile compile --frontend=trace %t.inc/k.cpp --kernel 'twice<64>' --no-cache 2>&1 | FileCheck %s --check-prefix=ANGLE
// RUN: env TWINTILE_CACHE_DIR=%t.cache not twintile diff %s --kernel 'boxed<64>' --no-cache 2>&1 | FileCheck %s --check-prefix=WALKER
// RUN: env TWINTILE_CACHE_DIR=%t.cache not twintile diff %s --kernel 'boxed<64>' 2>&1 | FileCheck %s --check-prefix=WALKER
// RUN: env TWINTILE_CACHE_DIR=%t.cache not twintile diff %s --kernel 'boxed<64>' --json 2>%t.err | FileCheck %s --check-prefix=JSON
// RUN: count 0 < %t.err
// RUN: env TWINTILE_CACHE_DIR=%t.cache not twintile diff %s --kernel 'helper<64>' --no-cache 2>&1 | FileCheck %s --check-prefix=HELPER
// RUN: env TWINTILE_CACHE_DIR=%t.cache not twintile diff %s --kernel 'twice<f32>' --no-cache 2>&1 | FileCheck %s --check-prefix=ARGS
#include <twintile.h>
#include <vector>
// ANGLE-INCLUDE
using namespace tt;

template <int N>
TT_KERNEL void twice(Ptr<f32> x, Ptr<f32> y) {
  auto i = arange(0, N);
  store(y + i, load(x + i) * 2.0f);
}

// Traced, not parsed: a container of tiles.
template <int N>
TT_KERNEL void boxed(Ptr<f32> x, Ptr<f32> y) {
  std::vector<decltype(arange(0, N))> parts;
  parts.push_back(arange(0, N));
  store(y + parts[0], load(x + parts[0]));
}

template <int N>
void helper(Ptr<f32> x) {}

// SHARED:      "parse": {
// SHARED-NEXT:   "ok": true,
// SHARED-NEXT:   "phases": [
// SHARED-NEXT:     {
// SHARED-NEXT:       "name": "walk",
// SHARED:        "notes": [
// SHARED-NEXT:     "Clang read the file once for both front ends: the parse is the trace front end's host-compile"
// SHARED:      "trace": {
// SHARED-NEXT:   "ok": true,
// SHARED-NEXT:   "phases": [
// SHARED-NEXT:     {
// SHARED-NEXT:       "name": "host-compile",

// OWN:      "parse": {
// OWN-NEXT:   "ok": true,
// OWN-NEXT:   "phases": [
// OWN-NEXT:     {
// OWN-NEXT:       "name": "parse",
// OWN-NOT:  Clang read the file once
// OWN:      "trace": {

// ANGLE: k.cpp:{{[0-9]+}}:10: error: 'sibling.h' file not found with <angled> include

// EQUAL: equal: the parse and trace IR of twice<64> are structurally identical

// WALKER: one_parse.cpp:[[@LINE-33]]:39: error: the C++ standard library ('std::vector') runs only when traced
// WALKER-NOT: error

// JSON:      "equal": false,
// JSON-NEXT: "verdict": "not compared: parse failed",
// JSON-NEXT: "errors": {
// JSON-NEXT:   "parse": "{{.*}}one_parse.cpp:{{[0-9]+}}:39: error: the C++ standard library ('std::vector') runs only when traced

// HELPER: error: --kernel 'helper<64>' is not a specialization of a kernel in {{.*}}one_parse.cpp: 'helper' is a function, not a kernel (TT_KERNEL)

// ARGS: error: --kernel 'twice<f32>' is not a specialization of a kernel in {{.*}}one_parse.cpp: its template arguments do not fit the kernel's template parameters

// twintile dump writes every stage of both front ends and an index;
// twintile diff says what differs, --show never cuts a line, --json and
// --html report the same verdict.
// RUN: rm -rf %t.dump
// RUN: twintile dump %s --kernel 'twice<64>' --dir %t.dump | FileCheck %s --check-prefix=DUMP
// RUN: ls %t.dump | FileCheck %s --check-prefix=FILES
// RUN: FileCheck %s --check-prefix=INDEX < %t.dump/index.md
// RUN: FileCheck %s --check-prefix=AXES < %t.dump/parse.axes.tir
// RUN: twintile diff %s --kernel 'twice<64>' --show | FileCheck %s --check-prefix=SHOW
// RUN: twintile diff %s --kernel 'twice<64>' --json | FileCheck %s --check-prefix=JSON
// RUN: twintile diff %s --kernel 'twice<64>' --html %t.html | FileCheck %s --check-prefix=HTML
// RUN: FileCheck %s --check-prefix=PAGE < %t.html
// RUN: not twintile dump %s --kernel 'twice<64>' --dir /proc/no-such-dir 2>&1 | FileCheck %s --check-prefix=NODIR
// RUN: twintile diff %s --kernel 'twice<64>' --frontends parse,trace,hybrid --show | FileCheck %s --check-prefix=THREE
// RUN: twintile diff %s --kernel 'twice<64>' --frontends hybrid,parse,trace --html %t3.html
// RUN: FileCheck %s --check-prefix=PAGE3 < %t3.html
// RUN: not twintile diff %s --kernel 'twice<64>' --frontends parse 2>&1 | FileCheck %s --check-prefix=ONE
#include <twintile.h>
using namespace tt;

template <int N>
TT_KERNEL void twice(Ptr<f32> x, Ptr<f32> y_with_a_long_name_so_that_the_header_line_is_very_long_indeed) {
  auto i = arange(0, N);
  store(y_with_a_long_name_so_that_the_header_line_is_very_long_indeed + i, load(x + i) * 2.0f);
}

// DUMP: wrote 24 stage files and an index (index.md, index.json) to
// FILES: index.json
// FILES-NEXT: index.md
// FILES-NEXT: parse.axes.tir
// FILES-NEXT: parse.barriers.txt
// FILES-NEXT: parse.layouts.tir
// FILES-NEXT: parse.llvm-raw.ll
// FILES-NEXT: parse.llvm.ll
// FILES-NEXT: parse.pipelines.tir
// FILES-NEXT: parse.ptx.ptx
// FILES-NEXT: parse.sass-info.txt
// FILES-NEXT: parse.shared.txt
// FILES-NEXT: parse.source.cpp
// FILES-NEXT: parse.tile-opt.tir
// FILES-NEXT: parse.tile.tir
// FILES-NEXT: trace.axes.tir
// INDEX: | stage | what | parse | trace |
// INDEX: | tile | the front end's tile IR, as recorded | [parse.tile.tir](parse.tile.tir) | [trace.tile.tir](trace.tile.tir) |
// INDEX: | sass-info |
// AXES: arange {{.*}}// %0: contig=[64]
// SHOW: parse{{ +}}| trace
// SHOW: func @twice(%x: ptr<f32>, %y_with_a_long_name_so_that_the_header_line_is_very_long_indeed: ptr<f32>) meta {N = 64} options {num_warps = 4} { | func @twice(
// SHOW: equal: the parse and trace IR of twice<64> are structurally identical
// JSON: "command": "diff",
// JSON: "equal": true,
// JSON: "verdict": "equal: the parse and trace IR of twice<64> are structurally identical"
// HTML: equal: the parse and trace IR of twice<64> are structurally identical
// HTML: wrote {{.*}}.html
// PAGE: <p id="verdict" class="verdict equal">equal: the parse and trace IR of twice&lt;64&gt; are structurally identical</p>
// PAGE: <section class="stage" id="stage-source"
// PAGE: <section class="stage" id="stage-tile-opt" data-differences="0">
// PAGE: <section class="stage" id="stage-sass-info"
// NODIR: twintile: error: cannot create directory '/proc/no-such-dir'
// THREE: parse{{ +}}| trace{{ +}}| hybrid
// THREE: func @twice({{.*}} | func @twice({{.*}} | func @twice(
// THREE: equal: the parse, trace and hybrid IR of twice<64> are structurally identical
// PAGE3: <section class="stage" id="stage-rewritten"
// PAGE3: <th class="col-hybrid">hybrid</th><th class="col-parse">parse</th><th class="col-trace">trace</th>
// PAGE3: <section class="stage" id="stage-tile-opt" data-differences="0">
// ONE: --frontends takes 2 to 3 different front ends

//===- Printer.h - the textual form of the tile IR -----------------------===//
//
//   func @add1(%x: ptr<f32>, %n: i32) meta {BLOCK = 128} options {num_warps = 4} {
//     %0 = program_id {axis = 0} : i32 loc("add1.cpp":4:13)
//     %1 = arange {end = 128, start = 0} : tile<128xi32>
//     ...
//     %5, %6 = for %1, %2, %3, %4, %0 : tile<64xf32>, i32 {
//     ^(%7: i32, %8: tile<64xf32>, %9: i32):
//       yield %8, %9
//     }
//     return
//   }
//
// Values are numbered in order of definition (an op's results before the
// values defined inside its regions); parameters keep their names. The
// output is deterministic and Parser.h reads it back to an equal function.
//===----------------------------------------------------------------------===//
#pragma once

#include "ir/IR.h"

#include <functional>
#include <ostream>
#include <string>

namespace twintile::ir {

struct PrintOptions {
  bool locations = true;  // print loc(...) after each op
};

/// What an analysis knows about a value ("contig=[4] ..."), or "" for
/// nothing; printed as a `// %3: ...` comment after the op that defines it
/// (and after a region's arguments). For reading: the parser does not take it.
using Annotator = std::function<std::string(const Value *)>;

void print(std::ostream &os, const Func &f, PrintOptions opts = {});
void print(std::ostream &os, const Module &m, PrintOptions opts = {});
std::string toString(const Func &f, PrintOptions opts = {});
std::string toString(const Func &f, PrintOptions opts, const Annotator &annotate);
std::string toString(const Module &m, PrintOptions opts = {});

/// "file":line:col [from "file":line:col ...], the form inside loc(...).
std::string locationBody(const Location &loc);

} // namespace twintile::ir

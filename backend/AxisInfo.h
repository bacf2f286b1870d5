//===- AxisInfo.h - contiguity, divisibility and constancy of tile values -===//
//
// For every integer or pointer value, per dimension of its shape:
//
//   contiguity   the values come in aligned runs of this length, each run
//                counting up by one (pointers: by one element);
//   divisibility the first value of each run is a multiple of this (pointers:
//                the address, in bytes);
//   constancy    the values come in aligned runs of this length that are all
//                equal.
//
// All three are powers of two. The analysis is seeded by arange, constants,
// and what the caller asserts about the kernel's parameters (16-byte aligned
// pointers, integers divisible by 16), and is propagated through arithmetic,
// broadcasting and structured control flow (carried values to a fixpoint).
// The memory lowering asks it how wide an access may be (Triton's AxisInfo
// plays the same role).
//===----------------------------------------------------------------------===//
#pragma once

#include "backend/Backend.h"
#include "ir/IR.h"

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

namespace twintile::backend {

struct AxisInfo {
  // One entry per dimension; scalars have one entry (their single "dimension").
  std::vector<int64_t> contiguity, divisibility, constancy;

  friend bool operator==(const AxisInfo &, const AxisInfo &) = default;
};

/// The largest divisibility tracked (a value of 0 is divisible by anything).
constexpr int64_t kMaxDivisibility = int64_t(1) << 30;

using AxisInfoMap = std::unordered_map<const ir::Value *, AxisInfo>;

/// Analyzes every value of `func`. `assume` has one entry per parameter or is
/// empty.
AxisInfoMap analyzeAxes(const ir::Func &func, const std::vector<ParamAssumption> &assume);

/// "contig=[4] div=[16] const=[1]", for dumps and tests.
std::string toString(const AxisInfo &info);

} // namespace twintile::backend

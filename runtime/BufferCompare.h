//===- BufferCompare.h - a device's buffers against a reference's ----------===//
//
// One rule for "the device got it right", used by `twintile run` (against
// the interpreter) and by the GPU bench's runner (against the references in
// its bundle).
//===----------------------------------------------------------------------===//
#pragma once

#include <cstdint>
#include <ostream>
#include <span>
#include <string>
#include <vector>

namespace twintile::runtime {

struct BufferCheck {
  std::string name, elem;   // elem: the IR's spelling ("f16", "i32")
  size_t elements = 0;
  size_t changed = 0;       // elements the device left different from their input
  int64_t written = -1;     // elements the kernel stored to, where known (the interpreter counts them)
  size_t mismatches = 0;    // elements where the device and the reference disagree
  std::vector<std::string> examples;  // the first few mismatches, "out[3]: device 1.5, reference 1.25"
};

/// Compares `got` (the device's result) with `want` (the reference's), both
/// from `initial` (same sizes). Integers must be equal. A float is judged
/// relative to itself, or to 1/32 of the largest finite magnitude the
/// reference wrote to the buffer if that is larger: a sum that cancels
/// (attention's output, a layer norm's centred values) keeps the absolute
/// error of its terms, and its terms round differently where PTX uses
/// approximate instructions (ex2.approx) the interpreter computes exactly.
/// NaN matches NaN, and an infinity only the same infinity. Relative
/// tolerances: f16 4e-3, bf16 3e-2, f32 1e-4, f64 1e-12; with fastMath (code
/// compiled with --math=fast) f32 2e-3, which covers tanh.approx's 2^-11
/// (ir/IR.h); every float type also within an absolute 1e-5. (At the edge
/// of the range a fast compile's fused product may stay finite where the
/// interpreter's rounded one overflows: that reads as a mismatch.)
BufferCheck compareBuffer(const std::string &name, const std::string &elem, std::span<const uint8_t> initial,
                          std::span<const uint8_t> want, std::span<const uint8_t> got, bool fastMath = false);

/// "mismatch: ..." lines, then "buffer NAME: N ELEM elements, W written, M changed by the kernel".
void printCheck(std::ostream &os, const BufferCheck &c);

} // namespace twintile::runtime

//===- Interpreter.h - the reference semantics of the tile IR ------------===//
//
// Runs a kernel over a grid of programs on host buffers, one program after
// another, each op on whole tiles, with exactly the semantics of IR.h. It is
// the oracle that the front ends, the backend and the PTX emulator are
// checked against, so it favours plainness over speed.
//===----------------------------------------------------------------------===//
#pragma once

#include "ir/Diagnostic.h"
#include "ir/IR.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace twintile::ir {

/// Host memory of `size()` elements of one kind, stored as the GPU stores it
/// (f16/bf16 as 16-bit patterns, i1 as one byte).
class Buffer {
public:
  Buffer(ScalarKind elem, size_t count, std::string name = {});
  static Buffer fromValues(ScalarKind elem, const std::vector<double> &values, std::string name = {});

  ScalarKind elem() const { return elem_; }
  size_t size() const { return count_; }
  const std::string &name() const { return name_; }
  std::vector<uint8_t> &bytes() { return bytes_; }

  double get(size_t i) const;          // any kind, as a double
  int64_t getInt(size_t i) const;      // integer kinds, exactly
  void set(size_t i, double v);        // rounds to a float kind; truncates and saturates to an integer kind
  void setInt(size_t i, int64_t v);    // integer kinds: wraps
  std::vector<double> values() const;

private:
  ScalarKind elem_;
  size_t count_;
  std::string name_;
  std::vector<uint8_t> bytes_;
};

/// One kernel argument: a buffer (by index into the buffer list) for a
/// pointer parameter, or a scalar.
struct KernelArg {
  enum class Kind { Buffer, Int, Float };
  Kind kind = Kind::Int;
  size_t buffer = 0;
  int64_t i = 0;
  double f = 0;

  static KernelArg buf(size_t index) { KernelArg a; a.kind = Kind::Buffer; a.buffer = index; return a; }
  static KernelArg integer(int64_t v) { KernelArg a; a.kind = Kind::Int; a.i = v; return a; }
  static KernelArg floating(double v) { KernelArg a; a.kind = Kind::Float; a.f = v; return a; }
};

struct Grid {
  int64_t x = 1, y = 1, z = 1;
};

struct InterpretOptions {
  /// Ops executed before the run stops with an error (a guard against
  /// kernels that never terminate).
  int64_t maxSteps = 200'000'000;
  /// The kernel was compiled with --math=fast: rsqrt then flushes a
  /// subnormal f32 (or bf16) operand to a zero of its sign, as the GPU's
  /// rsqrt.approx.ftz does (IR.h), the one departure of the fast mode that
  /// no comparison tolerance covers. Everything else stays precise.
  bool fastMath = false;
};

struct RunResult {
  std::optional<Diagnostic> error;  // the first failure; buffers may be partly written
  std::string printed;              // what device_print wrote
  std::vector<size_t> stored;       // per buffer: distinct elements stores and atomics wrote
  bool ok() const { return !error; }
};

RunResult interpret(const Func &f, Grid grid, const std::vector<KernelArg> &args,
                    std::vector<Buffer> &buffers, InterpretOptions opts = {});

} // namespace twintile::ir

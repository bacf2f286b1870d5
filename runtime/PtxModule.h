//===- PtxModule.h - PTX text, parsed and decoded for the emulator --------===//
//
// Reads the PTX that LLVM's NVPTX target writes (and hand-written PTX of the
// same dialect): module directives, .global/.const/.shared variables with
// initializers, .entry kernels and .func functions with nested scopes. Every
// instruction is decoded at parse time; an opcode, modifier or operand the
// emulator cannot run is a PtxError at its line, never a surprise later.
//===----------------------------------------------------------------------===//
#pragma once

#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace twintile::runtime {

namespace ptx {
struct Program;
}

/// A PTX parse error: the line (1-based) in the PTX text, and what is wrong.
struct PtxError : std::runtime_error {
  int line;
  std::string message;  // without the "line N: " prefix that what() has
  PtxError(int line, const std::string &msg);
};

class PtxModule {
public:
  static PtxModule parse(const std::string &ptx);  // throws PtxError
  std::vector<std::string> entries() const;         // .entry names, in order

  /// Number of decoded instructions in a function (0 if there is none).
  size_t instructionCount(const std::string &function) const;

  const ptx::Program &program() const { return *program_; }

private:
  std::shared_ptr<const ptx::Program> program_;
};

} // namespace twintile::runtime

//===- PassManager.h - running passes, timing them, printing after each --===//
#pragma once

#include "ir/IR.h"

#include <functional>
#include <ostream>
#include <string>
#include <vector>

namespace twintile::ir {

struct PassTiming {
  std::string pass;
  double seconds = 0;
  bool changed = false;
};

class PassManager {
public:
  using PassFn = std::function<bool(Func &)>;

  void add(std::string name, PassFn fn) { passes_.push_back({std::move(name), std::move(fn)}); }
  /// Adds a pass by name: expand-descriptors, canonicalize, cse, dce. Returns false if unknown.
  bool addByName(const std::string &name);
  /// The standard pipeline: expand-descriptors, then the cleanup (canonicalize, cse, dce).
  void addDefaultPipeline();

  /// Prints the IR after each pass to `os` (null: never).
  void setPrintAfterEach(std::ostream *os, bool locations = false) { printTo_ = os; printLocs_ = locations; }
  /// Verifies after each pass; a failure is a compiler bug: InternalError,
  /// with the verifier's messages.
  void setVerifyEach(bool v) { verifyEach_ = v; }

  /// Runs every pass once, in order; returns whether any changed `f`.
  bool run(Func &f);
  const std::vector<PassTiming> &timings() const { return timings_; }
  /// The last run's time in the verifier after the passes (setVerifyEach).
  double verifySeconds() const { return verifySeconds_; }
  /// A table of the last run's timings.
  void printTimings(std::ostream &os) const;

  static std::vector<std::string> knownPasses();

private:
  struct Entry {
    std::string name;
    PassFn fn;
  };
  std::vector<Entry> passes_;
  std::vector<PassTiming> timings_;
  double verifySeconds_ = 0;
  std::ostream *printTo_ = nullptr;
  bool printLocs_ = false;
  bool verifyEach_ = true;
};

} // namespace twintile::ir

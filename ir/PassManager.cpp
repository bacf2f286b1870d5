#include "ir/PassManager.h"

#include "ir/Passes.h"
#include "ir/Printer.h"
#include "ir/Verifier.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <iomanip>
#include <iostream>

namespace twintile::ir {

namespace {
struct Known {
  const char *name;
  bool (*fn)(Func &);
};
constexpr Known kPasses[] = {{"expand-descriptors", expandDescriptors}, {"canonicalize", canonicalize}, {"cse", cse}, {"dce", dce}};
} // namespace

std::vector<std::string> PassManager::knownPasses() {
  std::vector<std::string> names;
  for (const Known &k : kPasses) names.emplace_back(k.name);
  return names;
}

bool PassManager::addByName(const std::string &name) {
  for (const Known &k : kPasses)
    if (name == k.name) {
      add(name, k.fn);
      return true;
    }
  return false;
}

void PassManager::addDefaultPipeline() {
  for (const Known &k : kPasses) add(k.name, k.fn);
}

bool PassManager::run(Func &f) {
  timings_.clear();
  verifySeconds_ = 0;
  bool changedAny = false;
  for (Entry &p : passes_) {
    auto start = std::chrono::steady_clock::now();
    bool changed = p.fn(f);
    double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    timings_.push_back({p.name, seconds, changed});
    changedAny |= changed;
    if (printTo_) {
      *printTo_ << "// -----// IR after " << p.name << (changed ? "" : " (unchanged)") << " //----- //\n";
      print(*printTo_, f, {.locations = printLocs_});
    }
    if (verifyEach_) {
      auto verifyStart = std::chrono::steady_clock::now();
      std::vector<Diagnostic> diags = verify(f);
      verifySeconds_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - verifyStart).count();
      if (!diags.empty()) {
        // The input verified, so this is a bug in the pass, not the user's error.
        std::string what = "the IR does not verify after pass '" + p.name + "'";
        for (const Diagnostic &d : diags) what += "\n  " + (d.loc.known() ? toString(d.loc.pos) + ": " : "") + d.message;
        throw InternalError(what, diags.front().loc);
      }
    }
  }
  return changedAny;
}

void PassManager::printTimings(std::ostream &os) const {
  double total = 0;
  for (const PassTiming &t : timings_) total += t.seconds;
  os << "===-- pass timings --===\n";
  for (const PassTiming &t : timings_)
    os << std::setw(12) << std::fixed << std::setprecision(1) << t.seconds * 1e6 << " us  " << t.pass
       << (t.changed ? "" : " (unchanged)") << "\n";
  os << std::setw(12) << std::fixed << std::setprecision(1) << total * 1e6 << " us  total\n";
}

} // namespace twintile::ir

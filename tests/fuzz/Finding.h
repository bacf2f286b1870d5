//===- Finding.h - what a fuzz target reports as a bug --------------------===//
//
// A fuzz target (LLVMFuzzerTestOneInput) returns normally for every input
// twintile handles as promised: accepted, or refused with a clear message.
// Anything else is a finding: a crash or a sanitizer report (found by the
// sanitizers themselves), a hang (libFuzzer's -timeout), or one of these,
// which the target checks and reports by aborting, so that libFuzzer keeps
// the input and a replay of it fails.
//===----------------------------------------------------------------------===//
#pragma once

#include <cstdio>
#include <cstdlib>
#include <string>

namespace twintile::fuzz {

[[noreturn]] inline void finding(const std::string &what) {
  std::fprintf(stderr, "\nFINDING: %s\n", what.c_str());
  std::abort();
}

} // namespace twintile::fuzz

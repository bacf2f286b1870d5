//===- LanguageFiles.h - the files a kernel compiles against -------------===//
#pragma once

#include <array>

namespace twintile {

/// The language header's files, relative to the source tree: what every
/// cache of a compiled kernel file (the parser's precompiled header, the
/// tracer's host objects) keys on, so that a change to any of them is a
/// rebuild.
inline constexpr std::array<const char *, 9> kLanguageFiles = {
    "include/twintile.h",        "include/twintile/ops.def",    "include/twintile/promote.h",
    "include/twintile/values.h", "include/twintile/random.h",   "include/twintile/control.h",
    "include/twintile/algorithms.h", "include/twintile/descriptor.h", "include/twintile/instantiated.h"};

} // namespace twintile

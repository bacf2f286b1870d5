// Helpers shared by the IR unit tests.
#pragma once

#include "ir/Parser.h"
#include "ir/Verifier.h"

#include <catch2/catch.hpp>

#include <memory>
#include <string>

namespace twintile::ir::test {

/// Parses `text`, requiring success; with `verifyAll`, requires every
/// function to verify too.
inline std::unique_ptr<Module> parseValid(const std::string &text, bool verifyAll = true) {
  ParseResult r = parseModule(text);
  INFO((r.error ? r.error->str() : std::string()));
  REQUIRE(r.module);
  if (verifyAll)
    for (auto &f : r.module->funcs) REQUIRE(verify(*f).empty());
  return std::move(r.module);
}

} // namespace twintile::ir::test

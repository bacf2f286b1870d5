//===- IrFuzz.cpp - fuzz target: tile IR text through the whole IR layer --===//
//
// Parses the input as tile IR. Text that does not parse must be refused with
// a located, user-facing error. IR that parses is verified; IR that verifies
// goes through the cleanup (canonicalize, cse, dce: an InternalError there is
// a bug), and what comes out must print, parse back, and print the same.
//===----------------------------------------------------------------------===//
#include "Finding.h"

#include "ir/Parser.h"
#include "ir/PassManager.h"
#include "ir/Printer.h"
#include "ir/Verifier.h"

#include <cstdint>
#include <string_view>

using namespace twintile::ir;
using twintile::fuzz::finding;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size > 64 * 1024) return -1;  // not worth the time: no new paths there
  std::string_view text(reinterpret_cast<const char *>(data), size);
  ParseResult parsed = parseModule(text, "<fuzz>");
  if (!parsed.module) {
    if (!parsed.error) finding("the parser failed without saying why");
    if (parsed.error->internal) finding(parsed.error->str());
    return 0;
  }
  for (auto &f : parsed.module->funcs) {
    if (!verify(*f).empty()) continue;
    PassManager pm;
    pm.addDefaultPipeline();
    try {
      pm.run(*f);
    } catch (const InternalError &e) {
      finding(e.what());
    }
    std::string printed = toString(*f);
    ParseResult again = parseModule(printed, "<printed>");
    if (!again.module) finding("the cleaned IR does not parse back: " + again.error->str() + "\n" + printed);
    if (again.module->funcs.size() != 1 || toString(*again.module->funcs.front()) != printed)
      finding("the cleaned IR does not print the same after a round trip:\n" + printed);
  }
  return 0;
}

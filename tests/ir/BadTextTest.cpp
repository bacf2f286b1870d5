// Bad IR text (ir/Parser.h) that only a program can make: every error is a
// Diagnostic located at the offending token (file:line:col), and no input
// crashes or hangs the parser: truncations, garbage and NUL bytes, deep
// nesting, a string cut off by the end of the input, and a mutation fuzz
// loop. Each refusal of a written text is a case of
// tests/lit/errors/bad-text.tir.
#include "ir/Parser.h"
#include "ir/Printer.h"
#include "ir/Verifier.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

using namespace twintile::ir;

namespace {

const char *const kFile = "bad.tir";

/// A valid function in printed form, using regions, locations, strings,
/// meta attributes and pointer tiles.
const std::string kValid = R"(func @k(%x: ptr<f32>, %n: i32) meta {BLOCK = 128, T = "f32"} options {num_warps = 4} loc("k.cpp":1:1) {
  %0 = program_id {axis = 0} : i32 loc("k.cpp":2:3)
  %1 = arange {end = 128, start = 0} : tile<128xi32> loc("k.cpp":3:3)
  %2 = splat %x : tile<128xptr<f32>> loc("k.cpp":4:3)
  %3 = addptr %2, %1 : tile<128xptr<f32>> loc("k.cpp":4:3)
  %4 = splat %n : tile<128xi32>
  %5 = lt %1, %4 : tile<128xi1>
  %6 = constant {value = -inf} : tile<128xf32>
  %7 = load %3, %5, %6 : tile<128xf32> loc("k.cpp":5:3 from "main.cpp":9:1)
  %8 = constant {value = 0} : i32
  %9 = constant {value = 1} : i32
  %10 = for %8, %n, %9, %7 : tile<128xf32> {
  ^(%11: i32, %12: tile<128xf32>):
    %13 = exp %12 : tile<128xf32>
    yield %13
  } loc("k.cpp":6:3)
  %14 = sum {axis = 0} %10 : f32
  device_print {prefix = "s = \"\n"} %14
  store %3, %10, %5
  return
}
)";

/// A valid function with while, if and a for without carried values.
const std::string kValidControl = R"(func @spin(%x: ptr<f32>, %n: i32) options {num_warps = 8} {
  %0 = constant {value = 0} : i32
  %1 = constant {value = 0.0} : f32
  %2, %3 = while %0, %1 : i32, f32 {
  ^(%4: i32, %5: f32):
    %6 = lt %4, %n : i1
    yield %6
  } {
  ^(%7: i32, %8: f32):
    %9 = constant {value = 1} : i32
    for %9, %7, %9 {
    ^(%10: i32):
      store %x, %8 loc("a.cpp":3:4)
      yield
    }
    %11 = add %7, %9 : i32
    %12 = gt %11, %n : i1
    %13 = if %12 : f32 {
      yield %8
    } {
      %14 = constant {value = 2.0} : f32
      %15 = add %8, %14 : f32
      yield %15
    }
    yield %11, %13
  }
  store %x, %3
  return
}
)";

/// Wraps `body` (ops, one per line) in a function with a few parameters:
/// the first op is on line 2, and the function has no other lines before it.
std::string inFunc(const std::string &body) {
  return "func @f(%x: ptr<f32>, %n: i32, %c: i1, %t: tile<16x8xf32>) {\n" + body + "\n  return\n}\n";
}

std::string str(const ParseResult &r) { return r.error ? r.error->str() : std::string("no error"); }

/// Parses `text`, which must fail, and returns the error.
Diagnostic parseError(const std::string &text) {
  ParseResult r = parseModule(text, kFile);
  INFO(text);
  REQUIRE_FALSE(r.module);
  REQUIRE(r.error);
  CHECK(r.error->loc.pos.file == kFile);
  CHECK(r.error->loc.inlinedAt.empty());
  return *r.error;
}

/// Checks that `d` is located at line:col of the text.
void checkAt(const Diagnostic &d, int line, int col) {
  INFO(d.str());
  CHECK(d.loc.pos.line == line);
  CHECK(d.loc.pos.col == col);
}

/// 1-based line and column of byte offset `offset` in `text`.
std::pair<int, int> lineCol(const std::string &text, size_t offset) {
  int line = 1, col = 1;
  for (size_t i = 0; i < offset && i < text.size(); ++i) {
    if (text[i] == '\n') { ++line; col = 1; }
    else ++col;
  }
  return {line, col};
}

/// The error is located inside `text` (or just past its end), in `kFile`.
void checkLocatedInside(const Diagnostic &d, const std::string &text) {
  INFO(d.str());
  auto [endLine, endCol] = lineCol(text, text.size());
  CHECK(d.loc.pos.file == kFile);
  CHECK(d.loc.pos.line >= 1);
  CHECK(d.loc.pos.col >= 1);
  CHECK(d.loc.pos.line <= endLine);
  if (d.loc.pos.line == endLine) CHECK(d.loc.pos.col <= endCol);
  CHECK_FALSE(d.message.empty());
}

/// Parses arbitrary `text`: either a located error, or a module that
/// verifies without crashing and whose printed form parses back to itself.
void parseAnything(const std::string &text) {
  ParseResult r = parseModule(text, kFile);
  if (!r.module) {
    REQUIRE(r.error);
    checkLocatedInside(*r.error, text);
    return;
  }
  CHECK_FALSE(r.error);
  for (auto &f : r.module->funcs) (void)verify(*f);
  std::string printed = toString(*r.module);
  ParseResult again = parseModule(printed, kFile);
  INFO(text);
  INFO(printed);
  INFO(str(again));
  REQUIRE(again.module);
  CHECK(toString(*again.module) == printed);
}

} // namespace

TEST_CASE("bad text: the base text is valid and canonical", "[badtext]") {
  ParseResult r = parseModule(kValid, kFile);
  INFO(str(r));
  REQUIRE(r.module);
  REQUIRE(r.module->funcs.size() == 1);
  CHECK(verify(*r.module->funcs[0]).empty());
  CHECK(toString(*r.module) == kValid);

  ParseResult control = parseModule(kValidControl, kFile);
  INFO(str(control));
  REQUIRE(control.module);
  CHECK(verify(*control.module->funcs[0]).empty());
  CHECK(toString(*control.module) == kValidControl);
}

TEST_CASE("bad text: every truncation fails cleanly or parses", "[badtext]") {
  for (const std::string &valid : {kValid, kValidControl}) {
    size_t lastBrace = valid.rfind('}');
    for (size_t n = 0; n <= valid.size(); ++n) {
      std::string prefix = valid.substr(0, n);
      INFO("prefix of " << n << " bytes: " << prefix);
      ParseResult r = parseModule(prefix, kFile);
      if (n <= lastBrace) {
        REQUIRE_FALSE(r.module);
        REQUIRE(r.error);
        checkLocatedInside(*r.error, prefix);
      } else {
        REQUIRE(r.module);
        CHECK(verify(*r.module->funcs[0]).empty());
      }
    }
  }
}

TEST_CASE("bad text: truncations of a two-function module", "[badtext]") {
  const std::string two = kValid + "\n" + inFunc("  %0 = add %n, %n : i32");
  size_t firstEnd = kValid.rfind('}');
  size_t lastBrace = two.rfind('}');
  int parsedOne = 0;
  for (size_t n = 0; n <= two.size(); n += 3) {
    std::string prefix = two.substr(0, n);
    ParseResult r = parseModule(prefix, kFile);
    INFO("prefix of " << n << " bytes: " << str(r));
    if (r.module) {
      CHECK((n > lastBrace || (n > firstEnd && n <= kValid.size() + 1)));
      parsedOne += r.module->funcs.size() == 1;
      continue;
    }
    REQUIRE(r.error);
    checkLocatedInside(*r.error, prefix);
  }
  CHECK(parsedOne >= 1);
}

TEST_CASE("bad text: random garbage bytes", "[badtext]") {
  for (uint32_t seed : {1u, 2u, 3u, 42u, 1234u, 99999u}) {
    std::mt19937 rng(seed);
    for (int round = 0; round < 50; ++round) {
      std::string text(std::uniform_int_distribution<size_t>(0, 300)(rng), '\0');
      for (char &c : text) c = static_cast<char>(std::uniform_int_distribution<int>(0, 255)(rng));
      INFO("seed " << seed << " round " << round);
      parseAnything(text);
      // Garbage after a valid prefix.
      parseAnything(kValid.substr(0, kValid.size() / 2) + text);
    }
  }
}

TEST_CASE("bad text: binary junk with NUL bytes", "[badtext]") {
  Diagnostic atStart = parseError(std::string("\0\0\0func", 7));
  checkAt(atStart, 1, 1);
  CHECK(atStart.message == "expected 'func', got byte 0x00");

  Diagnostic inName = parseError(std::string("func @f\0(%x: i32) {\n  return\n}\n", 31));
  checkAt(inName, 1, 8);
  CHECK(inName.message == "expected '(' to open the parameter list, got byte 0x00");

  Diagnostic inBody = parseError(inFunc(std::string("  %0 = add %n, %n \x01\xff : i32", 25)));
  checkAt(inBody, 2, 3);
  CHECK(inBody.message == "'add' declares 1 results but 0 result types");

  Diagnostic highByte = parseError(inFunc("  \xfe\xed = add %n, %n : i32"));
  checkAt(highByte, 2, 3);
  CHECK(highByte.message == "expected an op name, got byte 0xfe");
}

TEST_CASE("bad text: a string unterminated at the end of the input", "[badtext]") {
  Diagnostic atEnd = parseError("func @f() {\n  device_print {prefix = \"abc");
  checkAt(atEnd, 2, 26);
  CHECK(atEnd.message == "unterminated string");
}

TEST_CASE("bad text: deeply nested braces", "[badtext]") {
  // Regions nest to 64 levels at most; the error is at the first region too deep.
  std::string text = "func @f(%c: i1) {\n";
  const int depth = 100;
  for (int i = 0; i < depth; ++i) text += "if %c {\n";
  for (int i = 0; i < depth; ++i) text += "yield\n} {\nyield\n}\n";
  text += "return\n}\n";
  Diagnostic d = parseError(text);
  checkAt(d, 66, 1);  // the region of the 64th if
  CHECK(d.message == "regions are nested too deeply");

  // 63 levels of if inside the body are fine.
  std::string ok = "func @f(%c: i1) {\n";
  for (int i = 0; i < 63; ++i) ok += "if %c {\n";
  for (int i = 0; i < 63; ++i) ok += "yield\n} {\nyield\n}\n";
  ok += "return\n}\n";
  ParseResult r = parseModule(ok, kFile);
  INFO(str(r));
  REQUIRE(r.module);
  CHECK(verify(*r.module->funcs[0]).empty());

  // Bare braces are not ops: one error, no recursion.
  Diagnostic bare = parseError("func @f() {\n" + std::string(100000, '{') + std::string(100000, '}'));
  checkAt(bare, 2, 1);
  CHECK(bare.message == "expected an op name, got '{'");

  Diagnostic meta = parseError("func @f() meta {" + std::string(10000, '{') + "} {\n}\n");
  checkAt(meta, 1, 17);
  CHECK(meta.message == "expected an attribute name, got '{'");
}

TEST_CASE("bad text: random single-byte mutations never crash", "[badtext]") {
  const std::string alphabet = "%@{}()[]<>:,=^\"\\x0123456789 \n-.eiptfloadd";
  std::mt19937 rng(20240611);
  int parsed = 0, failed = 0;
  for (int round = 0; round < 3000; ++round) {
    std::string text = round % 2 ? kValidControl : kValid;
    int edits = std::uniform_int_distribution<int>(1, 3)(rng);
    for (int e = 0; e < edits; ++e) {
      size_t at = std::uniform_int_distribution<size_t>(0, text.size() - 1)(rng);
      char c = std::uniform_int_distribution<int>(0, 3)(rng) == 0
                   ? static_cast<char>(std::uniform_int_distribution<int>(0, 255)(rng))
                   : alphabet[std::uniform_int_distribution<size_t>(0, alphabet.size() - 1)(rng)];
      switch (std::uniform_int_distribution<int>(0, 2)(rng)) {
      case 0: text[at] = c; break;
      case 1: text.erase(at, 1); break;
      default: text.insert(text.begin() + static_cast<std::ptrdiff_t>(at), c); break;
      }
      if (text.empty()) text = " ";
    }
    INFO("round " << round << ":\n" << text);
    ParseResult r = parseModule(text, kFile);
    if (r.module) {
      ++parsed;
      for (auto &f : r.module->funcs) (void)verify(*f);
      parseAnything(text);
    } else {
      ++failed;
      REQUIRE(r.error);
      checkLocatedInside(*r.error, text);
    }
  }
  // Both outcomes occur: edits in comments, names and locations keep the text valid.
  CHECK(parsed > 0);
  CHECK(failed > 0);
}

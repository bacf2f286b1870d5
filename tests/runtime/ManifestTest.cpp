// The launch manifest (backend/Backend.h): JSON written in a stable order
// reads back to the same manifest; bad text, a wrong format, and missing or
// ill-typed fields are refused with a message naming the field.
#include "runtime/Manifest.h"

#include <catch2/catch.hpp>

#include <stdexcept>
#include <string>

using namespace twintile::runtime;

namespace {

Manifest sample() {
  Manifest m;
  m.kernel = "vector_add";
  m.arch = "sm_90a";
  m.math = "fast";
  m.numWarps = 8;
  m.threadsPerProgram = 256;
  m.sharedBytes = 65536;
  m.dynamicSharedBytes = 65536;
  m.globalScratchBytes = 256;
  m.params = {{"x", "ptr<f32>", {true, false}},
              {"y", "ptr<f16>", {false, false}},
              {"n", "i32", {false, true}}};
  return m;
}

bool equal(const Manifest &a, const Manifest &b) {
  if (a.kernel != b.kernel || a.arch != b.arch || a.math != b.math || a.numWarps != b.numWarps ||
      a.threadsPerProgram != b.threadsPerProgram || a.sharedBytes != b.sharedBytes ||
      a.dynamicSharedBytes != b.dynamicSharedBytes || a.globalScratchBytes != b.globalScratchBytes ||
      a.params.size() != b.params.size())
    return false;
  for (size_t i = 0; i < a.params.size(); ++i)
    if (a.params[i].name != b.params[i].name || a.params[i].type != b.params[i].type ||
        !(a.params[i].assume == b.params[i].assume))
      return false;
  return true;
}

/// The message fromJson throws for `text`, or "" if it does not throw.
std::string errorOf(const std::string &text) {
  try {
    Manifest::fromJson(text);
  } catch (const std::runtime_error &e) {
    return e.what();
  }
  return "";
}

/// sample()'s JSON with the first occurrence of `from` replaced by `to`.
std::string edited(const std::string &from, const std::string &to) {
  std::string text = sample().toJson();
  size_t at = text.find(from);
  REQUIRE(at != std::string::npos);
  return text.replace(at, from.size(), to);
}

} // namespace

TEST_CASE("manifest round trip", "[manifest]") {
  Manifest m = sample();
  std::string text = m.toJson();
  Manifest back = Manifest::fromJson(text);
  CHECK(equal(m, back));
  CHECK(back.toJson() == text);

  Manifest empty;
  empty.kernel = "k";
  empty.arch = "sm_80";
  CHECK(equal(Manifest::fromJson(empty.toJson()), empty));
}

TEST_CASE("manifest JSON is pretty, in a stable order", "[manifest]") {
  Manifest m;
  m.kernel = "k";
  m.arch = "sm_90a";
  m.numWarps = 4;
  m.threadsPerProgram = 128;
  m.sharedBytes = 0;
  m.params = {{"x", "ptr<f32>", {true, false}}};
  CHECK(m.toJson() == R"({
  "format": "twintile-manifest-1",
  "kernel": "k",
  "arch": "sm_90a",
  "math": "precise",
  "num_warps": 4,
  "threads_per_program": 128,
  "shared_bytes": 0,
  "dynamic_shared_bytes": 0,
  "global_scratch_bytes": 0,
  "params": [
    {
      "name": "x",
      "type": "ptr<f32>",
      "aligned16": true,
      "divisible16": false
    }
  ]
}
)");
}

TEST_CASE("manifest text that is not JSON is refused", "[manifest]") {
  CHECK(errorOf("").find("manifest: not valid JSON") == 0);
  CHECK(errorOf("{\"format\": ").find("manifest: not valid JSON") == 0);
  std::string text = sample().toJson();
  CHECK(errorOf(text.substr(0, text.size() / 2)).find("not valid JSON") != std::string::npos);
  CHECK(errorOf("[1, 2]") == "manifest: expected an object, not array");
}

TEST_CASE("manifest with a wrong or missing format is refused", "[manifest]") {
  CHECK(errorOf(edited("twintile-manifest-1", "twintile-manifest-0")) ==
        "manifest: format is 'twintile-manifest-0', expected 'twintile-manifest-1'");
  CHECK(errorOf(edited("\"format\"", "\"formt\"")) == "manifest: missing field 'format'");
}

TEST_CASE("manifest fields that are missing or ill-typed are named", "[manifest]") {
  CHECK(errorOf(edited("\"kernel\"", "\"kernal\"")) == "manifest: missing field 'kernel'");
  CHECK(errorOf(edited("\"vector_add\"", "42")) == "manifest: field 'kernel' must be a string, not number");
  CHECK(errorOf(edited("\"sm_90a\"", "null")) == "manifest: field 'arch' must be a string, not null");
  CHECK(errorOf(edited("\"num_warps\": 8", "\"num_warps\": \"8\"")) ==
        "manifest: field 'num_warps' must be an integer, not string");
  CHECK(errorOf(edited("\"num_warps\": 8", "\"num_warps\": 8.5")) ==
        "manifest: field 'num_warps' must be an integer, not number");
  CHECK(errorOf(edited("\"num_warps\": 8", "\"num_warps\": 0")) ==
        "manifest: field 'num_warps' must be at least 1 and fit in an int, not 0");
  CHECK(errorOf(edited("\"shared_bytes\": 65536", "\"shared_bytes\": -1")) ==
        "manifest: field 'shared_bytes' must be at least 0 and fit in an int, not -1");
  CHECK(errorOf(edited("\"shared_bytes\": 65536", "\"shared_bytes\": 99999999999")) ==
        "manifest: field 'shared_bytes' must be at least 0 and fit in an int, not 99999999999");
  CHECK(errorOf(edited("\"threads_per_program\"", "\"threads\"")) ==
        "manifest: missing field 'threads_per_program'");
  CHECK(errorOf(edited("\"math\": \"fast\"", "\"math\": \"sloppy\"")) ==
        "manifest: field 'math' is 'sloppy', expected 'precise' or 'fast'");
  CHECK(errorOf(edited("\"math\": \"fast\"", "\"math\": 1")) == "manifest: field 'math' must be a string, not number");
  CHECK(errorOf(edited("\"dynamic_shared_bytes\": 65536", "\"dynamic_shared_bytes\": -16")) ==
        "manifest: field 'dynamic_shared_bytes' must be at least 0 and fit in an int, not -16");
  CHECK(errorOf(edited("\"shared_bytes\": 65536", "\"shared_bytes\": 4096")) ==
        "manifest: field 'dynamic_shared_bytes' (65536) exceeds 'shared_bytes' (4096)");
  // Written before the field existed: all shared memory static.
  CHECK(Manifest::fromJson(edited("\"dynamic_shared_bytes\": 65536,", "")).dynamicSharedBytes == 0);
  CHECK(errorOf(edited("\"global_scratch_bytes\": 256", "\"global_scratch_bytes\": 100")) ==
        "manifest: field 'global_scratch_bytes' (100) is not a multiple of 128");
  CHECK(errorOf(edited("\"global_scratch_bytes\": 256", "\"global_scratch_bytes\": -128")) ==
        "manifest: field 'global_scratch_bytes' must be at least 0 and fit in an int, not -128");
  // Written before the field existed: no scratch.
  CHECK(Manifest::fromJson(edited("\"global_scratch_bytes\": 256,", "")).globalScratchBytes == 0);
  // Written before the field existed: precise.
  CHECK(Manifest::fromJson(edited("\"math\": \"fast\",", "")).math == "precise");
  CHECK(errorOf(edited("\"params\": [", "\"params\": {\"a\": [")).find("not valid JSON") != std::string::npos);
}

TEST_CASE("manifest parameters that are wrong are named by index", "[manifest]") {
  CHECK(errorOf(edited("\"params\"", "\"parameters\"")) == "manifest: missing field 'params'");
  CHECK(errorOf(edited("\"name\": \"y\"", "\"nme\": \"y\"")) == "manifest: params[1]: missing field 'name'");
  CHECK(errorOf(edited("\"type\": \"i32\"", "\"type\": [\"i32\"]")) ==
        "manifest: params[2]: field 'type' must be a string, not array");
  CHECK(errorOf(edited("\"aligned16\": true", "\"aligned16\": 1")) ==
        "manifest: params[0]: field 'aligned16' must be a boolean, not number");
  CHECK(errorOf(edited("\"divisible16\": false", "\"divisible16\": \"no\"")) ==
        "manifest: params[0]: field 'divisible16' must be a boolean, not string");

  Manifest m = sample();
  std::string text = m.toJson();
  size_t at = text.find("\"params\": [");
  std::string notArray = text.substr(0, at) + "\"params\": 3\n}\n";
  CHECK(errorOf(notArray) == "manifest: field 'params' must be an array, not number");
  std::string notObject = text.substr(0, at) + "\"params\": [\"x\"]\n}\n";
  CHECK(errorOf(notObject) == "manifest: params[0]: expected an object, not string");
  CHECK(errorOf(edited("\"type\": \"i32\"", "\"type\": \"tile<4xi32>\"")) ==
        "manifest: params[2]: type 'tile<4xi32>' is not a scalar or a pointer to one");
  CHECK(errorOf(edited("\"type\": \"ptr<f16>\"", "\"type\": \"ptr<ptr<f16>>\"")) ==
        "manifest: params[1]: type 'ptr<ptr<f16>>' is not a scalar or a pointer to one");
}

TEST_CASE("parameter types read from a manifest", "[manifest]") {
  auto half = parseParamType("ptr<f16>");
  REQUIRE(half);
  CHECK((half->pointer && half->elem == "f16" && half->bytes == 2 && half->isFloat));
  auto n = parseParamType("i64");
  REQUIRE(n);
  CHECK((!n->pointer && n->bytes == 8 && !n->isFloat && n->isSigned));
  auto flag = parseParamType("i1");
  REQUIRE(flag);
  CHECK((flag->bytes == 1 && !flag->isSigned));
  CHECK(!parseParamType("ptr<>"));
  CHECK(!parseParamType("f8"));
}

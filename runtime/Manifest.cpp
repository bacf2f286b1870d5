//===- Manifest.cpp - the launch manifest as JSON ------------------------===//
//
//   {
//     "format": "twintile-manifest-1",
//     "kernel": "add1",
//     "arch": "sm_90a",
//     "math": "precise",
//     "num_warps": 4,
//     "threads_per_program": 128,
//     "shared_bytes": 0,
//     "dynamic_shared_bytes": 0,
//     "params": [
//       {"name": "x", "type": "ptr<f32>", "aligned16": true, "divisible16": false},
//       ...
//     ]
//   }
//
// Keys are written in this order, indented by two spaces. Reading checks the
// format and the type of every field, and names the first one that is wrong.
//===----------------------------------------------------------------------===//
#include "runtime/Manifest.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <limits>
#include <optional>
#include <stdexcept>

namespace twintile::runtime {

namespace {

constexpr const char *kFormat = "twintile-manifest-1";

using Json = nlohmann::ordered_json;

[[noreturn]] void fail(const std::string &what) { throw std::runtime_error("manifest: " + what); }

const Json &field(const Json &obj, const char *key, const std::string &where) {
  auto it = obj.find(key);
  if (it == obj.end()) fail(where + "missing field '" + key + "'");
  return *it;
}

std::string getString(const Json &obj, const char *key, const std::string &where = {}) {
  const Json &v = field(obj, key, where);
  if (!v.is_string()) fail(where + "field '" + key + "' must be a string, not " + v.type_name());
  return v.get<std::string>();
}

bool getBool(const Json &obj, const char *key, const std::string &where = {}) {
  const Json &v = field(obj, key, where);
  if (!v.is_boolean()) fail(where + "field '" + key + "' must be a boolean, not " + v.type_name());
  return v.get<bool>();
}

int getInt(const Json &obj, const char *key, int min, const std::string &where = {}) {
  const Json &v = field(obj, key, where);
  if (!v.is_number_integer()) fail(where + "field '" + key + "' must be an integer, not " + v.type_name());
  constexpr int64_t max = std::numeric_limits<int>::max();
  bool fits = v.is_number_unsigned() ? v.get<uint64_t>() <= static_cast<uint64_t>(max) : v.get<int64_t>() <= max;
  if (!fits || v.get<int64_t>() < min)
    fail(where + "field '" + key + "' must be at least " + std::to_string(min) + " and fit in an int, not " +
         v.dump());
  return static_cast<int>(v.get<int64_t>());
}

} // namespace

std::optional<ParamType> parseParamType(const std::string &spelling) {
  ParamType t;
  std::string elem = spelling;
  if (elem.starts_with("ptr<") && elem.ends_with(">")) {
    t.pointer = true;
    elem = elem.substr(4, elem.size() - 5);
  }
  static const struct { const char *name; int bytes; bool isFloat; } kinds[] = {
      {"i1", 1, false}, {"i8", 1, false},  {"i16", 2, false},  {"i32", 4, false}, {"i64", 8, false},
      {"u8", 1, false}, {"u16", 2, false}, {"u32", 4, false},  {"u64", 8, false},
      {"f16", 2, true}, {"bf16", 2, true}, {"f32", 4, true},   {"f64", 8, true}};
  for (const auto &k : kinds)
    if (elem == k.name) {
      t.elem = elem;
      t.bytes = k.bytes;
      t.isFloat = k.isFloat;
      t.isSigned = elem[0] == 'i' && elem != "i1";
      return t;
    }
  return std::nullopt;
}

IntRange intRange(const ParamType &t) {
  int bits = t.elem == "i1" ? 1 : 8 * t.bytes;
  if (!t.isSigned) return {0, bits == 64 ? INT64_MAX : (int64_t(1) << bits) - 1};
  return {bits == 64 ? INT64_MIN : -(int64_t(1) << (bits - 1)), bits == 64 ? INT64_MAX : (int64_t(1) << (bits - 1)) - 1};
}

std::string Manifest::toJson() const {
  Json params = Json::array();
  for (const Param &p : this->params)
    params.push_back(Json{{"name", p.name},
                          {"type", p.type},
                          {"aligned16", p.assume.aligned16},
                          {"divisible16", p.assume.divisible16}});
  Json j;
  j["format"] = kFormat;
  j["kernel"] = kernel;
  j["arch"] = arch;
  j["math"] = math;
  j["num_warps"] = numWarps;
  j["threads_per_program"] = threadsPerProgram;
  j["shared_bytes"] = sharedBytes;
  j["dynamic_shared_bytes"] = dynamicSharedBytes;
  j["global_scratch_bytes"] = globalScratchBytes;
  j["params"] = std::move(params);
  return j.dump(2) + "\n";
}

Manifest Manifest::fromJson(const std::string &text) {
  Json j;
  try {
    j = Json::parse(text);
  } catch (const Json::parse_error &e) {
    fail(std::string("not valid JSON: ") + e.what());
  }
  if (!j.is_object()) fail(std::string("expected an object, not ") + j.type_name());
  std::string format = getString(j, "format");
  if (format != kFormat) fail("format is '" + format + "', expected '" + kFormat + "'");

  Manifest m;
  m.kernel = getString(j, "kernel");
  m.arch = getString(j, "arch");
  if (j.contains("math")) {  // absent from manifests written before --math: precise
    m.math = getString(j, "math");
    if (m.math != "precise" && m.math != "fast") fail("field 'math' is '" + m.math + "', expected 'precise' or 'fast'");
  }
  m.numWarps = getInt(j, "num_warps", 1);
  m.threadsPerProgram = getInt(j, "threads_per_program", 1);
  m.sharedBytes = getInt(j, "shared_bytes", 0);
  if (j.contains("dynamic_shared_bytes"))  // absent from manifests written before it: all static
    m.dynamicSharedBytes = getInt(j, "dynamic_shared_bytes", 0);
  if (m.dynamicSharedBytes > m.sharedBytes)
    fail("field 'dynamic_shared_bytes' (" + std::to_string(m.dynamicSharedBytes) + ") exceeds 'shared_bytes' (" +
         std::to_string(m.sharedBytes) + ")");
  if (j.contains("global_scratch_bytes"))  // absent from manifests written before it: none
    m.globalScratchBytes = getInt(j, "global_scratch_bytes", 0);
  if (m.globalScratchBytes % 128)
    fail("field 'global_scratch_bytes' (" + std::to_string(m.globalScratchBytes) + ") is not a multiple of 128");
  const Json &params = field(j, "params", {});
  if (!params.is_array()) fail(std::string("field 'params' must be an array, not ") + params.type_name());
  for (size_t i = 0; i < params.size(); ++i) {
    const Json &p = params[i];
    std::string where = "params[" + std::to_string(i) + "]: ";
    if (!p.is_object()) fail(where + "expected an object, not " + p.type_name());
    Param param;
    param.name = getString(p, "name", where);
    param.type = getString(p, "type", where);
    if (!parseParamType(param.type)) fail(where + "type '" + param.type + "' is not a scalar or a pointer to one");
    param.assume.aligned16 = getBool(p, "aligned16", where);
    param.assume.divisible16 = getBool(p, "divisible16", where);
    m.params.push_back(std::move(param));
  }
  return m;
}

} // namespace twintile::runtime

//===- Compile.cpp - twintile compile: a kernel to any stage ---------------===//
#include "tools/driver/Driver.h"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <iostream>

namespace tt::driver {

int fail(const std::string &message) {
  std::cerr << "twintile: error: " << message << "\n";
  return 1;
}

bool writeText(const std::string &path, const std::string &text, std::string &error) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << text;
  out.close();
  if (!out) error = "cannot write '" + path + "'";
  return static_cast<bool>(out);
}

namespace {

/// The header MLIR's --print-ir-after-all uses, in our words.
void printStage(std::ostream &os, pipeline::Stage s, const std::string &text) {
  os << "// ----- " << pipeline::name(s) << ": " << pipeline::describe(s) << "\n" << text;
  if (!text.empty() && text.back() != '\n') os << "\n";
}

void printResources(std::ostream &os, const backend::PtxasReport &p) {
  if (!p.ran) os << "ptxas: skipped (" << p.skipped << ")\n";
  else
    os << "ptxas: " << p.registers << " registers, " << p.spillStoreBytes << " bytes spill stores, "
       << p.spillLoadBytes << " bytes spill loads, " << p.stackBytes << " bytes stack, " << p.sharedBytes
       << " bytes smem\n";
}

nlohmann::ordered_json report(const CompileFlags &f, const pipeline::Result &r) {
  nlohmann::ordered_json j;
  j["command"] = "compile";
  j["file"] = f.k.file;
  j["kernel"] = f.k.kernel;
  j["frontend"] = f.k.frontend;
  j["emit"] = f.emit;
  j["ok"] = r.ok();
  if (!r.ok()) j["error"] = r.error;
  j["phases"] = nlohmann::ordered_json::array();
  for (const pipeline::Phase &p : r.phases) j["phases"].push_back({{"name", p.name}, {"seconds", p.seconds}});
  j["notes"] = r.notes;
  if (r.ok() && pipeline::isBackendStage(*pipeline::parseStage(f.emit))) {
    const backend::PtxasReport &p = r.backend.ptxas;
    j["cache_hit"] = r.backend.cacheHit;
    j["ptxas"] = p.ran ? nlohmann::ordered_json{{"registers", p.registers},
                                                {"spill_store_bytes", p.spillStoreBytes},
                                                {"spill_load_bytes", p.spillLoadBytes},
                                                {"stack_bytes", p.stackBytes},
                                                {"shared_bytes", p.sharedBytes}}
                       : nlohmann::ordered_json{{"skipped", p.skipped}};
  }
  j["output"] = f.output;
  return j;
}

} // namespace

int compileCommand(const CompileFlags &f) {
  pipeline::Stage emit = *pipeline::parseStage(f.emit);  // the command line checked it
  pipeline::Options o = f.k.options;
  o.frontend = f.k.frontend;
  o.last = emit;
  o.ptxas = f.resources;
  std::string emitted;
  pipeline::Observer observer;
  observer.wants = [&](pipeline::Stage s) { return s == emit || f.printAfterAll; };
  observer.take = [&](pipeline::Stage s, const std::string &text) {
    if (f.printAfterAll) printStage(std::cerr, s, text);
    if (s == emit) emitted = text;
  };
  pipeline::Result r = pipeline::compileSource(f.k.file, f.k.kernel, o, observer);
  if (f.json) {
    nlohmann::ordered_json j = report(f, r);
    if (r.ok() && f.output == "-") j["text"] = emitted;
    std::cout << j.dump(2) << "\n";
  } else if (!r.ok()) {
    std::cerr << r.error;
  }
  if (!r.ok()) return 1;
  if (!f.json)
    for (const std::string &n : r.notes)
      if (n != "backend: cached" && n != "host-compile: cached") std::cerr << "twintile: note: " << n << "\n";
  if (f.time) {
    for (const std::string &n : r.notes)
      if (n == "host-compile: cached") std::cerr << "host-compile: cached\n";
    for (const pipeline::Phase &p : r.phases) std::cerr << p.name << ": " << p.seconds * 1e3 << " ms\n";
    if (pipeline::isBackendStage(emit))
      std::cerr << "backend: " << (r.backend.cacheHit ? "cached, " : "") << r.backend.seconds * 1e3 << " ms\n";
  }
  if (f.resources && pipeline::isBackendStage(emit)) printResources(std::cerr, r.backend.ptxas);
  std::string error;
  if (f.output == "-") {
    if (!f.json) std::cout << emitted;
  } else if (!writeText(f.output, emitted, error)) {
    return fail(error);
  }
  // Beside a PTX file, its launch manifest (FILE's stem + .json).
  if (emit == pipeline::Stage::Ptx && f.output != "-") {
    std::string manifest = std::filesystem::path(f.output).replace_extension(".json").string();
    if (!writeText(manifest, r.backend.manifest.toJson(), error)) return fail(error);
  }
  return 0;
}

} // namespace tt::driver

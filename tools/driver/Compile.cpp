//===- Compile.cpp - twintile compile: a kernel to any stage ---------------===//
#include "tools/driver/Driver.h"

#include "ir/Diagnostic.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <new>

namespace twintile::driver {

int fail(const std::string &message) {
  std::cerr << "twintile: error: " << message << "\n";
  return 1;
}

int guarded(const std::function<int()> &command, const std::function<int(const std::string &, int)> &stop) {
  try {
    return command();
  } catch (const std::bad_alloc &) {
    return stop("twintile: error: out of memory\n", 1);
  } catch (const ir::InternalError &e) {
    return stop(ir::render(e.diag()), kExitInternal);
  } catch (const std::exception &e) {
    return stop(ir::render(ir::Diagnostic::internalError(std::string("uncaught exception: ") + e.what())), kExitInternal);
  }
}

std::string jsonText(const nlohmann::ordered_json &j) {
  return j.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace) + "\n";
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
void printStage(std::ostream &os, support::Stage s, const std::string &text) {
  os << "// ----- " << support::name(s) << ": " << support::describe(s) << "\n" << text;
  if (!text.empty() && text.back() != '\n') os << "\n";
}

/// ptxas's figures; shared memory as ptxas counts it (static), plus the
/// dynamic shared memory the launch provides, which ptxas does not see.
void printResources(std::ostream &os, const backend::PtxasReport &p, int dynamicSharedBytes) {
  if (!p.ran) {
    os << "ptxas: skipped (" << p.skipped << ")\n";
    return;
  }
  os << "ptxas: " << p.registers << " registers, " << p.spillStoreBytes << " bytes spill stores, "
     << p.spillLoadBytes << " bytes spill loads, " << p.stackBytes << " bytes stack, " << p.sharedBytes
     << " bytes smem";
  if (dynamicSharedBytes) os << " + " << dynamicSharedBytes << " bytes dynamic smem";
  os << "\n";
}

nlohmann::ordered_json report(const CompileFlags &f, const pipeline::Result &r) {
  nlohmann::ordered_json j;
  j["command"] = "compile";
  j["file"] = f.k.file;
  j["kernel"] = f.k.kernel;
  j["frontend"] = pipeline::name(f.k.options.frontend);
  j["emit"] = f.emit;
  j["ok"] = r.ok();
  if (!r.ok()) j["error"] = r.error;
  if (r.internal()) j["internal"] = true;
  j["phases"] = nlohmann::ordered_json::array();
  for (const pipeline::Phase &p : r.phases) j["phases"].push_back({{"name", p.name}, {"seconds", p.seconds}});
  j["notes"] = r.notes;
  if (f.k.options.frontend == pipeline::Frontend::Trace) j["host_compile_cached"] = r.hostCompileCached;
  if (!r.hostOutput.empty()) j["host_output"] = r.hostOutput;
  if (r.ok() && pipeline::isBackendStage(*support::parseStage(f.emit))) {
    const backend::PtxasReport &p = r.backend.ptxas;
    j["cache_hit"] = r.backend.cacheHit;
    j["shared_bytes"] = r.backend.manifest.sharedBytes;  // ptxas counts only the static part
    j["dynamic_shared_bytes"] = r.backend.manifest.dynamicSharedBytes;
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

/// "softmax<f16,1024>" -> "softmax_f16_1024": a file name per specialization
/// (a minus sign is "m": k<-1> is k_m1, not k<1>'s k_1). The experiment's
/// harness finds these files by the same rule (spec_file_name in
/// experiments/harness/common.py; tests/experiments/test_stems.py).
std::string stemOf(const std::string &spec) {
  std::string out;
  for (char c : spec)
    if (std::isalnum(static_cast<unsigned char>(c))) out += c;
    else if (c == '-') out += (!out.empty() && out.back() != '_' ? "_m" : "m");
    else if (!out.empty() && out.back() != '_') out += '_';
  while (!out.empty() && out.back() == '_') out.pop_back();
  return out.empty() ? "kernel" : out;
}

int compileCommand(const CompileFlags &f) {
  support::Stage emit = *support::parseStage(f.emit);  // the command line checked it
  pipeline::CompileRequest o = f.k.options;
  o.last = emit;
  o.ptxas = f.resources;
  o.jobs = f.jobs;
  const std::vector<std::string> &kernels = f.kernels;
  bool many = kernels.size() > 1;
  // One file name per specialization, however alike their spellings.
  std::vector<std::string> stems, outputs;
  for (const std::string &k : kernels) {
    std::string stem = stemOf(k), unique = stem;
    for (int n = 2; std::find(stems.begin(), stems.end(), unique) != stems.end(); ++n) unique = stem + "_" + std::to_string(n);
    stems.push_back(unique);
    outputs.push_back(!many || f.output == "-"
                          ? f.output
                          : (std::filesystem::path(f.output) / (unique + std::string(support::fileExtension(emit)))).string());
  }
  // A front-end limit that ends the process ends it with the report
  // promised: each specialization failed with the limit's error.
  if (f.json)
    o.reportOnLimit = [&](const std::string &error) {
      pipeline::Result stopped;
      stopped.error = error;
      nlohmann::ordered_json reports = nlohmann::ordered_json::array();
      for (size_t i = 0; i < kernels.size(); ++i) {
        CompileFlags one = f;
        one.k.kernel = kernels[i];
        one.output = outputs[i];
        reports.push_back(report(one, stopped));
      }
      nlohmann::ordered_json j = many ? nlohmann::ordered_json{{"command", "compile"}, {"seconds", nullptr}, {"kernels", reports}}
                                      : reports.front();
      return jsonText(j);
    };
  // Each specialization's stages, kept to be printed in order (the backend
  // runs them on several threads).
  std::vector<std::string> emitted(kernels.size());
  std::vector<std::vector<std::pair<support::Stage, std::string>>> seen(kernels.size());
  auto observers = [&](size_t i) {
    pipeline::Observer observer;
    observer.wants = [&](support::Stage s) { return s == emit || f.printAfterAll; };
    observer.take = [&, i](support::Stage s, const std::string &text) {
      if (f.printAfterAll) seen[i].emplace_back(s, text);
      if (s == emit) emitted[i] = text;
    };
    return observer;
  };
  auto start = std::chrono::steady_clock::now();
  std::vector<pipeline::Result> results = pipeline::compileSources(f.k.file, kernels, o, observers);
  double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

  std::string error;
  if (many && f.output != "-") {
    std::error_code ec;
    std::filesystem::create_directories(f.output, ec);
    if (!std::filesystem::is_directory(f.output, ec))
      return fail("with several --kernel, -o names a directory, and '" + f.output + "' cannot be one");
  }
  nlohmann::ordered_json reports = nlohmann::ordered_json::array();
  int status = 0;
  for (size_t i = 0; i < kernels.size(); ++i) {
    const pipeline::Result &r = results[i];
    std::string prefix = many ? kernels[i] + ": " : "";
    if (f.printAfterAll) {
      if (many) std::cerr << "// ===== " << kernels[i] << "\n";
      for (const auto &[stage, text] : seen[i]) printStage(std::cerr, stage, text);
    }
    const std::string &output = outputs[i];
    CompileFlags one = f;
    one.k.kernel = kernels[i];
    one.output = output;
    nlohmann::ordered_json j = report(one, r);
    if (!r.ok()) {
      if (!f.json) std::cerr << r.error;
      reports.push_back(j);
      status = std::max(status, failureStatus(r));
      continue;
    }
    if (!f.json) {
      for (const std::string &n : r.notes) std::cerr << "twintile: note: " << prefix << n << "\n";
      if (!r.hostOutput.empty()) std::cerr << "twintile: note: " << prefix << pipeline::hostOutputNote(r.hostOutput);
    }
    if (f.time) {
      if (r.hostCompileCached) std::cerr << prefix << "host-compile: cached\n";
      for (const pipeline::Phase &p : r.phases) std::cerr << prefix << p.name << ": " << p.seconds * 1e3 << " ms\n";
      if (pipeline::isBackendStage(emit))
        std::cerr << prefix << "backend: " << (r.backend.cacheHit ? "cached, " : "") << r.backend.seconds * 1e3 << " ms\n";
    }
    if (f.resources && pipeline::isBackendStage(emit)) {
      std::cerr << prefix;
      printResources(std::cerr, r.backend.ptxas, r.backend.manifest.dynamicSharedBytes);
    }
    if (output == "-") {
      if (f.json) j["text"] = emitted[i];
      else std::cout << (many ? "// ----- " + kernels[i] + "\n" : "") << emitted[i];
    } else if (!writeText(output, emitted[i], error)) {
      return fail(error);
    }
    // Beside a PTX file, its launch manifest (FILE's stem + .json).
    if (emit == support::Stage::Ptx && output != "-") {
      std::string manifest = std::filesystem::path(output).replace_extension(".json").string();
      if (!writeText(manifest, r.backend.manifest.toJson(), error)) return fail(error);
    }
    reports.push_back(j);
  }
  if (f.time && many)
    std::cerr << "total: " << wall * 1e3 << " ms for " << kernels.size() << " specializations\n";
  if (f.json) {
    if (many) std::cout << jsonText({{"command", "compile"}, {"seconds", wall}, {"kernels", reports}});
    else std::cout << jsonText(reports.front());
  }
  return status;
}

} // namespace twintile::driver

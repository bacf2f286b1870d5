//===- Dump.cpp - twintile dump: every stage of the front ends to files ----===//
//
//   DIR/parse.tile.tir, DIR/trace.ptx.ptx, ... one file per stage and front
//   end (parse and trace, or --frontends), named FRONTEND.STAGE + the
//   stage's extension; DIR/index.json lists them (with each front end's
//   error, if it stopped early) and DIR/index.md says the same for a reader.
//===----------------------------------------------------------------------===//
#include "tools/driver/Driver.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>
#include <iostream>
#include <map>
#include <string>

namespace fs = std::filesystem;

namespace twintile::driver {

namespace {

using Written = std::map<support::Stage, std::map<std::string, std::string>>;  // stage -> front end -> file
using Results = std::vector<std::pair<std::string, const pipeline::Result *>>;   // by front end, in order

/// The dump's index of the front ends' `results` and the stage files
/// `written`: each front end's result, then each stage's file per front end
/// (null where it was not reached); the same as a table into `md`.
nlohmann::ordered_json indexOf(const DumpFlags &f, const Results &results, const Written &written, std::string &md) {
  nlohmann::ordered_json index{{"file", f.file}, {"kernel", f.kernel}, {"target", pipeline::name(f.options.target)},
                                {"math", pipeline::name(f.options.math)}};
  md = "# twintile dump: `" + f.kernel + "` from `" + f.file + "`\n\n| stage | what |";
  for (const auto &[fe, r] : results) md += " " + fe + " |";
  md += "\n| --- | --- |";
  for (size_t i = 0; i < results.size(); ++i) md += " --- |";
  md += "\n";
  for (const auto &[fe, r] : results) {
    nlohmann::ordered_json entry{{"ok", r->ok()}};
    if (!r->ok()) entry["error"] = r->error;
    if (r->internal()) entry["internal"] = true;
    entry["phases"] = nlohmann::ordered_json::array();
    for (const pipeline::Phase &p : r->phases) entry["phases"].push_back({{"name", p.name}, {"seconds", p.seconds}});
    entry["notes"] = r->notes;
    if (!r->hostOutput.empty()) entry["host_output"] = r->hostOutput;
    index["frontends"][fe] = entry;
  }
  index["stages"] = nlohmann::ordered_json::array();
  bool hybrid = std::any_of(results.begin(), results.end(), [](const auto &r) { return r.first == "hybrid"; });
  for (support::Stage s : support::allStages()) {
    if (s == support::Stage::Rewritten && !hybrid) continue;  // the hybrid front end's alone
    nlohmann::ordered_json stage{{"stage", support::name(s)}, {"what", support::describe(s)}};
    md += "| " + std::string(support::name(s)) + " | " + std::string(support::describe(s)) + " |";
    auto files = written.find(s);
    for (const auto &[fe, r] : results) {
      const std::string *file = nullptr;
      if (files != written.end())
        if (auto it = files->second.find(fe); it != files->second.end()) file = &it->second;
      stage[fe] = file ? nlohmann::ordered_json(*file) : nlohmann::ordered_json();
      md += file ? " [" + *file + "](" + *file + ") |" : " (not reached) |";
    }
    index["stages"].push_back(stage);
    md += "\n";
  }
  return index;
}

} // namespace

int dumpCommand(const DumpFlags &f) {
  std::error_code ec;
  fs::create_directories(f.dir, ec);
  if (ec || !fs::is_directory(f.dir)) return fail("cannot create directory '" + f.dir + "'" + (ec ? ": " + ec.message() : ""));
  Written written;
  std::string error;
  pipeline::CompileRequest o = f.options;
  o.last = support::Stage::SassInfo;
  // A front-end limit that ends the process: the index printed says so, of
  // both front ends (Clang's one parse, or the first of two), no stage reached.
  if (f.json)
    o.reportOnLimit = [&](const std::string &limit) {
      pipeline::Result stopped;
      stopped.error = limit;
      std::string md;
      Results all;
      for (pipeline::Frontend fe : f.frontends) all.emplace_back(std::string(pipeline::name(fe)), &stopped);
      return jsonText(indexOf(f, all, {}, md));
    };
  auto observer = [&](const std::string &fe) {
    pipeline::Observer observer;
    observer.wants = [](support::Stage) { return true; };
    observer.take = [&, fe](support::Stage s, const std::string &text) {
      std::string name = fe + "." + std::string(support::name(s)) + std::string(support::fileExtension(s));
      if (writeText((fs::path(f.dir) / name).string(), text, error)) written[s][fe] = name;
    };
    return observer;
  };
  // Parse and trace: one Clang parse for both, where it can (pipeline::compileBoth).
  std::vector<pipeline::Result> done;
  if (f.frontends == std::vector<pipeline::Frontend>{pipeline::Frontend::Parse, pipeline::Frontend::Trace}) {
    pipeline::BothResults both = pipeline::compileBoth(f.file, f.kernel, o, observer("parse"), observer("trace"));
    done.push_back(std::move(both.parse));
    done.push_back(std::move(both.trace));
  } else {
    for (pipeline::Frontend fe : f.frontends) {
      pipeline::CompileRequest one = o;
      one.frontend = fe;
      done.push_back(pipeline::compileSource(f.file, f.kernel, one, observer(std::string(pipeline::name(fe)))));
    }
  }
  if (!error.empty()) return fail(error);
  Results results;
  for (size_t i = 0; i < done.size(); ++i) results.emplace_back(std::string(pipeline::name(f.frontends[i])), &done[i]);
  if (!f.json)
    for (const auto &[fe, r] : results)
      if (!r->ok()) std::cerr << fe << ": " << r->error;
  std::string md;
  nlohmann::ordered_json index = indexOf(f, results, written, md);
  if (!writeText((fs::path(f.dir) / "index.json").string(), jsonText(index), error) ||
      !writeText((fs::path(f.dir) / "index.md").string(), md, error))
    return fail(error);
  size_t files = 0;
  for (const auto &[s, byFe] : written) files += byFe.size();
  if (f.json) std::cout << jsonText(index);
  else std::cout << "wrote " << files << " stage files and an index (index.md, index.json) to " << f.dir << "\n";
  bool ok = true, internal = false;
  for (const pipeline::Result &r : done) ok = ok && r.ok(), internal = internal || r.internal();
  return ok ? 0 : internal ? kExitInternal : 1;
}

} // namespace twintile::driver

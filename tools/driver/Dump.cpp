//===- Dump.cpp - twintile dump: every stage of both front ends to files ---===//
//
//   DIR/parse.tile.tir, DIR/trace.ptx.ptx, ... one file per stage and front
//   end, named FRONTEND.STAGE + the stage's extension; DIR/index.json lists
//   them (with each front end's error, if it stopped early) and
//   DIR/index.md says the same for a reader.
//===----------------------------------------------------------------------===//
#include "tools/driver/Driver.h"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <iostream>

namespace fs = std::filesystem;

namespace twintile::driver {

int dumpCommand(const DumpFlags &f) {
  std::error_code ec;
  fs::create_directories(f.dir, ec);
  if (ec || !fs::is_directory(f.dir)) return fail("cannot create directory '" + f.dir + "'" + (ec ? ": " + ec.message() : ""));
  nlohmann::ordered_json index{{"file", f.file}, {"kernel", f.kernel}, {"target", pipeline::name(f.options.target)},
                                {"math", pipeline::name(f.options.math)}};
  std::string md = "# twintile dump: `" + f.kernel + "` from `" + f.file + "`\n\n| stage | what | parse | trace |\n| --- | --- | --- | --- |\n";
  std::map<support::Stage, std::map<std::string, std::string>> written;  // stage -> front end -> file
  bool allOk = true, internal = false;
  std::string error;
  pipeline::CompileRequest o = f.options;
  o.last = support::Stage::SassInfo;
  // A front-end limit that ends the process: the index says so (no stage written).
  if (f.json)
    o.reportOnLimit = [&](const std::string &error) {
      nlohmann::ordered_json stopped = index;
      stopped["error"] = error;
      stopped["frontends"] = nlohmann::ordered_json::object();
      stopped["stages"] = nlohmann::ordered_json::array();
      return stopped.dump(2) + "\n";
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
  // One Clang parse for both, where it can (pipeline::compileBoth).
  pipeline::BothResults both = pipeline::compileBoth(f.file, f.kernel, o, observer("parse"), observer("trace"));
  if (!error.empty()) return fail(error);
  auto record = [&](const std::string &fe, const pipeline::Result &r) {
    nlohmann::ordered_json entry{{"ok", r.ok()}};
    if (!r.ok()) {
      entry["error"] = r.error;
      if (r.internal()) entry["internal"] = true, internal = true;
      allOk = false;
      if (!f.json) std::cerr << fe << ": " << r.error;
    }
    entry["phases"] = nlohmann::ordered_json::array();
    for (const pipeline::Phase &p : r.phases) entry["phases"].push_back({{"name", p.name}, {"seconds", p.seconds}});
    entry["notes"] = r.notes;
    if (!r.hostOutput.empty()) entry["host_output"] = r.hostOutput;
    index["frontends"][fe] = entry;
  };
  record("parse", both.parse);
  record("trace", both.trace);
  index["stages"] = nlohmann::ordered_json::array();
  for (support::Stage s : support::allStages()) {
    nlohmann::ordered_json stage{{"stage", support::name(s)}, {"what", support::describe(s)}};
    md += "| " + std::string(support::name(s)) + " | " + std::string(support::describe(s)) + " |";
    for (const char *fe : {"parse", "trace"}) {
      auto it = written[s].find(fe);
      stage[fe] = it == written[s].end() ? nlohmann::ordered_json() : nlohmann::ordered_json(it->second);
      md += it == written[s].end() ? " (not reached) |" : " [" + it->second + "](" + it->second + ") |";
    }
    index["stages"].push_back(stage);
    md += "\n";
  }
  if (!writeText((fs::path(f.dir) / "index.json").string(), index.dump(2) + "\n", error) ||
      !writeText((fs::path(f.dir) / "index.md").string(), md, error))
    return fail(error);
  size_t files = 0;
  for (const auto &[s, byFe] : written) files += byFe.size();
  if (f.json) std::cout << index.dump(2) << "\n";
  else std::cout << "wrote " << files << " stage files and an index (index.md, index.json) to " << f.dir << "\n";
  return allOk ? 0 : internal ? kExitInternal : 1;
}

} // namespace twintile::driver

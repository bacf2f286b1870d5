//===- HybridFile.cpp - a kernel file through the hybrid front end -------===//
//
// CuTe DSL's embedding: Clang parses the file (the parse front end's parse
// and precompiled header), the native device control flow of each
// specialization is rewritten into the language's combinators
// (frontends/hybrid), and the rewritten file is traced (the tracing front
// end's host compile, in process by default). The rewritten file starts
// with a #line naming the user's file, so what the tracer records is said
// there; its columns, which the rewrite moved, are mapped back.
//===----------------------------------------------------------------------===//
#include "pipeline/FrontEnd.h"

#include "frontends/hybrid/RewritePlan.h"
#include "frontends/parse/ParseFrontend.h"
#include "support/Cache.h"
#include "support/CachePrune.h"

#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <thread>

#include <unistd.h>

namespace fs = std::filesystem;

namespace twintile::pipeline {

namespace {

using Clock = std::chrono::steady_clock;

/// `f`'s locations in `file` (the user's), from the rewritten text's
/// positions to the original's.
void mapBack(ir::Func &f, const std::string &file, const hybrid::PositionMap &map) {
  auto one = [&](ir::SourcePos &p) {
    if (p.file != file) return;
    auto [line, col] = map.original(p.line, p.col);
    p.line = line, p.col = col;
  };
  auto loc = [&](ir::Location &l) {
    one(l.pos);
    for (ir::SourcePos &p : l.inlinedAt) one(p);
  };
  loc(f.loc);
  ir::walk(f.body, [&](ir::Op &op) { loc(op.loc); });
}

void mapBack(ir::Diagnostic &d, const std::string &file, const hybrid::PositionMap &map) {
  auto one = [&](ir::SourcePos &p) {
    if (p.file != file) return;
    auto [line, col] = map.original(p.line, p.col);
    p.line = line, p.col = col;
  };
  one(d.loc.pos);
  for (ir::SourcePos &p : d.loc.inlinedAt) one(p);
}

/// Where the rewritten file is traced from: named by its content, so that
/// the tracer's cache serves a file rewritten the same way again.
std::string writeRewritten(const std::string &text, std::string &error) {
  support::ContentHash hash;
  hash.add("twintile hybrid rewrite 1");
  hash.add(text);
  std::error_code ec;
  fs::path dir = support::cacheDirectory("hybrid");
  fs::path path = dir / (hash.hex() + ".cpp");
  if (fs::exists(path, ec)) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream there;
    there << in.rdbuf();
    if (there.str() == text) return path.string();
  }
  // Written beside, then renamed: a concurrent reader sees all or nothing;
  // named by process and thread, so that concurrent writers do not share it.
  fs::path partial = dir / (hash.hex() + ".cpp." + std::to_string(::getpid()) + "." +
                            std::to_string(std::hash<std::thread::id>{}(std::this_thread::get_id())) + ".part");
  {
    std::ofstream out(partial, std::ios::binary);
    out << text;
    if (!out) {
      error = "cannot write the rewritten kernel file " + partial.string();
      return {};
    }
  }
  fs::rename(partial, path, ec);
  if (ec) {
    error = "cannot write the rewritten kernel file " + path.string() + ": " + ec.message();
    fs::remove(partial, ec);
    return {};
  }
  support::pruneAfterStore(dir, hash.hex());  // kept within $TWINTILE_CACHE_MB with the other caches
  return path.string();
}

} // namespace

FrontEndOutput hybridFile(const std::string &file, const std::vector<std::string> &kernels, const CompileRequest &options,
                          const ObserverFor &observer) {
  FrontEndOutput out;
  out.results.resize(kernels.size());
  out.funcs.resize(kernels.size());
  std::unique_ptr<support::Watchdog> watch = watchClang(file, options);
  std::unique_ptr<twintile::ParsedFile> parsed = twintile::ParsedFile::parse(file, kernels);
  watch.reset();
  // A file Clang rejects is the parse front end's to explain, in its words.
  if (!parsed->ok()) return parseFile(file, kernels, options, observer);

  std::error_code ec;
  std::string path = fs::absolute(file, ec).string();  // as Clang names it in the parse front end's locations
  std::ifstream in(file, std::ios::binary);
  std::ostringstream read;
  read << in.rdbuf();
  const std::string source = read.str();

  // Each specialization's rewrite; those rewritten alike are traced together.
  struct Rewrite {
    hybrid::Rewritten rewritten;
    std::vector<size_t> specs;
  };
  std::map<std::string, Rewrite> groups;
  for (size_t i = 0; i < kernels.size(); ++i) {
    Result &r = out.results[i];
    if (i == 0) r.phases.push_back({"parse", parsed->parseSeconds()}), r.notes = parsed->notes();
    auto start = Clock::now();
    std::string why;
    const clang::FunctionDecl *kernel = parsed->instantiated(kernels[i], why);
    if (!kernel) {
      r = failure(std::move(r), ir::Diagnostic{ir::Location(file, 0, 0), why});
      continue;
    }
    hybrid::RewritePlan plan = hybrid::planRewrite(*kernel);
    if (plan.refusal) {
      r = failure(std::move(r), *plan.refusal);
      continue;
    }
    std::string error;
    hybrid::Rewritten rewritten = hybrid::applyEdits(source, hybrid::emitRewrite(plan, source), error);
    if (!error.empty()) {
      r = failure(std::move(r), ir::Diagnostic::internalError(error, ir::Location(file, 0, 0)));
      continue;
    }
    std::string quoted;  // the path as a string literal
    for (char c : path) quoted += c == '"' || c == '\\' ? std::string("\\") + c : std::string(1, c);
    rewritten.text = "#line 1 \"" + quoted + "\"\n" + rewritten.text;
    r.phases.push_back({"rewrite", std::chrono::duration<double>(Clock::now() - start).count()});
    observer(i).offer(support::Stage::Rewritten, [&] { return rewritten.text; });
    Rewrite &g = groups[rewritten.text];
    if (g.specs.empty()) g.rewritten = std::move(rewritten);
    g.specs.push_back(i);
  }
  if (options.last == support::Stage::Rewritten) return out;

  for (auto &[text, g] : groups) {
    std::string error;
    std::string traced = writeRewritten(text, error);
    if (traced.empty()) {
      for (size_t i : g.specs) out.results[i] = failure(std::move(out.results[i]), ir::Diagnostic{ir::Location(file, 0, 0), error});
      continue;
    }
    std::vector<std::string> specs;
    for (size_t i : g.specs) specs.push_back(kernels[i]);
    // The kernel's own includes resolve from its directory, as for the other front ends.
    FrontEndOutput front = traceFile(traced, specs, options, [&](size_t k) { return observer(g.specs[k]); }, nullptr,
                                     {fs::path(path).parent_path().string()});
    if (front.eachAlone) {
      out.eachAlone = true;
      out.kernels = front.kernels;
      return out;
    }
    for (size_t k = 0; k < g.specs.size(); ++k) {
      Result &r = out.results[g.specs[k]];
      Result &t = front.results[k];
      t.phases.insert(t.phases.begin(), r.phases.begin(), r.phases.end());
      t.notes.insert(t.notes.begin(), r.notes.begin(), r.notes.end());
      if (t.diag && t.error.starts_with(ir::render(*t.diag))) {
        ir::Diagnostic d = *t.diag;
        mapBack(d, path, g.rewritten.map);
        // Native control flow the rewrite left (in an expression, a macro, another file).
        if (d.message.starts_with("a device value is used as a C++ condition"))
          d.message += "; the hybrid front end rewrites native if, for, while and ?: of the kernel's file, not "
                       "conditions of && and || or other files";
        std::string hostOutput = t.hostOutput;
        t = failure(std::move(t), std::move(d));
        if (!hostOutput.empty()) t.error += "note: " + hostOutputNote(hostOutput);
      } else if (!t.ok()) {
        // The host compiler's words on the rewritten file.
        t.error += "note: the hybrid front end traced the rewritten file " + traced +
                   " (`--emit rewritten` shows it); the columns above are that file's\n";
      }
      if (front.funcs[k]) mapBack(*front.funcs[k], path, g.rewritten.map);
      r = std::move(t);
      out.funcs[g.specs[k]] = std::move(front.funcs[k]);
    }
  }
  return out;
}

} // namespace twintile::pipeline

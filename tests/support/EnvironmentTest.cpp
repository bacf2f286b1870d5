// The registry of environment variables (support/Environment.h) against
// what reads the environment: every variable is in it once, docs/driver.md
// lists exactly its variables, the programs read none but through it, and
// the scripts, the experiment's Python and the tests (C++, Python, shell,
// lit) read none it lacks.
#include "support/Environment.h"

#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>

namespace fs = std::filesystem;
using namespace twintile::support;

namespace {

std::string slurp(const fs::path &p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

std::set<std::string> registered() {
  std::set<std::string> names;
  for (const EnvVariable &v : environmentVariables()) names.insert(v.name);
  return names;
}

/// The names `pattern`'s first group takes in every file under `dirs` whose
/// name `files` matches, each with a file that names it.
std::map<std::string, std::string> found(const std::vector<std::string> &dirs, const std::regex &files,
                                         const std::regex &pattern) {
  std::map<std::string, std::string> out;
  for (const std::string &d : dirs) {
    fs::path root = fs::path(TWINTILE_SOURCE_ROOT) / d;
    std::vector<fs::path> paths;
    if (fs::is_regular_file(root)) paths.push_back(root);
    else
      for (const auto &e : fs::recursive_directory_iterator(root))
        if (e.is_regular_file() && std::regex_search(e.path().filename().string(), files)) paths.push_back(e.path());
    for (const fs::path &p : paths) {
      std::string text = slurp(p);
      for (std::sregex_iterator it(text.begin(), text.end(), pattern), end; it != end; ++it)
        out.emplace((*it)[1].str(), p.string());
    }
  }
  return out;
}

} // namespace

TEST_CASE("every variable is in the registry once, under its own name") {
  std::set<std::string> names;
  std::set<Env> ids;
  for (const EnvVariable &v : environmentVariables()) {
    INFO(v.name);
    CHECK(std::string(v.name).starts_with("TWINTILE_"));
    CHECK(names.insert(v.name).second);
    CHECK(ids.insert(v.id).second);
    CHECK(std::string(envName(v.id)) == v.name);
    CHECK(std::string(v.what).size() > 10);
  }
  CHECK(ids.size() == size_t(Env::Count));  // none left out
}

TEST_CASE("docs/driver.md lists exactly the registry's variables") {
  std::string docs = slurp(fs::path(TWINTILE_SOURCE_ROOT) / "docs" / "driver.md");
  size_t start = docs.find("## Environment variables");
  REQUIRE(start != std::string::npos);
  std::string section = docs.substr(start, docs.find("\n## ", start + 1) - start);
  std::set<std::string> listed;
  std::regex row(R"(\n\| `(TWINTILE_\w+)` \|)");
  for (std::sregex_iterator it(section.begin(), section.end(), row), end; it != end; ++it) listed.insert((*it)[1].str());
  CHECK(listed == registered());
}

TEST_CASE("the programs read the environment's TWINTILE_ variables through the registry alone") {
  std::regex sources(R"(\.(cpp|h)$)");
  auto direct = found({"backend", "frontends", "ir", "launch", "pipeline", "runtime", "support", "tools"}, sources,
                      std::regex(R"((?:getenv|setenv|unsetenv)\(\s*"(TWINTILE_\w+))"));
  for (const auto &[name, file] : direct) FAIL_CHECK(file << " reads " << name << " with getenv, not envValue");
}

TEST_CASE("what the scripts, the experiment and the tests read is in the registry") {
  std::set<std::string> known = registered();
  std::map<std::string, std::string> read;
  // Shell: $NAME, ${NAME...}, export NAME, NAME=value at a word's start (not -DNAME=, a CMake option).
  std::regex shell(R"((?:\$\{?|export |(?:^|[\s;(])(?=TWINTILE_\w+=))(TWINTILE_[A-Z0-9_]+))");
  read.merge(found({"scripts"}, std::regex(".*"), shell));
  read.merge(found({"tests"}, std::regex(R"(\.sh$)"), shell));
  // Python: every string naming one is the environment's.
  read.merge(found({"experiments", "scripts", "tests"}, std::regex(R"(\.py$)"), std::regex(R"(["'](TWINTILE_[A-Z0-9_]+)["'])")));
  // C++ tests: what they set or read.
  read.merge(found({"tests"}, std::regex(R"(\.(cpp|h)$)"),
                   std::regex(R"((?:getenv|setenv|unsetenv|ScopedEnv \w+[({])\(?\s*"(TWINTILE_\w+))")));
  // lit tests: `env NAME=`.
  read.merge(found({"tests/lit"}, std::regex(R"(\.(cpp|tir|ptx)$)"), std::regex(R"(env (?:\w+=\S* )*(TWINTILE_\w+)=)")));
  for (const auto &[name, file] : read)
    if (!known.count(name)) FAIL_CHECK(file << " reads " << name << ", which support/Environment.h does not list");
  CHECK(read.size() >= 10);  // the patterns find what is there
}

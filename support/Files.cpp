//===- Files.cpp - reading and writing a whole file, the environment ------===//
#include "support/Files.h"

#include <cstdlib>
#include <fstream>
#include <sstream>

namespace twintile::support {

std::optional<std::string> readFile(const std::filesystem::path &path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  std::ostringstream os;
  os << in.rdbuf();
  if (in.bad()) return std::nullopt;
  return os.str();
}

bool writeFile(const std::filesystem::path &path, const std::string &bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  out.close();
  return !out.fail();
}

std::string envOr(const char *name, std::string fallback) {
  const char *v = std::getenv(name);
  return v && *v ? v : std::move(fallback);
}

} // namespace twintile::support

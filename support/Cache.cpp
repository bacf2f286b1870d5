#include "support/Cache.h"

#include "support/Files.h"

#include <cstdio>
#include <cstdlib>

namespace twintile::support {

void ContentHash::add(std::string_view part) {
  for (unsigned char c : part) h_ = (h_ ^ c) * 1099511628211ull;
  h_ = (h_ ^ 0xff) * 1099511628211ull;  // separates consecutive parts
}

std::string ContentHash::hex() const {
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(h_));
  return buf;
}

std::string cacheRecord(std::string_view format, std::string_view key, std::string_view bytes) {
  ContentHash h;
  h.add(bytes);
  return std::string(format) + " " + std::string(key) + " " + std::to_string(bytes.size()) + " " + h.hex() + "\n";
}

std::string checkCached(const std::filesystem::path &file, const std::filesystem::path &record,
                        std::string_view format, std::string_view key) {
  std::optional<std::string> bytes = readFile(file);
  if (!bytes) return "it cannot be read";
  std::optional<std::string> rec = readFile(record);
  if (!rec) return "its record " + record.filename().string() + " is missing";
  if (*rec != cacheRecord(format, key, *bytes)) return "it does not match its record (truncated, damaged or replaced)";
  return {};
}

std::filesystem::path cacheDirectory(const std::string &sub, const std::string &root) {
  namespace fs = std::filesystem;
  fs::path base;
  if (!root.empty()) base = root;
  else if (const char *d = std::getenv("TWINTILE_CACHE_DIR"); d && *d) base = d;
  else if (const char *x = std::getenv("XDG_CACHE_HOME"); x && *x) base = fs::path(x) / "twintile";
  else if (const char *h = std::getenv("HOME"); h && *h) base = fs::path(h) / ".cache" / "twintile";
  else base = fs::temp_directory_path() / "twintile-cache";
  std::error_code ec;
  fs::create_directories(base / sub, ec);
  return base / sub;
}

} // namespace twintile::support

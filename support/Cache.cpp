#include "support/Cache.h"

#include "support/Environment.h"
#include "support/Files.h"

#include <array>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace twintile::support {

namespace {

// Odd 64-bit constants with mixed bits (the fractional parts of square
// roots of primes, as SHA-512 takes its initial values).
constexpr uint64_t kMul1 = 0xbb67ae8584caa73bull, kMul2 = 0x3c6ef372fe94f82bull | 1,
                   kMul3 = 0xa54ff53a5f1d36f1ull, kAdd = 0x510e527fade682d1ull;

uint64_t rotl(uint64_t x, int r) { return (x << r) | (x >> (64 - r)); }

uint64_t word(const unsigned char *p) {
  uint64_t w;
  std::memcpy(&w, p, sizeof w);  // the machine's byte order: a key is never moved between machines
  return w;
}

/// One lane's step: every bit of `w` reaches every bit of the lane within
/// two steps (the multiply spreads upward, the rotation brings the high bits
/// down again).
uint64_t step(uint64_t lane, uint64_t w) { return rotl(lane ^ (w * kMul1), 29) * kMul2 + kAdd; }

/// The last mixing, so that nearby inputs give unrelated keys: xor-shifts
/// and multiplies, each invertible.
uint64_t finish(uint64_t x) {
  x ^= x >> 31;
  x *= kMul3;
  x ^= x >> 29;
  x *= kMul1;
  x ^= x >> 32;
  return x;
}

} // namespace

void ContentHash::add(std::string_view part) {
  const auto *p = reinterpret_cast<const unsigned char *>(part.data());
  size_t n = part.size();
  std::array<uint64_t, 4> lane = {h_, h_ ^ kMul1, h_ + kMul2, h_ - kMul3};
  size_t i = 0;
  for (; i + 32 <= n; i += 32)
    for (size_t k = 0; k < 4; ++k) lane[k] = step(lane[k], word(p + i + 8 * k));
  for (; i + 8 <= n; i += 8) lane[0] = step(lane[0], word(p + i));
  uint64_t tail = 0;
  for (size_t k = 0; i + k < n; ++k) tail |= uint64_t(p[i + k]) << (8 * k);
  lane[1] = step(lane[1], tail);
  uint64_t h = rotl(lane[0], 1) + rotl(lane[1], 7) + rotl(lane[2], 12) + rotl(lane[3], 18);
  h_ = finish(h ^ (uint64_t(n) * kMul3));
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
  else if (std::optional<std::string> d = envValue(Env::CacheDir)) base = *d;
  else if (const char *x = std::getenv("XDG_CACHE_HOME"); x && *x) base = fs::path(x) / "twintile";
  else if (const char *h = std::getenv("HOME"); h && *h) base = fs::path(h) / ".cache" / "twintile";
  else base = fs::temp_directory_path() / "twintile-cache";
  std::error_code ec;
  fs::create_directories(base / sub, ec);
  return base / sub;
}

} // namespace twintile::support

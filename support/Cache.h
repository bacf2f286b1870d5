//===- Cache.h - content hashes and the on-disk cache directory ----------===//
//
// The support library: what the front ends, the backend and the launch API
// all need and none of them owns. Depends on the standard library only.
//===----------------------------------------------------------------------===//
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>

namespace tt::support {

/// FNV-1a over parts, 64 bits: the content key of cached artifacts (compiled
/// kernels, the precompiled language header).
class ContentHash {
public:
  void add(std::string_view part);
  std::string hex() const;  // 16 hex digits

private:
  uint64_t h_ = 1469598103934665603ull;
};

/// `sub` under twintile's cache: $TWINTILE_CACHE_DIR, else
/// $XDG_CACHE_HOME/twintile, else ~/.cache/twintile (created if missing).
std::filesystem::path cacheDirectory(const std::string &sub, const std::string &root = {});

} // namespace tt::support

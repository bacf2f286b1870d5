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

namespace twintile::support {

/// A 64-bit hash over parts: the content key of cached artifacts (compiled
/// kernels, the precompiled language header) and the check that a cached
/// file is what its record says. Not cryptographic: it tells a damaged or
/// swapped entry from the one written, not an attacker's from it. Four
/// independent lanes of 8-byte words, so that checking a 2.5 MB header takes
/// a fraction of a millisecond (a byte at a time, FNV-1a, took 3 ms of every
/// compile).
class ContentHash {
public:
  /// Each part's length is hashed with it: ("ab", "c") and ("a", "bc") differ.
  void add(std::string_view part);
  std::string hex() const;  // 16 hex digits

private:
  uint64_t h_ = 0x6a09e667f3bcc908ull;
};

/// The record kept beside a cached file, "FORMAT KEY SIZE HASH\n": what the
/// file must be to be used. Written with the file; recomputed by a reader
/// from the bytes it read, so that a truncated, damaged or swapped entry
/// (another key's file in its place) is never loaded.
std::string cacheRecord(std::string_view format, std::string_view key, std::string_view bytes);

/// Empty when `file` holds what its record says for `key`; else why it may
/// not be used ("it cannot be read", "its record ... is missing", "it does
/// not match its record ...").
std::string checkCached(const std::filesystem::path &file, const std::filesystem::path &record,
                        std::string_view format, std::string_view key);

/// `sub` under twintile's cache: $TWINTILE_CACHE_DIR, else
/// $XDG_CACHE_HOME/twintile, else ~/.cache/twintile (created if missing).
std::filesystem::path cacheDirectory(const std::string &sub, const std::string &root = {});

} // namespace twintile::support

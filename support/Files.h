//===- Files.h - reading and writing a whole file, the environment --------===//
#pragma once

#include <filesystem>
#include <optional>
#include <string>

namespace twintile::support {

/// The whole file, byte for byte; nullopt when it cannot be read.
std::optional<std::string> readFile(const std::filesystem::path &path);

/// Writes `bytes` to `path` (replacing it); false when that fails.
bool writeFile(const std::filesystem::path &path, const std::string &bytes);

/// $name when it is set and not empty, else `fallback`.
std::string envOr(const char *name, std::string fallback);

} // namespace twintile::support

//===- Files.h - reading and writing a whole file -------------------------===//
#pragma once

#include <filesystem>
#include <optional>
#include <string>

namespace twintile::support {

/// The whole file, byte for byte; nullopt when it cannot be read.
std::optional<std::string> readFile(const std::filesystem::path &path);

/// Writes `bytes` to `path` (replacing it); false when that fails.
bool writeFile(const std::filesystem::path &path, const std::string &bytes);

} // namespace twintile::support

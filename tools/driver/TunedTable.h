//===- TunedTable.h - the winners of tunings, kept for a kernel library ---===//
//
// `twintile tune --table FILE` adds its winner to FILE, one row per value of
// the key; `twintile library --tuned FILE` (TUNED in
// twintile_add_kernel_library) compiles every configuration a row names
// and makes one function that picks the row at each call
// (runtime/KernelLibrary.h's callTuned). The file is JSON:
//
//   {"format": "twintile tuned table 1", "kernel": "rowsum<{BLOCK}>",
//    "key": ["n"], "grid": "cdiv(n, BLOCK)",
//    "rows": [{"key": [100], "config": {"BLOCK": 128, "num_warps": 1},
//              "seconds": 1.2e-05, "device": "NVIDIA H200 (sm_90a), driver 13.0"}]}
//
// A row's key values are the key's parameters' values at the tuning (a
// buffer's element count).
//===----------------------------------------------------------------------===//
#pragma once

#include "launch/Autotune.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace twintile::driver {

struct TunedTableRow {
  std::vector<int64_t> key;
  TuneConfig config;
  double seconds = 0;
  std::string device;
};

struct TunedTableFile {
  std::string kernel;            // the template, with {NAME} for each meta-parameter
  std::vector<std::string> key;  // parameter names
  std::string grid;
  std::vector<TunedTableRow> rows;
};

/// FILE read and checked (every row's key as long as the key, every
/// configuration a valid one); nullopt with `error` naming the file.
std::optional<TunedTableFile> readTunedTable(const std::string &path, std::string &error);

/// `row` put into the table at `path` (made where it does not exist): it
/// replaces a row of the same key. The file's kernel, key and grid must be
/// `table`'s. Written whole to a temporary file, then renamed over it.
bool addTunedRow(const std::string &path, const TunedTableFile &table, const TunedTableRow &row, std::string &error);

} // namespace twintile::driver

//===- ReplayMain.cpp - a fuzz target without libFuzzer: replay inputs ----===//
//
// Linked into each fuzz target when the build has no libFuzzer (every build
// but scripts/fuzz's). Runs LLVMFuzzerTestOneInput on each file named, and
// on each file in each directory named (sorted; dotfiles skipped: .keep
// holds an empty directory in git), as libFuzzer would on its corpus; a
// finding aborts, so ctest fails on it.
//===----------------------------------------------------------------------===//
#include "support/Environment.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace fs = std::filesystem;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
extern "C" __attribute__((weak)) int LLVMFuzzerInitialize(int *argc, char ***argv);

int main(int argc, char **argv) {
  setenv(twintile::support::envName(twintile::support::Env::FuzzReplay), "1", 1);  // targets may hold seeds to more than libFuzzer can
  if (LLVMFuzzerInitialize) LLVMFuzzerInitialize(&argc, &argv);
  std::vector<fs::path> inputs;
  for (int i = 1; i < argc; ++i) {
    fs::path p = argv[i];
    if (fs::is_directory(p)) {
      std::vector<fs::path> in;
      for (const fs::directory_entry &e : fs::directory_iterator(p))
        if (e.is_regular_file() && !e.path().filename().string().starts_with(".")) in.push_back(e.path());
      std::sort(in.begin(), in.end());
      inputs.insert(inputs.end(), in.begin(), in.end());
    } else if (fs::is_regular_file(p)) {
      inputs.push_back(p);
    } else {
      std::fprintf(stderr, "%s: error: no file or directory '%s'\n", argv[0], argv[i]);
      return 1;
    }
  }
  for (const fs::path &p : inputs) {
    std::ifstream in(p, std::ios::binary);
    std::ostringstream bytes;
    bytes << in.rdbuf();
    std::string s = bytes.str();
    std::fprintf(stderr, "replay %s\n", p.c_str());
    LLVMFuzzerTestOneInput(reinterpret_cast<const uint8_t *>(s.data()), s.size());
  }
  std::printf("%zu inputs replayed, no findings\n", inputs.size());
  return 0;
}

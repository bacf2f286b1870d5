// Finding a line by its marker comment, so that tests of locations do not
// depend on line numbers.
#pragma once

#include <fstream>
#include <string>

namespace twintile::test {

/// The first line of `file` holding the comment `// <- marker` (or, with
/// `prefix` empty, any comment containing `marker`); 0 if none.
inline int markedLine(const std::string &file, const std::string &marker, const std::string &prefix = "// <- ") {
  std::ifstream in(file);
  std::string line;
  std::string want = prefix + marker;
  for (int n = 1; std::getline(in, line); ++n) {
    if (line.find("markedLine") != std::string::npos) continue;  // the test's own lookups
    if (prefix.empty() ? line.find("// ") != std::string::npos && line.find(marker) != std::string::npos
                       : line.find(want) != std::string::npos)
      return n;
  }
  return 0;
}

} // namespace twintile::test

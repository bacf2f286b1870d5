//===- DiffHtml.h - the front ends' stages as one HTML page ----------------===//
#pragma once

#include "support/Stage.h"

#include <map>
#include <string>
#include <vector>

namespace twintile::driver {

struct DiffPage {
  std::string file, kernel, verdict;
  std::vector<std::string> frontends{"parse", "trace"};  // in their columns, the first the one compared with
  bool equal = false;
  std::map<std::string, std::string> errors;  // front end -> its error, if any
  std::map<std::string, std::map<support::Stage, std::string>> stages;  // front end -> stage -> text
};

/// One self-contained page (no network: styles and script inline): the
/// verdict on top, the kernel's source beside, and for every stage the front
/// ends in aligned columns, lines that differ marked and, within them, the
/// part that differs, each IR op and PTX `.loc` linked to its source line.
std::string renderDiffPage(const DiffPage &page);

} // namespace twintile::driver

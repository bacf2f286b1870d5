//===- DiffHtml.h - the two front ends' stages as one HTML page ------------===//
#pragma once

#include "support/Stage.h"

#include <map>
#include <string>

namespace twintile::driver {

struct DiffPage {
  std::string file, kernel, verdict;
  std::string left = "parse", right = "trace";  // the front ends, in their columns
  bool equal = false;
  std::map<std::string, std::string> errors;  // front end -> its error, if any
  std::map<std::string, std::map<support::Stage, std::string>> stages;  // front end -> stage -> text
};

/// One self-contained page (no network: styles and script inline): the
/// verdict on top, the kernel's source beside, and for every stage the two
/// front ends in aligned columns, lines that differ marked, each IR op and
/// PTX `.loc` linked to its source line.
std::string renderDiffPage(const DiffPage &page);

} // namespace twintile::driver

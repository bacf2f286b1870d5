//===- SharedPlan.cpp - the shared stage's table -------------------------===//
#include "backend/SharedPlan.h"

#include "ir/Printer.h"

#include <algorithm>
#include <cstdio>

namespace twintile::backend {

using namespace twintile::ir;

std::string toString(const SharedPlan &plan, const std::string &header) {
  std::string out = header;
  if (!out.empty() && out.back() != '\n') out += '\n';
  if (plan.buffers.empty()) return out + "// no shared memory\n";
  // A ring lives for its loop; a window for its op.
  char line[64];
  out += "//   offset    bytes  buffer  of op         at: holding\n";
  for (const SharedBuffer &b : plan.buffers) {
    std::snprintf(line, sizeof line, "// %8lld %8lld  ", static_cast<long long>(b.offset), static_cast<long long>(b.bytes));
    std::string op = std::string(b.kind == SharedBuffer::Kind::Ring ? "ring    " : "window  ") + "'" + std::string(b.op->name()) + "'";
    op.resize(std::max<size_t>(op.size() + 1, 22), ' ');
    out += line + op + locationBody(b.op->loc) + ": " + b.what + "\n";
  }
  return out;
}

} // namespace twintile::backend

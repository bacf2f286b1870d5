//===- DevicePrintf.cpp - CUDA's vprintf, formatted on the host -----------===//
//
// The device passes the format string and a buffer of the arguments as a
// naturally aligned struct: int-sized conversions (%d %i %u %x %o %c, and a
// '*' width or precision) read 4 bytes; l, ll, j, z and t conversions, every
// floating conversion (a double: C promotes float), %p and %s read 8. Each
// conversion is handed to the host's snprintf with the same flags, width
// and precision; %s reads a NUL-terminated device string.
//===----------------------------------------------------------------------===//
#include "runtime/EmuMachine.h"

#include <bit>
#include <cctype>
#include <cstdio>
#include <cstring>

namespace twintile::runtime::emu {

namespace {

template <typename... Args>
std::string format(const std::string &spec, Args... args) {
  int n = std::snprintf(nullptr, 0, spec.c_str(), args...);
  if (n < 0) return spec;
  std::string out(static_cast<size_t>(n) + 1, '\0');
  std::snprintf(out.data(), out.size(), spec.c_str(), args...);
  out.resize(static_cast<size_t>(n));
  return out;
}

} // namespace

bool formatPrintf(const std::string &fmt, uint64_t args, PrintfMemory &mem, std::string &out, int &count) {
  uint64_t off = 0;
  count = 0;
  auto next = [&](unsigned size, uint64_t &v) {
    off = (off + size - 1) / size * size;
    bool ok = mem.read(args + off, size, v);
    off += size;
    ++count;
    return ok;
  };
  for (size_t i = 0; i < fmt.size(); ++i) {
    char c = fmt[i];
    if (c != '%') {
      out += c;
      continue;
    }
    if (i + 1 < fmt.size() && fmt[i + 1] == '%') {
      out += '%';
      ++i;
      continue;
    }
    // %[flags][width][.precision][length]conversion
    size_t j = i + 1;
    std::string flags, width, precision, length;
    while (j < fmt.size() && std::strchr("-+ #0", fmt[j])) flags += fmt[j++];
    auto number = [&](std::string &into) -> bool {
      if (j < fmt.size() && fmt[j] == '*') {
        uint64_t v = 0;
        if (!next(4, v)) return false;
        into = std::to_string(static_cast<int32_t>(v));
        ++j;
        return true;
      }
      while (j < fmt.size() && std::isdigit(static_cast<unsigned char>(fmt[j]))) into += fmt[j++];
      return true;
    };
    if (!number(width)) return false;
    bool hasPrecision = j < fmt.size() && fmt[j] == '.';
    if (hasPrecision) {
      ++j;
      if (!number(precision)) return false;
    }
    while (j < fmt.size() && std::strchr("hlLqjzt", fmt[j])) length += fmt[j++];
    if (j >= fmt.size()) {
      out += fmt.substr(i);
      break;
    }
    char conv = fmt[j];
    std::string spec = "%" + flags + width + (hasPrecision ? "." + precision : "");
    bool wide = length == "l" || length == "ll" || length == "j" || length == "z" || length == "t" || length == "q";
    uint64_t v = 0;
    switch (conv) {
    case 'd':
    case 'i':
      if (!next(wide ? 8 : 4, v)) return false;
      if (wide) out += format(spec + "lld", static_cast<long long>(v));
      else out += format(spec + (length == "h" || length == "hh" ? length : "") + "d", static_cast<int32_t>(v));
      break;
    case 'u':
    case 'x':
    case 'X':
    case 'o':
      if (!next(wide ? 8 : 4, v)) return false;
      if (wide) out += format(spec + "ll" + conv, static_cast<unsigned long long>(v));
      else out += format(spec + (length == "h" || length == "hh" ? length : "") + conv, static_cast<uint32_t>(v));
      break;
    case 'c':
      if (!next(4, v)) return false;
      out += format(spec + "c", static_cast<int>(static_cast<int32_t>(v)));
      break;
    case 'f':
    case 'F':
    case 'e':
    case 'E':
    case 'g':
    case 'G':
    case 'a':
    case 'A':
      if (!next(8, v)) return false;
      out += format(spec + conv, std::bit_cast<double>(v));
      break;
    case 'p':
      if (!next(8, v)) return false;
      out += format("%" + flags + width + "s", ("0x" + format("%llx", static_cast<unsigned long long>(v))).c_str());
      break;
    case 's': {
      if (!next(8, v)) return false;
      std::string s;
      if (!v) s = "(null)";
      else if (!mem.str(v, s)) return false;
      out += format(spec + "s", s.c_str());
      break;
    }
    default:  // not a conversion: printed as written
      out += fmt.substr(i, j - i + 1);
      break;
    }
    i = j;
  }
  return true;
}

} // namespace twintile::runtime::emu

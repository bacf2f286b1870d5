//===- Npy.cpp - reading and writing .npy files ---------------------------===//
//
//   "\x93NUMPY" major minor   magic and version (1.0, 2.0, 3.0)
//   header length             2 bytes (1.0) or 4 (2.0, 3.0), little-endian
//   header                    {'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }
//                             padded with spaces and a '\n' so the data starts
//                             at a multiple of 64 bytes
//   data                      the elements, C order
//
// The header is a Python literal; this reads the subset NumPy writes:
// a dict of quoted keys whose values are strings, True/False, tuples of
// integers, or (structured dtypes, refused) lists.
//===----------------------------------------------------------------------===//
#include "runtime/Npy.h"

#include <cctype>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <map>
#include <stdexcept>

namespace twintile::runtime {

namespace {

constexpr char kMagic[] = "\x93NUMPY";
constexpr size_t kMagicBytes = 6;

[[noreturn]] void fail(const std::string &file, const std::string &what) {
  throw std::runtime_error((file.empty() ? std::string("the array") : file) + ": " + what);
}

/// A header value: a string, a boolean, a tuple of integers, or something
/// else that was skipped (a list: a structured dtype).
struct Value {
  enum class Kind { String, Bool, Tuple, Other } kind = Kind::Other;
  std::string text;
  bool flag = false;
  std::vector<size_t> ints;
};

/// Parses the header dict; each failure is "the header is not ...".
class HeaderParser {
public:
  HeaderParser(const std::string &text, const std::string &file) : s_(text), file_(file) {}
  static constexpr int kMaxDepth = 32;

  std::map<std::string, Value> dict() {
    expect('{');
    std::map<std::string, Value> out;
    while (!peek('}')) {
      Value key = value();
      if (key.kind != Value::Kind::String) bad("a dict key that is not a string");
      expect(':');
      out[key.text] = value();
      if (!peek('}')) expect(',');
    }
    expect('}');
    skipSpace();
    if (pos_ != s_.size()) bad("text after the dict");
    return out;
  }

private:
  [[noreturn]] void bad(const std::string &what) {
    fail(file_, "the header is not the dict NumPy writes (" + what + " at byte " + std::to_string(pos_) +
                    " of the header: " + s_.substr(0, 80) + ")");
  }
  void skipSpace() {
    while (pos_ < s_.size() && std::strchr(" \t\r\n", s_[pos_]) && s_[pos_]) ++pos_;
  }
  bool peek(char c) {
    skipSpace();
    return pos_ < s_.size() && s_[pos_] == c;
  }
  void expect(char c) {
    if (!peek(c)) bad(std::string("expected '") + c + "'");
    ++pos_;
  }

  Value value() {
    skipSpace();
    if (pos_ >= s_.size()) bad("the end of the header");
    Value v;
    char c = s_[pos_];
    if (c == '\'' || c == '"') {
      size_t end = s_.find(c, pos_ + 1);
      if (end == std::string::npos) bad("an unterminated string");
      v.kind = Value::Kind::String;
      v.text = s_.substr(pos_ + 1, end - pos_ - 1);
      pos_ = end + 1;
      return v;
    }
    for (const char *word : {"True", "False"})
      if (s_.compare(pos_, std::strlen(word), word) == 0) {
        v.kind = Value::Kind::Bool;
        v.flag = word[0] == 'T';
        pos_ += std::strlen(word);
        return v;
      }
    if (c == '(' || c == '[') {
      // NumPy's own headers nest a few levels (a structured dtype's fields);
      // a crafted one must not exhaust the stack.
      if (++depth_ > kMaxDepth) bad("nesting deeper than " + std::to_string(kMaxDepth) + " levels");
      char close = c == '(' ? ')' : ']';
      ++pos_;
      v.kind = c == '(' ? Value::Kind::Tuple : Value::Kind::Other;
      while (!peek(close)) {
        // A tuple of integers is a shape; anything else (a structured dtype's fields) is only skipped.
        char next = s_[pos_];
        if (v.kind == Value::Kind::Tuple && (next == '-' || std::isdigit(static_cast<unsigned char>(next)))) {
          v.ints.push_back(integer());  // '-': refused there
        } else {
          value();
          v.kind = Value::Kind::Other;
        }
        if (!peek(close)) expect(',');
      }
      ++pos_;
      --depth_;
      return v;
    }
    bad("a value that is not a string, True, False, a tuple or a list");
  }

  size_t integer() {
    size_t start = pos_, n = 0;
    for (; pos_ < s_.size() && s_[pos_] >= '0' && s_[pos_] <= '9'; ++pos_) {
      if (n > (SIZE_MAX - 9) / 10) bad("a dimension too large");
      n = n * 10 + size_t(s_[pos_] - '0');
    }
    if (pos_ == start) bad("a shape entry that is not a non-negative integer");
    if (pos_ < s_.size() && s_[pos_] == 'L') ++pos_;  // Python 2's long literals
    return n;
  }

  const std::string &s_;
  const std::string &file_;
  size_t pos_ = 0;
  int depth_ = 0;
};

/// "(2, 3)", "(5,)", "()": the shape as Python prints it.
std::string shapeText(const std::vector<size_t> &shape) {
  std::string out = "(";
  for (size_t i = 0; i < shape.size(); ++i) out += (i ? ", " : "") + std::to_string(shape[i]);
  return out + (shape.size() == 1 ? ",)" : ")");
}

/// The item size a type string ends with ("<f4": 4); 0 if it ends otherwise.
size_t itemBytesOf(const std::string &descr) {
  if (descr.size() < 3 || descr.size() > 4) return 0;
  size_t n = 0;
  for (size_t i = 2; i < descr.size(); ++i) {
    if (!std::isdigit(static_cast<unsigned char>(descr[i]))) return 0;
    n = n * 10 + size_t(descr[i] - '0');
  }
  return n;
}

/// `descr` made canonical ('<' or '|'), or a failure naming what is refused.
std::string canonicalDescr(const std::string &descr, const std::string &file) {
  if (descr.size() >= 2 && descr[1] == 'O')
    fail(file, "holds Python objects (dtype 'O'), not numbers: the runtime reads only numeric arrays");
  if (descr.size() < 3 || !descr[0] || !std::strchr("<>|=", descr[0]))
    fail(file, "dtype '" + descr + "' is not a NumPy type string");
  char order = descr[0], kind = descr[1];
  std::string digits = descr.substr(2);
  bool numeric = kind && std::strchr("biufc", kind) && digits.size() <= 2 &&
                 digits.find_first_not_of("0123456789") == std::string::npos;
  if (!numeric) fail(file, "dtype '" + descr + "' is not a number type (bool, int, uint, float or complex)");
  size_t bytes = itemBytesOf(descr);
  bool sizeOk = kind == 'b'   ? bytes == 1
                : kind == 'f' ? bytes == 2 || bytes == 4 || bytes == 8
                : kind == 'c' ? bytes == 8 || bytes == 16
                              : bytes == 1 || bytes == 2 || bytes == 4 || bytes == 8;
  if (!sizeOk) fail(file, "dtype '" + descr + "' has an item size the runtime does not read");
  if (bytes == 1) return std::string("|") + kind + digits;
  if (order == '>')
    fail(file, "holds big-endian data ('" + descr + "'), which the runtime does not read: save it with a.astype('<" +
                   descr.substr(1) + "')");
  if (order == '|') fail(file, "dtype '" + descr + "' has no byte order, but its items are " + digits + " bytes");
  return "<" + descr.substr(1);
}

/// The product of `shape` times `item`, failing on overflow.
size_t dataBytes(const std::vector<size_t> &shape, size_t item, const std::string &file) {
  size_t n = item;
  for (size_t d : shape) {
    if (d && n > SIZE_MAX / d) fail(file, "shape " + shapeText(shape) + " is too large");
    n *= d;
  }
  return n;
}

uint32_t littleEndian(const uint8_t *p, int bytes) {
  uint32_t v = 0;
  for (int i = bytes - 1; i >= 0; --i) v = v << 8 | p[i];
  return v;
}

} // namespace

size_t NpyArray::count() const {
  size_t n = 1;
  for (size_t d : shape) n *= d;
  return n;
}

size_t NpyArray::itemBytes() const { return itemBytesOf(descr); }

NpyArray readNpy(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) fail(path, std::string("cannot open: ") + std::strerror(errno));
  std::vector<uint8_t> file((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (in.bad()) fail(path, std::string("cannot read: ") + std::strerror(errno));

  if (file.size() < kMagicBytes || std::memcmp(file.data(), kMagic, kMagicBytes) != 0)
    fail(path, "not a .npy file (it does not start with \\x93NUMPY)");
  if (file.size() < 8) fail(path, "truncated header (the file ends after the magic string)");
  int major = file[6], minor = file[7];
  if (major < 1 || major > 3)
    fail(path, "unsupported .npy format version " + std::to_string(major) + "." + std::to_string(minor));
  size_t lengthBytes = major == 1 ? 2 : 4, start = 8 + lengthBytes;
  if (file.size() < start) fail(path, "truncated header (the file ends in the header length)");
  size_t headerBytes = littleEndian(&file[8], int(lengthBytes));
  if (file.size() - start < headerBytes)
    fail(path, "truncated header (" + std::to_string(headerBytes) + " bytes announced, " +
                   std::to_string(file.size() - start) + " in the file)");

  std::string header(file.begin() + std::ptrdiff_t(start), file.begin() + std::ptrdiff_t(start + headerBytes));
  std::map<std::string, Value> dict = HeaderParser(header, path).dict();
  auto get = [&](const char *key, Value::Kind kind, const char *what) -> const Value & {
    auto it = dict.find(key);
    if (it == dict.end()) fail(path, std::string("the header has no '") + key + "'");
    if (it->second.kind != kind) {
      if (std::string(key) == "descr") fail(path, "structured dtypes (a list of fields) are not supported");
      fail(path, std::string("the header's '") + key + "' is not " + what);
    }
    return it->second;
  };
  NpyArray a;
  a.path = path;
  a.descr = canonicalDescr(get("descr", Value::Kind::String, "a string").text, path);
  if (get("fortran_order", Value::Kind::Bool, "True or False").flag)
    fail(path, "is in Fortran order, which the runtime does not read: save it with np.save(path, np.ascontiguousarray(a))");
  a.shape = get("shape", Value::Kind::Tuple, "a tuple of integers").ints;

  size_t need = dataBytes(a.shape, a.itemBytes(), path), have = file.size() - start - headerBytes;
  if (have < need)
    fail(path, "truncated data: shape " + shapeText(a.shape) + " of " + numpyName(a.descr) + " needs " +
                   std::to_string(need) + " bytes, the file has " + std::to_string(have));
  if (have > need)
    fail(path, std::to_string(have - need) + " bytes after the data: shape " + shapeText(a.shape) + " of " +
                   numpyName(a.descr) + " needs " + std::to_string(need) + " bytes, the file has " + std::to_string(have));
  a.data.assign(file.end() - std::ptrdiff_t(need), file.end());
  return a;
}

void writeNpy(const std::string &path, const NpyArray &a) {
  std::string descr = canonicalDescr(a.descr, path);
  size_t need = dataBytes(a.shape, itemBytesOf(descr), path);
  if (a.data.size() != need)
    fail(path, "cannot write: shape " + shapeText(a.shape) + " of " + numpyName(descr) + " needs " +
                   std::to_string(need) + " bytes of data, the array has " + std::to_string(a.data.size()));
  std::string header = "{'descr': '" + descr + "', 'fortran_order': False, 'shape': " + shapeText(a.shape) + ", }";
  // Pad with spaces and a newline so the data starts at a multiple of 64.
  bool v2 = header.size() + 1 + 10 + 63 > 65535;
  size_t prefix = v2 ? 12 : 10, total = (prefix + header.size() + 1 + 63) / 64 * 64;
  header.append(total - prefix - header.size() - 1, ' ');
  header += '\n';

  std::string preamble(kMagic, kMagicBytes);
  preamble += char(v2 ? 2 : 1);
  preamble += char(0);
  for (size_t i = 0, n = header.size(); i < (v2 ? 4u : 2u); ++i, n >>= 8) preamble += char(n & 0xff);
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out) fail(path, std::string("cannot write: ") + std::strerror(errno));
  out << preamble << header;
  out.write(reinterpret_cast<const char *>(a.data.data()), std::streamsize(a.data.size()));
  out.close();
  if (!out) fail(path, std::string("cannot write: ") + std::strerror(errno));
}

//===----------------------------------------------------------------------===//
// IR element buffers as arrays
//===----------------------------------------------------------------------===//

std::string npyDescrOf(const std::string &elem) {
  static const std::map<std::string, std::string> descrs = {
      {"f16", "<f2"}, {"bf16", "<f4"}, {"f32", "<f4"}, {"f64", "<f8"}, {"i1", "|b1"},
      {"i8", "|i1"},  {"i16", "<i2"},  {"i32", "<i4"}, {"i64", "<i8"},
      {"u8", "|u1"},  {"u16", "<u2"},  {"u32", "<u4"}, {"u64", "<u8"}};
  auto it = descrs.find(elem);
  if (it == descrs.end()) throw std::runtime_error("no NumPy dtype for element type '" + elem + "'");
  return it->second;
}

std::string numpyName(const std::string &descr) {
  size_t bytes = itemBytesOf(descr);
  if (!bytes) return "dtype '" + descr + "'";
  std::string bits = std::to_string(8 * bytes);
  switch (descr[1]) {
  case 'b': return "bool";
  case 'i': return "int" + bits;
  case 'u': return "uint" + bits;
  case 'f': return "float" + bits;
  case 'c': return "complex" + bits;
  default: return "dtype '" + descr + "'";
  }
}

NpyArray toNpy(const std::string &elem, std::span<const uint8_t> bytes, size_t count) {
  NpyArray a;
  a.descr = npyDescrOf(elem);
  a.shape = {count};
  size_t width = elem == "bf16" ? 2 : a.itemBytes();
  if (count > bytes.size() / width)
    throw std::runtime_error("toNpy: " + std::to_string(count) + " elements of " + elem + " need " +
                             std::to_string(count * width) + " bytes, the buffer has " + std::to_string(bytes.size()));
  if (elem == "bf16") {
    a.data.resize(4 * count);
    for (size_t i = 0; i < count; ++i) {
      uint32_t widened = uint32_t(bytes[2 * i] | bytes[2 * i + 1] << 8) << 16;  // exact
      std::memcpy(&a.data[4 * i], &widened, 4);
    }
    return a;
  }
  a.data.assign(bytes.begin(), bytes.begin() + std::ptrdiff_t(count * width));
  if (elem == "i1")
    for (uint8_t &b : a.data) b = b != 0;  // NumPy's bools are 0 or 1
  return a;
}

std::vector<uint8_t> fromNpy(const NpyArray &a, const std::string &elem, const std::string &paramName) {
  std::string want = npyDescrOf(elem);
  std::string have = canonicalDescr(a.descr, a.path);
  std::string file = a.path.empty() ? "the array" : a.path;
  if (a.data.size() != dataBytes(a.shape, itemBytesOf(have), a.path))
    fail(a.path, "holds " + std::to_string(a.data.size()) + " bytes, not what shape " + shapeText(a.shape) + " of " +
                     numpyName(have) + " needs");
  std::string type = "'" + paramName + "' is ptr<" + elem + ">";
  std::string numpyAttr = want == "|b1" ? "np.bool_" : "np." + numpyName(want);
  auto refuse = [&](const std::string &what) -> std::vector<uint8_t> {
    throw std::runtime_error(file + " holds " + what + ", but " + type + ": save it with " + paramName + ".astype(" +
                             numpyAttr + ")");
  };
  size_t n = a.count();
  if (elem == "bf16") {
    if (have == "<u2") return a.data;  // the raw bits
    if (have != "<f4") return refuse(numpyName(have));
    std::vector<uint8_t> out(2 * n);
    for (size_t i = 0; i < n; ++i) {
      uint32_t f;
      std::memcpy(&f, &a.data[4 * i], 4);
      bool nan = (f & 0x7fffffffu) > 0x7f800000u;
      // Round to nearest, ties to even; a NaN stays a (quiet) NaN of its sign.
      uint16_t b = nan ? uint16_t(f >> 16 | 0x0040) : uint16_t((f + 0x7fffu + (f >> 16 & 1)) >> 16);
      out[2 * i] = uint8_t(b);
      out[2 * i + 1] = uint8_t(b >> 8);
    }
    return out;
  }
  if (elem == "i1" && (have == "|u1" || have == "|i1")) {
    for (size_t i = 0; i < n; ++i)
      if (a.data[i] > 1)
        return refuse(numpyName(have) + " values other than 0 and 1 (element " + std::to_string(i) + " is " +
                      std::to_string(have == "|i1" ? int(int8_t(a.data[i])) : int(a.data[i])) + ")");
    return a.data;
  }
  if (have != want) return refuse(numpyName(have));
  std::vector<uint8_t> out = a.data;
  if (elem == "i1")
    for (uint8_t &b : out) b = b != 0;
  return out;
}

} // namespace twintile::runtime

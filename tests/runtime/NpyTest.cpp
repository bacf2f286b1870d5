// .npy files (runtime/Npy.h): files NumPy wrote (tests/runtime/npy/) read
// with their dtypes, shapes and values, and are written back byte for byte;
// every element type round-trips through toNpy/writeNpy/readNpy/fromNpy;
// malformed files, refused kinds and a dtype that does not match the
// parameter each give a message naming the file.
#include "runtime/Npy.h"

#include <catch2/catch.hpp>

#include <unistd.h>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

using namespace twintile::runtime;
namespace fs = std::filesystem;

namespace {

std::string fixture(const std::string &name) { return std::string(TWINTILE_RUNTIME_NPY_DIR) + "/" + name; }

/// A directory of this process's own, removed at the end of the test.
struct TempDir {
  fs::path path = fs::temp_directory_path() / ("twintile-npy-" + std::to_string(getpid()));
  TempDir() { fs::create_directories(path); }
  ~TempDir() { fs::remove_all(path); }
  std::string file(const std::string &name) const { return (path / name).string(); }
};

std::string slurp(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

void spit(const std::string &path, const std::string &bytes) {
  std::ofstream out(path, std::ios::binary);
  out << bytes;
}

template <typename T>
std::vector<T> values(const NpyArray &a) {
  REQUIRE(a.data.size() == a.count() * sizeof(T));
  std::vector<T> v(a.count());
  std::memcpy(v.data(), a.data.data(), a.data.size());
  return v;
}

/// The message readNpy throws for `path`, or "" if it reads.
std::string readError(const std::string &path) {
  try {
    readNpy(path);
  } catch (const std::runtime_error &e) {
    return e.what();
  }
  return "";
}

std::string fromError(const NpyArray &a, const std::string &elem, const std::string &param) {
  try {
    fromNpy(a, elem, param);
  } catch (const std::runtime_error &e) {
    return e.what();
  }
  return "";
}

} // namespace

TEST_CASE("npy: files NumPy wrote are read with dtype, shape and values", "[npy]") {
  NpyArray f32 = readNpy(fixture("f32.npy"));
  CHECK(f32.descr == "<f4");
  CHECK(f32.shape == std::vector<size_t>{4});
  CHECK(values<float>(f32) == std::vector<float>{1.5f, -2.25f, 3e38f, INFINITY});

  NpyArray i64 = readNpy(fixture("i64_2x3.npy"));
  CHECK(i64.descr == "<i8");
  CHECK(i64.shape == std::vector<size_t>{2, 3});
  CHECK(values<int64_t>(i64) == std::vector<int64_t>{-3, 0, 7, int64_t(1) << 40, -(int64_t(1) << 62), 5});

  NpyArray b = readNpy(fixture("bool.npy"));
  CHECK(b.descr == "|b1");
  CHECK(values<uint8_t>(b) == std::vector<uint8_t>{1, 0, 1, 1, 0});

  NpyArray f16 = readNpy(fixture("f16.npy"));
  CHECK(f16.descr == "<f2");
  CHECK(values<uint16_t>(f16) == std::vector<uint16_t>{0x3c00, 0x3800, 0xfbff});

  NpyArray scalar = readNpy(fixture("f64_0d.npy"));
  CHECK(scalar.shape.empty());
  CHECK(scalar.count() == 1);
  CHECK(values<double>(scalar) == std::vector<double>{2.5});

  CHECK(values<int8_t>(readNpy(fixture("i8.npy"))) == std::vector<int8_t>{-128, 0, 127});

  NpyArray v2 = readNpy(fixture("u16_v2.npy"));  // format version 2.0
  CHECK(v2.descr == "<u2");
  CHECK(values<uint16_t>(v2) == std::vector<uint16_t>{0x3f80, 0xc000, 0x7fc0});

  NpyArray empty = readNpy(fixture("empty_0x3.npy"));
  CHECK(empty.shape == std::vector<size_t>{0, 3});
  CHECK(empty.count() == 0);
  CHECK(empty.data.empty());
}

TEST_CASE("npy: writing gives NumPy's own bytes", "[npy]") {
  TempDir dir;
  for (const char *name : {"f32.npy", "i64_2x3.npy", "bool.npy", "f16.npy", "f64_0d.npy", "i8.npy", "empty_0x3.npy"}) {
    INFO(name);
    writeNpy(dir.file(name), readNpy(fixture(name)));
    CHECK(slurp(dir.file(name)) == slurp(fixture(name)));
  }
}

TEST_CASE("npy: every element type round-trips through a file", "[npy]") {
  TempDir dir;
  struct Case {
    const char *elem, *descr;
    std::vector<uint8_t> bytes;
  };
  std::vector<Case> cases = {
      {"f16", "<f2", {0x00, 0x3c, 0xff, 0xfb, 0x01, 0x00}},
      {"bf16", "<f4", {0x80, 0x3f, 0xc0, 0x7f, 0x01, 0x80, 0x7f, 0xff}},  // 1.0, NaN, -tiny, -max
      {"f32", "<f4", {0x00, 0x00, 0xc0, 0x3f, 0x01, 0x00, 0x00, 0x80}},
      {"f64", "<f8", {0, 0, 0, 0, 0, 0, 0xf0, 0x3f, 1, 2, 3, 4, 5, 6, 7, 0x80}},
      {"i1", "|b1", {1, 0, 0, 1, 1}},
      {"i8", "|i1", {0x80, 0x7f, 0xff}},
      {"i16", "<i2", {0x00, 0x80, 0xff, 0x7f}},
      {"i32", "<i4", {1, 2, 3, 4, 0xff, 0xff, 0xff, 0xff}},
      {"i64", "<i8", {1, 2, 3, 4, 5, 6, 7, 8, 0, 0, 0, 0, 0, 0, 0, 0x80}},
  };
  for (const Case &c : cases) {
    INFO(c.elem);
    size_t width = c.descr == std::string("<f8") || c.descr == std::string("<i8") ? 8
                   : std::string(c.elem) == "bf16"                                 ? 2
                                                                                   : size_t(c.descr[2] - '0');
    size_t count = c.bytes.size() / width;
    NpyArray a = toNpy(c.elem, c.bytes, count);
    CHECK(a.descr == c.descr);
    CHECK(npyDescrOf(c.elem) == c.descr);
    CHECK(a.shape == std::vector<size_t>{count});
    std::string path = dir.file(std::string(c.elem) + ".npy");
    writeNpy(path, a);
    NpyArray back = readNpy(path);
    CHECK(back.descr == c.descr);
    CHECK(back.shape == a.shape);
    CHECK(fromNpy(back, c.elem, "x") == c.bytes);
  }
  // bf16 is saved as the float32 with the same value.
  uint16_t bf16[] = {0x3fc0};  // 1.5
  CHECK(values<float>(toNpy("bf16", {reinterpret_cast<uint8_t *>(bf16), 2}, 1)) == std::vector<float>{1.5f});
  // i1 buffers hold 0/1; anything nonzero is saved as True.
  uint8_t bools[] = {0, 2, 255};
  CHECK(toNpy("i1", bools, 3).data == std::vector<uint8_t>{0, 1, 1});
}

TEST_CASE("npy: conversions a parameter accepts, and the fix for the rest", "[npy]") {
  // bf16 from float32 rounds to nearest even; from uint16 it takes the raw bits.
  NpyArray f;
  f.descr = "<f4";
  std::vector<float> in = {1.0f + 0x1p-8f, 1.0f + 0x3p-8f, 1.0f + 0x1p-8f + 0x1p-20f, -INFINITY, NAN};
  f.shape = {in.size()};
  f.data.resize(4 * in.size());
  std::memcpy(f.data.data(), in.data(), f.data.size());
  std::vector<uint8_t> bf = fromNpy(f, "bf16", "x");
  std::vector<uint16_t> got(in.size());
  std::memcpy(got.data(), bf.data(), bf.size());
  CHECK(got == std::vector<uint16_t>{0x3f80, 0x3f82, 0x3f81, 0xff80, 0x7fc0});
  CHECK(fromNpy(readNpy(fixture("u16_v2.npy")), "bf16", "x") == std::vector<uint8_t>{0x80, 0x3f, 0x00, 0xc0, 0xc0, 0x7f});

  // i1 from uint8/int8 of 0 and 1; other values are refused, naming one.
  NpyArray u8;
  u8.descr = "|u1";
  u8.shape = {3};
  u8.data = {0, 1, 1};
  CHECK(fromNpy(u8, "i1", "mask") == std::vector<uint8_t>{0, 1, 1});
  u8.data[1] = 7;
  CHECK(fromError(u8, "i1", "mask") ==
        "the array holds uint8 values other than 0 and 1 (element 1 is 7), but 'mask' is ptr<i1>: save it with "
        "mask.astype(np.bool_)");
  CHECK(fromError(readNpy(fixture("i8.npy")), "i1", "m").find("int8 values other than 0 and 1 (element 0 is -128)") !=
        std::string::npos);

  // Otherwise the dtype must match: the message names file, dtype, parameter and fix.
  CHECK(fromError(readNpy(fixture("x.npy")), "f32", "x") ==
        fixture("x.npy") + " holds float64, but 'x' is ptr<f32>: save it with x.astype(np.float32)");
  CHECK(fromError(readNpy(fixture("i64_2x3.npy")), "i32", "idx") ==
        fixture("i64_2x3.npy") + " holds int64, but 'idx' is ptr<i32>: save it with idx.astype(np.int32)");
  CHECK(fromError(readNpy(fixture("f16.npy")), "bf16", "w") ==
        fixture("f16.npy") + " holds float16, but 'w' is ptr<bf16>: save it with w.astype(np.float32)");
  // A matching dtype in any shape gives its bytes in C order.
  CHECK(fromNpy(readNpy(fixture("i64_2x3.npy")), "i64", "idx").size() == 48);
  CHECK_THROWS_WITH(npyDescrOf("i128"), "no NumPy dtype for element type 'i128'");
  uint8_t two[2] = {};
  CHECK_THROWS_WITH(toNpy("f32", two, 1), "toNpy: 1 elements of f32 need 4 bytes, the buffer has 2");
}

TEST_CASE("npy: refused kinds say what to do", "[npy]") {
  CHECK(readError(fixture("fortran.npy")) ==
        fixture("fortran.npy") +
            ": is in Fortran order, which the runtime does not read: save it with np.save(path, "
            "np.ascontiguousarray(a))");
  CHECK(readError(fixture("big_endian.npy")) ==
        fixture("big_endian.npy") +
            ": holds big-endian data ('>f4'), which the runtime does not read: save it with a.astype('<f4')");
  CHECK(readError(fixture("object.npy")) ==
        fixture("object.npy") + ": holds Python objects (dtype 'O'), not numbers: the runtime reads only numeric arrays");
  CHECK(readError(fixture("structured.npy")) ==
        fixture("structured.npy") + ": structured dtypes (a list of fields) are not supported");
  CHECK(readError(fixture("strings.npy")) ==
        fixture("strings.npy") + ": dtype '<U2' is not a number type (bool, int, uint, float or complex)");
}

TEST_CASE("npy: malformed files are refused with a message naming the file", "[npy]") {
  TempDir dir;
  std::string good = slurp(fixture("f32.npy"));  // 128 bytes of magic and header, 16 of data
  REQUIRE(good.size() == 144);
  auto errorFor = [&](const std::string &bytes) {
    std::string path = dir.file("bad.npy");
    spit(path, bytes);
    std::string e = readError(path);
    CHECK(e.rfind(path + ": ", 0) == 0);
    return e.substr(std::min(e.size(), path.size() + 2));
  };
  CHECK(errorFor("PK\x03\x04 a zip file") == "not a .npy file (it does not start with \\x93NUMPY)");
  CHECK(errorFor("") == "not a .npy file (it does not start with \\x93NUMPY)");
  CHECK(errorFor(good.substr(0, 7)) == "truncated header (the file ends after the magic string)");
  CHECK(errorFor(good.substr(0, 9)) == "truncated header (the file ends in the header length)");
  CHECK(errorFor(good.substr(0, 60)) == "truncated header (118 bytes announced, 50 in the file)");
  CHECK(errorFor(good.substr(0, 140)) == "truncated data: shape (4,) of float32 needs 16 bytes, the file has 12");
  CHECK(errorFor(good + "xy") == "2 bytes after the data: shape (4,) of float32 needs 16 bytes, the file has 18");
  std::string v9 = good;
  v9[6] = 9;
  CHECK(errorFor(v9) == "unsupported .npy format version 9.0");

  // Headers that are not the dict NumPy writes.
  auto withHeader = [&](std::string header) {
    header.resize(118, ' ');
    header.back() = '\n';
    return good.substr(0, 10) + header + good.substr(128);
  };
  CHECK(errorFor(withHeader("[1, 2]")).rfind("the header is not the dict NumPy writes (expected '{' at byte 0", 0) == 0);
  CHECK(errorFor(withHeader("{'descr': '<f4', 'shape': (4,), }")) == "the header has no 'fortran_order'");
  CHECK(errorFor(withHeader("{'descr': '<f4', 'fortran_order': 0, 'shape': (4,), }"))
            .rfind("the header is not the dict NumPy writes (a value that is not a string", 0) == 0);
  CHECK(errorFor(withHeader("{'descr': '<f4', 'fortran_order': False, 'shape': (-4,), }"))
            .rfind("the header is not the dict NumPy writes (a shape entry that is not a non-negative integer", 0) == 0);
  CHECK(errorFor(withHeader("{'descr': '<f4', 'fortran_order': False, 'shape': 4, }"))
            .rfind("the header is not the dict NumPy writes", 0) == 0);
  CHECK(errorFor(withHeader("{'descr': '<f4', 'fortran_order': False, 'shape': '4', }")) ==
        "the header's 'shape' is not a tuple of integers");
  CHECK(errorFor(withHeader("{'descr': '<f4', 'fortran_order': False, 'shape': (4,), ")).find("the end of the header") !=
        std::string::npos);
  CHECK(errorFor(withHeader("{'descr': '<f4', 'fortran_order': False, 'shape': (4, 'a'), }")) ==
        "the header's 'shape' is not a tuple of integers");
  CHECK(errorFor(withHeader("{'descr': '<q9', 'fortran_order': False, 'shape': (4,), }")) ==
        "dtype '<q9' is not a number type (bool, int, uint, float or complex)");
  CHECK(errorFor(withHeader("{'descr': '<f3', 'fortran_order': False, 'shape': (4,), }")) ==
        "dtype '<f3' has an item size the runtime does not read");
  // Nesting a crafted header deep is refused, not a stack overflow.
  std::string deep = "{'descr': '<f4', 'fortran_order': False, 'shape': (4,), 'x': " + std::string(40, '[') + "}";
  CHECK(errorFor(withHeader(deep)).rfind("the header is not the dict NumPy writes (nesting deeper than 32 levels", 0) == 0);
  // Python 2's long literals in the shape are still read.
  spit(dir.file("long.npy"), withHeader("{'descr': '<f4', 'fortran_order': False, 'shape': (4L,), }"));
  CHECK(readNpy(dir.file("long.npy")).shape == std::vector<size_t>{4});

  CHECK(readError(dir.file("missing.npy")) == dir.file("missing.npy") + ": cannot open: No such file or directory");
}

TEST_CASE("npy: writing refuses what it cannot write", "[npy]") {
  NpyArray a;
  a.descr = "<f4";
  a.shape = {2, 2};
  a.data.resize(12);
  TempDir dir;
  CHECK_THROWS_WITH(writeNpy(dir.file("a.npy"), a),
                    dir.file("a.npy") + ": cannot write: shape (2, 2) of float32 needs 16 bytes of data, the array has 12");
  a.data.resize(16);
  CHECK_THROWS_WITH(writeNpy(dir.file("no/such/dir/a.npy"), a),
                    dir.file("no/such/dir/a.npy") + ": cannot write: No such file or directory");
  a.descr = "|O";
  CHECK_THROWS_WITH(writeNpy(dir.file("a.npy"), a), Catch::Contains("holds Python objects"));
  // A huge header (many dimensions) is written as version 2.0, and reads back.
  a.descr = "<f4";
  a.shape = std::vector<size_t>(25000, 1);
  a.shape[0] = 4;
  a.data.resize(16);
  writeNpy(dir.file("v2.npy"), a);
  std::string bytes = slurp(dir.file("v2.npy"));
  CHECK(bytes[6] == 2);
  CHECK((bytes.size() - 16) % 64 == 0);
  CHECK(readNpy(dir.file("v2.npy")).shape == a.shape);
}

// What the driver reads from a kernel file's text (frontends/common/
// KernelSource.h): the kernels it defines, a kernel's template parameters,
// and a parameter of a plain C++ type, located.
#include "frontends/common/KernelSource.h"

#include <catch2/catch.hpp>

using namespace twintile;

TEST_CASE("kernels and their template parameters are read from the text", "[parse][source]") {
  std::string src = "template <class T> T helper(T v) { return v; }\n"
                    "template <int N,\n          class T = f32>\n"
                    "TT_KERNEL void a(Ptr<T> x) {}\n"
                    "TT_KERNEL void b(Ptr<f32> x) {}\n"
                    "template <int M> struct S {};\nTT_KERNEL void c(Ptr<f32> x) {}\n";
  CHECK(kernelsIn(src) == std::vector<std::string>{"a", "b", "c"});
  CHECK(templateParameters(src, "a") == "<int N, class T = f32>");
  CHECK(templateParameters(src, "b") == "");  // the template before it is a's
  CHECK(templateParameters(src, "c") == "");  // the template before it is S's
  CHECK(templateParameters("template <int N>\n// one row per program\nTT_KERNEL void d(Ptr<f32> x) {}", "d") == "<int N>");
  CHECK(templateParameters("template <class T>\n  requires true\nTT_KERNEL void e(Ptr<T> x) {}", "e") == "<class T>");
  CHECK_FALSE(templateParameters(src, "helper").has_value());
  CHECK_FALSE(templateParameters(src, "a(b").has_value());  // not an identifier: no regex built of it
  CHECK(kernelName("ns::softmax< f16, 1024 >") == "softmax");
}

TEST_CASE("a kernel parameter of a plain C++ type is found and located", "[parse][source]") {
  std::string src = "template <int N, class T>\n"
                    "TT_KERNEL void k(Ptr<T> x, T scale, Tile<f32> t,\n"
                    "                 std::pair<int, int> p, float *host, int n = 3) {}\n"
                    "TT_KERNEL void fine(Ptr<f32> x, i32 n, const f32 &s) {}\n";
  std::optional<twintile::ir::Diagnostic> d = hostParameter(src, "k.cpp", "k");
  REQUIRE(d);
  CHECK(d->loc.pos.line == 3);
  CHECK(d->loc.pos.col == 48);
  CHECK(d->message == "kernel parameter 'host' has host type 'float *': give host values to a kernel as template "
                      "parameters");
  CHECK_FALSE(hostParameter(src, "k.cpp", "fine"));
  std::string unnamed = "TT_KERNEL void u(Ptr<f32> x, unsigned int) {}\n";
  std::optional<twintile::ir::Diagnostic> u = hostParameter(unnamed, "u.cpp", "u");
  REQUIRE(u);
  CHECK(u->message == "a kernel parameter has host type 'unsigned int': give host values to a kernel as template parameters");
  CHECK(u->loc.pos.col == 30);
  CHECK_FALSE(hostParameter(src, "k.cpp", "missing"));
}

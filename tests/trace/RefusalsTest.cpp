// What the tracing front end refuses, each with its message and the line it
// names. A line is found by its marker comment (`// <- name`) in this file,
// so the tests do not depend on line numbers.
#include "frontends/trace/Entry.h"
#include "frontends/trace/Trace.h"

#include "ir/Printer.h"

#include "Markers.h"

#include <catch2/catch.hpp>

#include <fstream>
#include <string>

using namespace tt;

namespace {

int markedLine(const std::string &marker) {
  int line = twintile::test::markedLine(__FILE__, marker);
  if (line == 0) FAIL("no marker " << marker);
  return line;
}

/// The error a trace stopped with; requires that it stopped.
twintile::ir::Diagnostic refused(twintile::TraceResult r) {
  if (r.ok()) FAIL("the trace succeeded:\n" << twintile::ir::toString(*r.func));
  REQUIRE(r.error);
  return *r.error;
}

void checkAt(const twintile::ir::Diagnostic &d, const std::string &marker) {
  INFO(d.str());
  CHECK(d.loc.pos.file == __FILE__);
  CHECK(d.loc.pos.line == markedLine(marker));
}

} // namespace

template <int B> TT_KERNEL void deviceIf(Ptr<f32> x, i32 n) {
  auto v = load(x + arange(0, B));
  if (n > 0)  // <- device-if
    store(x + arange(0, B), v + 1.0f);
}

template <int B> TT_KERNEL void deviceFor(Ptr<f32> x, i32 n) {
  for (i32 k = 0; k < n; k += 1)  // <- device-for
    store(x + k, f32(1.0f));
}

template <int B> TT_KERNEL void deviceWhile(Ptr<i32> x, i32 n) {
  i32 k = 0;
  while (k < n) {  // <- device-while
    store(x + k, k);
    k += 1;
  }
}

template <int B> TT_KERNEL void deviceTernary(Ptr<f32> x, i32 n) {
  f32 v = n > 0 ? f32(1.0f) : f32(2.0f);  // <- device-ternary
  store(x, v);
}

template <int B> TT_KERNEL void shapeMismatch(Ptr<f32> x) {
  auto a = load(x + arange(0, B));
  auto b = load(x + arange(0, B / 2));
  store(x + arange(0, B), a + b);  // <- shape-mismatch
}

template <int B> TT_KERNEL void badAxis(Ptr<f32> x) {
  auto a = load(x + arange(0, B));
  store(x, sum(a, 1));  // <- bad-axis
}

template <int B> TT_KERNEL void badStoreType(Ptr<f16> y, Ptr<f32> x) {
  auto offs = arange(0, B);
  store(y + offs, x + offs);  // <- bad-store-type
}

template <int B> TT_KERNEL void badDotType(Ptr<f16> a, Ptr<f32> c) {
  auto r = arange(0, B);
  auto t = load(a + expand_dims(r, 1) * B + expand_dims(r, 0));
  auto acc = dot(t, t, zeros<f16>({B, B}));  // <- bad-dot-type
  store(c + expand_dims(r, 1) * B + expand_dims(r, 0), cast<f32>(acc));
}

template <int B> TT_KERNEL void unassigned(Ptr<f32> x) {
  Tile<f32> t;
  store(x + arange(0, B), t);  // <- unassigned
}

template <int B> TT_KERNEL void branchTypes(Ptr<f32> x, i32 n) {
  auto r = if_else(n > 0, [&] { return load(x + arange(0, B)); }, [&] { return full<f32>({B / 2}, 0.0f); });  // <- branch-types
  store(x + arange(0, B), r);
}

template <int B> TT_KERNEL void loopTypes(Ptr<f32> x, i32 n) {
  auto acc = for_range(0, n, 1, zeros<f32>({B}), [&](i32, Tile<f32> acc) {  // <- loop-types
    return sum(acc, 0);
  });
  store(x + arange(0, B), acc);
}

template <int B> TT_KERNEL void badArange(Ptr<f32> x) {
  store(x + arange(B, 0), 1.0f);  // <- bad-arange
}

TEST_CASE("trace refuses a native if on a device value, at its line", "[trace][refusals]") {
  auto d = refused(twintile::trace(&deviceIf<64>, "deviceIf<64>"));
  checkAt(d, "device-if");
  CHECK(d.message.find("a device value is used as a C++ condition") == 0);
  CHECK(d.message.find("tt::if_else(cond, then, else)") != std::string::npos);
}

TEST_CASE("trace refuses a native for over a device bound, naming for_range", "[trace][refusals]") {
  auto d = refused(twintile::trace(&deviceFor<64>, "deviceFor<64>"));
  checkAt(d, "device-for");
  CHECK(d.message.find("tt::for_range(lo, hi, step, carried..., body)") != std::string::npos);
}

TEST_CASE("trace refuses a native while on a device condition, naming while_loop", "[trace][refusals]") {
  auto d = refused(twintile::trace(&deviceWhile<64>, "deviceWhile<64>"));
  checkAt(d, "device-while");
  CHECK(d.message.find("tt::while_loop(cond, body, carried...)") != std::string::npos);
}

TEST_CASE("trace refuses ?: on a device condition", "[trace][refusals]") {
  auto d = refused(twintile::trace(&deviceTernary<64>, "deviceTernary<64>"));
  checkAt(d, "device-ternary");
  CHECK(d.message.find("`?:`") != std::string::npos);
}

TEST_CASE("trace refuses shapes that do not broadcast, naming both", "[trace][refusals]") {
  auto d = refused(twintile::trace(&shapeMismatch<64>, "shapeMismatch<64>"));
  checkAt(d, "shape-mismatch");
  CHECK(d.message == "shapes [64] and [32] cannot be broadcast together in '+'");
}

TEST_CASE("trace refuses a reduction axis out of range", "[trace][refusals]") {
  auto d = refused(twintile::trace(&badAxis<64>, "badAxis<64>"));
  checkAt(d, "bad-axis");
  CHECK(d.message == "'sum' axis 1 is out of range for tile<64xf32>");
}

TEST_CASE("trace refuses storing pointers through an f16 pointer (a number would be converted)", "[trace][refusals]") {
  auto d = refused(twintile::trace(&badStoreType<64>, "badStoreType<64>"));
  checkAt(d, "bad-store-type");
  CHECK(d.message == "'store' value must be tile<64xf16> for address tile<64xptr<f16>>, got tile<64xptr<f32>>");
}

TEST_CASE("trace refuses a dot that accumulates f16 in f16", "[trace][refusals]") {
  auto d = refused(twintile::trace(&badDotType<16>, "badDotType<16>"));
  checkAt(d, "bad-dot-type");
  CHECK(d.message.find("'dot' of f16 cannot accumulate in f16") == 0);
}

TEST_CASE("trace refuses a device value that was never assigned", "[trace][refusals]") {
  auto d = refused(twintile::trace(&unassigned<16>, "unassigned<16>"));
  checkAt(d, "unassigned");
  CHECK(d.message == "store uses a device value that was never assigned");
}

TEST_CASE("trace refuses if_else branches of different types", "[trace][refusals]") {
  auto d = refused(twintile::trace(&branchTypes<16>, "branchTypes<16>"));
  checkAt(d, "branch-types");
  CHECK(d.message == "if_else branches return different types: (tile<16xf32>) and (tile<8xf32>)");
}

TEST_CASE("trace refuses a for_range body that changes a carried type", "[trace][refusals]") {
  auto d = refused(twintile::trace(&loopTypes<16>, "loopTypes<16>"));
  checkAt(d, "loop-types");
  CHECK(d.message == "the for_range body returns (f32) for carried values of types (tile<16xf32>)");
}

TEST_CASE("trace refuses an empty arange", "[trace][refusals]") {
  auto d = refused(twintile::trace(&badArange<16>, "badArange<16>"));
  checkAt(d, "bad-arange");
  CHECK(d.message == "'arange' needs start < end, got [16, 0)");
}

TEST_CASE("a device operation outside a trace is an error, not a crash", "[trace][refusals]") {
  CHECK_THROWS(program_id(0));
}

namespace {
bool calledKernel = false;
void noKernel(twintile::entry::Session *, void (*)()) { calledKernel = true; }
} // namespace

TEST_CASE("a kernel compiled with another op table is refused, not traced into the wrong ops", "[trace][refusals]") {
  twintile::TraceOptions options;
  twintile::TraceResult same;
  calledKernel = false;
  twintile::entry::run(&options, "k", &same, tt::detail::kOpTable, &noKernel, nullptr);
  CHECK(calledKernel);
  CHECK(same.ok());
  std::string shifted = std::string("Log1p,") + tt::detail::kOpTable;  // a header with one op more, first
  twintile::TraceResult other;
  calledKernel = false;
  twintile::entry::run(&options, "k", &other, shifted.c_str(), &noKernel, nullptr);
  CHECK_FALSE(calledKernel);
  REQUIRE_FALSE(other.ok());
  REQUIRE(other.error);
  CHECK(other.error->message.find("rebuild twintile") != std::string::npos);
}

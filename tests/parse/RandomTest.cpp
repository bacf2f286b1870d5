// Random numbers (include/twintile/random.h, namespace rng): Philox 4x32-10 against the
// known-answer vectors of its authors' Random123 library, and randint, rand
// and randn against a host transcription of Triton's tl.randint/rand/randn
// (triton/language/random.py), through both front ends in the interpreter.
#include "frontends/parse/ParseFrontend.h"
#include "frontends/trace/SourceTracer.h"
#include "ir/Interpreter.h"

#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <vector>

namespace ir = twintile::ir;

namespace {

const char *const kFile = TWINTILE_TESTS_DIR "/parse/random_kernels.cpp";

twintile::FrontendResult frontEnd(const std::string &which, const std::string &spec) {
  if (which == "parse") return twintile::parseKernel(kFile, spec);
  twintile::SourceTraceOptions opts;
  opts.cacheDir = TWINTILE_TEST_CACHE_DIR;
  return twintile::traceSourceFile(kFile, spec, opts).trace;
}

using Words = std::array<uint32_t, 4>;

/// Philox 4x32-10, as Triton writes it.
Words philox(Words c, uint32_t k0, uint32_t k1) {
  auto hi = [](uint32_t a, uint32_t b) { return static_cast<uint32_t>((uint64_t(a) * b) >> 32); };
  for (int round = 0; round < 10; ++round) {
    uint32_t a0 = c[0], a2 = c[2];
    c[0] = hi(0xCD9E8D57u, a2) ^ c[1] ^ k0;
    c[2] = hi(0xD2511F53u, a0) ^ c[3] ^ k1;
    c[1] = 0xCD9E8D57u * a2;
    c[3] = 0xD2511F53u * a0;
    k0 += 0x9E3779B9u;
    k1 += 0xBB67AE85u;
  }
  return c;
}

float uniform(uint32_t bits) {
  int32_t x = static_cast<int32_t>(bits);
  return static_cast<float>(x < 0 ? ~x : x) * 4.6566127342e-10f;
}

} // namespace

TEST_CASE("the host Philox is Random123's philox4x32-10", "[random]") {
  CHECK(philox({0, 0, 0, 0}, 0, 0) == Words{0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8});
  CHECK(philox({~0u, ~0u, ~0u, ~0u}, ~0u, ~0u) == Words{0x408f276d, 0x41c83b0e, 0xa20bc7c6, 0x6d5451fd});
  CHECK(philox({0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344}, 0xa4093822, 0x299f31d0) ==
        Words{0xd16cfe09, 0x94fdcceb, 0x5001e420, 0x24126ea1});
}

TEST_CASE("philox in the language gives the known answers, from both front ends", "[random]") {
  const std::vector<Words> counters = {{0, 0, 0, 0}, {~0u, ~0u, ~0u, ~0u}, {0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344},
                                       {1, 2, 3, 4}};
  const std::vector<std::array<uint32_t, 2>> keys = {{0, 0}, {~0u, ~0u}, {0xa4093822, 0x299f31d0}, {5, 6}};
  for (const char *fe : {"parse", "trace"}) {
    INFO(fe);
    twintile::FrontendResult r = frontEnd(fe, "philox_kat<4>");
    INFO((r.error ? r.error->str() : std::string()));
    REQUIRE(r.ok());
    std::vector<ir::Buffer> bufs;
    for (int w = 0; w < 6; ++w) {
      ir::Buffer b(ir::ScalarKind::I32, 4, "w" + std::to_string(w));
      for (size_t lane = 0; lane < 4; ++lane)
        b.setInt(lane, static_cast<int32_t>(w < 4 ? counters[lane][static_cast<size_t>(w)] : keys[lane][static_cast<size_t>(w - 4)]));
      bufs.push_back(std::move(b));
    }
    std::vector<ir::KernelArg> args;
    for (size_t i = 0; i < 6; ++i) args.push_back(ir::KernelArg::buf(i));
    ir::RunResult run = ir::interpret(*r.func, {1, 1, 1}, args, bufs);
    REQUIRE(run.ok());
    for (size_t lane = 0; lane < 4; ++lane) {
      Words want = philox(counters[lane], keys[lane][0], keys[lane][1]);
      for (size_t w = 0; w < 4; ++w) CHECK(static_cast<uint32_t>(bufs[w].getInt(lane)) == want[w]);
    }
  }
}

TEST_CASE("randint, rand and randn give Triton's streams, from both front ends", "[random]") {
  const int n = 256, seed = 1234;
  for (const char *fe : {"parse", "trace"}) {
    INFO(fe);
    twintile::FrontendResult r = frontEnd(fe, "streams<64>");
    INFO((r.error ? r.error->str() : std::string()));
    REQUIRE(r.ok());
    std::vector<ir::Buffer> bufs{ir::Buffer(ir::ScalarKind::I32, n, "ints"), ir::Buffer(ir::ScalarKind::F32, n, "u"),
                                 ir::Buffer(ir::ScalarKind::F32, n, "z")};
    ir::RunResult run = ir::interpret(*r.func, {n / 64, 1, 1},
                                      {ir::KernelArg::buf(0), ir::KernelArg::buf(1), ir::KernelArg::buf(2),
                                       ir::KernelArg::integer(seed)},
                                      bufs);
    REQUIRE(run.ok());
    double mean = 0;
    for (int i = 0; i < n; ++i) {
      INFO("offset " << i);
      Words w = philox({static_cast<uint32_t>(i), 0, 0, 0}, seed, 0);
      CHECK(static_cast<uint32_t>(bufs[0].getInt(static_cast<size_t>(i))) == w[0]);
      CHECK(bufs[1].get(static_cast<size_t>(i)) == uniform(w[0]));
      float u1 = std::max(uniform(w[0]), 1.0e-7f), u2 = uniform(w[1]);
      double z = std::sqrt(-2.0 * std::log(u1)) * std::cos(6.283185307179586 * u2);
      CHECK(bufs[2].get(static_cast<size_t>(i)) == Approx(z).margin(1e-5));
      mean += bufs[1].get(static_cast<size_t>(i)) / n;
      CHECK(bufs[1].get(static_cast<size_t>(i)) >= 0.0);
      CHECK(bufs[1].get(static_cast<size_t>(i)) < 1.0);
    }
    CHECK(mean == Approx(0.5).margin(0.05));  // 256 uniforms: the mean's standard error is 0.018
  }
}

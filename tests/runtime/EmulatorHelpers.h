// Helpers of the emulator's tests: PTX modules around a kernel body, and
// running one-thread kernels that store their results.
#pragma once

#include "runtime/Device.h"

#include "runtime/Emulator.h"

#include <catch2/catch.hpp>

#include <bit>
#include <cstdint>
#include <fstream>
#include <span>
#include <sstream>
#include <string>
#include <vector>

namespace twintile::test {

using namespace twintile::runtime;

template <typename T>
inline std::span<uint8_t> bytesOf(std::vector<T> &v) {
  return {reinterpret_cast<uint8_t *>(v.data()), v.size() * sizeof(T)};
}

inline uint32_t f32bits(float f) { return std::bit_cast<uint32_t>(f); }
inline float bitsf32(uint32_t b) { return std::bit_cast<float>(b); }

/// A module with one kernel `k`: `params`, the usual register files, `body`.
inline std::string kernel(const std::string &params, const std::string &body, const std::string &prologue = "") {
  return ".version 8.0\n.target sm_90a\n.address_size 64\n" + prologue + ".visible .entry k(" + params +
         ")\n{\n"
         "\t.reg .pred %p<16>;\n\t.reg .b16 %rs<16>;\n\t.reg .b32 %r<64>;\n\t.reg .f32 %f<64>;\n"
         "\t.reg .b64 %rd<64>;\n\t.reg .f64 %fd<16>;\n" +
         body + "\tret;\n}\n";
}

/// The 1-based line of the first line of `text` that contains `needle`.
inline int lineOf(const std::string &text, const std::string &needle) {
  std::istringstream s(text);
  std::string l;
  for (int n = 1; std::getline(s, l); ++n)
    if (l.find(needle) != std::string::npos) return n;
  return -1;
}

/// Runs a one-thread kernel k(.param .u64 out) whose body stores `n` 32-bit results to out[0..n).
inline std::vector<uint32_t> results32(const std::string &body, size_t n) {
  std::string ptx = kernel(".param .u64 k_out", "\tld.param.u64 %rd0, [k_out];\n" + body);
  PtxModule m = PtxModule::parse(ptx);
  std::vector<uint32_t> out(n, 0xdeadbeef);
  EmuResult r = emulate(m, "k", {}, {}, {EmuArg::buf(0)}, {bytesOf(out)});
  INFO(r.error);
  REQUIRE(r.ok());
  return out;
}

inline std::vector<uint64_t> results64(const std::string &body, size_t n) {
  std::string ptx = kernel(".param .u64 k_out", "\tld.param.u64 %rd0, [k_out];\n" + body);
  PtxModule m = PtxModule::parse(ptx);
  std::vector<uint64_t> out(n, 0xdeadbeefdeadbeefull);
  EmuResult r = emulate(m, "k", {}, {}, {EmuArg::buf(0)}, {bytesOf(out)});
  INFO(r.error);
  REQUIRE(r.ok());
  return out;
}

/// Runs `ptx`'s kernel expecting an error; returns it.
inline std::string failure(const std::string &ptx, Dim3 grid, Dim3 block, std::vector<EmuArg> args,
                    std::vector<std::span<uint8_t>> buffers, EmuOptions options = {}) {
  PtxModule m = PtxModule::parse(ptx);
  EmuResult r = emulate(m, "k", grid, block, args, std::move(buffers), options);
  REQUIRE_FALSE(r.ok());
  return r.error;
}

inline std::string readFile(const std::string &path) {
  std::ifstream f(path);
  REQUIRE(f.good());
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

inline std::string corpusPtx(const std::string &name) { return readFile(std::string(TWINTILE_RUNTIME_PTX_DIR) + "/" + name); }

/// A kernel image whose 32 threads per block each add `v` to out[0] with an
/// atomic: a launch's result shows how many launches ran.
inline twintile::runtime::KernelImage accumulateKernel() {
  twintile::runtime::KernelImage k;
  k.ptx = ".version 8.0\n.target sm_90a\n.address_size 64\n"
          ".visible .entry acc(.param .u64 acc_out, .param .u32 acc_v)\n{\n"
          "\t.reg .b32 %r<4>;\n\t.reg .b64 %rd<4>;\n"
          "\tld.param.u64 %rd1, [acc_out];\n\tcvta.to.global.u64 %rd2, %rd1;\n\tld.param.u32 %r1, [acc_v];\n"
          "\tatom.global.add.u32 %r2, [%rd2], %r1;\n\tret;\n}\n";
  k.manifest.kernel = "acc";
  k.manifest.threadsPerProgram = 32;
  k.manifest.params = {{"out", "ptr<i32>", {}}, {"v", "i32", {}}};
  return k;
}

/// 64 threads reverse their ids through the far end of 64 KiB of dynamic
/// shared memory (more than a kernel may declare statically): out[t] = 63 - t.
inline twintile::runtime::KernelImage farSharedKernel() {
  twintile::runtime::KernelImage k;
  k.ptx = ".version 8.0\n.target sm_90a\n.address_size 64\n.extern .shared .align 16 .b8 far_smem[];\n"
          ".visible .entry far(.param .u64 far_out)\n{\n"
          "\t.reg .b32 %r<8>;\n\t.reg .b64 %rd<8>;\n"
          "\tld.param.u64 %rd1, [far_out];\n\tmov.u32 %r1, %tid.x;\n\tmov.u32 %r2, far_smem;\n"
          "\tshl.b32 %r3, %r1, 2;\n\tadd.s32 %r4, %r2, 65532;\n\tsub.s32 %r5, %r4, %r3;\n"
          "\tst.shared.u32 [%r5], %r1;\n\tbar.sync 0;\n"
          "\tadd.s32 %r6, %r3, 65280;\n\tadd.s32 %r6, %r6, %r2;\n\tld.shared.u32 %r7, [%r6];\n"
          "\tmul.wide.u32 %rd2, %r1, 4;\n\tadd.s64 %rd3, %rd1, %rd2;\n\tst.global.u32 [%rd3], %r7;\n"
          "\tret;\n}\n";
  k.manifest.kernel = "far";
  k.manifest.threadsPerProgram = 64;
  k.manifest.sharedBytes = k.manifest.dynamicSharedBytes = 65536;
  k.manifest.params = {{"out", "ptr<i32>", {}}};
  return k;
}

} // namespace twintile::test

//===- runner.cpp - the GPU bench's runner: check and time a bundle --------===//
//
//   gpu_runner BUNDLE [--device cuda|emu] [--warmup N] [--repeat N] [--only SPEC]
//
// Built on the GPU machine from the runtime alone (no LLVM; CMakeLists.txt
// beside this file). For each kernel of the bundle (bundle.py): launch the
// small case on the bundle's inputs and compare every buffer with the IR
// interpreter's references (runtime/BufferCompare.h); then launch the bench
// case on random inputs `repeat` times after `warmup`, timed with CUDA
// events, each after a 256 MiB memset that clears the L2 and hides the
// host's launch latency (baselines.py times Triton and PyTorch the same
// way), and report the median. Prints one JSON object per kernel on
// standard output (progress on standard error); exits 1 if any check fails.
//===----------------------------------------------------------------------===//
#include "runtime/BufferCompare.h"
#include "runtime/Device.h"
#include "runtime/Npy.h"
#include "runtime/PtxFloat.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <bit>
#include <charconv>
#include <optional>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <random>
#include <sstream>

namespace fs = std::filesystem;
using namespace twintile::runtime;
using Json = nlohmann::json;

namespace {

std::string readFile(const fs::path &p) {
  std::ifstream in(p, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + p.string());
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

/// A scalar's bits in its parameter's type.
uint64_t scalarBits(const ParamType &t, const Json &v) {
  if (t.isFloat) {
    double d = v.get<double>();
    if (t.elem == "f64") return std::bit_cast<uint64_t>(d);
    if (t.elem == "f32") return std::bit_cast<uint32_t>(static_cast<float>(d));
    return t.elem == "bf16" ? ptx::toBF16(d) : ptx::toF16(d);
  }
  return static_cast<uint64_t>(v.get<int64_t>());
}

/// Random contents for a bench buffer: floats in [-1, 1), integers in [-50, 50].
std::vector<uint8_t> randomBuffer(const ParamType &t, size_t count, std::mt19937_64 &rng) {
  std::vector<uint8_t> bytes(count * t.bytes);
  std::uniform_real_distribution<float> real(-1, 1);
  std::uniform_int_distribution<int64_t> integer(-50, 50);
  for (size_t i = 0; i < count; ++i) {
    uint8_t *p = bytes.data() + i * t.bytes;
    if (t.elem == "f32") {
      float v = real(rng);
      std::memcpy(p, &v, 4);
    } else if (t.elem == "f16" || t.elem == "bf16") {
      uint16_t v = t.elem == "f16" ? ptx::toF16(real(rng)) : ptx::toBF16(real(rng));
      std::memcpy(p, &v, 2);
    } else if (t.elem == "f64") {
      double v = real(rng);
      std::memcpy(p, &v, 8);
    } else {
      int64_t v = t.elem == "i1" ? integer(rng) & 1 : integer(rng);
      std::memcpy(p, &v, t.bytes);  // little-endian: the low bytes
    }
  }
  return bytes;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0 : v.size() % 2 ? v[v.size() / 2] : (v[v.size() / 2 - 1] + v[v.size() / 2]) / 2;
}

struct Launchable {
  std::vector<LaunchArg> args;
  std::vector<std::vector<uint8_t>> buffers;
  std::vector<std::string> names;
  std::vector<ParamType> types;
  std::vector<std::span<uint8_t>> spans() {
    std::vector<std::span<uint8_t>> out;
    for (auto &b : buffers) out.emplace_back(b);
    return out;
  }
};

/// The small launch, on the bundle's inputs; the references beside it.
Launchable checkCase(const fs::path &root, const Manifest &m, const Json &check, std::vector<std::vector<uint8_t>> &refs) {
  Launchable l;
  for (const Manifest::Param &p : m.params) {
    ParamType t = *parseParamType(p.type);
    const Json &a = check.at("args").at(p.name);
    if (!t.pointer) {
      l.args.push_back(LaunchArg::scalar(scalarBits(t, a.at("value"))));
      continue;
    }
    l.args.push_back(LaunchArg::buf(l.buffers.size()));
    l.buffers.push_back(fromNpy(readNpy((root / a.at("input").get<std::string>()).string()), t.elem, p.name));
    refs.push_back(fromNpy(readNpy((root / a.at("reference").get<std::string>()).string()), t.elem, p.name));
    if (refs.back().size() != l.buffers.back().size())
      throw std::runtime_error("'" + p.name + "': the reference has " + std::to_string(refs.back().size()) +
                               " bytes, the input " + std::to_string(l.buffers.back().size()));
    l.names.push_back(p.name);
    l.types.push_back(t);
  }
  return l;
}

/// The bench launch, on random inputs.
Launchable benchCase(const Manifest &m, const Json &bench, std::mt19937_64 &rng, size_t &bytes) {
  Launchable l;
  bytes = 0;
  for (const Manifest::Param &p : m.params) {
    ParamType t = *parseParamType(p.type);
    if (!t.pointer) {
      l.args.push_back(LaunchArg::scalar(scalarBits(t, bench.at("scalars").at(p.name))));
      continue;
    }
    size_t count = bench.at("sizes").at(p.name).get<size_t>();
    l.args.push_back(LaunchArg::buf(l.buffers.size()));
    l.buffers.push_back(randomBuffer(t, count, rng));
    bytes += count * t.bytes;
    l.names.push_back(p.name);
    l.types.push_back(t);
  }
  return l;
}

Dim3 gridOf(const Json &g) { return {g.at(0).get<uint32_t>(), g.at(1).get<uint32_t>(), g.at(2).get<uint32_t>()}; }

} // namespace

int main(int argc, char **argv) {
  if (argc < 2) {
    std::cerr << "usage: gpu_runner BUNDLE [--device cuda|emu] [--warmup N] [--repeat N] [--only SPEC]\n";
    return 2;
  }
  fs::path root = argv[1];
  std::string deviceName = "cuda", only;
  int warmup = 5, repeat = 20;
  auto count = [](const std::string &flag, const std::string &text, int min) -> std::optional<int> {
    int v = 0;
    auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    if (ec != std::errc() || end != text.data() + text.size() || v < min) {
      std::cerr << "gpu_runner: " << flag << " takes a whole number of at least " << min << ", got '" << text << "'\n";
      return std::nullopt;
    }
    return v;
  };
  for (int i = 2; i < argc; i += 2) {
    std::string flag = argv[i];
    if (i + 1 >= argc) {
      std::cerr << "gpu_runner: " << flag << " needs a value\n";
      return 2;
    }
    std::string value = argv[i + 1];
    if (flag == "--device" && (value == "cuda" || value == "emu")) deviceName = value;
    else if (flag == "--warmup" || flag == "--repeat") {
      std::optional<int> v = count(flag, value, flag == "--warmup" ? 0 : 1);
      if (!v) return 2;
      (flag == "--warmup" ? warmup : repeat) = *v;
    } else if (flag == "--only") only = value;
    else {
      std::cerr << "gpu_runner: bad option " << flag << " " << value << "\n";
      return 2;
    }
  }
  std::string why;
  std::unique_ptr<Device> device = deviceName == "emu" ? makeEmuDevice() : makeCudaDevice(why);
  if (!device) {
    std::cerr << "gpu_runner: no " << deviceName << " device: " << why << "\n";
    return 3;
  }
  std::cerr << "gpu_runner: " << device->describe() << "\n";
  Json bundle;
  try {
    bundle = Json::parse(readFile(root / "bundle.json"));
  } catch (const std::exception &e) {
    std::cerr << "gpu_runner: " << root.string() << "/bundle.json: " << e.what() << "\n";
    return 2;
  }
  if (!bundle.is_object() || !bundle.contains("kernels") || !bundle["kernels"].is_array()) {
    std::cerr << "gpu_runner: " << root.string() << "/bundle.json has no list of kernels\n";
    return 2;
  }
  std::mt19937_64 rng(2026);
  bool allOk = true;
  for (const Json &k : bundle["kernels"]) {
    std::string spec = k.is_object() && k.contains("spec") && k["spec"].is_string() ? k["spec"].get<std::string>() : "?";
    if (!only.empty() && spec != only) continue;
    std::string math = k.value("math", std::string("precise"));
    Json row{{"spec", spec}, {"math", math}, {"device", device->describe()}};
    if (k.is_object() && k.contains("id")) row["id"] = k["id"];  // a tuning candidate's rows are told apart by it
    try {
      KernelImage image;
      image.ptx = readFile(root / k.at("ptx").get<std::string>());
      image.manifest = Manifest::fromJson(readFile(root / k.at("manifest").get<std::string>()));
      // 1. The check against the interpreter's references.
      std::vector<std::vector<uint8_t>> refs;
      Launchable c = checkCase(root, image.manifest, k.at("check"), refs);
      std::vector<std::vector<uint8_t>> initial = c.buffers;
      LaunchOptions once;
      once.grid = gridOf(k.at("check").at("grid"));
      LaunchResult r = device->launch(image, c.args, c.spans(), once);
      if (!r.ok()) throw std::runtime_error("check launch: " + r.error);
      size_t mismatches = 0, elements = 0;
      Json buffers = Json::array();
      for (size_t b = 0; b < c.buffers.size(); ++b) {
        BufferCheck bc = compareBuffer(c.names[b], c.types[b].elem, initial[b], refs[b], c.buffers[b],
                                       image.manifest.math == "fast");
        mismatches += bc.mismatches;
        elements += bc.elements;
        buffers.push_back({{"name", bc.name}, {"mismatches", bc.mismatches}, {"examples", bc.examples}});
      }
      row["check"] = mismatches ? "different" : "ok";
      row["checked_elements"] = elements;
      row["buffers"] = buffers;
      allOk = allOk && mismatches == 0;
      // 2. The bench launch, timed.
      size_t bytes = 0;
      const Json &bench = k.at("bench");
      Launchable b = benchCase(image.manifest, bench, rng, bytes);
      LaunchOptions timed;
      timed.grid = gridOf(bench.at("grid"));
      timed.warmup = warmup;
      timed.repeat = repeat;
      timed.flushBytes = size_t(256) << 20;  // as baselines.py's timed(): the L2 cleared, the host's launch hidden
      LaunchResult t = device->launch(image, b.args, b.spans(), timed);
      if (!t.ok()) throw std::runtime_error("bench launch: " + t.error);
      double s = median(t.seconds);
      row["seconds"] = t.seconds;
      row["median_s"] = s;
      row["bytes"] = bytes;
      row["flops"] = bench.at("flops");
      row["grid"] = bench.at("grid");
      row["sizes"] = bench.at("sizes");
      std::cerr << "gpu_runner: " << spec << " --math=" << math << ": check " << row["check"].get<std::string>()
                << " (" << elements << " elements), median " << s * 1e6 << " us of " << t.seconds.size() << "\n";
    } catch (const std::exception &e) {
      row["error"] = e.what();
      allOk = false;
      std::cerr << "gpu_runner: " << spec << " --math=" << math << ": " << e.what() << "\n";
    }
    std::cout << row.dump() << "\n" << std::flush;
  }
  return allOk ? 0 : 1;
}

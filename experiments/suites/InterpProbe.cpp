//===- InterpProbe.cpp - a corpus kernel in the interpreter, on given inputs --===//
//
//   interp_probe LAUNCH.json
//
// The oracle the baselines are checked against (experiments/baselines/
// triton_check.py): the kernel's IR, from the pipeline (the parsing front
// end, then the cleanup), runs in the reference interpreter on the buffers the launch names, and
// every buffer is written back, so that another system's output on the same
// inputs can be compared with ours. LAUNCH.json:
//
//   {"file": "experiments/kernels/softmax.cpp", "spec": "softmax<f16,128>",
//    "grid": [3, 1, 1],
//    "args": {"x": {"in": "x.bin", "out": "x.out.bin"}, "n_cols": 125, ...}}
//
// A pointer parameter's buffer is read from "in" (raw little-endian elements
// of the parameter's type; bf16 as its 16 bits) and written to "out" after
// the run; a scalar is a number. Errors (a missing argument, a file of the
// wrong size, a front end's refusal, an interpreter error) are printed with
// what and where, and the exit status is 1.
//===----------------------------------------------------------------------===//
#include "ir/Interpreter.h"
#include "pipeline/Pipeline.h"

#include <nlohmann/json.hpp>

#include <fstream>
#include <iostream>
#include <iterator>
#include <string>
#include <vector>

namespace ir = twintile::ir;
using json = nlohmann::json;

namespace {

int fail(const std::string &why) {
  std::cerr << "interp_probe: error: " << why << "\n";
  return 1;
}

bool readFile(const std::string &path, std::vector<uint8_t> &out) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  out.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  return true;
}

} // namespace

int run(int argc, char **argv) {
  if (argc != 2) {
    std::cerr << "usage: interp_probe LAUNCH.json\n";
    return 2;
  }
  std::ifstream in(argv[1]);
  json launch = json::parse(in, nullptr, false);
  if (!in || launch.is_discarded() || !launch.is_object()) return fail(std::string("cannot read ") + argv[1]);
  if (!launch.contains("file") || !launch.contains("spec") || !launch.contains("grid") || !launch.contains("args"))
    return fail("the launch needs file, spec, grid and args");

  twintile::pipeline::CompileRequest request;
  request.frontend = twintile::pipeline::Frontend::Parse;
  request.last = twintile::support::Stage::TileOpt;
  twintile::pipeline::Result compiled =
      twintile::pipeline::compileSource(launch["file"].get<std::string>(), launch["spec"].get<std::string>(), request);
  if (!compiled.ok()) {
    std::cerr << compiled.error;  // as the driver prints it
    return 1;
  }
  ir::Func &f = *compiled.func;

  std::vector<ir::Buffer> buffers;
  std::vector<ir::KernelArg> args;
  std::vector<std::string> outs;
  const json &given = launch["args"];
  for (size_t i = 0; i < f.numParams(); ++i) {
    const ir::Value *p = f.param(i);
    if (!given.contains(p->name)) return fail("no argument for parameter '" + p->name + "'");
    const json &a = given[p->name];
    if (p->type.isPtr()) {
      std::vector<uint8_t> bytes;
      if (!a.is_object() || !a.contains("in") || !a["in"].is_string() || !readFile(a["in"].get<std::string>(), bytes))
        return fail("parameter '" + p->name + "' needs a readable input file");
      size_t elemBytes = ir::Buffer(p->type.pointee, 1).bytes().size();
      if (bytes.size() % elemBytes != 0)
        return fail("'" + a["in"].get<std::string>() + "' holds " + std::to_string(bytes.size()) +
                    " bytes, not a whole number of " + std::string(ir::scalarName(p->type.pointee)) + " elements");
      ir::Buffer filled(p->type.pointee, bytes.size() / elemBytes, p->name);
      filled.bytes() = std::move(bytes);
      args.push_back(ir::KernelArg::buf(buffers.size()));
      buffers.push_back(std::move(filled));
      outs.push_back(a.contains("out") && a["out"].is_string() ? a["out"].get<std::string>() : "");
    } else if (!a.is_number()) {
      return fail("parameter '" + p->name + "' needs a number");
    } else if (p->type.isFloat()) {
      args.push_back(ir::KernelArg::floating(a.get<double>()));
    } else {
      args.push_back(ir::KernelArg::integer(a.get<int64_t>()));
    }
  }
  std::vector<int64_t> g = launch["grid"].get<std::vector<int64_t>>();
  g.resize(3, 1);
  ir::RunResult run = ir::interpret(f, {g[0], g[1], g[2]}, args, buffers);
  if (!run.ok()) return fail(run.error->str());
  for (size_t b = 0; b < buffers.size(); ++b) {
    if (outs[b].empty()) continue;
    std::ofstream out(outs[b], std::ios::binary);
    out.write(reinterpret_cast<const char *>(buffers[b].bytes().data()), std::streamsize(buffers[b].bytes().size()));
    if (!out) return fail("cannot write '" + outs[b] + "'");
  }
  std::cout << "interp_probe: " << f.name << " ran on grid (" << g[0] << ", " << g[1] << ", " << g[2] << ")\n";
  return 0;
}

int main(int argc, char **argv) {
  try {
    return run(argc, argv);
  } catch (const nlohmann::json::exception &e) {
    return fail(std::string("the launch file is not what interp_probe reads: ") + e.what());
  }
}

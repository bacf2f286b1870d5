//===- Ptxas.h - running NVIDIA's ptxas, reading its resource report ------===//
//
// ptxas is not part of twintile: it comes from a CUDA toolkit or from the
// pinned NVIDIA wheels scripts/setup installs into .venv. When it is absent the
// backend still produces PTX and says that validation was skipped.
//===----------------------------------------------------------------------===//
#pragma once

#include <optional>
#include <string>

namespace twintile::backend {

/// ptxas's verdict and its `-v` report for one kernel.
struct PtxasReport {
  bool ran = false;         // false: skipped (see `skipped`)
  std::string skipped;      // why it did not run, e.g. "ptxas not found"
  bool ok = false;          // ptxas accepted the PTX
  std::string log;          // everything ptxas printed
  int registers = -1;
  int spillStoreBytes = -1;
  int spillLoadBytes = -1;
  int stackBytes = -1;      // "bytes stack frame"
  int sharedBytes = -1;     // "bytes smem"
  std::string cubin;        // the assembled binary (bytes), when ok
};

/// The ptxas to use: $TWINTILE_PTXAS, else the one found when twintile was
/// configured (.venv or a toolkit), else `ptxas` on PATH, else nothing.
std::optional<std::string> findPtxas();

/// The libdevice bitcode to link: $TWINTILE_LIBDEVICE, else the configured
/// one, else the toolkit's beside the ptxas findPtxas() gives, else
/// /usr/local/cuda/nvvm/libdevice/libdevice.10.bc, else nothing.
std::optional<std::string> findLibdevice();

/// Assembles `ptx` for `arch` (e.g. "sm_90a") with `ptxas -v`, and reads
/// registers, spills, stack and shared memory from its report. Never throws
/// for a ptxas failure: ok is false and log says why.
PtxasReport runPtxas(const std::string &ptx, const std::string &arch);

/// The SASS of a cubin, by nvdisasm ($TWINTILE_NVDISASM, else beside ptxas,
/// else on PATH) or else cuobjdump -sass. nullopt with `why` when neither is
/// found or it fails.
std::optional<std::string> disassemble(const std::string &cubin, std::string &why);

/// Reads the resource lines of a `ptxas -v` log into `report` (exposed for
/// tests). Returns false when the log has no "Used N registers" line.
bool parsePtxasLog(const std::string &log, PtxasReport &report);

} // namespace twintile::backend

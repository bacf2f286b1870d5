#!/usr/bin/env bash
# The installed package, moved to another prefix, used as a project outside
# this tree uses it, with the source tree and the build folder hidden:
# find_package(twintile), twintile_add_kernel_library, the library's typed
# functions on the PTX emulator (examples/app, copied out: its `app` checks
# against host loops, its `app_oracle` against the IR interpreter), the
# library compiled again when a file its kernel file includes changes, and a
# library with every option (a second, inline project).
#
# Usage: check_package.sh CMAKE CXX BUILD_DIR SOURCE_DIR
# Exits 77 (ctest's SKIP) where the trees cannot be hidden (no mount
# namespaces: `unshare -rm` refused).
set -euo pipefail
cmake=$1
cxx=$2
build=$(cd "$3" && pwd)
src=$(cd "$4" && pwd)
unset DESTDIR
# shellcheck source=../hidden_tree.sh
source "$(dirname "$0")/../hidden_tree.sh"
skip_unless_hideable "$src"
generator=()
command -v ninja > /dev/null && generator=(-G Ninja)

work=$(work_outside twintile-package "$src" "$build")
trap 'rm -rf "$work"' EXIT
"$cmake" --install "$build" --prefix "$work/installed" > "$work/install.log"
mv "$work/installed" "$work/prefix"
cp -r "$src/examples/app" "$work/app"

# The inline project: FRONTEND parse, one target, a promise, a named function,
# and a tuned function over a table (as `twintile tune --table` writes one on a GPU).
mkdir -p "$work/options"
cat > "$work/options/CMakeLists.txt" << 'EOF2'
cmake_minimum_required(VERSION 3.25)
project(options LANGUAGES CXX)
find_package(twintile CONFIG REQUIRED)
twintile_add_kernel_library(scalers
  SOURCES scale.cpp
  KERNELS "scale_by=scale<i32, 64>"
  TUNED scale.tuned.json
  FRONTEND parse TARGETS sm_80 NUM_WARPS 2 ASSUME "out:aligned")
add_executable(options main.cpp)
target_link_libraries(options PRIVATE scalers)
EOF2
cat > "$work/options/scale.cpp" << 'EOF2'
#include <twintile.h>
using namespace tt;
template <class T, int BLOCK>
TT_KERNEL void scale(Ptr<T> in, Ptr<T> out, i32 n, i32 k) {
  auto offs = program_id(0) * BLOCK + arange(0, BLOCK);
  store(out + offs, load(in + offs, offs < n) * k, offs < n);
}
EOF2
cat > "$work/options/scale.tuned.json" << 'EOF2'
{"format": "twintile tuned table 1", "kernel": "scale<i32, {BLOCK}>", "key": ["n"], "grid": "cdiv(n, BLOCK)",
 "rows": [{"key": [100], "config": {"BLOCK": 32, "num_warps": 1}, "seconds": 2e-06, "device": "an H200"},
          {"key": [4096], "config": {"BLOCK": 256, "num_warps": 4}, "seconds": 3e-06, "device": "an H200"}]}
EOF2
cat > "$work/options/main.cpp" << 'EOF2'
#include "scalers.h"
#include <cstdio>
#include <vector>
// The tuned function: n = 100 is a row; 3000 runs the nearest row's (4096's) configuration.
bool tuned(twintile::runtime::Device &device, int32_t n, const char *config, bool nearest) {
  std::vector<int32_t> in(static_cast<size_t>(n)), out(static_cast<size_t>(n), 0);
  for (int32_t i = 0; i < n; ++i) in[size_t(i)] = i % 13 - 6;
  twintile::runtime::Call c = scalers::scale(device, in, out, n, 5);
  bool right = c.ok() && c.config == config && c.nearest == nearest;
  for (int32_t i = 0; i < n; ++i) right = right && out[size_t(i)] == 5 * in[size_t(i)];
  std::printf("tuned n=%d: %s '%s'%s %s\n", n, right ? "right" : "WRONG", c.config.c_str(),
              c.nearest ? " (nearest)" : "", c.error.c_str());
  return right;
}
int main() {
  auto device = twintile::runtime::makeEmuDevice();
  std::vector<int32_t> in(100), out(101);
  for (int i = 0; i < 100; ++i) in[i] = i - 7;
  twintile::runtime::Call c = scalers::scale_by(*device, {2}, in, std::span(out).first(100), 100, -3);
  bool right = c.ok() && c.target == "sm_80";
  for (int i = 0; i < 100; ++i) right = right && out[i] == 3 * (7 - i);
  // out one element past an aligned address breaks the promise every variant has.
  twintile::runtime::Call broken = scalers::scale_by(*device, {2}, in, std::span(out).subspan(1), 100, 2);
  std::printf("%s '%s' %s; broken: %s\n", right ? "right" : "WRONG", c.variant.c_str(), c.error.c_str(),
              broken.error.c_str());
  bool table = tuned(*device, 100, "BLOCK=32 num_warps=1", false) & tuned(*device, 3000, "BLOCK=256 num_warps=4", true);
  return right && table && broken.error.find("'out'") != std::string::npos ? 0 : 1;
}
EOF2

# The build folder, where it is not in the source tree (hidden with it).
hide_build=":"
case "$build/" in "$src"/*) ;; *) hide_build="mount -t tmpfs none '$build'" ;; esac
export work cmake cxx
unshare -rm bash -c "
  set -euo pipefail
  mount -t tmpfs none '$src'
  $hide_build
  [ ! -e '$src/include/twintile.h' ] && [ ! -e '$build/CMakeCache.txt' ]
  export TWINTILE_CACHE_DIR=\$work/cache
  for project in app options; do
    \"\$cmake\" -S \"\$work/\$project\" -B \"\$work/\$project-build\" $(printf '%q ' "${generator[@]}") \
      -DCMAKE_CXX_COMPILER=\"\$cxx\" -DCMAKE_PREFIX_PATH=\"\$work/prefix\" > \"\$work/\$project.configure.log\" 2>&1 ||
      { cat \"\$work/\$project.configure.log\"; exit 1; }
    \"\$cmake\" --build \"\$work/\$project-build\" > \"\$work/\$project.build.log\" 2>&1 ||
      { cat \"\$work/\$project.build.log\"; exit 1; }
  done
  \"\$work/app-build/app\"
  \"\$work/app-build/app_oracle\"
  \"\$work/options-build/options\"
  # A file the kernel file includes changes: the library is compiled again.
  echo 'constexpr int kBlock = 512;' > \"\$work/app/block.h\"
  \"\$cmake\" --build \"\$work/app-build\" > \"\$work/rebuild.log\" 2>&1 || { cat \"\$work/rebuild.log\"; exit 1; }
  grep -q 'twintile: compiling kernels.cpp' \"\$work/rebuild.log\" ||
    { echo 'FAIL: a change to block.h, which kernels.cpp includes, did not compile the library again'; cat \"\$work/rebuild.log\"; exit 1; }
  grep -q 'arange {end = 512' \"\$work/app-build/app_kernels/app_kernels.cpp\" ||
    { echo 'FAIL: the library compiled again does not have the new block size'; exit 1; }
  \"\$work/app-build/app\" > /dev/null
"
echo "PASS: the installed package, moved, with the source and build trees hidden: examples/app and a library with every option built and right"

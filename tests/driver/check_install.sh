#!/usr/bin/env bash
# An installed twintile, moved to another prefix, compiles kernels as the
# build tree's does, through both front ends (the tracing one in process and
# through clang++) and to PTX, with the source tree hidden: it carries the
# language's files and reads nothing of the tree it was built from.
#
# Usage: check_install.sh CMAKE BUILD_DIR SOURCE_DIR
# Exits 77 (ctest's SKIP) where the tree cannot be hidden (no mount
# namespaces: `unshare -rm` refused).
set -euo pipefail
cmake=$1
build=$(cd "$2" && pwd)
src=$(cd "$3" && pwd)
unset DESTDIR
# shellcheck source=../hidden_tree.sh
source "$(dirname "$0")/../hidden_tree.sh"
skip_unless_hideable "$src"

# Outside the source tree, which is hidden below.
work=$(work_outside twintile-install "$src")
trap 'rm -rf "$work"' EXIT
"$cmake" --install "$build" --prefix "$work/installed" > "$work/install.log"
mv "$work/installed" "$work/moved"
prefix=$work/moved
for f in bin/twintile bin/twintile-opt include/twintile.h include/twintile/values.h; do
  [ -e "$prefix/$f" ] || { echo "FAIL: the install has no $f"; cat "$work/install.log"; exit 1; }
done

# libdevice, which the build found perhaps in the source tree's .venv/, given
# to both alike (a copy outside the tree), so that precise math is compared.
libdevice=$(find "$src/.venv" /usr/local/cuda -name libdevice.10.bc 2> /dev/null | head -1 || true)
if [ -n "$libdevice" ]; then
  cp "$libdevice" "$work/libdevice.10.bc"
  export TWINTILE_LIBDEVICE=$work/libdevice.10.bc
fi

cat > "$work/kernels.cpp" << 'EOF'
#include <twintile.h>
using namespace tt;

template <class T, int BLOCK = 256>
TT_KERNEL void scaled_exp(Ptr<T> x, Ptr<T> y, i32 n, f32 a) {
  auto offs = program_id(0) * BLOCK + arange(0, BLOCK);
  auto m = offs < n;
  store(y + offs, cast<T>(exp(cast<f32>(load(x + offs, m)) * a)), m);
}
EOF

# Each way of compiling: the stage, then the arguments.
ways=("tile --frontend=parse" "tile --frontend=trace" "tile --frontend=trace --trace-host clang++"
      "ptx --frontend=parse" "ptx --frontend=trace")
compile() {  # TWINTILE CACHE OUT
  local i=0 stage args
  for way in "${ways[@]}"; do
    read -r stage args <<< "$way"
    # -o names a folder: a file per kernel.
    # shellcheck disable=SC2086
    TWINTILE_CACHE_DIR=$2 "$1" compile $args "$work/kernels.cpp" --kernel 'scaled_exp<f16>' \
      --kernel 'scaled_exp<f32, 1024>' --emit "$stage" --no-cache -o "$3.$i" 2>> "$work/notes"
    i=$((i + 1))
  done
}
compile "$build/tools/twintile" "$work/cache-build" "$work/expected"
export work
unshare -rm bash -c "
  set -euo pipefail
  mount -t tmpfs none '$src'
  [ ! -e '$src/include/twintile.h' ]
  $(declare -p ways)
  $(declare -f compile)
  compile '$prefix/bin/twintile' '$work/cache-installed' '$work/got'
"
for i in "${!ways[@]}"; do
  if ! diff -r "$work/expected.$i" "$work/got.$i" > "$work/diff.$i"; then
    echo "FAIL: the installed twintile's output differs from the build tree's (${ways[$i]}):"
    head -20 "$work/diff.$i"
    exit 1
  fi
done
ls "$work"/cache-installed/language/*/include/twintile.h > /dev/null
echo "PASS: the installed twintile, moved, with the source tree hidden: ${#ways[@]} ways, output as the build tree's"
